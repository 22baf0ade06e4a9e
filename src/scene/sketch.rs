//! A Scene's items redrawn as if by hand (the `sketch` axis), on the vector paths
//! before the raster, seeded per image:
//!
//! - every point moves with one smooth displacement field (waves a page wide), so
//!   a vertex shared by two items, and the label beside it, move together;
//! - strokes wobble: a second field of short waves, sampled every few px;
//! - the outlines' straight runs are drawn as separate strokes that overshoot the
//!   corners a little; level 3 draws each stroke twice, with another wobble;
//! - labels move with the field, plus a small hand-like jitter.
//!
//! [`bounds`] is how far anything may move: `audit` checks every path point and
//! label of a `sketch` image against its base's within it. The field's slope is
//! at most 0.066 (level 3), so a direction turns by at most 3.8° and a right
//! angle (and its mark) stays within 90 ± 7.6°.

use super::{Item, Reason, path_data};
use crate::decimal::fmt_decimal;
use lyon::path::PathEvent;
use lyon::path::iterator::PathIterator;
use std::fmt::Write;

/// The levels' sizes, in px on the 512 px reference canvas.
struct Level {
    /// Amplitude of each of the field's components.
    drift: f32,
    /// Amplitude of each of the wobble's components.
    wobble: f32,
    /// How far a stroke runs past a corner.
    overshoot: f32,
    /// A label's own jitter.
    jitter: f32,
}

const LEVELS: [Level; 3] = [
    Level {
        drift: 1.2,
        wobble: 0.4,
        overshoot: 1.5,
        jitter: 0.5,
    },
    Level {
        drift: 2.0,
        wobble: 0.7,
        overshoot: 2.5,
        jitter: 1.0,
    },
    Level {
        drift: 3.0,
        wobble: 1.0,
        overshoot: 3.5,
        jitter: 1.5,
    },
];

/// The drift field's shortest wavelength, as a share of the canvas side.
const DRIFT_WAVELENGTH: (f32, f32) = (0.8, 1.6);
/// The wobble's wavelengths, px at 512.
const WOBBLE_WAVELENGTH: (f32, f32) = (40.0, 110.0);
/// Where a polyline turns by more than this (radians), it has a corner.
const CORNER: f32 = 0.45;
/// Largest step between samples of a stroke, px at 512.
const STEP: f32 = 4.0;
/// Flattening tolerance of curves, px.
const TOLERANCE: f32 = 0.1;

/// How far a `sketch` level may move things on a canvas of side `side` px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    /// Every point of every path lies within this of the base's paths.
    pub paths: f32,
    /// Every label stands within this of where the base's stands.
    pub labels: f32,
}

/// The bounds of `level` (1..=3; `None` otherwise).
pub(crate) fn bounds(level: u8, side: f32) -> Option<Bounds> {
    let l = LEVELS.get(usize::from(level).checked_sub(1)?)?;
    let k = side / 512.0;
    // Each field's components are bounded by their amplitude; a point moves by at
    // most √2 times the sum, plus rounding to 2 decimals and the flattening.
    let moved = std::f32::consts::SQRT_2 * (l.drift + l.wobble) * k;
    Some(Bounds {
        paths: moved + l.overshoot * k + TOLERANCE + 0.02,
        labels: moved + l.jitter * k + 0.02,
    })
}

/// A small portable stream (SplitMix64) for the sketch's few draws.
struct Draws(u64);

impl Draws {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }

    fn between(&mut self, (lo, hi): (f32, f32)) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// A sum of plane waves per component: `Σ a·sin(k·p + φ)`.
struct Field {
    waves: Vec<[f32; 5]>, // component (0 x, 1 y), kx, ky, phase, amplitude
}

impl Field {
    fn new(draws: &mut Draws, amplitude: f32, wavelength: (f32, f32)) -> Field {
        let mut waves = Vec::new();
        for component in 0..2 {
            for _ in 0..3 {
                let angle = draws.unit() * std::f32::consts::TAU;
                let k = std::f32::consts::TAU / draws.between(wavelength);
                let phase = draws.unit() * std::f32::consts::TAU;
                waves.push([
                    component as f32,
                    k * angle.cos(),
                    k * angle.sin(),
                    phase,
                    amplitude / 3.0,
                ]);
            }
        }
        Field { waves }
    }

    fn at(&self, [x, y]: [f32; 2]) -> [f32; 2] {
        let mut d = [0.0, 0.0];
        for &[c, kx, ky, phase, a] in &self.waves {
            d[c as usize] += a * (kx * x + ky * y + phase).sin();
        }
        d
    }
}

