//! A square with its inscribed circle removed: one parameter, its side `[s]`.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, sides};
use super::outline::{LocalGeometry, circle_contour};
use super::{Role, ShapeKind};
use crate::generate::expr::{PI, add, div, mul, n, sq, sqrt, sub};
use crate::generate::formulas::{AREA, E0, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::SquareMinusCircle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Composite,
    noun: "shape",
    description: "a square where a circle has been removed from it",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: true,
    params: 1,
    edges: &[&[(0, 1), (1, 2), (2, 3), (3, 0)]],
    angles: &[],
    inner: None,
    value,
    derive,
    free: in_order,
    draw: sides,
    valid: |_| true,
    geometry,
    formulas: &[
        formula!("square_minus_circle.area", K, [E0] => AREA,
            |c| generic(c, sub(sq(c.v(E0)), mul(div(n(PI), n(4.0)), sq(c.v(E0)))))),
        formula!("square_minus_circle.perimeter", K, [E0] => PERIM,
            |c| generic(c, add(mul(n(4.0), c.v(E0)), mul(n(PI), c.v(E0))))),
        formula!("square_minus_circle.side_from_area", K, [AREA] => E0,
            |c| generic(c, sqrt(div(c.v(AREA), sub(n(1.0), div(n(PI), n(4.0))))))),
        formula!("square_minus_circle.side_from_perimeter", K, [PERIM] => E0,
            |c| generic(c, div(c.v(PERIM), add(n(4.0), n(PI))))),
    ],
    root_only: false,
    aux: Aux::NONE,
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Area => p[0] * p[0] - PI / 4.0 * p[0] * p[0],
        Role::Perimeter => 4.0 * p[0] + PI * p[0],
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let s = kv(Role::Edge(0))
        .or(kv(Role::Area).map(|a| (a / (1.0 - PI / 4.0)).sqrt()))
        .or(kv(Role::Perimeter).map(|v| v / (4.0 + PI)));
    set(p, 0, s);
}

/// The square, with the circle as a hole.
fn geometry(p: &[f64]) -> LocalGeometry {
    let mut g = super::square::geometry(p);
    let r = p[0] / 2.0;
    g.contours.push(circle_contour([r, r], r));
    g
}
