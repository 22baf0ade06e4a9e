//! The triangle: parameters `[AB, CA, A°]` (two sides and the angle between them);
//! AB = Edge(0), BC = Edge(1), CA = Edge(2), angles at A, B, C.

use super::def::{Aux, Family, ShapeDef};
use super::fit::{Known, known, put, side};
use super::outline::{LocalGeometry, poly};
use super::{Role, ShapeKind};
use crate::generate::expr::{Expr, ExprError, add, div, mul, n, sq, sqrt, sub};
use crate::generate::formulas::{
    A0, A1, A2, AREA, Ctx, E0, E1, E2, PERIM, capitalise, cos, formula, generic, sin,
};
use crate::generate::rng::Rng;

pub(super) static DEF: ShapeDef = ShapeDef {
    kind: ShapeKind::Triangle,
    family: Family::Standard,
    noun: "triangle",
    description: "a triangle",
    named_by_colour: false,
    name_order: &[],
    side_noun: super::def::side,
    perimeter: "perimeter",
    round: false,
    params: 3,
    edges: &[&[(0, 1)], &[(1, 2)], &[(2, 0)]],
    angles: &[&[(2, 0, 1)], &[(0, 1, 2)], &[(1, 2, 0)]],
    inner: None,
    value,
    derive,
    free,
    draw,
    valid,
    geometry,
    formulas: &[
        formula!("triangle.perimeter", ShapeKind::Triangle, [E0, E1, E2] => PERIM, |c| generic(c, add(add(c.v(E0), c.v(E1)), c.v(E2)))),
        formula!("triangle.side_from_perimeter", ShapeKind::Triangle, [PERIM, E0, E1] => E2,
            |c| generic(c, sub(sub(c.v(PERIM), c.v(E0)), c.v(E1))), linear &[(E0, 1.0), (E1, 1.0), (E2, 1.0)], |c| c.v(PERIM)),
        formula!("triangle.angle_sum", ShapeKind::Triangle, [A0, A1] => A2,
            |c| generic(c, sub(sub(n(180.0), c.v(A0)), c.v(A1))), linear &[(A0, 1.0), (A1, 1.0), (A2, 1.0)], |_| n(180.0)),
        formula!("triangle.area_from_two_sides_and_angle", ShapeKind::Triangle, [E0, E2, A0] => AREA,
            |c| generic(c, div(mul(mul(c.v(E0), c.v(E2)), sin(c.v(A0))), n(2.0)))),
        formula!("triangle.law_of_cosines", ShapeKind::Triangle, [E0, E2, A0] => E1,
            |c| generic(c, sqrt(sub(add(sq(c.v(E0)), sq(c.v(E2))), mul(mul(mul(n(2.0), c.v(E0)), c.v(E2)), cos(c.v(A0))))))),
        formula!("triangle.side_from_area", ShapeKind::Triangle, [AREA, E0, A0] => E2,
            |c| generic(c, div(mul(n(2.0), c.v(AREA)), mul(c.v(E0), sin(c.v(A0)))))),
        formula!("triangle.heron_area", ShapeKind::Triangle, [E0, E1, E2] => AREA, heron),
    ],
    root_only: false,
    aux: Aux {
        height: true,
        height_formulas: &[
            "triangle.area_from_two_sides_and_angle",
            "triangle.side_from_area",
        ],
        radius: false,
        median: true,
        chord: false,
    },
};

fn law_of_cosines(b: f64, c: f64, a_deg: f64) -> f64 {
    (b * b + c * c - 2.0 * b * c * a_deg.to_radians().cos())
        .max(0.0)
        .sqrt()
}

/// Every role's value, not filtered for finiteness (a degenerate triangle's angle
/// is NaN; `valid` refuses it).
fn value(p: &[f64], role: Role) -> Option<f64> {
    let (c, b, a_deg) = (p[0], p[1], p[2]);
    let a = law_of_cosines(b, c, a_deg);
    let angle_b = ((a * a + c * c - b * b) / (2.0 * a * c))
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees();
    Some(match role {
        Role::Edge(0) => c,
        Role::Edge(1) => a,
        Role::Edge(2) => b,
        Role::Angle(0) => a_deg,
        Role::Angle(1) => angle_b,
        Role::Angle(2) => 180.0 - a_deg - angle_b,
        Role::Area => 0.5 * b * c * a_deg.to_radians().sin(),
        Role::Perimeter => a + b + c,
        _ => return None,
    })
}

