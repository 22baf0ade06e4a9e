//! The rectangle: parameters `[w, h]`, Edge(0) and Edge(1) its two side lengths; its
//! diagonal AC is drawn.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, ratio_ok, set, sides};
use super::outline::{LocalGeometry, poly};
use super::{Role, ShapeKind};
use crate::generate::expr::{add, div, mul, n, sq, sqrt, sub};
use crate::generate::formulas::{AREA, DIAG, E0, E1, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::Rectangle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "rectangle",
    description: "a rectangle",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 2,
    edges: &[&[(0, 1), (2, 3)], &[(1, 2), (3, 0)]],
    angles: &[],
    inner: Some((0, 2)),
    value,
    derive,
    free: in_order,
    draw: sides,
    valid: |p| ratio_ok(p[0], p[1]),
    geometry,
    formulas: &[
        formula!("rectangle.area", K, [E0, E1] => AREA, |c| generic(c, mul(c.v(E0), c.v(E1)))),
        formula!("rectangle.perimeter", K, [E0, E1] => PERIM, |c| generic(c, mul(n(2.0), add(c.v(E0), c.v(E1))))),
        formula!("rectangle.diagonal", K, [E0, E1] => DIAG, |c| generic(c, sqrt(add(sq(c.v(E0)), sq(c.v(E1)))))),
        formula!("rectangle.side_from_area", K, [AREA, E1] => E0, |c| generic(c, div(c.v(AREA), c.v(E1)))),
        formula!("rectangle.side_from_perimeter", K, [PERIM, E1] => E0,
            |c| generic(c, sub(div(c.v(PERIM), n(2.0)), c.v(E1))), linear &[(E0, 2.0), (E1, 2.0)], |c| c.v(PERIM)),
        formula!("rectangle.side_from_diagonal", K, [DIAG, E1] => E0, |c| generic(c, sqrt(sub(sq(c.v(DIAG)), sq(c.v(E1)))))),
    ],
    root_only: false,
    aux: Aux::NONE,
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Edge(1) => p[1],
        Role::Diagonal => (p[0] * p[0] + p[1] * p[1]).sqrt(),
        Role::Area => p[0] * p[1],
        Role::Perimeter => 2.0 * (p[0] + p[1]),
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
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

fn geometry(p: &[f64]) -> LocalGeometry {
    poly(
        vec![[0.0, 0.0], [p[0], 0.0], [p[0], p[1]], [0.0, p[1]]],
        vec![],
    )
}
