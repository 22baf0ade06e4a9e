//! The digital corruptions: pixelate (Pillow's box downscale, then nearest back),
//! JPEG compression (stored and read back), and the elastic transform (a smooth
//! random displacement field), at `imagecorruptions`' constants.

use super::filter::{self, Edge};
use super::rgb::Rgb;
use super::rng::Draws;
use image::ImageEncoder;

pub(super) fn pixelate(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let c = [0.6, 0.5, 0.4, 0.3, 0.25][severity - 1];
    let (w, h) = (img.w, img.h);
    let (sw, sh) = (((w as f64) * c) as usize, ((h as f64) * c) as usize);
    if sw == 0 || sh == 0 {
        return;
    }
    let levels = img.to_u8();
    // Pillow resamples horizontally, then vertically, each pass to 8 bits.
    let across = box_pass(&levels, w, h, sw, true);
    let small = box_pass(&across, sw, h, sh, false);
    let (xs, ys) = (nearest(sw, w), nearest(sh, h));
    for (y, &sy) in ys.iter().enumerate() {
        for (x, &sx) in xs.iter().enumerate() {
            for c in 0..3 {
                img.px[(y * w + x) * 3 + c] = f32::from(small[(sy * sw + sx) * 3 + c]) / 255.0;
            }
        }
    }
}

/// Pillow's fixed-point precision of resampling weights.
const PRECISION_BITS: u32 = 22;

/// Pillow's `precompute_coeffs` for its box filter, `n` → `out`, and the
/// weights in its 8-bit fixed point: per output, the first input and the weights.
fn box_coeffs(n: usize, out: usize) -> Vec<(usize, Vec<i64>)> {
    let scale = n as f64 / out as f64;
    let filterscale = scale.max(1.0);
    let support = 0.5 * filterscale;
    (0..out)
        .map(|xx| {
            let center = (xx as f64 + 0.5) * scale;
            let xmin = ((center - support + 0.5) as i64).max(0) as usize;
            let xmax = (((center + support + 0.5) as i64) as usize).min(n) - xmin;
            let k: Vec<f64> = (0..xmax)
                .map(|x| {
                    let t = (x as f64 + xmin as f64 - center + 0.5) / filterscale;
                    if t > -0.5 && t <= 0.5 { 1.0 } else { 0.0 }
                })
                .collect();
            let total: f64 = k.iter().sum();
            let fixed = (k.iter())
                .map(|&v| {
                    let v = if total != 0.0 { v / total } else { v };
                    (0.5 + v * f64::from(1u32 << PRECISION_BITS)) as i64
                })
                .collect();
            (xmin, fixed)
        })
        .collect()
}

/// One Pillow resampling pass of 3-channel levels, along rows (`across`) or columns.
fn box_pass(src: &[u8], w: usize, h: usize, out: usize, across: bool) -> Vec<u8> {
    let coeffs = box_coeffs(if across { w } else { h }, out);
    let (ow, oh) = if across { (out, h) } else { (w, out) };
    let mut dst = vec![0u8; ow * oh * 3];
    for y in 0..oh {
        for x in 0..ow {
            let (start, k) = &coeffs[if across { x } else { y }];
            for c in 0..3 {
                let mut ss: i64 = 1 << (PRECISION_BITS - 1);
                for (i, kk) in k.iter().enumerate() {
                    let (sx, sy) = if across {
                        (start + i, y)
                    } else {
                        (x, start + i)
                    };
                    ss += i64::from(src[(sy * w + sx) * 3 + c]) * kk;
                }
                dst[(y * ow + x) * 3 + c] = (ss >> PRECISION_BITS).clamp(0, 255) as u8;
            }
        }
    }
    dst
}

/// Pillow's nearest-neighbour upscale `n` → `out`: output i reads
/// `⌊(i + ½)·n/out⌋`, accumulated as Pillow accumulates it.
fn nearest(n: usize, out: usize) -> Vec<usize> {
    let a = n as f64 / out as f64;
    let mut x = a * 0.5;
    (0..out)
        .map(|_| {
            let i = (x.max(0.0) as usize).min(n - 1);
            x += a;
            i
        })
        .collect()
}

