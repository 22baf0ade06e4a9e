//! Shape-based relations: a point inside, outside or on a figure; a line and a
//! circle intersecting, tangent or disjoint; a segment that is a triangle's
//! median, altitude, angle bisector or midline, or a circle's radius, diameter or
//! chord (not a diameter).

use super::line::{fmt, triangle, triangle_apart};
use super::{Construction, basic};
use crate::generate::relations::item::Asked;
use crate::generate::relations::pool::CHORD;
use crate::generate::relations::sketch::*;
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

pub(super) static ALL: &[Construction] = &[
    basic("point_inside", "circle_distance", |r| {
        circle_point(r, Where::Inside)
    }),
    basic("point_inside", "parallelogram_center", inside_parallelogram),
    basic("point_inside", "chord_point", inside_chord),
    basic("point_outside", "reflection", outside_reflection),
    basic("point_outside", "circle_distance", |r| {
        circle_point(r, Where::Outside)
    }),
    basic("point_outside", "extension", outside_extension),
    basic("point_on_boundary", "midpoint_side", boundary_midpoint),
    basic("point_on_boundary", "circle_distance", |r| {
        circle_point(r, Where::On)
    }),
    basic("point_on_boundary", "rectangle_side", boundary_rectangle),
    basic("line_circle_intersecting", "distance", |r| {
        line_distance(r, Where::Inside)
    }),
    basic("line_circle_intersecting", "through_center", secant_center),
    basic(
        "line_circle_intersecting",
        "through_inside_point",
        secant_point,
    ),
    basic("line_circle_tangent", "distance", |r| {
        line_distance(r, Where::On)
    }),
    basic(
        "line_circle_tangent",
        "radius_perpendicular",
        tangent_radius,
    ),
    basic("line_circle_tangent", "right_angle", tangent_right_angle),
    basic("line_circle_disjoint", "distance", |r| {
        line_distance(r, Where::Outside)
    }),
    basic(
        "line_circle_disjoint",
        "parallel_to_tangent",
        disjoint_parallel,
    ),
    basic("line_circle_disjoint", "doubled_distance", disjoint_doubled),
    basic("median", "midpoint", median_midpoint),
    basic("median", "equal_parts", median_equal_parts),
    basic("median", "parallelogram", median_parallelogram),
    basic("altitude", "perpendicular", altitude_perpendicular),
    basic("altitude", "right_angle", altitude_right_angle),
    basic("altitude", "angle_sum", altitude_angle_sum),
    basic("angle_bisector", "equal_angles", |r| {
        bisector(r, Split::Equal)
    }),
    basic("angle_bisector", "half_angle", |r| bisector(r, Split::Half)),
    basic("angle_bisector", "two_values", |r| {
        bisector(r, Split::Values)
    }),
    basic("midline", "midpoints", midline_midpoints),
    basic("midline", "parallel_from_midpoint", |r| {
        midline_parallel(r, false)
    }),
    basic("midline", "parallel_to_midpoint", |r| {
        midline_parallel(r, true)
    }),
    basic("radius", "center_to_circle", radius_on_circle),
    basic("radius", "length", radius_length),
    basic("radius", "half_diameter", radius_half_diameter),
    basic("diameter", "through_center", diameter_center),
    basic("diameter", "inscribed_right_angle", diameter_thales),
    basic("diameter", "length", diameter_length),
    basic("chord", "two_points", chord_length),
    basic("chord", "distance", chord_distance),
    basic("chord", "inscribed_angle", chord_angle),
];

/// Where a point is against a figure, or a line against a circle.
#[derive(Clone, Copy, PartialEq)]
enum Where {
    Inside,
    On,
    Outside,
}

/// A radius of 3.5 to 4.5 in halves, and the centre O at (5, 5), drawn.
fn circle_o(rng: &mut Rng, s: &mut Sketch) -> f64 {
    let r = (uniform(rng, 3.5, 4.5) * 2.0).round() / 2.0;
    s.pt("O", [5.0, 5.0]);
    s.circle("O", r);
    r
}

fn ask_figure(p: &str, figure: crate::generate::relations::FigureRef) -> Asked {
    Asked::PointFigure {
        point: p.into(),
        figure,
    }
}

fn ask_circle_line(l: &str, r: f64) -> Asked {
    Asked::LineCircle {
        line: line(l),
        circle: circle("O", r),
    }
}

