//! Conditions about a new element only: a point put on a drawn segment, the
//! midpoint of one, a short segment parallel or perpendicular to a drawn line, a
//! new ray at a stated angle, a point on the circle… Each new point appears in its
//! own condition and nowhere else, so whatever the other points do, it can be put
//! where its condition holds: such a condition settles nothing.
//!
//! They take the place of an indeterminate item's dropped key, in its kind (so
//! the item has the conditions, kinds and order of its determinate siblings), and
//! every text item gets zero to two more of them (so that a condition about an
//! element the question does not need is no sign of "Cannot be inferred").
//! Where a condition of that kind can name an element of the key (its line, its
//! vertex, its circle), it does: "CD ⟂ GH" becomes "CD ⟂ XY".

use super::eye;
use super::item::Condition;
use super::sketch::*;
use crate::generate::rng::Rng;

/// The kinds of condition, as a decoy can make them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Parallel,
    Perpendicular,
    OnLine,
    Between,
    Midpoint,
    SameSide,
    OppositeSides,
    AngleValue,
    EqualAngles,
    Length,
    EqualLengths,
    OnCircle,
    Tangent,
}

impl Kind {
    pub(super) fn of(c: &Condition) -> Kind {
        match c {
            Condition::Parallel { .. } => Kind::Parallel,
            Condition::Perpendicular { .. } => Kind::Perpendicular,
            Condition::OnLine { .. } => Kind::OnLine,
            Condition::Between { .. } => Kind::Between,
            Condition::Midpoint { .. } => Kind::Midpoint,
            Condition::SameSide { .. } => Kind::SameSide,
            Condition::OppositeSides { .. } => Kind::OppositeSides,
            Condition::AngleValue { .. } => Kind::AngleValue,
            Condition::EqualAngles { .. } => Kind::EqualAngles,
            Condition::Length { .. } => Kind::Length,
            Condition::EqualLengths { .. } => Kind::EqualLengths,
            Condition::OnCircle { .. } => Kind::OnCircle,
            Condition::Tangent { .. } => Kind::Tangent,
        }
    }
}

/// The kinds an extra is drawn from: every kind but those that need a circle,
/// which join when the figure has one.
const EXTRA_KINDS: [Kind; 11] = [
    Kind::Parallel,
    Kind::Perpendicular,
    Kind::OnLine,
    Kind::Between,
    Kind::Midpoint,
    Kind::SameSide,
    Kind::OppositeSides,
    Kind::AngleValue,
    Kind::EqualAngles,
    Kind::Length,
    Kind::EqualLengths,
];

/// Placements tried for one decoy before giving up.
const TRIES: usize = 16;

/// A decoy to add: its new points, the segments drawn with them, its condition.
struct Decoy {
    points: Vec<(String, P)>,
    segments: Vec<[String; 2]>,
    condition: Condition,
}

/// Puts a decoy of `key`'s kind among `s`'s conditions at `at` (where `key` was).
/// `asked`: the points the question names, which a side condition keeps off.
pub(super) fn replace(
    s: &mut Sketch,
    at: usize,
    key: &Condition,
    asked: &[String],
    rng: &mut Rng,
) -> Option<()> {
    add(s, Kind::of(key), Some(key), asked, at, rng)
}

/// Adds zero, one or two decoys (a quarter, a half, a quarter of items), of kinds
/// drawn from [`EXTRA_KINDS`] (and the circle's, when there is one), at seeded
/// places among the conditions.
pub(super) fn extras(s: &mut Sketch, asked: &[String], rng: &mut Rng) -> Option<()> {
    let count = match rng.index(4) {
        0 => 0,
        3 => 2,
        _ => 1,
    };
    let mut kinds = EXTRA_KINDS.to_vec();
    if !s.circles.is_empty() {
        kinds.extend([Kind::OnCircle, Kind::Tangent]);
    }
    for _ in 0..count {
        let kind = kinds[rng.index(kinds.len())];
        let at = rng.index(s.conditions.len() + 1);
        add(s, kind, None, asked, at, rng)?;
    }
    Some(())
}

