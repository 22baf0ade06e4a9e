//! The right triangle: parameters `[AB, BC]`, its legs (right angle at B); AB =
//! Edge(0), BC = Edge(1), hypotenuse CA = Edge(2); Angle(0) at A (opposite BC),
//! Angle(1) at C.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, sides};
use super::outline::{LocalGeometry, poly};
use super::{Role, ShapeKind};
use crate::generate::expr::{Func, add, call, div, mul, n, sq, sqrt, sub};
use crate::generate::formulas::{A0, A1, AREA, E0, E1, E2, PERIM, cos, formula, generic, sin, tan};

const K: ShapeKind = ShapeKind::RightTriangle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "right triangle",
    description: "a right triangle",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 2,
    edges: &[&[(0, 1)], &[(1, 2)], &[(2, 0)]],
    angles: &[&[(2, 0, 1)], &[(1, 2, 0)]],
    inner: None,
    value,
    derive,
    free: in_order,
    draw: sides,
    valid,
    geometry,
    formulas: &[
        formula!("right_triangle.hypotenuse", K, [E0, E1] => E2, |c| generic(c, sqrt(add(sq(c.v(E0)), sq(c.v(E1)))))),
        formula!("right_triangle.leg_from_hypotenuse", K, [E2, E1] => E0, |c| generic(c, sqrt(sub(sq(c.v(E2)), sq(c.v(E1)))))),
        formula!("right_triangle.area", K, [E0, E1] => AREA, |c| generic(c, div(mul(c.v(E0), c.v(E1)), n(2.0)))),
        formula!("right_triangle.leg_from_area", K, [AREA, E1] => E0, |c| generic(c, div(mul(c.v(AREA), n(2.0)), c.v(E1)))),
        formula!("right_triangle.perimeter", K, [E0, E1] => PERIM,
            |c| generic(c, add(add(c.v(E0), c.v(E1)), sqrt(add(sq(c.v(E0)), sq(c.v(E1))))))),
        formula!("right_triangle.angle_from_opposite_hypotenuse", K, [E1, E2] => A0, |c| generic(c, call(Func::Asin, div(c.v(E1), c.v(E2))))),
        formula!("right_triangle.angle_from_adjacent_hypotenuse", K, [E0, E2] => A0, |c| generic(c, call(Func::Acos, div(c.v(E0), c.v(E2))))),
        formula!("right_triangle.angle_from_legs", K, [E1, E0] => A0, |c| generic(c, call(Func::Atan, div(c.v(E1), c.v(E0))))),
        formula!("right_triangle.opposite_from_hypotenuse", K, [E2, A0] => E1, |c| generic(c, mul(c.v(E2), sin(c.v(A0))))),
        formula!("right_triangle.adjacent_from_hypotenuse", K, [E2, A0] => E0, |c| generic(c, mul(c.v(E2), cos(c.v(A0))))),
        formula!("right_triangle.opposite_from_adjacent", K, [E0, A0] => E1, |c| generic(c, mul(c.v(E0), tan(c.v(A0))))),
        formula!("right_triangle.adjacent_from_opposite", K, [E1, A0] => E0, |c| generic(c, div(c.v(E1), tan(c.v(A0))))),
        formula!("right_triangle.hypotenuse_from_opposite", K, [E1, A0] => E2, |c| generic(c, div(c.v(E1), sin(c.v(A0))))),
        formula!("right_triangle.hypotenuse_from_adjacent", K, [E0, A0] => E2, |c| generic(c, div(c.v(E0), cos(c.v(A0))))),
        formula!("right_triangle.other_acute_angle", K, [A0] => A1,
            |c| generic(c, sub(n(90.0), c.v(A0))), linear &[(A0, 1.0), (A1, 1.0)], |_| n(90.0)),
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
        Role::Edge(1) => p[1],
        Role::Edge(2) => (p[0] * p[0] + p[1] * p[1]).sqrt(),
        Role::Angle(0) => p[1].atan2(p[0]).to_degrees(),
        Role::Angle(1) => p[0].atan2(p[1]).to_degrees(),
        Role::Area => p[0] * p[1] / 2.0,
        Role::Perimeter => p[0] + p[1] + (p[0] * p[0] + p[1] * p[1]).sqrt(),
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let sin = |d: f64| d.to_radians().sin();
    let cos = |d: f64| d.to_radians().cos();
    let tan = |d: f64| d.to_radians().tan();
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

/// Acute angles of 12–78°.
fn valid(p: &[f64]) -> bool {
    let a = value(p, Role::Angle(0)).unwrap_or(0.0);
    (12.0..=78.0).contains(&a)
}

fn geometry(p: &[f64]) -> LocalGeometry {
    poly(vec![[0.0, 0.0], [p[0], 0.0], [p[0], p[1]]], vec![[0, 1, 2]])
}
