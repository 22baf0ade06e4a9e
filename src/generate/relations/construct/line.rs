//! Line-based relations: three points collinear, a point on a line, two lines
//! parallel, perpendicular, or intersecting but not perpendicular.

use super::{Construction, basic, parallel_frame, transversal};
use crate::generate::relations::sketch::*;
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

pub(super) static ALL: &[Construction] = &[
    basic("collinear", "midpoint", collinear_midpoint),
    basic(
        "collinear",
        "two_perpendiculars",
        collinear_two_perpendiculars,
    ),
    basic("collinear", "straight_angle", collinear_straight_angle),
    basic(
        "collinear",
        "angles_not_straight",
        collinear_angles_not_straight,
    ),
    basic("collinear", "right_angle", collinear_right_angle),
    basic("point_on_line", "perpendicular_bisector", on_line_bisector),
    basic(
        "point_on_line",
        "parallelogram_diagonals",
        on_line_parallelogram,
    ),
    basic("point_on_line", "parallel_lines", on_line_parallel_lines),
    basic("point_on_line", "perpendicular_foot", on_line_foot),
    basic(
        "parallel",
        "both_perpendicular",
        parallel_both_perpendicular,
    ),
    basic("parallel", "transitive", parallel_transitive),
    basic("parallel", "corresponding_angles", parallel_corresponding),
    basic("parallel", "alternate_angles", parallel_alternate),
    basic("parallel", "midline", parallel_midline),
    basic("perpendicular", "parallel_and_perpendicular", perp_parallel),
    basic("perpendicular", "isosceles_median", perp_isosceles),
    basic("perpendicular", "thales", perp_thales),
    basic("perpendicular", "angle_sum", perp_angle_sum),
    basic("intersecting", "angle_value", meet_angle_value),
    basic("intersecting", "parallel_transfer", meet_parallel_transfer),
    basic("intersecting", "triangle_angles", meet_triangle_angles),
];

/// A triangle ABC of a comfortable shape (every angle at least 25°).
pub(super) fn triangle(rng: &mut Rng, s: &mut Sketch) -> Option<[P; 3]> {
    let a = s.pt("A", [uniform(rng, 3.0, 7.0), uniform(rng, 0.0, 2.0)]);
    let b = s.pt("B", [uniform(rng, 0.0, 2.5), uniform(rng, 6.0, 8.0)]);
    let c = s.pt("C", [uniform(rng, 7.5, 10.0), uniform(rng, 6.0, 8.0)]);
    let ok = [angle_at(b, a, c), angle_at(a, b, c), angle_at(a, c, b)]
        .iter()
        .all(|x| *x >= 25.0);
    ok.then_some([a, b, c])
}

/// A triangle ABC whose apex A stands clearly off the middle of BC: the foot of
/// the altitude from A is a sixth to a third of BC from one end, so that the
/// median, the altitude and the angle bisector from A are told apart by eye.
pub(super) fn triangle_apart(rng: &mut Rng, s: &mut Sketch) -> Option<[P; 3]> {
    // A first, so that the points keep the order A, B, C.
    s.pt("A", [0.0, 0.0]);
    let b = s.pt("B", [uniform(rng, 0.0, 1.5), uniform(rng, 6.5, 8.0)]);
    let c = s.pt("C", [uniform(rng, 8.5, 10.0), uniform(rng, 6.5, 8.0)]);
    let t = uniform(rng, 0.15, 0.32);
    let t = if rng.chance(0.5) { t } else { 1.0 - t };
    let n = normal(b, c);
    let up = if n[1] < 0.0 { n } else { mul(n, -1.0) };
    let a = s.pt("A", add(lerp(b, c, t), mul(up, uniform(rng, 5.0, 7.0))));
    let ok = [angle_at(b, a, c), angle_at(a, b, c), angle_at(a, c, b)]
        .iter()
        .all(|x| *x >= 25.0);
    ok.then_some([a, b, c])
}

/// Triangle ABC, drawn, with ∠BAC = `x` and ∠ABC = `y` degrees (AB along the
/// bottom, C above it).
pub(super) fn triangle_with_angles(rng: &mut Rng, s: &mut Sketch, x: f64, y: f64) -> Option<()> {
    let a = s.pt("A", [uniform(rng, 0.0, 1.0), uniform(rng, 7.0, 8.0)]);
    let th = uniform(rng, -15.0, 15.0);
    let b = s.pt("B", go(a, th, uniform(rng, 8.0, 9.0)));
    let c = meet(a, go(a, th - x, 1.0), b, go(b, th + 180.0 + y, 1.0))?;
    s.pt("C", c);
    s.poly(ShapeKind::Triangle, "ABC");
    Some(())
}

