//! Each relation of the pool decided from coordinates: which choice of its family
//! holds for the elements an item asks about. Coordinates are a construction's own
//! (f64, not the rounded values a text prints); tolerances are relative to the
//! figure's size ([`TOL`]), so only floating-point error is forgiven, and a case
//! near two answers (nearly parallel, nearly tangent) is one a construction must
//! not make.

type P = [f64; 2];

/// Relative tolerance: of lengths for incidences, of sines and cosines for angles.
pub(crate) const TOL: f64 = 1e-6;

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn len(a: P) -> f64 {
    a[0].hypot(a[1])
}

fn mid(a: P, b: P) -> P {
    [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
}

fn near(a: P, b: P, scale: f64) -> bool {
    len(sub(a, b)) <= TOL * scale.max(1.0)
}

/// Distance from `p` to the line through `a` and `b`.
fn line_distance(p: P, a: P, b: P) -> f64 {
    cross(sub(b, a), sub(p, a)).abs() / len(sub(b, a)).max(f64::MIN_POSITIVE)
}

/// Whether `c` is on the line through `a` and `b` (three points collinear).
pub(crate) fn collinear(a: P, b: P, c: P) -> bool {
    let scale = len(sub(b, a)).max(len(sub(c, a)));
    line_distance(c, a, b) <= TOL * scale.max(1.0)
}

/// Two lines, each through two points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineLine {
    /// The same line: no relation an item asks about.
    Coincident,
    Parallel,
    Perpendicular,
    Intersecting,
}

/// How the line through `a`, `b` and the line through `c`, `d` meet.
pub(crate) fn line_line(a: P, b: P, c: P, d: P) -> LineLine {
    let (u, v) = (sub(b, a), sub(d, c));
    let (lu, lv) = (len(u), len(v));
    let sin = cross(u, v) / (lu * lv);
    let cos = dot(u, v) / (lu * lv);
    if sin.abs() <= TOL {
        if collinear(a, b, c) {
            LineLine::Coincident
        } else {
            LineLine::Parallel
        }
    } else if cos.abs() <= TOL {
        LineLine::Perpendicular
    } else {
        LineLine::Intersecting
    }
}

/// Two angle measures (degrees): complementary (sum 90°), supplementary (sum
/// 180°), or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AngleMeasures {
    Complementary,
    Supplementary,
    Neither,
}

pub(crate) fn angle_measures(a: f64, b: f64) -> AngleMeasures {
    let sum = a + b;
    if (sum - 90.0).abs() <= TOL * 90.0 {
        AngleMeasures::Complementary
    } else if (sum - 180.0).abs() <= TOL * 180.0 {
        AngleMeasures::Supplementary
    } else {
        AngleMeasures::Neither
    }
}

/// An angle: its vertex and one point on each of its two rays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Angle {
    pub vertex: P,
    pub arms: [P; 2],
}

/// Two angles where lines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AnglePositions {
    Corresponding,
    AlternateInterior,
    ConsecutiveInterior,
    AlternateExterior,
    ConsecutiveExterior,
    Vertical,
    /// None of these (they are not at two meeting points of one transversal, or
    /// their rays do not lie along its lines).
    Other,
}