fn derive(k: &Known, p: &mut [Option<f64>]) {
    let kv = |r| known(k, r);
    let sin = |d: f64| d.to_radians().sin();
    if let Some(v) = kv(Role::Edge(0)) {
        put(p, 0, v);
    }
    if let Some(v) = kv(Role::Edge(2)) {
        put(p, 1, v);
    }
    let (ka, kb, kc) = (kv(Role::Angle(0)), kv(Role::Angle(1)), kv(Role::Angle(2)));
    match (ka, kb, kc) {
        (Some(a), _, _) => put(p, 2, a),
        (None, Some(b), Some(c)) => put(p, 2, 180.0 - b - c),
        _ => {}
    }
    // Three sides: angle A by the law of cosines.
    if let (Some(c), Some(b), Some(a)) = (p[0], p[1], kv(Role::Edge(1))) {
        let cos_a = (b * b + c * c - a * a) / (2.0 * b * c);
        if (-1.0..=1.0).contains(&cos_a) {
            put(p, 2, cos_a.acos().to_degrees());
        }
    }
    // Two sides and the included angle from the area.
    if let (Some(c), Some(a), Some(s)) = (p[0], p[2], kv(Role::Area)) {
        put(p, 1, 2.0 * s / (c * sin(a)));
    }
    // Two angles and a side: law of sines.
    if let Some(a) = p[2] {
        let third = |x: f64| 180.0 - a - x;
        let angle_b = kb.or(kc.map(third));
        let angle_c = kc.or(kb.map(third));
        if let (Some(bb), Some(cc)) = (angle_b, angle_c) {
            if let Some(c) = p[0] {
                put(p, 1, c * sin(bb) / sin(cc));
            }
            if let Some(b) = p[1] {
                put(p, 0, b * sin(cc) / sin(bb));
            }
        }
    }
    // Perimeter with two sides known.
    if let Some(per) = kv(Role::Perimeter) {
        let a = kv(Role::Edge(1));
        if let (Some(c), Some(a)) = (p[0], a) {
            put(p, 1, per - c - a);
        }
        if let (Some(b), Some(a)) = (p[1], a) {
            put(p, 0, per - b - a);
        }
    }
}

/// With BC known, draw the two other sides and let the angle follow.
fn free(k: &Known) -> &'static [usize] {
    if known(k, Role::Edge(1)).is_some() {
        &[0, 1, 2]
    } else {
        &[0, 2, 1]
    }
}

fn draw(i: usize, _: &[Option<f64>], k: &Known, rng: &mut Rng) -> f64 {
    match i {
        2 => {
            // Keep the third angle sensible when another angle is known.
            let other = known(k, Role::Angle(1)).or(known(k, Role::Angle(2)));
            match other {
                Some(o) => rng.int(25, (150.0 - o).max(26.0) as i64) as f64,
                None => rng.int(35, 110) as f64,
            }
        }
        _ => side(rng),
    }
}

/// Angles of 12–150°, and each side shorter than the other two by 2 %.
fn valid(p: &[f64]) -> bool {
    let names = [Role::Angle(0), Role::Angle(1), Role::Angle(2)];
    let sides = [Role::Edge(0), Role::Edge(1), Role::Edge(2)];
    let ok_angles = names
        .iter()
        .all(|r| value(p, *r).is_some_and(|a| (12.0..=150.0).contains(&a)));
    let s: Vec<f64> = sides.iter().filter_map(|r| value(p, *r)).collect();
    ok_angles
        && s.len() == 3
        && s[0] + s[1] > s[2] * 1.02
        && s[1] + s[2] > s[0] * 1.02
        && s[0] + s[2] > s[1] * 1.02
}

fn geometry(p: &[f64]) -> LocalGeometry {
    let (c, b, a) = (p[0], p[1], p[2].to_radians());
    poly(
        vec![[0.0, 0.0], [c, 0.0], [b * a.cos(), b * a.sin()]],
        vec![],
    )
}

/// The area from three sides: the semi-perimeter, then Heron's formula.
fn heron(c: &mut Ctx) -> Result<f64, ExprError> {
    let (ab, bc, ca) = (c.x(Role::Edge(0)), c.x(Role::Edge(1)), c.x(Role::Edge(2)));
    let given = c.given_inputs();
    c.say(&format!(
        "{}, so the semi-perimeter is ",
        capitalise(&given)
    ));
    let s = c.calc(div(add(add(n(ab), n(bc)), n(ca)), n(2.0)))?;
    let out = c.with(|w| w.quantity(Role::Area));
    c.say(&format!(" and {out} is "));
    let e: Expr = sqrt(mul(
        mul(mul(n(s), sub(n(s), n(ab))), sub(n(s), n(bc))),
        sub(n(s), n(ca)),
    ));
    let v = c.calc(e)?;
    c.say(".");
    Ok(v)
}