/// Triangle ABC with ∠BAC = x and ∠ABC = y (whole degrees, x + y = 90): a right
/// angle at C. Returns (x, y).
pub(super) fn right_at_c(rng: &mut Rng, s: &mut Sketch) -> Option<(f64, f64)> {
    let x = degrees(rng, 25, 65);
    let y = 90.0 - x;
    triangle_with_angles(rng, s, x, y)?;
    Some((x, y))
}

/// A segment's unit normal.
fn normal(a: P, b: P) -> P {
    let d = sub(b, a);
    let l = d[0].hypot(d[1]);
    [-d[1] / l, d[0] / l]
}

fn collinear_midpoint(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, _] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.key(midpoint("M", "AB"));
    s.because("The midpoint of a segment lies on the segment, so A, M and B lie on one line.");
    s.done(ask_points("AMB"), "Collinear")
}

fn collinear_two_perpendiculars(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -30.0, 30.0);
    let b = s.pt("B", [uniform(rng, 3.0, 5.0), uniform(rng, 4.0, 6.0)]);
    s.pt("C", go(b, th, uniform(rng, 3.5, 5.0)));
    s.pt("A", go(b, th - 90.0, uniform(rng, 2.5, 4.0)));
    s.pt("D", go(b, th + 90.0, uniform(rng, 2.5, 4.0)));
    s.seg("BC");
    s.seg("AB");
    s.seg("BD");
    s.key(perpendicular("AB", "BC"));
    s.key(perpendicular("BD", "BC"));
    s.because("AB and BD are both perpendicular to BC at B, and through a point there is one perpendicular to a line: A, B and D are collinear.");
    s.done(ask_points("ABD"), "Collinear")
}

fn collinear_straight_angle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 35, 145);
    if (x - 90.0).abs() < 15.0 {
        return None;
    }
    let b = s.pt("B", [5.0, 5.0]);
    let up = uniform(rng, -110.0, -70.0);
    s.pt("D", go(b, up, uniform(rng, 3.0, 4.0)));
    s.pt("A", go(b, up - x, uniform(rng, 3.0, 4.0)));
    // C at 180 − x from BD, on the other side of BD: a straight line with A.
    s.pt("C", go(b, up + (180.0 - x), uniform(rng, 3.0, 4.0)));
    for l in ["BA", "BC", "BD"] {
        s.seg(l);
    }
    s.arc("ABD");
    s.arc("DBC");
    s.key(angle_value("ABD", x));
    s.key(angle_value("DBC", 180.0 - x));
    s.key(opposite_sides("AC", "BD"));
    s.because(format!(
        "A and C are on opposite sides of BD and ∠ABD + ∠DBC = {}° + {}° = 180°, so ∠ABC is a straight angle: A, B and C are collinear.",
        fmt(x),
        fmt(180.0 - x)
    ));
    s.done(ask_points("ABC"), "Collinear")
}

fn collinear_angles_not_straight(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let (x, y) = (degrees(rng, 30, 80), degrees(rng, 30, 80));
    if (x - y).abs() < 10.0 {
        return None;
    }
    let b = s.pt("B", [5.0, 6.0]);
    let up = uniform(rng, -100.0, -80.0);
    s.pt("D", go(b, up, 3.5));
    s.pt("A", go(b, up - x, uniform(rng, 3.0, 4.0)));
    s.pt("C", go(b, up + y, uniform(rng, 3.0, 4.0)));
    for l in ["BA", "BC", "BD"] {
        s.seg(l);
    }
    s.arc("ABD");
    s.arc("DBC");
    s.key(angle_value("ABD", x));
    s.key(angle_value("DBC", y));
    s.because(format!(
        "Whichever sides of BD A and C are on, ∠ABC is {}° + {}° or the difference {}°, never 180° or 0°: A, B and C are not collinear.",
        fmt(x),
        fmt(y),
        fmt((x - y).abs())
    ));
    s.done(ask_points("ABC"), "Not collinear")
}

