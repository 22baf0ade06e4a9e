//! Line-based relations: three points collinear, a point on a line, two lines
//! parallel, perpendicular, or intersecting but not perpendicular.

use super::{Construction, basic, parallel_frame, transversal};
use crate::generate::relations::sketch::*;
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

pub(super) static ALL: &[Construction] = &[
    basic("collinear", "midpoint", true, collinear_midpoint),
    basic(
        "collinear",
        "two_perpendiculars",
        true,
        collinear_two_perpendiculars,
    ),
    basic(
        "collinear",
        "straight_angle",
        true,
        collinear_straight_angle,
    ),
    basic(
        "collinear",
        "angles_not_straight",
        false,
        collinear_angles_not_straight,
    ),
    basic("collinear", "right_angle", false, collinear_right_angle),
    basic(
        "point_on_line",
        "perpendicular_bisector",
        true,
        on_line_bisector,
    ),
    basic(
        "point_on_line",
        "parallelogram_diagonals",
        true,
        on_line_parallelogram,
    ),
    basic(
        "point_on_line",
        "parallel_lines",
        true,
        on_line_parallel_lines,
    ),
    basic("point_on_line", "perpendicular_foot", false, on_line_foot),
    basic(
        "parallel",
        "both_perpendicular",
        true,
        parallel_both_perpendicular,
    ),
    basic("parallel", "transitive", true, parallel_transitive),
    basic(
        "parallel",
        "corresponding_angles",
        true,
        parallel_corresponding,
    ),
    basic("parallel", "alternate_angles", false, parallel_alternate),
    basic("parallel", "midline", true, parallel_midline),
    basic(
        "perpendicular",
        "parallel_and_perpendicular",
        true,
        perp_parallel,
    ),
    basic("perpendicular", "isosceles_median", true, perp_isosceles),
    basic("perpendicular", "thales", true, perp_thales),
    basic("perpendicular", "angle_sum", true, perp_angle_sum),
    basic("intersecting", "angle_value", false, meet_angle_value),
    basic(
        "intersecting",
        "parallel_transfer",
        true,
        meet_parallel_transfer,
    ),
    basic(
        "intersecting",
        "triangle_angles",
        true,
        meet_triangle_angles,
    ),
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

/// Triangle ABC with ∠BAC = x and ∠ABC = y (whole degrees): x + y = 90, a right
/// angle at C, or, when `broken`, at least 12° off it. Returns (x, y).
pub(super) fn right_at_c(rng: &mut Rng, s: &mut Sketch, broken: bool) -> Option<(f64, f64)> {
    let x = degrees(rng, 25, 65);
    let y = if broken {
        degrees(rng, 30, 75)
    } else {
        90.0 - x
    };
    if broken && (x + y - 90.0).abs() < 12.0 {
        return None;
    }
    triangle_with_angles(rng, s, x, y)?;
    Some((x, y))
}

/// A segment's unit normal.
fn normal(a: P, b: P) -> P {
    let d = sub(b, a);
    let l = d[0].hypot(d[1]);
    [-d[1] / l, d[0] / l]
}

/// A whole number of degrees in `lo..=hi`, either sign.
fn signed(rng: &mut Rng, lo: i64, hi: i64) -> f64 {
    let d = degrees(rng, lo, hi);
    if rng.chance(0.5) { d } else { -d }
}

fn collinear_midpoint(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, _] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    if broken {
        let m = add(mid(a, b), mul(normal(a, b), uniform(rng, 1.2, 2.0)));
        s.pt("M", m);
        s.seg("MA");
        s.seg("MB");
        s.cond(equal_lengths("MA", "MB"));
        s.because("MA = MB puts M on the perpendicular bisector of AB, which crosses line AB at one point only: M may or may not be on it.");
        return s.unsettled(ask_points("AMB"), "Collinear");
    }
    s.pt("M", mid(a, b));
    s.cond(midpoint("M", "AB"));
    s.because("The midpoint of a segment lies on the segment, so A, M and B lie on one line.");
    s.done(ask_points("AMB"), "Collinear")
}

