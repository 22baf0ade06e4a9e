//! What the four rectangle composites share: parameters `[L, d]`, Edge(0) the other
//! side (two edges of length L) and Edge(1) the side d whose parallel carries the
//! added or removed part (a semi-circle on d as diameter, or an equilateral triangle
//! of side d); fitting, drawing and their formulas' worked sentences.

use super::SQRT3;
use super::fit::{Known, known, ratio_ok, set, side};
use super::outline::{LocalContour, LocalGeometry, Seg, poly};
use crate::generate::expr::{self, Expr, ExprError, PI, add, div, mul, n, sub};
use crate::generate::formulas::{Ctx, capitalise};
use crate::generate::rng::Rng;
use crate::generate::shapes::Role;

/// Edge groups: the two sides of length L, then the side d.
pub(super) const EDGES: &[&[(usize, usize)]] = &[&[(0, 1), (2, 3)], &[(1, 2)]];

/// The part added or removed: its area per d², its outline per d (besides 2L).
#[derive(Clone, Copy)]
pub(super) struct Part {
    area: f64,
    perimeter: f64,
}

pub(super) const SEMICIRCLE: Part = Part {
    area: PI / 8.0,
    perimeter: 1.0 + PI / 2.0,
};

pub(super) const EQUILATERAL: Part = Part {
    area: SQRT3 / 4.0,
    perimeter: 3.0,
};

/// Fills L and d from the knowns; `sign` is 1 for an added part, −1 for a removed one.
pub(super) fn derive(k: &Known, p: &mut [Option<f64>], sign: f64, part: Part) {
    let kv = |r| known(k, r);
    set(p, 0, kv(Role::Edge(0)));
    set(p, 1, kv(Role::Edge(1)));
    let (ka, kp) = (part.area, part.perimeter);
    if let Some(d) = p[1] {
        set(p, 0, kv(Role::Area).map(|a| (a - sign * ka * d * d) / d));
        set(p, 0, kv(Role::Perimeter).map(|v| (v - kp * d) / 2.0));
    }
    if let Some(l) = p[0] {
        set(p, 1, kv(Role::Perimeter).map(|v| (v - 2.0 * l) / kp));
    }
}

/// d of 5–14; L long enough to leave room for the part cut out of the far side.
pub(super) fn draw(i: usize, p: &[Option<f64>], _: &Known, rng: &mut Rng) -> f64 {
    match i {
        1 => rng.int(5, 14) as f64,
        0 => {
            let d = p[1].unwrap_or(8.0);
            rng.int((d + 2.0) as i64, (d * 2.5 + 6.0) as i64) as f64
        }
        _ => side(rng),
    }
}

/// Neither side more than 6 times the other.
pub(super) fn valid(p: &[f64]) -> bool {
    ratio_ok(p[0], p[1])
}

/// The rectangle A B C D with the far side D→A replaced by an arc bulging out
/// (`outward`) or in.
pub(super) fn with_semicircle(p: &[f64], outward: bool) -> LocalGeometry {
    let (l, d) = (p[0], p[1]);
    LocalGeometry {
        vertices: vec![[0.0, 0.0], [l, 0.0], [l, d], [0.0, d]],
        contours: vec![LocalContour {
            start: [0.0, 0.0],
            segs: vec![
                Seg::Line([l, 0.0]),
                Seg::Line([l, d]),
                Seg::Line([0.0, d]),
                Seg::Arc {
                    to: [0.0, 0.0],
                    center: [0.0, d / 2.0],
                    ccw: outward,
                },
            ],
        }],
        right_angles: vec![],
    }
}

/// The rectangle A B C D with a fifth vertex E, the apex of the triangle on D→A,
/// outside (`outward`) or inside.
pub(super) fn with_equilateral(p: &[f64], outward: bool) -> LocalGeometry {
    let (l, d) = (p[0], p[1]);
    let apex = d * SQRT3 / 2.0;
    let x = if outward { -apex } else { apex };
    poly(
        vec![[0.0, 0.0], [l, 0.0], [l, d], [0.0, d], [x, d / 2.0]],
        vec![],
    )
}