/// The positions of angles `a` and `b` where the transversal through `t0`, `t1`
/// cuts two lines: each angle has one ray along the transversal and one along the
/// line it cuts at the angle's vertex. At one vertex, two angles with opposite
/// rays are vertical angles.
pub(crate) fn angle_positions(a: &Angle, b: &Angle, t0: P, t1: P) -> AnglePositions {
    let scale = len(sub(t1, t0));
    let along_t = |v: P, q: P| collinear(t0, t1, v) && collinear(t0, t1, q) && !near(v, q, scale);
    // Each angle: (its ray along the transversal, its other ray).
    let split = |x: &Angle| -> Option<(P, P)> {
        let [p, q] = x.arms;
        match (along_t(x.vertex, p), along_t(x.vertex, q)) {
            (true, false) => Some((sub(p, x.vertex), sub(q, x.vertex))),
            (false, true) => Some((sub(q, x.vertex), sub(p, x.vertex))),
            _ => None,
        }
    };
    let opposite = |u: P, v: P| cross(u, v).abs() <= TOL * len(u) * len(v) && dot(u, v) < 0.0;
    if near(a.vertex, b.vertex, scale) {
        let (a0, a1) = (sub(a.arms[0], a.vertex), sub(a.arms[1], a.vertex));
        let (b0, b1) = (sub(b.arms[0], b.vertex), sub(b.arms[1], b.vertex));
        let vertical =
            (opposite(a0, b0) && opposite(a1, b1)) || (opposite(a0, b1) && opposite(a1, b0));
        return if vertical {
            AnglePositions::Vertical
        } else {
            AnglePositions::Other
        };
    }
    let (Some((ta, la)), Some((tb, lb))) = (split(a), split(b)) else {
        return AnglePositions::Other;
    };
    if !(collinear(t0, t1, a.vertex) && collinear(t0, t1, b.vertex)) {
        return AnglePositions::Other;
    }
    // The transversal's direction from a's vertex to b's.
    let u = sub(b.vertex, a.vertex);
    let interior_a = dot(ta, u) > 0.0;
    let interior_b = dot(tb, u) < 0.0;
    let same_side = cross(u, la).signum() == cross(u, lb).signum();
    let same_direction = dot(ta, u).signum() == dot(tb, u).signum();
    match (interior_a, interior_b, same_side) {
        _ if same_direction && same_side => AnglePositions::Corresponding,
        (true, true, false) => AnglePositions::AlternateInterior,
        (true, true, true) => AnglePositions::ConsecutiveInterior,
        (false, false, false) => AnglePositions::AlternateExterior,
        (false, false, true) => AnglePositions::ConsecutiveExterior,
        _ => AnglePositions::Other,
    }
}

/// Two angles of a quadrilateral, by their vertices' places `i`, `j` (0–3) around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QuadrilateralAngles {
    Adjacent,
    Opposite,
    /// The same angle.
    Same,
}

pub(crate) fn quadrilateral_angles(i: usize, j: usize) -> QuadrilateralAngles {
    match (i % 4).abs_diff(j % 4) {
        0 => QuadrilateralAngles::Same,
        2 => QuadrilateralAngles::Opposite,
        _ => QuadrilateralAngles::Adjacent,
    }
}

/// A figure a point can be inside of.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Figure {
    /// A simple polygon, its vertices in order.
    Polygon(Vec<P>),
    Circle {
        center: P,
        radius: f64,
    },
}

/// A point and a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PointFigure {
    Inside,
    Outside,
    OnBoundary,
}

pub(crate) fn point_figure(p: P, f: &Figure) -> PointFigure {
    match f {
        Figure::Circle { center, radius } => {
            let d = len(sub(p, *center));
            if (d - radius).abs() <= TOL * radius.max(1.0) {
                PointFigure::OnBoundary
            } else if d < *radius {
                PointFigure::Inside
            } else {
                PointFigure::Outside
            }
        }
        Figure::Polygon(v) => {
            let n = v.len();
            let scale = v.iter().map(|q| len(sub(*q, v[0]))).fold(0.0, f64::max);
            for k in 0..n {
                let (a, b) = (v[k], v[(k + 1) % n]);
                let t =
                    dot(sub(p, a), sub(b, a)) / dot(sub(b, a), sub(b, a)).max(f64::MIN_POSITIVE);
                if (0.0..=1.0).contains(&t) && line_distance(p, a, b) <= TOL * scale.max(1.0) {
                    return PointFigure::OnBoundary;
                }
            }
            // The winding number: nonzero inside.
            let mut winding = 0i32;
            for k in 0..n {
                let (a, b) = (v[k], v[(k + 1) % n]);
                let side = cross(sub(b, a), sub(p, a));
                if a[1] <= p[1] {
                    if b[1] > p[1] && side > 0.0 {
                        winding += 1;
                    }
                } else if b[1] <= p[1] && side < 0.0 {
                    winding -= 1;
                }
            }
            if winding != 0 {
                PointFigure::Inside
            } else {
                PointFigure::Outside
            }
        }
    }
}

/// A line and a circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineCircle {
    Intersecting,
    Tangent,
    Disjoint,
}

/// How the line through `a` and `b` meets the circle.
pub(crate) fn line_circle(a: P, b: P, center: P, radius: f64) -> LineCircle {
    let d = line_distance(center, a, b);
    if (d - radius).abs() <= TOL * radius.max(1.0) {
        LineCircle::Tangent
    } else if d < radius {
        LineCircle::Intersecting
    } else {
        LineCircle::Disjoint
    }
}

/// What a segment is to its figure (it may be several: in an isosceles triangle
/// the median to the base is also its altitude and angle bisector).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SegmentRole {
    Median,
    Altitude,
    AngleBisector,
    Midline,
    Radius,
    Diameter,
    Chord,
}