fn ask_segment(sg: &str, figure: crate::generate::relations::FigureRef) -> Asked {
    Asked::Segment {
        segment: line(sg),
        figure,
    }
}

fn flip(rng: &mut Rng) -> f64 {
    if rng.chance(0.5) { 1.0 } else { -1.0 }
}

fn word(w: Where) -> &'static str {
    match w {
        Where::Inside => "Inside",
        Where::On => "On the boundary",
        Where::Outside => "Outside",
    }
}

/// The point T on circle O (radius `r`), at a seeded direction: O, T's direction
/// from O, and T.
pub(super) fn point_on_circle(rng: &mut Rng, s: &mut Sketch, r: f64) -> (P, f64, P) {
    let o = s.at("O");
    let t = uniform(rng, 0.0, 360.0);
    let tt = s.pt("T", go(o, t, r));
    (o, t, tt)
}

/// CD through T square to OT (the tangent at T), and AB parallel to it beyond it
/// (away from O). `circle` is (O, T's direction, T, radius).
pub(super) fn parallel_to_tangent(rng: &mut Rng, s: &mut Sketch, circle: (P, f64, P, f64)) {
    let (o, t, tt, r) = circle;
    // Short lines well apart, so that one turned away from the other (an
    // indeterminate item's figure) neither crosses nor crowds it.
    s.pt("C", go(tt, t + 90.0, uniform(rng, 2.0, 2.8)));
    s.pt("D", go(tt, t - 90.0, uniform(rng, 2.0, 2.8)));
    let m = go(o, t, r * uniform(rng, 1.6, 1.9));
    s.pt("A", go(m, t + 90.0, uniform(rng, 2.0, 2.8)));
    s.pt("B", go(m, t - 90.0, uniform(rng, 2.0, 2.8)));
}

fn circle_point(rng: &mut Rng, w: Where) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let d = match w {
        Where::Inside => (r * uniform(rng, 0.3, 0.7) * 2.0).round() / 2.0,
        Where::On => r,
        Where::Outside => (r * uniform(rng, 1.25, 1.5) * 2.0).round() / 2.0,
    };
    let o = s.at("O");
    s.pt("P", go(o, uniform(rng, 0.0, 360.0), d));
    s.seg("OP");
    s.key(length("OP", d));
    let cmp = match w {
        Where::Inside => "less than",
        Where::On => "equal to",
        Where::Outside => "greater than",
    };
    s.because(format!(
        "OP = {} is {cmp} the radius {}, so P is {} the circle.",
        fmt(d),
        fmt(r),
        match w {
            Where::Inside => "inside",
            Where::On => "on",
            Where::Outside => "outside",
        }
    ));
    s.done(ask_figure("P", circle("O", r)), word(w))
}

fn inside_parallelogram(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.0, 1.5), uniform(rng, 6.0, 7.0)]);
    let b = s.pt("B", [uniform(rng, 6.0, 7.5), uniform(rng, 6.0, 7.0)]);
    let d = s.pt("D", [uniform(rng, 1.5, 3.5), uniform(rng, 1.0, 2.0)]);
    let c = s.pt("C", add(d, sub(b, a)));
    s.poly(ShapeKind::Parallelogram, "ABCD");
    s.pt("O", mid(a, c));
    s.seg("AC");
    s.cond(parallel("AB", "DC"));
    s.cond(parallel("AD", "BC"));
    s.key(midpoint("O", "AC"));
    s.because("ABCD is a parallelogram, so it is convex and its diagonal AC runs through its interior; the midpoint O of AC is inside it.");
    s.done(ask_figure("O", polygon("ABCD")), "Inside")
}

fn inside_chord(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let t = uniform(rng, 0.0, 360.0);
    let a = s.pt("A", go(o, t, r));
    let b = s.pt("B", go(o, t + degrees(rng, 80, 150), r));
    s.pt("P", lerp(a, b, uniform(rng, 0.3, 0.7)));
    s.seg("AB");
    s.key(on_circle("A", "O", r));
    s.key(on_circle("B", "O", r));
    s.cond(on_line("P", "AB"));
    s.key(between("P", "AB"));
    s.because("A and B are on the circle, so the chord AB lies inside the disc, and P is strictly between A and B: P is inside the circle.");
    s.done(ask_figure("P", circle("O", r)), "Inside")
}