fn collinear_two_perpendiculars(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -30.0, 30.0);
    let b = s.pt("B", [uniform(rng, 3.0, 5.0), uniform(rng, 4.0, 6.0)]);
    s.pt("C", go(b, th, uniform(rng, 3.5, 5.0)));
    s.pt("A", go(b, th - 90.0, uniform(rng, 2.5, 4.0)));
    s.seg("BC");
    s.seg("AB");
    s.cond(perpendicular("AB", "BC"));
    if broken {
        let phi = th + signed(rng, 20, 50);
        let e = s.pt("E", [uniform(rng, 7.5, 9.0), uniform(rng, 8.0, 9.0)]);
        s.pt("F", go(e, phi, 3.0));
        s.pt("D", go(b, phi + 90.0, uniform(rng, 2.5, 4.0)));
        s.seg("EF");
        s.seg("BD");
        s.cond(perpendicular("BD", "EF"));
        s.because("BD ⟂ EF says nothing about BD and BC, as nothing relates EF to BC: D may or may not lie on line AB.");
        return s.unsettled(ask_points("ABD"), "Collinear");
    }
    s.pt("D", go(b, th + 90.0, uniform(rng, 2.5, 4.0)));
    s.seg("BD");
    s.cond(perpendicular("BD", "BC"));
    s.because("AB and BD are both perpendicular to BC at B, and through a point there is one perpendicular to a line: A, B and D are collinear.");
    s.done(ask_points("ABD"), "Collinear")
}

fn collinear_straight_angle(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 35, 145);
    if (x - 90.0).abs() < 15.0 {
        return None;
    }
    let b = s.pt("B", [5.0, 5.0]);
    let up = uniform(rng, -110.0, -70.0);
    s.pt("D", go(b, up, uniform(rng, 3.0, 4.0)));
    let ba = up - x;
    s.pt("A", go(b, ba, uniform(rng, 3.0, 4.0)));
    // C at 180 − x from BD: on the other side of BD (a straight line with A), or,
    // when broken, on A's side.
    let bc = if broken {
        up - (180.0 - x)
    } else {
        up + (180.0 - x)
    };
    s.pt("C", go(b, bc, uniform(rng, 3.0, 4.0)));
    for l in ["BA", "BC", "BD"] {
        s.seg(l);
    }
    s.arc("ABD");
    s.arc("DBC");
    s.cond(angle_value("ABD", x));
    s.cond(angle_value("DBC", 180.0 - x));
    if broken {
        s.because("∠ABD + ∠DBC = 180°, but with A and C on the same side of BD that makes no straight angle: without knowing the sides, A, B and C may or may not be collinear.");
        return s.unsettled(ask_points("ABC"), "Collinear");
    }
    s.cond(opposite_sides("AC", "BD"));
    s.because(format!(
        "A and C are on opposite sides of BD and ∠ABD + ∠DBC = {}° + {}° = 180°, so ∠ABC is a straight angle: A, B and C are collinear.",
        fmt(x),
        fmt(180.0 - x)
    ));
    s.done(ask_points("ABC"), "Collinear")
}

fn collinear_angles_not_straight(rng: &mut Rng, _: bool) -> Option<Built> {
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
    s.cond(angle_value("ABD", x));
    s.cond(angle_value("DBC", y));
    s.because(format!(
        "Whichever sides of BD A and C are on, ∠ABC is {}° + {}° or the difference {}°, never 180° or 0°: A, B and C are not collinear.",
        fmt(x),
        fmt(y),
        fmt((x - y).abs())
    ));
    s.done(ask_points("ABC"), "Not collinear")
}

fn collinear_right_angle(rng: &mut Rng, _: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -40.0, 40.0);
    let b = s.pt("B", [uniform(rng, 2.0, 4.0), uniform(rng, 5.0, 7.0)]);
    s.pt("C", go(b, th, uniform(rng, 4.0, 6.0)));
    s.pt("A", go(b, th - 90.0, uniform(rng, 3.0, 5.0)));
    s.seg("AB");
    s.seg("BC");
    s.cond(perpendicular("AB", "BC"));
    s.because("AB ⟂ BC: the lines BA and BC meet at B at a right angle, so C is not on line AB: A, B and C are not collinear.");
    s.done(ask_points("ABC"), "Not collinear")
}

