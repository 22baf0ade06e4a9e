//! The first choice of unrelated shape: a rectangle built outward on an outline
//! edge that belongs to one shape only, its given value the new side's length.
//!
//! It is placed only where it overlaps nothing: no drawn point inside it, none of
//! its new edges crossing or coming near (a fifth of the edge it stands on) another
//! outline, side or ray, nothing drawn inside it, and inside the fitted square.

use super::{Seg, Used, push_points, push_shape, push_side};
use crate::generate::problem::{Problem, Segment, SideKind, Status};
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

/// A rectangle on side `side`: its new corners `z` (beyond the side's second
/// point) and `w` (beyond its first), at depth `value`.
pub(super) struct OnEdge {
    side: usize,
    pub value: f64,
    z: [f64; 2],
    w: [f64; 2],
}

/// A rectangle on a free side, the sides in random order and each side's lengths
/// in random order, the first that fits.
pub(super) fn find(
    p: &Problem,
    square: [[f64; 2]; 2],
    rng: &mut Rng,
    used: &Used,
) -> Option<OnEdge> {
    let mut free: Vec<usize> = (0..p.diagram.sides.len())
        .filter(|&i| {
            let s = &p.diagram.sides[i];
            s.kind == SideKind::Edge && s.shapes.len() == 1 && !round(p, s.shapes[0])
        })
        .collect();
    rng.shuffle(&mut free);
    free.into_iter().find_map(|side| {
        pick_values(p, side, rng, used)
            .into_iter()
            .find_map(|value| {
                let [z, w] = rectangle(p, side, value, square)?;
                Some(OnEdge { side, value, z, w })
            })
    })
}

/// Whether shape `s` has an arc (its straight edges may be a diameter: left alone).
fn round(p: &Problem, s: usize) -> bool {
    p.diagram.shapes[s]
        .outline
        .iter()
        .flat_map(|c| &c.segments)
        .any(|seg| matches!(seg, Segment::Arc { .. }))
}

/// Whole-number lengths for the new side, in random order: 40–90 % of the edge it
/// stands on, none a number the texts already use.
fn pick_values(p: &Problem, side: usize, rng: &mut Rng, used: &Used) -> Vec<f64> {
    let l = p.diagram.sides[side].value;
    let (lo, hi) = (
        (0.4 * l).round().max(2.0) as i64,
        (0.9 * l).round().max(3.0) as i64,
    );
    let mut options: Vec<i64> = (lo..=hi).filter(|&v| !used.has(v)).collect();
    rng.shuffle(&mut options);
    options.into_iter().map(|v| v as f64).collect()
}

/// Distance from `q` to segment `s`.
fn dist_point_seg(q: [f64; 2], (a, b): Seg) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = (dx * dx + dy * dy).max(1e-12);
    let t = (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2).clamp(0.0, 1.0);
    (q[0] - a[0] - t * dx).hypot(q[1] - a[1] - t * dy)
}

/// Distance between two segments (0 when they cross).
fn dist_seg_seg(s: Seg, t: Seg) -> f64 {
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let (d1, d2) = (cross(t.0, t.1, s.0), cross(t.0, t.1, s.1));
    let (d3, d4) = (cross(s.0, s.1, t.0), cross(s.0, s.1, t.1));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0; // they cross
    }
    dist_point_seg(s.0, t)
        .min(dist_point_seg(s.1, t))
        .min(dist_point_seg(t.0, s))
        .min(dist_point_seg(t.1, s))
}

/// The two new corners of a rectangle of depth `depth` on `side`, outward from its
/// shape, if it overlaps and crowds nothing and stays inside `square`.
fn rectangle(p: &Problem, side: usize, depth: f64, square: [[f64; 2]; 2]) -> Option<[[f64; 2]; 2]> {
    let s = &p.diagram.sides[side];
    let (x, y) = (p.diagram.xy(s.points[0]), p.diagram.xy(s.points[1]));
    let (dx, dy) = (y[0] - x[0], y[1] - x[1]);
    let l = dx.hypot(dy);
    if l < 1e-9 {
        return None;
    }
    let n = [-dy / l, dx / l];
    let shape = &p.diagram.shapes[s.shapes[0]];
    let poly: Vec<[f64; 2]> = shape.vertices.iter().map(|&v| p.diagram.xy(v)).collect();
    let mid = [(x[0] + y[0]) / 2.0, (x[1] + y[1]) / 2.0];
    let probe = [mid[0] + n[0] * 1e-3 * l, mid[1] + n[1] * 1e-3 * l];
    let k = if crate::vec2::inside(&poly, probe) {
        -depth
    } else {
        depth
    };
    let z = [y[0] + n[0] * k, y[1] + n[1] * k];
    let w = [x[0] + n[0] * k, x[1] + n[1] * k];
    let [lo, hi] = square;
    let within = |q: [f64; 2]| (0..2).all(|i| lo[i] <= q[i] && q[i] <= hi[i]);
    if !(within(z) && within(w)) {
        return None;
    }
    let rect = [x, y, z, w];
    let room = 0.2 * l.min(depth);
    // No drawn point inside it or near its new edges.
    for (i, pt) in p.diagram.points.iter().enumerate() {
        if s.points.contains(&i) {
            continue;
        }
        let q = [pt.x, pt.y];
        if crate::vec2::inside(&rect, q)
            || [(y, z), (z, w), (w, x)]
                .iter()
                .any(|e| dist_point_seg(q, *e) < room)
        {
            return None;
        }
    }
    // Its new edges cross nothing and keep their distance. The two that start at
    // the side's ends meet the edges already there: only their part beyond the
    // first quarter is checked, against a smaller distance.
    let segs = p.diagram.drawn_segments(24);
    let part = |a: [f64; 2], b: [f64; 2]| {
        (
            [a[0] + (b[0] - a[0]) * 0.25, a[1] + (b[1] - a[1]) * 0.25],
            b,
        )
    };
    for (e, clear) in [
        (part(y, z), 0.5 * room),
        ((z, w), room),
        (part(x, w), 0.5 * room),
    ] {
        if segs.iter().any(|t| dist_seg_seg(e, *t) < clear) {
            return None;
        }
    }
    // Nothing drawn inside it (a shape enclosing it, or one it would cover).
    let centre = [(x[0] + z[0]) / 2.0, (x[1] + z[1]) / 2.0];
    for other in &p.diagram.shapes {
        let poly: Vec<[f64; 2]> = other.vertices.iter().map(|&v| p.diagram.xy(v)).collect();
        if poly.len() >= 3 && crate::vec2::inside(&poly, centre) {
            return None;
        }
    }
    Some([z, w])
}

/// Adds the rectangle x y z w on its side (x, y the side's points): two points,
/// three sides (y–z given with its value), the shape.
pub(super) fn attach(p: &mut Problem, r: &OnEdge, colour: &str) {
    let d = &mut p.diagram;
    let [xi, yi] = d.sides[r.side].points;
    let [zi, wi] = push_points(d, [r.z, r.w]);
    let s = push_shape(d, ShapeKind::Rectangle, &[xi, yi, zi, wi], colour);
    d.sides[r.side].shapes.push(s);
    let base = d.sides[r.side].value;
    push_side(d, [yi, zi], s, r.value, Status::Given);
    push_side(d, [zi, wi], s, base, Status::Unused);
    push_side(d, [wi, xi], s, r.value, Status::Unused);
}
