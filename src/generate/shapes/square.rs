//! The square: one parameter, its side `[s]`; its diagonal AC is drawn.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, sides};
use super::outline::{LocalGeometry, poly};
use super::{Role, ShapeKind};
use crate::generate::expr::{div, mul, n, sq, sqrt};
use crate::generate::formulas::{AREA, DIAG, E0, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::Square;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "square",
    description: "a square",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 1,
    edges: &[&[(0, 1), (1, 2), (2, 3), (3, 0)]],
    angles: &[],
    inner: Some((0, 2)),
    value,
    derive,
    free: in_order,
    draw: sides,
    valid: |_| true,
    geometry,
    formulas: &[
        formula!("square.area", K, [E0] => AREA, |c| generic(c, sq(c.v(E0)))),
        formula!("square.perimeter", K, [E0] => PERIM, |c| generic(c, mul(n(4.0), c.v(E0)))),
        formula!("square.diagonal", K, [E0] => DIAG, |c| generic(c, sqrt(mul(n(2.0), sq(c.v(E0)))))),
        formula!("square.side_from_area", K, [AREA] => E0, |c| generic(c, sqrt(c.v(AREA)))),
        formula!("square.side_from_perimeter", K, [PERIM] => E0,
            |c| generic(c, div(c.v(PERIM), n(4.0))), linear &[(E0, 4.0)], |c| c.v(PERIM)),
        formula!("square.side_from_diagonal", K, [DIAG] => E0, |c| generic(c, sqrt(div(sq(c.v(DIAG)), n(2.0))))),
        formula!("square.area_from_diagonal", K, [DIAG] => AREA, |c| generic(c, div(sq(c.v(DIAG)), n(2.0)))),
    ],
    root_only: false,
    aux: Aux::NONE,
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Diagonal => (2.0 * p[0] * p[0]).sqrt(),
        Role::Area => p[0] * p[0],
        Role::Perimeter => 4.0 * p[0],
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let s = kv(Role::Edge(0))
        .or(kv(Role::Diagonal).map(|d| d / 2f64.sqrt()))
        .or(kv(Role::Area).map(f64::sqrt))
        .or(kv(Role::Perimeter).map(|v| v / 4.0));
    set(p, 0, s);
}

/// A B C D counter-clockwise from the origin (also the outer outline of
/// `square_minus_circle`).
pub(super) fn geometry(p: &[f64]) -> LocalGeometry {
    let s = p[0];
    let v = vec![[0.0, 0.0], [s, 0.0], [s, s], [0.0, s]];
    poly(v, vec![])
}
