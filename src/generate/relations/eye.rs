//! How a figure looks, not only what it is: each choice of the asked family is
//! true in the coordinates or not ([`super::check`]), and besides that it may
//! *look* true — lines 2° from parallel, a foot 1 % from a side's midpoint. A
//! benchmark item's picture must not show a wrong choice by eye, and an
//! indeterminate item's must not show (or, in the visual mode, must only seem to
//! show) the relation its conditions leave open.
//!
//! Deviations are in degrees for angles and in percent for lengths and positions
//! (of the side, radius or figure they are measured on).

use super::check::{self, SegmentRole};
use super::item::{Asked, FigureRef};
use super::sketch::{P, Sketch, angle_at, dist, mid};

/// Least deviation (degrees or percent) of a choice a picture must not show.
pub(super) const CLEAR: f64 = 5.0;

/// Most deviation with which a visual indeterminate item's relation still looks true.
pub(super) const LOOKS: f64 = 1.0;

/// No point lies this close (a share of the diagram's size, its box's diagonal)
/// to a drawn segment or circle it is not exactly on.
pub(super) const NEAR_MISS: f64 = 0.03;

/// What counts as on a margin's edge (degrees or percent).
const EDGE: f64 = 1e-3;

/// How one choice appears.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Appearance {
    pub option: &'static str,
    /// True in the coordinates (within [`check::TOL`]).
    pub exact: bool,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// A relation that holds at one value (parallel, tangent, a median): how far
    /// the figure is from it.
    Special(f64),
    /// The relation that holds when none of the special ones does (intersecting
    /// but not perpendicular, neither, inside): the least deviation of those.
    Generic(f64),
    /// Both ends on the circle, not through its centre: how far the ends are from
    /// the circle, and the centre from the segment's line.
    Chord { on: f64, through: f64 },
    /// Settled by incidences and order alone (angle positions): no by-eye doubt.
    Categorical,
}

impl Appearance {
    /// Whether a reader would take the picture to show it, at `margin`.
    pub(super) fn looks(&self, margin: f64) -> bool {
        match self.kind {
            // A hair's breadth beyond the margin counts as inside it, so that a
            // figure on the edge is not told apart from it by rounding.
            Kind::Special(d) => d < margin + EDGE,
            Kind::Generic(least) => self.exact && least >= margin + EDGE,
            Kind::Chord { on, through } => on < margin + EDGE && through >= margin + EDGE,
            Kind::Categorical => self.exact,
        }
    }

    /// Neither true nor looking true at [`CLEAR`]: what every wrong choice is.
    pub(super) fn clearly_false(&self) -> bool {
        !self.exact && !self.looks(CLEAR)
    }

    /// Exactly true or clearly not: a picture leaves no doubt about it.
    pub(super) fn unambiguous(&self) -> bool {
        self.exact || !self.looks(CLEAR)
    }
}

fn special(option: &'static str, exact: bool, d: f64) -> Appearance {
    Appearance {
        option,
        exact,
        kind: Kind::Special(if exact { 0.0 } else { d }),
    }
}

fn generic(option: &'static str, exact: bool, least: f64) -> Appearance {
    Appearance {
        option,
        exact,
        kind: Kind::Generic(least),
    }
}

fn line_distance(p: P, a: P, b: P) -> f64 {
    super::solve::side(p, a, b).abs()
}

fn segment_distance(p: P, a: P, b: P) -> f64 {
    let t = super::solve::along(p, a, b).clamp(0.0, 1.0);
    dist(p, super::sketch::lerp(a, b, t))
}

/// The figure's size: its widest distance between two points.
pub(super) fn size(s: &Sketch) -> f64 {
    let mut hi: f64 = 0.0;
    for (i, p) in s.points.iter().enumerate() {
        for q in &s.points[i + 1..] {
            hi = hi.max(dist(*p, *q));
        }
    }
    for (_, r) in &s.circles {
        hi = hi.max(2.0 * r);
    }
    hi.max(f64::MIN_POSITIVE)
}