fn on_line_bisector(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.5, 2.0), uniform(rng, 4.0, 6.0)]);
    let b = s.pt("B", [uniform(rng, 8.0, 9.5), uniform(rng, 4.0, 6.0)]);
    let m = s.pt("M", mid(a, b));
    let n = normal(a, b);
    s.pt("P", add(m, mul(n, uniform(rng, 2.5, 4.0))));
    s.cond(midpoint("M", "AB"));
    s.cond(equal_lengths("PA", "PB"));
    let q = add(m, mul(n, -uniform(rng, 2.5, 4.0)));
    for l in ["AB", "PA", "PB", "QA", "QB", "PQ"] {
        if l == "QA" {
            if broken {
                let along = sub(b, a);
                let k = uniform(rng, 0.12, 0.25) * if rng.chance(0.5) { 1.0 } else { -1.0 };
                s.pt("Q", add(q, mul(along, k)));
            } else {
                s.pt("Q", q);
            }
        }
        s.seg(l);
    }
    if broken {
        s.because("Only P is known to be equidistant from A and B; Q may be anywhere, so line PQ may or may not pass through M.");
        return s.unsettled(ask_point_line("M", "PQ"), "On the line");
    }
    s.cond(equal_lengths("QA", "QB"));
    s.because("P and Q are each equidistant from A and B, so line PQ is the perpendicular bisector of AB, which passes through the midpoint M.");
    s.done(ask_point_line("M", "PQ"), "On the line")
}

fn on_line_parallelogram(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.0, 1.5), uniform(rng, 6.0, 7.0)]);
    let b = s.pt("B", [uniform(rng, 6.0, 7.5), uniform(rng, 6.0, 7.0)]);
    let d0 = [uniform(rng, 1.5, 3.5), uniform(rng, 1.0, 2.0)];
    let k = if broken {
        if rng.chance(0.5) {
            uniform(rng, 0.45, 0.7)
        } else {
            uniform(rng, 1.35, 1.6)
        }
    } else {
        1.0
    };
    let d = s.pt("D", d0);
    let c = add(d, mul(sub(b, a), k));
    s.pt("C", c);
    s.poly(
        if broken {
            ShapeKind::Trapezoid
        } else {
            ShapeKind::Parallelogram
        },
        "ABCD",
    );
    s.pt("O", mid(a, c));
    s.seg("AC");
    s.seg("BD");
    s.cond(parallel("AB", "DC"));
    if broken {
        s.cond(midpoint("O", "AC"));
        s.because("With only AB ∥ DC, ABCD is a trapezoid whose diagonals need not bisect each other: the midpoint O of AC may or may not lie on BD.");
        return s.unsettled(ask_point_line("O", "BD"), "On the line");
    }
    s.cond(parallel("AD", "BC"));
    s.cond(midpoint("O", "AC"));
    s.because("ABCD is a parallelogram (both pairs of opposite sides parallel), and its diagonals bisect each other: the midpoint O of AC is also the midpoint of BD, so O is on line BD.");
    s.done(ask_point_line("O", "BD"), "On the line")
}

fn on_line_parallel_lines(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -25.0, 25.0);
    let a = s.pt("A", [uniform(rng, 0.5, 2.0), uniform(rng, 2.0, 3.0)]);
    let b = s.pt("B", go(a, th, uniform(rng, 6.0, 8.0)));
    let p = s.pt("P", mid(a, b));
    s.seg("AB");
    if broken {
        // CD crosses AB at P (the picture does not show the relation the full
        // conditions give); EF, the line AB is said to be parallel to, elsewhere.
        let x = p;
        let phi = th + signed(rng, 25, 60);
        s.pt("C", go(x, phi, -uniform(rng, 2.0, 3.0)));
        s.pt("D", go(x, phi, uniform(rng, 2.0, 3.0)));
        let e = s.pt("E", [uniform(rng, 1.0, 2.0), uniform(rng, 8.5, 9.5)]);
        s.pt("F", go(e, th, 5.0));
        s.seg("CD");
        s.seg("EF");
        s.cond(parallel("AB", "EF"));
        s.cond(midpoint("P", "AB"));
        s.because("AB ∥ EF says nothing about CD: line CD may or may not pass through P.");
        return s.unsettled(ask_point_line("P", "CD"), "Not on the line");
    }
    let off = add(p, mul(normal(a, b), uniform(rng, 2.5, 4.0)));
    s.pt("C", go(off, th, -uniform(rng, 2.5, 3.5)));
    s.pt("D", go(off, th, uniform(rng, 2.5, 3.5)));
    s.seg("CD");
    s.cond(parallel("AB", "CD"));
    s.cond(midpoint("P", "AB"));
    s.because("P lies on line AB, and AB ∥ CD are two distinct parallel lines, which share no point: P is not on line CD.");
    s.done(ask_point_line("P", "CD"), "Not on the line")
}

