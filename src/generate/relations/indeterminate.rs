//! Indeterminate items ("Cannot be inferred") from any construction: one of the
//! conditions its answer needs (a key, [`Role::Key`]) is taken away, and the
//! figure is moved, by the smallest steps that keep every other stated condition
//! ([`super::solve`]), to one where that condition no longer holds.
//!
//! - In the text mode the figure must not show the relation the full conditions
//!   would give, exactly or by eye: the key is broken by a clear amount (12° to 30°,
//!   15 % to 35 %), or another answer of the family is made exactly true. The key's
//!   place among the conditions is taken by one of the same kind about a new
//!   element ([`super::decoy`]), so that the item reads like its determinate
//!   siblings: the same number of conditions, of the same kinds, in the same order.
//! - In the visual mode (the figure is stated not to be drawn to scale) the key is
//!   one a mark would carry (a right angle, parallels, equal parts, a value), broken
//!   by less than a degree or a percent: the relation *looks* true, but no mark
//!   gives it. Incidences and sides, which a figure shows, are never the key there.

use super::item::{Asked, Condition, FigureRef, Mode};
use super::sketch::{Built, Role, Sketch, dist, uniform};
use super::solve::{self, Eq, L};
use crate::generate::rng::Rng;

/// How much wider than its determinate figure an indeterminate one may be.
const GROWTH: f64 = 1.3;

/// A condition a mark carries in the visual mode (and a figure does not show by
/// itself): the only keys a visual indeterminate item drops.
pub(super) fn marked(c: &Condition) -> bool {
    matches!(
        c,
        Condition::Parallel { .. }
            | Condition::Perpendicular { .. }
            | Condition::Midpoint { .. }
            | Condition::EqualLengths { .. }
            | Condition::EqualAngles { .. }
            | Condition::AngleValue { .. }
            | Condition::Length { .. }
    )
}

/// The relations a visual indeterminate item may leave open: those a figure can
/// seem to show without showing an incidence (which it would be taken at its
/// word for): lines parallel or perpendicular, angles summing to 90° or 180°, a
/// triangle's special segments.
const LOOK_ALIKE: [&str; 8] = [
    "Parallel",
    "Perpendicular",
    "Complementary",
    "Supplementary",
    "Median",
    "Altitude",
    "Angle bisector",
    "Midline",
];

/// Whether a determinate item `b` can be made indeterminate in `mode`.
pub(super) fn can_drop(b: &Built, mode: Mode) -> bool {
    !droppable(&b.sketch, mode).is_empty() && (mode == Mode::Text || LOOK_ALIKE.contains(&b.answer))
}

/// The keys of `s` an indeterminate item of `mode` may drop, by index.
pub(super) fn droppable(s: &Sketch, mode: Mode) -> Vec<usize> {
    (0..s.conditions.len())
        .filter(|&i| s.roles[i] == Role::Key)
        .filter(|&i| mode == Mode::Text || marked(&s.conditions[i]))
        .collect()
}

/// How far a key is broken: clearly (text) or by less than a reader sees (visual).
#[derive(Clone, Copy)]
struct Amount {
    /// Degrees.
    angle: f64,
    /// A share of the length it is measured on.
    length: f64,
}

impl Amount {
    fn draw(rng: &mut Rng, mode: Mode) -> Amount {
        match mode {
            Mode::Text => Amount {
                angle: uniform(rng, 12.0, 30.0),
                length: uniform(rng, 0.15, 0.35),
            },
            Mode::Visual => Amount {
                angle: uniform(rng, 0.3, 0.9),
                length: uniform(rng, 0.003, 0.009),
            },
        }
    }
}