fn outside_reflection(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    let m = s.pt("M", mid(b, c));
    s.pt("D", add(m, sub(m, a)));
    s.seg("AD");
    s.key(midpoint("M", "BC"));
    s.cond(on_line("D", "AM"));
    s.key(midpoint("M", "AD"));
    s.because("M is the midpoint of BC and of AD, so D is A reflected through M, a point of side BC: D is on the other side of BC from A, outside triangle ABC.");
    s.done(ask_figure("D", polygon("ABC")), "Outside")
}

fn outside_extension(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.0, 1.5), uniform(rng, 6.0, 7.0)]);
    let b = s.pt("B", [uniform(rng, 5.0, 6.0), uniform(rng, 6.0, 7.0)]);
    let d = s.pt("D", [uniform(rng, 1.5, 3.0), uniform(rng, 1.5, 2.5)]);
    s.pt("C", add(d, sub(b, a)));
    s.poly(ShapeKind::Parallelogram, "ABCD");
    s.pt("P", add(b, sub(b, a)));
    s.seg("BP");
    s.cond(parallel("AB", "DC"));
    s.cond(parallel("AD", "BC"));
    s.cond(on_line("P", "AB"));
    s.key(midpoint("B", "AP"));
    s.because("B is the midpoint of AP, so P is on line AB beyond B, past the parallelogram's corner: P is outside ABCD.");
    s.done(ask_figure("P", polygon("ABCD")), "Outside")
}

fn boundary_midpoint(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, _] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.key(midpoint("M", "AB"));
    s.because("M is the midpoint of side AB, a point of the triangle's boundary.");
    s.done(ask_figure("M", polygon("ABC")), "On the boundary")
}

fn boundary_rectangle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let a = s.pt("A", [uniform(rng, 0.5, 1.5), uniform(rng, 6.5, 7.5)]);
    let t = uniform(rng, -15.0, 15.0);
    let b = s.pt("B", go(a, t, uniform(rng, 6.0, 7.0)));
    let h = uniform(rng, 3.5, 4.5);
    let c = s.pt("C", go(b, t - 90.0, h));
    s.pt("D", go(a, t - 90.0, h));
    s.poly(ShapeKind::Rectangle, "ABCD");
    s.pt("P", lerp(b, c, uniform(rng, 0.3, 0.7)));
    s.cond(parallel("AB", "DC"));
    s.cond(parallel("AD", "BC"));
    s.cond(perpendicular("AB", "AD"));
    s.cond(on_line("P", "BC"));
    s.key(between("P", "BC"));
    s.because("P lies on segment BC, a side of the rectangle: it is on the boundary.");
    s.done(ask_figure("P", polygon("ABCD")), "On the boundary")
}

fn line_distance(rng: &mut Rng, w: Where) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let d = match w {
        Where::Inside => (r * uniform(rng, 0.3, 0.7) * 2.0).round() / 2.0,
        Where::On => r,
        Where::Outside => (r * uniform(rng, 1.2, 1.4) * 2.0).round() / 2.0,
    };
    let t = uniform(rng, 0.0, 360.0);
    let h = s.pt("H", go(o, t, d));
    let half = r * uniform(rng, 1.1, 1.4);
    s.pt("A", go(h, t + 90.0, half));
    s.pt("B", go(h, t - 90.0, half));
    s.seg("AB");
    s.seg("OH");
    s.cond(between("H", "AB"));
    s.key(perpendicular("OH", "AB"));
    s.key(length("OH", d));
    let answer = match w {
        Where::Inside => "Intersecting",
        Where::On => "Tangent",
        Where::Outside => "Disjoint",
    };
    s.because(format!(
        "OH ⟂ AB, so the distance from O to line AB is OH = {}, {} the radius {}: the line and the circle are {}.",
        fmt(d),
        match w {
            Where::Inside => "less than",
            Where::On => "equal to",
            Where::Outside => "greater than",
        },
        fmt(r),
        answer.to_lowercase()
    ));
    s.done(ask_circle_line("AB", r), answer)
}

fn secant_center(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let t = uniform(rng, 0.0, 180.0);
    s.pt("A", go(o, t, r * uniform(rng, 1.1, 1.4)));
    s.pt("B", go(o, t + 180.0, r * uniform(rng, 1.1, 1.4)));
    s.seg("AB");
    s.key(between("O", "AB"));
    s.because(
        "Line AB passes through the centre O, at distance 0 < radius: it cuts the circle twice.",
    );
    s.done(ask_circle_line("AB", r), "Intersecting")
}

