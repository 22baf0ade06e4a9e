//! The shape catalogue: kinds, their elements (roles), parameters and geometry, one
//! definition per kind (`ShapeDef`), in one file per kind.
//!
//! Each kind is described by a few parameters (a rectangle by its two sides, a sector by
//! radius and angle, …). `fit` finds parameters that agree with a set of known element
//! values, drawing nice values for whatever the knowns leave free; `local_geometry`
//! turns parameters into vertices and an outline, counter-clockwise in y-up units.
//!
//! Code that works over every kind (fitting, placing, naming, the texts, the
//! formulas, `aux` lines) reads `ShapeKind::def`. Adding a kind is its variant in
//! [`ShapeKind`] (and in [`ShapeKind::SHAPES`] and `schemas/problem.schema.json`),
//! one new file here with its `DEF`, its `mod` line and its line in `SHAPES`.
//!
//! ```text
//! triangle              [AB, CA, A°]          rectangle_plus_semicircle    [L, d]
//! right_triangle        [AB, BC] legs         rectangle_minus_semicircle   [L, d]
//! equilateral_triangle  [s]                   rectangle_plus_equilateral   [L, d]
//! square                [s]                   rectangle_minus_equilateral  [L, d]
//! rectangle             [w, h]                square_minus_circle          [s]
//! parallelogram         [AB, AD, A°]          composites   what the four rectangle ones share
//! trapezoid             [bottom, top, h, o]   connectors   the three angle connectors
//! circle                [d]                   def          the definition's fields
//! semicircle            [d]                   fit          fitting parameters to knowns
//! sector                [r, θ°]               role, outline  elements, local geometry
//! ```

mod circle;
mod composites;
mod connectors;
mod def;
mod equilateral_triangle;
mod fit;
mod outline;
mod parallelogram;
mod rectangle;
mod rectangle_minus_equilateral;
mod rectangle_minus_semicircle;
mod rectangle_plus_equilateral;
mod rectangle_plus_semicircle;
mod right_triangle;
pub(crate) mod role;
mod sector;
mod semicircle;
mod square;
mod square_minus_circle;
mod trapezoid;
mod triangle;

pub(crate) use def::{End, Family, Ray, ShapeDef};
pub(crate) use fit::{Known, fit};
pub(crate) use outline::{LocalGeometry, Seg};
pub(crate) use role::Quantity;
pub(crate) use role::Role;
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

/// The shapes' definitions, in [`ShapeKind`] order.
pub(crate) static SHAPES: [&ShapeDef; 15] = [
    &triangle::DEF,
    &right_triangle::DEF,
    &equilateral_triangle::DEF,
    &square::DEF,
    &rectangle::DEF,
    &parallelogram::DEF,
    &trapezoid::DEF,
    &circle::DEF,
    &semicircle::DEF,
    &sector::DEF,
    &rectangle_plus_semicircle::DEF,
    &rectangle_minus_semicircle::DEF,
    &rectangle_plus_equilateral::DEF,
    &rectangle_minus_equilateral::DEF,
    &square_minus_circle::DEF,
];

/// The angle connectors' definitions, in [`ShapeKind`] order, after the shapes.
pub(crate) static CONNECTORS: [&ShapeDef; 3] = [
    &connectors::SUPPLEMENTARY,
    &connectors::COMPLEMENTARY,
    &connectors::VERTICAL,
];

impl ShapeKind {
    /// The drawable shapes, in catalogue order.
    #[cfg(test)]
    pub(crate) const SHAPES: [ShapeKind; 15] = [
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
    #[cfg(test)]
    pub(crate) const CONNECTORS: [ShapeKind; 3] = [
        ShapeKind::SupplementaryAngles,
        ShapeKind::ComplementaryAngles,
        ShapeKind::VerticalAngles,
    ];

    /// Its definition: [`SHAPES`] then [`CONNECTORS`] hold one per kind, in order.
    pub(crate) fn def(self) -> &'static ShapeDef {
        let i = self as usize;
        let def = match SHAPES.get(i) {
            Some(def) => def,
            None => CONNECTORS[i - SHAPES.len()],
        };
        debug_assert_eq!(def.kind, self, "the tables are out of ShapeKind order");
        def
    }