/// Every choice of the family `asked` belongs to, as the figure shows it. The
/// same choices and texts as [`super::decide::decide`].
pub(super) fn appearances(s: &Sketch, asked: &Asked) -> Vec<Appearance> {
    let at = |n: &String| s.at(n);
    let truth = super::decide::decide(s, asked);
    let is = |o: &str| truth == Some(o);
    match asked {
        Asked::Points { points } => {
            let (a, b, c) = (at(&points[0]), at(&points[1]), at(&points[2]));
            let widest = angle_at(b, a, c)
                .max(angle_at(a, b, c))
                .max(angle_at(a, c, b));
            let d = 180.0 - widest;
            vec![
                special("Collinear", is("Collinear"), d),
                generic("Not collinear", is("Not collinear"), d),
            ]
        }
        Asked::PointLine { point, line } => {
            let d = 100.0 * line_distance(at(point), at(&line[0]), at(&line[1])) / size(s);
            vec![
                special("On the line", is("On the line"), d),
                generic("Not on the line", is("Not on the line"), d),
            ]
        }
        Asked::Lines { a, b } => {
            let u = super::sketch::sub(at(&a[1]), at(&a[0]));
            let v = super::sketch::sub(at(&b[1]), at(&b[0]));
            let cos = ((u[0] * v[0] + u[1] * v[1]) / (u[0].hypot(u[1]) * v[0].hypot(v[1]))).abs();
            let theta = cos.clamp(0.0, 1.0).acos().to_degrees();
            vec![
                special("Parallel", is("Parallel"), theta),
                special("Perpendicular", is("Perpendicular"), 90.0 - theta),
                generic(
                    "Intersecting but not perpendicular",
                    is("Intersecting but not perpendicular"),
                    theta.min(90.0 - theta),
                ),
            ]
        }
        Asked::AngleMeasures { a, b } => {
            let m = |x: &[String; 3]| angle_at(at(&x[0]), at(&x[1]), at(&x[2]));
            let sum = m(a) + m(b);
            let (c, sp) = ((sum - 90.0).abs(), (sum - 180.0).abs());
            vec![
                special("Complementary", is("Complementary"), c),
                special("Supplementary", is("Supplementary"), sp),
                generic("Neither", is("Neither"), c.min(sp)),
            ]
        }
        Asked::AnglePositions { .. } | Asked::QuadrilateralAngles { .. } => {
            let family = match asked {
                Asked::AnglePositions { .. } => super::Family::AnglePositions,
                _ => super::Family::QuadrilateralAngles,
            };
            (family.choices().iter())
                .map(|o| Appearance {
                    option: o,
                    exact: is(o),
                    kind: Kind::Categorical,
                })
                .collect()
        }
        Asked::PointFigure { point, figure } => {
            let p = at(point);
            let (d, extent) = match figure {
                FigureRef::Circle { center, radius } => {
                    ((dist(p, at(center)) - radius).abs(), 2.0 * radius)
                }
                FigureRef::Polygon { vertices } => {
                    let v: Vec<P> = vertices.iter().map(at).collect();
                    let n = v.len();
                    let d = (0..n)
                        .map(|k| segment_distance(p, v[k], v[(k + 1) % n]))
                        .fold(f64::INFINITY, f64::min);
                    let extent = (0..n)
                        .flat_map(|i| (0..n).map(move |j| (i, j)))
                        .map(|(i, j)| dist(v[i], v[j]))
                        .fold(0.0, f64::max);
                    (d, extent)
                }
            };
            let d = 100.0 * d / extent.max(f64::MIN_POSITIVE);
            vec![
                generic("Inside", is("Inside"), d),
                generic("Outside", is("Outside"), d),
                special("On the boundary", is("On the boundary"), d),
            ]
        }
        Asked::LineCircle { line, circle } => {
            let FigureRef::Circle { center, radius } = circle else {
                return Vec::new();
            };
            let d = line_distance(at(center), at(&line[0]), at(&line[1]));
            let dev = 100.0 * (d - radius).abs() / radius;
            vec![
                generic("Intersecting", is("Intersecting"), dev),
                special("Tangent", is("Tangent"), dev),
                generic("Disjoint", is("Disjoint"), dev),
            ]
        }
        Asked::Segment { segment, figure } => {
            let (p, q) = (at(&segment[0]), at(&segment[1]));
            match figure {
                FigureRef::Polygon { vertices } if vertices.len() == 3 => {
                    let t = [at(&vertices[0]), at(&vertices[1]), at(&vertices[2])];
                    triangle(p, q, t)
                }
                FigureRef::Circle { center, radius } => {
                    let o = at(center);
                    let ends_at_center = segment.iter().any(|e| e == center);
                    circle(p, q, o, *radius, ends_at_center)
                }
                FigureRef::Polygon { .. } => Vec::new(),
            }
        }
    }
}

