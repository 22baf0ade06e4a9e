//! GPU output checked against resvg, the independent oracle (issue 5).
//!
//! Every scene of [`corpus`] (300 at 512²: 100 generated problems as base image
//! plus one variant each, the variants cycling through the axes; 60 synthetic
//! diagrams with dashed lines; 40 with an `evenodd` composite) is rendered by the
//! GPU backend and by the CPU (resvg) backend, and each pair is compared with the
//! four figures of [`crate::tests::support::oracle`]. The GPU renderer must match on every scene;
//! the same comparison must reject every scene that a planted bug ([`Fault`]) can
//! visibly change.
//!
//! # Limits, and the measurements behind them
//!
//! Measured on lavapipe against resvg 0.49 over the 300 scenes (min / p50 / p99 /
//! max; shares are of the image's pixels, the others in 0..=255 units):
//!
//! | figure         | correct                        | limit |
//! |----------------|--------------------------------|-------|
//! | `over32`       | .00023 / .0023 / .0044 / .0048 | .01   |
//! | `blurred_over` | 0 / 0 / .00018 / .00059        | .001  |
//! | `blurred_mean` | .0074 / .071 / .139 / .178     | .25   |
//! | `blurred_max`  | 10.5 / 21.0 / 31.4 / 33.4      | 48    |
//!
//! The largest correct `blurred_over` comes from 32 px labels, whose glyph edges
//! differ between swash (glyphon) and tiny-skia over many pixels. Every planted bug
//! fails every scene it visibly changes, each on at least one figure (min / p50 of
//! `blurred_over`, and of `blurred_max` where that is what catches the weakest):
//!
//! - linear-light blending (300 scenes): .00052 / .142, `blurred_mean` .20 / 2.6;
//! - text anchors 3 px right (300): .00038 / .0049, `blurred_max` 70 / 114;
//! - `central` ignoring the descent (0.118 em too low; 292 scenes with labels of
//!   12 px or more — below that the shift is within glyphon's own ±0.5 px baseline
//!   rounding): .00023 / .0028, `blurred_max` 50 / 81;
//! - `evenodd` read as `nonzero` (49 composites filled at opacity ≥ 0.3; at 0.1 the
//!   hole changes pixels by ~25, indistinguishable from anti-aliasing): .0081 / .052;
//! - dash pattern half a period late (100 dashed scenes): .0022 / .0036.
//!
//! `blurred_max` (limit 1.4× the correct maximum) catches a small local defect
//! whose share of the image is tiny, such as one missing dot or a shifted label;
//! `blurred_mean` catches colour shifts too faint per pixel to count; `over32`, the
//! raw share, guards against gross damage only: anti-aliasing differs by up to 64 on
//! edge pixels (4× MSAA and swash coverage vs tiny-skia's quarter-pixel coverage),
//! and glyphon's whole-pixel baselines move glyph edges by up to 0.5 px, so on its
//! own it cannot tell a 3 px text shift from a correct render.
//!
//! Shared sides are stroked once (compose draws all outlines as one path): stroked
//! twice, resvg compounds their anti-aliasing (50 % edge pixels become 75 %) while
//! 4× MSAA does not, which this comparison flagged on long axis-aligned sides.
//!
//! Small dense feature and reference scenes use [`REFERENCE_LIMITS`]: their raw
//! figures are larger per pixel (text_sizes and greek reach `over32` .015 and
//! `blurred_mean` .55), their `blurred_over` is 0 and `blurred_max` at most 24.

use crate::tests::support::cpu::{cpu, render_cpu};
use crate::tests::support::frames::render_gpu;
use crate::tests::support::gpu::gpu_or_skip;
use crate::tests::support::images::write_triptych;
use crate::tests::support::oracle::{Figures, Limits, REFERENCE_LIMITS, compare, report};
use crate::tests::support::scenes::{corpus, feature_scenes};
use geomrender::font::metrics as font_metrics;
use geomrender::render::RenderedImage;
use geomrender::render::gpu::{BlendSpace, GpuOptions, GpuRenderer};
use geomrender::scene::{Baseline, Color, FillRule, Item, PathItem, Scene};
use std::sync::OnceLock;
use std::time::Instant;