/// Redraws `items` at `level` (1..=3) on a canvas of side `side` px, drawing
/// from `seed`; other levels leave them as they are.
pub(crate) fn hand_drawn(
    items: &mut [Item],
    level: u8,
    seed: u64,
    side: f32,
) -> Result<(), Reason> {
    let Some(l) = usize::from(level)
        .checked_sub(1)
        .and_then(|i| LEVELS.get(i))
    else {
        return Ok(());
    };
    let k = side / 512.0;
    let mut draws = Draws(seed ^ 0x736b_6574_6368_0000 ^ u64::from(level));
    let drift = Field::new(
        &mut draws,
        l.drift * k,
        (DRIFT_WAVELENGTH.0 * side, DRIFT_WAVELENGTH.1 * side),
    );
    let wobble_range = (WOBBLE_WAVELENGTH.0 * k, WOBBLE_WAVELENGTH.1 * k);
    let wobble = Field::new(&mut draws, l.wobble * k, wobble_range);
    let second = Field::new(&mut draws, l.wobble * k, wobble_range);
    let moved = |p: [f32; 2], w: &Field| {
        let (a, b) = (drift.at(p), w.at(p));
        [p[0] + a[0] + b[0], p[1] + a[1] + b[1]]
    };
    for item in items.iter_mut() {
        match item {
            Item::Text(t) => {
                let p = moved([t.x, t.y], &wobble);
                let (r, a) = (
                    l.jitter * k * draws.unit().sqrt(),
                    draws.unit() * std::f32::consts::TAU,
                );
                t.x = p[0] + r * a.cos();
                t.y = p[1] + r * a.sin();
            }
            Item::Path(path) => {
                let lines = polylines(&path.d)?;
                let strokes_only = path.fill.is_none() && path.dash.is_empty();
                let mut d = String::with_capacity(path.d.len() * 2);
                if strokes_only {
                    let overshoot = l.overshoot * k;
                    for (points, closed) in &lines {
                        for run in runs(points, *closed) {
                            put(
                                &mut d,
                                &resampled(&extended(&run, overshoot), STEP * k),
                                false,
                                |p| moved(p, &wobble),
                            );
                            if level >= 3 {
                                put(
                                    &mut d,
                                    &resampled(&extended(&run, 0.6 * overshoot), STEP * k),
                                    false,
                                    |p| moved(p, &second),
                                );
                            }
                        }
                    }
                } else {
                    for (points, closed) in &lines {
                        put(&mut d, &resampled(points, STEP * k), *closed, |p| {
                            moved(p, &wobble)
                        });
                    }
                }
                path.d = d;
            }
        }
    }
    Ok(())
}

/// A flattened subpath: its points, and whether it is closed.
type Polyline = (Vec<[f32; 2]>, bool);

