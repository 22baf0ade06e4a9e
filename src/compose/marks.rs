//! Right-angle marks and angle arcs, sized from the canvas and the geometry only, and
//! every stroke of the diagram as pixel segments: the obstacles labels keep clear of.

use super::frame::{ARC_PER_TURN, Fit, Px};
use crate::generate::{MarkKind, Problem, Status};
use crate::vec2::{add, cross, len, scale, sub, unit_clamped};

/// Below this length (px) an arm of an angle has no direction: its unit vector
/// shrinks towards `[0, 0]` (see [`unit_clamped`]), so the mark collapses onto the vertex.
const MIN_ARM: f32 = 1e-6;

/// An angle's arc, drawn from `from` to `to` around `vertex`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Arc {
    pub vertex: Px,
    /// Start point, on the first arm at `radius` from the vertex.
    pub from: Px,
    /// End point, on the second arm at `radius` from the vertex.
    pub to: Px,
    pub radius: f32,
    /// SVG sweep flag: true when the arc turns clockwise on screen (y down).
    pub sweep: bool,
}

/// Angle arcs and right-angle marks.
pub(crate) struct Marks {
    pub arcs: Vec<Arc>,
    /// Three-point polylines.
    pub corners: Vec<[Px; 3]>,
}

/// The marks of `p`'s right angles and used angles, fitted by `fit` on a `canvas` px canvas.
pub(crate) fn marks(p: &Problem, fit: &Fit, canvas: u32) -> Marks {
    let c = canvas as f32;
    let d = &p.diagram;
    let mut corners = Vec::new();
    for r in &d.right_angles {
        let (a, v, b) = (fit.point(p, r[0]), fit.point(p, r[1]), fit.point(p, r[2]));
        let s = (0.025 * c).min(0.3 * len(sub(a, v)).min(len(sub(b, v))));
        let (ua, ub) = (
            unit_clamped(sub(a, v), MIN_ARM),
            unit_clamped(sub(b, v), MIN_ARM),
        );
        let p1 = add(v, scale(ua, s));
        let p2 = add(p1, scale(ub, s));
        let p3 = add(v, scale(ub, s));
        corners.push([p1, p2, p3]);
    }
    let mut arcs = Vec::new();
    for a in d.angles.iter().filter(|a| a.status != Status::Unused) {
        let (pa, v, pb) = (
            fit.point(p, a.points[0]),
            fit.point(p, a.points[1]),
            fit.point(p, a.points[2]),
        );
        let r = arc_radius(canvas, pa, v, pb);
        let (ua, ub) = (
            unit_clamped(sub(pa, v), MIN_ARM),
            unit_clamped(sub(pb, v), MIN_ARM),
        );
        arcs.push(Arc {
            vertex: v,
            from: add(v, scale(ua, r)),
            to: add(v, scale(ub, r)),
            radius: r,
            sweep: cross(ua, ub) > 0.0,
        });
    }
    // Ticks and arrowheads, as three-point polylines across or along the segment.
    let size = 0.012 * c;
    for m in &d.marks {
        let (a, b) = (fit.point(p, m.points[0]), fit.point(p, m.points[1]));
        let u = unit_clamped(sub(b, a), MIN_ARM);
        let n = [-u[1], u[0]];
        let mid = scale(add(a, b), 0.5);
        let gap = 0.9 * size;
        for k in 0..m.count {
            let at = add(
                mid,
                scale(u, (f32::from(k) - f32::from(m.count - 1) / 2.0) * gap),
            );
            corners.push(match m.kind {
                MarkKind::Tick => [add(at, scale(n, size)), at, sub(at, scale(n, size))],
                MarkKind::Arrow => {
                    let back = sub(at, scale(u, size));
                    [add(back, scale(n, size)), at, sub(back, scale(n, size))]
                }
            });
        }
    }
    Marks { arcs, corners }
}

/// Radius in px of the arc of the angle `a v b` (vertex `v`).
pub(crate) fn arc_radius(canvas: u32, a: Px, v: Px, b: Px) -> f32 {
    (0.04 * canvas as f32).min(0.3 * len(sub(a, v)).min(len(sub(b, v))))
}

/// Every stroke as px segments: outlines, non-edge sides, rays, marks (arcs as 8 chords).
pub(crate) fn stroke_segments(p: &Problem, fit: &Fit, marks: &Marks) -> Vec<(Px, Px)> {
    let mut segs = Vec::new();
    for (a, b) in p.diagram.drawn_segments(ARC_PER_TURN) {
        segs.push((fit.px(a), fit.px(b)));
    }
    for a in &p.diagram.aux {
        segs.push((fit.px(a.from), fit.px(a.to)));
    }
    for c in &marks.corners {
        segs.push((c[0], c[1]));
        segs.push((c[1], c[2]));
    }
    for arc in &marks.arcs {
        segs.extend(arc_chords(arc));
    }
    segs
}

/// The arc as 8 equal chords.
fn arc_chords(arc: &Arc) -> Vec<(Px, Px)> {
    let Arc {
        vertex: v,
        from,
        to,
        radius: r,
        sweep,
    } = *arc;
    let a0 = (from[1] - v[1]).atan2(from[0] - v[0]);
    let mut d = (to[1] - v[1]).atan2(to[0] - v[0]) - a0;
    let tau = std::f32::consts::TAU;
    if sweep {
        while d <= 0.0 {
            d += tau;
        }
    } else {
        while d >= 0.0 {
            d -= tau;
        }
    }
    let pts: Vec<Px> = (0..=8)
        .map(|k| {
            let a = a0 + d * k as f32 / 8.0;
            [v[0] + r * a.cos(), v[1] + r * a.sin()]
        })
        .collect();
    pts.windows(2).map(|w| (w[0], w[1])).collect()
}
