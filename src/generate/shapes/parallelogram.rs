//! The parallelogram: parameters `[AB, AD, A°]`; AB = Edge(0), AD = Edge(1), DAB =
//! Angle(0), ABC = Angle(1).

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, ratio_ok, set, side};
use super::outline::{LocalGeometry, poly};
use super::{Role, ShapeKind};
use crate::generate::expr::{Func, add, call, div, mul, n, sub};
use crate::generate::formulas::{A0, A1, AREA, E0, E1, PERIM, formula, generic, sin};
use crate::generate::rng::Rng;

const K: ShapeKind = ShapeKind::Parallelogram;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "parallelogram",
    description: "a parallelogram",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 3,
    edges: &[&[(0, 1), (2, 3)], &[(3, 0), (1, 2)]],
    angles: &[&[(3, 0, 1), (1, 2, 3)], &[(0, 1, 2), (2, 3, 0)]],
    inner: None,
    value,
    derive,
    free: in_order,
    draw,
    valid: |p| (25.0..=90.0).contains(&p[2]) && ratio_ok(p[0], p[1]),
    geometry,
    formulas: &[
        formula!("parallelogram.perimeter", K, [E0, E1] => PERIM, |c| generic(c, mul(n(2.0), add(c.v(E0), c.v(E1))))),
        formula!("parallelogram.side_from_perimeter", K, [PERIM, E1] => E0,
            |c| generic(c, sub(div(c.v(PERIM), n(2.0)), c.v(E1))), linear &[(E0, 2.0), (E1, 2.0)], |c| c.v(PERIM)),
        formula!("parallelogram.area", K, [E0, E1, A0] => AREA, |c| generic(c, mul(mul(c.v(E0), c.v(E1)), sin(c.v(A0))))),
        formula!("parallelogram.side_from_area", K, [AREA, E1, A0] => E0,
            |c| generic(c, div(c.v(AREA), mul(c.v(E1), sin(c.v(A0)))))),
        formula!("parallelogram.angle_from_area", K, [AREA, E0, E1] => A0,
            |c| generic(c, call(Func::Asin, div(c.v(AREA), mul(c.v(E0), c.v(E1)))))),
        formula!("parallelogram.adjacent_angle", K, [A0] => A1,
            |c| generic(c, sub(n(180.0), c.v(A0))), linear &[(A0, 1.0), (A1, 1.0)], |_| n(180.0)),
    ],
    root_only: false,
    aux: Aux {
        height: true,
        height_formulas: &[
            "parallelogram.area",
            "parallelogram.side_from_area",
            "parallelogram.angle_from_area",
        ],
        radius: false,
        median: false,
        chord: false,
    },
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Edge(1) => p[1],
        Role::Angle(0) => p[2],
        Role::Angle(1) => 180.0 - p[2],
        Role::Area => p[0] * p[1] * p[2].to_radians().sin(),
        Role::Perimeter => 2.0 * (p[0] + p[1]),
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let sin = |d: f64| d.to_radians().sin();
    set(p, 0, kv(Role::Edge(0)));
    set(p, 1, kv(Role::Edge(1)));
    set(
        p,
        2,
        kv(Role::Angle(0)).or(kv(Role::Angle(1)).map(|b| 180.0 - b)),
    );
    for (i, j) in [(0, 1), (1, 0)] {
        if let Some(o) = p[j] {
            set(p, i, kv(Role::Perimeter).map(|v| v / 2.0 - o));
            if let (Some(t), Some(s)) = (p[2], kv(Role::Area)) {
                set(p, i, Some(s / (o * sin(t))));
            }
        }
    }
    if let (Some(a), Some(b), Some(s)) = (p[0], p[1], kv(Role::Area)) {
        let r = s / (a * b);
        if r <= 1.0 {
            set(p, 2, Some(r.asin().to_degrees()));
        }
    }
}

fn draw(i: usize, _: &[Option<f64>], _: &Known, rng: &mut Rng) -> f64 {
    match i {
        2 => rng.int(40, 80) as f64,
        _ => side(rng),
    }
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let (a, b, t) = (p[0], p[1], p[2].to_radians());
    let (dx, dy) = (b * t.cos(), b * t.sin());
    poly(vec![[0.0, 0.0], [a, 0.0], [a + dx, dy], [dx, dy]], vec![])
}
