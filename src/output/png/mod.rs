//! PNG encoding of rendered images.
//!
//! Fully opaque images are written as RGB (a quarter smaller and faster to
//! encode), others as RGBA with straight alpha, with the `Up` filter and our own
//! deflate stream (`deflate.rs`). The filter was chosen with fdeflate, the `png`
//! crate's `Compression::Fast`, on the default sweep's diagrams (release build,
//! 100 diagrams, an earlier VM; measured with a probe since removed):
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
//! so the row above predicts a pixel about as well as any filter. The chunks are
//! written here rather than by the `png` crate so that dropping alpha, checking
//! opacity and filtering are one pass over the RGBA rows, straight into the
//! compressor (no RGB copy of the image first; `up.rs`), and so that the zeros
//! where a row repeats the row above, which that pass finds, are counted rather
//! than scanned again.
//!
//! The deflate stream codes runs of any byte (fdeflate: zeros only) with Huffman
//! codes made for each image (fdeflate: one fixed table): 0.567 of fdeflate's
//! bytes on the 50 diagrams of `cargo bench --bench raster` (`png_50_diagrams`
//! prints both sizes and times both), 0.554 over a 100-problem default sweep
//! (1,404 PNGs), for an encoder that takes about 1.15–1.2× fdeflate's time (the
//! README's Performance section has the figures).
//!
//! ```text
//! up       the Up filter from RGBA rows, and where each filtered row is not zero
//! deflate  the zlib stream: runs as matches, a block's codes from its counts
//! huffman  length-limited canonical Huffman codes
//! ```

mod deflate;
mod huffman;
mod up;

use crate::render::RenderedImage;

/// Row filter type 2: each byte minus the byte above it.
const UP: u8 = 2;

/// Encodes `image` as PNG bytes.
pub(crate) fn encode_png(image: &RenderedImage) -> Result<Vec<u8>, image::ImageError> {
    // Tried as RGB first; the first translucent pixel restarts it as RGBA.
    Ok(match encode(image, 3)? {
        Some(bytes) => bytes,
        None => encode(image, 4)?.expect("RGBA takes any pixel"),
    })
}

/// `channels` 3 (RGB: `None` at the first translucent pixel) or 4 (RGBA).
fn encode(image: &RenderedImage, channels: usize) -> std::io::Result<Option<Vec<u8>>> {
    let (w, h) = (image.width as usize, image.height as usize);
    let stride = w * 4;
    let line = 1 + w * channels;
    let mut zlib = deflate::Deflater::new(w * h / 16);
    // The filtered line, filter byte first; the row above the first is zeros.
    let mut filtered = vec![0u8; line];
    filtered[0] = UP;
    let zeros = vec![0u8; stride];
    let mut prev: &[u8] = &zeros;
    for row in image.rgba.chunks_exact(stride).take(h) {
        if channels == 3 {
            // Only the part of the row that differs from the row above is
            // scanned; the zeros around it are counted.
            let Some(span) = up::rgb(row, prev, &mut filtered[1..]) else {
                return Ok(None);
            };
            zlib.write_row(UP, &filtered[1..], span);
        } else {
            up::rgba(row, prev, &mut filtered[1..]);
            zlib.write(&filtered);
        }
        prev = row;
    }
    let mut data = zlib.finish();
    // As the `png` crate does: stored blocks when deflate would only grow the data.
    if data.len() > fdeflate::StoredOnlyCompressor::<()>::compressed_size(line * h) {
        data = stored(image, channels)?;
    }
    let mut out = Vec::with_capacity(data.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&image.width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&image.height.to_be_bytes());
    ihdr[8] = 8; // bit depth
    ihdr[9] = if channels == 3 { 2 } else { 6 }; // colour type: RGB, RGBA
    chunk(&mut out, b"IHDR", &ihdr);
    // A chunk holds at most 2^31 - 1 bytes.
    for part in data.chunks(1 << 30) {
        chunk(&mut out, b"IDAT", part);
    }
    chunk(&mut out, b"IEND", &[]);
    Ok(Some(out))
}

/// The unfiltered rows in stored deflate blocks.
fn stored(image: &RenderedImage, channels: usize) -> std::io::Result<Vec<u8>> {
    let mut zlib = fdeflate::StoredOnlyCompressor::new(std::io::Cursor::new(Vec::new()))?;
    let w = image.width as usize;
    for row in image.rgba.chunks_exact(w * 4) {
        zlib.write_data(&[0])?;
        for px in row.chunks_exact(4) {
            zlib.write_data(&px[..channels])?;
        }
    }
    Ok(zlib.finish()?.into_inner())
}

