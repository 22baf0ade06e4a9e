//! Encoding and writing results: PNG and JPEG files, written atomically, and manifest
//! rows. (The Scene → SVG writer is part of the Scene contract: `crate::scene::svg`.)
//!
//! ```text
//! dir       the output directory as an opened handle: every path reached inside it
//! atomic    temp file + rename in the same directory, removed on failure or signal
//! lock      one run per output directory
//! png       PNG encoding (our own filter pass and deflate stream)
//! jpeg      JPEG encoding (the `jpeg` axis)
//! manifest  the typed manifest row, its schema, the writer
//! probes    `probes.jsonl`: the perception probes' rows and their schema
//! rows      the manifest read back line by line (every reader of it)
//! availability  which bases each variant value was made for (the run's summary, done.json)
//! contact   captioned contact sheets, one per axis
//! datasets  Parquet, WebDataset, VLMEvalKit and lmms-eval sinks and `export`
//! merge     a sharded run's shards as the single machine's files
//! record    the typed run record: recipe (fingerprinted) + provenance
//! ```

pub(crate) mod atomic;
pub mod availability;
pub(crate) mod contact;
pub mod datasets;
pub(crate) mod dir;
mod jpeg;
pub(crate) mod lock;
pub mod manifest;
pub mod merge;
mod png;
pub(crate) mod probes;
pub mod record;
pub(crate) mod rows;

pub use self::{dir::Dir, lock::LockError};

use crate::style::Encoding;

use crate::render::RenderedImage;

/// Encodes `image` into the bytes of a file in `encoding`.
pub fn encode(encoding: Encoding, image: &RenderedImage) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = match encoding {
        Encoding::Png => png::encode_png(image),
        Encoding::Jpeg { quality } => jpeg::encode_jpeg(image, quality),
    }?;
    // The bytes may wait in the pipeline's channels: keep only what they use.
    bytes.shrink_to_fit();
    Ok(bytes)
}
