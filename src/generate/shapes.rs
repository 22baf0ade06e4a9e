//! The shape catalogue: kinds, their elements (roles), parameters and geometry.
//!
//! Each kind is described by a few parameters (a rectangle by its two sides, a sector by
//! radius and angle, …). `fit` finds parameters that agree with a set of known element
//! values, drawing nice values for whatever the knowns leave free; `local_geometry` turns
//! parameters into vertices and an outline, counter-clockwise in y-up units.

use super::expr::PI;
use super::rng::Rng;
use serde::{Deserialize, Serialize};

/// Every shape of the catalogue, plus the three angle connectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShapeKind {
    Triangle,
    RightTriangle,
    EquilateralTriangle,
    Square,
    Rectangle,
    Parallelogram,
    Trapezoid,
    Circle,
    Semicircle,
    Sector,
    RectanglePlusSemicircle,
    RectangleMinusSemicircle,
    RectanglePlusEquilateral,
    RectangleMinusEquilateral,
    SquareMinusCircle,
    /// Two angles on a straight line (sum 180°).
    SupplementaryAngles,
    /// Two angles that make a right angle (sum 90°).
    ComplementaryAngles,
    /// Opposite angles at a crossing (equal).
    VerticalAngles,
}

impl ShapeKind {
    /// The drawable shapes, in catalogue order.
    pub const SHAPES: [ShapeKind; 15] = [
        ShapeKind::Triangle,
        ShapeKind::RightTriangle,
        ShapeKind::EquilateralTriangle,
        ShapeKind::Square,
        ShapeKind::Rectangle,
        ShapeKind::Parallelogram,
        ShapeKind::Trapezoid,
        ShapeKind::Circle,
        ShapeKind::Semicircle,
        ShapeKind::Sector,
        ShapeKind::RectanglePlusSemicircle,
        ShapeKind::RectangleMinusSemicircle,
        ShapeKind::RectanglePlusEquilateral,
        ShapeKind::RectangleMinusEquilateral,
        ShapeKind::SquareMinusCircle,
    ];

    /// The angle connectors.
    pub const CONNECTORS: [ShapeKind; 3] = [
        ShapeKind::SupplementaryAngles,
        ShapeKind::ComplementaryAngles,
        ShapeKind::VerticalAngles,
    ];

    pub fn is_connector(self) -> bool {
        Self::CONNECTORS.contains(&self)
    }

    /// Standard shapes (GeomVerse figure 2, top row) as opposed to composites.
    pub fn is_standard(self) -> bool {
        !matches!(
            self,
            ShapeKind::RectanglePlusSemicircle
                | ShapeKind::RectangleMinusSemicircle
                | ShapeKind::RectanglePlusEquilateral
                | ShapeKind::RectangleMinusEquilateral
                | ShapeKind::SquareMinusCircle
        )
    }

    /// Composite shapes are called "shape" in texts and introduced by a sentence.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            ShapeKind::Triangle => "triangle",
            ShapeKind::EquilateralTriangle => "equilateral triangle",
            ShapeKind::RightTriangle => "right triangle",
            ShapeKind::Square => "square",
            ShapeKind::Rectangle => "rectangle",
            ShapeKind::Parallelogram => "parallelogram",
            ShapeKind::Trapezoid => "trapezoid",
            ShapeKind::Circle => "circle",
            ShapeKind::Semicircle => "semi-circle",
            ShapeKind::Sector => "sector",
            _ => "shape",
        }
    }

    /// What the shape is, for "the ABCD shape is …" sentences.
    pub(crate) fn description(self) -> &'static str {
        match self {
            ShapeKind::Triangle => "a triangle",
            ShapeKind::RightTriangle => "a right triangle",
            ShapeKind::EquilateralTriangle => "an equilateral triangle",
            ShapeKind::Square => "a square",
            ShapeKind::Rectangle => "a rectangle",
            ShapeKind::Parallelogram => "a parallelogram",
            ShapeKind::Trapezoid => "a trapezoid",
            ShapeKind::Circle => "a circle",
            ShapeKind::Semicircle => "a semi-circle",
            ShapeKind::Sector => "a sector",
            ShapeKind::RectanglePlusSemicircle => "a combination of a rectangle and a semi-circle",
            ShapeKind::RectangleMinusSemicircle => {
                "a rectangle where a semi-circle has been removed from one side of it"
            }
            ShapeKind::RectanglePlusEquilateral => {
                "a combination of a rectangle and an equilateral triangle"
            }
            ShapeKind::RectangleMinusEquilateral => {
                "a rectangle where an equilateral triangle has been removed from one side of it"
            }
            ShapeKind::SquareMinusCircle => "a square where a circle has been removed from it",
            ShapeKind::SupplementaryAngles => "supplementary",
            ShapeKind::ComplementaryAngles => "complementary",
            ShapeKind::VerticalAngles => "vertical",
        }
    }

    /// Named in both annotation styles by colour ("the blue semi-circle"): two points do
    /// not name a round shape.
    pub(crate) fn named_by_colour(self) -> bool {
        matches!(self, ShapeKind::Circle | ShapeKind::Semicircle)
    }
}

