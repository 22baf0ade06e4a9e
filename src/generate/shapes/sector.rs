//! The sector: parameters `[r, θ°]`; Edge(0) is a radius, Angle(0) the central angle
//! (at vertex 0, the centre, which its name puts in the middle).

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, in_order, known, set, side};
use super::outline::{LocalContour, LocalGeometry, Seg};
use super::{Role, ShapeKind};
use crate::generate::expr::{PI, add, div, mul, n, sq, sqrt};
use crate::generate::formulas::{A0, ARC, AREA, E0, PERIM, formula, generic};
use crate::generate::rng::Rng;

const K: ShapeKind = ShapeKind::Sector;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: K,
    family: Family::Standard,
    noun: "sector",
    description: "a sector",
    named_by_colour: false,
    // B A C: the centre in the middle, as an angle is named.
    name_order: &[1, 0, 2],
    side_noun: |_| "radius",
    perimeter: "perimeter",
    round: true,
    params: 2,
    edges: &[&[(0, 1), (2, 0)]],
    angles: &[&[(1, 0, 2)]],
    inner: None,
    value,
    derive,
    free: in_order,
    draw,
    valid: |p| (20.0..=170.0).contains(&p[1]),
    geometry,
    formulas: &[
        formula!("sector.area", K, [E0, A0] => AREA, |c| generic(c, mul(mul(div(c.v(A0), n(360.0)), n(PI)), sq(c.v(E0))))),
        formula!("sector.arc_length", K, [E0, A0] => ARC, |c| generic(c, mul(mul(mul(div(c.v(A0), n(360.0)), n(2.0)), n(PI)), c.v(E0)))),
        formula!("sector.perimeter", K, [E0, A0] => PERIM,
            |c| generic(c, add(mul(n(2.0), c.v(E0)), mul(mul(mul(div(c.v(A0), n(360.0)), n(2.0)), n(PI)), c.v(E0))))),
        formula!("sector.radius_from_area", K, [AREA, A0] => E0,
            |c| generic(c, sqrt(div(c.v(AREA), mul(div(c.v(A0), n(360.0)), n(PI)))))),
        formula!("sector.radius_from_arc_length", K, [ARC, A0] => E0,
            |c| generic(c, div(c.v(ARC), mul(mul(div(c.v(A0), n(360.0)), n(2.0)), n(PI))))),
        formula!("sector.angle_from_area", K, [AREA, E0] => A0,
            |c| generic(c, mul(div(c.v(AREA), mul(n(PI), sq(c.v(E0)))), n(360.0)))),
        formula!("sector.angle_from_arc_length", K, [ARC, E0] => A0,
            |c| generic(c, mul(div(c.v(ARC), mul(mul(n(2.0), n(PI)), c.v(E0))), n(360.0)))),
    ],
    root_only: false,
    aux: Aux {
        height: false,
        height_formulas: &[],
        radius: false,
        median: false,
        chord: true,
    },
};

fn value(p: &[f64], role: Role) -> Option<f64> {
    let v = match role {
        Role::Edge(0) => p[0],
        Role::Angle(0) => p[1],
        Role::Area => p[1] / 360.0 * PI * p[0] * p[0],
        Role::ArcLength => p[1] / 360.0 * 2.0 * PI * p[0],
        Role::Perimeter => 2.0 * p[0] + p[1] / 360.0 * 2.0 * PI * p[0],
        _ => return None,
    };
    v.is_finite().then_some(v)
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    set(p, 0, kv(Role::Edge(0)));
    set(p, 1, kv(Role::Angle(0)));
    if let Some(t) = p[1] {
        let f = t / 360.0 * PI;
        set(p, 0, kv(Role::Area).map(|a| (a / f).sqrt()));
        set(p, 0, kv(Role::ArcLength).map(|l| l / (2.0 * f)));
    }
    if let Some(r) = p[0] {
        set(p, 1, kv(Role::Area).map(|a| a / (PI * r * r) * 360.0));
        set(
            p,
            1,
            kv(Role::ArcLength).map(|l| l / (2.0 * PI * r) * 360.0),
        );
        set(
            p,
            1,
            kv(Role::Perimeter).map(|v| (v - 2.0 * r) / (2.0 * PI * r) * 360.0),
        );
    }
}

fn draw(i: usize, _: &[Option<f64>], _: &Known, rng: &mut Rng) -> f64 {
    match i {
        1 => (rng.int(6, 30) * 5) as f64,
        _ => side(rng),
    }
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let (r, t) = (p[0], p[1].to_radians());
    let tip = [r * t.cos(), r * t.sin()];
    LocalGeometry {
        vertices: vec![[0.0, 0.0], [r, 0.0], tip],
        contours: vec![LocalContour {
            start: [0.0, 0.0],
            segs: vec![
                Seg::Line([r, 0.0]),
                Seg::Arc {
                    to: tip,
                    center: [0.0, 0.0],
                    ccw: true,
                },
                Seg::Line([0.0, 0.0]),
            ],
        }],
        right_angles: vec![],
    }
}