/// The indeterminate version of `det`: its key `key` dropped and its figure moved.
/// `None` when the figure cannot be moved so (the caller draws again). In the text
/// mode the key's place is left for [`super::decoy::replace`].
pub(super) fn make(
    det: &Built,
    key: usize,
    mode: Mode,
    rng: &mut Rng,
) -> Result<Built, &'static str> {
    let s = &det.sketch;
    let dropped = s.conditions.get(key).ok_or("no key")?.clone();
    let size = super::eye::size(s);
    let mut eqs: Vec<Eq> = Vec::new();
    for (i, c) in s.conditions.iter().enumerate() {
        if i != key {
            eqs.extend(solve::equations(s, c));
        }
    }
    eqs.extend(incidences(s, &dropped, &det.asked));
    let amount = Amount::draw(rng, mode);
    let mut points = s.points.clone();
    // Broken by an amount, or (text) another answer made exactly true.
    let mut ways: Vec<Vec<Eq>> = vec![violation(s, &dropped, amount, rng)];
    if mode == Mode::Text {
        ways.extend(
            targets(s, &det.asked, rng)
                .into_iter()
                .filter(|(answer, _)| *answer != det.answer)
                .map(|(_, t)| t),
        );
    }
    let pick = rng.index(ways.len());
    if pick == 0 {
        // A point taken to the other side of a line starts there: moving it
        // across would pass through configurations the other conditions forbid.
        if let Condition::SameSide { points: p, line }
        | Condition::OppositeSides { points: p, line } = &dropped
        {
            let (a, b) = (s.at(&line[0]), s.at(&line[1]));
            for q in attached(s, s.index(&p[1])) {
                points[q] = reflect(points[q], a, b);
            }
        }
    }
    eqs.extend(ways.swap_remove(pick));
    let mut unique: Vec<Eq> = Vec::with_capacity(eqs.len());
    for e in eqs {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    if !solve::project(&unique, &mut points, size) {
        return Err("no figure keeps the rest");
    }
    let mut out = s.clone();
    out.points = points;
    out.conditions.remove(key);
    out.roles.remove(key);
    out.reasons = vec![reason(&dropped, mode)];
    // The moved figure keeps the rest of what it stated, and the key no longer.
    if out.spread() < super::sketch::MIN_SPREAD {
        return Err("points crowd");
    }
    // The same figure, not one stretched to make the key fail.
    if super::eye::size(&out) > GROWTH * size {
        return Err("the figure stretched");
    }
    if !super::decide::conditions_hold(&out) {
        return Err("an inequality of the rest broken");
    }
    let mut with_key = out.clone();
    with_key.conditions = vec![dropped];
    with_key.roles = vec![Role::Key];
    if super::decide::conditions_hold(&with_key) {
        return Err("the key still holds");
    }
    Ok(Built {
        sketch: out,
        asked: det.asked.clone(),
        answer: super::CANNOT_BE_INFERRED,
        unsettled: Some(det.answer),
    })
}