/// Appends one chunk: length, type, data, CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An image "x" of `rgba` pixels.
    fn image(width: u32, height: u32, rgba: Vec<u8>) -> RenderedImage {
        RenderedImage {
            id: "x".into(),
            width,
            height,
            rgba,
        }
    }

    fn decode(bytes: &[u8]) -> image::DynamicImage {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png).unwrap()
    }

    #[test]
    fn opaque_images_become_rgb_and_round_trip() {
        let rgba: Vec<u8> = (0..6 * 4)
            .map(|i| if i % 4 == 3 { 255 } else { (i * 7) as u8 })
            .collect();
        let img = image(3, 2, rgba.clone());
        let decoded = decode(&encode_png(&img).unwrap());
        assert_eq!(decoded.color(), image::ColorType::Rgb8);
        assert_eq!(decoded.to_rgba8().into_raw(), rgba);
    }

    /// Our chunks against the `png` crate's decoder, on a size whose rows do not
    /// fit one deflate block, and a translucent pixel late in the image (the RGB
    /// attempt is abandoned there); both equal the `image` crate's own encoding.
    #[test]
    fn large_images_match_the_image_crates_encoding() {
        use image::ImageEncoder;
        for late_alpha in [false, true] {
            let (w, h) = (301u32, 203u32);
            let mut rgba: Vec<u8> = (0..w * h * 4)
                .map(|i| {
                    if i % 4 == 3 {
                        255
                    } else {
                        ((i / 4) % 97 * 3 + i % 4) as u8
                    }
                })
                .collect();
            if late_alpha {
                let n = rgba.len();
                rgba[n - 5] = 17;
            }
            let img = image(w, h, rgba.clone());
            let ours = decode(&encode_png(&img).unwrap());
            assert_eq!(ours.to_rgba8().into_raw(), rgba);
            let mut theirs = Vec::new();
            image::codecs::png::PngEncoder::new(&mut theirs)
                .write_image(&rgba, w, h, image::ExtendedColorType::Rgba8)
                .unwrap();
            assert_eq!(decode(&theirs).to_rgba8().into_raw(), rgba);
            let want = if late_alpha {
                image::ColorType::Rgba8
            } else {
                image::ColorType::Rgb8
            };
            assert_eq!(ours.color(), want);
        }
    }

    /// A drawn diagram (lines, text, fills, margins): the pixels survive the
    /// `png` crate's decoder, and our stream (runs of any byte, codes made for
    /// the image) is well under the `png` crate's fastest encoding of the same
    /// RGB (fdeflate: zero runs only, fixed codes), the encoder this replaced;
    /// the default sweep's diagrams come to 0.57 of it.
    #[test]
    fn diagrams_compress_well_under_the_png_crates_fastest_setting() {
        use crate::compose::compose;
        use crate::generate::{Annotation, GenerateOptions, generate_range};
        use crate::render::CpuRenderer;
        use image::ImageEncoder;
        use image::codecs::png::{CompressionType, FilterType, PngEncoder};
        let opts = GenerateOptions {
            seed: 3,
            ..GenerateOptions::default()
        };
        let (mut ours, mut theirs) = (0, 0);
        for p in generate_range(&opts, 0, 4) {
            let scene = compose(&p.unwrap(), &Default::default(), Annotation::Coordinate)
                .unwrap()
                .scene;
            let img = CpuRenderer::raster().render(&scene).unwrap();
            let bytes = encode_png(&img).unwrap();
            let decoded = decode(&bytes);
            assert_eq!(decoded.color(), image::ColorType::Rgb8);
            assert_eq!(decoded.to_rgba8().into_raw(), img.rgba);
            let rgb: Vec<u8> = img
                .rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            let mut fast = Vec::new();
            PngEncoder::new_with_quality(&mut fast, CompressionType::Fast, FilterType::Up)
                .write_image(&rgb, img.width, img.height, image::ExtendedColorType::Rgb8)
                .unwrap();
            ours += bytes.len();
            theirs += fast.len();
        }
        assert!(ours * 10 < theirs * 7, "{ours} bytes against {theirs}");
    }

    /// Noise does not compress: the stored fallback is used and still decodes.
    #[test]
    fn incompressible_images_fall_back_to_stored_blocks() {
        let mut x = 12345u32;
        let rgba: Vec<u8> = (0..64 * 64 * 4)
            .map(|i| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                if i % 4 == 3 { 255 } else { (x >> 16) as u8 }
            })
            .collect();
        let img = image(64, 64, rgba.clone());
        let bytes = encode_png(&img).unwrap();
        assert!(
            bytes.len() < 64 * 64 * 3 + 64 * 6 + 200,
            "{} bytes",
            bytes.len()
        );
        assert_eq!(decode(&bytes).to_rgba8().into_raw(), rgba);
    }

    #[test]
    fn translucent_images_keep_alpha() {
        let rgba = vec![10, 20, 30, 40, 50, 60, 70, 255];
        let img = image(2, 1, rgba.clone());
        let decoded = decode(&encode_png(&img).unwrap());
        assert_eq!(decoded.color(), image::ColorType::Rgba8);
        assert_eq!(decoded.to_rgba8().into_raw(), rgba);
    }
}
