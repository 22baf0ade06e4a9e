//! A rectangle with a semi-circle removed from one side: parameters `[L, d]`, the
//! semi-circle on the side d (see `composites`).

use super::composites::{self, EDGES, SEMICIRCLE};
use super::def::{Aux, Family, ShapeDef};
use super::fit::{in_order, ratio_ok};
use super::{Role, ShapeKind};
use crate::generate::expr::{PI, add, div, mul, n, sq, sub};
use crate::generate::formulas::{AREA, E0, E1, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::RectangleMinusSemicircle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Composite,
    noun: "shape",
    description: "a rectangle where a semi-circle has been removed from one side of it",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: true,
    params: 2,
    edges: EDGES,
    angles: &[],
    inner: None,
    value,
    derive: |k, p| composites::derive(k, p, -1.0, SEMICIRCLE),
    free: in_order,
    draw: composites::draw,
    // The cut-out fits inside.
    valid: |p| p[0] > p[1] / 2.0 + 1.0 && ratio_ok(p[0], p[1]),
    geometry: |p| composites::with_semicircle(p, false),
    formulas: &[
        formula!("rectangle_minus_semicircle.area", K, [E0, E1] => AREA,
            |c| generic(c, sub(mul(c.v(E0), c.v(E1)), div(mul(n(PI), sq(c.v(E1))), n(8.0))))),
        formula!("rectangle_minus_semicircle.perimeter", K, [E0, E1] => PERIM,
            |c| generic(c, add(add(mul(n(2.0), c.v(E0)), c.v(E1)), div(mul(c.v(E1), n(PI)), n(2.0))))),
        formula!("rectangle_minus_semicircle.side_from_area", K, [AREA, E1] => E0,
            |c| { let e = div(mul(n(PI), sq(c.v(E1))), n(8.0)); composites::side_from_area(c, e, false) }),
        formula!("rectangle_minus_semicircle.side_from_perimeter", K, [PERIM, E1] => E0,
            |c| composites::side_from_perimeter(c, true), linear &[(E0, 2.0)],
            |c| sub(sub(c.v(PERIM), c.v(E1)), div(mul(c.v(E1), n(PI)), n(2.0)))),
        formula!("rectangle_minus_semicircle.diameter_from_perimeter", K, [PERIM, E0] => E1,
            |c| composites::d_from_perimeter(c, true)),
    ],
    root_only: false,
    aux: Aux::NONE,
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Edge(1) => p[1],
        Role::Area => p[0] * p[1] - PI * p[1] * p[1] / 8.0,
        Role::Perimeter => 2.0 * p[0] + p[1] + PI * p[1] / 2.0,
        _ => return None,
    };
    v.is_finite().then_some(v)
}