fn add(
    s: &mut Sketch,
    kind: Kind,
    key: Option<&Condition>,
    asked: &[String],
    at: usize,
    rng: &mut Rng,
) -> Option<()> {
    for _ in 0..TRIES {
        let Some(d) = propose(s, kind, key, asked, rng) else {
            continue;
        };
        let mut t = s.clone();
        for (n, p) in &d.points {
            t.pt(n, *p);
        }
        for [a, b] in &d.segments {
            t.seg(&format!("{a}{b}"));
        }
        t.insert(at.min(t.conditions.len()), d.condition, Role::Decoy);
        if fits(s, &t) {
            *s = t;
            return Some(());
        }
    }
    None
}

/// Whether `t` (`s` with a decoy) still reads clearly: no point crowding another,
/// none lying near a line it is not on, the figure not much wider than before.
fn fits(s: &Sketch, t: &Sketch) -> bool {
    let (lo, hi) = bounds(s);
    let pad = 0.1 * eye::size(s);
    let inside = t
        .points
        .iter()
        .all(|p| (0..2).all(|k| p[k] >= lo[k] - pad && p[k] <= hi[k] + pad));
    inside && t.spread() >= MIN_SPREAD && eye::near_miss(t).is_none() && !crosses(s, t)
}

/// Whether a segment `t` adds crosses one drawn before (a crossing would be a
/// point the figure shows and no condition names).
fn crosses(s: &Sketch, t: &Sketch) -> bool {
    let edges = |k: &Sketch| -> Vec<[usize; 2]> {
        let mut out = k.segments.clone();
        for (_, v) in &k.polygons {
            for i in 0..v.len() {
                out.push([v[i], v[(i + 1) % v.len()]]);
            }
        }
        out
    };
    let old = edges(s);
    let new: Vec<[usize; 2]> = (t.segments.iter())
        .filter(|e| !s.segments.contains(e))
        .copied()
        .collect();
    let side = |p: P, a: P, b: P| super::solve::side(p, a, b);
    new.iter().any(|&[a, b]| {
        old.iter().any(|&[c, d]| {
            if [c, d].contains(&a) || [c, d].contains(&b) {
                return false;
            }
            let (pa, pb, pc, pd) = (t.points[a], t.points[b], t.points[c], t.points[d]);
            side(pc, pa, pb) * side(pd, pa, pb) < 0.0 && side(pa, pc, pd) * side(pb, pc, pd) < 0.0
        })
    })
}

/// The square the figure is fitted to the canvas by (its box's larger side,
/// centred): where new elements may go.
fn bounds(s: &Sketch) -> (P, P) {
    let (lo, hi) = extent(s);
    let half = (hi[0] - lo[0]).max(hi[1] - lo[1]) / 2.0;
    let c = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    ([c[0] - half, c[1] - half], [c[0] + half, c[1] + half])
}

/// The figure's box: its points and circles.
fn extent(s: &Sketch) -> (P, P) {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    let mut take = |p: P| {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    };
    for p in &s.points {
        take(*p);
    }
    for (c, r) in &s.circles {
        let o = s.points[*c];
        take([o[0] - r, o[1] - r]);
        take([o[0] + r, o[1] + r]);
    }
    (lo, hi)
}

/// The points earlier decoys brought in: named only by decoys, and not asked.
fn decoy_points(s: &Sketch, asked: &[String]) -> Vec<String> {
    let names = |c: &Condition| -> Vec<String> {
        let mut v = Vec::new();
        let mut put = |n: &String| v.push(n.clone());
        match c {
            Condition::Parallel { a, b }
            | Condition::Perpendicular { a, b }
            | Condition::EqualLengths { a, b } => a.iter().chain(b).for_each(&mut put),
            Condition::OnLine { point, line }
            | Condition::Between { point, ends: line }
            | Condition::Midpoint { point, ends: line } => {
                put(point);
                line.iter().for_each(put);
            }
            Condition::SameSide { points, line } | Condition::OppositeSides { points, line } => {
                points.iter().chain(line).for_each(put)
            }
            Condition::AngleValue { angle, .. } => angle.iter().for_each(put),
            Condition::EqualAngles { a, b } => a.iter().chain(b).for_each(put),
            Condition::Length { segment, .. } => segment.iter().for_each(put),
            Condition::OnCircle { point, center, .. } => {
                put(point);
                put(center);
            }
            Condition::Tangent { line, center, .. } => {
                line.iter().for_each(&mut put);
                put(center);
            }
        }
        v
    };
    let mut by_decoys: Vec<String> = Vec::new();
    let mut by_others: Vec<String> = Vec::new();
    for (c, r) in s.conditions.iter().zip(&s.roles) {
        let into = if *r == Role::Decoy {
            &mut by_decoys
        } else {
            &mut by_others
        };
        into.extend(names(c));
    }
    by_decoys.retain(|n| !by_others.contains(n) && !asked.contains(n));
    by_decoys
}

