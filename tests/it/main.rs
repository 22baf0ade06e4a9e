//! The integration tests: one binary, one module per area. Shared helpers live in
//! `support/` (see its `mod.rs`); no test module imports from another.
//!
//! GPU tests take the shared renderer with `support::gpu::gpu_or_skip()`. Without an
//! adapter they print `SKIPPED <test>: no GPU adapter` to stderr and return; under
//! `CI=true` they fail instead. Tests that need only resvg never skip.
//!
//! Where a test belongs:
//!
//! - `audit`: `geomrender audit` passes a clean run of every axis and finds planted
//!   defects (a variant equal to its base, one re-fitted, one of the wrong kind).
//! - `availability`: which bases each variant value is made for, counted as a run
//!   counts it, printed, recorded in `done.json`, summed by `merge`, and the
//!   README's table.
//! - `aux_lines`: `aux` lines are the heights, radii and diagonals they claim, dashed,
//!   and keep the texts and answer.
//! - `backends`: GPU output against resvg on the 300-scene corpus and feature scenes,
//!   and planted faults the comparison must catch.
//! - `backward`: backward questions re-solve to the forward given, within the rules.
//! - `batch`: batching and tile positions do not change a scene's pixels.
//! - `cli`: `geomrender render`/`doctor`/`schema` end to end: bundled examples, bad
//!   input lines, determinism, stdin, errors, help.
//! - `compose_layout`: compose keeps labels apart and on the canvas; styles change only
//!   what they name.
//! - `consistency`: every name in the texts is drawn, under every axis.
//! - `datasets`: `--sink` and `export` write the same dataset bytes, also after a
//!   resume; what cannot be exported is refused (formats: `tests/python/`).
//! - `discovery`: `variants --list --json` and its schema, `--variants all` (audited),
//!   options that do not apply refused or said, the relation sweep's defaults and
//!   `bench --task relations`.
//! - `docs`: every `//!` table of contents names its modules; the README's axis
//!   table is the axis table.
//! - `gallery`: `geomrender gallery` indexes and cards every row with its image linked,
//!   names bad lines and changed images, keeps nothing stale when made again; its
//!   filter columns, relation cards, pages named by id linked from `audit.md`, SVG-only
//!   runs, FIFOs, manifests over 1 GiB, and memory flat in the rows.
//! - `generate_cli`: `geomrender generate` and `schema problem`, shards, bad options.
//! - `generate_corpus`: generated problems cover every shape without overlaps, and are
//!   byte-identical across runs and thread counts.
//! - `generate_paper`: GeomVerse's worked examples (tables 3, 4) give the paper's numbers.
//! - `generate_solutions`: every equation of generated solutions re-evaluates.
//! - `generate_transforms`: info moves, relabelling and JSON round trips of Problems.
//! - `hardening`: the new surfaces under hostile use: `export` reads only the run's
//!   own, unchanged images; no directory link under `--out` is followed (planted or
//!   swapped in); `merge` bounds shard counts and refuses while a shard runs; no
//!   dataset of an earlier run stays beside a new manifest.
//! - `interrupts`: runs stopped by SIGINT/SIGTERM/SIGKILL or a full disk, then
//!   `--resume`d, end byte-identical to uninterrupted runs on both backends.
//! - `label_fidelity`: style variants leave the geometry byte-identical (resolution,
//!   rotation and scale transform it exactly); labels stay attached to their elements.
//! - `layering`: no `src/` module imports a later stage.
//! - `manifest_row`: the typed manifest row keeps the bytes and matches its schema.
//! - `oracle`: the GPU-vs-resvg comparison metric itself (`support::oracle`).
//! - `palette`: the fills of one diagram differ by CIEDE2000 ΔE ≥ 20 over white at
//!   their opacity, and their names are never near-synonyms.
//! - `phrasing`: other wordings keep every fact, name and number.
//! - `pixel_stage`: the pixel stage through `blur`: mean kept, gradients lowered,
//!   CPU and GPU alike, the audit recomputing it, SVG-only runs refusing it.
//! - `pixels`: GPU pixels against values computed independently of the renderer.
//! - `public_api`: every public item of the library is in the reviewed list
//!   `docs/public-api.txt`, and there are at most 400.
//! - `problem_limits`: Problems past a limit (names, counts, values) and labels too
//!   large for the canvas are line errors naming the field; a Problem at every limit
//!   lays out in well under a second.
//! - `properties`: property tests (proptest): arbitrary JSON, and mutated Scenes and
//!   Problems, through expand → render on the CPU backend never panic.
//! - `raster`: the `cpu` rasteriser against resvg on the oracle corpus.
//! - `record`: the typed run record (`.geomrender.run.json`, `done.json`): the
//!   schema, the round trip, the provenance, `merge` naming each recipe field that
//!   differs, the old format refused.
//! - `reference`: one scene per feature against `tests/reference/{gpu,cpu,resvg}/` images (one folder per backend).
//! - `relations`: GeomRel relation items: every relation has its constructions,
//!   choices are distinct and their letters uniform, texts name only drawn points,
//!   only the style axes and relabel/unrelated apply, visual marks are true,
//!   schemas, same bytes for any threads and shards, GeomRel's operations made
//!   for nearly every item, the README's examples.
//! - `relations_shortcut`: a blind reader of the question (a template classifier,
//!   a bag-of-words regression) cannot tell "Cannot be inferred" items apart.
//! - `relations_verify`: every relation item re-decided from its coordinates by the
//!   test's own code (a visual one from its picture alone); its conditions imply
//!   its answer (projected perturbations) and no other offered option, its figure
//!   shows no wrong option by eye, and each "Cannot be inferred" item gets a
//!   counter-example the test builds; also after relabel and unrelated.
//! - `reliability`: hostile-but-realistic use: planted symlinks, device outputs,
//!   concurrent runs, impossible flags and values, unbounded inputs.
//! - `previous`: an earlier run in `--out`: the same command renders over it, other
//!   input or options are refused with nothing changed, `--force` replaces it; `audit`
//!   reads only the problems and intact images the run drew.
//! - `resume`: `render --resume` after an interruption, and what it refuses.
//! - `score_base_set`: `score --matched` counts the same bases in every row; without it
//!   each row says how many it counts.
//! - `score_blind`: blind baselines on real sweeps: from the manifest alone, the same
//!   bytes twice, GeomVerse with the template majority only.
//! - `score_bounds`: score's inputs are bounded (file, line, model output, .xlsx
//!   zip bombs), with errors naming file, line or id.
//! - `score_end_to_end`: `geomrender score` reports checked against an independent
//!   tally, on a hand-written and a real sweep; bad inputs; the report schema.
//! - `score_extraction`: answer extraction on the fixture of model outputs.
//! - `score_plots`: flips.png stars follow Holm p as report.md says; categorical
//!   axes are points, numeric ones lines through their base value.
//! - `score_inputs`: `--predictions` directories and globs; `null` predictions are
//!   missing ones.
//! - `score_relations`: GeomRel relation items: accuracy per relation, domain,
//!   subset and mode and the "Cannot be inferred" class against a planted plan;
//!   bad relation rows; GeomVerse reports without relation keys.
//! - `score_stats`: Wilson intervals and McNemar p-values against hand-computed values.
//! - `sharding`: shards merged give the single machine's bytes (Slurm, Ray, K8s).
//! - `shaders`: every WGSL file validates with naga and is the one the renderer uses.
//! - `svg_export`: SVG files are well-formed and resvg reads back the same picture.
//! - `unrelated`: unrelated shapes keep steps and answer, and overlap nothing.
//! - `value_spelling`: a variant value is spelled the same in ids, manifest rows,
//!   every dataset sink and every score output.
//! - `variants`: each variant axis changes exactly what it names; CLI rows pair
//!   variants with their base.
//! - `work_bounds`: scenes asking for unbounded work (huge strokes, fine dashes) are
//!   line errors on both backends; the rest of the run is written.
//! - `support`: shared helpers only, no tests (`cli`, `cpu`, `gpu`, `images`,
//!   `oracle`, `process`, `scenes`, `skip`).

mod audit;
mod aux_lines;
mod availability;
mod backends;
mod backward;
mod batch;
mod cli;
mod compose_layout;
mod consistency;
mod datasets;
mod discovery;
mod docs;
mod gallery;
mod generate_cli;
mod generate_corpus;
mod generate_paper;
mod generate_solutions;
mod generate_transforms;
mod hardening;
mod interrupts;
mod label_fidelity;
mod layering;
mod manifest_row;
mod oracle;
mod palette;
mod phrasing;
mod pixel_stage;
mod pixels;
mod previous;
mod problem_limits;
mod properties;
mod public_api;
mod raster;
mod record;
mod reference;
mod relations;
mod relations_shortcut;
mod relations_verify;
mod reliability;
mod resume;
mod score_base_set;
mod score_blind;
mod score_bounds;
mod score_end_to_end;
mod score_extraction;
mod score_inputs;
mod score_plots;
mod score_relations;
mod score_stats;
mod shaders;
mod sharding;
mod support;
mod svg_export;
mod unrelated;
mod value_spelling;
mod variants;
mod work_bounds;
