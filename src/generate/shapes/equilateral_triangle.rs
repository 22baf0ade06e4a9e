//! The equilateral triangle: one parameter, its side `[s]`.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, sides};
use super::outline::{LocalGeometry, poly};
use super::{Role, SQRT3, ShapeKind};
use crate::generate::expr::{div, mul, n, sq, sqrt};
use crate::generate::formulas::{AREA, E0, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::EquilateralTriangle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "equilateral triangle",
    description: "an equilateral triangle",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 1,
    edges: &[&[(0, 1), (1, 2), (2, 0)]],
    angles: &[],
    inner: None,
    value,
    derive,
    free: in_order,
    draw: sides,
    valid: |_| true,
    geometry,
    formulas: &[
        formula!("equilateral_triangle.perimeter", K, [E0] => PERIM, |c| generic(c, mul(n(3.0), c.v(E0)))),
        formula!("equilateral_triangle.area", K, [E0] => AREA, |c| generic(c, mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E0))))),
        formula!("equilateral_triangle.side_from_perimeter", K, [PERIM] => E0,
            |c| generic(c, div(c.v(PERIM), n(3.0))), linear &[(E0, 3.0)], |c| c.v(PERIM)),
        formula!("equilateral_triangle.side_from_area", K, [AREA] => E0,
            |c| generic(c, sqrt(div(mul(c.v(AREA), n(4.0)), sqrt(n(3.0)))))),
    ],
    root_only: false,
    aux: Aux {
        height: true,
        height_formulas: &[],
        radius: false,
        median: true,
        chord: false,
    },
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Area => SQRT3 / 4.0 * p[0] * p[0],
        Role::Perimeter => 3.0 * p[0],
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let s = kv(Role::Edge(0))
        .or(kv(Role::Perimeter).map(|v| v / 3.0))
        .or(kv(Role::Area).map(|a| (4.0 * a / SQRT3).sqrt()));
    set(p, 0, s);
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let s = p[0];
    poly(
        vec![[0.0, 0.0], [s, 0.0], [s / 2.0, s * SQRT3 / 2.0]],
        vec![],
    )
}
