//! The generator's own reading of a construction's answer from its coordinates
//! (through [`super::check`]): a draw whose coordinates do not give the answer
//! its construction claims is rejected, as is one whose relation is ambiguous
//! (a segment that is both a median and an altitude) or too close to another
//! answer to be drawn apart. `src/tests/relations_verify.rs` re-decides every
//! item with code of its own.

use super::check::{self, LineLine, PointFigure, SegmentRole};
use super::item::{Asked, FigureRef};
use super::sketch::{P, Sketch, angle_at};

/// The choice the coordinates give for `asked`, `None` when they give none or more
/// than one.
pub(super) fn decide(s: &Sketch, asked: &Asked) -> Option<&'static str> {
    let at = |n: &String| s.at(n);
    let figure = |f: &FigureRef| figure(s, f);
    Some(match asked {
        Asked::Points { points } => {
            if check::collinear(at(&points[0]), at(&points[1]), at(&points[2])) {
                "Collinear"
            } else {
                "Not collinear"
            }
        }
        Asked::PointLine { point, line } => {
            if check::collinear(at(&line[0]), at(&line[1]), at(point)) {
                "On the line"
            } else {
                "Not on the line"
            }
        }
        Asked::Lines { a, b } => match check::line_line(at(&a[0]), at(&a[1]), at(&b[0]), at(&b[1]))
        {
            LineLine::Coincident => return None,
            LineLine::Parallel => "Parallel",
            LineLine::Perpendicular => "Perpendicular",
            LineLine::Intersecting => "Intersecting but not perpendicular",
        },
        Asked::AngleMeasures { a, b } => {
            let m = |x: &[String; 3]| angle_at(at(&x[0]), at(&x[1]), at(&x[2]));
            match check::angle_measures(m(a), m(b)) {
                check::AngleMeasures::Complementary => "Complementary",
                check::AngleMeasures::Supplementary => "Supplementary",
                check::AngleMeasures::Neither => "Neither",
            }
        }
        Asked::AnglePositions { a, b } => angle_positions(s, a, b)?,
        Asked::QuadrilateralAngles { quad, a, b } => {
            let i = quad.iter().position(|q| q == a)?;
            let j = quad.iter().position(|q| q == b)?;
            match check::quadrilateral_angles(i, j) {
                check::QuadrilateralAngles::Adjacent => "Adjacent angles",
                check::QuadrilateralAngles::Opposite => "Opposite angles",
                check::QuadrilateralAngles::Same => return None,
            }
        }
        Asked::PointFigure { point, figure: f } => match check::point_figure(at(point), &figure(f))
        {
            PointFigure::Inside => "Inside",
            PointFigure::Outside => "Outside",
            PointFigure::OnBoundary => "On the boundary",
        },
        Asked::LineCircle { line, circle } => {
            let check::Figure::Circle { center, radius } = figure(circle) else {
                return None;
            };
            match check::line_circle(at(&line[0]), at(&line[1]), center, radius) {
                check::LineCircle::Intersecting => "Intersecting",
                check::LineCircle::Tangent => "Tangent",
                check::LineCircle::Disjoint => "Disjoint",
            }
        }
        Asked::Segment { segment, figure: f } => segment_role(s, segment, f)?,
    })
}

