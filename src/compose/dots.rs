//! Point dots: a filled dot on every named point that is not a corner of a drawn
//! outline — a point on a line, a segment's end, a circle's centre, where lines
//! cross — so that where a point is does not rest on its label alone. A shape's
//! corner shows itself where its outline turns, and gets none.
//!
//! Where the dots are never depends on the style: labels keep clear of them whether
//! they are drawn or not ([`Style::point_dots`] only paints them), so the `dots`
//! axis removes the dots and nothing else.

use super::frame::{Fit, Px};
use crate::generate::{Problem, Segment};
use crate::vec2::{cross, dot, normalize, sub};

/// Dot radius in px on the 512 px reference canvas (scaled with the canvas).
const RADIUS_512: f32 = 3.0;

/// An outline turning by less than this (radians) at a point goes straight through
/// it: the point is no corner there.
const STRAIGHT: f64 = 0.035; // about 2°

/// The dot radius in px on a `canvas` px canvas.
pub(crate) fn radius(canvas: u32) -> f32 {
    RADIUS_512 * canvas as f32 / 512.0
}

/// The points of `p` that get a dot, in px (in point order).
pub(crate) fn dots(p: &Problem, fit: &Fit) -> Vec<Px> {
    let corners = corners(p);
    (0..p.diagram.points.len())
        .filter(|&i| !corners.iter().any(|c| same_place(*c, p.diagram.xy(i))))
        .map(|i| fit.point(p, i))
        .collect()
}

/// The box around each dot as four segments: the obstacle labels keep clear of.
pub(crate) fn obstacles(dots: &[Px], r: f32) -> Vec<(Px, Px)> {
    let mut out = Vec::with_capacity(4 * dots.len());
    for &[x, y] in dots {
        let c = [
            [x - r, y - r],
            [x + r, y - r],
            [x + r, y + r],
            [x - r, y + r],
        ];
        for k in 0..4 {
            out.push((c[k], c[(k + 1) % 4]));
        }
    }
    out
}

/// Whether two diagram positions are one point (a millionth of a unit apart).
fn same_place(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() <= 1e-6 && (a[1] - b[1]).abs() <= 1e-6
}

/// Every node of every shape outline where the outline turns (diagram units).
fn corners(p: &Problem) -> Vec<[f64; 2]> {
    let mut out = Vec::new();
    for c in p.diagram.shapes.iter().flat_map(|s| &s.outline) {
        // (node, direction arriving there, direction leaving it), in outline order.
        let mut nodes: Vec<([f64; 2], [f64; 2], [f64; 2])> = Vec::new();
        let mut cur = c.start;
        for seg in &c.segments {
            let (to, leave, arrive) = match *seg {
                Segment::Line { to } => (to, sub(to, cur), sub(to, cur)),
                Segment::Arc {
                    to, center, sweep, ..
                } => (to, tangent(cur, center, sweep), tangent(to, center, sweep)),
            };
            nodes.push((cur, [f64::NAN; 2], leave));
            nodes.push((to, arrive, [f64::NAN; 2]));
            cur = to;
        }
        // Each node's arriving and leaving directions, the contour closed.
        let n = nodes.len();
        for k in (0..n).step_by(2) {
            let at = nodes[k].0;
            let arrive = nodes[(k + n - 1) % n].1;
            let leave = nodes[k].2;
            if turns(arrive, leave) {
                out.push(at);
            }
        }
    }
    out
}

/// The direction of travel at `q` on a circle about `center`: clockwise on screen
/// (y down) when `sweep`.
fn tangent(q: [f64; 2], center: [f64; 2], sweep: bool) -> [f64; 2] {
    let r = sub(q, center);
    if sweep { [-r[1], r[0]] } else { [r[1], -r[0]] }
}

/// Whether travel turns between the two directions (a zero-length one turns).
fn turns(a: [f64; 2], b: [f64; 2]) -> bool {
    match (normalize(a, 1e-12), normalize(b, 1e-12)) {
        (Some(a), Some(b)) => cross(a, b).atan2(dot(a, b)).abs() > STRAIGHT,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_through_is_no_turn_and_a_corner_is() {
        assert!(!turns([1.0, 0.0], [2.0, 0.0]));
        assert!(!turns([1.0, 0.0], [1.0, 0.01]));
        assert!(turns([1.0, 0.0], [0.0, 1.0]));
        assert!(turns([1.0, 0.0], [-1.0, 0.0]));
        assert!(turns([0.0, 0.0], [1.0, 0.0]));
    }

    #[test]
    fn a_circle_is_tangent_to_its_own_travel() {
        // Clockwise on screen from the rightmost point: downwards.
        assert_eq!(tangent([1.0, 0.0], [0.0, 0.0], true), [-0.0, 1.0]);
        assert_eq!(tangent([1.0, 0.0], [0.0, 0.0], false), [0.0, -1.0]);
    }
}