/// The other side from the area: `OtherSide * d ± k = A` (paper table 3 (c)).
pub(super) fn side_from_area(c: &mut Ctx, extra: Expr, plus: bool) -> Result<f64, ExprError> {
    let (a, d) = (c.x(Role::Area), c.x(Role::Edge(1)));
    let given = c.given_inputs();
    let (op, inv) = if plus {
        ("+", sub as fn(Expr, Expr) -> Expr)
    } else {
        ("-", add as fn(Expr, Expr) -> Expr)
    };
    c.say(&format!(
        "{}, so OtherSide * {} {op} {extra} = {}, so OtherSide * {} = ",
        capitalise(&given),
        expr::fmt_num(d),
        expr::fmt_num(a),
        expr::fmt_num(d)
    ));
    let rest = c.calc(inv(n(a), extra))?;
    let out = c.with(|w| w.quantity(Role::Edge(0)));
    c.say(&format!(". Therefore, {out} is "));
    let v = c.calc(div(n(rest), n(d)))?;
    c.say(".");
    Ok(v)
}

/// The other side from the perimeter: `2 * OtherSide + k = P` (table 3 (e)).
pub(super) fn side_from_perimeter(c: &mut Ctx, semi: bool) -> Result<f64, ExprError> {
    let (p, d) = (c.x(Role::Perimeter), c.x(Role::Edge(1)));
    let ds = expr::fmt_num(d);
    let shape = c.with(|w| w.shape());
    let known: Expr = if semi {
        add(n(d), div(mul(n(d), n(PI)), n(2.0)))
    } else {
        mul(n(3.0), n(d))
    };
    if semi {
        c.say(&format!(
            "The diameter of the semi-circle in {shape} is equal to the side of the rectangle with length {ds} so the shape has two sides with equal but unknown lengths, one side with length {ds}, and one semi-circle arc with diameter {ds}. So the perimeter is 2 * OtherSide + {known} = {}. So 2 * OtherSide = ",
            expr::fmt_num(p)
        ));
    } else {
        c.say(&format!(
            "The side of the equilateral triangle in {shape} is equal to the side of the rectangle with length {ds} so the shape has two rectangle sides with equal but unknown lengths, one rectangle side with length {ds}, and two triangle sides with length {ds}. The perimeter of the shape is {} so 2 * OtherSide + {known} = {}. So 2 * OtherSide = ",
            expr::fmt_num(p),
            expr::fmt_num(p)
        ));
    }
    let rest_expr = if semi {
        sub(sub(n(p), n(d)), div(mul(n(d), n(PI)), n(2.0)))
    } else {
        sub(n(p), mul(n(3.0), n(d)))
    };
    let rest = c.calc(rest_expr)?;
    let out = c.with(|w| w.quantity(Role::Edge(0)));
    c.say(&format!(". Therefore, {out} is "));
    let v = c.calc(div(n(rest), n(2.0)))?;
    c.say(".");
    Ok(v)
}

/// The side carrying the part, from the perimeter and the other side.
pub(super) fn d_from_perimeter(c: &mut Ctx, semi: bool) -> Result<f64, ExprError> {
    let (p, l) = (c.x(Role::Perimeter), c.x(Role::Edge(0)));
    let given = c.given_inputs();
    let out = c.with(|w| w.quantity(Role::Edge(1)));
    let k = if semi {
        add(n(1.0), div(n(PI), n(2.0)))
    } else {
        n(3.0)
    };
    let what = if semi {
        "the perimeter is 2 * OtherSide + Side + Side * 3.14 / 2"
    } else {
        "the perimeter is 2 * OtherSide + 3 * Side"
    };
    c.say(&format!("{}; {what}, so {out} is ", capitalise(&given)));
    let v = c.calc(div(sub(n(p), mul(n(2.0), n(l))), k))?;
    c.say(".");
    Ok(v)
}
