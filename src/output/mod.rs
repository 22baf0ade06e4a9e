//! Encoding and writing results: PNG and SVG files, written atomically, and manifest rows.

pub mod atomic;
pub mod manifest;
pub mod png;
pub mod svg;
