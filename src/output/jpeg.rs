//! JPEG encoding, for variants that mimic evaluation kits which re-encode images.
//! JPEG has no alpha: translucent pixels are composited over white first.

use crate::render::RenderedImage;
use image::ImageEncoder;
use image::codecs::jpeg::JpegEncoder;

/// Encodes `image` as a baseline JPEG at `quality` (1..=100).
pub(crate) fn encode_jpeg(
    image: &RenderedImage,
    quality: u8,
) -> Result<Vec<u8>, image::ImageError> {
    let rgb: Vec<u8> = image
        .rgba
        .chunks_exact(4)
        .flat_map(|p| {
            let a = p[3] as u32;
            let over_white = |c: u8| ((c as u32 * a + 255 * (255 - a) + 127) / 255) as u8;
            [over_white(p[0]), over_white(p[1]), over_white(p[2])]
        })
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 10);
    JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100)).write_image(
        &rgb,
        image.width,
        image.height,
        image::ExtendedColorType::Rgb8,
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_quality_is_smaller_and_decodes_close_to_the_original() {
        let (w, h) = (64u32, 64u32);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                let (x, y) = (i % w, i / w);
                [(x * 4) as u8, (y * 4) as u8, 128, 255]
            })
            .collect();
        let img = RenderedImage {
            id: "g".into(),
            width: w,
            height: h,
            rgba: rgba.clone(),
        };
        let hi = encode_jpeg(&img, 95).unwrap();
        let lo = encode_jpeg(&img, 20).unwrap();
        assert!(lo.len() < hi.len());
        let decoded = image::load_from_memory(&hi).unwrap().to_rgba8().into_raw();
        let mean: f64 = decoded
            .iter()
            .zip(&rgba)
            .map(|(a, b)| a.abs_diff(*b) as f64)
            .sum::<f64>()
            / rgba.len() as f64;
        assert!(mean < 3.0, "{mean}");
    }

    #[test]
    fn transparent_pixels_become_white() {
        let img = RenderedImage {
            id: "t".into(),
            width: 8,
            height: 8,
            rgba: vec![0; 8 * 8 * 4],
        };
        let decoded = image::load_from_memory(&encode_jpeg(&img, 90).unwrap())
            .unwrap()
            .to_rgb8();
        assert!(decoded.pixels().all(|p| p.0.iter().all(|&c| c >= 250)));
    }
}
