//! The filters the corruptions are made of, as `imagecorruptions` calls them from
//! scipy, scikit-image and OpenCV: separable Gaussian blur (`scipy.ndimage`'s kernel,
//! radius `⌊truncate·σ + ½⌋`), a disk blur (OpenCV `filter2D` of the package's
//! `disk`), a directional blur (its `_motion_blur`), and a bilinear centre zoom (its
//! `clipped_zoom`). Planes are interleaved, `ch` values a pixel.

/// How a filter reads past the border.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Edge {
    /// `a a | a b c | c c` (scipy `nearest`, OpenCV `BORDER_REPLICATE`).
    Nearest,
    /// `b a | a b c | c b` (scipy `reflect`).
    Reflect,
    /// `c b | a b c | b a` (OpenCV's default, `BORDER_REFLECT_101`).
    Reflect101,
}

impl Edge {
    /// The index read for position `i` of a line of `n` (`n > 0`).
    pub(crate) fn index(self, i: isize, n: usize) -> usize {
        let n = n as isize;
        if (0..n).contains(&i) {
            return i as usize;
        }
        let i = match self {
            Edge::Nearest => i.clamp(0, n - 1),
            Edge::Reflect => {
                let period = 2 * n;
                let m = i.rem_euclid(period);
                if m < n { m } else { period - 1 - m }
            }
            Edge::Reflect101 if n == 1 => 0,
            Edge::Reflect101 => {
                let period = 2 * (n - 1);
                let m = i.rem_euclid(period);
                if m < n { m } else { period - m }
            }
        };
        i as usize
    }
}

/// scipy's Gaussian kernel: `exp(-x²/2σ²)` for `|x| ≤ ⌊truncate·σ + ½⌋`, summing to 1.
pub(crate) fn gaussian_kernel(sigma: f64, truncate: f64) -> Vec<f32> {
    let r = (truncate * sigma + 0.5) as i64;
    let w: Vec<f64> = (-r..=r)
        .map(|x| (-0.5 * (x * x) as f64 / (sigma * sigma)).exp())
        .collect();
    let total: f64 = w.iter().sum();
    w.iter().map(|v| (v / total) as f32).collect()
}

/// Convolves every row with `k` (odd length, centred).
pub(crate) fn rows(px: &mut [f32], w: usize, h: usize, ch: usize, k: &[f32], edge: Edge) {
    let r = k.len() / 2;
    let stride = w * ch;
    let mut padded = vec![0f32; (w + 2 * r) * ch];
    let mut out = vec![0f32; stride];
    for y in 0..h {
        let line = &mut px[y * stride..(y + 1) * stride];
        for (i, p) in padded.chunks_exact_mut(ch).enumerate() {
            let x = edge.index(i as isize - r as isize, w);
            p.copy_from_slice(&line[x * ch..(x + 1) * ch]);
        }
        out.fill(0.0);
        for (j, &kj) in k.iter().enumerate() {
            for (o, &v) in out.iter_mut().zip(&padded[j * ch..j * ch + stride]) {
                *o += kj * v;
            }
        }
        line.copy_from_slice(&out);
    }
}

/// Convolves every column with `k` (odd length, centred).
pub(crate) fn columns(px: &mut [f32], w: usize, h: usize, ch: usize, k: &[f32], edge: Edge) {
    let r = k.len() as isize / 2;
    let stride = w * ch;
    let src = px.to_vec();
    for (y, line) in px.chunks_exact_mut(stride).enumerate() {
        line.fill(0.0);
        for (j, &kj) in k.iter().enumerate() {
            let yy = edge.index(y as isize + j as isize - r, h);
            for (o, &v) in line.iter_mut().zip(&src[yy * stride..(yy + 1) * stride]) {
                *o += kj * v;
            }
        }
    }
}

/// A Gaussian blur of standard deviation `sigma` (scipy's `gaussian_filter`, as
/// scikit-image's `gaussian` calls it: `truncate` 4 and edges `nearest` there).
pub(crate) fn gaussian(
    px: &mut [f32],
    w: usize,
    h: usize,
    ch: usize,
    sigma: (f64, f64),
    truncate: f64,
    edge: Edge,
) {
    if w == 0 || h == 0 {
        return;
    }
    if sigma.0 > 0.0 {
        columns(px, w, h, ch, &gaussian_kernel(sigma.0, truncate), edge);
    }
    if sigma.1 > 0.0 {
        rows(px, w, h, ch, &gaussian_kernel(sigma.1, truncate), edge);
    }
}

