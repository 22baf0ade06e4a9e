//! PNG encoding of rendered images.
//!
//! Fully opaque images are written as RGB (a quarter smaller and faster to
//! encode), others as RGBA with straight alpha; one pass over the pixels both
//! drops alpha and checks that it was all opaque. Compression is the fast deflate
//! level with the `Up` filter, the fastest setting measured on the default sweep's
//! diagrams (release build, 100 diagrams, this VM; `examples/encode_probe.rs`):
//!
//! | filter   | encode ms/image | bytes/image |
//! |----------|-----------------|-------------|
//! | Adaptive | 0.40            | 18,044      |
//! | Paeth    | 0.30            | 19,522      |
//! | Sub      | 0.21            | 24,923      |
//! | Up       | 0.19            | 24,029      |
//! | None     | 0.81            | 486,687     |
//!
//! `Up` halves the encoder's time for a third more bytes: diagrams are flat colour,
//! so the row above predicts a pixel about as well as any filter.

use crate::render::RenderedImage;
use image::ImageEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};

/// Encodes `image` as PNG bytes.
pub fn encode_png(image: &RenderedImage) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::with_capacity(image.rgba.len() / 8);
    let encoder = PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Up);
    let mut rgb = vec![0u8; image.rgba.len() / 4 * 3];
    let mut opaque = true;
    for (d, s) in rgb.chunks_exact_mut(3).zip(image.rgba.chunks_exact(4)) {
        d.copy_from_slice(&s[..3]);
        opaque &= s[3] == 255;
    }
    if opaque {
        encoder.write_image(
            &rgb,
            image.width,
            image.height,
            image::ExtendedColorType::Rgb8,
        )?;
    } else {
        encoder.write_image(
            &image.rgba,
            image.width,
            image.height,
            image::ExtendedColorType::Rgba8,
        )?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> image::DynamicImage {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png).unwrap()
    }

    #[test]
    fn opaque_images_become_rgb_and_round_trip() {
        let rgba: Vec<u8> = (0..6 * 4)
            .map(|i| if i % 4 == 3 { 255 } else { (i * 7) as u8 })
            .collect();
        let img = RenderedImage {
            id: "x".into(),
            width: 3,
            height: 2,
            rgba: rgba.clone(),
        };
        let decoded = decode(&encode_png(&img).unwrap());
        assert_eq!(decoded.color(), image::ColorType::Rgb8);
        assert_eq!(decoded.to_rgba8().into_raw(), rgba);
    }

    #[test]
    fn translucent_images_keep_alpha() {
        let rgba = vec![10, 20, 30, 40, 50, 60, 70, 255];
        let img = RenderedImage {
            id: "x".into(),
            width: 2,
            height: 1,
            rgba: rgba.clone(),
        };
        let decoded = decode(&encode_png(&img).unwrap());
        assert_eq!(decoded.color(), image::ColorType::Rgba8);
        assert_eq!(decoded.to_rgba8().into_raw(), rgba);
    }
}
