//! Advanced items (GeomRel §2.3): two or three conditions from different pools,
//! merged as its Algorithm 1 merges them — the element one condition yields (a
//! midline, a pair of parallel lines, a right angle) is the element the next one
//! takes — so the asked relation is reachable only through the chain.

use super::line::{fmt, triangle};
use super::shape::{parallel_to_tangent, point_on_circle};
use super::{Construction, parallel_frame};
use crate::generate::relations::item::{Asked, Subset};
use crate::generate::relations::sketch::*;
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

const fn chain(
    chain: &'static [&'static str],
    name: &'static str,
    build: fn(&mut Rng) -> Option<Built>,
) -> Construction {
    // The asked relation is the chain's last.
    let relation = chain[chain.len() - 1];
    Construction {
        relation,
        name,
        subset: Subset::Advanced,
        chain,
        build,
    }
}

pub(super) static ALL: &[Construction] = &[
    chain(
        &["midline", "parallel", "perpendicular"],
        "midline_then_perpendicular",
        midline_perpendicular,
    ),
    chain(
        &["corresponding", "parallel", "supplementary"],
        "equal_corresponding_then_consecutive",
        corresponding_supplementary,
    ),
    chain(
        &["diameter", "perpendicular", "parallel"],
        "thales_then_parallel",
        thales_parallel,
    ),
    chain(
        &["line_circle_tangent", "perpendicular"],
        "tangent_then_perpendicular",
        tangent_perpendicular,
    ),
    chain(
        &["median", "point_inside"],
        "median_then_inside",
        median_inside,
    ),
    chain(
        &["parallel", "perpendicular", "collinear"],
        "perpendiculars_then_collinear",
        perpendiculars_collinear,
    ),
    chain(
        &["parallel", "median", "point_on_line"],
        "parallelogram_then_on_diagonal",
        parallelogram_on_line,
    ),
    chain(
        &["supplementary", "parallel", "perpendicular"],
        "consecutive_then_perpendicular",
        supplementary_perpendicular,
    ),
    chain(
        &["angle_bisector", "perpendicular"],
        "isosceles_bisector_then_perpendicular",
        bisector_perpendicular,
    ),
    chain(
        &["line_circle_tangent", "parallel", "line_circle_disjoint"],
        "tangent_then_disjoint",
        tangent_disjoint,
    ),
    chain(
        &["midline", "point_inside"],
        "midline_then_inside",
        midline_inside,
    ),
    chain(
        &["vertical", "complementary"],
        "vertical_then_complementary",
        vertical_complementary,
    ),
];

/// Circle O (radius 3 to 4 in halves), drawn, and the point T on it: the radius,
/// O, T's direction from O, and T.
fn circle_and_point(rng: &mut Rng, s: &mut Sketch) -> (f64, P, f64, P) {
    let r = (uniform(rng, 3.0, 4.0) * 2.0).round() / 2.0;
    s.pt("O", [5.0, 5.0]);
    s.circle("O", r);
    let (o, t, tt) = point_on_circle(rng, s, r);
    (r, o, t, tt)
}

fn flip(rng: &mut Rng) -> f64 {
    if rng.chance(0.5) { 1.0 } else { -1.0 }
}

fn midline_perpendicular(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.pt("N", mid(a, c));
    s.seg("MN");
    let e = s.pt("E", lerp(b, c, uniform(rng, 0.3, 0.7)));
    s.pt("F", go(e, heading(b, c) - 90.0, uniform(rng, 7.0, 8.0)));
    s.seg("EF");
    s.key(midpoint("M", "AB"));
    s.key(perpendicular("EF", "BC"));
    s.cond(between("N", "AC"));
    s.key(midpoint("N", "AC"));
    s.because(
        "M and N are the midpoints of AB and AC, so MN is a midline of triangle ABC and MN ∥ BC.",
    );
    s.because("EF ⟂ BC and MN ∥ BC, so EF ⟂ MN.");
    s.done(ask_lines("MN", "EF"), "Perpendicular")
}

fn corresponding_supplementary(rng: &mut Rng) -> Option<Built> {
    let (mut s, _) = parallel_frame(rng, 40, 140, 10.0)?;
    s.arc("AGE");
    s.arc("BGH");
    s.arc("DHG");
    s.key(equal_angles("AGE", "CHG"));
    s.because("∠AGE and ∠CHG are equal corresponding angles, so AB ∥ CD.");
    s.because("With AB ∥ CD, the consecutive interior angles ∠BGH and ∠DHG sum to 180°: they are supplementary.");
    s.done(ask_measures("BGH", "DHG"), "Supplementary")
}