/// The package's `disk(radius, alias_blur)` convolved with each channel (OpenCV
/// `filter2D`, edges reflected about the border pixel). The kernel is the aliased
/// disk (`x² + y² ≤ r²`, normalised) blurred by a 3 × 3 Gaussian of σ `alias_blur`
/// (5 × 5 past radius 8); both are applied in turn: the disk by run sums along its
/// rows, then the small Gaussian, which is the same sum.
pub(crate) fn disk(px: &mut [f32], w: usize, h: usize, radius: i64, alias_blur: f64) {
    let ch = 3;
    let half: Vec<i64> = (-radius..=radius)
        .map(|dy| ((radius * radius - dy * dy) as f64).sqrt().floor() as i64)
        .collect();
    let count: i64 = half.iter().map(|hw| 2 * hw + 1).sum();
    let norm = 1.0 / count as f32;
    let stride = w * ch;
    let pad = radius as usize;
    // Prefix sums of every row, padded by the reflection: sums[y][(x + pad + 1) * ch + c].
    let width = w + 2 * pad + 1;
    let mut sums = vec![0f32; h * width * ch];
    for y in 0..h {
        let line = &px[y * stride..(y + 1) * stride];
        let s = &mut sums[y * width * ch..(y + 1) * width * ch];
        for i in 0..w + 2 * pad {
            let x = Edge::Reflect101.index(i as isize - pad as isize, w);
            for c in 0..ch {
                s[(i + 1) * ch + c] = s[i * ch + c] + line[x * ch + c];
            }
        }
    }
    for y in 0..h {
        let out = &mut px[y * stride..(y + 1) * stride];
        out.fill(0.0);
        for (dy, &hw) in (-radius..=radius).zip(&half) {
            let yy = Edge::Reflect101.index(y as isize + dy as isize, h);
            let s = &sums[yy * width * ch..(yy + 1) * width * ch];
            let hw = hw as usize;
            for x in 0..w {
                // Columns x − hw ..= x + hw, shifted by pad.
                let (lo, hi) = ((x + pad - hw) * ch, (x + pad + hw + 1) * ch);
                for c in 0..ch {
                    out[x * ch + c] += s[hi + c] - s[lo + c];
                }
            }
        }
        for v in out.iter_mut() {
            *v *= norm;
        }
    }
    let ksize = if radius <= 8 { 3 } else { 5 };
    let k = cv_gaussian_kernel(ksize, alias_blur);
    columns(px, w, h, ch, &k, Edge::Reflect101);
    rows(px, w, h, ch, &k, Edge::Reflect101);
    // From radius 8 the disk touches its grid's border, where the package's blur
    // of the kernel folds weight back in: its kernel sums to more than 1 (1.013
    // at 8), which brightens the image. Keep that gain.
    let gain = disk_kernel_sum(radius, alias_blur) as f32;
    if (gain - 1.0).abs() > 1e-6 {
        px.iter_mut().for_each(|v| *v *= gain);
    }
}

/// The sum of the package's `disk(radius, alias_blur)`: the aliased disk on the
/// grid `-L..=L` (L = 8, or the radius past 8), normalised, then blurred by
/// OpenCV's `GaussianBlur` with its default border (reflect 101) on that grid.
fn disk_kernel_sum(radius: i64, alias_blur: f64) -> f64 {
    let l = radius.max(8);
    let n = (2 * l + 1) as usize;
    let inside = |y: usize, x: usize| {
        let (dy, dx) = (y as i64 - l, x as i64 - l);
        dx * dx + dy * dy <= radius * radius
    };
    let count = (0..n)
        .flat_map(|y| (0..n).map(move |x| (y, x)))
        .filter(|&(y, x)| inside(y, x))
        .count();
    let ksize = if radius <= 8 { 3 } else { 5 };
    let g = cv_gaussian_kernel(ksize, alias_blur);
    let r = ksize / 2;
    let mut total = 0.0;
    for y in 0..n {
        for x in 0..n {
            for (a, ga) in g.iter().enumerate() {
                for (b, gb) in g.iter().enumerate() {
                    let yy = Edge::Reflect101.index(y as isize + a as isize - r as isize, n);
                    let xx = Edge::Reflect101.index(x as isize + b as isize - r as isize, n);
                    if inside(yy, xx) {
                        total += f64::from(*ga) * f64::from(*gb) / count as f64;
                    }
                }
            }
        }
    }
    total
}

