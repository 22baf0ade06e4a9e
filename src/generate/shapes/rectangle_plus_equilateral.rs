//! A rectangle and an equilateral triangle: parameters `[L, d]`, the triangle on the
//! side d (see `composites`).

use super::composites::{self, EDGES, EQUILATERAL};
use super::def::{Aux, Family, ShapeDef};
use super::fit::in_order;
use super::{Role, SQRT3, ShapeKind};
use crate::generate::expr::{add, div, mul, n, sq, sqrt};
use crate::generate::formulas::{AREA, E0, E1, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::RectanglePlusEquilateral;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Composite,
    noun: "shape",
    description: "a combination of a rectangle and an equilateral triangle",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 2,
    edges: EDGES,
    angles: &[],
    inner: None,
    value,
    derive: |k, p| composites::derive(k, p, 1.0, EQUILATERAL),
    free: in_order,
    draw: composites::draw,
    valid: composites::valid,
    geometry: |p| composites::with_equilateral(p, true),
    formulas: &[
        formula!("rectangle_plus_equilateral.area", K, [E0, E1] => AREA,
            |c| generic(c, add(mul(c.v(E0), c.v(E1)), mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E1)))))),
        formula!("rectangle_plus_equilateral.perimeter", K, [E0, E1] => PERIM,
            |c| generic(c, add(mul(n(2.0), c.v(E0)), mul(n(3.0), c.v(E1))))),
        formula!("rectangle_plus_equilateral.side_from_area", K, [AREA, E1] => E0,
            |c| { let e = mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E1))); composites::side_from_area(c, e, true) }),
        formula!("rectangle_plus_equilateral.side_from_perimeter", K, [PERIM, E1] => E0,
            |c| composites::side_from_perimeter(c, false), linear &[(E0, 2.0), (E1, 3.0)], |c| c.v(PERIM)),
        formula!("rectangle_plus_equilateral.triangle_side_from_perimeter", K, [PERIM, E0] => E1,
            |c| composites::d_from_perimeter(c, false), linear &[(E0, 2.0), (E1, 3.0)], |c| c.v(PERIM)),
    ],
    root_only: false,
    aux: Aux::NONE,
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Edge(1) => p[1],
        Role::Area => p[0] * p[1] + SQRT3 / 4.0 * p[1] * p[1],
        Role::Perimeter => 2.0 * p[0] + 3.0 * p[1],
        _ => return None,
    };
    v.is_finite().then_some(v)
}
