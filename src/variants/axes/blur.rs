//! `blur`: a Gaussian blur of the rendered image (the pixel stage; ours, after the
//! ImageNet-C style corruptions, and the proof of the stage's hook).
//!
//! σ is in px at 512 px (scaled with the canvas side, as line widths are). The
//! kernel is the sampled Gaussian out to ⌈3σ⌉, normalised; it is applied separably
//! (columns, then rows) to premultiplied RGBA in `f32`, with edge pixels repeated
//! past the border, and rounded once at the end. The same code runs after every
//! backend, so a blurred image differs between backends only as their rasters do.

use super::super::pixels::Canvas;
use super::super::{REFERENCE_CANVAS, Setting};
use super::{AxisDef, Change, OnScene, Values, number};

pub(super) static DEF: AxisDef = AxisDef {
    name: "blur",
    changes: "the rendered pixels blurred (Gaussian, σ in px at 512 px); the drawing and \
              its SVG stay the base's",
    from: "ours (pixel stage; ImageNet-C's gaussian_blur family)",
    base: "0",
    base_number: Some(0.0),
    sweep: &["0.5", "1", "2", "3"],
    values: Values::Number { lo: 0.1, hi: 16.0 },
    numeric: true,
    plot_title: "blur σ (px at 512 px)",
    look: None,
    rewrite: None,
    pixels: Some(blur),
    on_scene: OnScene::Apply {
        doc: "same (on the rendered pixels)",
        apply: |_, _, _| Ok(()),
    },
    may_change: &[Change::Pixels],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};

fn blur(s: Setting, canvas: &mut Canvas<'_>) {
    if let Some(sigma) = number(s) {
        let sigma = sigma * canvas.width() as f32 / REFERENCE_CANVAS;
        gaussian(canvas, sigma);
    }
}

