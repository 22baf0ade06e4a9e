//! The library's own tests: the checks that read crate-private items (the layout's
//! bookkeeping, the formula catalogue, the renderers' internals) or that compare the
//! stages against an independent computation without the binary. They are unit tests
//! of the whole crate, so that what only a test needs stays crate-private; the
//! integration tests (`tests/it/`) drive the binary and the public API. Both need
//! the `cli`, `gpu` and `parquet` features (`cargo test --features gpu,parquet`);
//! helpers live in `support/`.
//!
//! GPU tests take the shared renderer with `support::gpu::gpu_or_skip()`: without an
//! adapter they print `SKIPPED <test>: no GPU adapter` to stderr and return; under
//! `CI=true` they fail instead.
//!
//! - `aux_lines`: `aux` lines are the heights, radii and diagonals they claim, dashed,
//!   and keep the texts and answer.
//! - `availability`: the README's table is what a run of every axis counts, and
//!   meets the bars for `unrelated` and GeomRel's operations.
//! - `backends`: GPU output against resvg on the 300-scene corpus and feature scenes,
//!   and planted faults the comparison must catch.
//! - `batch`: batching and tile positions do not change a scene's pixels.
//! - `choices`: rotated options keep every text but the option list and the closing
//!   letter, and the letter follows its text.
//! - `compose_layout`: compose keeps labels apart and on the canvas; styles change only
//!   what they name.
//! - `consistency`: every name in the texts is drawn, under every axis.
//! - `generate_corpus`: generated problems cover every shape without overlaps, and are
//!   byte-identical across runs and thread counts.
//! - `generate_paper`: GeomVerse's worked examples (tables 3, 4) give the paper's numbers.
//! - `generate_solutions`: every equation of generated solutions re-evaluates.
//! - `generate_transforms`: info moves, relabelling and JSON round trips of Problems.
//! - `hardening`: `images/` swapped for a link mid-run: nothing is written through it.
//! - `label_fidelity`: style variants leave the geometry byte-identical (resolution,
//!   rotation and scale transform it exactly); labels stay attached to their elements.
//! - `modality`: the README's picture of one problem on every rung of the modality
//!   ladder and the blank control.
//! - `oracle`: the GPU-vs-resvg comparison metric itself (`support::oracle`).
//! - `palette`: the fills of one diagram differ by CIEDE2000 ΔE ≥ 20 over white at
//!   their opacity, and their names are never near-synonyms.
//! - `phrasing`: other wordings keep every fact, name and number.
//! - `pixels`: GPU pixels against values computed independently of the renderer.
//! - `problem_limits`: a Problem at every limit passes them, one more of anything is
//!   refused, and it lays out in well under a second.
//! - `probes`: the probe table (the README's), and probes of figures whose answers
//!   are known by hand: pairs balanced, options in a drawn order.
//! - `properties`: property tests (proptest): arbitrary JSON, and mutated Scenes and
//!   Problems, through expand → render on the CPU backend never panic.
//! - `raster`: the `cpu` rasteriser against resvg on the oracle corpus.
//! - `reference`: one scene per feature against `tests/reference/{gpu,cpu,resvg}/` images (one folder per backend).
//! - `relations`: GeomRel relation items: every relation has its constructions,
//!   choices are distinct and their letters uniform, texts name only drawn points,
//!   only the style axes and relabel/unrelated apply, visual marks are true,
//!   schemas, GeomRel's operations made for nearly every item, the README's
//!   examples.
//! - `relations_shortcut`: a blind reader of the question (a template classifier,
//!   a bag-of-words regression) cannot tell "Cannot be inferred" items apart.
//! - `relations_verify`: every relation item re-decided from its coordinates by the
//!   test's own code (a visual one from its picture alone); its conditions imply
//!   its answer (projected perturbations) and no other offered option, its figure
//!   shows no wrong option by eye, and each "Cannot be inferred" item gets a
//!   counter-example the test builds; also after relabel and unrelated.
//! - `score_bounds`: the bounds are the stated figures; a file read with any bound.
//! - `score_extraction`: answer extraction on the fixture of model outputs.
//! - `score_stats`: Wilson intervals and McNemar p-values against hand-computed values.
//! - `shaders`: every WGSL file validates with naga and is the one the renderer uses.
//! - `unrelated`: unrelated shapes keep steps and answer, and overlap nothing.
//! - `values`: values variants keep the problem's skeleton and wording, change its
//!   numbers, and re-solve (the tests' own evaluator and the formulas), at every depth.
//! - `variants`: each variant axis changes exactly what it names (pixels, texts,
//!   label layout).
//! - `run_files`: the names `--force` removes are those audit and gallery write.
//! - `backward`: backward questions re-solve to the forward given, within the rules.
//! - `svg_export`: SVG files are well-formed and resvg reads back the same picture.
//! - `support`: shared helpers only, no tests (`cpu`, and the integration tests' own).

mod aux_lines;
mod availability;
mod backends;
mod backward;
mod batch;
mod choices;
mod compose_layout;
mod consistency;
mod generate_corpus;
mod generate_paper;
mod generate_solutions;
mod generate_transforms;
mod hardening;
mod label_fidelity;
mod modality;
mod oracle;
mod palette;
mod phrasing;
mod pixels;
mod probes;
mod problem_limits;
mod properties;
mod raster;
mod reference;
mod relations;
mod relations_shortcut;
mod relations_verify;
mod run_files;
mod score_bounds;
mod score_extraction;
mod score_stats;
mod shaders;
mod support;
mod svg_export;
mod unrelated;
mod values;
mod variants;