fn thales_parallel(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = (uniform(rng, 3.5, 4.5) * 2.0).round() / 2.0;
    let o = s.pt("O", [5.0, 5.0]);
    s.circle("O", r);
    let t = uniform(rng, -30.0, 30.0);
    s.pt("A", go(o, t + 180.0, r));
    let b = s.pt("B", go(o, t, r));
    let c = s.pt("C", go(o, t - degrees(rng, 60, 120), r));
    // BD ⟂ BC at B.
    s.pt(
        "D",
        go(b, heading(b, c) + 90.0 * flip(rng), uniform(rng, 3.0, 4.0)),
    );
    for l in ["AB", "AC", "BC", "BD"] {
        s.seg(l);
    }
    s.key(midpoint("O", "AB"));
    s.cond(on_circle("A", "O", r));
    s.key(perpendicular("BD", "BC"));
    s.key(on_circle("C", "O", r));
    s.because("AB is a diameter (O is its midpoint and A is on the circle), and C is on the circle, so ∠ACB = 90°: AC ⟂ BC.");
    s.because("AC and BD are both perpendicular to BC, so AC ∥ BD.");
    s.done(ask_lines("AC", "BD"), "Parallel")
}

fn tangent_perpendicular(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let (r, o, t, tt) = circle_and_point(rng, &mut s);
    s.pt("A", go(tt, t + 90.0, uniform(rng, 3.0, 4.0)));
    s.pt("B", go(tt, t - 90.0, uniform(rng, 3.0, 4.0)));
    let c = s.pt(
        "C",
        go(o, t + 180.0 + uniform(rng, 50.0, 70.0) * flip(rng), r * 1.3),
    );
    s.pt("D", go(c, t, uniform(rng, 4.0, 5.0)));
    for l in ["AB", "OT", "CD"] {
        s.seg(l);
    }
    s.cond(on_circle("T", "O", r));
    s.cond(between("T", "AB"));
    s.key(parallel("CD", "OT"));
    s.key(tangent("AB", "O", r));
    s.because("AB is tangent to the circle at T, so AB ⟂ OT.");
    s.because("CD ∥ OT, so CD ⟂ AB.");
    s.done(ask_lines("CD", "AB"), "Perpendicular")
}

fn median_inside(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    let m = s.pt("M", mid(b, c));
    s.seg("AM");
    s.pt("P", mid(a, m));
    s.key(midpoint("M", "BC"));
    s.cond(on_line("P", "AM"));
    s.key(midpoint("P", "AM"));
    s.because("M is the midpoint of BC, so the median AM runs from A through the triangle's interior to side BC.");
    s.because("P is the midpoint of AM, strictly between its ends: P is inside triangle ABC.");
    s.done(
        Asked::PointFigure {
            point: "P".into(),
            figure: polygon("ABC"),
        },
        "Inside",
    )
}

fn perpendiculars_collinear(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -20.0, 20.0);
    let a = s.pt("A", [uniform(rng, 0.5, 1.5), uniform(rng, 4.0, 5.0)]);
    let b = s.pt("B", go(a, th, uniform(rng, 4.5, 5.5)));
    let c = s.pt("C", [uniform(rng, 0.5, 1.5), uniform(rng, 8.0, 9.0)]);
    let d = s.pt("D", go(c, th, uniform(rng, 9.0, 10.0)));
    let e = foot(b, c, d);
    s.pt("E", e);
    s.pt("F", go(b, th - 90.0, uniform(rng, 2.5, 3.5)));
    for l in ["AB", "CD", "BE", "BF"] {
        s.seg(l);
    }
    s.cond(between("E", "CD"));
    s.key(perpendicular("BE", "CD"));
    s.key(perpendicular("BF", "AB"));
    s.key(parallel("AB", "CD"));
    s.because("AB ∥ CD and BE ⟂ CD, so BE ⟂ AB.");
    s.because("BE and BF are both perpendicular to AB at B, so they lie on one line: E, B and F are collinear.");
    s.done(ask_points("EBF"), "Collinear")
}

fn parallelogram_on_line(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.pt("D", add(b, sub(c, a)));
    s.pt("M", mid(b, c));
    for l in ["AB", "AC", "BD", "CD", "BC", "AD"] {
        s.seg(l);
    }
    s.key(parallel("AB", "CD"));
    s.key(midpoint("M", "BC"));
    s.key(parallel("AC", "BD"));
    s.because("AB ∥ CD and AC ∥ BD make ABDC a parallelogram, whose diagonals AD and BC bisect each other.");
    s.because("So AD passes through the midpoint M of BC (AM is a median of triangle ABC): M is on line AD.");
    s.done(ask_point_line("M", "AD"), "On the line")
}

