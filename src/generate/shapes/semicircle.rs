//! The semi-circle: one parameter, its diameter `[d]` (Edge(0)); named by colour.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, sides};
use super::outline::{LocalContour, LocalGeometry, Seg};
use super::{Role, ShapeKind};
use crate::generate::expr::{PI, add, div, mul, n, sq, sqrt};
use crate::generate::formulas::{ARC, AREA, E0, PERIM, formula, generic};

const K: ShapeKind = ShapeKind::Semicircle;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "semi-circle",
    description: "a semi-circle",
    named_by_colour: true,
    name_order: &[],
    side_noun: |_| "diameter",
    perimeter: "perimeter",
    round: true,
    params: 1,
    edges: &[&[(0, 1)]],
    angles: &[],
    inner: None,
    value,
    derive,
    free: in_order,
    draw: sides,
    valid: |_| true,
    geometry,
    formulas: &[
        formula!("semicircle.area", K, [E0] => AREA, |c| generic(c, div(mul(n(PI), sq(c.v(E0))), n(8.0)))),
        formula!("semicircle.perimeter", K, [E0] => PERIM, |c| generic(c, add(c.v(E0), div(mul(c.v(E0), n(PI)), n(2.0))))),
        formula!("semicircle.arc_length", K, [E0] => ARC, |c| generic(c, div(mul(c.v(E0), n(PI)), n(2.0)))),
        formula!("semicircle.diameter_from_area", K, [AREA] => E0, |c| generic(c, sqrt(div(mul(n(8.0), c.v(AREA)), n(PI))))),
        formula!("semicircle.diameter_from_perimeter", K, [PERIM] => E0, |c| generic(c, div(c.v(PERIM), add(n(1.0), div(n(PI), n(2.0)))))),
        formula!("semicircle.diameter_from_arc_length", K, [ARC] => E0, |c| generic(c, div(mul(c.v(ARC), n(2.0)), n(PI)))),
    ],
    root_only: false,
    aux: Aux {
        height: false,
        height_formulas: &[],
        radius: true,
        median: false,
        chord: false,
    },
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Area => PI * p[0] * p[0] / 8.0,
        Role::Perimeter => p[0] + PI * p[0] / 2.0,
        Role::ArcLength => PI * p[0] / 2.0,
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let d = kv(Role::Edge(0))
        .or(kv(Role::Area).map(|a| (8.0 * a / PI).sqrt()))
        .or(kv(Role::Perimeter).map(|v| v / (1.0 + PI / 2.0)))
        .or(kv(Role::ArcLength).map(|l| 2.0 * l / PI));
    set(p, 0, d);
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let d = p[0];
    LocalGeometry {
        vertices: vec![[0.0, 0.0], [d, 0.0]],
        contours: vec![LocalContour {
            start: [0.0, 0.0],
            segs: vec![
                Seg::Line([d, 0.0]),
                Seg::Arc {
                    to: [0.0, 0.0],
                    center: [d / 2.0, 0.0],
                    ccw: true,
                },
            ],
        }],
        right_angles: vec![],
    }
}
