//! Angle-based relations: complementary and supplementary angles, the angle
//! pairs where a transversal cuts two lines, vertical angles, and two angles of a
//! quadrilateral.

use super::line::{fmt, right_at_c};
use super::{Construction, basic, parallel_frame, transversal};
use crate::generate::relations::item::{Asked, Condition};
use crate::generate::relations::sketch::*;
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

pub(super) static ALL: &[Construction] = &[
    basic("complementary", "values", complementary_values),
    basic("complementary", "right_angle_split", complementary_split),
    basic(
        "complementary",
        "right_triangle",
        complementary_right_triangle,
    ),
    basic("supplementary", "values", supplementary_values),
    basic("supplementary", "linear_pair", supplementary_linear_pair),
    basic(
        "supplementary",
        "parallel_consecutive",
        supplementary_parallel,
    ),
    basic(
        "supplementary",
        "parallelogram",
        supplementary_parallelogram,
    ),
    basic("corresponding", "transversal", |r| {
        positions(r, CORRESPONDING, Lines::Oblique)
    }),
    basic("corresponding", "parallel_lines", |r| {
        positions(r, CORRESPONDING, Lines::Parallel)
    }),
    basic("corresponding", "converging", |r| {
        positions(r, CORRESPONDING, Lines::Meeting)
    }),
    basic("alternate_interior", "transversal", |r| {
        positions(r, ALTERNATE_INTERIOR, Lines::Oblique)
    }),
    basic("alternate_interior", "parallel_lines", |r| {
        positions(r, ALTERNATE_INTERIOR, Lines::Parallel)
    }),
    basic("alternate_interior", "converging", |r| {
        positions(r, ALTERNATE_INTERIOR, Lines::Meeting)
    }),
    basic("consecutive_interior", "transversal", |r| {
        positions(r, CONSECUTIVE_INTERIOR, Lines::Oblique)
    }),
    basic("consecutive_interior", "parallel_lines", |r| {
        positions(r, CONSECUTIVE_INTERIOR, Lines::Parallel)
    }),
    basic("consecutive_interior", "converging", |r| {
        positions(r, CONSECUTIVE_INTERIOR, Lines::Meeting)
    }),
    basic("alternate_exterior", "transversal", |r| {
        positions(r, ALTERNATE_EXTERIOR, Lines::Oblique)
    }),
    basic("alternate_exterior", "parallel_lines", |r| {
        positions(r, ALTERNATE_EXTERIOR, Lines::Parallel)
    }),
    basic("alternate_exterior", "converging", |r| {
        positions(r, ALTERNATE_EXTERIOR, Lines::Meeting)
    }),
    basic("consecutive_exterior", "transversal", |r| {
        positions(r, CONSECUTIVE_EXTERIOR, Lines::Oblique)
    }),
    basic("consecutive_exterior", "parallel_lines", |r| {
        positions(r, CONSECUTIVE_EXTERIOR, Lines::Parallel)
    }),
    basic("consecutive_exterior", "converging", |r| {
        positions(r, CONSECUTIVE_EXTERIOR, Lines::Meeting)
    }),
    basic("vertical", "crossing_lines", vertical_crossing),
    basic("vertical", "transversal", |r| {
        positions(r, VERTICAL, Lines::Oblique)
    }),
    basic("vertical", "diagonals", vertical_diagonals),
    basic("quadrilateral_angles", "convex", |r| {
        quadrilateral(r, Quad::Convex)
    }),
    basic("quadrilateral_angles", "parallelogram", |r| {
        quadrilateral(r, Quad::Parallelogram)
    }),
    basic("quadrilateral_angles", "trapezoid", |r| {
        quadrilateral(r, Quad::Trapezoid)
    }),
    basic("quadrilateral_angles", "rectangle", |r| {
        quadrilateral(r, Quad::Rectangle)
    }),
];