fn supplementary_perpendicular(rng: &mut Rng) -> Option<Built> {
    let (mut s, a) = parallel_frame(rng, 50, 130, 10.0)?;
    // KL ⟂ AB, crossing both lines away from the transversal.
    let ga = s.at("A");
    let g = s.at("G");
    let k = s.pt("K", lerp(g, ga, 0.75));
    let ab = heading(s.at("B"), ga);
    let l = go(k, ab + 90.0, 1.0);
    // L just past where KL meets CD.
    let on_cd = meet(k, l, s.at("C"), s.at("D"))?;
    s.pt("L", lerp(k, on_cd, 1.25));
    s.seg("KL");
    s.arc("BGH");
    s.arc("DHG");
    s.key(perpendicular("KL", "AB"));
    s.key(angle_value("BGH", 180.0 - a));
    s.key(angle_value("DHG", a));
    s.because(format!(
        "∠BGH + ∠DHG = {}° + {}° = 180°, and they are consecutive interior angles at EF, so AB ∥ CD.",
        fmt(180.0 - a),
        fmt(a)
    ));
    s.because("KL ⟂ AB and AB ∥ CD, so KL ⟂ CD.");
    s.done(ask_lines("KL", "CD"), "Perpendicular")
}

fn bisector_perpendicular(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let c = s.pt("C", [uniform(rng, 4.0, 6.0), uniform(rng, 0.5, 1.5)]);
    let axis = uniform(rng, 80.0, 100.0);
    let x = degrees(rng, 20, 35);
    let la = uniform(rng, 6.5, 7.5);
    let a = s.pt("A", go(c, axis + x, la));
    let b = s.pt("B", go(c, axis - x, la));
    let d = meet(c, go(c, axis, 1.0), a, b)?;
    s.pt("D", d);
    s.poly(ShapeKind::Triangle, "ABC");
    s.seg("CD");
    s.arc("ACD");
    s.arc("DCB");
    s.cond(between("D", "AB"));
    s.key(equal_angles("ACD", "DCB"));
    s.key(equal_lengths("CA", "CB"));
    s.because(
        "CA = CB makes triangle ABC isosceles, and CD bisects the apex angle ∠ACB (∠ACD = ∠DCB).",
    );
    s.because("The bisector of an isosceles triangle's apex angle is also its altitude: CD ⟂ AB.");
    s.done(ask_lines("CD", "AB"), "Perpendicular")
}

fn tangent_disjoint(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let (r, o, t, tt) = circle_and_point(rng, &mut s);
    parallel_to_tangent(rng, &mut s, (o, t, tt, r));
    s.seg("CD");
    s.seg("AB");
    s.key(tangent("CD", "O", r));
    s.key(parallel("AB", "CD"));
    s.key(opposite_sides("OA", "CD"));
    s.because("CD is tangent, so the whole circle lies on O's side of CD.");
    s.because("AB ∥ CD lies on the other side of CD, so it does not meet the circle: disjoint.");
    s.done(
        Asked::LineCircle {
            line: line("AB"),
            circle: circle("O", r),
        },
        "Disjoint",
    )
}

fn midline_inside(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    let m = s.pt("M", mid(a, b));
    let n = s.pt("N", mid(a, c));
    s.seg("MN");
    s.pt("P", lerp(m, n, uniform(rng, 0.35, 0.65)));
    s.key(midpoint("M", "AB"));
    s.key(midpoint("N", "AC"));
    s.cond(on_line("P", "MN"));
    s.key(between("P", "MN"));
    s.because(
        "MN joins the midpoints of AB and AC: a midline, inside triangle ABC between its ends.",
    );
    s.because("P is strictly between M and N, so P is inside triangle ABC.");
    s.done(
        Asked::PointFigure {
            point: "P".into(),
            figure: polygon("ABC"),
        },
        "Inside",
    )
}

fn vertical_complementary(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 30, 60);
    let o = s.pt("O", [5.0, 5.0]);
    let t = uniform(rng, -20.0, 20.0);
    // AB along t; C at x from A's ray; D opposite C.
    s.pt("A", go(o, t + 180.0, 4.0));
    s.pt("B", go(o, t, 4.0));
    s.pt("C", go(o, t + 180.0 + x, 4.0));
    s.pt("D", go(o, t + x, 4.0));
    s.pt("E", go(o, t - (90.0 - x), 3.5));
    for l in ["AB", "CD", "OE"] {
        s.seg(l);
    }
    s.arc("AOC");
    s.arc("BOE");
    s.cond(between("O", "AB"));
    s.key(angle_value("AOC", x));
    s.key(angle_value("BOE", 90.0 - x));
    s.cond(on_line("O", "CD"));
    s.key(between("O", "CD"));
    s.because(format!(
        "Lines AB and CD cross at O, so ∠BOD and ∠AOC are vertical angles: ∠BOD = {}°.",
        fmt(x)
    ));
    s.because(format!(
        "∠BOD + ∠BOE = {}° + {}° = 90°: they are complementary.",
        fmt(x),
        fmt(90.0 - x)
    ));
    s.done(ask_measures("BOD", "BOE"), "Complementary")
}
