//! Probes on pairs of drawn lines: parallel, perpendicular, which is longer, equal.
//!
//! Margins (the picture decides): parallel and perpendicular are "Yes" within 1° of
//! the relation and "No" at 10° or more from it; one of two lines is "longer" only
//! when it is 10 % longer or more; two lines are "equal" within 0.5 % and "not
//! equal" 10 % apart or more. Every line asked about is at least [`MIN_LEN`] px long.

use super::{Answers, Candidate, KindDef, ProbeKind, Texts, fmt1, yes_no_options};
use crate::compose::{GLine, Grounding};

/// The shortest line (px) a probe asks about.
pub(crate) const MIN_LEN: f64 = 20.0;
/// Within this many degrees of a relation, it holds to the eye.
pub(crate) const HOLDS_DEG: f64 = 1.0;
/// At least this many degrees away from a relation, it visibly fails.
pub(crate) const FAILS_DEG: f64 = 10.0;
/// Lengths this close (relative) are equal to the eye...
pub(crate) const SAME_LEN: f64 = 0.005;
/// ...and lengths at least this ratio apart visibly differ.
pub(crate) const DIFFERENT_LEN: f64 = 1.1;

pub(super) const PARALLEL: KindDef = KindDef {
    kind: ProbeKind::Parallel,
    name: "parallel",
    asks: "whether two drawn line segments are parallel",
    answers: Answers::YesNo,
    candidates: parallel,
    texts: |g, c| {
        let (s, t) = names(g, c);
        Texts {
            question: format!("Is the line segment {s} parallel to the line segment {t}?"),
            why: format!("{s} and {t} are {} degrees apart", fmt1(c.measure[0])),
            elements: vec![s, t],
            options: yes_no_options(),
        }
    },
};

pub(super) const PERPENDICULAR: KindDef = KindDef {
    kind: ProbeKind::Perpendicular,
    name: "perpendicular",
    asks: "whether two drawn line segments are perpendicular",
    answers: Answers::YesNo,
    candidates: perpendicular,
    texts: |g, c| {
        let (s, t) = names(g, c);
        Texts {
            question: format!("Is the line segment {s} perpendicular to the line segment {t}?"),
            why: format!(
                "{s} and {t} make an angle of {} degrees",
                fmt1(c.measure[0])
            ),
            elements: vec![s, t],
            options: yes_no_options(),
        }
    },
};

pub(super) const COMPARISON: KindDef = KindDef {
    kind: ProbeKind::LineComparison,
    name: "line_comparison",
    asks: "which of two drawn line segments is longer",
    answers: Answers::Options,
    candidates: comparison,
    texts: |g, c| {
        // Options in the candidate's order (`correct` indexes them), asked by name.
        let (s, t) = (
            g.line_name(&g.lines[c.about[0]]),
            g.line_name(&g.lines[c.about[1]]),
        );
        let (first, second) = names(g, c);
        Texts {
            question: format!("Which line segment is longer, {first} or {second}?"),
            why: format!(
                "{s} is {} px long and {t} is {} px",
                fmt1(c.measure[0]),
                fmt1(c.measure[1])
            ),
            options: vec![s.clone(), t.clone()],
            elements: vec![first, second],
        }
    },
};

pub(super) const EQUAL: KindDef = KindDef {
    kind: ProbeKind::Equal,
    name: "equal",
    asks: "whether two drawn line segments are equal in length",
    answers: Answers::YesNo,
    candidates: equal,
    texts: |g, c| {
        let (s, t) = names(g, c);
        let (a, b) = (
            g.line_name(&g.lines[c.about[0]]),
            g.line_name(&g.lines[c.about[1]]),
        );
        Texts {
            question: format!("Are the line segments {s} and {t} equal in length?"),
            why: format!(
                "{a} is {} px long and {b} is {} px",
                fmt1(c.measure[0]),
                fmt1(c.measure[1])
            ),
            elements: vec![s, t],
            options: yes_no_options(),
        }
    },
};

/// The names of the two lines a pair candidate is about, in alphabetical order.
fn names(g: &Grounding, c: &Candidate) -> (String, String) {
    let (s, t) = (
        g.line_name(&g.lines[c.about[0]]),
        g.line_name(&g.lines[c.about[1]]),
    );
    if s <= t { (s, t) } else { (t, s) }
}

/// A drawn line between two labelled points: its index in the grounding's lines,
/// its ends and its length in px.
pub(crate) struct Seen {
    pub line: usize,
    pub ends: [usize; 2],
    pub a: [f64; 2],
    pub b: [f64; 2],
    pub length: f64,
}

/// The drawn lines whose both ends are labelled, at least [`MIN_LEN`] long.
pub(crate) fn seen_lines(g: &Grounding) -> Vec<Seen> {
    (g.lines.iter().enumerate())
        .filter(|(_, l): &(usize, &GLine)| l.ends.iter().all(|&i| g.points[i].labelled))
        .map(|(line, l)| {
            let (a, b) = (g.points[l.ends[0]].at, g.points[l.ends[1]].at);
            Seen {
                line,
                ends: l.ends,
                a,
                b,
                length: (b[0] - a[0]).hypot(b[1] - a[1]),
            }
        })
        .filter(|s| s.length >= MIN_LEN)
        .collect()
}

