//! The three angle connectors: two angles at a vertex, Angle(0) the new angle and
//! Angle(1) the angle of the shape it serves. Not shapes: no parameters, edges or
//! outline; what sets them apart is their [`Connector`] part.

use super::ShapeKind;
use super::def::{Aux, Connector, End, Family, Ray, Rays, ShapeDef};
use super::fit::{in_order, sides};
use super::outline::LocalGeometry;
use crate::generate::expr::{Expr, ExprError, n, sub};
use crate::generate::formulas::{A0, A1, Ctx, capitalise, formula};
use crate::generate::shapes::Role;

pub(super) static SUPPLEMENTARY: ShapeDef = ShapeDef {
    kind: ShapeKind::SupplementaryAngles,
    description: "supplementary",
    family: Family::Connector(Connector {
        word: "supplementary angles",
        sum: Some(180.0),
        carries_shape: false,
        // A side of the parent angle extended back through its vertex.
        rays: &[
            Rays {
                new: &[Ray::Back(End::A)],
                ends: [None, Some(End::B)],
                right: None,
            },
            Rays {
                new: &[Ray::Back(End::B)],
                ends: [Some(End::A), None],
                right: None,
            },
        ],
    }),
    formulas: &[
        formula!("angles.supplementary", ShapeKind::SupplementaryAngles, [A0] => A1,
            |c| connector(c, |e| sub(n(180.0), e), "supplementary"), linear &[(A0, 1.0), (A1, 1.0)], |_| n(180.0)),
    ],
    ..NOT_A_SHAPE
};

pub(super) static COMPLEMENTARY: ShapeDef = ShapeDef {
    kind: ShapeKind::ComplementaryAngles,
    description: "complementary",
    family: Family::Connector(Connector {
        word: "complementary angles",
        sum: Some(90.0),
        carries_shape: false,
        // A perpendicular to a side of the parent angle, on the other side's side.
        rays: &[
            Rays {
                new: &[Ray::Turn(End::A)],
                ends: [Some(End::B), None],
                right: Some(End::A),
            },
            Rays {
                new: &[Ray::Turn(End::B)],
                ends: [Some(End::A), None],
                right: Some(End::B),
            },
        ],
    }),
    formulas: &[
        formula!("angles.complementary", ShapeKind::ComplementaryAngles, [A0] => A1,
            |c| connector(c, |e| sub(n(90.0), e), "complementary"), linear &[(A0, 1.0), (A1, 1.0)], |_| n(90.0)),
    ],
    ..NOT_A_SHAPE
};

pub(super) static VERTICAL: ShapeDef = ShapeDef {
    kind: ShapeKind::VerticalAngles,
    description: "vertical",
    family: Family::Connector(Connector {
        word: "vertical angles",
        sum: None,
        // A shape fills the opposite angle.
        carries_shape: true,
        // Both sides of the parent angle extended back through its vertex.
        rays: &[Rays {
            new: &[Ray::Back(End::A), Ray::Back(End::B)],
            ends: [None, None],
            right: None,
        }],
    }),
    formulas: &[
        formula!("angles.vertical", ShapeKind::VerticalAngles, [A0] => A1, |c| connector(c, |e| e, "vertical angles")),
    ],
    ..NOT_A_SHAPE
};

/// What a connector has of a shape: nothing (the fields every connector shares).
const NOT_A_SHAPE: ShapeDef = ShapeDef {
    kind: ShapeKind::VerticalAngles,
    family: Family::Standard,
    noun: "shape",
    description: "",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 0,
    edges: &[],
    angles: &[],
    inner: None,
    value: |_, _| None,
    derive: |_, _| {},
    free: in_order,
    draw: sides,
    valid: |_| true,
    geometry: |_| LocalGeometry {
        vertices: vec![],
        contours: vec![],
        right_angles: vec![],
    },
    formulas: &[],
    root_only: false,
    aux: Aux::NONE,
};

/// "{given}, and {a} and {b} are {word}, so {the other} is {chain}."
fn connector(c: &mut Ctx, e: fn(Expr) -> Expr, word: &str) -> Result<f64, ExprError> {
    let (inn, out) = (Role::Angle(0), Role::Angle(1));
    let given = c.with(|w| w.given(&[inn], &[c.x(inn)]));
    let (a, b) = c.with(|w| (w.name(inn), w.name(out)));
    let q = c.with(|w| w.quantity(out));
    c.say(&format!(
        "{}, and {a} and {b} are {word}, so {q} is ",
        capitalise(&given)
    ));
    let v = c.calc(e(c.v(inn)))?;
    c.say(".");
    Ok(v)
}