/// Two angles of `x` and `y` degrees, apart: ∠ABC and ∠DEF, both stated.
fn two_angles(rng: &mut Rng, s: &mut Sketch, x: f64, y: f64) {
    let b = s.pt("B", [uniform(rng, 1.0, 2.0), uniform(rng, 6.0, 7.0)]);
    let t = uniform(rng, -20.0, 10.0);
    s.pt("C", go(b, t, 3.5));
    s.pt("A", go(b, t - x, 3.5));
    let e = s.pt("E", [uniform(rng, 7.0, 8.0), uniform(rng, 6.0, 7.0)]);
    let u = uniform(rng, -20.0, 10.0);
    s.pt("F", go(e, u, 3.5));
    s.pt("D", go(e, u - y, 3.5));
    for l in ["BA", "BC", "ED", "EF"] {
        s.seg(l);
    }
    s.arc("ABC");
    s.arc("DEF");
    s.key(angle_value("ABC", x));
    s.key(angle_value("DEF", y));
}

fn complementary_values(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 20, 70);
    let neither = rng.chance(1.0 / 3.0);
    let y = if neither {
        degrees(rng, 20, 80)
    } else {
        90.0 - x
    };
    if neither && ((x + y - 90.0).abs() < 5.0 || (x - y).abs() < 3.0) {
        return None;
    }
    two_angles(rng, &mut s, x, y);
    if neither {
        s.because(format!(
            "∠ABC + ∠DEF = {}° + {}° = {}°, neither 90° nor 180°.",
            fmt(x),
            fmt(y),
            fmt(x + y)
        ));
        return s.done(ask_measures("ABC", "DEF"), "Neither");
    }
    s.because(format!(
        "∠ABC + ∠DEF = {}° + {}° = 90°: the angles are complementary.",
        fmt(x),
        fmt(y)
    ));
    s.done(ask_measures("ABC", "DEF"), "Complementary")
}

fn complementary_split(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let b = s.pt("B", [uniform(rng, 1.5, 2.5), uniform(rng, 7.0, 8.0)]);
    let t = uniform(rng, -15.0, 15.0);
    s.pt("C", go(b, t, uniform(rng, 6.0, 7.0)));
    s.pt("A", go(b, t - 90.0, uniform(rng, 5.0, 6.0)));
    s.pt(
        "D",
        go(b, t - 90.0 * uniform(rng, 0.3, 0.7), uniform(rng, 5.0, 6.5)),
    );
    for l in ["BA", "BC", "BD"] {
        s.seg(l);
    }
    s.arc("ABD");
    s.arc("DBC");
    s.key(same_side("DA", "BC"));
    s.key(same_side("DC", "BA"));
    s.key(perpendicular("AB", "BC"));
    s.because("AB ⟂ BC makes ∠ABC = 90°, and D lies inside ∠ABC, so ∠ABD + ∠DBC = ∠ABC = 90°: they are complementary.");
    s.done(ask_measures("ABD", "DBC"), "Complementary")
}

fn complementary_right_triangle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    right_at_c(rng, &mut s)?;
    s.arc("BAC");
    s.arc("ABC");
    s.key(perpendicular("AC", "BC"));
    s.because(
        "AC ⟂ BC makes ∠ACB = 90°, so ∠BAC + ∠ABC = 180° − 90° = 90°: they are complementary.",
    );
    s.done(ask_measures("BAC", "ABC"), "Complementary")
}

fn supplementary_values(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 30, 150);
    if (x - 90.0).abs() < 5.0 {
        return None;
    }
    two_angles(rng, &mut s, x, 180.0 - x);
    s.because(format!(
        "∠ABC + ∠DEF = {}° + {}° = 180°: the angles are supplementary.",
        fmt(x),
        fmt(180.0 - x)
    ));
    s.done(ask_measures("ABC", "DEF"), "Supplementary")
}

