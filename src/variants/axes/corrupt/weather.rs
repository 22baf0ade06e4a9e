//! The weather corruptions: fog (a diamond-square plasma added and the range
//! squeezed) and snow (a thresholded, zoomed, motion-blurred noise layer over a
//! brightened image), at `imagecorruptions`' constants. `frost` is left out: it
//! blends one of six photographs that the package ships without a stated source
//! or licence of their own.

use super::filter;
use super::rgb::Rgb;
use super::rng::Draws;

pub(super) fn fog(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let (c0, decay) = [(1.5, 2.0), (2.0, 2.0), (2.5, 1.7), (2.5, 1.5), (3.0, 1.4)][severity - 1];
    let size = img.w.max(img.h).max(3).next_power_of_two();
    let map = plasma(size, decay, draws);
    let max = img.max();
    let squeeze = max / (max + c0 as f32);
    for (y, row) in img.px.chunks_exact_mut(img.w * 3).enumerate() {
        for (x, p) in row.chunks_exact_mut(3).enumerate() {
            let add = c0 as f32 * map[y * size + x];
            for v in p {
                *v = (*v + add) * squeeze;
            }
        }
    }
}

/// The package's `plasma_fractal`: a `size` × `size` (a power of two) diamond-
/// square height map that wraps around, scaled to `0..=1`.
pub(crate) fn plasma(size: usize, decay: f64, draws: &mut Draws) -> Vec<f32> {
    let mut m = vec![0f64; size * size];
    let mut step = size;
    let mut wibble = 100.0f64;
    let at = |y: usize, x: usize| y * size + x;
    while step >= 2 {
        let n = size / step;
        let half = step / 2;
        let corner = |m: &[f64], i: usize, j: usize| m[at((i % n) * step, (j % n) * step)];
        // Squares: the centre of each, from its four corners.
        for i in 0..n {
            for j in 0..n {
                let s = corner(&m, i, j)
                    + corner(&m, i + 1, j)
                    + corner(&m, i, j + 1)
                    + corner(&m, i + 1, j + 1);
                m[at(i * step + half, j * step + half)] =
                    s / 4.0 + wibble * draws.uniform(-wibble, wibble);
            }
        }
        // Diamonds: the edge midpoints, from two corners and two centres.
        let centre = |m: &[f64], i: usize, j: usize| {
            m[at(((i + n) % n) * step + half, ((j + n) % n) * step + half)]
        };
        for i in 0..n {
            for j in 0..n {
                let s = centre(&m, i, j)
                    + centre(&m, i + n - 1, j)
                    + corner(&m, i, j)
                    + corner(&m, i, j + 1);
                m[at(i * step, j * step + half)] =
                    s / 4.0 + wibble * draws.uniform(-wibble, wibble);
            }
        }
        for i in 0..n {
            for j in 0..n {
                let s = centre(&m, i, j)
                    + centre(&m, i, j + n - 1)
                    + corner(&m, i, j)
                    + corner(&m, i + 1, j);
                m[at(i * step + half, j * step)] =
                    s / 4.0 + wibble * draws.uniform(-wibble, wibble);
            }
        }
        step /= 2;
        wibble /= decay;
    }
    let lo = m.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = m.iter().copied().fold(f64::NEG_INFINITY, f64::max) - lo;
    m.iter()
        .map(|v| {
            if hi > 0.0 {
                ((v - lo) / hi) as f32
            } else {
                0.0
            }
        })
        .collect()
}

pub(super) fn snow(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let (loc, scale, zoom, threshold, radius, sigma, keep) = [
        (0.1, 0.3, 3.0, 0.5, 10, 4.0, 0.8),
        (0.2, 0.3, 2.0, 0.5, 12, 4.0, 0.7),
        (0.55, 0.3, 4.0, 0.9, 12, 8.0, 0.7),
        (0.55, 0.3, 4.5, 0.85, 12, 8.0, 0.65),
        (0.55, 0.3, 2.5, 0.85, 12, 12.0, 0.55),
    ][severity - 1];
    let (w, h) = (img.w, img.h);
    let layer: Vec<f32> = (0..w * h)
        .step_by(2)
        .flat_map(|_| draws.normal_pair())
        .take(w * h)
        .map(|n| loc as f32 + scale as f32 * n)
        .collect();
    let mut layer = filter::clipped_zoom(&layer, w, h, 1, zoom);
    for v in &mut layer {
        *v = if *v < threshold as f32 {
            0.0
        } else {
            v.clamp(0.0, 1.0)
        };
    }
    let angle = draws.uniform(-135.0, -45.0);
    let layer = filter::motion(&layer, w, h, 1, radius, sigma, angle);
    let layer: Vec<f32> = (layer.iter())
        .map(|v| (v * 255.0).round_ties_even().clamp(0.0, 255.0) / 255.0)
        .collect();
    let n = w * h;
    for (i, p) in img.px.chunks_exact_mut(3).enumerate() {
        // OpenCV's RGB → gray weights.
        let gray = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        let flake = layer[i] + layer[n - 1 - i];
        for v in p {
            let bright = v.max(gray * 1.5 + 0.5);
            *v = keep * *v + (1.0 - keep) * bright + flake;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plasma_spans_zero_to_one_and_is_smooth() {
        let size = 64;
        let m = plasma(size, 2.0, &mut Draws::new(3, 4));
        let (lo, hi) = m
            .iter()
            .fold((1f32, 0f32), |(a, b), &v| (a.min(v), b.max(v)));
        assert_eq!((lo, hi), (0.0, 1.0));
        // Neighbours differ far less than the range: a height map, not noise.
        let step: f32 = (0..size * (size - 1))
            .map(|i| (m[i] - m[i + 1]).abs())
            .sum::<f32>()
            / (size * (size - 1)) as f32;
        assert!(step < 0.05, "{step}");
    }
}
