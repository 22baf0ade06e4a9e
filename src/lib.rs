//! # geomrender
//!
//! Generate GeomVerse-style geometry problems, render their diagrams in batch on the
//! GPU with wgpu, and emit controlled robustness variants of every image.
//!
//! The modules follow the pipeline; data flows one way through owned values:
//!
//! ```text
//! generate  GeomVerse problems: Algorithm 1, diagrams to scale, question/solution texts
//! variants  one Problem → controlled variants (opacity, line width, font size, annotation, …)
//! compose   Problem + Style + Annotation → Scene (label layout, marks, palette)
//! scene     Scene v1: the renderer's input contract (parse, validate, JSON Schema)
//! render    Scene batches → RGBA pixels (lyon + glyphon on wgpu, or resvg on the CPU)
//! output    PNG/JPEG/SVG encoding, atomic file writes, manifest rows
//! pipeline  the streaming run that ties the stages together
//! score     model predictions → answer extraction, relaxed accuracy, sensitivity report
//! ```

pub mod compose;
pub mod generate;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod scene;
pub mod score;
pub mod variants;