fn on_line_foot(rng: &mut Rng, _: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    let h = foot(a, b, c);
    if !(0.15..=0.85).contains(&(dist(b, h) / dist(b, c))) {
        return None;
    }
    s.pt("H", h);
    s.poly(ShapeKind::Triangle, "ABC");
    s.seg("AH");
    let ah = (dist(a, h) * 10.0).round() / 10.0;
    // The stated length is the drawn one, rounded: move A onto it.
    let a2 = add(h, mul(sub(a, h), ah / dist(a, h)));
    s.pt("A", a2);
    s.cond(between("H", "BC"));
    s.cond(perpendicular("AH", "BC"));
    s.cond(length("AH", ah));
    s.because(format!(
        "H is on line BC and AH = {} is not zero, with AH ⟂ BC: A is at distance {} from line BC, so A is not on it.",
        fmt(ah),
        fmt(ah)
    ));
    s.done(ask_point_line("A", "BC"), "Not on the line")
}

fn parallel_both_perpendicular(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -20.0, 20.0);
    let g = s.pt("G", [uniform(rng, 1.5, 2.5), uniform(rng, 4.0, 5.0)]);
    let h = s.pt("H", go(g, th, uniform(rng, 4.5, 6.0)));
    s.pt("A", go(g, th - 90.0, uniform(rng, 2.5, 3.5)));
    s.pt("B", go(g, th + 90.0, uniform(rng, 2.5, 3.5)));
    let cd = if broken {
        th + 90.0 + signed(rng, 15, 35)
    } else {
        th + 90.0
    };
    s.pt("C", go(h, cd + 180.0, uniform(rng, 2.5, 3.5)));
    s.pt("D", go(h, cd, uniform(rng, 2.5, 3.5)));
    for l in ["GH", "AB", "CD"] {
        s.seg(l);
    }
    s.cond(between("G", "AB"));
    s.cond(between("H", "CD"));
    s.cond(perpendicular("AB", "GH"));
    if broken {
        let e = s.pt("E", [uniform(rng, 7.5, 8.5), uniform(rng, 8.5, 9.5)]);
        s.pt("F", go(e, cd - 90.0, 2.5));
        s.seg("EF");
        s.cond(perpendicular("CD", "EF"));
        s.because("CD ⟂ EF, but nothing relates EF to GH: CD may or may not be perpendicular to GH, so AB and CD may or may not be parallel.");
        return s.unsettled(ask_lines("AB", "CD"), "Parallel");
    }
    s.cond(perpendicular("CD", "GH"));
    s.because("AB and CD are both perpendicular to GH, at the distinct points G and H: two lines perpendicular to the same line are parallel.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_transitive(rng: &mut Rng, broken: bool) -> Option<Built> {
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
        let t = if broken && *l == "CD" {
            th + signed(rng, 12, 25)
        } else {
            th
        };
        s.pt(&p, start);
        s.pt(&q, go(start, t, uniform(rng, 6.0, 8.0)));
        s.seg(l);
    }
    s.cond(parallel("AB", "EF"));
    if broken {
        let g = s.pt("G", [uniform(rng, 9.5, 10.5), uniform(rng, 2.0, 3.0)]);
        let cd = heading(s.at("C"), s.at("D"));
        s.pt("H", go(g, cd, 3.0));
        s.seg("GH");
        s.cond(parallel("CD", "GH"));
        s.because("CD ∥ GH, but nothing relates GH to EF: CD may or may not be parallel to AB.");
        return s.unsettled(ask_lines("AB", "CD"), "Parallel");
    }
    s.cond(parallel("CD", "EF"));
    s.because("AB and CD are both parallel to EF, and two lines parallel to a third are parallel to each other.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_corresponding(rng: &mut Rng, broken: bool) -> Option<Built> {
    let (mut s, a) = parallel_frame(rng, 40, 140, 8.0, broken)?;
    // ∠AGE is the angle at G between GA and GE (E before G): 180 − a.
    s.arc("AGE");
    s.arc("CHG");
    if broken {
        s.cond(angle_value("AGE", 180.0 - a));
        s.because("Only ∠AGE is known; without ∠CHG nothing fixes the direction of CD: AB and CD may or may not be parallel.");
        return s.unsettled(ask_lines("AB", "CD"), "Parallel");
    }
    s.cond(equal_angles("AGE", "CHG"));
    s.because("∠AGE and ∠CHG are corresponding angles (same side of the transversal EF, same position at G and H), and they are equal: AB ∥ CD.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_alternate(rng: &mut Rng, _: bool) -> Option<Built> {
    let a = degrees(rng, 40, 140);
    if (a - 90.0).abs() < 8.0 {
        return None;
    }
    let mut s = transversal(rng, a, a);
    s.arc("BGH");
    s.arc("CHG");
    s.cond(equal_angles("BGH", "CHG"));
    s.because("∠BGH and ∠CHG are alternate interior angles (between AB and CD, on opposite sides of EF), and they are equal: AB ∥ CD.");
    s.done(ask_lines("AB", "CD"), "Parallel")
}

fn parallel_midline(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.cond(midpoint("M", "AB"));
    if broken {
        let t = if rng.chance(0.5) {
            uniform(rng, 0.25, 0.38)
        } else {
            uniform(rng, 0.62, 0.75)
        };
        s.pt("N", lerp(a, c, t));
        s.seg("MN");
        s.cond(between("N", "AC"));
        s.because("N is somewhere on AC, not necessarily its midpoint: MN may or may not be parallel to BC.");
        return s.unsettled(ask_lines("MN", "BC"), "Parallel");
    }
    s.pt("N", mid(a, c));
    s.seg("MN");
    s.cond(midpoint("N", "AC"));
    s.because("M and N are the midpoints of AB and AC, so MN is a midline of triangle ABC, parallel to BC.");
    s.done(ask_lines("MN", "BC"), "Parallel")
}

fn perp_parallel(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -25.0, 25.0);
    let a = s.pt("A", [uniform(rng, 0.5, 1.5), uniform(rng, 2.0, 3.0)]);
    s.pt("B", go(a, th, uniform(rng, 7.0, 8.0)));
    let c = s.pt("C", [uniform(rng, 0.5, 1.5), uniform(rng, 6.5, 7.5)]);
    s.pt("D", go(c, th, uniform(rng, 7.0, 8.0)));
    let x = lerp(s.at("A"), s.at("B"), uniform(rng, 0.4, 0.6));
    let ef = if broken {
        th + 90.0 + signed(rng, 15, 30)
    } else {
        th + 90.0
    };
    s.pt("E", go(x, ef, -1.5));
    s.pt("F", go(x, ef, uniform(rng, 6.5, 7.5)));
    for l in ["AB", "CD", "EF"] {
        s.seg(l);
    }
    s.cond(parallel("AB", "CD"));
    if broken {
        let g = s.pt("G", [uniform(rng, 10.0, 11.0), uniform(rng, 3.0, 4.0)]);
        s.pt("H", go(g, ef - 90.0, 3.0));
        s.seg("GH");
        s.cond(perpendicular("EF", "GH"));
        s.because("EF ⟂ GH, but nothing relates GH to AB or CD: EF may or may not be perpendicular to CD.");
        return s.unsettled(ask_lines("EF", "CD"), "Perpendicular");
    }
    // The crossing, named, so that the visual mode can mark the right angle there.
    s.pt("K", x);
    s.cond(perpendicular("EF", "AB"));
    s.because("EF ⟂ AB and AB ∥ CD: a line perpendicular to one of two parallel lines is perpendicular to the other, so EF ⟂ CD.");
    s.done(ask_lines("EF", "CD"), "Perpendicular")
}