/// An element of a shape, relative to its kind (see `edges` and `angles` for what
/// `Edge(i)` and `Angle(i)` are in each kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "role", content = "index")]
pub enum Role {
    /// A straight outline edge (one of a group of equal edges): connectable.
    Edge(u8),
    /// An angle at a vertex (one of a group of equal angles): connectable.
    Angle(u8),
    /// A drawn diagonal (square, rectangle).
    Diagonal,
    /// A drawn diameter inside a circle.
    Diameter,
    /// The height of a trapezoid (stated, not drawn).
    Height,
    Area,
    Perimeter,
    /// The arc length of a semi-circle or sector.
    ArcLength,
}

/// What kind of quantity a role is; question types select on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quantity {
    /// A length that can be shared with another shape.
    Side,
    /// A length drawn inside the shape or only stated (diagonal, diameter, height).
    Length,
    Angle,
    Area,
    /// Perimeter, circumference or arc length.
    Perimeter,
}

impl Role {
    pub(crate) fn quantity(self) -> Quantity {
        match self {
            Role::Edge(_) => Quantity::Side,
            Role::Angle(_) => Quantity::Angle,
            Role::Diagonal | Role::Diameter | Role::Height => Quantity::Length,
            Role::Area => Quantity::Area,
            Role::Perimeter | Role::ArcLength => Quantity::Perimeter,
        }
    }

    /// Sides and angles can be shared with (derived from) another shape.
    pub(crate) fn connectable(self) -> bool {
        matches!(self, Role::Edge(_) | Role::Angle(_))
    }
}

/// Outline piece in local coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Seg {
    Line([f64; 2]),
    /// Circular arc to a point, around `center`, counter-clockwise when `ccw`.
    Arc {
        to: [f64; 2],
        center: [f64; 2],
        ccw: bool,
    },
}

/// A closed outline: start point and pieces back to it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LocalContour {
    pub start: [f64; 2],
    pub segs: Vec<Seg>,
}

/// A shape drawn at the origin.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LocalGeometry {
    pub vertices: Vec<[f64; 2]>,
    /// First contour is the outer boundary (CCW); further ones are holes.
    pub contours: Vec<LocalContour>,
    /// Vertex triples (a, corner, b) drawn with a right-angle mark.
    pub right_angles: Vec<[usize; 3]>,
}

/// Edge groups per kind: `Edge(i)` is any edge of group `i` (vertex index pairs, in
/// outline order so the shape is on the left).
pub(crate) fn edges(kind: ShapeKind) -> &'static [&'static [(usize, usize)]] {
    use ShapeKind::*;
    match kind {
        Square | SquareMinusCircle => &[&[(0, 1), (1, 2), (2, 3), (3, 0)]],
        Rectangle => &[&[(0, 1), (2, 3)], &[(1, 2), (3, 0)]],
        RightTriangle | Triangle => &[&[(0, 1)], &[(1, 2)], &[(2, 0)]],
        EquilateralTriangle => &[&[(0, 1), (1, 2), (2, 0)]],
        Parallelogram => &[&[(0, 1), (2, 3)], &[(3, 0), (1, 2)]],
        Trapezoid => &[&[(0, 1)], &[(2, 3)], &[(1, 2)], &[(3, 0)]],
        Circle => &[],
        Semicircle => &[&[(0, 1)]],
        Sector => &[&[(0, 1), (2, 0)]],
        RectanglePlusSemicircle
        | RectangleMinusSemicircle
        | RectanglePlusEquilateral
        | RectangleMinusEquilateral => &[&[(0, 1), (2, 3)], &[(1, 2)]],
        SupplementaryAngles | ComplementaryAngles | VerticalAngles => &[],
    }
}

/// Angle groups per kind: `Angle(i)` is any angle (a, vertex, b) of group `i`.
pub(crate) fn angles(kind: ShapeKind) -> &'static [&'static [(usize, usize, usize)]] {
    use ShapeKind::*;
    match kind {
        RightTriangle => &[&[(2, 0, 1)], &[(1, 2, 0)]],
        Triangle => &[&[(2, 0, 1)], &[(0, 1, 2)], &[(1, 2, 0)]],
        Parallelogram => &[&[(3, 0, 1), (1, 2, 3)], &[(0, 1, 2), (2, 3, 0)]],
        Sector => &[&[(1, 0, 2)]],
        _ => &[],
    }
}

/// The diagonal or diameter drawn inside, as a vertex pair.
pub(crate) fn inner_segment(kind: ShapeKind) -> Option<(usize, usize)> {
    match kind {
        ShapeKind::Square | ShapeKind::Rectangle => Some((0, 2)),
        ShapeKind::Circle => Some((0, 1)),
        _ => None,
    }
}