/// A letter no point has (not O, kept for centres, nor I), at random.
fn fresh(s: &Sketch, taken: &[String], rng: &mut Rng) -> Option<String> {
    let free: Vec<String> = ('A'..='Z')
        .filter(|c| *c != 'O' && *c != 'I')
        .map(String::from)
        .filter(|n| !s.names.contains(n) && !taken.contains(n))
        .collect();
    (!free.is_empty()).then(|| free[rng.index(free.len())].clone())
}

/// The drawn segments (polygon sides included), by their points' names, but
/// those at a point an earlier decoy brought in: decoys are about the figure,
/// never about each other (a point two decoys name would no longer be free).
fn segments(s: &Sketch, asked: &[String]) -> Vec<[String; 2]> {
    let new_points = decoy_points(s, asked);
    let mut out: Vec<[usize; 2]> = s.segments.clone();
    for (_, v) in &s.polygons {
        for k in 0..v.len() {
            out.push([v[k], v[(k + 1) % v.len()]]);
        }
    }
    out.into_iter()
        .map(|[a, b]| [s.names[a].clone(), s.names[b].clone()])
        .filter(|l| !l.iter().any(|n| new_points.contains(n)))
        .collect()
}

/// The key's lines, drawn ones first, then every drawn segment.
fn lines(s: &Sketch, key: Option<&Condition>, asked: &[String]) -> Vec<[String; 2]> {
    let drawn = segments(s, asked);
    let mut out: Vec<[String; 2]> = Vec::new();
    if let Some(c) = key {
        let own: Vec<[String; 2]> = match c {
            Condition::Parallel { a, b }
            | Condition::Perpendicular { a, b }
            | Condition::EqualLengths { a, b } => vec![a.clone(), b.clone()],
            Condition::OnLine { line, .. }
            | Condition::Between { ends: line, .. }
            | Condition::Midpoint { ends: line, .. }
            | Condition::SameSide { line, .. }
            | Condition::OppositeSides { line, .. }
            | Condition::Tangent { line, .. } => vec![line.clone()],
            Condition::Length { segment, .. } => vec![segment.clone()],
            _ => Vec::new(),
        };
        out.extend(own);
    }
    if out.is_empty() {
        out = drawn;
    }
    out
}

fn pick<T: Clone>(v: &[T], rng: &mut Rng) -> Option<T> {
    (!v.is_empty()).then(|| v[rng.index(v.len())].clone())
}

/// A random place in the figure's box, a tenth in from its edges.
fn somewhere(s: &Sketch, rng: &mut Rng) -> P {
    let (lo, hi) = bounds(s);
    let m = [0.1 * (hi[0] - lo[0]), 0.1 * (hi[1] - lo[1])];
    [
        uniform(rng, lo[0] + m[0], hi[0] - m[0]),
        uniform(rng, lo[1] + m[1], hi[1] - m[1]),
    ]
}

/// A nice length near `x`: a whole number or a half.
fn nice(x: f64) -> f64 {
    ((x * 2.0).round() / 2.0).max(0.5)
}