/// The subpaths of `d`, flattened: their points and whether each is closed.
fn polylines(d: &str) -> Result<Vec<Polyline>, Reason> {
    let path = path_data::parse(d)?;
    let mut out: Vec<Polyline> = Vec::new();
    for e in path.iter().flattened(TOLERANCE) {
        match e {
            PathEvent::Begin { at } => out.push((vec![[at.x, at.y]], false)),
            PathEvent::Line { to, .. } => {
                if let Some((pts, _)) = out.last_mut() {
                    pts.push([to.x, to.y]);
                }
            }
            PathEvent::End { close, .. } => {
                if let Some((pts, closed)) = out.last_mut() {
                    *closed = close;
                    // A closing line back to the start is implied by `closed`.
                    if close && pts.len() > 1 && pts.first() == pts.last() {
                        pts.pop();
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The straight-ish runs of a polyline between its corners (a closed one's
/// runs go round, the last ending where the first starts).
fn runs(points: &[[f32; 2]], closed: bool) -> Vec<Vec<[f32; 2]>> {
    let n = points.len();
    if n < 2 {
        return vec![points.to_vec()];
    }
    let turn = |i: usize| -> f32 {
        let (a, b, c) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
        let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
        let cross = u[0] * v[1] - u[1] * v[0];
        let dot = u[0] * v[0] + u[1] * v[1];
        cross.atan2(dot).abs()
    };
    let corners: Vec<usize> = if closed {
        (0..n).filter(|&i| turn(i) > CORNER).collect()
    } else {
        (1..n - 1).filter(|&i| turn(i) > CORNER).collect()
    };
    if closed {
        if corners.is_empty() {
            // A circle: one run round, back to its start.
            let mut run = points.to_vec();
            run.push(points[0]);
            return vec![run];
        }
        let m = corners.len();
        (0..m)
            .map(|j| {
                let (from, to) = (corners[j], corners[(j + 1) % m]);
                let len = (to + n - from) % n;
                let len = if len == 0 { n } else { len };
                (0..=len).map(|s| points[(from + s) % n]).collect()
            })
            .collect()
    } else {
        let mut cuts = vec![0];
        cuts.extend(&corners);
        cuts.push(n - 1);
        cuts.windows(2)
            .map(|w| points[w[0]..=w[1]].to_vec())
            .collect()
    }
}

/// A run drawn past both its ends, by `by` px or a tenth of its length if less.
fn extended(run: &[[f32; 2]], by: f32) -> Vec<[f32; 2]> {
    let length: f32 = run.windows(2).map(|w| dist(w[0], w[1])).sum();
    let by = by.min(0.1 * length);
    if run.len() < 2 || by <= 0.0 || run.first() == run.last() {
        return run.to_vec();
    }
    let past = |end: [f32; 2], before: [f32; 2]| {
        let d = dist(end, before).max(1e-6);
        [
            end[0] + (end[0] - before[0]) / d * by,
            end[1] + (end[1] - before[1]) / d * by,
        ]
    };
    let mut out = Vec::with_capacity(run.len() + 2);
    out.push(past(run[0], run[1]));
    out.extend_from_slice(run);
    out.push(past(run[run.len() - 1], run[run.len() - 2]));
    out
}

/// The polyline with points added so that no step is longer than `step`.
fn resampled(points: &[[f32; 2]], step: f32) -> Vec<[f32; 2]> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for w in points.windows(2) {
        let pieces = (dist(w[0], w[1]) / step).ceil().max(1.0) as usize;
        for s in 0..pieces {
            let t = s as f32 / pieces as f32;
            out.push([
                w[0][0] + t * (w[1][0] - w[0][0]),
                w[0][1] + t * (w[1][1] - w[0][1]),
            ]);
        }
    }
    if let Some(last) = points.last() {
        out.push(*last);
    }
    out
}

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Appends one subpath, its points moved by `f`.
fn put(d: &mut String, points: &[[f32; 2]], closed: bool, f: impl Fn([f32; 2]) -> [f32; 2]) {
    for (i, &p) in points.iter().enumerate() {
        let [x, y] = f(p);
        let cmd = if i == 0 { 'M' } else { 'L' };
        if !d.is_empty() {
            d.push(' ');
        }
        let _ = write!(
            d,
            "{cmd} {} {}",
            fmt_decimal(f64::from(x), 2),
            fmt_decimal(f64::from(y), 2)
        );
    }
    if closed {
        d.push_str(" Z");
    }
}

/// Every point of the paths of `items`, flattened and sampled every `step` px
/// (for `audit`'s bound check).
pub(crate) fn sampled_points(d: &str, step: f32) -> Result<Vec<[f32; 2]>, Reason> {
    let mut out = Vec::new();
    for (points, closed) in polylines(d)? {
        let mut pts = points.clone();
        if closed && let Some(first) = points.first() {
            pts.push(*first);
        }
        out.extend(resampled(&pts, step));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Color, PathItem, TextItem};

    fn square() -> Vec<Item> {
        vec![
            Item::Path(PathItem {
                fill: Some(Color::WHITE),
                ..PathItem::new("M 100 100 L 300 100 L 300 300 L 100 300 Z")
            }),
            Item::Path(PathItem {
                stroke: Some(Color::BLACK),
                ..PathItem::new(
                    "M 100 100 L 300 100 L 300 300 L 100 300 Z M 100 290 L 110 290 L 110 300",
                )
            }),
            Item::Text(TextItem::new("A", 90.0, 95.0, 16.0)),
        ]
    }

    #[test]
    fn every_point_stays_within_the_bound_and_the_corners_overshoot() {
        for level in 1..=3u8 {
            let b = bounds(level, 512.0).unwrap();
            for seed in 0..30 {
                let base = square();
                let mut items = base.clone();
                hand_drawn(&mut items, level, seed, 512.0).unwrap();
                assert_ne!(items, base);
                let (Item::Path(was), Item::Path(now)) = (&base[1], &items[1]) else {
                    panic!()
                };
                let base_pts = sampled_points(&was.d, 0.5).unwrap();
                let pts = sampled_points(&now.d, 0.5).unwrap();
                for p in &pts {
                    let near = base_pts
                        .iter()
                        .map(|q| dist(*p, *q))
                        .fold(f32::MAX, f32::min);
                    assert!(
                        near <= b.paths,
                        "level {level} seed {seed}: {p:?} is {near} px off"
                    );
                }
                // Four sides and the mark's two strokes, each its own run (twice at 3).
                let subpaths = now.d.matches('M').count();
                assert_eq!(subpaths, if level == 3 { 12 } else { 6 }, "{}", now.d);
                let (Item::Text(t0), Item::Text(t)) = (&base[2], &items[2]) else {
                    panic!()
                };
                assert!(dist([t.x, t.y], [t0.x, t0.y]) <= b.labels);
            }
        }
    }

    /// The largest slope of the drift field at level 3 (three waves of amplitude 1
    /// per component, wavelength ≥ 0.8 of the side: √2 · 3 · 2π / (0.8 · 512)): a
    /// direction turns by at most 3.8°, so a right angle stays within 90 ± 7.6°.
    const MAX_SLOPE: f32 = 0.066;

    #[test]
    fn the_drift_field_keeps_its_slope_bound() {
        let mut draws = Draws(7);
        for _ in 0..50 {
            let f = Field::new(&mut draws, 3.0, (0.8 * 512.0, 1.6 * 512.0));
            for i in 0..200 {
                let p = [(i * 37 % 512) as f32, (i * 91 % 512) as f32];
                for (dx, dy) in [(1.0, 0.0), (0.0, 1.0)] {
                    let (a, b) = (f.at(p), f.at([p[0] + dx * 0.01, p[1] + dy * 0.01]));
                    let slope = ((b[0] - a[0]).hypot(b[1] - a[1])) / 0.01;
                    assert!(slope <= MAX_SLOPE * 1.05, "{slope}");
                }
            }
        }
    }
}