fn supplementary_linear_pair(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let b = s.pt("B", [5.0, 7.0]);
    let t = uniform(rng, -15.0, 15.0);
    s.pt("C", go(b, t, uniform(rng, 4.0, 5.0)));
    s.pt("A", go(b, t + 180.0, uniform(rng, 4.0, 5.0)));
    s.pt(
        "D",
        go(b, t - degrees(rng, 55, 125), uniform(rng, 4.0, 5.0)),
    );
    // AC drawn whole: B is seen to lie on it.
    for l in ["AC", "BD"] {
        s.seg(l);
    }
    s.arc("ABD");
    s.arc("DBC");
    s.cond(opposite_sides("AC", "BD"));
    s.key(between("B", "AC"));
    s.because("B lies on segment AC, so ∠ABD and ∠DBC form a linear pair: ∠ABD + ∠DBC = 180°, they are supplementary.");
    s.done(ask_measures("ABD", "DBC"), "Supplementary")
}

fn supplementary_parallel(rng: &mut Rng) -> Option<Built> {
    let (mut s, _) = parallel_frame(rng, 40, 140, 10.0)?;
    s.arc("BGH");
    s.arc("DHG");
    s.key(parallel("AB", "CD"));
    s.because("AB ∥ CD, and ∠BGH and ∠DHG are consecutive interior angles at the transversal EF: they sum to 180°, so they are supplementary.");
    s.done(ask_measures("BGH", "DHG"), "Supplementary")
}

fn supplementary_parallelogram(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.0, 1.5), uniform(rng, 6.0, 7.0)]);
    let b = s.pt("B", [uniform(rng, 6.0, 7.5), uniform(rng, 6.0, 7.0)]);
    let d = s.pt("D", [uniform(rng, 1.5, 3.5), uniform(rng, 1.0, 2.0)]);
    s.pt("C", add(d, sub(b, a)));
    s.poly(ShapeKind::Parallelogram, "ABCD");
    s.arc("DAB");
    s.arc("ABC");
    s.cond(parallel("AB", "DC"));
    s.key(parallel("AD", "BC"));
    s.because("AD ∥ BC, and ∠DAB and ∠ABC are consecutive interior angles at the transversal AB: they sum to 180°, so they are supplementary.");
    s.done(ask_measures("DAB", "ABC"), "Supplementary")
}

// The angle pairs of each position in `transversal`'s frame (E, G, H, F along the
// transversal; A and C on one side of it).
const CORRESPONDING: (&str, &[(&str, &str)]) = (
    "Corresponding angles",
    &[
        ("AGE", "CHG"),
        ("EGB", "GHD"),
        ("HGA", "FHC"),
        ("BGH", "DHF"),
    ],
);
const ALTERNATE_INTERIOR: (&str, &[(&str, &str)]) = (
    "Alternate interior angles",
    &[("HGA", "GHD"), ("BGH", "CHG")],
);
const CONSECUTIVE_INTERIOR: (&str, &[(&str, &str)]) = (
    "Consecutive interior angles",
    &[("HGA", "CHG"), ("BGH", "GHD")],
);
const ALTERNATE_EXTERIOR: (&str, &[(&str, &str)]) = (
    "Alternate exterior angles",
    &[("AGE", "DHF"), ("EGB", "FHC")],
);
const CONSECUTIVE_EXTERIOR: (&str, &[(&str, &str)]) = (
    "Consecutive exterior angles",
    &[("AGE", "FHC"), ("EGB", "DHF")],
);
const VERTICAL: (&str, &[(&str, &str)]) = (
    "Vertical angles",
    &[
        ("AGE", "BGH"),
        ("EGB", "HGA"),
        ("CHG", "DHF"),
        ("GHD", "FHC"),
    ],
);

/// How the two lines a transversal cuts lie.
#[derive(Clone, Copy, PartialEq)]
enum Lines {
    /// Neither parallel nor meeting in the picture (no condition on them).
    Oblique,
    /// Stated parallel.
    Parallel,
    /// Meeting at a drawn point P.
    Meeting,
}

