//! Plane geometry helpers for placing shapes: transforms, flattened outlines and the
//! overlap test.

use crate::vec2::{add, cross, dist, dot, len, perp, scale, sub, unit_or};

/// A 2-D point or vector in diagram units.
pub(super) type P = crate::vec2::Vec2<f64>;

/// The direction placement takes for a zero vector: +x (`unit_or(v, PLUS_X)`).
pub(super) const PLUS_X: P = [1.0, 0.0];

/// x' = M·x + t, with M a rotation times a scale, possibly with a reflection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Xf {
    pub m: [[f64; 2]; 2],
    pub t: P,
}

impl Xf {
    pub(super) fn apply(&self, p: P) -> P {
        [
            self.m[0][0] * p[0] + self.m[0][1] * p[1] + self.t[0],
            self.m[1][0] * p[0] + self.m[1][1] * p[1] + self.t[1],
        ]
    }

    /// Whether the transform mirrors (turns counter-clockwise into clockwise).
    pub(super) fn mirrors(&self) -> bool {
        self.m[0][0] * self.m[1][1] - self.m[0][1] * self.m[1][0] < 0.0
    }

    /// The similarity (no mirror) taking `p → a` and `q → b`.
    pub(super) fn matching(p: P, q: P, a: P, b: P) -> Xf {
        let (u, v) = (sub(q, p), sub(b, a));
        let s = len(v) / len(u).max(1e-12);
        let ang = v[1].atan2(v[0]) - u[1].atan2(u[0]);
        let (c, sn) = (s * ang.cos(), s * ang.sin());
        let m = [[c, -sn], [sn, c]];
        let mp = [
            m[0][0] * p[0] + m[0][1] * p[1],
            m[1][0] * p[0] + m[1][1] * p[1],
        ];
        Xf { m, t: sub(a, mp) }
    }

    /// This transform followed by a reflection across the line through `a` and `b`.
    pub(super) fn then_reflect(&self, a: P, b: P) -> Xf {
        let d = unit_or(sub(b, a), PLUS_X);
        // Reflection matrix across direction d: [[cos2θ, sin2θ], [sin2θ, −cos2θ]].
        let (c2, s2) = (d[0] * d[0] - d[1] * d[1], 2.0 * d[0] * d[1]);
        let r = [[c2, s2], [s2, -c2]];
        let m = [
            [
                r[0][0] * self.m[0][0] + r[0][1] * self.m[1][0],
                r[0][0] * self.m[0][1] + r[0][1] * self.m[1][1],
            ],
            [
                r[1][0] * self.m[0][0] + r[1][1] * self.m[1][0],
                r[1][0] * self.m[0][1] + r[1][1] * self.m[1][1],
            ],
        ];
        // Reflect the translated origin about the line as well.
        let t0 = sub(self.t, a);
        let t = add(
            a,
            [
                r[0][0] * t0[0] + r[0][1] * t0[1],
                r[1][0] * t0[0] + r[1][1] * t0[1],
            ],
        );
        Xf { m, t }
    }
}

pub(super) use crate::vec2::inside;