fn propose(
    s: &Sketch,
    kind: Kind,
    key: Option<&Condition>,
    asked: &[String],
    rng: &mut Rng,
) -> Option<Decoy> {
    let size = eye::size(s);
    let x = fresh(s, &[], rng)?;
    let at = |n: &String| s.at(n);
    let one = |points: Vec<(String, P)>, segments: Vec<[String; 2]>, condition| {
        Some(Decoy {
            points,
            segments,
            condition,
        })
    };
    match kind {
        Kind::Midpoint => {
            // The midpoint of a new segment from a point of the figure (one of
            // the key's first): a point at the midpoint of a segment already
            // drawn would take a place another point may need (distinct names
            // are distinct points), and so settle what the key left open.
            let l = pick(&lines(s, key, asked), rng)?;
            let from = l[rng.index(2)].clone();
            let y = fresh(s, std::slice::from_ref(&x), rng)?;
            let far = go(
                at(&from),
                uniform(rng, 0.0, 360.0),
                size * uniform(rng, 0.3, 0.45),
            );
            one(
                vec![(x.clone(), mid(at(&from), far)), (y.clone(), far)],
                vec![[from.clone(), y.clone()]],
                Condition::Midpoint {
                    point: x,
                    ends: [from, y],
                },
            )
        }
        Kind::Between | Kind::OnLine => {
            let l = pick(&lines(s, key, asked), rng)?;
            let (a, b) = (at(&l[0]), at(&l[1]));
            if kind == Kind::Between {
                let p = lerp(a, b, uniform(rng, 0.25, 0.75));
                return one(vec![(x.clone(), p)], vec![], between_names(&x, &l));
            }
            let beyond_b = rng.chance(0.5);
            let t = if beyond_b {
                uniform(rng, 1.2, 1.4)
            } else {
                -uniform(rng, 0.2, 0.4)
            };
            let end = if beyond_b { l[1].clone() } else { l[0].clone() };
            one(
                vec![(x.clone(), lerp(a, b, t))],
                vec![[end, x.clone()]],
                Condition::OnLine {
                    point: x.clone(),
                    line: l.clone(),
                },
            )
        }
        Kind::Parallel | Kind::Perpendicular => {
            let l = pick(&lines(s, key, asked), rng)?;
            let y = fresh(s, std::slice::from_ref(&x), rng)?;
            let h = heading(at(&l[0]), at(&l[1]))
                + if kind == Kind::Perpendicular {
                    90.0
                } else {
                    0.0
                };
            let half = size * uniform(rng, 0.12, 0.2);
            let c = somewhere(s, rng);
            // Clearly off the line it is parallel or perpendicular to.
            if super::solve::side(c, at(&l[0]), at(&l[1])).abs() < 0.08 * size {
                return None;
            }
            let (p, q) = (go(c, h + 180.0, half), go(c, h, half));
            let new = [x.clone(), y.clone()];
            let condition = if kind == Kind::Parallel {
                Condition::Parallel { a: l, b: new }
            } else {
                Condition::Perpendicular { a: new, b: l }
            };
            one(
                vec![(x.clone(), p), (y.clone(), q)],
                vec![[x, y]],
                condition,
            )
        }
        Kind::SameSide | Kind::OppositeSides => {
            // Two new points, clearly on one side of a line of the figure, or on
            // either side of it, joined by a drawn segment (which, for opposite
            // sides, crosses the line beyond its drawn segment). A point of the
            // figure would be no decoy: "O and Y on one side of AB" says O is
            // off AB, which a diameter AB needs.
            let l = pick(&lines(s, key, asked), rng)?;
            let (a, b) = (at(&l[0]), at(&l[1]));
            let y = fresh(s, std::slice::from_ref(&x), rng)?;
            let (p, q) = (somewhere(s, rng), somewhere(s, rng));
            let (sp, sq) = (super::solve::side(p, a, b), super::solve::side(q, a, b));
            let same = kind == Kind::SameSide;
            let apart = dist(p, q) >= 0.15 * size && dist(p, q) <= 0.45 * size;
            if sp.abs() < 0.08 * size || sq.abs() < 0.08 * size || (sp * sq > 0.0) != same || !apart
            {
                return None;
            }
            let points = [x.clone(), y.clone()];
            let condition = if same {
                Condition::SameSide { points, line: l }
            } else {
                Condition::OppositeSides { points, line: l }
            };
            one(
                vec![(x.clone(), p), (y.clone(), q)],
                vec![[x, y]],
                condition,
            )
        }
        Kind::AngleValue | Kind::EqualAngles => {
            // A new ray from a vertex of a drawn segment (the key's angle's vertex
            // first), at a stated angle from it or equal to an angle there.
            let (v, arm, other) = vertex(s, key, asked, rng)?;
            // An angle made equal to one of the figure's is not one at the asked
            // points alone, nor one at another decoy's new point: when the
            // relation asked about holds, such an angle may be flat (three points
            // collinear), and one equal to it would be.
            let new_points = decoy_points(s, asked);
            if kind == Kind::EqualAngles {
                let o = other.as_ref()?;
                let all_asked = [&v, &arm, o].iter().all(|n| asked.contains(n));
                if all_asked || [&v, &arm, o].iter().any(|n| new_points.contains(n)) {
                    return None;
                }
            }
            let (pv, pa) = (at(&v), at(&arm));
            let (deg, condition) = if kind == Kind::AngleValue {
                let d = super::sketch::degrees(rng, 25, 155);
                let c = Condition::AngleValue {
                    angle: [x.clone(), v.clone(), arm.clone()],
                    degrees: d,
                };
                (d, c)
            } else {
                let o = other?;
                let d = angle_at(pa, pv, at(&o));
                let c = Condition::EqualAngles {
                    a: [x.clone(), v.clone(), arm.clone()],
                    b: [arm.clone(), v.clone(), o.clone()],
                };
                (d, c)
            };
            if !(10.0..=170.0).contains(&deg) {
                return None;
            }
            let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
            let p = go(
                pv,
                heading(pv, pa) + sign * deg,
                size * uniform(rng, 0.2, 0.35),
            );
            one(vec![(x.clone(), p)], vec![[v, x]], condition)
        }
        Kind::Length | Kind::EqualLengths => {
            let l = pick(&lines(s, key, asked), rng)?;
            let v = l[rng.index(2)].clone();
            let pv = at(&v);
            let (len, condition) = if kind == Kind::Length {
                let len = nice(size * uniform(rng, 0.2, 0.35));
                let c = Condition::Length {
                    segment: [v.clone(), x.clone()],
                    value: len,
                };
                (len, c)
            } else {
                let len = dist(at(&l[0]), at(&l[1]));
                let c = Condition::EqualLengths {
                    a: [v.clone(), x.clone()],
                    b: l.clone(),
                };
                (len, c)
            };
            let p = go(pv, uniform(rng, 0.0, 360.0), len);
            one(vec![(x.clone(), p)], vec![[v, x]], condition)
        }
        Kind::OnCircle | Kind::Tangent => {
            let (c, r) = pick(&s.circles, rng)?;
            let o = s.points[c];
            let center = s.names[c].clone();
            let t = uniform(rng, 0.0, 360.0);
            let p = go(o, t, r);
            if kind == Kind::OnCircle {
                return one(
                    vec![(x.clone(), p)],
                    vec![],
                    Condition::OnCircle {
                        point: x,
                        center,
                        radius: r,
                    },
                );
            }
            let y = fresh(s, std::slice::from_ref(&x), rng)?;
            let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
            let q = go(p, t + 90.0 * sign, r * uniform(rng, 0.6, 0.9));
            one(
                vec![(x.clone(), p), (y.clone(), q)],
                vec![[x.clone(), y.clone()]],
                Condition::Tangent {
                    line: [x, y],
                    center,
                    radius: r,
                },
            )
        }
    }
}