fn positions(rng: &mut Rng, pairs: (&'static str, &[(&str, &str)]), lines: Lines) -> Option<Built> {
    let a = degrees(rng, 45, 135);
    let b = match lines {
        Lines::Parallel => a,
        Lines::Oblique => a + degrees(rng, 8, 14) * if rng.chance(0.5) { 1.0 } else { -1.0 },
        Lines::Meeting => a + degrees(rng, 25, 40) * if rng.chance(0.5) { 1.0 } else { -1.0 },
    };
    let mut s = transversal(rng, a, b);
    // Where the angles sit follows from the order along the transversal and the
    // sides of it the lines' ends are on.
    s.key_where(|c| matches!(c, Condition::SameSide { .. } | Condition::Between { .. }));
    match lines {
        Lines::Oblique => {}
        Lines::Parallel => s.cond(parallel("AB", "CD")),
        Lines::Meeting => {
            let p = meet(s.at("A"), s.at("B"), s.at("C"), s.at("D"))?;
            if dist(p, s.at("G")) > 9.0 {
                return None;
            }
            s.pt("P", p);
            // Join P to the nearer end of each line.
            for (x, y) in [("A", "B"), ("C", "D")] {
                let near = if dist(p, s.at(x)) < dist(p, s.at(y)) {
                    x
                } else {
                    y
                };
                s.seg(&format!("P{near}"));
            }
            s.cond(on_line("P", "AB"));
            s.cond(on_line("P", "CD"));
        }
    }
    let (answer, list) = pairs;
    let (mut x, mut y) = list[rng.index(list.len())];
    if rng.chance(0.5) {
        std::mem::swap(&mut x, &mut y);
    }
    s.arc(x);
    s.arc(y);
    s.because(reason(answer, x, y));
    s.done(ask_positions(x, y), answer)
}

fn reason(answer: &str, x: &str, y: &str) -> String {
    let why = match answer {
        "Corresponding angles" => {
            "they sit in the same position at the two crossings: on the same side of the transversal EF and on the same side of the line each is at"
        }
        "Alternate interior angles" => {
            "both lie between lines AB and CD, on opposite sides of the transversal EF"
        }
        "Consecutive interior angles" => {
            "both lie between lines AB and CD, on the same side of the transversal EF"
        }
        "Alternate exterior angles" => {
            "both lie outside lines AB and CD, on opposite sides of the transversal EF"
        }
        "Consecutive exterior angles" => {
            "both lie outside lines AB and CD, on the same side of the transversal EF"
        }
        _ => "they share their vertex and their sides are opposite rays",
    };
    format!("∠{x} and ∠{y}: {why}.")
}

fn vertical_crossing(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let o = s.pt("O", [5.0, 5.0]);
    let t = uniform(rng, -30.0, 30.0);
    let u = t + degrees(rng, 40, 140);
    s.pt("A", go(o, t + 180.0, uniform(rng, 3.0, 4.0)));
    s.pt("B", go(o, t, uniform(rng, 3.0, 4.0)));
    s.pt("C", go(o, u + 180.0, uniform(rng, 3.0, 4.0)));
    s.pt("D", go(o, u, uniform(rng, 3.0, 4.0)));
    s.seg("AB");
    s.seg("CD");
    s.key(between("O", "AB"));
    s.key(between("O", "CD"));
    let (x, y) = [
        ("AOC", "BOD"),
        ("AOD", "BOC"),
        ("BOD", "AOC"),
        ("COB", "DOA"),
    ][rng.index(4)];
    s.arc(x);
    s.arc(y);
    s.because(format!(
        "Lines AB and CD cross at O; ∠{x} and ∠{y} share the vertex O and their sides are opposite rays: they are vertical angles."
    ));
    s.done(ask_positions(x, y), "Vertical angles")
}

fn vertical_diagonals(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let pts = [
        [uniform(rng, 0.0, 2.0), uniform(rng, 0.0, 2.0)],
        [uniform(rng, 7.0, 9.0), uniform(rng, 0.0, 2.0)],
        [uniform(rng, 7.0, 9.5), uniform(rng, 6.0, 8.0)],
        [uniform(rng, 0.0, 2.5), uniform(rng, 6.0, 8.0)],
    ];
    for (n, p) in ["A", "B", "C", "D"].iter().zip(pts) {
        s.pt(n, p);
    }
    let o = meet(pts[0], pts[2], pts[1], pts[3])?;
    s.pt("O", o);
    for l in ["AB", "BC", "CD", "DA", "AC", "BD"] {
        s.seg(l);
    }
    s.key(between("O", "AC"));
    s.key(between("O", "BD"));
    let (x, y) = [("AOB", "COD"), ("BOC", "DOA")][rng.index(2)];
    s.arc(x);
    s.arc(y);
    s.because(format!(
        "The diagonals AC and BD cross at O; ∠{x} and ∠{y} share the vertex O and their sides are opposite rays: they are vertical angles."
    ));
    s.done(ask_positions(x, y), "Vertical angles")
}

#[derive(Clone, Copy)]
enum Quad {
    Convex,
    Parallelogram,
    Trapezoid,
    Rectangle,
}

fn quadrilateral(rng: &mut Rng, kind: Quad) -> Option<Built> {
    let mut s = Sketch::default();
    let a = [uniform(rng, 0.0, 1.5), uniform(rng, 6.0, 7.0)];
    let t = uniform(rng, -15.0, 15.0);
    let b = go(a, t, uniform(rng, 6.0, 8.0));
    let side = uniform(rng, 4.0, 5.5);
    let (c, d) = match kind {
        Quad::Convex => {
            let d = go(a, t - degrees(rng, 70, 110), side);
            let c = go(b, t - degrees(rng, 70, 110), side * uniform(rng, 0.7, 1.2));
            (c, d)
        }
        Quad::Parallelogram | Quad::Trapezoid | Quad::Rectangle => {
            let lean = match kind {
                Quad::Rectangle => 90.0,
                _ => degrees(rng, 60, 80),
            };
            let d = go(a, t - lean, side);
            let k = match kind {
                Quad::Trapezoid => uniform(rng, 0.45, 0.7),
                _ => 1.0,
            };
            (add(d, mul(sub(b, a), k)), d)
        }
    };
    for (n, p) in [("A", a), ("B", b), ("C", c), ("D", d)] {
        s.pt(n, p);
    }
    match kind {
        Quad::Convex => {
            for l in ["AB", "BC", "CD", "DA"] {
                s.seg(l);
            }
        }
        Quad::Parallelogram => {
            s.poly(ShapeKind::Parallelogram, "ABCD");
            s.cond(parallel("AB", "DC"));
            s.cond(parallel("AD", "BC"));
        }
        Quad::Trapezoid => {
            s.poly(ShapeKind::Trapezoid, "ABCD");
            s.cond(parallel("AB", "DC"));
        }
        Quad::Rectangle => {
            s.poly(ShapeKind::Rectangle, "ABCD");
            s.cond(parallel("AB", "DC"));
            s.cond(parallel("AD", "BC"));
            s.cond(perpendicular("AB", "AD"));
        }
    }
    let names = ["A", "B", "C", "D"];
    let i = rng.index(4);
    let opposite = rng.chance(0.5);
    let j = if opposite {
        (i + 2) % 4
    } else {
        (i + 1 + 2 * rng.index(2)) % 4
    };
    let at = |k: usize| format!("{}{}{}", names[(k + 3) % 4], names[k], names[(k + 1) % 4]);
    s.arc(&at(i));
    s.arc(&at(j));
    let answer = if opposite {
        "Opposite angles"
    } else {
        "Adjacent angles"
    };
    s.because(format!(
        "In quadrilateral ABCD the vertices {} and {} are {}: ∠{} and ∠{} are {}.",
        names[i],
        names[j],
        if opposite {
            "not joined by a side"
        } else {
            "the ends of one side"
        },
        at(i),
        at(j),
        answer.to_lowercase()
    ));
    let asked = Asked::QuadrilateralAngles {
        quad: ["A", "B", "C", "D"].map(String::from),
        a: names[i].to_string(),
        b: names[j].to_string(),
    };
    s.done(asked, answer)
}