/// Distance from `p` to segment `ab`.
pub(super) fn seg_dist(p: P, a: P, b: P) -> f64 {
    let ab = sub(b, a);
    let l2 = dot(ab, ab);
    let t = if l2 > 0.0 {
        (dot(sub(p, a), ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    dist(p, add(a, scale(ab, t)))
}

/// Distance from `p` to the boundary of `poly`.
pub(super) fn boundary_dist(poly: &[P], p: P) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| seg_dist(p, poly[i], poly[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}

/// Whether segments `ab` and `cd` cross at a point interior to both (not merely touch).
pub(super) fn proper_cross(a: P, b: P, c: P, d: P, eps: f64) -> bool {
    let r = sub(b, a);
    let s = sub(d, c);
    let den = cross(r, s);
    if den.abs() <= eps * len(r) * len(s) {
        return false;
    }
    let t = cross(sub(c, a), s) / den;
    let u = cross(sub(c, a), r) / den;
    let m = 1e-6;
    t > m && t < 1.0 - m && u > m && u < 1.0 - m
}

/// Points just inside a counter-clockwise or clockwise polygon: each edge midpoint moved
/// a little towards the interior.
fn interior_probes(poly: &[P], step: f64) -> Vec<P> {
    let n = poly.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if dist(a, b) < step * 4.0 {
            continue;
        }
        let mid = scale(add(a, b), 0.5);
        let nrm = unit_or(perp(sub(b, a)), PLUS_X);
        for s in [1.0, -1.0] {
            let q = add(mid, scale(nrm, s * step));
            if inside(poly, q) {
                out.push(q);
                break;
            }
        }
    }
    out
}

/// Whether two outlines share interior area (touching along edges or at points does not
/// count). `tol` is a length well below any feature of the diagram.
pub(super) fn overlaps(p: &[P], q: &[P], tol: f64) -> bool {
    let n = p.len();
    let m = q.len();
    for i in 0..n {
        for j in 0..m {
            if proper_cross(p[i], p[(i + 1) % n], q[j], q[(j + 1) % m], 1e-9) {
                return true;
            }
        }
    }
    let strictly_in = |poly: &[P], x: P| inside(poly, x) && boundary_dist(poly, x) > tol;
    p.iter().any(|&v| strictly_in(q, v))
        || q.iter().any(|&v| strictly_in(p, v))
        || interior_probes(p, tol * 4.0)
            .into_iter()
            .any(|x| strictly_in(q, x))
        || interior_probes(q, tol * 4.0)
            .into_iter()
            .any(|x| strictly_in(p, x))
}

/// Whether segment `ab` enters the interior of `poly`.
pub(super) fn segment_enters(poly: &[P], a: P, b: P, tol: f64) -> bool {
    let n = poly.len();
    if (0..n).any(|i| proper_cross(a, b, poly[i], poly[(i + 1) % n], 1e-9)) {
        return true;
    }
    let strictly_in = |x: P| inside(poly, x) && boundary_dist(poly, x) > tol;
    (1..8).any(|k| strictly_in(add(a, scale(sub(b, a), k as f64 / 8.0))))
}

/// Points on the arc from `from` to `to` around `center` (exclusive of `from`, inclusive
/// of `to`), counter-clockwise when `ccw`.
pub(super) fn arc_points(from: P, to: P, center: P, ccw: bool, per_turn: usize) -> Vec<P> {
    crate::vec2::arc_points(from, to, center, ccw, per_turn, 1e-12)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, s: f64) -> Vec<P> {
        vec![[x, y], [x + s, y], [x + s, y + s], [x, y + s]]
    }

    #[test]
    fn overlap_test_separates_touching_from_overlapping() {
        let a = square(0.0, 0.0, 10.0);
        assert!(!overlaps(&a, &square(10.0, 0.0, 10.0), 1e-3), "shared edge");
        assert!(
            !overlaps(&a, &square(10.0, 10.0, 5.0), 1e-3),
            "shared corner"
        );
        assert!(
            !overlaps(&a, &square(10.0, 2.0, 5.0), 1e-3),
            "partly shared edge"
        );
        assert!(
            overlaps(&a, &square(9.0, 0.0, 10.0), 1e-3),
            "slight overlap"
        );
        assert!(overlaps(&a, &square(0.0, 0.0, 10.0), 1e-3), "identical");
        assert!(overlaps(&a, &square(2.0, 2.0, 3.0), 1e-3), "contained");
        // A cross: no vertex inside the other, edges cross.
        let h = vec![[-5.0, 4.0], [15.0, 4.0], [15.0, 6.0], [-5.0, 6.0]];
        assert!(overlaps(&a, &h, 1e-3));
    }

    #[test]
    fn transforms_match_and_reflect() {
        let xf = Xf::matching([0.0, 0.0], [1.0, 0.0], [2.0, 2.0], [2.0, 4.0]);
        let p = xf.apply([1.0, 0.0]);
        assert!(dist(p, [2.0, 4.0]) < 1e-12);
        assert!(!xf.mirrors());
        let r = xf.then_reflect([2.0, 2.0], [2.0, 4.0]);
        assert!(dist(r.apply([0.0, 0.0]), [2.0, 2.0]) < 1e-12);
        assert!(dist(r.apply([0.0, 1.0]), [4.0, 2.0]) < 1e-12);
        assert!(r.mirrors());
    }

    #[test]
    fn segments_entering_polygons() {
        let a = square(0.0, 0.0, 10.0);
        assert!(segment_enters(&a, [-5.0, 5.0], [5.0, 5.0], 1e-3));
        assert!(!segment_enters(&a, [10.0, 0.0], [20.0, 0.0], 1e-3));
        assert!(!segment_enters(&a, [0.0, 0.0], [-5.0, -5.0], 1e-3));
    }
}