fn perp_isosceles(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let th = uniform(rng, -20.0, 20.0);
    let a = s.pt("A", [uniform(rng, 0.5, 1.5), uniform(rng, 7.0, 8.0)]);
    let b = s.pt("B", go(a, th, uniform(rng, 7.0, 8.0)));
    let m = s.pt("M", mid(a, b));
    let h = uniform(rng, 4.5, 6.5);
    let shift = if broken {
        uniform(rng, 0.18, 0.3) * if rng.chance(0.5) { 1.0 } else { -1.0 }
    } else {
        0.0
    };
    s.pt("C", add(go(m, th - 90.0, h), mul(sub(b, a), shift)));
    s.poly(ShapeKind::Triangle, "ABC");
    s.seg("CM");
    s.cond(midpoint("M", "AB"));
    if broken {
        s.because(
            "Without CA = CB, the median CM need not be perpendicular to AB: it may or may not be.",
        );
        return s.unsettled(ask_lines("CM", "AB"), "Perpendicular");
    }
    s.cond(equal_lengths("CA", "CB"));
    s.because("CA = CB makes triangle ABC isosceles with apex C, and the median from the apex to the midpoint M of the base is also its altitude: CM ⟂ AB.");
    s.done(ask_lines("CM", "AB"), "Perpendicular")
}