fn between_names(x: &str, l: &[String; 2]) -> Condition {
    Condition::Between {
        point: x.to_string(),
        ends: l.clone(),
    }
}

/// A vertex with a drawn segment from it (an arm), and another arm when it has
/// one: the key's angle's vertex first, else any drawn segment's end.
fn vertex(
    s: &Sketch,
    key: Option<&Condition>,
    asked: &[String],
    rng: &mut Rng,
) -> Option<(String, String, Option<String>)> {
    let segs = segments(s, asked);
    // Its arms: the other end of a drawn segment from it, or both ends of one
    // through it.
    let arms = |v: &String| -> Vec<String> {
        let pv = s.at(v);
        let mut out: Vec<String> = Vec::new();
        for [a, b] in &segs {
            if a == v {
                out.push(b.clone());
            } else if b == v {
                out.push(a.clone());
            } else {
                let (pa, pb) = (s.at(a), s.at(b));
                let on = super::solve::side(pv, pa, pb).abs() <= 1e-9 * eye::size(s);
                let t = super::solve::along(pv, pa, pb);
                if on && t > 0.0 && t < 1.0 {
                    out.extend([a.clone(), b.clone()]);
                }
            }
        }
        out.sort();
        out.dedup();
        out
    };
    let preferred = match key {
        Some(Condition::AngleValue { angle, .. }) => Some(angle[1].clone()),
        Some(Condition::EqualAngles { a, .. }) => Some(a[1].clone()),
        _ => None,
    };
    let v = match preferred.filter(|v| !arms(v).is_empty()) {
        Some(v) => v,
        None => {
            let ends: Vec<String> = segs.iter().flat_map(|l| l.iter().cloned()).collect();
            pick(&ends, rng)?
        }
    };
    let mut a = arms(&v);
    rng.shuffle(&mut a);
    let arm = a.first()?.clone();
    let other = a.get(1).cloned();
    Some((v, arm, other))
}
