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
//! scene     Scene v1: the renderer's input contract (parse, validate, JSON Schema, SVG writer)
//! render    Scene batches → RGBA pixels (lyon + glyphon on wgpu, or resvg on the CPU)
//! output    PNG/JPEG encoding, atomic file writes, manifest rows
//! pipeline  the streaming run that ties the stages together
//! score     model predictions → answer extraction, relaxed accuracy, sensitivity report
//! ```
//!
//! Leaf modules that any stage may use, and that use no stage:
//!
//! ```text
//! font      the embedded DejaVu Sans: bytes, family name, metrics, label boxes
//! style     Style, Palette, Rotation, Encoding: how an image looks and is stored
//! vec2      2-D vector maths (f32 and f64) with one zero-vector policy
//! decimal   numbers as short decimal text
//! ```

pub mod compose;
pub mod decimal;
pub mod font;
pub mod generate;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod scene;
pub mod score;
pub mod style;
pub mod variants;
pub mod vec2;
