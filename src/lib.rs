//! # geomrender
//!
//! Generate GeomVerse-style geometry problems, render their diagrams in batch on the
//! GPU with wgpu, and emit controlled robustness variants of every image.
//!
//! The modules are declared in pipeline order, and data flows one way: a module uses
//! only those declared above it, and no two source files import each other
//! (`tests/it/layering.rs` checks both).
//!
//! Leaf helpers, usable by every stage, using none:
//!
//! ```text
//! decimal   numbers as short decimal text
//! digest    SHA-256 hex of written files
//! font      the embedded DejaVu Sans: bytes, family name, metrics, label boxes
//! html      escaping for the pages we write: text, URL paths, JSON in scripts, bidi controls
//! jsonl     the one JSON Lines splitter (bounded, numbered, UTF-8 checked)
//! style     Style, Palette, Rotation, Encoding: how an image looks and is stored
//! vec2      2-D vector maths (f32 and f64) with one zero-vector policy
//! words     one spelling per value: the enums a user names, their words, FromStr
//! ```
//!
//! The stages:
//!
//! ```text
//! scene     Scene v1: the renderer's input contract (parse, validate, JSON Schema, SVG writer)
//! generate  GeomVerse problems: Algorithm 1, diagrams to scale, question/solution texts
//! variants  one Problem → controlled variants (opacity, line width, font size, annotation, …)
//! compose   Problem + Style + Annotation → Scene (label layout, marks, palette), and
//!           what the image draws in its pixels (its grounding)
//! probe     perception probes on one image: exact, decidable by eye, balanced
//! render    Scene batches → RGBA pixels: wgpu (lyon + glyphon) on a GPU, the direct CPU
//!           rasteriser (`cpu`, the default without a hardware GPU), or resvg (the reference)
//! output    PNG/JPEG encoding, atomic files, output-directory lock, manifest rows, contact sheets
//! pipeline  the streaming run that ties the stages together; sharding a run (`pipeline::shard`)
//! score     model predictions → answer extraction, relaxed accuracy, sensitivity report
//! audit     a finished run's variants against their bases: what changed, what is undeclared
//! gallery   a finished run as a static site: index with filters, one page per base
//! cli       the `geomrender` command line (feature `cli`): `src/main.rs` calls `cli::main`
//! ```
//!
//! ## The library in two examples
//!
//! Generate a problem, vary it, compose each variant's Scene, render it on the CPU
//! and encode it as a run writes it:
//!
//! ```
//! use geomrender::compose::compose;
//! use geomrender::generate::{GenerateOptions, generate_one};
//! use geomrender::output::encode;
//! use geomrender::render::CpuRenderer;
//! use geomrender::variants::{Plan, draw_problem};
//!
//! // Problem 0 of run seed 0: the bytes `geomrender generate` writes for it.
//! let problem = generate_one(&GenerateOptions::default(), 0)?;
//! // The base image and two font sizes (`--variants fontsize=8,24`).
//! let plan = Plan::parse("fontsize=8,24", false)?;
//! let renderer = CpuRenderer::raster();
//! for variant in plan.variants() {
//!     let drawing = draw_problem(&problem, &variant)?;
//!     let composed = compose(&drawing.problem, &drawing.style, drawing.annotation)?;
//!     assert_eq!(composed.layout.overlaps, 0);
//!     let image = renderer.render(&composed.scene)?;
//!     let png = encode(drawing.encoding, &image)?;
//!     assert!(png.starts_with(b"\x89PNG"));
//!     println!("{}: {}", variant.id(&problem.id), drawing.problem.question(drawing.annotation));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Write a run (images, `manifest.jsonl`) and score a model's predictions on it:
//!
//! ```
//! use geomrender::generate::{GenerateOptions, generate_range};
//! use geomrender::pipeline::{Backend, Job, Progress, RunOptions};
//! use geomrender::render::CpuRenderer;
//! use geomrender::score::{LoadedFile, ScoreOptions, score};
//! use geomrender::variants::Plan;
//! use std::sync::Arc;
//!
//! let dir = tempfile::tempdir()?;
//! // Three problems as JSON lines, as `geomrender generate` writes them.
//! let mut lines = String::new();
//! for p in generate_range(&GenerateOptions::default(), 0, 3) {
//!     lines += &serde_json::to_string(&p?)?;
//!     lines.push('\n');
//! }
//! // Each with its `annotation` variant, drawn by the CPU rasteriser.
//! let plan = Plan::parse("annotation", false)?;
//! let options = RunOptions {
//!     backend: Backend::Cpu(Arc::new(CpuRenderer::raster())),
//!     ..RunOptions::new(dir.path())
//! };
//! struct Quiet;
//! impl Progress for Quiet {}
//! let expand = |line: &str| Job::expand(line, &plan);
//! let run = geomrender::pipeline::run(lines.as_bytes(), "problems", &expand, &options, &Quiet)?;
//! assert_eq!((run.lines, run.images), (3, 6));
//!
//! // A model that answers every image right, in the predictions' JSONL format.
//! let manifest = std::fs::read_to_string(dir.path().join("manifest.jsonl"))?;
//! let mut predictions = String::new();
//! for row in manifest.lines() {
//!     let row: serde_json::Value = serde_json::from_str(row)?;
//!     let answer = format!("The answer is {}.", row["answer"]);
//!     predictions += &serde_json::json!({"id": row["id"], "prediction": answer}).to_string();
//!     predictions.push('\n');
//! }
//! std::fs::write(dir.path().join("oracle.jsonl"), predictions)?;
//! let report = score(
//!     &LoadedFile::read(&dir.path().join("manifest.jsonl"))?,
//!     &[LoadedFile::read(&dir.path().join("oracle.jsonl"))?],
//!     &ScoreOptions::default(),
//! )?;
//! assert!(report.rows.iter().all(|r| r.accuracy == Some(1.0)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What is public, and why
//!
//! What a user of the library names: the entry points of each stage, the data
//! contracts between stages, and every type their signatures carry (each nameable
//! at a public path). The Python package, the benches, the doc examples and the
//! integration tests (`tests/it/`) are such users. The command line is the
//! library's `cli` module, so what only it needs is `pub(crate)`; so is what only
//! the library's own tests read (`src/tests/`: the layout's bookkeeping, the
//! formula catalogue, the renderers' frames). `docs/public-api.txt` lists every
//! `pub` item with its signature and `tests/it/public_api.rs` compares it with the
//! source, so that each addition is a reviewed diff (`GEOMRENDER_UPDATE_API=1`
//! writes the list; 400 items). Per stage:
//!
//! ```text
//! scene     Scene (scaled_to_width), Item, PathItem, TextItem, Color; parse_scene,
//!           parse_scene_value, SceneError; limits; svg::to_svg, synthetic (bench scenes)
//! generate  GenerateOptions, generate_one, generate_range, problem_seed, Generator
//!           (GeomVerse or relation items behind one type), Problem and its parts,
//!           Annotation, Info, SCHEMA, the errors; relations (RelationOptions,
//!           generate_relation, generate_relations, the relation table)
//! variants  AXES, Axis, AxisDef, AxisValue, Setting, Values, Look, OnScene; Pixels,
//!           Canvas, PixelHook (the pixel stage); Plan, Variant, GEOMVERSE_SWEEP,
//!           RELATION_SWEEP; draw_problem, Drawing; VariantError
//! compose   compose, Composed, LayoutStats, ComposeError; Drawn (a Job's handle on
//!           what its image draws, for probes and COCO)
//! probe     ProbeOptions (`RunOptions::probes`)
//! render    CpuRenderer, RenderedImage, recycle, Requested/BackendKind/Decision/
//!           BackendError, layout_glyphs; gpu::GpuRenderer and its options (feature
//!           `gpu`), prepare, Tessellator
//! output    encode, encode_png; manifest (ManifestRow, Lineage, SCHEMA); datasets
//!           (Sink, DatasetOptions); merge; record (the typed run record: RunRecipe,
//!           Provenance, ShardRecipe, SCHEMA); availability; Dir, LockError
//! pipeline  run, RunOptions, Backend (Backend::open: the one door to a backend),
//!           SceneRenderer (render_one: one image as a run makes it), Outputs, Job,
//!           Progress, RunSummary, the errors
//! score     score, score_paths, ScoreOptions, LoadedFile, Report and its rows
//!           (Perception: the probes joined with the reasoning verdicts),
//!           write_report, write_items, Tolerance
//! audit     audit, AuditOptions, Audit and its rows and groups, parse_variant
//! gallery   build, GalleryOptions, Gallery, GalleryError, GalleryLineError
//! cli       main (feature `cli`): the `geomrender` binary
//! ```
//!
//! Error enums are `#[non_exhaustive]`. Each public type and free function has one
//! name in the crate (`output::manifest::Lineage` and `score::LoadedFile`, not two
//! "inputs"; one `render::recycle` for a spent buffer), except the per-stage
//! `SCHEMA` constants (`generate`, `output::manifest`, `output::record`, `audit`):
//! each is its own module's record's schema.
//!
//! ## Cargo features
//!
//! - `cli` (default): the `geomrender` binary (clap, indicatif, anyhow). It does not
//!   imply `gpu`: the default binary draws on the CPU.
//! - `gpu` (not default): the wgpu backend (wgpu, glyphon, pollster). Without it the
//!   library renders with the CPU rasteriser and resvg, `render::gpu` does not exist
//!   and `decide(Requested::Gpu)` is `BackendError::NoGpuFeature`:
//!   `cargo build --no-default-features`
//!   builds the library with neither wgpu nor any CLI dependency.
//! - `parquet` (not default): the Hugging Face Parquet sink and lmms-eval's, which
//!   reads its shards (Arrow and Parquet: `--sink parquet,lmms-eval`, `export --to
//!   parquet`). Without it `output::datasets` writes images, WebDataset and
//!   VLMEvalKit, and answers those two sinks with the build command that adds them.

