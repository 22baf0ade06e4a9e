//! The trapezoid: parameters `[bottom, top, height, offset]` (the offset of the top
//! base's left end); bases Edge(0) (bottom) and Edge(1) (top), legs Edge(2) (right)
//! and Edge(3) (left); the height is stated, not drawn.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, put, ratio_ok, side};
use super::outline::{LocalGeometry, poly};
use super::{Role, ShapeKind};
use crate::generate::expr::{add, div, mul, n, sub};
use crate::generate::formulas::{AREA, E0, E1, E2, E3, HEIGHT, PERIM, formula, generic};
use crate::generate::rng::Rng;

const K: ShapeKind = ShapeKind::Trapezoid;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "trapezoid",
    description: "a trapezoid",
    named_by_colour: false,
    name_order: &[],
    side_noun: |role| match role {
        Role::Edge(0) | Role::Edge(1) => "base",
        _ => "side",
    },
    perimeter: "perimeter",
    round: false,
    params: 4,
    edges: &[&[(0, 1)], &[(2, 3)], &[(1, 2)], &[(3, 0)]],
    angles: &[],
    inner: None,
    value,
    derive,
    free: in_order,
    draw,
    valid,
    geometry,
    formulas: &[
        formula!("trapezoid.area", K, [E0, E1, HEIGHT] => AREA, |c| generic(c, div(mul(add(c.v(E0), c.v(E1)), c.v(HEIGHT)), n(2.0)))),
        formula!("trapezoid.base_from_area", K, [AREA, E1, HEIGHT] => E0,
            |c| generic(c, sub(div(mul(n(2.0), c.v(AREA)), c.v(HEIGHT)), c.v(E1)))),
        formula!("trapezoid.height_from_area", K, [AREA, E0, E1] => HEIGHT,
            |c| generic(c, div(mul(n(2.0), c.v(AREA)), add(c.v(E0), c.v(E1))))),
        formula!("trapezoid.perimeter", K, [E0, E1, E2, E3] => PERIM,
            |c| generic(c, add(add(add(c.v(E0), c.v(E1)), c.v(E2)), c.v(E3)))),
        formula!("trapezoid.side_from_perimeter", K, [PERIM, E0, E1, E2] => E3,
            |c| generic(c, sub(sub(sub(c.v(PERIM), c.v(E0)), c.v(E1)), c.v(E2))),
            linear &[(E0, 1.0), (E1, 1.0), (E2, 1.0), (E3, 1.0)], |c| c.v(PERIM)),
    ],
    root_only: false,
    aux: Aux {
        height: true,
        height_formulas: &[
            "trapezoid.area",
            "trapezoid.base_from_area",
            "trapezoid.height_from_area",
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
        Role::Edge(2) => (p[0] - p[3] - p[1]).hypot(p[2]),
        Role::Edge(3) => p[3].hypot(p[2]),
        Role::Height => p[2],
        Role::Area => (p[0] + p[1]) * p[2] / 2.0,
        Role::Perimeter => p[0] + p[1] + (p[0] - p[3] - p[1]).hypot(p[2]) + p[3].hypot(p[2]),
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    if let Some(v) = kv(Role::Edge(0)) {
        put(p, 0, v);
    }
    if let Some(v) = kv(Role::Edge(1)) {
        put(p, 1, v);
    }
    if let Some(v) = kv(Role::Height) {
        put(p, 2, v);
    }
    if let Some(area) = kv(Role::Area) {
        match (p[0], p[1], p[2]) {
            (Some(b1), Some(b2), None) => put(p, 2, 2.0 * area / (b1 + b2)),
            (None, Some(b2), Some(h)) => put(p, 0, 2.0 * area / h - b2),
            (Some(b1), None, Some(h)) => put(p, 1, 2.0 * area / h - b1),
            _ => {}
        }
    }
    let (right, left) = (kv(Role::Edge(2)), kv(Role::Edge(3)));
    // Perimeter gives the missing leg.
    let left =
        left.or_else(|| Some(kv(Role::Perimeter)? - p[0]? - p[1]? - right?).filter(|v| *v > 0.0));
    if let (Some(b1), Some(b2), Some(l), Some(r)) = (p[0], p[1], left, right) {
        // Legs fix the offset and the height: l² = o² + h², r² = (D − o)² + h².
        let d = b1 - b2;
        if d > 0.0 {
            let o = (l * l - r * r + d * d) / (2.0 * d);
            let h2 = l * l - o * o;
            if h2 > 0.0 && o > 0.0 {
                put(p, 3, o);
                put(p, 2, h2.sqrt());
            }
        }
    }
    if let (Some(h), Some(l)) = (p[2], left) {
        if l > h {
            put(p, 3, (l * l - h * h).sqrt());
        }
    }
}

fn draw(i: usize, p: &[Option<f64>], _: &Known, rng: &mut Rng) -> f64 {
    match i {
        0 => rng.int(12, 22) as f64,
        1 => {
            let b1 = p[0].unwrap_or(16.0);
            rng.int(4, (b1 - 3.0).max(5.0) as i64) as f64
        }
        2 => rng.int(5, 12) as f64,
        3 => {
            let span = (p[0].unwrap_or(16.0) - p[1].unwrap_or(8.0)).max(0.0);
            (rng.unit() * span * 100.0).round() / 100.0 + 0.01
        }
        _ => side(rng),
    }
}

/// The top base shorter and above the bottom one, neither too thin nor too flat.
fn valid(p: &[f64]) -> bool {
    let (b1, b2, h, o) = (p[0], p[1], p[2], p[3]);
    b1 > b2 && o >= 0.0 && o + b2 <= b1 && ratio_ok(b1, h) && ratio_ok(b1, b2 * 1.5)
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let (b1, b2, h, o) = (p[0], p[1], p[2], p[3]);
    poly(vec![[0.0, 0.0], [b1, 0.0], [o + b2, h], [o, h]], vec![])
}