/// Point `q` and the points on the drawn segments through it: what is reflected
/// with it (a line through a point of the mirror stays a line through it).
fn attached(s: &Sketch, q: usize) -> Vec<usize> {
    let size = super::eye::size(s);
    let on = |i: usize, [a, b]: [usize; 2]| {
        i == a || i == b || {
            let (p, pa, pb) = (s.points[i], s.points[a], s.points[b]);
            let t = solve::along(p, pa, pb);
            solve::side(p, pa, pb).abs() <= super::check::TOL * size && (0.0..=1.0).contains(&t)
        }
    };
    let mut out = vec![q];
    for &seg in &s.segments {
        if on(q, seg) {
            for i in 0..s.points.len() {
                if on(i, seg) && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    }
    out
}

/// `p` reflected in the line through `a`, `b`.
fn reflect(p: super::sketch::P, a: super::sketch::P, b: super::sketch::P) -> super::sketch::P {
    let t = solve::along(p, a, b);
    let f = super::sketch::lerp(a, b, t);
    [2.0 * f[0] - p[0], 2.0 * f[1] - p[1]]
}

/// The solution's sentence for an item whose key `c` is not given.
fn reason(c: &Condition, mode: Mode) -> String {
    let sentence = super::text::condition(c);
    let clause = sentence.trim_end_matches('.');
    // "Point M lies …" reads "point M lies …" inside the sentence; "OP = 4.5"
    // and "∠ABC = 40°" start with names and stay as they are.
    let mut chars = clause.chars();
    let clause: String = match (chars.next(), chars.clone().next()) {
        (Some(first), Some(second)) if second.is_lowercase() => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => clause.to_string(),
    };
    let [head, tail] = match mode {
        Mode::Text => TEXT_REASON,
        Mode::Visual => VISUAL_REASON,
    };
    format!("{head}{clause}{tail}")
}

/// The sentence [`reason`] writes about the key not given, around its clause.
const TEXT_REASON: [&str; 2] = [
    "The relation would follow if ",
    ", but that is not given and nothing else fixes it: figures that keep every stated condition differ in it.",
];
const VISUAL_REASON: [&str; 2] = [
    "The figure is not drawn to scale, and no mark says that ",
    ": without it the relation may hold or not, however it looks.",
];

/// A visual item's solution as the text mode words it, for its text-only version
/// (no figure): its sentence on the key no mark gives restated for conditions in
/// words; the other reasons name no figure and stay.
pub(super) fn reworded_for_text(cot: &str) -> String {
    let [head, tail] = VISUAL_REASON;
    let Some((before, rest)) = cot.split_once(head) else {
        return cot.to_string();
    };
    let Some((clause, after)) = rest.split_once(tail) else {
        return cot.to_string();
    };
    let [head, tail] = TEXT_REASON;
    format!("{before}{head}{clause}{tail}{after}")
}

/// The incidences the figure shows (a point on a drawn segment or circle) that no
/// condition states: kept while the figure moves, so that it stays the same
/// figure. Not those of the dropped key, nor those among the asked elements'
/// points alone (they are what the question is about).
fn incidences(s: &Sketch, dropped: &Condition, asked: &Asked) -> Vec<Eq> {
    let size = super::eye::size(s);
    let tol = super::check::TOL * size;
    let names = asked_names(asked);
    let asked_only = |pts: &[usize]| pts.iter().all(|&i| names.contains(&s.names[i]));
    let key_on = |p: usize, ends: [usize; 2]| {
        let n = |i: usize| s.names[i].as_str();
        let same = |l: &[String; 2]| {
            (l[0] == n(ends[0]) && l[1] == n(ends[1])) || (l[0] == n(ends[1]) && l[1] == n(ends[0]))
        };
        match dropped {
            Condition::OnLine { point, line } => point == n(p) && same(line),
            Condition::Between { point, ends: l } | Condition::Midpoint { point, ends: l } => {
                point == n(p) && same(l)
            }
            _ => false,
        }
    };
    let mut segments: Vec<L> = s.segments.clone();
    for (_, v) in &s.polygons {
        for k in 0..v.len() {
            segments.push([v[k], v[(k + 1) % v.len()]]);
        }
    }
    let mut out = Vec::new();
    for i in 0..s.points.len() {
        for &[a, b] in &segments {
            if i == a || i == b || key_on(i, [a, b]) || asked_only(&[i, a, b]) {
                continue;
            }
            let (p, pa, pb) = (s.points[i], s.points[a], s.points[b]);
            let t = solve::along(p, pa, pb);
            if solve::side(p, pa, pb).abs() <= tol && (0.0..=1.0).contains(&t) {
                out.push(Eq::Side(i, [a, b], 0.0));
            }
        }
        for &(c, r) in &s.circles {
            let on_key =
                matches!(dropped, Condition::OnCircle { point, .. } if *point == s.names[i]);
            if i == c || on_key || asked_only(&[i, c]) {
                continue;
            }
            if (dist(s.points[i], s.points[c]) - r).abs() <= super::check::TOL * r.max(1.0) {
                out.push(Eq::Dist(i, c, r));
            }
        }
    }
    out
}

/// The point names the asked elements use.
pub(super) fn asked_names(asked: &Asked) -> Vec<String> {
    let figure = |f: &FigureRef| match f {
        FigureRef::Polygon { vertices } => vertices.clone(),
        FigureRef::Circle { center, .. } => vec![center.clone()],
    };
    match asked {
        Asked::Points { points } => points.to_vec(),
        Asked::PointLine { point, line } => vec![point.clone(), line[0].clone(), line[1].clone()],
        Asked::Lines { a, b } => a.iter().chain(b).cloned().collect(),
        Asked::AngleMeasures { a, b } | Asked::AnglePositions { a, b } => {
            a.iter().chain(b).cloned().collect()
        }
        Asked::QuadrilateralAngles { quad, .. } => quad.to_vec(),
        Asked::PointFigure { point, figure: f } => [vec![point.clone()], figure(f)].concat(),
        Asked::LineCircle { line, circle } => [line.to_vec(), figure(circle)].concat(),
        Asked::Segment { segment, figure: f } => [segment.to_vec(), figure(f)].concat(),
    }
}

/// The equations that break `c` by `amount` (a random sign; for a point between
/// two others, off their line or past one end; for a midpoint, along its segment
/// or off it; for a side of a line, the other side).
fn violation(s: &Sketch, c: &Condition, amount: Amount, rng: &mut Rng) -> Vec<Eq> {
    let i = |n: &String| s.index(n);
    let l = |x: &[String; 2]| [i(&x[0]), i(&x[1])];
    let a = |x: &[String; 3]| [i(&x[0]), i(&x[1]), i(&x[2])];
    let len = |x: L| dist(s.points[x[0]], s.points[x[1]]);
    let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
    let turn = amount.angle.to_radians();
    let k = amount.length;
    match c {
        Condition::Parallel { a: x, b: y } => vec![Eq::Sine(l(x), l(y), sign * turn.sin())],
        Condition::Perpendicular { a: x, b: y } => {
            vec![Eq::Cosine(l(x), l(y), sign * turn.sin())]
        }
        Condition::OnLine { point, line } => {
            vec![Eq::Side(i(point), l(line), sign * k * len(l(line)))]
        }
        Condition::Between { point, ends } => {
            let (q, e) = (i(point), l(ends));
            if rng.chance(0.5) {
                vec![Eq::Side(q, e, sign * k * len(e))]
            } else {
                let t = if sign > 0.0 { 1.0 + k } else { -k };
                vec![Eq::Side(q, e, 0.0), Eq::Along(q, e, t)]
            }
        }
        Condition::Midpoint { point, ends } => {
            let (q, e) = (i(point), l(ends));
            if rng.chance(0.5) {
                // Along its segment, staying strictly inside it.
                let t = 0.5 + sign * k.min(0.3);
                vec![Eq::Side(q, e, 0.0), Eq::Along(q, e, t)]
            } else {
                vec![Eq::Along(q, e, 0.5), Eq::Side(q, e, sign * k * len(e))]
            }
        }
        Condition::SameSide { points, line } | Condition::OppositeSides { points, line } => {
            let (q, e) = (i(&points[1]), l(line));
            let now = solve::side(s.points[q], s.points[e[0]], s.points[e[1]]);
            vec![Eq::Side(q, e, -now)]
        }
        Condition::AngleValue { angle, degrees } => {
            let mut v = degrees + sign * amount.angle;
            if !(5.0..=175.0).contains(&v) {
                v = degrees - sign * amount.angle;
            }
            vec![Eq::Angle(a(angle), v.to_radians())]
        }
        Condition::EqualAngles { a: x, b: y } => vec![Eq::AngleDiff(a(x), a(y), sign * turn)],
        Condition::Length { segment, value } => {
            let [p, q] = l(segment);
            vec![Eq::Dist(p, q, value * (1.0 + sign * k))]
        }
        Condition::EqualLengths { a: x, b: y } => vec![Eq::Ratio(l(x), l(y), 1.0 + sign * k)],
        Condition::OnCircle {
            point,
            center,
            radius,
        } => vec![Eq::Dist(i(point), i(center), radius * (1.0 + sign * k))],
        Condition::Tangent {
            line,
            center,
            radius,
        } => {
            let (e, o) = (l(line), i(center));
            vec![Eq::Side(
                o,
                e,
                side_sign(s, o, e, rng) * radius * (1.0 + sign * k),
            )]
        }
    }
}

/// The side of line `e` point `o` is on (either, at random, when it is on it):
/// distances from a line are aimed at with their sign, which has no kink.
fn side_sign(s: &Sketch, o: usize, e: L, rng: &mut Rng) -> f64 {
    let now = solve::side(s.points[o], s.points[e[0]], s.points[e[1]]);
    if now.abs() > super::check::TOL * super::eye::size(s) {
        now.signum()
    } else if rng.chance(0.5) {
        1.0
    } else {
        -1.0
    }
}

/// Equations that make each answer of the asked family exactly true, where one
/// value does (parallel, tangent, a median's foot at the midpoint): (the answer,
/// its equations).
fn targets(s: &Sketch, asked: &Asked, rng: &mut Rng) -> Vec<(&'static str, Vec<Eq>)> {
    let i = |n: &String| s.index(n);
    let l = |x: &[String; 2]| [i(&x[0]), i(&x[1])];
    let a = |x: &[String; 3]| [i(&x[0]), i(&x[1]), i(&x[2])];
    let right = std::f64::consts::FRAC_PI_2;
    let mut out: Vec<(&'static str, Vec<Eq>)> = Vec::new();
    match asked {
        Asked::Points { points } => {
            // On the line through the other two, beyond one of them: the nearest
            // place on it may be one of them.
            let [p, q, r] = a(points);
            let t = if rng.chance(0.5) {
                uniform(rng, 1.4, 1.7)
            } else {
                -uniform(rng, 0.4, 0.7)
            };
            out.push((
                "Collinear",
                vec![Eq::Side(r, [p, q], 0.0), Eq::Along(r, [p, q], t)],
            ));
        }
        Asked::PointLine { point, line } => {
            out.push(("On the line", vec![Eq::Side(i(point), l(line), 0.0)]));
        }
        Asked::Lines { a: x, b: y } => {
            out.push(("Parallel", vec![Eq::Sine(l(x), l(y), 0.0)]));
            out.push(("Perpendicular", vec![Eq::Cosine(l(x), l(y), 0.0)]));
        }
        Asked::AngleMeasures { a: x, b: y } => {
            out.push(("Complementary", vec![Eq::AngleSum(a(x), a(y), right)]));
            out.push(("Supplementary", vec![Eq::AngleSum(a(x), a(y), 2.0 * right)]));
        }
        Asked::AnglePositions { .. } | Asked::QuadrilateralAngles { .. } => {}
        Asked::PointFigure { point, figure } => {
            let q = i(point);
            match figure {
                FigureRef::Circle { center, radius } => {
                    let o = i(center);
                    out.push(("On the boundary", vec![Eq::Dist(q, o, *radius)]));
                    out.push(("Inside", vec![Eq::Dist(q, o, 0.5 * radius)]));
                    out.push(("Outside", vec![Eq::Dist(q, o, 1.5 * radius)]));
                }
                FigureRef::Polygon { vertices } => {
                    let v: Vec<usize> = vertices.iter().map(i).collect();
                    let n = v.len();
                    let w = 1.0 / n as f64;
                    out.push((
                        "Inside",
                        vec![Eq::At(q, v.iter().map(|k| (*k, w)).collect())],
                    ));
                    let k = q % n;
                    let (e0, e1) = (v[k], v[(k + 1) % n]);
                    out.push((
                        "On the boundary",
                        vec![Eq::At(q, vec![(e0, 0.5), (e1, 0.5)])],
                    ));
                    // Beyond a vertex, away from the centroid.
                    let mut far = vec![(e0, 1.6)];
                    far.extend(v.iter().map(|x| (*x, -0.6 * w)));
                    out.push(("Outside", vec![Eq::At(q, far)]));
                }
            }
        }
        Asked::LineCircle { line, circle } => {
            if let FigureRef::Circle { center, radius } = circle {
                let (e, o) = (l(line), i(center));
                let sign = side_sign(s, o, e, rng);
                for (answer, k) in [("Tangent", 1.0), ("Intersecting", 0.5), ("Disjoint", 1.5)] {
                    out.push((answer, vec![Eq::Side(o, e, sign * k * radius)]));
                }
            }
        }
        Asked::Segment { segment, figure } => match figure {
            FigureRef::Polygon { vertices } if vertices.len() == 3 => {
                let t = [i(&vertices[0]), i(&vertices[1]), i(&vertices[2])];
                let [p, q] = l(segment);
                for (v, f) in [(p, q), (q, p)] {
                    let Some(k) = t.iter().position(|x| *x == v) else {
                        continue;
                    };
                    let side = [t[(k + 1) % 3], t[(k + 2) % 3]];
                    let on = Eq::Side(f, side, 0.0);
                    out.push(("Median", vec![on.clone(), Eq::Along(f, side, 0.5)]));
                    out.push(("Altitude", vec![on.clone(), Eq::Cosine([v, f], side, 0.0)]));
                    out.push((
                        "Angle bisector",
                        vec![on, Eq::AngleDiff([side[0], v, f], [f, v, side[1]], 0.0)],
                    ));
                }
                let mid = |k: usize| vec![(t[k], 0.5), (t[(k + 1) % 3], 0.5)];
                out.push(("Midline", vec![Eq::At(p, mid(0)), Eq::At(q, mid(2))]));
            }
            FigureRef::Circle { center, radius } => {
                let (o, r) = (i(center), *radius);
                let [p, q] = l(segment);
                for (c, e) in [(p, q), (q, p)] {
                    if c == o {
                        out.push(("Radius", vec![Eq::Dist(e, o, r)]));
                    }
                }
                if p != o && q != o {
                    let both = vec![Eq::Dist(p, o, r), Eq::Dist(q, o, r)];
                    let mut through = both.clone();
                    through.push(Eq::Side(o, [p, q], 0.0));
                    out.push(("Diameter", through));
                    out.push((super::pool::CHORD, both));
                }
            }
            FigureRef::Polygon { .. } => {}
        },
    }
    out
}