/// A segment's roles in a triangle, by eye: from a vertex to a point of the
/// opposite side, how far it is from the median (the foot from the side's middle,
/// % of the side), the altitude (its angle with the side, from 90°) and the angle
/// bisector (from the bisector's direction, degrees); joining two sides, how far
/// its ends are from their middles (% of each side).
fn triangle(p: P, q: P, t: [P; 3]) -> Vec<Appearance> {
    let roles = check::triangle_roles(p, q, t);
    let has = |r: SegmentRole| roles.contains(&r);
    let scale = dist(t[0], t[1]).max(dist(t[1], t[2])).max(dist(t[0], t[2]));
    let (mut median, mut altitude, mut bisector) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for k in 0..3 {
        let (v, a, b) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        for (from, f) in [(p, q), (q, p)] {
            if dist(from, v) > check::TOL * scale {
                continue;
            }
            // The other end on the opposite side's segment.
            if line_distance(f, a, b) > check::TOL * scale {
                continue;
            }
            let s = super::solve::along(f, a, b);
            if !(-check::TOL..=1.0 + check::TOL).contains(&s) {
                continue;
            }
            median = median.min(100.0 * dist(f, mid(a, b)) / dist(a, b));
            altitude = altitude.min((angle_at(v, f, b) - 90.0).abs());
            bisector = bisector.min((angle_at(a, v, f) - angle_at(f, v, b)).abs() / 2.0);
        }
    }
    let mids = [0, 1, 2].map(|k| (mid(t[k], t[(k + 1) % 3]), dist(t[k], t[(k + 1) % 3])));
    let mut midline = f64::INFINITY;
    for (i, (mi, li)) in mids.iter().enumerate() {
        for (j, (mj, lj)) in mids.iter().enumerate() {
            if i != j {
                let d = (dist(p, *mi) / li).max(dist(q, *mj) / lj);
                midline = midline.min(100.0 * d);
            }
        }
    }
    vec![
        special("Median", has(SegmentRole::Median), median),
        special("Altitude", has(SegmentRole::Altitude), altitude),
        special("Angle bisector", has(SegmentRole::AngleBisector), bisector),
        special("Midline", has(SegmentRole::Midline), midline),
    ]
}

/// A segment's role in a circle, by eye: a radius ends at the centre and on the
/// circle; a diameter has both ends on it and passes the centre; a chord that is
/// not a diameter has both ends on it and misses the centre. In % of the radius.
fn circle(p: P, q: P, o: P, r: f64, ends_at_center: bool) -> Vec<Appearance> {
    let roles = check::circle_roles(p, q, o, r);
    let has = |x: SegmentRole| roles.contains(&x);
    let off = |x: P| 100.0 * (dist(x, o) - r).abs() / r;
    let radius = if ends_at_center {
        off(p).min(off(q))
    } else {
        f64::INFINITY
    };
    let on = off(p).max(off(q));
    let through = 100.0 * line_distance(o, p, q) / r;
    let (diameter, chord) = (has(SegmentRole::Diameter), has(SegmentRole::Chord));
    vec![
        special("Radius", has(SegmentRole::Radius), radius),
        special("Diameter", diameter, on.max(through)),
        Appearance {
            option: super::pool::CHORD,
            exact: chord && !diameter,
            kind: Kind::Chord { on, through },
        },
    ]
}

/// The diagram's size: the diagonal of the box around its points and circles.
pub(super) fn diagonal(s: &Sketch) -> f64 {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    let mut take = |p: P, r: f64| {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k] - r);
            hi[k] = hi[k].max(p[k] + r);
        }
    };
    for p in &s.points {
        take(*p, 0.0);
    }
    for (c, r) in &s.circles {
        take(s.points[*c], *r);
    }
    (hi[0] - lo[0]).hypot(hi[1] - lo[1]).max(f64::MIN_POSITIVE)
}