pub(super) fn jpeg_compression(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let quality = [25, 18, 15, 10, 7][severity - 1];
    let (w, h) = (img.w, img.h);
    if let Some(levels) = jpeg_round_trip(&img.to_u8(), w, h, quality) {
        *img = Rgb::from_u8(w, h, &levels);
    }
}

/// 3-channel levels stored as a baseline JPEG at `quality` and read back; `None`
/// when the encoder refuses the size (over 65,535 px a side).
pub(crate) fn jpeg_round_trip(rgb: &[u8], w: usize, h: usize, quality: u8) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(rgb.len() / 8);
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .write_image(rgb, w as u32, h as u32, image::ExtendedColorType::Rgb8)
        .ok()?;
    let back = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).ok()?;
    Some(back.to_rgb8().into_raw())
}

pub(super) fn elastic_transform(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let alpha = [0.05, 0.065, 0.085, 0.1, 0.12][severity - 1] * 250.0;
    let (w, h) = (img.w, img.h);
    let sigma = (h as f64 * 0.01, w as f64 * 0.01);
    let max = h as f64 * 0.005;
    let mut field = || {
        let mut d: Vec<f32> = (0..w * h)
            .map(|_| draws.uniform(-max, max) as f32)
            .collect();
        filter::gaussian(&mut d, w, h, 1, sigma, 3.0, Edge::Reflect);
        d.iter_mut().for_each(|v| *v *= alpha as f32);
        d
    };
    let (dx, dy) = (field(), field());
    let src = img.px.clone();
    // scipy's map_coordinates, order 1, mode `reflect`.
    let reflect = |t: f32, n: usize| -> f32 {
        let n = n as f32;
        let t = if t < -0.5 { -1.0 - t } else { t };
        if t > n - 0.5 { 2.0 * n - 1.0 - t } else { t }
    };
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let sy = reflect(y as f32 + dy[i], h).clamp(0.0, (h - 1) as f32);
            let sx = reflect(x as f32 + dx[i], w).clamp(0.0, (w - 1) as f32);
            let (y0, x0) = (sy as usize, sx as usize);
            let (y1, x1) = ((y0 + 1).min(h - 1), (x0 + 1).min(w - 1));
            let (fy, fx) = (sy - y0 as f32, sx - x0 as f32);
            for c in 0..3 {
                let at = |yy: usize, xx: usize| src[(yy * w + xx) * 3 + c];
                let top = at(y0, x0) + fx * (at(y0, x1) - at(y0, x0));
                let bottom = at(y1, x0) + fx * (at(y1, x1) - at(y1, x0));
                img.px[i * 3 + c] = top + fy * (bottom - top);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pillow 11: resizing one-hot rows of 10 to 4 with `Image.BOX` reads inputs
    /// 0–2, 3–4, 5–7 and 8–9; `NEAREST` back from 4 to 10 reads these.
    #[test]
    fn box_weights_are_pillows() {
        let c = box_coeffs(10, 4);
        let spans: Vec<(usize, usize)> = c
            .iter()
            .map(|(s, k)| (*s, k.iter().filter(|&&v| v > 0).count()))
            .collect();
        assert_eq!(spans, [(0, 3), (3, 2), (5, 3), (8, 2)]);
        assert_eq!(nearest(4, 10), [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]);
    }

    #[test]
    fn the_jpeg_round_trip_is_close_at_high_quality() {
        let (w, h) = (32usize, 16usize);
        let rgb: Vec<u8> = (0..w * h * 3).map(|i| ((i / 3) % w * 8) as u8).collect();
        let back = jpeg_round_trip(&rgb, w, h, 95).unwrap();
        let worst = rgb
            .iter()
            .zip(&back)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap();
        assert!(worst < 12, "{worst}");
    }
}