fn secant_point(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let d = (r * uniform(rng, 0.3, 0.6) * 2.0).round() / 2.0;
    let t = uniform(rng, 0.0, 360.0);
    let p = s.pt("P", go(o, t, d));
    let u = t + 90.0 + uniform(rng, -15.0, 15.0);
    s.pt("A", go(p, u, r * uniform(rng, 0.9, 1.2)));
    s.pt("B", go(p, u + 180.0, r * uniform(rng, 0.9, 1.2)));
    s.seg("AB");
    s.seg("OP");
    s.cond(between("P", "AB"));
    s.key(length("OP", d));
    s.because(format!(
        "OP = {} is less than the radius {}, so P is inside the circle, and a line through a point inside a circle cuts it twice.",
        fmt(d),
        fmt(r)
    ));
    s.done(ask_circle_line("AB", r), "Intersecting")
}

fn tangent_radius(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let (_, t, tt) = point_on_circle(rng, &mut s, r);
    s.pt("A", go(tt, t + 90.0, uniform(rng, 2.5, 3.5)));
    s.pt("B", go(tt, t - 90.0, uniform(rng, 2.5, 3.5)));
    s.seg("AB");
    s.seg("OT");
    s.key(on_circle("T", "O", r));
    s.cond(between("T", "AB"));
    s.key(perpendicular("AB", "OT"));
    s.because("T is on the circle and AB ⟂ OT at T: a line perpendicular to a radius at its end on the circle is tangent.");
    s.done(ask_circle_line("AB", r), "Tangent")
}

fn tangent_right_angle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let (_, t, tt) = point_on_circle(rng, &mut s, r);
    s.pt("A", go(tt, t + 90.0 * flip(rng), uniform(rng, 3.0, 4.0)));
    s.seg("TA");
    s.seg("OT");
    s.arc("OTA");
    s.key(on_circle("T", "O", r));
    s.key(angle_value("OTA", 90.0));
    s.because("T is on the circle and ∠OTA = 90°: line TA is perpendicular to the radius OT at T, so it is tangent.");
    s.done(ask_circle_line("TA", r), "Tangent")
}

fn disjoint_parallel(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let (o, t, tt) = point_on_circle(rng, &mut s, r);
    parallel_to_tangent(rng, &mut s, (o, t, tt, r));
    for l in ["CD", "AB", "OT"] {
        s.seg(l);
    }
    s.cond(on_circle("T", "O", r));
    s.cond(between("T", "CD"));
    s.key(perpendicular("CD", "OT"));
    s.key(parallel("AB", "CD"));
    s.key(opposite_sides("OA", "CD"));
    s.because("CD ⟂ OT at T on the circle, so CD is tangent and the whole disc is on O's side of it; AB ∥ CD lies on the other side: AB and the circle are disjoint.");
    s.done(ask_circle_line("AB", r), "Disjoint")
}

fn disjoint_doubled(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let m = (r * uniform(rng, 0.6, 0.7) * 2.0).round() / 2.0;
    if 2.0 * m <= r * 1.1 {
        return None;
    }
    let t = uniform(rng, 0.0, 360.0);
    let h = s.pt("H", go(o, t, 2.0 * m));
    s.pt("M", go(o, t, m));
    s.pt("A", go(h, t + 90.0, uniform(rng, 2.5, 3.5)));
    s.pt("B", go(h, t - 90.0, uniform(rng, 2.5, 3.5)));
    s.seg("AB");
    s.seg("OH");
    s.cond(between("H", "AB"));
    s.key(perpendicular("OH", "AB"));
    s.key(midpoint("M", "OH"));
    s.key(length("OM", m));
    s.because(format!(
        "M is the midpoint of OH, so OH = 2 · {} = {}; OH ⟂ AB makes it the distance from O to line AB, greater than the radius {}: they are disjoint.",
        fmt(m),
        fmt(2.0 * m),
        fmt(r)
    ));
    s.done(ask_circle_line("AB", r), "Disjoint")
}

fn median_midpoint(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [_, b, c] = triangle_apart(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(b, c));
    s.seg("AM");
    s.cond(between("M", "BC"));
    s.key(midpoint("M", "BC"));
    s.because("AM joins the vertex A to the midpoint M of the opposite side BC: it is a median.");
    s.done(ask_segment("AM", polygon("ABC")), "Median")
}