fn collinear_right_angle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -40.0, 40.0);
    let b = s.pt("B", [uniform(rng, 2.0, 4.0), uniform(rng, 5.0, 7.0)]);
    s.pt("C", go(b, th, uniform(rng, 4.0, 6.0)));
    s.pt("A", go(b, th - 90.0, uniform(rng, 3.0, 5.0)));
    s.seg("AB");
    s.seg("BC");
    s.key(perpendicular("AB", "BC"));
    s.because("AB ⟂ BC: the lines BA and BC meet at B at a right angle, so C is not on line AB: A, B and C are not collinear.");
    s.done(ask_points("ABC"), "Not collinear")
}

fn on_line_bisector(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.5, 2.0), uniform(rng, 4.0, 6.0)]);
    let b = s.pt("B", [uniform(rng, 8.0, 9.5), uniform(rng, 4.0, 6.0)]);
    let m = s.pt("M", mid(a, b));
    let n = normal(a, b);
    s.pt("P", add(m, mul(n, uniform(rng, 2.5, 4.0))));
    s.pt("Q", add(m, mul(n, -uniform(rng, 2.5, 4.0))));
    for l in ["AB", "PA", "PB", "QA", "QB", "PQ"] {
        s.seg(l);
    }
    s.cond(midpoint("M", "AB"));
    s.key(equal_lengths("PA", "PB"));
    s.key(equal_lengths("QA", "QB"));
    s.because("P and Q are each equidistant from A and B, so line PQ is the perpendicular bisector of AB, which passes through the midpoint M.");
    s.done(ask_point_line("M", "PQ"), "On the line")
}

fn on_line_parallelogram(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.0, 1.5), uniform(rng, 6.0, 7.0)]);
    let b = s.pt("B", [uniform(rng, 6.0, 7.5), uniform(rng, 6.0, 7.0)]);
    let d = s.pt("D", [uniform(rng, 1.5, 3.5), uniform(rng, 1.0, 2.0)]);
    let c = s.pt("C", add(d, sub(b, a)));
    s.poly(ShapeKind::Parallelogram, "ABCD");
    s.pt("O", mid(a, c));
    s.seg("AC");
    s.seg("BD");
    s.key(parallel("AB", "DC"));
    s.key(parallel("AD", "BC"));
    s.key(midpoint("O", "AC"));
    s.because("ABCD is a parallelogram (both pairs of opposite sides parallel), and its diagonals bisect each other: the midpoint O of AC is also the midpoint of BD, so O is on line BD.");
    s.done(ask_point_line("O", "BD"), "On the line")
}

fn on_line_parallel_lines(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -25.0, 25.0);
    let a = s.pt("A", [uniform(rng, 0.5, 2.0), uniform(rng, 2.0, 3.0)]);
    let b = s.pt("B", go(a, th, uniform(rng, 6.0, 8.0)));
    let p = s.pt("P", mid(a, b));
    s.seg("AB");
    let off = add(p, mul(normal(a, b), uniform(rng, 2.5, 4.0)));
    s.pt("C", go(off, th, -uniform(rng, 2.5, 3.5)));
    s.pt("D", go(off, th, uniform(rng, 2.5, 3.5)));
    s.seg("CD");
    s.key(parallel("AB", "CD"));
    s.key(midpoint("P", "AB"));
    s.because("P lies on line AB, and AB ∥ CD are two distinct parallel lines, which share no point: P is not on line CD.");
    s.done(ask_point_line("P", "CD"), "Not on the line")
}

fn on_line_foot(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    let h = foot(a, b, c);
    if !(0.15..=0.85).contains(&(dist(b, h) / dist(b, c))) {
        return None;
    }
    s.pt("H", h);
    // No triangle: a figure in which A lies on line BC must stay drawable.
    s.seg("BC");
    s.seg("AH");
    let ah = (dist(a, h) * 10.0).round() / 10.0;
    // The stated length is the drawn one, rounded: move A onto it.
    let a2 = add(h, mul(sub(a, h), ah / dist(a, h)));
    s.pt("A", a2);
    s.key(between("H", "BC"));
    s.key(perpendicular("AH", "BC"));
    s.key(length("AH", ah));
    s.because(format!(
        "H is on line BC and AH = {} is not zero, with AH ⟂ BC: A is at distance {} from line BC, so A is not on it.",
        fmt(ah),
        fmt(ah)
    ));
    s.done(ask_point_line("A", "BC"), "Not on the line")
}