/// The normalised half kernel: `k[0]` the centre, `k[i]` the weight at ±i.
fn kernel(sigma: f32) -> Vec<f32> {
    let sigma = f64::from(sigma);
    let radius = (3.0 * sigma).ceil().max(1.0) as usize;
    let g: Vec<f64> = (0..=radius)
        .map(|i| (-((i * i) as f64) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total = g[0] + 2.0 * g[1..].iter().sum::<f64>();
    g.iter().map(|w| (w / total) as f32).collect()
}

/// Blurs `canvas` in place with a Gaussian of standard deviation `sigma` px.
pub(super) fn gaussian(canvas: &mut Canvas<'_>, sigma: f32) {
    let (w, h) = (canvas.width() as usize, canvas.height() as usize);
    if w == 0 || h == 0 || sigma.is_nan() || sigma <= 0.0 {
        return;
    }
    let k = kernel(sigma);
    let r = k.len() - 1;
    let stride = w * 4;
    let rgba = canvas.rgba();
    SCRATCH.with_borrow_mut(|(src, tmp)| {
        // Premultiplied, so that a transparent pixel's colour does not bleed in.
        src.clear();
        src.reserve(rgba.len());
        for p in rgba.chunks_exact(4) {
            let a = f32::from(p[3]) / 255.0;
            src.extend_from_slice(&[
                f32::from(p[0]) * a,
                f32::from(p[1]) * a,
                f32::from(p[2]) * a,
                f32::from(p[3]),
            ]);
        }
        tmp.clear();
        tmp.resize(src.len(), 0.0);
        columns(src, tmp, &k, stride, h);
        rows(tmp, rgba, &k, r, w);
    });
}

thread_local! {
    /// The two f32 canvases a blur works in, kept per thread: a fresh 4 MiB buffer
    /// per image costs more in page faults than the blur itself.
    static SCRATCH: std::cell::RefCell<(Vec<f32>, Vec<f32>)> = Default::default();
}

/// Columns: each output row is a weighted sum of whole input rows (edges repeated).
fn columns(src: &[f32], tmp: &mut [f32], k: &[f32], stride: usize, h: usize) {
    let row = |y: isize| {
        let y = y.clamp(0, h as isize - 1) as usize;
        &src[y * stride..(y + 1) * stride]
    };
    for (y, out) in tmp.chunks_exact_mut(stride).enumerate() {
        let y = y as isize;
        for (o, c) in out.iter_mut().zip(row(y)) {
            *o = k[0] * c;
        }
        for (i, &wi) in k.iter().enumerate().skip(1) {
            let (up, down) = (row(y - i as isize), row(y + i as isize));
            for ((o, a), b) in out.iter_mut().zip(up).zip(down) {
                *o += wi * (a + b);
            }
        }
    }
}

/// Rows: each row padded by `r` repeated edge pixels, then shifted sums, written
/// back un-premultiplied and rounded.
fn rows(tmp: &[f32], rgba: &mut [u8], k: &[f32], r: usize, w: usize) {
    let stride = w * 4;
    let mut padded = vec![0f32; (w + 2 * r) * 4];
    let mut out = vec![0f32; stride];
    for (y, dst) in rgba.chunks_exact_mut(stride).enumerate() {
        let line = &tmp[y * stride..(y + 1) * stride];
        for i in 0..r {
            padded[i * 4..i * 4 + 4].copy_from_slice(&line[..4]);
            let j = r + w + i;
            padded[j * 4..j * 4 + 4].copy_from_slice(&line[stride - 4..]);
        }
        padded[r * 4..(r + w) * 4].copy_from_slice(line);
        let centre = &padded[r * 4..];
        for (o, c) in out.iter_mut().zip(centre) {
            *o = k[0] * c;
        }
        for (i, &wi) in k.iter().enumerate().skip(1) {
            let (left, right) = (&padded[(r - i) * 4..], &padded[(r + i) * 4..]);
            for ((o, a), b) in out.iter_mut().zip(left).zip(right) {
                *o += wi * (a + b);
            }
        }
        for (p, q) in dst.chunks_exact_mut(4).zip(out.chunks_exact(4)) {
            let a = q[3].clamp(0.0, 255.0);
            let un = if a > 0.0 { 255.0 / a } else { 0.0 };
            for (pc, qc) in p[..3].iter_mut().zip(q) {
                *pc = to_u8(qc * un);
            }
            p[3] = to_u8(a);
        }
    }
}

/// Rounded to the nearest level, clamped to 0..=255.
fn to_u8(v: f32) -> u8 {
    (v + 0.5).clamp(0.0, 255.0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .flat_map(|(x, y)| f(x, y))
            .collect()
    }

    fn blurred(w: u32, h: u32, rgba: &[u8], sigma: f32) -> Vec<u8> {
        let mut out = rgba.to_vec();
        gaussian(&mut Canvas::new(w, h, &mut out, 0).unwrap(), sigma);
        out
    }

    #[test]
    fn the_kernel_sums_to_one_and_falls_off() {
        for sigma in [0.1, 0.5, 1.0, 3.0, 16.0] {
            let k = kernel(sigma);
            let total = k[0] + 2.0 * k[1..].iter().sum::<f32>();
            assert!((total - 1.0).abs() < 1e-5, "σ {sigma}: {total}");
            assert!(k.windows(2).all(|p| p[0] >= p[1]));
            assert_eq!(k.len() - 1, ((3.0 * sigma).ceil() as usize).max(1));
        }
    }

    #[test]
    fn a_flat_image_stays_flat() {
        let img = image(9, 7, |_, _| [10, 200, 77, 255]);
        assert_eq!(blurred(9, 7, &img, 2.0), img);
    }

    /// Against a direct 2-D convolution (the definition, computed independently in
    /// f64 with clamped indices): within one level.
    #[test]
    fn it_matches_the_direct_convolution() {
        let (w, h) = (23u32, 17u32);
        let img = image(w, h, |x, y| {
            let v = ((x * 37 + y * 91) % 256) as u8;
            [v, 255 - v, (x * 11) as u8, 255]
        });
        let sigma = 1.7f64;
        let out = blurred(w, h, &img, sigma as f32);
        let r = (3.0 * sigma).ceil() as i64;
        let g = |d: i64| (-((d * d) as f64) / (2.0 * sigma * sigma)).exp();
        let norm: f64 = (-r..=r).map(g).sum();
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                for c in 0..3 {
                    let mut v = 0.0;
                    for dy in -r..=r {
                        for dx in -r..=r {
                            let (xx, yy) = (
                                (x + dx).clamp(0, w as i64 - 1),
                                (y + dy).clamp(0, h as i64 - 1),
                            );
                            let i = ((yy * w as i64 + xx) * 4 + c) as usize;
                            v += g(dx) * g(dy) * f64::from(img[i]);
                        }
                    }
                    let want = v / (norm * norm);
                    let got = f64::from(out[((y * w as i64 + x) * 4 + c) as usize]);
                    assert!((got - want).abs() <= 1.0, "({x},{y}) c{c}: {got} vs {want}");
                }
            }
        }
    }

    #[test]
    fn transparent_pixels_lend_no_colour() {
        // A red opaque half beside a transparent green half: no green appears.
        let img = image(8, 4, |x, _| {
            if x < 4 {
                [255, 0, 0, 255]
            } else {
                [0, 255, 0, 0]
            }
        });
        let out = blurred(8, 4, &img, 1.0);
        for p in out.chunks_exact(4).filter(|p| p[3] > 0) {
            assert_eq!((p[0], p[1], p[2]), (255, 0, 0), "{p:?}");
        }
        // Alpha falls off across the edge.
        assert!(out[3 * 4 + 3] < 255 && out[4 * 4 + 3] > 0);
    }

    #[test]
    fn the_mean_stays_and_the_edges_soften() {
        let (w, h) = (64u32, 64u32);
        let img = image(w, h, |x, y| {
            if (16..48).contains(&x) && (20..40).contains(&y) {
                [0, 0, 0, 255]
            } else {
                [255, 255, 255, 255]
            }
        });
        let out = blurred(w, h, &img, 3.0);
        let mean = |v: &[u8]| v.iter().map(|&b| f64::from(b)).sum::<f64>() / v.len() as f64;
        assert!((mean(&img) - mean(&out)).abs() < 0.5);
        let grad = |v: &[u8]| -> u64 {
            v.chunks_exact(4)
                .collect::<Vec<_>>()
                .windows(2)
                .map(|p| u64::from(p[0][0].abs_diff(p[1][0])))
                .max()
                .unwrap()
        };
        assert_eq!(grad(&img), 255);
        assert!(grad(&out) < 80, "{}", grad(&out));
    }
}