/// The roles of segment `p`–`q` in the triangle `t`.
pub(crate) fn triangle_roles(p: P, q: P, t: [P; 3]) -> Vec<SegmentRole> {
    let scale = len(sub(t[1], t[0])).max(len(sub(t[2], t[0])));
    let mut out = Vec::new();
    for k in 0..3 {
        let (v, a, b) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        // From vertex v to a point f on the opposite side (either end first).
        for (from, f) in [(p, q), (q, p)] {
            if !near(from, v, scale) {
                continue;
            }
            let on_side = collinear(a, b, f) && {
                let s = dot(sub(f, a), sub(b, a)) / dot(sub(b, a), sub(b, a));
                (-TOL..=1.0 + TOL).contains(&s)
            };
            if !on_side {
                continue;
            }
            if near(f, mid(a, b), scale) {
                out.push(SegmentRole::Median);
            }
            let h = sub(f, v);
            if dot(h, sub(b, a)).abs() <= TOL * len(h) * len(sub(b, a)) {
                out.push(SegmentRole::Altitude);
            }
            let (ua, ub) = (sub(a, v), sub(b, v));
            let ang = |x: P, y: P| cross(x, y).atan2(dot(x, y)).abs();
            if (ang(ua, h) - ang(h, ub)).abs() <= TOL {
                out.push(SegmentRole::AngleBisector);
            }
        }
    }
    // Both ends midpoints of two sides.
    let mids = [mid(t[0], t[1]), mid(t[1], t[2]), mid(t[2], t[0])];
    let is_mid = |x: P| mids.iter().position(|m| near(x, *m, scale));
    if let (Some(i), Some(j)) = (is_mid(p), is_mid(q)) {
        if i != j {
            out.push(SegmentRole::Midline);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The role of segment `p`–`q` in the circle.
pub(crate) fn circle_roles(p: P, q: P, center: P, radius: f64) -> Vec<SegmentRole> {
    let on = |x: P| (len(sub(x, center)) - radius).abs() <= TOL * radius.max(1.0);
    let is_center = |x: P| near(x, center, radius);
    let mut out = Vec::new();
    if (is_center(p) && on(q)) || (is_center(q) && on(p)) {
        out.push(SegmentRole::Radius);
    }
    if on(p) && on(q) && !near(p, q, radius) {
        out.push(SegmentRole::Chord);
        if line_distance(center, p, q) <= TOL * radius.max(1.0) {
            out.push(SegmentRole::Diameter);
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_points() {
        assert!(collinear([0.0, 0.0], [2.0, 1.0], [4.0, 2.0]));
        assert!(!collinear([0.0, 0.0], [2.0, 1.0], [4.0, 2.1]));
        let o = [0.0, 0.0];
        assert_eq!(
            line_line(o, [1.0, 1.0], [0.0, 1.0], [2.0, 3.0]),
            LineLine::Parallel
        );
        assert_eq!(
            line_line(o, [1.0, 1.0], [0.0, 2.0], [2.0, 0.0]),
            LineLine::Perpendicular
        );
        assert_eq!(
            line_line(o, [1.0, 0.0], [0.0, 1.0], [1.0, 3.0]),
            LineLine::Intersecting
        );
        assert_eq!(
            line_line(o, [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]),
            LineLine::Coincident
        );
        assert_eq!(angle_measures(30.0, 60.0), AngleMeasures::Complementary);
        assert_eq!(angle_measures(110.0, 70.0), AngleMeasures::Supplementary);
        assert_eq!(angle_measures(40.0, 60.0), AngleMeasures::Neither);
    }

    /// Two parallel lines y = 0 and y = 2 cut by the transversal x = y: the eight
    /// angles at X = (0, 0) and Y = (2, 2), named by their rays.
    #[test]
    fn the_eight_angles_at_a_transversal() {
        let (x, y) = ([0.0, 0.0], [2.0, 2.0]);
        let at = |v: P, t: P, l: P| Angle {
            vertex: v,
            arms: [t, l],
        };
        // At X: along t towards Y (up) or away (down); along the line right or left.
        let x_up_right = at(x, y, [1.0, 0.0]);
        let x_up_left = at(x, y, [-1.0, 0.0]);
        let x_down_right = at(x, [-1.0, -1.0], [1.0, 0.0]);
        let x_down_left = at(x, [-1.0, -1.0], [-1.0, 0.0]);
        let y_up_right = at(y, [3.0, 3.0], [3.0, 2.0]);
        let y_down_right = at(y, x, [3.0, 2.0]);
        let y_down_left = at(y, x, [1.0, 2.0]);
        let y_up_left = at(y, [3.0, 3.0], [1.0, 2.0]);
        let (t0, t1) = (x, y);
        use AnglePositions as A;
        assert_eq!(
            angle_positions(&x_up_right, &y_up_right, t0, t1),
            A::Corresponding
        );
        assert_eq!(
            angle_positions(&x_down_left, &y_down_left, t0, t1),
            A::Corresponding
        );
        assert_eq!(
            angle_positions(&x_up_right, &y_down_left, t0, t1),
            A::AlternateInterior
        );
        assert_eq!(
            angle_positions(&x_up_right, &y_down_right, t0, t1),
            A::ConsecutiveInterior
        );
        assert_eq!(
            angle_positions(&x_down_right, &y_up_left, t0, t1),
            A::AlternateExterior
        );
        assert_eq!(
            angle_positions(&x_down_right, &y_up_right, t0, t1),
            A::ConsecutiveExterior
        );
        assert_eq!(
            angle_positions(&x_up_right, &x_down_left, t0, t1),
            A::Vertical
        );
        assert_eq!(angle_positions(&x_up_right, &x_up_left, t0, t1), A::Other);
        assert_eq!(quadrilateral_angles(0, 2), QuadrilateralAngles::Opposite);
        assert_eq!(quadrilateral_angles(3, 0), QuadrilateralAngles::Adjacent);
    }

    #[test]
    fn points_lines_and_segments_against_figures() {
        let sq = Figure::Polygon(vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]]);
        assert_eq!(point_figure([1.0, 1.0], &sq), PointFigure::Inside);
        assert_eq!(point_figure([4.0, 2.0], &sq), PointFigure::OnBoundary);
        assert_eq!(point_figure([5.0, 2.0], &sq), PointFigure::Outside);
        // A concave polygon: the notch is outside.
        let notch = Figure::Polygon(vec![
            [0.0, 0.0],
            [4.0, 0.0],
            [2.0, 1.0],
            [4.0, 4.0],
            [0.0, 4.0],
        ]);
        assert_eq!(point_figure([3.0, 1.0], &notch), PointFigure::Outside);
        let c = Figure::Circle {
            center: [0.0, 0.0],
            radius: 5.0,
        };
        assert_eq!(point_figure([3.0, 4.0], &c), PointFigure::OnBoundary);
        assert_eq!(point_figure([1.0, 1.0], &c), PointFigure::Inside);
        assert_eq!(
            line_circle([-9.0, 5.0], [9.0, 5.0], [0.0, 0.0], 5.0),
            LineCircle::Tangent
        );
        assert_eq!(
            line_circle([-9.0, 4.0], [9.0, 4.0], [0.0, 0.0], 5.0),
            LineCircle::Intersecting
        );
        assert_eq!(
            line_circle([-9.0, 6.0], [9.0, 6.0], [0.0, 0.0], 5.0),
            LineCircle::Disjoint
        );
        use SegmentRole as R;
        // Isosceles: from the apex to the base's middle, all three.
        let t = [[0.0, 0.0], [4.0, 0.0], [2.0, 3.0]];
        assert_eq!(
            triangle_roles([2.0, 3.0], [2.0, 0.0], t),
            [R::Median, R::Altitude, R::AngleBisector]
        );
        // Scalene: the median is only a median; the midline joins two middles.
        let t = [[0.0, 0.0], [6.0, 0.0], [1.0, 3.0]];
        assert_eq!(triangle_roles([1.0, 3.0], [3.0, 0.0], t), [R::Median]);
        assert_eq!(triangle_roles([1.0, 3.0], [1.0, 0.0], t), [R::Altitude]);
        assert_eq!(triangle_roles([3.0, 0.0], [3.5, 1.5], t), [R::Midline]);
        assert!(triangle_roles([1.0, 3.0], [5.0, 0.0], t).is_empty());
        assert_eq!(
            circle_roles([0.0, 0.0], [3.0, 4.0], [0.0, 0.0], 5.0),
            [R::Radius]
        );
        assert_eq!(
            circle_roles([-3.0, -4.0], [3.0, 4.0], [0.0, 0.0], 5.0),
            [R::Diameter, R::Chord]
        );
        assert_eq!(
            circle_roles([-5.0, 0.0], [3.0, 4.0], [0.0, 0.0], 5.0),
            [R::Chord]
        );
    }

    /// 2,000 random configurations on an integer grid, each moved by a random
    /// rotation, scale and shift (floating-point error included): constructed
    /// parallels, perpendiculars and collinear points, and the eight angles where
    /// two random lines (parallel or not) meet a transversal, keep their relation.
    #[test]
    fn relations_survive_moves_and_rounding() {
        let mut rng = crate::generate::rng::Rng::from_u64(7, 0x0072_656c);
        for _ in 0..2000 {
            let turn = rng.unit() * std::f64::consts::TAU;
            let k = 0.5 + rng.unit() * 20.0;
            let shift = [rng.unit() * 100.0 - 50.0, rng.unit() * 100.0 - 50.0];
            let (s, c) = turn.sin_cos();
            let mv = |p: P| {
                [
                    k * (c * p[0] - s * p[1]) + shift[0],
                    k * (s * p[0] + c * p[1]) + shift[1],
                ]
            };
            let int = |rng: &mut crate::generate::rng::Rng| rng.int(-9, 9) as f64;
            let (a, d) = (
                [int(&mut rng), int(&mut rng)],
                [int(&mut rng), int(&mut rng)],
            );
            if d == [0.0, 0.0] {
                continue;
            }
            let b = [a[0] + d[0], a[1] + d[1]];
            let off = [int(&mut rng), int(&mut rng)];
            if cross(d, off) == 0.0 {
                continue; // the "parallel" line would be the same line
            }
            let (c0, c1) = (
                [a[0] + off[0], a[1] + off[1]],
                [b[0] + off[0], b[1] + off[1]],
            );
            assert_eq!(line_line(mv(a), mv(b), mv(c0), mv(c1)), LineLine::Parallel);
            let q = [a[0] - d[1], a[1] + d[0]];
            assert_eq!(
                line_line(mv(a), mv(b), mv(a), mv(q)),
                LineLine::Perpendicular
            );
            assert!(collinear(
                mv(a),
                mv(b),
                mv([a[0] + 3.0 * d[0], a[1] + 3.0 * d[1]])
            ));
            // The transversal through X = a and Y; two lines through them.
            let y = [a[0] + off[0], a[1] + off[1]];
            let (l1, l2) = (
                [int(&mut rng), int(&mut rng)],
                [int(&mut rng), int(&mut rng)],
            );
            if cross(off, l1) == 0.0 || cross(off, l2) == 0.0 {
                continue;
            }
            // Angles at X and Y: along t towards the other (interior) or away,
            // and along its line to side +1 or -1 of the transversal.
            let side = |l: P, sign: f64| {
                if cross(off, l) * sign > 0.0 {
                    l
                } else {
                    [-l[0], -l[1]]
                }
            };
            let angle = |at_x: bool, inward: bool, sign: f64| {
                let (v, l, t) = if at_x {
                    (a, l1, off)
                } else {
                    (y, l2, [-off[0], -off[1]])
                };
                let t = if inward { t } else { [-t[0], -t[1]] };
                let l = side(l, sign);
                Angle {
                    vertex: mv(v),
                    arms: [
                        mv([v[0] + t[0], v[1] + t[1]]),
                        mv([v[0] + l[0], v[1] + l[1]]),
                    ],
                }
            };
            let (t0, t1) = (mv(a), mv(y));
            use AnglePositions as A;
            let pos = |x: Angle, z: Angle| angle_positions(&x, &z, t0, t1);
            for sign in [1.0, -1.0] {
                assert_eq!(
                    pos(angle(true, true, sign), angle(false, false, sign)),
                    A::Corresponding
                );
                assert_eq!(
                    pos(angle(true, true, sign), angle(false, true, -sign)),
                    A::AlternateInterior
                );
                assert_eq!(
                    pos(angle(true, true, sign), angle(false, true, sign)),
                    A::ConsecutiveInterior
                );
                assert_eq!(
                    pos(angle(true, false, sign), angle(false, false, -sign)),
                    A::AlternateExterior
                );
                assert_eq!(
                    pos(angle(true, false, sign), angle(false, false, sign)),
                    A::ConsecutiveExterior
                );
                assert_eq!(
                    pos(angle(true, true, sign), angle(true, false, -sign)),
                    A::Vertical
                );
            }
        }
    }
}