// Every `pub` item is reachable from this root (else it is `pub(crate)`).
#![warn(unreachable_pub)]
// Some crate-private items serve only the command line (the `cli` module): without
// that feature they are unused, not dead.
#![cfg_attr(not(feature = "cli"), allow(dead_code, unused_imports))]
// The library's own tests (`src/tests/`) need all three features; a unit-test build
// with the command line but not the other two leaves out what only those tests use.
#![cfg_attr(
    all(test, feature = "cli", not(all(feature = "gpu", feature = "parquet"))),
    allow(dead_code, unused_imports)
)]

// Unix only: the output directory is reached through openat/renameat with
// O_NOFOLLOW (`output::dir`), one run per directory through flock (`output::lock`),
// and SIGINT/SIGTERM clean-up through signal handlers (the CLI).
#[cfg(not(unix))]
compile_error!(
    "geomrender is Unix-only (Linux, macOS, the BSDs): it relies on openat/O_NOFOLLOW, flock and POSIX signals"
);

// Leaf helpers.
mod decimal;
mod digest;
mod font;
mod html;
pub mod jsonl;
pub mod style;
mod vec2;
pub mod words;

// The stages, in pipeline order (one group each, so that rustfmt keeps the order).
pub mod scene;

pub mod generate;

pub mod variants;

pub mod compose;

pub mod probe;

pub mod render;

pub mod output;

pub mod pipeline;

pub mod score;

pub mod audit;

pub mod gallery;

// The command line (`src/main.rs` calls `cli::main`): after every stage it drives.
#[cfg(feature = "cli")]
pub mod cli;

// The library's own tests of crate-private items (`src/tests/`); they name the crate
// `geomrender`, as the integration tests and users do.
#[cfg(test)]
extern crate self as geomrender;
#[cfg(all(test, feature = "cli", feature = "gpu", feature = "parquet"))]
#[allow(unreachable_pub)]
mod tests;