fn median_equal_parts(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [_, b, c] = triangle_apart(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(b, c));
    s.seg("AM");
    s.cond(between("M", "BC"));
    s.key(equal_lengths("BM", "MC"));
    s.because("M is on BC with BM = MC, so M is the midpoint of BC and AM is a median.");
    s.done(ask_segment("AM", polygon("ABC")), "Median")
}

fn median_parallelogram(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle_apart(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("D", add(b, sub(c, a)));
    s.pt("M", mid(b, c));
    s.seg("BD");
    s.seg("CD");
    s.seg("AD");
    s.key(parallel("AB", "CD"));
    s.key(parallel("AC", "BD"));
    s.cond(on_line("M", "AD"));
    s.cond(on_line("M", "BC"));
    s.because("ABDC is a parallelogram (AB ∥ CD, AC ∥ BD), and its diagonals AD and BC bisect each other at M: M is the midpoint of BC, so AM is a median of triangle ABC.");
    s.done(ask_segment("AM", polygon("ABC")), "Median")
}

/// Triangle ABC, drawn, and AH with H on BC the foot of the perpendicular from A.
fn foot_on_bc(rng: &mut Rng) -> Option<Sketch> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle_apart(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    let f = foot(a, b, c);
    let t = dist(b, f) / dist(b, c);
    if !(0.2..=0.8).contains(&t) {
        return None;
    }
    s.pt("H", f);
    s.seg("AH");
    Some(s)
}

fn altitude_perpendicular(rng: &mut Rng) -> Option<Built> {
    let mut s = foot_on_bc(rng)?;
    s.cond(between("H", "BC"));
    s.key(perpendicular("AH", "BC"));
    s.because("AH runs from the vertex A perpendicular to the opposite side BC, meeting it at H: it is an altitude.");
    s.done(ask_segment("AH", polygon("ABC")), "Altitude")
}

fn altitude_right_angle(rng: &mut Rng) -> Option<Built> {
    let mut s = foot_on_bc(rng)?;
    s.arc("AHB");
    s.cond(between("H", "BC"));
    s.key(angle_value("AHB", 90.0));
    s.because(
        "H is on BC and ∠AHB = 90°: AH is perpendicular to BC from the vertex A, an altitude.",
    );
    s.done(ask_segment("AH", polygon("ABC")), "Altitude")
}

fn altitude_angle_sum(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 45, 75);
    let y = degrees(rng, 45, 75);
    let b = s.pt("B", [uniform(rng, 0.0, 1.0), uniform(rng, 7.0, 8.0)]);
    let th = uniform(rng, -10.0, 10.0);
    let c = s.pt("C", go(b, th, uniform(rng, 8.0, 9.0)));
    let a = meet(b, go(b, th - x, 1.0), c, go(c, th + 180.0 + y, 1.0))?;
    s.pt("A", a);
    let h = foot(a, b, c);
    s.pt("H", h);
    s.poly(ShapeKind::Triangle, "ABC");
    s.seg("AH");
    s.key(angle_value("ABC", x));
    s.cond(between("H", "BC"));
    s.key(angle_value("BAH", 90.0 - x));
    s.because(format!(
        "In triangle ABH, ∠AHB = 180° − {}° − {}° = 90°, so AH ⟂ BC with H on BC: AH is an altitude.",
        fmt(x),
        fmt(90.0 - x)
    ));
    s.done(ask_segment("AH", polygon("ABC")), "Altitude")
}

#[derive(Clone, Copy, PartialEq)]
enum Split {
    /// ∠BAD = ∠DAC.
    Equal,
    /// ∠BAC = 2x and ∠BAD = x.
    Half,
    /// ∠BAD = x and ∠DAC = x.
    Values,
}

