//! The integration tests: one binary, one module per area, driving the `geomrender`
//! binary and the library's public API (the checks of crate-private items are the
//! library's own tests, `src/tests/`). Shared helpers live in `support/` (see its
//! `mod.rs`); no test module imports from another.
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
//!   counts it, printed, recorded in `done.json` and summed by `merge`.
//! - `backward`: `generate --backward` emits the problems each row asks.
//! - `cli`: `geomrender render`/`doctor`/`schema` end to end: bundled examples, bad
//!   input lines, determinism, stdin, errors, help.
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
//! - `hardening`: the new surfaces under hostile use: `export` reads only the run's
//!   own, unchanged images; no directory link under `--out` is followed (planted or
//!   swapped in); `merge` bounds shard counts and refuses while a shard runs; no
//!   dataset of an earlier run stays beside a new manifest.
//! - `interrupts`: runs stopped by SIGINT/SIGTERM/SIGKILL or a full disk, then
//!   `--resume`d, end byte-identical to uninterrupted runs on both backends.
//! - `layering`: no `src/` module imports a later stage.
//! - `manifest_row`: the typed manifest row keeps the bytes and matches its schema.
//! - `modality`: issue 47's run of every modality value with three sinks, each
//!   row's texts and images checked against its own Problem and SVG.
//! - `probes`: issue 48's run with `--probes --sink coco`: each probe on its own
//!   image, its points drawn vertices, its answer re-derived from them; the COCO
//!   file's entries and point boxes.
//! - `corruptions`: issue 49's run of 11 corruptions, sketch and photo: the same
//!   manifest at 1 and 2 threads, audited, texts kept, images visibly changed;
//!   contact sheets per corruption family, plots per severity.
//! - `pixel_stage`: the pixel stage through `blur`: mean kept, gradients lowered,
//!   CPU and GPU alike, the audit recomputing it, SVG-only runs refusing it.
//! - `public_api`: every public item of the library is in the reviewed list
//!   `docs/public-api.txt`, and there are at most 400.
//! - `problem_limits`: Problems past a limit (names, counts, values) and labels too
//!   large for the canvas are line errors naming the field.
//! - `record`: the typed run record (`.geomrender.run.json`, `done.json`): the
//!   schema, the round trip, the provenance, `merge` naming each recipe field that
//!   differs, the old format refused.
//! - `relations`: GeomRel relation items: the same bytes for any threads and shards.
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
//! - `score_plots`: flips.png stars follow Holm p as report.md says; categorical
//!   axes are points, numeric ones lines through their base value.
//! - `score_inputs`: `--predictions` directories and globs; `null` predictions are
//!   missing ones.
//! - `score_modality`: the blank control's gap and the vision gain with their
//!   McNemar tests against planted predictions.
//! - `score_perception`: the perception block: a planted model blind to parallels
//!   fails where it misreads, against an independent count and Fisher p.
//! - `score_relations`: GeomRel relation items: accuracy per relation, domain,
//!   subset and mode and the "Cannot be inferred" class against a planted plan;
//!   bad relation rows; GeomVerse reports without relation keys.
//! - `sharding`: shards merged give the single machine's bytes (Slurm, Ray, K8s).
//! - `value_spelling`: a variant value is spelled the same in ids, manifest rows,
//!   every dataset sink and every score output.
//! - `variants`: CLI rows pair variants with their base; semantic axes on Scene
//!   files are refused.
//! - `work_bounds`: scenes asking for unbounded work (huge strokes, fine dashes) are
//!   line errors on both backends; the rest of the run is written.
//! - `support`: shared helpers only, no tests (`cli`, `gpu`, `images`,
//!   `oracle`, `paths`, `process`, `skip`, `tmpfs`).

mod audit;
mod availability;
mod backward;
mod cli;
mod corruptions;
mod datasets;
mod discovery;
mod docs;
mod gallery;
mod generate_cli;
mod hardening;
mod interrupts;
mod layering;
mod manifest_row;
mod modality;
mod pixel_stage;
mod previous;
mod probes;
mod problem_limits;
mod public_api;
mod record;
mod relations;
mod reliability;
mod resume;
mod score_base_set;
mod score_blind;
mod score_bounds;
mod score_end_to_end;
mod score_inputs;
mod score_modality;
mod score_perception;
mod score_plots;
mod score_relations;
mod sharding;
mod support;
mod value_spelling;
mod variants;
mod work_bounds;