/// Number of parameters of each kind.
fn param_count(kind: ShapeKind) -> usize {
    use ShapeKind::*;
    match kind {
        Square | EquilateralTriangle | Circle | Semicircle | SquareMinusCircle => 1,
        Rectangle | RightTriangle | Sector => 2,
        RectanglePlusSemicircle
        | RectangleMinusSemicircle
        | RectanglePlusEquilateral
        | RectangleMinusEquilateral => 2,
        Triangle | Parallelogram => 3,
        Trapezoid => 4,
        SupplementaryAngles | ComplementaryAngles | VerticalAngles => 0,
    }
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

fn law_of_cosines(b: f64, c: f64, a_deg: f64) -> f64 {
    (b * b + c * c - 2.0 * b * c * a_deg.to_radians().cos())
        .max(0.0)
        .sqrt()
}

/// Values of every role of a kind from its parameters (π = 3.14, as in the texts).
///
/// Parameters: square/equilateral/circle/semicircle/square−circle `[s]`, rectangle
/// `[w, h]`, right triangle `[AB, BC]` (legs; right angle at B), triangle `[AB, CA, A°]`,
/// parallelogram `[AB, AD, A°]`, trapezoid `[bottom, top, height, offset]`, sector
/// `[r, θ°]`, rectangle composites `[L, d]` (d is the side parallel to the added or
/// removed part).
pub fn role_value(kind: ShapeKind, p: &[f64], role: Role) -> Option<f64> {
    use ShapeKind::*;
    let v = match (kind, role) {
        (Square, Role::Edge(0)) => p[0],
        (Square, Role::Diagonal) => (2.0 * p[0] * p[0]).sqrt(),
        (Square, Role::Area) => p[0] * p[0],
        (Square, Role::Perimeter) => 4.0 * p[0],
        (Rectangle, Role::Edge(0)) => p[0],
        (Rectangle, Role::Edge(1)) => p[1],
        (Rectangle, Role::Diagonal) => (p[0] * p[0] + p[1] * p[1]).sqrt(),
        (Rectangle, Role::Area) => p[0] * p[1],
        (Rectangle, Role::Perimeter) => 2.0 * (p[0] + p[1]),
        (RightTriangle, Role::Edge(0)) => p[0],
        (RightTriangle, Role::Edge(1)) => p[1],
        (RightTriangle, Role::Edge(2)) => (p[0] * p[0] + p[1] * p[1]).sqrt(),
        (RightTriangle, Role::Angle(0)) => p[1].atan2(p[0]).to_degrees(),
        (RightTriangle, Role::Angle(1)) => p[0].atan2(p[1]).to_degrees(),
        (RightTriangle, Role::Area) => p[0] * p[1] / 2.0,
        (RightTriangle, Role::Perimeter) => p[0] + p[1] + (p[0] * p[0] + p[1] * p[1]).sqrt(),
        (Triangle, _) => return triangle_value(p, role),
        (EquilateralTriangle, Role::Edge(0)) => p[0],
        (EquilateralTriangle, Role::Area) => SQRT3 / 4.0 * p[0] * p[0],
        (EquilateralTriangle, Role::Perimeter) => 3.0 * p[0],
        (Parallelogram, Role::Edge(0)) => p[0],
        (Parallelogram, Role::Edge(1)) => p[1],
        (Parallelogram, Role::Angle(0)) => p[2],
        (Parallelogram, Role::Angle(1)) => 180.0 - p[2],
        (Parallelogram, Role::Area) => p[0] * p[1] * p[2].to_radians().sin(),
        (Parallelogram, Role::Perimeter) => 2.0 * (p[0] + p[1]),
        (Trapezoid, Role::Edge(0)) => p[0],
        (Trapezoid, Role::Edge(1)) => p[1],
        (Trapezoid, Role::Edge(2)) => (p[0] - p[3] - p[1]).hypot(p[2]),
        (Trapezoid, Role::Edge(3)) => p[3].hypot(p[2]),
        (Trapezoid, Role::Height) => p[2],
        (Trapezoid, Role::Area) => (p[0] + p[1]) * p[2] / 2.0,
        (Trapezoid, Role::Perimeter) => {
            p[0] + p[1] + (p[0] - p[3] - p[1]).hypot(p[2]) + p[3].hypot(p[2])
        }
        (Circle, Role::Diameter) => p[0],
        (Circle, Role::Area) => PI * p[0] * p[0] / 4.0,
        (Circle, Role::Perimeter) => PI * p[0],
        (Semicircle, Role::Edge(0)) => p[0],
        (Semicircle, Role::Area) => PI * p[0] * p[0] / 8.0,
        (Semicircle, Role::Perimeter) => p[0] + PI * p[0] / 2.0,
        (Semicircle, Role::ArcLength) => PI * p[0] / 2.0,
        (Sector, Role::Edge(0)) => p[0],
        (Sector, Role::Angle(0)) => p[1],
        (Sector, Role::Area) => p[1] / 360.0 * PI * p[0] * p[0],
        (Sector, Role::ArcLength) => p[1] / 360.0 * 2.0 * PI * p[0],
        (Sector, Role::Perimeter) => 2.0 * p[0] + p[1] / 360.0 * 2.0 * PI * p[0],
        (
            RectanglePlusSemicircle
            | RectangleMinusSemicircle
            | RectanglePlusEquilateral
            | RectangleMinusEquilateral,
            Role::Edge(0),
        ) => p[0],
        (
            RectanglePlusSemicircle
            | RectangleMinusSemicircle
            | RectanglePlusEquilateral
            | RectangleMinusEquilateral,
            Role::Edge(1),
        ) => p[1],
        (RectanglePlusSemicircle, Role::Area) => p[0] * p[1] + PI * p[1] * p[1] / 8.0,
        (RectangleMinusSemicircle, Role::Area) => p[0] * p[1] - PI * p[1] * p[1] / 8.0,
        (RectanglePlusSemicircle | RectangleMinusSemicircle, Role::Perimeter) => {
            2.0 * p[0] + p[1] + PI * p[1] / 2.0
        }
        (RectanglePlusEquilateral, Role::Area) => p[0] * p[1] + SQRT3 / 4.0 * p[1] * p[1],
        (RectangleMinusEquilateral, Role::Area) => p[0] * p[1] - SQRT3 / 4.0 * p[1] * p[1],
        (RectanglePlusEquilateral | RectangleMinusEquilateral, Role::Perimeter) => {
            2.0 * p[0] + 3.0 * p[1]
        }
        (SquareMinusCircle, Role::Edge(0)) => p[0],
        (SquareMinusCircle, Role::Area) => p[0] * p[0] - PI / 4.0 * p[0] * p[0],
        (SquareMinusCircle, Role::Perimeter) => 4.0 * p[0] + PI * p[0],
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn triangle_value(p: &[f64], role: Role) -> Option<f64> {
    let (c, b, a_deg) = (p[0], p[1], p[2]);
    let a = law_of_cosines(b, c, a_deg);
    let angle_b = ((a * a + c * c - b * b) / (2.0 * a * c))
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees();
    Some(match role {
        Role::Edge(0) => c,
        Role::Edge(1) => a,
        Role::Edge(2) => b,
        Role::Angle(0) => a_deg,
        Role::Angle(1) => angle_b,
        Role::Angle(2) => 180.0 - a_deg - angle_b,
        Role::Area => 0.5 * b * c * a_deg.to_radians().sin(),
        Role::Perimeter => a + b + c,
        _ => return None,
    })
}

/// Known element values while fitting.
pub(crate) type Known = [(Role, f64)];

fn known(k: &Known, r: Role) -> Option<f64> {
    k.iter().find(|(role, _)| *role == r).map(|(_, v)| *v)
}

/// Finds parameters agreeing (within 1 %) with every known value, drawing nice values for
/// what the knowns leave free. `None` when the knowns are contradictory or impossible.
pub fn fit(kind: ShapeKind, k: &Known, rng: &mut Rng) -> Option<Vec<f64>> {
    let count = param_count(kind);
    let mut p: Vec<Option<f64>> = vec![None; count];
    // Derive what the knowns determine, draw one free parameter, repeat.
    for _ in 0..=count {
        derive(kind, k, &mut p);
        match next_free(kind, k, &p) {
            Some(i) => p[i] = Some(draw(kind, i, &p, k, rng)),
            None => break,
        }
    }
    let p: Vec<f64> = p.into_iter().collect::<Option<_>>()?;
    if !p.iter().all(|v| v.is_finite() && *v > 0.0) || !valid(kind, &p) {
        return None;
    }
    let agrees = k.iter().all(|&(role, want)| {
        role_value(kind, &p, role)
            .is_some_and(|got| (got - want).abs() <= 0.01 * want.abs().max(1.0))
    });
    agrees.then_some(p)
}

/// Fills parameters that the knowns (and parameters found so far) determine.
///
/// Kept whole: one match arm per shape kind, each a few lines of that kind's
/// formulas; split up, a kind's knowledge would be spread over several functions.
fn derive(kind: ShapeKind, k: &Known, p: &mut [Option<f64>]) {
    use ShapeKind::*;
    let kv = |r| known(k, r);
    let set = |p: &mut [Option<f64>], i: usize, v: Option<f64>| {
        if p[i].is_none() {
            if let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) {
                p[i] = Some(v);
            }
        }
    };
    let sin = |d: f64| d.to_radians().sin();
    let cos = |d: f64| d.to_radians().cos();
    let tan = |d: f64| d.to_radians().tan();
    for _ in 0..3 {
        match kind {
            Square => {
                let s = kv(Role::Edge(0))
                    .or(kv(Role::Diagonal).map(|d| d / 2f64.sqrt()))
                    .or(kv(Role::Area).map(f64::sqrt))
                    .or(kv(Role::Perimeter).map(|v| v / 4.0));
                set(p, 0, s);
            }
            EquilateralTriangle => {
                let s = kv(Role::Edge(0))
                    .or(kv(Role::Perimeter).map(|v| v / 3.0))
                    .or(kv(Role::Area).map(|a| (4.0 * a / SQRT3).sqrt()));
                set(p, 0, s);
            }
            SquareMinusCircle => {
                let s = kv(Role::Edge(0))
                    .or(kv(Role::Area).map(|a| (a / (1.0 - PI / 4.0)).sqrt()))
                    .or(kv(Role::Perimeter).map(|v| v / (4.0 + PI)));
                set(p, 0, s);
            }
            Circle => {
                let d = kv(Role::Diameter)
                    .or(kv(Role::Area).map(|a| (4.0 * a / PI).sqrt()))
                    .or(kv(Role::Perimeter).map(|c| c / PI));
                set(p, 0, d);
            }
            Semicircle => {
                let d = kv(Role::Edge(0))
                    .or(kv(Role::Area).map(|a| (8.0 * a / PI).sqrt()))
                    .or(kv(Role::Perimeter).map(|v| v / (1.0 + PI / 2.0)))
                    .or(kv(Role::ArcLength).map(|l| 2.0 * l / PI));
                set(p, 0, d);
            }
            Rectangle => {
                set(p, 0, kv(Role::Edge(0)));
                set(p, 1, kv(Role::Edge(1)));
                for (i, j) in [(0, 1), (1, 0)] {
                    if let Some(o) = p[j] {
                        let v = kv(Role::Area)
                            .map(|a| a / o)
                            .or(kv(Role::Perimeter).map(|v| v / 2.0 - o))
                            .or(kv(Role::Diagonal).map(|d| (d * d - o * o).sqrt()));
                        set(p, i, v);
                    }
                }
            }
            RightTriangle => {
                set(p, 0, kv(Role::Edge(0)));
                set(p, 1, kv(Role::Edge(1)));
                let angle_a = kv(Role::Angle(0)).or(kv(Role::Angle(1)).map(|c| 90.0 - c));
                let hyp = kv(Role::Edge(2));
                if let (Some(a), Some(c)) = (angle_a, hyp) {
                    set(p, 0, Some(c * cos(a)));
                    set(p, 1, Some(c * sin(a)));
                }
                if let Some(a) = angle_a {
                    if let Some(x) = p[0] {
                        set(p, 1, Some(x * tan(a)));
                    }
                    if let Some(y) = p[1] {
                        set(p, 0, Some(y / tan(a)));
                    }
                }
                for (i, j) in [(0, 1), (1, 0)] {
                    if let Some(o) = p[j] {
                        let v = hyp
                            .map(|c| (c * c - o * o).sqrt())
                            .or(kv(Role::Area).map(|s| 2.0 * s / o));
                        set(p, i, v);
                    }
                }
            }
            Triangle => derive_triangle(k, p),
            Parallelogram => {
                set(p, 0, kv(Role::Edge(0)));
                set(p, 1, kv(Role::Edge(1)));
                set(
                    p,
                    2,
                    kv(Role::Angle(0)).or(kv(Role::Angle(1)).map(|b| 180.0 - b)),
                );
                for (i, j) in [(0, 1), (1, 0)] {
                    if let Some(o) = p[j] {
                        set(p, i, kv(Role::Perimeter).map(|v| v / 2.0 - o));
                        if let (Some(t), Some(s)) = (p[2], kv(Role::Area)) {
                            set(p, i, Some(s / (o * sin(t))));
                        }
                    }
                }
                if let (Some(a), Some(b), Some(s)) = (p[0], p[1], kv(Role::Area)) {
                    let r = s / (a * b);
                    if r <= 1.0 {
                        set(p, 2, Some(r.asin().to_degrees()));
                    }
                }
            }
            Trapezoid => derive_trapezoid(k, p),
            Sector => {
                set(p, 0, kv(Role::Edge(0)));
                set(p, 1, kv(Role::Angle(0)));
                if let Some(t) = p[1] {
                    let f = t / 360.0 * PI;
                    set(p, 0, kv(Role::Area).map(|a| (a / f).sqrt()));
                    set(p, 0, kv(Role::ArcLength).map(|l| l / (2.0 * f)));
                }
                if let Some(r) = p[0] {
                    set(p, 1, kv(Role::Area).map(|a| a / (PI * r * r) * 360.0));
                    set(
                        p,
                        1,
                        kv(Role::ArcLength).map(|l| l / (2.0 * PI * r) * 360.0),
                    );
                    set(
                        p,
                        1,
                        kv(Role::Perimeter).map(|v| (v - 2.0 * r) / (2.0 * PI * r) * 360.0),
                    );
                }
            }
            RectanglePlusSemicircle
            | RectangleMinusSemicircle
            | RectanglePlusEquilateral
            | RectangleMinusEquilateral => {
                set(p, 0, kv(Role::Edge(0)));
                set(p, 1, kv(Role::Edge(1)));
                let sign = if matches!(kind, RectanglePlusSemicircle | RectanglePlusEquilateral) {
                    1.0
                } else {
                    -1.0
                };
                let semi = matches!(kind, RectanglePlusSemicircle | RectangleMinusSemicircle);
                // extra area per d², extra perimeter per d (besides 2L).
                let (ka, kp) = if semi {
                    (PI / 8.0, 1.0 + PI / 2.0)
                } else {
                    (SQRT3 / 4.0, 3.0)
                };
                if let Some(d) = p[1] {
                    set(p, 0, kv(Role::Area).map(|a| (a - sign * ka * d * d) / d));
                    set(p, 0, kv(Role::Perimeter).map(|v| (v - kp * d) / 2.0));
                }
                if let Some(l) = p[0] {
                    set(p, 1, kv(Role::Perimeter).map(|v| (v - 2.0 * l) / kp));
                }
            }
            SupplementaryAngles | ComplementaryAngles | VerticalAngles => {}
        }
    }
}

fn derive_triangle(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let sin = |d: f64| d.to_radians().sin();
    let put = |p: &mut [Option<f64>], i: usize, v: f64| {
        if p[i].is_none() && v.is_finite() && v > 0.0 {
            p[i] = Some(v);
        }
    };
    if let Some(v) = kv(Role::Edge(0)) {
        put(p, 0, v);
    }
    if let Some(v) = kv(Role::Edge(2)) {
        put(p, 1, v);
    }
    let (ka, kb, kc) = (kv(Role::Angle(0)), kv(Role::Angle(1)), kv(Role::Angle(2)));
    match (ka, kb, kc) {
        (Some(a), _, _) => put(p, 2, a),
        (None, Some(b), Some(c)) => put(p, 2, 180.0 - b - c),
        _ => {}
    }
    // Three sides: angle A by the law of cosines.
    if let (Some(c), Some(b), Some(a)) = (p[0], p[1], kv(Role::Edge(1))) {
        let cos_a = (b * b + c * c - a * a) / (2.0 * b * c);
        if (-1.0..=1.0).contains(&cos_a) {
            put(p, 2, cos_a.acos().to_degrees());
        }
    }
    // Two sides and the included angle from the area.
    if let (Some(c), Some(a), Some(s)) = (p[0], p[2], kv(Role::Area)) {
        put(p, 1, 2.0 * s / (c * sin(a)));
    }
    // Two angles and a side: law of sines.
    if let Some(a) = p[2] {
        let third = |x: f64| 180.0 - a - x;
        let angle_b = kb.or(kc.map(third));
        let angle_c = kc.or(kb.map(third));
        if let (Some(bb), Some(cc)) = (angle_b, angle_c) {
            if let Some(c) = p[0] {
                put(p, 1, c * sin(bb) / sin(cc));
            }
            if let Some(b) = p[1] {
                put(p, 0, b * sin(cc) / sin(bb));
            }
        }
    }
    // Perimeter with two sides known.
    if let Some(per) = kv(Role::Perimeter) {
        let a = kv(Role::Edge(1));
        if let (Some(c), Some(a)) = (p[0], a) {
            put(p, 1, per - c - a);
        }
        if let (Some(b), Some(a)) = (p[1], a) {
            put(p, 0, per - b - a);
        }
    }
}

fn derive_trapezoid(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let put = |p: &mut [Option<f64>], i: usize, v: f64| {
        if p[i].is_none() && v.is_finite() && v > 0.0 {
            p[i] = Some(v);
        }
    };
    if let Some(v) = kv(Role::Edge(0)) {
        put(p, 0, v);
    }
    if let Some(v) = kv(Role::Edge(1)) {
        put(p, 1, v);
    }
    if let Some(v) = kv(Role::Height) {
        put(p, 2, v);
    }
    if let Some(area) = kv(Role::Area) {
        match (p[0], p[1], p[2]) {
            (Some(b1), Some(b2), None) => put(p, 2, 2.0 * area / (b1 + b2)),
            (None, Some(b2), Some(h)) => put(p, 0, 2.0 * area / h - b2),
            (Some(b1), None, Some(h)) => put(p, 1, 2.0 * area / h - b1),
            _ => {}
        }
    }
    let (right, left) = (kv(Role::Edge(2)), kv(Role::Edge(3)));
    // Perimeter gives the missing leg.
    let left =
        left.or_else(|| Some(kv(Role::Perimeter)? - p[0]? - p[1]? - right?).filter(|v| *v > 0.0));
    if let (Some(b1), Some(b2), Some(l), Some(r)) = (p[0], p[1], left, right) {
        // Legs fix the offset and the height: l² = o² + h², r² = (D − o)² + h².
        let d = b1 - b2;
        if d > 0.0 {
            let o = (l * l - r * r + d * d) / (2.0 * d);
            let h2 = l * l - o * o;
            if h2 > 0.0 && o > 0.0 {
                put(p, 3, o);
                put(p, 2, h2.sqrt());
            }
        }
    }
    if let (Some(h), Some(l)) = (p[2], left) {
        if l > h {
            put(p, 3, (l * l - h * h).sqrt());
        }
    }
}

/// Which free parameter to draw next, if any.
fn next_free(kind: ShapeKind, k: &Known, p: &[Option<f64>]) -> Option<usize> {
    let order: &[usize] = match kind {
        // With BC known, draw the two other sides and let the angle follow.
        ShapeKind::Triangle if known(k, Role::Edge(1)).is_some() => &[0, 1, 2],
        ShapeKind::Triangle => &[0, 2, 1],
        ShapeKind::Trapezoid => &[0, 1, 2, 3],
        _ => &[0, 1, 2, 3],
    };
    order
        .iter()
        .copied()
        .find(|&i| i < p.len() && p[i].is_none())
}

/// A nice value for free parameter `i`.
fn draw(kind: ShapeKind, i: usize, p: &[Option<f64>], k: &Known, rng: &mut Rng) -> f64 {
    use ShapeKind::*;
    let side = |rng: &mut Rng| rng.int(5, 20) as f64;
    match (kind, i) {
        (Triangle, 2) => {
            // Keep the third angle sensible when another angle is known.
            let other = known(k, Role::Angle(1)).or(known(k, Role::Angle(2)));
            match other {
                Some(o) => rng.int(25, (150.0 - o).max(26.0) as i64) as f64,
                None => rng.int(35, 110) as f64,
            }
        }
        (Parallelogram, 2) => rng.int(40, 80) as f64,
        (Sector, 1) => (rng.int(6, 30) * 5) as f64,
        (Trapezoid, 0) => rng.int(12, 22) as f64,
        (Trapezoid, 1) => {
            let b1 = p[0].unwrap_or(16.0);
            rng.int(4, (b1 - 3.0).max(5.0) as i64) as f64
        }
        (Trapezoid, 2) => rng.int(5, 12) as f64,
        (Trapezoid, 3) => {
            let span = (p[0].unwrap_or(16.0) - p[1].unwrap_or(8.0)).max(0.0);
            (rng.unit() * span * 100.0).round() / 100.0 + 0.01
        }
        (
            RectangleMinusSemicircle
            | RectangleMinusEquilateral
            | RectanglePlusSemicircle
            | RectanglePlusEquilateral,
            1,
        ) => rng.int(5, 14) as f64,
        (
            RectangleMinusSemicircle
            | RectangleMinusEquilateral
            | RectanglePlusSemicircle
            | RectanglePlusEquilateral,
            0,
        ) => {
            // Leave room for the part cut out of the far side.
            let d = p[1].unwrap_or(8.0);
            rng.int((d + 2.0) as i64, (d * 2.5 + 6.0) as i64) as f64
        }
        _ => side(rng),
    }
}

/// Plausibility checks: positive sizes, proper triangles, angles that can be drawn,
/// cut-outs that fit, no needle-thin shapes.
pub(crate) fn valid(kind: ShapeKind, p: &[f64]) -> bool {
    use ShapeKind::*;
    let ratio_ok = |a: f64, b: f64| a.max(b) / a.min(b) <= 6.0;
    match kind {
        Rectangle => ratio_ok(p[0], p[1]),
        RightTriangle => {
            let a = role_value(kind, p, Role::Angle(0)).unwrap_or(0.0);
            (12.0..=78.0).contains(&a)
        }
        Triangle => {
            let names = [Role::Angle(0), Role::Angle(1), Role::Angle(2)];
            let sides = [Role::Edge(0), Role::Edge(1), Role::Edge(2)];
            let ok_angles = names
                .iter()
                .all(|r| role_value(kind, p, *r).is_some_and(|a| (12.0..=150.0).contains(&a)));
            let s: Vec<f64> = sides
                .iter()
                .filter_map(|r| role_value(kind, p, *r))
                .collect();
            ok_angles
                && s.len() == 3
                && s[0] + s[1] > s[2] * 1.02
                && s[1] + s[2] > s[0] * 1.02
                && s[0] + s[2] > s[1] * 1.02
        }
        Parallelogram => (25.0..=90.0).contains(&p[2]) && ratio_ok(p[0], p[1]),
        Trapezoid => {
            let (b1, b2, h, o) = (p[0], p[1], p[2], p[3]);
            b1 > b2 && o >= 0.0 && o + b2 <= b1 && ratio_ok(b1, h) && ratio_ok(b1, b2 * 1.5)
        }
        Sector => (20.0..=170.0).contains(&p[1]),
        RectangleMinusSemicircle => p[0] > p[1] / 2.0 + 1.0 && ratio_ok(p[0], p[1]),
        RectangleMinusEquilateral => p[0] > p[1] * SQRT3 / 2.0 + 1.0 && ratio_ok(p[0], p[1]),
        RectanglePlusSemicircle | RectanglePlusEquilateral => ratio_ok(p[0], p[1]),
        _ => true,
    }
}

/// Vertices and outline of a kind drawn from its parameters at the origin.
///
/// Kept whole: one match arm per shape kind (its outline construction), read and
/// checked kind by kind.
pub(crate) fn local_geometry(kind: ShapeKind, p: &[f64]) -> LocalGeometry {
    use ShapeKind::*;
    let poly = |v: Vec<[f64; 2]>, right: Vec<[usize; 3]>| LocalGeometry {
        contours: vec![polygon(&v)],
        vertices: v,
        right_angles: right,
    };
    let rad = |d: f64| d.to_radians();
    match kind {
        Square | SquareMinusCircle => {
            let s = p[0];
            let v = vec![[0.0, 0.0], [s, 0.0], [s, s], [0.0, s]];
            let mut g = poly(v, vec![]);
            if kind == SquareMinusCircle {
                let r = s / 2.0;
                g.contours.push(circle_contour([r, r], r));
            }
            g
        }
        Rectangle => poly(
            vec![[0.0, 0.0], [p[0], 0.0], [p[0], p[1]], [0.0, p[1]]],
            vec![],
        ),
        RightTriangle => poly(vec![[0.0, 0.0], [p[0], 0.0], [p[0], p[1]]], vec![[0, 1, 2]]),
        Triangle => {
            let (c, b, a) = (p[0], p[1], rad(p[2]));
            poly(
                vec![[0.0, 0.0], [c, 0.0], [b * a.cos(), b * a.sin()]],
                vec![],
            )
        }
        EquilateralTriangle => {
            let s = p[0];
            poly(
                vec![[0.0, 0.0], [s, 0.0], [s / 2.0, s * SQRT3 / 2.0]],
                vec![],
            )
        }
        Parallelogram => {
            let (a, b, t) = (p[0], p[1], rad(p[2]));
            let (dx, dy) = (b * t.cos(), b * t.sin());
            poly(vec![[0.0, 0.0], [a, 0.0], [a + dx, dy], [dx, dy]], vec![])
        }
        Trapezoid => {
            let (b1, b2, h, o) = (p[0], p[1], p[2], p[3]);
            poly(vec![[0.0, 0.0], [b1, 0.0], [o + b2, h], [o, h]], vec![])
        }
        Circle => {
            let r = p[0] / 2.0;
            LocalGeometry {
                vertices: vec![[-r, 0.0], [r, 0.0]],
                contours: vec![circle_contour([0.0, 0.0], r)],
                right_angles: vec![],
            }
        }
        Semicircle => {
            let d = p[0];
            LocalGeometry {
                vertices: vec![[0.0, 0.0], [d, 0.0]],
                contours: vec![LocalContour {
                    start: [0.0, 0.0],
                    segs: vec![
                        Seg::Line([d, 0.0]),
                        Seg::Arc {
                            to: [0.0, 0.0],
                            center: [d / 2.0, 0.0],
                            ccw: true,
                        },
                    ],
                }],
                right_angles: vec![],
            }
        }
        Sector => {
            let (r, t) = (p[0], rad(p[1]));
            let tip = [r * t.cos(), r * t.sin()];
            LocalGeometry {
                vertices: vec![[0.0, 0.0], [r, 0.0], tip],
                contours: vec![LocalContour {
                    start: [0.0, 0.0],
                    segs: vec![
                        Seg::Line([r, 0.0]),
                        Seg::Arc {
                            to: tip,
                            center: [0.0, 0.0],
                            ccw: true,
                        },
                        Seg::Line([0.0, 0.0]),
                    ],
                }],
                right_angles: vec![],
            }
        }
        RectanglePlusSemicircle | RectangleMinusSemicircle => {
            let (l, d) = (p[0], p[1]);
            // The arc replaces the far side (from D back to A), bulging out (+) or in (−).
            let ccw = kind == RectanglePlusSemicircle;
            LocalGeometry {
                vertices: vec![[0.0, 0.0], [l, 0.0], [l, d], [0.0, d]],
                contours: vec![LocalContour {
                    start: [0.0, 0.0],
                    segs: vec![
                        Seg::Line([l, 0.0]),
                        Seg::Line([l, d]),
                        Seg::Line([0.0, d]),
                        Seg::Arc {
                            to: [0.0, 0.0],
                            center: [0.0, d / 2.0],
                            ccw,
                        },
                    ],
                }],
                right_angles: vec![],
            }
        }
        RectanglePlusEquilateral | RectangleMinusEquilateral => {
            let (l, d) = (p[0], p[1]);
            let apex = d * SQRT3 / 2.0;
            let x = if kind == RectanglePlusEquilateral {
                -apex
            } else {
                apex
            };
            poly(
                vec![[0.0, 0.0], [l, 0.0], [l, d], [0.0, d], [x, d / 2.0]],
                vec![],
            )
        }
        SupplementaryAngles | ComplementaryAngles | VerticalAngles => LocalGeometry {
            vertices: vec![],
            contours: vec![],
            right_angles: vec![],
        },
    }
}

fn polygon(v: &[[f64; 2]]) -> LocalContour {
    LocalContour {
        start: v[0],
        segs: v[1..]
            .iter()
            .chain(std::iter::once(&v[0]))
            .map(|&q| Seg::Line(q))
            .collect(),
    }
}

fn circle_contour(c: [f64; 2], r: f64) -> LocalContour {
    let a = [c[0] + r, c[1]];
    let b = [c[0] - r, c[1]];
    LocalContour {
        start: a,
        segs: vec![
            Seg::Arc {
                to: b,
                center: c,
                ccw: true,
            },
            Seg::Arc {
                to: a,
                center: c,
                ccw: true,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_reproduces_every_known_role() {
        let mut rng = Rng::for_attempt(3, 0);
        for kind in ShapeKind::SHAPES {
            let mut ok = 0;
            for _ in 0..50 {
                let Some(p) = fit(kind, &[], &mut rng) else {
                    continue;
                };
                ok += 1;
                // Every role value, given back as a known, must lead to the same shape.
                let roles: Vec<(Role, f64)> = all_roles(kind)
                    .into_iter()
                    .filter_map(|r| role_value(kind, &p, r).map(|v| (r, v)))
                    .collect();
                let q = fit(kind, &roles, &mut rng).unwrap_or_else(|| panic!("{kind:?} {p:?}"));
                for (r, v) in roles {
                    let w = role_value(kind, &q, r).unwrap();
                    assert!((v - w).abs() < 1e-6 * v.max(1.0), "{kind:?} {r:?} {v} {w}");
                }
            }
            assert!(ok > 10, "{kind:?} fitted only {ok} of 50");
        }
    }

    pub(crate) fn all_roles(kind: ShapeKind) -> Vec<Role> {
        let mut r: Vec<Role> = (0..edges(kind).len() as u8).map(Role::Edge).collect();
        r.extend((0..angles(kind).len() as u8).map(Role::Angle));
        r.extend([
            Role::Diagonal,
            Role::Diameter,
            Role::Height,
            Role::Area,
            Role::Perimeter,
            Role::ArcLength,
        ]);
        r
    }
}
