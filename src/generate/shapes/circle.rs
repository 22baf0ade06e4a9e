//! The circle: one parameter, its diameter `[d]`, drawn inside between its two
//! vertices; named by colour.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, sides};
use super::outline::{LocalGeometry, circle_contour};
use super::{Role, ShapeKind};
use crate::generate::expr::{PI, div, mul, n, sq, sqrt};
use crate::generate::formulas::{AREA, DIAM, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::Circle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "circle",
    description: "a circle",
    named_by_colour: true,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "circumference",
    round: true,
    params: 1,
    edges: &[],
    angles: &[],
    inner: Some((0, 1)),
    value,
    derive,
    free: in_order,
    draw: sides,
    valid: |_| true,
    geometry,
    formulas: &[
        formula!("circle.area", K, [DIAM] => AREA, |c| generic(c, div(mul(n(PI), sq(c.v(DIAM))), n(4.0)))),
        formula!("circle.circumference", K, [DIAM] => PERIM, |c| generic(c, mul(n(PI), c.v(DIAM)))),
        formula!("circle.diameter_from_area", K, [AREA] => DIAM, |c| generic(c, sqrt(div(mul(n(4.0), c.v(AREA)), n(PI))))),
        formula!("circle.diameter_from_circumference", K, [PERIM] => DIAM, |c| generic(c, div(c.v(PERIM), n(PI)))),
    ],
    // It shares nothing with another shape.
    root_only: true,
    aux: Aux::NONE,
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Diameter => p[0],
        Role::Area => PI * p[0] * p[0] / 4.0,
        Role::Perimeter => PI * p[0],
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let d = kv(Role::Diameter)
        .or(kv(Role::Area).map(|a| (4.0 * a / PI).sqrt()))
        .or(kv(Role::Perimeter).map(|c| c / PI));
    set(p, 0, d);
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let r = p[0] / 2.0;
    LocalGeometry {
        vertices: vec![[-r, 0.0], [r, 0.0]],
        contours: vec![circle_contour([0.0, 0.0], r)],
        right_angles: vec![],
    }
}