fn bisector(rng: &mut Rng, how: Split) -> Option<Built> {
    let mut s = Sketch::default();
    let x = degrees(rng, 25, 40);
    let a = s.pt("A", [uniform(rng, 4.0, 6.0), uniform(rng, 0.5, 1.5)]);
    let axis = uniform(rng, 75.0, 105.0);
    // Sides from A of clearly different lengths: the bisector is then neither
    // the median nor the altitude, not even by eye.
    let short = uniform(rng, 4.5, 5.5);
    let long = short * uniform(rng, 1.35, 1.6);
    let (lb, lc) = if rng.chance(0.5) {
        (short, long)
    } else {
        (long, short)
    };
    let b = s.pt("B", go(a, axis + x, lb));
    let c = s.pt("C", go(a, axis - x, lc));
    let d = meet(a, go(a, axis, 1.0), b, c)?;
    if dist(b, c) / dist(a, b).max(dist(a, c)) < 0.5 {
        return None;
    }
    s.pt("D", d);
    s.poly(ShapeKind::Triangle, "ABC");
    s.seg("AD");
    s.arc("BAD");
    s.arc("DAC");
    s.key(between("D", "BC"));
    match how {
        Split::Equal => s.key(equal_angles("BAD", "DAC")),
        Split::Half => {
            s.key(angle_value("BAC", 2.0 * x));
            s.key(angle_value("BAD", x));
        }
        Split::Values => {
            s.key(angle_value("BAD", x));
            s.key(angle_value("DAC", x));
        }
    }
    s.because(match how {
        Split::Equal => {
            "D is on BC and ∠BAD = ∠DAC: AD splits ∠BAC in two equal halves, an angle bisector."
                .to_string()
        }
        Split::Half => format!(
            "∠DAC = ∠BAC − ∠BAD = {}° − {}° = {}° = ∠BAD, with D on BC: AD is an angle bisector.",
            fmt(2.0 * x),
            fmt(x),
            fmt(x)
        ),
        Split::Values => format!(
            "∠BAD = ∠DAC = {}°, with D on BC: AD is an angle bisector.",
            fmt(x)
        ),
    });
    s.done(ask_segment("AD", polygon("ABC")), "Angle bisector")
}

fn midline_midpoints(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.pt("N", mid(a, c));
    s.seg("MN");
    s.key(midpoint("M", "AB"));
    s.cond(between("N", "AC"));
    s.key(midpoint("N", "AC"));
    s.because("MN joins the midpoints of two sides, AB and AC: it is a midline of triangle ABC.");
    s.done(ask_segment("MN", polygon("ABC")), "Midline")
}

fn midline_parallel(rng: &mut Rng, from_n: bool) -> Option<Built> {
    let mut s = Sketch::default();
    let [a, b, c] = triangle(rng, &mut s)?;
    s.poly(ShapeKind::Triangle, "ABC");
    s.pt("M", mid(a, b));
    s.pt("N", mid(a, c));
    s.seg("MN");
    if from_n {
        s.key(midpoint("N", "AC"));
        s.cond(between("M", "AB"));
    } else {
        s.key(midpoint("M", "AB"));
        s.cond(between("N", "AC"));
    }
    s.key(parallel("MN", "BC"));
    s.because(if from_n {
        "The line through the midpoint N of AC parallel to BC meets AB at its midpoint M: MN joins two midpoints, a midline."
    } else {
        "The line through the midpoint M of AB parallel to BC meets AC at its midpoint N: MN joins two midpoints, a midline."
    });
    s.done(ask_segment("MN", polygon("ABC")), "Midline")
}

fn radius_on_circle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    s.pt("A", go(o, uniform(rng, 0.0, 360.0), r));
    s.seg("OA");
    s.key(on_circle("A", "O", r));
    s.because("OA joins the centre O to the point A of the circle: it is a radius.");
    s.done(ask_segment("OA", circle("O", r)), "Radius")
}

fn radius_length(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    s.pt("A", go(o, uniform(rng, 0.0, 360.0), r));
    s.seg("OA");
    s.key(length("OA", r));
    s.because(format!(
        "OA = {} equals the radius, so A is on the circle and OA is a radius.",
        fmt(r)
    ));
    s.done(ask_segment("OA", circle("O", r)), "Radius")
}

fn radius_half_diameter(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let t = uniform(rng, 0.0, 360.0);
    s.pt("A", go(o, t, r));
    s.pt("B", go(o, t + 180.0, r));
    s.seg("AB");
    s.key(on_circle("A", "O", r));
    s.cond(on_line("O", "AB"));
    s.key(midpoint("O", "AB"));
    s.because("O is the midpoint of AB, so OB = OA, and A is on the circle: B is on it too, and OB is a radius.");
    s.done(ask_segment("OB", circle("O", r)), "Radius")
}

/// Circle O with A and B on it, the ends of a diameter. Returns the sketch, the
/// radius and B's direction from O.
fn ends_on_circle(rng: &mut Rng) -> (Sketch, f64, f64) {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let t = uniform(rng, 0.0, 360.0);
    s.pt("A", go(o, t, r));
    s.pt("B", go(o, t + 180.0, r));
    (s, r, t + 180.0)
}

