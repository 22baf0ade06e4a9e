//! Encoding and writing results: SVG documents, PNG files, manifest rows.

pub mod svg;
