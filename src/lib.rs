//! # geomrender
//!
//! Generate GeomVerse-style geometry problems, render their diagrams in batch on the
//! GPU with wgpu, and emit controlled robustness variants of every image.
//!
//! The modules are declared in pipeline order, and data flows one way: a module uses
//! only those declared above it (`tests/it/layering.rs` checks this).
//!
//! ```text
//! digest    leaf: SHA-256 hex of written files
//! jsonl     leaf: the one JSON Lines splitter (bounded, numbered, UTF-8 checked)
//! scene     Scene v1: the renderer's input contract (parse, validate, JSON Schema)
//! generate  GeomVerse problems: Algorithm 1, diagrams to scale, question/solution texts
//! variants  one Problem → controlled variants (opacity, line width, font size, annotation, …)
//! compose   Problem + Style + Annotation → Scene (label layout, marks, palette)
//! render    Scene batches → RGBA pixels (lyon + glyphon on wgpu, or resvg on the CPU)
//! output    PNG/JPEG encoding, atomic file writes, manifest rows, contact sheets
//! pipeline  the streaming run that ties the stages together
//! score     model predictions → answer extraction, relaxed accuracy, sensitivity report
//! ```

// Leaf helpers, usable by every stage.
pub mod digest;
pub mod jsonl;

// The stages, in pipeline order.
pub mod scene;
pub mod generate;
pub mod variants;
pub mod compose;
pub mod render;
pub mod output;
pub mod pipeline;
pub mod score;
