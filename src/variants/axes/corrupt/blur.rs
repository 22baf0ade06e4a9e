//! The blur corruptions: Gaussian, defocus (a disk), glass (blur, local pixel
//! shuffle, blur), motion (along a random direction) and zoom (the image averaged
//! with centre zooms of itself), at `imagecorruptions`' constants.

use super::filter::{self, Edge};
use super::rgb::Rgb;
use super::rng::Draws;

/// scikit-image's `gaussian` as the package calls it: truncate 4, edges nearest.
fn sk_gaussian(img: &mut Rgb, sigma: f64) {
    filter::gaussian(
        &mut img.px,
        img.w,
        img.h,
        3,
        (sigma, sigma),
        4.0,
        Edge::Nearest,
    );
}

pub(super) fn gaussian_blur(img: &mut Rgb, severity: usize, _: &mut Draws) {
    sk_gaussian(img, [1.0, 2.0, 3.0, 4.0, 6.0][severity - 1]);
}

pub(super) fn defocus_blur(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let (radius, alias) = [(3, 0.1), (4, 0.5), (6, 0.5), (8, 0.5), (10, 0.5)][severity - 1];
    filter::disk(&mut img.px, img.w, img.h, radius, alias);
}

/// Blur, stored as levels (truncated), each pixel replaced by a random neighbour
/// up to `delta` away in `iterations` sweeps from the bottom-right, blur again.
/// The package means to swap the two, but its `a, b = b, a` on numpy views
/// copies the neighbour and leaves it be (a pixel can spread; measured with the
/// package's own function: 100 distinct pixels become 74); so does this.
pub(super) fn glass_blur(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let (sigma, delta, iterations) = [
        (0.7, 1, 2),
        (0.9, 2, 1),
        (1.0, 2, 3),
        (1.1, 3, 2),
        (1.5, 4, 2),
    ][severity - 1];
    sk_gaussian(img, sigma);
    for v in &mut img.px {
        *v = (v.clamp(0.0, 1.0) * 255.0 + 1e-3).floor().min(255.0) / 255.0;
    }
    let (w, h) = (img.w as i64, img.h as i64);
    let px = &mut img.px;
    for _ in 0..iterations {
        for y in (delta + 1..=h - delta).rev() {
            for x in (delta + 1..=w - delta).rev() {
                let dx = draws.int(-delta, delta);
                let dy = draws.int(-delta, delta);
                let (yy, xx) = (y + dy, x + dx);
                if y >= h || x >= w || yy >= h || xx >= w {
                    continue;
                }
                let (a, b) = (((y * w + x) * 3) as usize, ((yy * w + xx) * 3) as usize);
                px.copy_within(b..b + 3, a);
            }
        }
    }
    sk_gaussian(img, sigma);
}

pub(super) fn motion_blur(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let (radius, sigma) = [(10, 3.0), (15, 5.0), (15, 8.0), (15, 12.0), (20, 15.0)][severity - 1];
    let angle = draws.uniform(-45.0, 45.0);
    img.px = filter::motion(&img.px, img.w, img.h, 3, radius, sigma, angle);
}

/// The zoom factors: `np.arange(1, stop, step)` as the package writes them.
const ZOOMS: [(f64, usize); 5] = [(0.01, 12), (0.01, 16), (0.02, 11), (0.02, 13), (0.03, 11)];

pub(super) fn zoom_blur(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let (step, n) = ZOOMS[severity - 1];
    let mut sum = img.px.clone();
    for k in 0..n {
        filter::add_clipped_zoom(&mut sum, &img.px, img.w, img.h, 3, 1.0 + k as f64 * step);
    }
    let norm = 1.0 / (n + 1) as f32;
    for (v, s) in img.px.iter_mut().zip(&sum) {
        *v = s * norm;
    }
}