fn parallel_both_perpendicular(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -20.0, 20.0);
    let g = s.pt("G", [uniform(rng, 1.5, 2.5), uniform(rng, 4.0, 5.0)]);
    let h = s.pt("H", go(g, th, uniform(rng, 4.5, 6.0)));
    s.pt("A", go(g, th - 90.0, uniform(rng, 2.5, 3.5)));
    s.pt("B", go(g, th + 90.0, uniform(rng, 2.5, 3.5)));
    s.pt("C", go(h, th - 90.0, uniform(rng, 2.5, 3.5)));
    s.pt("D", go(h, th + 90.0, uniform(rng, 2.5, 3.5)));
    for l in ["GH", "AB", "CD"] {
        s.seg(l);
    }
    s.cond(between("G", "AB"));
    s.cond(between("H", "CD"));
    s.key(perpendicular("AB", "GH"));
    s.key(perpendicular("CD", "GH"));
    s.because("AB and CD are both perpendicular to GH, at the distinct points G and H: two lines perpendicular to the same line are parallel.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_transitive(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -30.0, 30.0);
    let ys = [
        uniform(rng, 1.0, 2.0),
        uniform(rng, 4.5, 5.5),
        uniform(rng, 8.0, 9.0),
    ];
    let mut order = ["AB", "CD", "EF"];
    rng.shuffle(&mut order);
    for (l, y) in order.iter().zip(ys) {
        let mut n = l.chars().map(String::from);
        let (p, q) = (n.next()?, n.next()?);
        let start = [uniform(rng, 0.5, 2.0), y];
        s.pt(&p, start);
        s.pt(&q, go(start, th, uniform(rng, 6.0, 8.0)));
        s.seg(l);
    }
    s.key(parallel("AB", "EF"));
    s.key(parallel("CD", "EF"));
    s.because("AB and CD are both parallel to EF, and two lines parallel to a third are parallel to each other.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_corresponding(rng: &mut Rng) -> Option<Built> {
    let (mut s, _) = parallel_frame(rng, 40, 140, 8.0)?;
    // ∠AGE is the angle at G between GA and GE (E before G): 180 − a.
    s.arc("AGE");
    s.arc("CHG");
    s.key(equal_angles("AGE", "CHG"));
    s.because("∠AGE and ∠CHG are corresponding angles (same side of the transversal EF, same position at G and H), and they are equal: AB ∥ CD.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_alternate(rng: &mut Rng) -> Option<Built> {
    let (mut s, _) = parallel_frame(rng, 40, 140, 8.0)?;
    s.arc("BGH");
    s.arc("CHG");
    s.key(equal_angles("BGH", "CHG"));
    s.because("∠BGH and ∠CHG are alternate interior angles (between AB and CD, on opposite sides of EF), and they are equal: AB ∥ CD.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_midline(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.pt("N", mid(a, c));
    s.seg("MN");
    s.key(midpoint("M", "AB"));
    s.cond(between("N", "AC"));
    s.key(midpoint("N", "AC"));
    s.because("M and N are the midpoints of AB and AC, so MN is a midline of triangle ABC, parallel to BC.");
    s.done(ask_lines("MN", "BC"), "Parallel")
}

fn perp_parallel(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -25.0, 25.0);
    let a = s.pt("A", [uniform(rng, 0.5, 1.5), uniform(rng, 2.0, 3.0)]);
    s.pt("B", go(a, th, uniform(rng, 7.0, 8.0)));
    let c = s.pt("C", [uniform(rng, 0.5, 1.5), uniform(rng, 6.5, 7.5)]);
    s.pt("D", go(c, th, uniform(rng, 7.0, 8.0)));
    let x = lerp(s.at("A"), s.at("B"), uniform(rng, 0.4, 0.6));
    s.pt("E", go(x, th + 90.0, -1.5));
    s.pt("F", go(x, th + 90.0, uniform(rng, 6.5, 7.5)));
    // The crossing, named and stated, so that the visual mode can mark the right
    // angle there.
    s.pt("K", x);
    for l in ["AB", "CD", "EF"] {
        s.seg(l);
    }
    s.cond(between("K", "AB"));
    s.cond(between("K", "EF"));
    s.key(parallel("AB", "CD"));
    s.key(perpendicular("EF", "AB"));
    s.because("EF ⟂ AB and AB ∥ CD: a line perpendicular to one of two parallel lines is perpendicular to the other, so EF ⟂ CD.");
    s.done(ask_lines("EF", "CD"), "Perpendicular")
}

fn perp_isosceles(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -20.0, 20.0);
    let a = s.pt("A", [uniform(rng, 0.5, 1.5), uniform(rng, 7.0, 8.0)]);
    let b = s.pt("B", go(a, th, uniform(rng, 7.0, 8.0)));
    let m = s.pt("M", mid(a, b));
    let h = uniform(rng, 4.5, 6.5);
    s.pt("C", go(m, th - 90.0, h));
    s.poly(ShapeKind::Triangle, "ABC");
    s.seg("CM");
    s.key(midpoint("M", "AB"));
    s.key(equal_lengths("CA", "CB"));
    s.because("CA = CB makes triangle ABC isosceles with apex C, and the median from the apex to the midpoint M of the base is also its altitude: CM ⟂ AB.");
    s.done(ask_lines("CM", "AB"), "Perpendicular")
}

fn perp_thales(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = (uniform(rng, 3.5, 4.5) * 2.0).round() / 2.0;
    let o = s.pt("O", [5.0, 5.0]);
    let th = uniform(rng, -30.0, 30.0);
    s.pt("A", go(o, th + 180.0, r));
    s.pt("B", go(o, th, r));
    let phi = th - degrees(rng, 35, 145);
    s.pt("C", go(o, phi, r));
    s.circle("O", r);
    s.seg("AB");
    s.seg("AC");
    s.seg("BC");
    s.cond(on_circle("A", "O", r));
    s.key(midpoint("O", "AB"));
    s.key(on_circle("C", "O", r));
    s.because("O is the midpoint of AB and OA is a radius, so AB is a diameter; C is on the circle, so ∠ACB is an angle in a semicircle, 90° (Thales): AC ⟂ BC.");
    s.done(ask_lines("AC", "BC"), "Perpendicular")
}

fn perp_angle_sum(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let (x, y) = right_at_c(rng, &mut s)?;
    s.key(angle_value("BAC", x));
    s.key(angle_value("ABC", y));
    s.because(format!(
        "The angles of triangle ABC sum to 180°, so ∠ACB = 180° − {}° − {}° = 90°: AC ⟂ BC.",
        fmt(x),
        fmt(y)
    ));
    s.done(ask_lines("AC", "BC"), "Perpendicular")
}

fn meet_angle_value(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = oblique(rng, 25, 155, 12.0)?;
    let b = s.pt("B", [uniform(rng, 2.0, 4.0), uniform(rng, 5.0, 7.0)]);
    let th = uniform(rng, -20.0, 20.0);
    s.pt("C", go(b, th, uniform(rng, 5.0, 6.0)));
    s.pt("A", go(b, th - x, uniform(rng, 4.0, 5.0)));
    s.seg("BA");
    s.seg("BC");
    s.arc("ABC");
    s.key(angle_value("ABC", x));
    s.because(format!(
        "Lines BA and BC meet at B at {}°, which is not 90°: they intersect but are not perpendicular.",
        fmt(x)
    ));
    s.done(ask_lines("BA", "BC"), "Intersecting but not perpendicular")
}

fn meet_parallel_transfer(rng: &mut Rng) -> Option<Built> {
    let a = oblique(rng, 35, 145, 15.0)?;
    let mut s = transversal(rng, a, a);
    s.arc("AGE");
    s.key(angle_value("AGE", 180.0 - a));
    s.key(parallel("AB", "CD"));
    s.because(format!(
        "AB ∥ CD, so EF crosses CD at the same angle as AB: {}°, not 90°. EF and CD intersect but are not perpendicular.",
        fmt(180.0 - a)
    ));
    s.done(ask_lines("EF", "CD"), "Intersecting but not perpendicular")
}

fn meet_triangle_angles(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 30, 70);
    let y = degrees(rng, 30, 70);
    if (x + y - 90.0).abs() < 12.0 {
        return None;
    }
    triangle_with_angles(rng, &mut s, x, y)?;
    s.key(angle_value("BAC", x));
    s.key(angle_value("ABC", y));
    s.because(format!(
        "The angles of triangle ABC sum to 180°, so AC and BC meet at C at 180° − {}° − {}° = {}°, not 90°: they intersect but are not perpendicular.",
        fmt(x),
        fmt(y),
        fmt(180.0 - x - y)
    ));
    s.done(ask_lines("AC", "BC"), "Intersecting but not perpendicular")
}

/// A number as the texts print it.
pub(super) fn fmt(v: f64) -> String {
    crate::decimal::fmt_shortest_f64(v)
}