/// The angle between two lines' directions, 0–90°.
pub(crate) fn between(s: &Seen, t: &Seen) -> f64 {
    let d1 = [s.b[0] - s.a[0], s.b[1] - s.a[1]];
    let d2 = [t.b[0] - t.a[0], t.b[1] - t.a[1]];
    let cos = (d1[0] * d2[0] + d1[1] * d2[1]).abs() / (s.length * t.length);
    cos.clamp(0.0, 1.0).acos().to_degrees()
}

fn shares_end(s: &Seen, t: &Seen) -> bool {
    s.ends.iter().any(|e| t.ends.contains(e))
}

/// Distance (px) from `p` to the infinite line through `s`.
fn off_line(s: &Seen, p: [f64; 2]) -> f64 {
    let d = [s.b[0] - s.a[0], s.b[1] - s.a[1]];
    ((p[0] - s.a[0]) * d[1] - (p[1] - s.a[1]) * d[0]).abs() / s.length
}

/// Every unordered pair of seen lines, in order.
fn pairs(lines: &[Seen]) -> impl Iterator<Item = (&Seen, &Seen)> {
    (0..lines.len()).flat_map(move |i| (i + 1..lines.len()).map(move |j| (&lines[i], &lines[j])))
}

fn parallel(g: &Grounding) -> Vec<Candidate> {
    let lines = seen_lines(g);
    let mut out = Vec::new();
    for (s, t) in pairs(&lines) {
        // Lines with a common end meet; two pieces of one line are not a pair.
        if shares_end(s, t) || (off_line(s, t.a) < 2.0 && off_line(s, t.b) < 2.0) {
            continue;
        }
        let deg = between(s, t);
        let yes = deg <= HOLDS_DEG;
        if yes || deg >= FAILS_DEG {
            out.push(Candidate::yes_no(
                [s.line, t.line, 0],
                yes,
                [deg, 0.0],
                sig(g, s, t),
            ));
        }
    }
    out
}

/// A pair's signature: whether the two segments share a point, whether they are
/// sides of one shape, and where the shared point's letter stands in each name
/// (first or second, the names being alphabetical).
fn sig(g: &Grounding, s: &Seen, t: &Seen) -> u32 {
    // In the order the question names them.
    let (s, t) = match g.line_name(&g.lines[s.line]) <= g.line_name(&g.lines[t.line]) {
        true => (s, t),
        false => (t, s),
    };
    let all = [s.ends[0], s.ends[1], t.ends[0], t.ends[1]];
    let shared = s.ends.iter().find(|e| t.ends.contains(e));
    // Whether `p` is the alphabetically first end of `l`.
    let first = |l: &Seen, p: usize| {
        let other = if l.ends[0] == p { l.ends[1] } else { l.ends[0] };
        g.points[p].name <= g.points[other].name
    };
    let order = shared.map_or(0, |&p| {
        1 + u32::from(first(s, p)) + 2 * u32::from(first(t, p))
    });
    u32::from(g.one_shape(&all)) | (order << 1)
}

fn perpendicular(g: &Grounding) -> Vec<Candidate> {
    let lines = seen_lines(g);
    let mut out = Vec::new();
    for (s, t) in pairs(&lines) {
        let deg = between(s, t);
        let yes = 90.0 - deg <= HOLDS_DEG;
        if yes || 90.0 - deg >= FAILS_DEG {
            out.push(Candidate::yes_no(
                [s.line, t.line, 0],
                yes,
                [deg, 0.0],
                sig(g, s, t),
            ));
        }
    }
    out
}

fn comparison(g: &Grounding) -> Vec<Candidate> {
    let lines = seen_lines(g);
    let mut out = Vec::new();
    for (s, t) in pairs(&lines) {
        let (hi, lo) = (s.length.max(t.length), s.length.min(t.length));
        if hi >= DIFFERENT_LEN * lo {
            out.push(Candidate {
                about: [s.line, t.line, 0],
                correct: usize::from(t.length > s.length),
                measure: [s.length, t.length],
                count: None,
                sig: 0,
            });
        }
    }
    out
}

fn equal(g: &Grounding) -> Vec<Candidate> {
    let lines = seen_lines(g);
    let mut out = Vec::new();
    for (s, t) in pairs(&lines) {
        let (hi, lo) = (s.length.max(t.length), s.length.min(t.length));
        let yes = hi - lo <= SAME_LEN * hi;
        if yes || hi >= DIFFERENT_LEN * lo {
            let sig = sig(g, s, t);
            out.push(Candidate::yes_no(
                [s.line, t.line, 0],
                yes,
                [s.length, t.length],
                sig,
            ));
        }
    }
    out
}