/// Whether every stated condition holds on the sketch's coordinates: equations
/// within [`check::TOL`], strict inequalities (a point between two others, on one
/// side of a line) by a visible margin. A draw that breaks one (a construction
/// that moved a point it had stated a condition on) is rejected.
pub(super) fn conditions_hold(s: &Sketch) -> bool {
    use super::item::Condition as C;
    let at = |n: &String| s.at(n);
    let size = s
        .points
        .iter()
        .flat_map(|p| s.points.iter().map(move |q| super::sketch::dist(*p, *q)))
        .fold(0.0, f64::max)
        .max(1.0);
    let margin = 1e-3 * size;
    let near = |x: f64, y: f64, scale: f64| (x - y).abs() <= check::TOL * scale.max(1.0);
    let side = |p: P, a: P, b: P| {
        let (u, w) = ([b[0] - a[0], b[1] - a[1]], [p[0] - a[0], p[1] - a[1]]);
        (u[0] * w[1] - u[1] * w[0]) / u[0].hypot(u[1]).max(f64::MIN_POSITIVE)
    };
    let angle = |x: &[String; 3]| angle_at(at(&x[0]), at(&x[1]), at(&x[2]));
    let len = |l: &[String; 2]| super::sketch::dist(at(&l[0]), at(&l[1]));
    s.conditions.iter().all(|c| match c {
        C::Parallel { a, b } => {
            check::line_line(at(&a[0]), at(&a[1]), at(&b[0]), at(&b[1])) == LineLine::Parallel
        }
        C::Perpendicular { a, b } => {
            check::line_line(at(&a[0]), at(&a[1]), at(&b[0]), at(&b[1])) == LineLine::Perpendicular
        }
        C::OnLine { point, line } => check::collinear(at(&line[0]), at(&line[1]), at(point)),
        C::Between { point, ends } => {
            let (a, b, p) = (at(&ends[0]), at(&ends[1]), at(point));
            check::collinear(a, b, p)
                && super::sketch::dist(a, p) > margin
                && super::sketch::dist(b, p) > margin
                && super::sketch::dist(a, p) < super::sketch::dist(a, b)
                && super::sketch::dist(b, p) < super::sketch::dist(a, b)
        }
        C::Midpoint { point, ends } => {
            let m = super::sketch::mid(at(&ends[0]), at(&ends[1]));
            super::sketch::dist(m, at(point)) <= check::TOL * size
        }
        C::SameSide { points, line } | C::OppositeSides { points, line } => {
            let (a, b) = (at(&line[0]), at(&line[1]));
            let (x, y) = (side(at(&points[0]), a, b), side(at(&points[1]), a, b));
            let apart = x.abs() > margin && y.abs() > margin;
            apart && ((x > 0.0) == (y > 0.0)) == matches!(c, C::SameSide { .. })
        }
        C::AngleValue { angle: x, degrees } => near(angle(x), *degrees, 180.0),
        C::EqualAngles { a, b } => near(angle(a), angle(b), 180.0),
        C::Length { segment, value } => near(len(segment), *value, *value),
        C::EqualLengths { a, b } => near(len(a), len(b), len(a)),
        C::OnCircle {
            point,
            center,
            radius,
        } => near(super::sketch::dist(at(point), at(center)), *radius, *radius),
        C::Tangent {
            line,
            center,
            radius,
        } => {
            check::line_circle(at(&line[0]), at(&line[1]), at(center), *radius)
                == check::LineCircle::Tangent
        }
    })
}

/// The choice for two angles' positions.
fn angle_positions(s: &Sketch, a: &[String; 3], b: &[String; 3]) -> Option<&'static str> {
    let at = |n: &String| s.at(n);
    let angle = |x: &[String; 3]| check::Angle {
        vertex: at(&x[1]),
        arms: [at(&x[0]), at(&x[2])],
    };
    let (x, y) = (angle(a), angle(b));
    // The transversal joins the two vertices; at one vertex, any line does.
    let (t0, t1) = if a[1] == b[1] {
        (x.vertex, x.arms[0])
    } else {
        (x.vertex, y.vertex)
    };
    use check::AnglePositions as A;
    Some(match check::angle_positions(&x, &y, t0, t1) {
        A::Corresponding => "Corresponding angles",
        A::AlternateInterior => "Alternate interior angles",
        A::ConsecutiveInterior => "Consecutive interior angles",
        A::AlternateExterior => "Alternate exterior angles",
        A::ConsecutiveExterior => "Consecutive exterior angles",
        A::Vertical => "Vertical angles",
        A::Other => return None,
    })
}

/// The one role a segment has in its figure, `None` when it has none or several.
fn segment_role(s: &Sketch, segment: &[String; 2], f: &FigureRef) -> Option<&'static str> {
    let at = |n: &String| s.at(n);
    let (p, q): (P, P) = (at(&segment[0]), at(&segment[1]));
    let roles = match figure(s, f) {
        check::Figure::Polygon(v) if v.len() == 3 => {
            check::triangle_roles(p, q, [v[0], v[1], v[2]])
        }
        check::Figure::Circle { center, radius } => {
            let mut r = check::circle_roles(p, q, center, radius);
            // A diameter is a chord too: the answer is the more specific.
            if r.contains(&SegmentRole::Diameter) {
                r.retain(|x| *x != SegmentRole::Chord);
            }
            r
        }
        check::Figure::Polygon(_) => return None,
    };
    let [role] = roles[..] else {
        return None;
    };
    Some(match role {
        SegmentRole::Median => "Median",
        SegmentRole::Altitude => "Altitude",
        SegmentRole::AngleBisector => "Angle bisector",
        SegmentRole::Midline => "Midline",
        SegmentRole::Radius => "Radius",
        SegmentRole::Diameter => "Diameter",
        SegmentRole::Chord => super::pool::CHORD,
    })
}

/// A figure of the construction at its drawn coordinates.
fn figure(s: &Sketch, f: &FigureRef) -> check::Figure {
    match f {
        FigureRef::Polygon { vertices } => {
            check::Figure::Polygon(vertices.iter().map(|n| s.at(n)).collect())
        }
        FigureRef::Circle { center, radius } => check::Figure::Circle {
            center: s.at(center),
            radius: *radius,
        },
    }
}
