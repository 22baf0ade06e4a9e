//! # geomrender
//!
//! Generate GeomVerse-style geometry problems, render their diagrams in batch on the
//! GPU with wgpu, and emit controlled robustness variants of every image.
//!
//! The modules are declared in pipeline order, and data flows one way: a module uses
//! only those declared above it (`tests/it/layering.rs` checks this).
//!
//! Leaf helpers, usable by every stage, using none:
//!
//! ```text
//! decimal   numbers as short decimal text
//! digest    SHA-256 hex of written files
//! font      the embedded DejaVu Sans: bytes, family name, metrics, label boxes
//! jsonl     the one JSON Lines splitter (bounded, numbered, UTF-8 checked)
//! style     Style, Palette, Rotation, Encoding: how an image looks and is stored
//! vec2      2-D vector maths (f32 and f64) with one zero-vector policy
//! ```
//!
//! The stages:
//!
//! ```text
//! scene     Scene v1: the renderer's input contract (parse, validate, JSON Schema, SVG writer)
//! generate  GeomVerse problems: Algorithm 1, diagrams to scale, question/solution texts
//! variants  one Problem → controlled variants (opacity, line width, font size, annotation, …)
//! compose   Problem + Style + Annotation → Scene (label layout, marks, palette)
//! render    Scene batches → RGBA pixels: wgpu (lyon + glyphon) on a GPU, the direct CPU
//!           rasteriser (`cpu`, the default without a hardware GPU), or resvg (the reference)
//! output    PNG/JPEG encoding, atomic files, output-directory lock, manifest rows, contact sheets
//! pipeline  the streaming run that ties the stages together; sharding a run (`pipeline::shard`)
//! score     model predictions → answer extraction, relaxed accuracy, sensitivity report
//! ```

// Unix only: the output directory is reached through openat/renameat with
// O_NOFOLLOW (`output::dir`), one run per directory through flock (`output::lock`),
// and SIGINT/SIGTERM clean-up through signal handlers (the CLI).
#[cfg(not(unix))]
compile_error!(
    "geomrender is Unix-only (Linux, macOS, the BSDs): it relies on openat/O_NOFOLLOW, flock and POSIX signals"
);

// Leaf helpers.
pub mod decimal;
pub mod digest;
pub mod font;
pub mod jsonl;
pub mod style;
pub mod vec2;

// The stages, in pipeline order (one group each, so that rustfmt keeps the order).
pub mod scene;

pub mod generate;

pub mod variants;

pub mod compose;

pub mod render;

pub mod output;

pub mod pipeline;

pub mod score;