fn diameter_center(rng: &mut Rng) -> Option<Built> {
    let (mut s, r, _) = ends_on_circle(rng);
    s.seg("AB");
    s.key(on_circle("A", "O", r));
    s.key(on_circle("B", "O", r));
    s.key(between("O", "AB"));
    s.because("AB joins two points of the circle through its centre O: it is a diameter.");
    s.done(ask_segment("AB", circle("O", r)), "Diameter")
}

fn diameter_thales(rng: &mut Rng) -> Option<Built> {
    let (mut s, r, b) = ends_on_circle(rng);
    let o = s.at("O");
    s.pt("C", go(o, b + degrees(rng, 60, 120), r));
    for l in ["AB", "AC", "BC"] {
        s.seg(l);
    }
    s.arc("ACB");
    for p in ["A", "B", "C"] {
        s.key(on_circle(p, "O", r));
    }
    s.key(angle_value("ACB", 90.0));
    s.because("A, B and C are on the circle and ∠ACB = 90°: an inscribed right angle stands on a diameter, so AB is a diameter.");
    s.done(ask_segment("AB", circle("O", r)), "Diameter")
}

fn diameter_length(rng: &mut Rng) -> Option<Built> {
    let (mut s, r, _) = ends_on_circle(rng);
    s.seg("AB");
    s.key(on_circle("A", "O", r));
    s.key(on_circle("B", "O", r));
    s.key(length("AB", 2.0 * r));
    s.because(format!(
        "A and B are on the circle and AB = {} = 2 · {}, the longest chord: AB is a diameter.",
        fmt(2.0 * r),
        fmt(r)
    ));
    s.done(ask_segment("AB", circle("O", r)), "Diameter")
}

fn chord_length(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let len = (r * uniform(rng, 0.8, 1.6) * 2.0).round() / 2.0;
    let half = (len / (2.0 * r)).asin().to_degrees();
    let t = uniform(rng, 0.0, 360.0);
    s.pt("A", go(o, t - half, r));
    s.pt("B", go(o, t + half, r));
    s.seg("AB");
    s.key(on_circle("A", "O", r));
    s.key(on_circle("B", "O", r));
    s.key(length("AB", len));
    s.because(format!(
        "A and B are on the circle and AB = {} is shorter than the diameter {}: AB is a chord, not through the centre.",
        fmt(len),
        fmt(2.0 * r)
    ));
    s.done(ask_segment("AB", circle("O", r)), CHORD)
}

fn chord_distance(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let h = (r * uniform(rng, 0.3, 0.6) * 2.0).round() / 2.0;
    let t = uniform(rng, 0.0, 360.0);
    let hp = go(o, t, h);
    let w = (r * r - h * h).sqrt();
    s.pt("A", go(hp, t + 90.0, w));
    s.pt("B", go(hp, t - 90.0, w));
    s.pt("H", hp);
    s.seg("AB");
    s.seg("OH");
    s.key(on_circle("A", "O", r));
    s.key(on_circle("B", "O", r));
    s.cond(between("H", "AB"));
    s.cond(perpendicular("OH", "AB"));
    s.key(length("OH", h));
    s.because(format!(
        "A and B are on the circle and the distance OH from O to AB is {} > 0: AB does not pass through the centre, so it is a chord, not a diameter.",
        fmt(h)
    ));
    s.done(ask_segment("AB", circle("O", r)), CHORD)
}

fn chord_angle(rng: &mut Rng) -> Option<Built> {
    let mut s = Sketch::default();
    let r = circle_o(rng, &mut s);
    let o = s.at("O");
    let x = oblique(rng, 35, 145, 15.0)?;
    // An inscribed angle of x stands on an arc of 2x.
    let t = uniform(rng, 0.0, 360.0);
    s.pt("A", go(o, t, r));
    s.pt("B", go(o, t + 2.0 * x, r));
    s.pt("C", go(o, t + x + 180.0, r));
    for l in ["AB", "AC", "BC"] {
        s.seg(l);
    }
    s.arc("ACB");
    for p in ["A", "B", "C"] {
        s.key(on_circle(p, "O", r));
    }
    s.key(angle_value("ACB", x));
    s.because(format!(
        "A, B and C are on the circle and the inscribed angle ∠ACB = {}° is not 90°, so AB is not a diameter: it is a chord.",
        fmt(x)
    ));
    s.done(ask_segment("AB", circle("O", r)), CHORD)
}