/// Limits for diagram-like scenes (see the module doc for the measurements).
const DIAGRAM_LIMITS: Limits = Limits {
    over32: 0.01,
    blurred_over: 0.001,
    blurred_mean: 0.25,
    blurred_max: 48.0,
};

/// A bug planted on the GPU side, to show the comparison notices it.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Blending in linear light instead of sRGB (`BlendSpace::Linear`).
    LinearBlend,
    /// Every text item 3 px right of its anchor.
    TextShift3px,
    /// `central` taken as halfway between ascent and the alphabetic baseline, i.e.
    /// the descent forgotten: text lands 0.118 em (1.4 px at 12 px) too low.
    CentralIgnoresDescent,
    /// Fill rule `evenodd` treated as `nonzero`.
    EvenoddIgnored,
    /// Dash pattern started half a period late (offset +5 on `[6, 4]`).
    DashPhase,
}

impl Fault {
    /// The scene a renderer with this bug effectively draws.
    fn apply(self, scene: &Scene) -> Scene {
        let mut s = scene.clone();
        let m = font_metrics();
        for item in &mut s.items {
            match (self, item) {
                (Fault::TextShift3px, Item::Text(t)) => t.x += 3.0,
                (Fault::CentralIgnoresDescent, Item::Text(t))
                    if t.baseline == Baseline::Central =>
                {
                    t.y += -m.descent / 2.0 * t.size / m.units_per_em;
                }
                (Fault::EvenoddIgnored, Item::Path(p)) => p.fill_rule = FillRule::Nonzero,
                (Fault::DashPhase, Item::Path(p)) if !p.dash.is_empty() => {
                    p.dash_offset += p.dash.iter().sum::<f32>() / 2.0;
                }
                _ => {}
            }
        }
        s
    }
}

/// CPU renders of the corpus, made once per test binary.
fn oracle_images() -> &'static [RenderedImage] {
    static IMAGES: OnceLock<Vec<RenderedImage>> = OnceLock::new();
    IMAGES.get_or_init(|| {
        let scenes = corpus();
        let t = Instant::now();
        let images = render_cpu(&scenes);
        eprintln!(
            "cpu (resvg, rayon): {} scenes in {:.2} s",
            scenes.len(),
            t.elapsed().as_secs_f64()
        );
        images
    })
}

/// Renders the corpus on the GPU with `fault` planted (None: as shipped) and
/// compares each image with resvg's. `None` (skip reported) when no GPU adapter is available.
fn run(fault: Option<Fault>) -> Option<Vec<(Figures, RenderedImage)>> {
    let scenes: Vec<Scene> = corpus()
        .iter()
        .map(|s| fault.map_or_else(|| s.clone(), |f| f.apply(s)))
        .collect();
    let t = Instant::now();
    let images = match fault {
        Some(Fault::LinearBlend) => {
            // Holding the shared renderer keeps GPU tests from competing for the device.
            let _shared = gpu_or_skip()?;
            let mut r = GpuRenderer::new(GpuOptions {
                blend: BlendSpace::Linear,
                ..GpuOptions::default()
            })
            .expect("a linear-blending renderer");
            render_gpu(&mut r, &scenes, 256)
        }
        _ => render_gpu(&mut *gpu_or_skip()?, &scenes, 256),
    };
    eprintln!(
        "gpu {:?}: {} scenes in {:.2} s",
        fault,
        scenes.len(),
        t.elapsed().as_secs_f64()
    );
    let oracle = oracle_images();
    use rayon::prelude::*;
    Some(
        images
            .into_par_iter()
            .zip(oracle)
            .map(|(g, c)| (compare(&g, c), g))
            .collect(),
    )
}

