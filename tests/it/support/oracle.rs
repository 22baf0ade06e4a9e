//! The GPU-vs-resvg comparison metric: how two renders of one Scene by different
//! rasterisers may differ, and when that difference is a bug.
//!
//! Both images are compared as premultiplied RGBA (colour weighted by coverage, so
//! faint pixels of a transparent canvas do not count with their full straight-alpha
//! colour). Three figures are taken:
//!
//! - `over32`: share of pixels where some channel differs by more than 32. The two
//!   rasterisers compute edge coverage differently (4× MSAA on the GPU, analytic
//!   coverage in tiny-skia) and glyphon puts each glyph's baseline on a whole pixel
//!   row while resvg keeps it fractional, so outline and glyph edge pixels can differ
//!   by up to about a quarter of the contrast (64 for black on white). This figure
//!   stays small on correct renders and grows with anything that moves or recolours
//!   ink in bulk.
//! - `blurred_over`: share of pixels where, after a Gaussian blur ([`BLUR_SIGMA`]) of both
//!   images, some channel differs by more than [`BLURRED_CHANNEL`]. The blur spreads a
//!   1-px edge disagreement over its neighbours, where coverage is nearly conserved
//!   and the difference averages out, but ink moved by 2 px or more still leaves a
//!   strong difference; so this is the figure that catches misplaced text and dashes.
//! - `blurred_mean`: mean absolute channel difference of the blurred images. Anything
//!   that changes colours over large areas (blending in the wrong space, a wrong
//!   opacity) raises it, even when each pixel moves by less than 32.
//!
//! A pair matches when all three stay within the limits of a [`Limits`]. The
//! diagram limits and the measured distributions that justify them are documented
//! in `backends.rs` (`DIAGRAM_LIMITS`); the limits for small feature scenes are
//! [`REFERENCE_LIMITS`] here. The metric's own tests are in `oracle.rs`.

use geomrender::render::RenderedImage;

/// Standard deviation of the Gaussian blur, in pixels.
pub const BLUR_SIGMA: f32 = 1.5;

/// A blurred channel difference above this (in 0..=255 units) counts in `blurred_over`.
pub const BLURRED_CHANNEL: f32 = 24.0;

/// The comparison figures of two renders of one scene.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Share of pixels with some premultiplied channel differing by more than 32.
    pub over32: f64,
    /// Share of pixels with some blurred channel differing by more than [`BLURRED_CHANNEL`].
    pub blurred_over: f64,
    /// Mean absolute channel difference of the blurred images, 0..=255.
    pub blurred_mean: f64,
    /// Largest blurred channel difference anywhere, 0..=255.
    pub blurred_max: f64,
}

/// Largest figures two renders of one scene may show and still match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub over32: f64,
    pub blurred_over: f64,
    pub blurred_mean: f64,
    pub blurred_max: f64,
}

/// Oracle limits for small, dense feature scenes (the reference scenes of
/// `reference.rs` and [`crate::support::scenes::feature_scenes`]).
/// Measured: `over32` ≤ .015 (greek), `blurred_over` 0, `blurred_mean` ≤ .55,
/// `blurred_max` ≤ 24 (text_sizes). Raw figures get twice that and more, as text
/// density varies; `blurred_over` and `blurred_max` keep the diagram limits, which
/// measure misplaced ink and must not depend on the scene.
pub const REFERENCE_LIMITS: Limits = Limits {
    over32: 0.03,
    blurred_over: 0.0005,
    blurred_mean: 1.0,
    blurred_max: 48.0,
};

/// Direct rasteriser vs resvg on the small, dense feature scenes (reference scenes):
/// the two share tiny-skia's coverage, so these are far tighter than the GPU's
/// [`REFERENCE_LIMITS`]; the measured figures are printed by `reference.rs`
/// (over32 ≤ .0038, blurred_over 0, blurred_mean ≤ .17, blurred_max ≤ 17, on greek
/// and text_sizes; about the single-glyph scenes' figures in `raster.rs`).
pub const RASTER_REFERENCE_LIMITS: Limits = Limits {
    over32: 0.008,
    blurred_over: 0.0,
    blurred_mean: 0.3,
    blurred_max: 32.0,
};

impl Figures {
    /// Which figures exceed `limits`, by name; empty when the renders match.
    pub fn failures(&self, limits: &Limits) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.over32 > limits.over32 {
            out.push("over32");
        }
        if self.blurred_over > limits.blurred_over {
            out.push("blurred_over");
        }
        if self.blurred_mean > limits.blurred_mean {
            out.push("blurred_mean");
        }
        if self.blurred_max > limits.blurred_max {
            out.push("blurred_max");
        }
        out
    }

    pub fn matches(&self, limits: &Limits) -> bool {
        self.failures(limits).is_empty()
    }
}

/// Compares two equally sized renders of one scene.
pub fn compare(a: &RenderedImage, b: &RenderedImage) -> Figures {
    assert_eq!(
        (a.width, a.height),
        (b.width, b.height),
        "{}: image sizes differ",
        a.id
    );
    let (pa, pb) = (premultiplied(a), premultiplied(b));
    let n = (a.width * a.height) as usize;
    let over32 = pa
        .chunks_exact(4)
        .zip(pb.chunks_exact(4))
        .filter(|(p, q)| (0..4).any(|k| (p[k] - q[k]).abs() > 32.0))
        .count();
    let (ba, bb) = (
        blur(&pa, a.width as usize, a.height as usize),
        blur(&pb, b.width as usize, b.height as usize),
    );
    let mut blurred_over = 0usize;
    let mut sum = 0f64;
    let mut max = 0f32;
    for (p, q) in ba.chunks_exact(4).zip(bb.chunks_exact(4)) {
        let mut worst = 0f32;
        for k in 0..4 {
            let d = (p[k] - q[k]).abs();
            sum += d as f64;
            worst = worst.max(d);
        }
        if worst > BLURRED_CHANNEL {
            blurred_over += 1;
        }
        max = max.max(worst);
    }
    Figures {
        over32: over32 as f64 / n as f64,
        blurred_over: blurred_over as f64 / n as f64,
        blurred_mean: sum / (n * 4) as f64,
        blurred_max: max as f64,
    }
}

