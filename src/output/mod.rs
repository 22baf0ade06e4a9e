//! Encoding and writing results: PNG, JPEG and SVG files, written atomically, and
//! manifest rows.

pub mod atomic;
pub mod contact;
pub mod jpeg;
pub mod lock;
pub mod manifest;
pub mod png;
pub mod svg;

use crate::render::RenderedImage;

/// How a rendered image is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Lossless PNG (RGB when opaque, RGBA otherwise).
    #[default]
    Png,
    /// Baseline JPEG at the given quality (1..=100), composited over white.
    Jpeg { quality: u8 },
}

impl Encoding {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Encoding::Png => "png",
            Encoding::Jpeg { .. } => "jpg",
        }
    }

    /// Encodes `image` into file bytes.
    pub fn encode(self, image: &RenderedImage) -> Result<Vec<u8>, image::ImageError> {
        match self {
            Encoding::Png => png::encode_png(image),
            Encoding::Jpeg { quality } => jpeg::encode_jpeg(image, quality),
        }
    }
}