    pub(crate) fn is_connector(self) -> bool {
        matches!(self.def().family, Family::Connector(_))
    }

    /// Standard shapes (GeomVerse figure 2, top row) as opposed to composites.
    pub(crate) fn is_standard(self) -> bool {
        !matches!(self.def().family, Family::Composite)
    }

    /// Composite shapes are called "shape" in texts and introduced by a sentence.
    pub(crate) fn noun(self) -> &'static str {
        self.def().noun
    }

    /// What the shape is, for "the ABCD shape is …" sentences.
    pub(crate) fn description(self) -> &'static str {
        self.def().description
    }

    /// Named in both annotation styles by colour ("the blue semi-circle"): two points do
    /// not name a round shape.
    pub(crate) fn named_by_colour(self) -> bool {
        self.def().named_by_colour
    }
}

/// Edge groups per kind: `Edge(i)` is any edge of group `i` (vertex index pairs, in
/// outline order so the shape is on the left).
pub(crate) fn edges(kind: ShapeKind) -> &'static [&'static [(usize, usize)]] {
    kind.def().edges
}

/// Angle groups per kind: `Angle(i)` is any angle (a, vertex, b) of group `i`.
pub(crate) fn angles(kind: ShapeKind) -> &'static [&'static [(usize, usize, usize)]] {
    kind.def().angles
}

/// The diagonal or diameter drawn inside, as a vertex pair.
pub(crate) fn inner_segment(kind: ShapeKind) -> Option<(usize, usize)> {
    kind.def().inner
}

/// √3, for equilateral triangles.
const SQRT3: f64 = 1.732_050_807_568_877_2;

/// Values of every role of a kind from its parameters (π = 3.14, as in the texts).
///
/// Parameters: square/equilateral/circle/semicircle/square−circle `[s]`, rectangle
/// `[w, h]`, right triangle `[AB, BC]` (legs; right angle at B), triangle `[AB, CA, A°]`,
/// parallelogram `[AB, AD, A°]`, trapezoid `[bottom, top, height, offset]`, sector
/// `[r, θ°]`, rectangle composites `[L, d]` (d is the side parallel to the added or
/// removed part).
pub(crate) fn role_value(kind: ShapeKind, p: &[f64], role: Role) -> Option<f64> {
    (kind.def().value)(p, role)
}

/// Vertices and outline of a kind drawn from its parameters at the origin.
pub(crate) fn local_geometry(kind: ShapeKind, p: &[f64]) -> LocalGeometry {
    (kind.def().geometry)(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng::Rng;

    #[test]
    fn the_tables_hold_one_def_per_kind_in_order() {
        let defs: Vec<&ShapeDef> = SHAPES.iter().chain(&CONNECTORS).copied().collect();
        assert_eq!(defs.len(), ShapeKind::VerticalAngles as usize + 1);
        for (i, def) in defs.iter().enumerate() {
            assert_eq!(def.kind as usize, i, "{:?} out of place", def.kind);
            assert!(std::ptr::eq(def.kind.def(), *def), "{:?}", def.kind);
        }
        let kinds = |t: &[&ShapeDef]| t.iter().map(|d| d.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&SHAPES), ShapeKind::SHAPES);
        assert_eq!(kinds(&CONNECTORS), ShapeKind::CONNECTORS);
        for def in defs {
            let connector = matches!(def.family, Family::Connector(_));
            assert_eq!(connector, CONNECTORS.iter().any(|c| c.kind == def.kind));
        }
    }

    #[test]
    fn each_def_holds_its_own_formulas() {
        for def in SHAPES.iter().chain(&CONNECTORS) {
            assert!(!def.formulas.is_empty(), "{:?}", def.kind);
            for f in def.formulas {
                assert_eq!(f.kind, def.kind, "{}", f.id);
            }
            for id in def.aux.height_formulas {
                assert!(def.formulas.iter().any(|f| f.id == *id), "{id}");
            }
        }
    }

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