/// Premultiplied RGBA as floats in 0..=255.
fn premultiplied(img: &RenderedImage) -> Vec<f32> {
    img.rgba
        .chunks_exact(4)
        .flat_map(|p| {
            let a = p[3] as f32 / 255.0;
            [
                p[0] as f32 * a,
                p[1] as f32 * a,
                p[2] as f32 * a,
                p[3] as f32,
            ]
        })
        .collect()
}

/// Separable Gaussian blur with σ = [`BLUR_SIGMA`], taps out to 3σ, edges clamped.
fn blur(src: &[f32], w: usize, h: usize) -> Vec<f32> {
    let r = (3.0 * BLUR_SIGMA).ceil() as isize;
    let mut kernel: Vec<f32> = (-r..=r)
        .map(|x| (-((x * x) as f32) / (2.0 * BLUR_SIGMA * BLUR_SIGMA)).exp())
        .collect();
    let total: f32 = kernel.iter().sum();
    kernel.iter_mut().for_each(|k| *k /= total);
    // Rows, then columns; edges are clamped.
    let mut rows = vec![0f32; src.len()];
    for y in 0..h {
        let line = &src[y * w * 4..(y + 1) * w * 4];
        let out = &mut rows[y * w * 4..(y + 1) * w * 4];
        for x in 0..w {
            let mut acc = [0f32; 4];
            for (t, k) in kernel.iter().enumerate() {
                let j = (x as isize + t as isize - r).clamp(0, w as isize - 1) as usize * 4;
                for c in 0..4 {
                    acc[c] += k * line[j + c];
                }
            }
            out[x * 4..x * 4 + 4].copy_from_slice(&acc);
        }
    }
    let mut out = vec![0f32; src.len()];
    for y in 0..h {
        for (t, k) in kernel.iter().enumerate() {
            let j = (y as isize + t as isize - r).clamp(0, h as isize - 1) as usize;
            let from = &rows[j * w * 4..(j + 1) * w * 4];
            let to = &mut out[y * w * 4..(y + 1) * w * 4];
            for (o, v) in to.iter_mut().zip(from) {
                *o += k * v;
            }
        }
    }
    out
}

/// Sorted values and their percentiles, for reporting distributions.
pub struct Distribution(Vec<f64>);

impl Distribution {
    pub fn new(mut values: Vec<f64>) -> Self {
        values.sort_by(f64::total_cmp);
        Distribution(values)
    }

    /// The value below which a share `q` of the values lie (nearest rank).
    pub fn quantile(&self, q: f64) -> f64 {
        if self.0.is_empty() {
            return f64::NAN;
        }
        let i = ((q * self.0.len() as f64).ceil() as usize).clamp(1, self.0.len()) - 1;
        self.0[i]
    }

    pub fn max(&self) -> f64 {
        self.0.last().copied().unwrap_or(f64::NAN)
    }

    pub fn min(&self) -> f64 {
        self.0.first().copied().unwrap_or(f64::NAN)
    }
}

impl std::fmt::Display for Distribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "min {:.5}  p50 {:.5}  p90 {:.5}  p99 {:.5}  max {:.5}",
            self.min(),
            self.quantile(0.5),
            self.quantile(0.9),
            self.quantile(0.99),
            self.max()
        )
    }
}

/// Prints the distribution of each figure and how many scenes fail `limits`.
pub fn report(label: &str, figures: &[Figures], limits: &Limits) {
    let col = |f: fn(&Figures) -> f64| Distribution::new(figures.iter().map(f).collect());
    let failing = figures.iter().filter(|f| !f.matches(limits)).count();
    eprintln!(
        "{label}: {failing}/{} scenes fail\n  over32       {}\n  blurred_over {}\n  blurred_mean {}\n  blurred_max  {}",
        figures.len(),
        col(|f| f.over32),
        col(|f| f.blurred_over),
        col(|f| f.blurred_mean),
        col(|f| f.blurred_max),
    );
}

/// When `GEOMRENDER_AGREEMENT_JSON` names a file, writes `figures` there as JSON
/// (min / p50 / p99 / max of each figure, the limits, the failing count):
/// `scripts/gpu-check.sh` puts it in its summary.
pub fn write_agreement(label: &str, figures: &[Figures], limits: &Limits) {
    let Some(path) = std::env::var_os("GEOMRENDER_AGREEMENT_JSON") else {
        return;
    };
    let stats = |f: fn(&Figures) -> f64| {
        let mut v: Vec<f64> = figures.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        serde_json::json!({"min": at(0.0), "p50": at(0.5), "p99": at(0.99), "max": at(1.0)})
    };
    let json = serde_json::json!({
        "comparison": label,
        "scenes": figures.len(),
        "failing": figures.iter().filter(|f| !f.matches(limits)).count(),
        "over32": stats(|f| f.over32),
        "blurred_over": stats(|f| f.blurred_over),
        "blurred_mean": stats(|f| f.blurred_mean),
        "blurred_max": stats(|f| f.blurred_max),
        "limits": {
            "over32": limits.over32, "blurred_over": limits.blurred_over,
            "blurred_mean": limits.blurred_mean, "blurred_max": limits.blurred_max,
        },
    });
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}