#[test]
fn gpu_matches_resvg_on_generated_diagrams() {
    let Some(results) = run(None) else { return };
    assert!(results.len() >= 200);
    let figures: Vec<Figures> = results.iter().map(|(f, _)| *f).collect();
    report("correct", &figures, &DIAGRAM_LIMITS);
    crate::tests::support::oracle::write_agreement(
        "GPU against resvg, 300 generated 512² scenes",
        &figures,
        &DIAGRAM_LIMITS,
    );
    let failures: Vec<String> = results
        .iter()
        .zip(oracle_images())
        .filter(|((f, _), _)| !f.matches(&DIAGRAM_LIMITS))
        .map(|((f, g), c)| {
            let path = write_triptych(g, c);
            format!(
                "{}: {:?} beyond {DIAGRAM_LIMITS:?}: {f:?} ({})",
                g.id,
                f.failures(&DIAGRAM_LIMITS),
                path.display()
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "GPU differs from resvg on {} scenes (resvg | diff | GPU written):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Runs the corpus with `fault` and asserts that every scene in `affected` fails
/// the comparison (scenes the fault cannot change are not counted).
fn assert_caught(fault: Fault, affected: impl Fn(&Scene) -> bool) {
    let Some(results) = run(Some(fault)) else {
        return;
    };
    let changed: Vec<(Figures, String)> = results
        .iter()
        .zip(&corpus())
        .filter(|(_, s)| affected(s))
        .map(|((f, g), _)| (*f, g.id.clone()))
        .collect();
    let figures: Vec<Figures> = changed.iter().map(|(f, _)| *f).collect();
    report(
        &format!("{fault:?} (scenes it changes)"),
        &figures,
        &DIAGRAM_LIMITS,
    );
    assert!(
        changed.len() >= 40,
        "{fault:?}: too few scenes it can change"
    );
    let missed: Vec<String> = changed
        .iter()
        .filter(|(f, _)| f.matches(&DIAGRAM_LIMITS))
        .map(|(f, id)| format!("{id}: {f:?}"))
        .collect();
    assert!(
        missed.is_empty(),
        "{fault:?} went unnoticed on {}/{} scenes:\n{}",
        missed.len(),
        changed.len(),
        missed.join("\n")
    );
}

fn any_item(s: &Scene, pred: impl Fn(&Item) -> bool) -> bool {
    s.items.iter().any(pred)
}

#[test]
fn comparison_catches_linear_light_blending() {
    assert_caught(Fault::LinearBlend, |_| true);
}

#[test]
fn comparison_catches_text_anchor_off_by_3px() {
    assert_caught(Fault::TextShift3px, |s| {
        any_item(s, |i| matches!(i, Item::Text(_)))
    });
}

#[test]
fn comparison_catches_central_baseline_ignoring_descent() {
    // The fault moves text by 0.118 em: from 12 px text on that is 1.4 px or more;
    // below, it is within glyphon's own whole-pixel baseline rounding (≤ 0.5 px).
    assert_caught(Fault::CentralIgnoresDescent, |s| {
        any_item(
            s,
            |i| matches!(i, Item::Text(t) if t.baseline == Baseline::Central && t.size >= 12.0),
        )
    });
}

#[test]
fn comparison_catches_evenodd_ignored() {
    // A hole filled in at opacity 0.1 changes its pixels by about 25 of 255: a
    // difference no rasteriser comparison can tell from anti-aliasing; from 0.3 on
    // the hole is a clear change.
    assert_caught(Fault::EvenoddIgnored, |s| {
        any_item(
            s,
            |i| matches!(i, Item::Path(p) if p.fill_rule == FillRule::Evenodd && p.fill_opacity >= 0.3),
        )
    });
}

#[test]
fn comparison_catches_dash_phase_error() {
    assert_caught(Fault::DashPhase, |s| {
        any_item(s, |i| matches!(i, Item::Path(p) if !p.dash.is_empty()))
    });
}

#[test]
fn cpu_renders_are_deterministic() {
    let scenes: Vec<Scene> = corpus().into_iter().step_by(20).collect();
    let sequential: Vec<RenderedImage> = scenes.iter().map(|s| cpu().render(s).unwrap()).collect();
    assert!(
        render_cpu(&scenes) == sequential,
        "parallel and sequential renders differ"
    );
    assert!(render_cpu(&scenes) == sequential, "a second render differs");
}

/// Ink centroids (x, y) of the glyphs of one line on a white canvas, in pixel-centre
/// coordinates; glyphs are told apart by blank columns between them.
fn glyph_centroids(img: &RenderedImage) -> Vec<(f64, f64)> {
    let (w, h) = (img.width as usize, img.height as usize);
    let ink = |x: usize, y: usize| (255 - img.rgba[(y * w + x) * 4]) as f64;
    let column: Vec<f64> = (0..w).map(|x| (0..h).map(|y| ink(x, y)).sum()).collect();
    let mut out = Vec::new();
    let mut x = 0;
    while x < w {
        if column[x] == 0.0 {
            x += 1;
            continue;
        }
        let start = x;
        while x < w && column[x] > 0.0 {
            x += 1;
        }
        let (mut sx, mut sy, mut total) = (0f64, 0f64, 0f64);
        for cx in start..x {
            for y in 0..h {
                let v = ink(cx, y);
                sx += v * cx as f64;
                sy += v * y as f64;
                total += v;
            }
        }
        out.push((sx / total, sy / total));
    }
    out
}

/// Text placement, finer than the statistical comparison: each glyph of a line set
/// at fractional positions lands within a fraction of a pixel of resvg's, with no
/// systematic offset. Glyphs are spaced apart so that each is measured alone (a
/// centroid of several glyphs would weigh them by ink, and resvg's coverage, which
/// is quantised to quarter pixels, under-inks thin stems by up to 12 % at 12 px).
/// glyphon puts baselines on whole pixel rows (|dy| up to 0.5, averaging out over
/// fractional positions) and glyphs on quarter pixels; resvg's quarter-pixel
/// coverage moves a glyph's centroid by up to 0.3 px depending on its phase, which
/// averages out over positions spread over a quarter pixel. Measured: worst |dx| .35,
/// |dy| .68 per glyph; mean over all cases dx +.013, dy −.023. A baseline rounded
/// the wrong way (0.5 px) or an anchor off by a fraction of the advance fails the
/// per-case mean bound of 0.2 px.
#[test]
fn text_lands_on_the_same_spot_on_both_backends() {
    use geomrender::scene::{Anchor, TextItem};
    let Some(mut r) = gpu_or_skip() else { return };
    // Eighths of a pixel, in an order that also steps evenly through quarter pixels.
    let fracs: Vec<f32> = (0..8).map(|k| (k as f32 * 0.3125).fract()).collect();
    let mut cases = Vec::new();
    for text in ["H", "A  7  g", "α  β  θ", "3  5  ?"] {
        for size in [12.0f32, 16.0, 20.0, 40.0] {
            for anchor in [Anchor::Start, Anchor::Middle, Anchor::End] {
                for baseline in [Baseline::Alphabetic, Baseline::Central] {
                    cases.push((text, size, anchor, baseline));
                }
            }
        }
    }
    let scenes: Vec<Scene> = cases
        .iter()
        .flat_map(|&(text, size, anchor, baseline)| {
            fracs.iter().map(move |f| Scene {
                id: "placement".into(),
                width: 360,
                height: 120,
                background: Some(Color::WHITE),
                items: vec![Item::Text(TextItem {
                    anchor,
                    baseline,
                    ..TextItem::new(text, 180.0 + f, 60.0 + f, size)
                })],
            })
        })
        .collect();
    let gpu_imgs = render_gpu(&mut r, &scenes, 256);
    drop(r);
    let cpu_imgs = render_cpu(&scenes);
    let (mut worst_x, mut worst_y) = (0f64, 0f64);
    let (mut sum_x, mut sum_y) = (0f64, 0f64);
    for (k, (text, size, anchor, baseline)) in cases.iter().enumerate() {
        let at = format!("{text:?} {size} px {anchor:?}/{baseline:?}");
        let range = k * fracs.len()..(k + 1) * fracs.len();
        let (mut mx, mut my, mut m) = (0f64, 0f64, 0usize);
        for (g, c) in gpu_imgs[range.clone()].iter().zip(&cpu_imgs[range]) {
            let (gs, cs) = (glyph_centroids(g), glyph_centroids(c));
            assert_eq!(gs.len(), cs.len(), "{at}: glyph counts differ");
            assert_eq!(gs.len(), text.split_whitespace().count(), "{at}");
            for ((gx, gy), (cx, cy)) in gs.into_iter().zip(cs) {
                let (dx, dy) = (gx - cx, gy - cy);
                assert!(
                    dx.abs() <= 0.45,
                    "{at}: GPU glyph {dx:+.3} px right of resvg's"
                );
                assert!(dy.abs() <= 0.8, "{at}: GPU glyph {dy:+.3} px below resvg's");
                (worst_x, worst_y) = (worst_x.max(dx.abs()), worst_y.max(dy.abs()));
                (mx, my, m) = (mx + dx, my + dy, m + 1);
            }
        }
        let (mx, my) = (mx / m as f64, my / m as f64);
        assert!(
            mx.abs() <= 0.2 && my.abs() <= 0.2,
            "{at}: systematic offset dx {mx:+.3}, dy {my:+.3}"
        );
        (sum_x, sum_y) = (sum_x + mx, sum_y + my);
    }
    let (bias_x, bias_y) = (sum_x / cases.len() as f64, sum_y / cases.len() as f64);
    eprintln!(
        "text placement GPU − resvg per glyph: worst |dx| {worst_x:.3}, |dy| {worst_y:.3}; mean dx {bias_x:+.3}, dy {bias_y:+.3}"
    );
    assert!(
        bias_x.abs() <= 0.05 && bias_y.abs() <= 0.05,
        "GPU text is offset overall: dx {bias_x:+.3}, dy {bias_y:+.3}"
    );
}

#[test]
fn gpu_matches_resvg_on_feature_scenes() {
    let Some(mut r) = gpu_or_skip() else { return };
    let scenes = feature_scenes();
    let gpu_imgs = render_gpu(&mut r, &scenes, 1);
    drop(r);
    let mut failures = Vec::new();
    for (g, c) in gpu_imgs.iter().zip(render_cpu(&scenes)) {
        let f = compare(g, &c);
        eprintln!("{}: {f:?}", g.id);
        if !f.matches(&REFERENCE_LIMITS) {
            let path = write_triptych(g, &c);
            failures.push(format!("{}: {f:?} ({})", g.id, path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "GPU differs from resvg beyond {REFERENCE_LIMITS:?}:\n{}",
        failures.join("\n")
    );
}

/// The feature comparison notices the two GPU bugs it found (issue 5), replayed
/// as scene edits: miter limits read at twice their value (lyon's own convention),
/// and the zero-length dash at a line's start dropped (a dash offset of 0.001 skips
/// it and moves the others by a thousandth of a pixel).
#[test]
fn feature_comparison_catches_the_bugs_it_found() {
    let Some(mut r) = gpu_or_skip() else { return };
    let scenes = feature_scenes();
    let replay = |id: &str, edit: &dyn Fn(&mut PathItem)| {
        let mut s = scenes
            .iter()
            .find(|s| s.id == id)
            .expect("feature scene")
            .clone();
        for item in &mut s.items {
            if let Item::Path(p) = item {
                edit(p);
            }
        }
        s
    };
    let bugs = [
        replay("feature-miter", &|p| p.miter_limit *= 2.0),
        replay("feature-zero-dash-caps", &|p| {
            if p.dash.first() == Some(&0.0) {
                p.dash_offset += 0.001;
            }
        }),
    ];
    let gpu_imgs = render_gpu(&mut r, &bugs, 1);
    drop(r);
    for (g, s) in gpu_imgs.iter().zip(&bugs) {
        let clean = scenes.iter().find(|c| c.id == s.id).expect("feature scene");
        let f = compare(g, &cpu().render(clean).expect("cpu render"));
        eprintln!("{} with its bug: {f:?}", s.id);
        assert!(
            !f.matches(&REFERENCE_LIMITS),
            "{}: bug went unnoticed: {f:?}",
            s.id
        );
    }
}