/// OpenCV's `getGaussianKernel(ksize, sigma)`.
fn cv_gaussian_kernel(ksize: i64, sigma: f64) -> Vec<f32> {
    let r = ksize / 2;
    let w: Vec<f64> = (-r..=r)
        .map(|x| (-((x * x) as f64) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f64 = w.iter().sum();
    w.iter().map(|v| (v / total) as f32).collect()
}

/// The package's `_motion_blur`: the image shifted along `angle` (degrees) by
/// 0, 1, … 2·radius px (rounded as it rounds), weighted by a half Gaussian of σ
/// `sigma`, edges repeated.
pub(crate) fn motion(
    px: &[f32],
    w: usize,
    h: usize,
    ch: usize,
    radius: i64,
    sigma: f64,
    angle: f64,
) -> Vec<f32> {
    let width = 2 * radius + 1;
    let g: Vec<f64> = (0..width)
        .map(|x| (-((x * x) as f64) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f64 = g.iter().sum();
    let (sin, cos) = angle.to_radians().sin_cos();
    let point = (width as f64 * sin, width as f64 * cos);
    let hypot = point.0.hypot(point.1);
    let stride = w * ch;
    let mut out = vec![0f32; px.len()];
    for (i, gi) in g.iter().enumerate() {
        let dy = -((i as f64 * point.0 / hypot) - 0.5).ceil() as i64;
        let dx = -((i as f64 * point.1 / hypot) - 0.5).ceil() as i64;
        if dy.unsigned_abs() as usize >= h || dx.unsigned_abs() as usize >= w {
            break;
        }
        let k = (gi / total) as f32;
        // shifted(x, y) = image(clamp(x − dx), clamp(y − dy)): per row, the
        // columns whose source is inside, then the two clamped ends.
        let (lo, hi) = (
            (dx.max(0) as usize).min(w),
            ((w as i64 + dx.min(0)) as usize).min(w),
        );
        for (y, o) in out.chunks_exact_mut(stride).enumerate() {
            let sy = (y as i64 - dy).clamp(0, h as i64 - 1) as usize;
            let src = &px[sy * stride..(sy + 1) * stride];
            if lo < hi {
                let s0 = (lo as i64 - dx) as usize;
                let n = (hi - lo) * ch;
                for (a, b) in o[lo * ch..lo * ch + n]
                    .iter_mut()
                    .zip(&src[s0 * ch..s0 * ch + n])
                {
                    *a += k * b;
                }
            }
            for x in (0..lo).chain(hi..w) {
                let sx = (x as i64 - dx).clamp(0, w as i64 - 1) as usize;
                for c in 0..ch {
                    o[x * ch + c] += k * src[sx * ch + c];
                }
            }
        }
    }
    out
}

/// The package's `clipped_zoom`: the centre `⌈n / z⌉` of each side zoomed by `z`
/// (scipy `zoom`, order 1: output i reads input `i·(m − 1)/(out − 1)`), cut to
/// the image's size; where the zoom comes out short, the rest is 0.
pub(crate) fn clipped_zoom(px: &[f32], w: usize, h: usize, ch: usize, z: f64) -> Vec<f32> {
    let mut out = vec![0f32; px.len()];
    add_clipped_zoom(&mut out, px, w, h, ch, z);
    out
}

/// Adds [`clipped_zoom`] of `px` to `out`: bilinear is separable, so each source
/// row the zoom reads is resampled across once, then output rows are blends of
/// two such rows.
pub(crate) fn add_clipped_zoom(out: &mut [f32], px: &[f32], w: usize, h: usize, ch: usize, z: f64) {
    let axis = |n: usize| -> Vec<(usize, usize, f32)> {
        let m = (n as f64 / z).ceil() as usize;
        let top = (n - m.min(n)) / 2;
        let len = ((m as f64) * z).round() as usize;
        (0..n.min(len))
            .map(|i| {
                let t = if len > 1 {
                    i as f64 * (m as f64 - 1.0) / (len as f64 - 1.0)
                } else {
                    0.0
                };
                let i0 = (t.floor() as usize).min(m - 1);
                let i1 = (i0 + 1).min(m - 1);
                (top + i0, top + i1, (t - i0 as f64) as f32)
            })
            .collect()
    };
    let (xs, ys) = (axis(w), axis(h));
    let stride = w * ch;
    let (first, last) = match (ys.first(), ys.last()) {
        (Some(a), Some(b)) => (a.0, b.1),
        _ => return,
    };
    let across_width = xs.len() * ch;
    let mut across = vec![0f32; (last - first + 1) * across_width];
    for (r, row) in across.chunks_exact_mut(across_width).enumerate() {
        let src = &px[(first + r) * stride..(first + r + 1) * stride];
        for (o, &(x0, x1, fx)) in row.chunks_exact_mut(ch).zip(&xs) {
            for (c, v) in o.iter_mut().enumerate() {
                let (a, b) = (src[x0 * ch + c], src[x1 * ch + c]);
                *v = a + fx * (b - a);
            }
        }
    }
    for (y, &(y0, y1, fy)) in ys.iter().enumerate() {
        let (a, b) = (
            &across[(y0 - first) * across_width..(y0 - first + 1) * across_width],
            &across[(y1 - first) * across_width..(y1 - first + 1) * across_width],
        );
        let o = &mut out[y * stride..y * stride + across_width];
        for ((v, &p), &q) in o.iter_mut().zip(a).zip(b) {
            *v += p + fy * (q - p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_read_as_named() {
        let n = 4;
        let read = |e: Edge| (-3..7).map(|i| e.index(i, n)).collect::<Vec<_>>();
        assert_eq!(read(Edge::Nearest), [0, 0, 0, 0, 1, 2, 3, 3, 3, 3]);
        assert_eq!(read(Edge::Reflect), [2, 1, 0, 0, 1, 2, 3, 3, 2, 1]);
        assert_eq!(read(Edge::Reflect101), [3, 2, 1, 0, 1, 2, 3, 2, 1, 0]);
    }

    /// The sums of `imagecorruptions.corruptions.disk` (float32) for the five
    /// severities' (radius, alias_blur), as the package computes them.
    #[test]
    fn disk_kernel_sums_are_the_packages() {
        for ((r, a), want) in [
            ((3, 0.1), 1.0),
            ((6, 0.5), 1.0),
            ((8, 0.5), 1.012_975_45),
            ((10, 0.5), 1.010_785_8),
        ] {
            let got = disk_kernel_sum(r, a);
            assert!((got - want).abs() < 2e-6, "radius {r}: {got}");
        }
    }

    #[test]
    fn kernels_match_scipy_and_opencv() {
        // scipy.ndimage._gaussian_kernel1d(1.0, 0, 4) and cv2.getGaussianKernel(3, 0.5).
        let k = gaussian_kernel(1.0, 4.0);
        assert_eq!(k.len(), 9);
        assert!((k[4] - 0.398_943_47).abs() < 1e-6 && (k[5] - 0.241_971_45).abs() < 1e-6);
        let k = cv_gaussian_kernel(3, 0.5);
        assert!((k[0] - 0.106_506_98).abs() < 1e-7 && (k[1] - 0.786_986_04).abs() < 1e-7);
    }

    /// The disk by run sums against the direct 2-D convolution with the same
    /// kernel (disk, then the 3 × 3 Gaussian), away from the border.
    #[test]
    fn the_disk_is_its_direct_convolution() {
        let (w, h) = (40usize, 30usize);
        let img: Vec<f32> = (0..w * h * 3)
            .map(|i| ((i * 37) % 101) as f32 / 100.0)
            .collect();
        let mut out = img.clone();
        disk(&mut out, w, h, 4, 0.5);
        let g = cv_gaussian_kernel(3, 0.5);
        let inside = |x: i64, y: i64| x * x + y * y <= 16;
        let count = (-4..=4)
            .flat_map(|y| (-4..=4).map(move |x| (x, y)))
            .filter(|&(x, y)| inside(x, y))
            .count();
        for (x, y) in [(10usize, 10usize), (20, 15), (30, 20)] {
            for c in 0..3 {
                let mut v = 0.0f64;
                for gy in -1i64..=1 {
                    for gx in -1i64..=1 {
                        for dy in -4i64..=4 {
                            for dx in -4i64..=4 {
                                if inside(dx, dy) {
                                    let (xx, yy) = (x as i64 + gx + dx, y as i64 + gy + dy);
                                    v += f64::from(g[(gx + 1) as usize] * g[(gy + 1) as usize])
                                        * f64::from(img[(yy as usize * w + xx as usize) * 3 + c])
                                        / count as f64;
                                }
                            }
                        }
                    }
                }
                let got = f64::from(out[(y * w + x) * 3 + c]);
                assert!((got - v).abs() < 1e-5, "({x},{y}) {got} {v}");
            }
        }
    }

    #[test]
    fn a_zoom_of_one_is_the_image_and_a_motion_blur_keeps_flat_images() {
        let (w, h) = (16usize, 9usize);
        let img: Vec<f32> = (0..w * h).map(|i| (i % 7) as f32).collect();
        assert_eq!(clipped_zoom(&img, w, h, 1, 1.0), img);
        let flat = vec![0.5f32; w * h];
        for v in motion(&flat, w, h, 1, 5, 3.0, 30.0) {
            assert!((v - 0.5).abs() < 1e-6);
        }
    }
}