fn perp_thales(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let r = (uniform(rng, 3.5, 4.5) * 2.0).round() / 2.0;
    let o = s.pt("O", [5.0, 5.0]);
    let th = uniform(rng, -30.0, 30.0);
    s.pt("A", go(o, th + 180.0, r));
    s.pt("B", go(o, th, r));
    let phi = th - degrees(rng, 35, 145);
    let k = if broken {
        if rng.chance(0.5) {
            uniform(rng, 0.55, 0.75)
        } else {
            uniform(rng, 1.25, 1.4)
        }
    } else {
        1.0
    };
    s.pt("C", go(o, phi, r * k));
    s.circle("O", r);
    s.seg("AB");
    s.seg("AC");
    s.seg("BC");
    s.cond(on_circle("A", "O", r));
    s.cond(midpoint("O", "AB"));
    if broken {
        s.because("C is not known to lie on the circle, so ∠ACB need not be the angle in a semicircle: AC may or may not be perpendicular to BC.");
        return s.unsettled(ask_lines("AC", "BC"), "Perpendicular");
    }
    s.cond(on_circle("C", "O", r));
    s.because("O is the midpoint of AB and OA is a radius, so AB is a diameter; C is on the circle, so ∠ACB is an angle in a semicircle, 90° (Thales): AC ⟂ BC.");
    s.done(ask_lines("AC", "BC"), "Perpendicular")
}

fn perp_angle_sum(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let (x, y) = right_at_c(rng, &mut s, broken)?;
    s.cond(angle_value("BAC", x));
    if broken {
        s.because("Only ∠BAC is known: ∠ACB may be anything, so AC may or may not be perpendicular to BC.");
        return s.unsettled(ask_lines("AC", "BC"), "Perpendicular");
    }
    s.cond(angle_value("ABC", y));
    s.because(format!(
        "The angles of triangle ABC sum to 180°, so ∠ACB = 180° − {}° − {}° = 90°: AC ⟂ BC.",
        fmt(x),
        fmt(y)
    ));
    s.done(ask_lines("AC", "BC"), "Perpendicular")
}

fn meet_angle_value(rng: &mut Rng, _: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let x = oblique(rng, 25, 155, 12.0)?;
    let b = s.pt("B", [uniform(rng, 2.0, 4.0), uniform(rng, 5.0, 7.0)]);
    let th = uniform(rng, -20.0, 20.0);
    s.pt("C", go(b, th, uniform(rng, 5.0, 6.0)));
    s.pt("A", go(b, th - x, uniform(rng, 4.0, 5.0)));
    s.seg("BA");
    s.seg("BC");
    s.arc("ABC");
    s.cond(angle_value("ABC", x));
    s.because(format!(
        "Lines BA and BC meet at B at {}°, which is not 90°: they intersect but are not perpendicular.",
        fmt(x)
    ));
    s.done(ask_lines("BA", "BC"), "Intersecting but not perpendicular")
}

fn meet_parallel_transfer(rng: &mut Rng, broken: bool) -> Option<Built> {
    let a = oblique(rng, 35, 145, 15.0)?;
    // Broken: CD drawn perpendicular to EF (the picture shows no oblique crossing).
    let b = if broken { 90.0 } else { a };
    let mut s = transversal(rng, a, b);
    s.arc("AGE");
    s.cond(angle_value("AGE", 180.0 - a));
    if broken {
        s.because("Nothing relates CD to AB: CD may cross EF at any angle, so it may or may not be perpendicular to it.");
        return s.unsettled(ask_lines("EF", "CD"), "Intersecting but not perpendicular");
    }
    s.cond(parallel("AB", "CD"));
    s.because(format!(
        "AB ∥ CD, so EF crosses CD at the same angle as AB: {}°, not 90°. EF and CD intersect but are not perpendicular.",
        fmt(180.0 - a)
    ));
    s.done(ask_lines("EF", "CD"), "Intersecting but not perpendicular")
}

fn meet_triangle_angles(rng: &mut Rng, broken: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 30, 70);
    let y = if broken {
        90.0 - x
    } else {
        degrees(rng, 30, 70)
    };
    if !broken && (x + y - 90.0).abs() < 12.0 {
        return None;
    }
    triangle_with_angles(rng, &mut s, x, y)?;
    s.cond(angle_value("BAC", x));
    if broken {
        s.because("Only ∠BAC is known: ∠ACB may be anything, so AC and BC may or may not be perpendicular.");
        return s.unsettled(ask_lines("AC", "BC"), "Intersecting but not perpendicular");
    }
    s.cond(angle_value("ABC", y));
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