/// The first point lying near, but not on, a drawn segment or circle: within
/// [`NEAR_MISS`] of the diagram's size (a reader would take it to lie on it).
pub(super) fn near_miss(s: &Sketch) -> Option<String> {
    let size = diagonal(s);
    let tol = check::TOL * size;
    let mut segments: Vec<[usize; 2]> = s.segments.clone();
    for (_, v) in &s.polygons {
        for k in 0..v.len() {
            segments.push([v[k], v[(k + 1) % v.len()]]);
        }
    }
    for (i, p) in s.points.iter().enumerate() {
        for [a, b] in &segments {
            if i == *a || i == *b {
                continue;
            }
            let d = segment_distance(*p, s.points[*a], s.points[*b]);
            if d > tol && d < NEAR_MISS * size {
                return Some(format!(
                    "{} is {:.1} % of the figure from segment {}{}",
                    s.names[i],
                    100.0 * d / size,
                    s.names[*a],
                    s.names[*b]
                ));
            }
        }
        for (c, r) in &s.circles {
            if i == *c {
                continue;
            }
            let d = (dist(*p, s.points[*c]) - r).abs();
            if d > check::TOL * r.max(1.0) && d < NEAR_MISS * size {
                return Some(format!(
                    "{} is {:.1} % of the figure from circle {}",
                    s.names[i],
                    100.0 * d / size,
                    s.names[*c]
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::relations::sketch::{ask_lines, line};

    fn sketch(points: &[(&str, P)]) -> Sketch {
        let mut s = Sketch::default();
        for (n, p) in points {
            s.pt(n, *p);
        }
        s
    }

    fn find<'a>(v: &'a [Appearance], o: &str) -> &'a Appearance {
        v.iter().find(|a| a.option == o).unwrap()
    }

    /// Lines 2° apart are not parallel, but look it; at 20° they look neither
    /// parallel nor perpendicular, and "intersecting" looks true.
    #[test]
    fn nearly_parallel_lines_look_parallel() {
        let turn = |deg: f64| {
            let (s, c) = deg.to_radians().sin_cos();
            [4.0 * c, 2.0 + 4.0 * s]
        };
        for (deg, looks_parallel) in [(2.0, true), (20.0, false)] {
            let s = sketch(&[
                ("A", [0.0, 0.0]),
                ("B", [4.0, 0.0]),
                ("C", [0.0, 2.0]),
                ("D", turn(deg)),
            ]);
            let v = appearances(&s, &ask_lines("AB", "CD"));
            let par = find(&v, "Parallel");
            assert!(!par.exact);
            assert_eq!(par.looks(CLEAR), looks_parallel, "{deg}°");
            let meet = find(&v, "Intersecting but not perpendicular");
            assert!(meet.exact);
            assert_eq!(meet.looks(CLEAR), !looks_parallel);
            assert!(find(&v, "Perpendicular").clearly_false());
        }
    }

    /// In a nearly isosceles triangle the median from the apex also looks like the
    /// altitude and the bisector; in a scalene one it looks like neither.
    #[test]
    fn a_median_of_a_nearly_isosceles_triangle_looks_like_an_altitude() {
        for (apex, looks) in [([2.05, 3.0], true), ([0.8, 3.0], false)] {
            let s = sketch(&[
                ("A", apex),
                ("B", [0.0, 0.0]),
                ("C", [4.0, 0.0]),
                ("M", [2.0, 0.0]),
            ]);
            let asked = Asked::Segment {
                segment: line("AM"),
                figure: FigureRef::Polygon {
                    vertices: ["A", "B", "C"].map(String::from).to_vec(),
                },
            };
            let v = appearances(&s, &asked);
            assert!(find(&v, "Median").exact);
            assert_eq!(find(&v, "Altitude").looks(CLEAR), looks);
            assert_eq!(find(&v, "Angle bisector").looks(CLEAR), looks);
            assert!(find(&v, "Midline").clearly_false());
        }
    }

    /// A diameter is no "chord (not a diameter)", and a chord 1 % of the radius
    /// from the centre looks like a diameter.
    #[test]
    fn chords_and_diameters() {
        let r: f64 = 5.0;
        for (off, diameter_exact, diameter_looks) in [
            (0.0f64, true, true),
            (0.05, false, true),
            (2.0, false, false),
        ] {
            let w = (r * r - off * off).sqrt();
            let s = sketch(&[("O", [0.0, 0.0]), ("A", [-w, off]), ("B", [w, off])]);
            let asked = Asked::Segment {
                segment: line("AB"),
                figure: FigureRef::Circle {
                    center: "O".into(),
                    radius: r,
                },
            };
            let v = appearances(&s, &asked);
            let d = find(&v, "Diameter");
            assert_eq!((d.exact, d.looks(CLEAR)), (diameter_exact, diameter_looks));
            let c = find(&v, super::super::pool::CHORD);
            assert_eq!(c.exact, !diameter_exact);
            assert_eq!(c.looks(CLEAR), !diameter_looks);
            assert!(find(&v, "Radius").clearly_false());
        }
    }

    /// A point 1 % of the figure from a drawn segment is a near miss; on it or 10 %
    /// away is not.
    #[test]
    fn near_misses() {
        for (y, miss) in [(0.0, false), (0.1, true), (1.0, false)] {
            let mut s = sketch(&[("A", [0.0, 0.0]), ("B", [10.0, 0.0]), ("P", [4.0, y])]);
            s.seg("AB");
            assert_eq!(near_miss(&s).is_some(), miss, "y = {y}");
        }
    }
}
