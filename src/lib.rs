//! # geomrender
//!
//! Generate GeomVerse-style geometry problems, render their diagrams in batch on the
//! GPU with wgpu, and emit controlled robustness variants of every image.
//!
//! The modules follow the pipeline; data flows one way through owned values:
//!
//! ```text
//! generate  GeomVerse problems: Algorithm 1, diagrams to scale, question/solution texts
//! compose   Problem + Style + Annotation → Scene (label layout, marks, palette)
//! scene   Scene v1: the renderer's input contract (parse, validate, JSON Schema)
//! render  Scene batches → RGBA pixels (lyon tessellation, glyphon text, wgpu)
//! output  PNG encoding, atomic file writes, manifest rows
//! score   model predictions → answer extraction, relaxed accuracy, sensitivity report
//! ```

pub mod compose;
pub mod generate;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod scene;
pub mod score;
