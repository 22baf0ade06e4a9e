//! Angle classification: is the angle between two drawn lines at a labelled point
//! acute, right or obtuse?
//!
//! Margins: "right" only where the image draws a right-angle mark on the corner
//! (and the drawn angle is within 0.5° of 90°); "acute" at 82° or less, "obtuse"
//! from 98° to 170°. An unmarked angle near 90° is not asked: the eye cannot tell.

use super::lines::{Seen, seen_lines};
use super::{Answers, Candidate, KindDef, ProbeKind, Texts, fmt1};
use crate::compose::Grounding;

/// An unmarked angle is asked only this many degrees or more from 90°.
pub(crate) const FROM_RIGHT_DEG: f64 = 8.0;
/// Wider angles read as straight lines, and are not asked.
const MAX_DEG: f64 = 170.0;
/// Narrower angles are not asked either.
const MIN_DEG: f64 = 10.0;

pub(super) const CLASSIFICATION: KindDef = KindDef {
    kind: ProbeKind::AngleClassification,
    name: "angle_classification",
    asks: "whether the angle between two drawn lines at a labelled point is acute, right or obtuse",
    answers: Answers::Options,
    candidates: classification,
    texts: |g, c| {
        // The ends in alphabetical order (ABC, never CBA), the vertex between.
        let [a, v, b] = c.about.map(|i| g.points[i].name.as_str());
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let name = format!("{a}{v}{b}");
        Texts {
            question: format!("Is the angle {name} acute, right or obtuse?"),
            why: format!(
                "{name} measures {} degrees{}",
                fmt1(c.measure[0]),
                if c.measure[1] > 0.0 {
                    ", marked as a right angle"
                } else {
                    ""
                }
            ),
            elements: vec![name],
            options: CLASSES.iter().map(|s| s.to_string()).collect(),
        }
    },
};

/// The options, in this order before the correct one is placed.
pub(crate) const CLASSES: [&str; 3] = ["acute", "right", "obtuse"];

/// The far end of `s` from `v`, and the unit direction towards it.
fn arm(s: &Seen, v: usize) -> Option<(usize, [f64; 2])> {
    let (far, from, to) = match s.ends {
        [a, b] if a == v => (b, s.a, s.b),
        [a, b] if b == v => (a, s.b, s.a),
        _ => return None,
    };
    let d = [to[0] - from[0], to[1] - from[1]];
    Some((far, [d[0] / s.length, d[1] / s.length]))
}

fn degrees(u: [f64; 2], w: [f64; 2]) -> f64 {
    (u[0] * w[0] + u[1] * w[1])
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

fn classification(g: &Grounding) -> Vec<Candidate> {
    let lines = seen_lines(g);
    let unit = |from: usize, to: usize| {
        let (a, b) = (g.points[from].at, g.points[to].at);
        let l = (b[0] - a[0]).hypot(b[1] - a[1]);
        (l > 0.0).then(|| [(b[0] - a[0]) / l, (b[1] - a[1]) / l])
    };
    let mut out = Vec::new();
    for v in 0..g.points.len() {
        let arms: Vec<(usize, [f64; 2])> = lines.iter().filter_map(|s| arm(s, v)).collect();
        for i in 0..arms.len() {
            for j in i + 1..arms.len() {
                let ((a, ua), (b, ub)) = (arms[i], arms[j]);
                let deg = degrees(ua, ub);
                if !(MIN_DEG..=MAX_DEG).contains(&deg) {
                    continue;
                }
                // A right-angle mark on this corner: its arms along these two lines.
                let marked = g.right_angles.iter().any(|r| {
                    r[1] == v
                        && match (unit(v, r[0]), unit(v, r[2])) {
                            (Some(m0), Some(m2)) => {
                                (degrees(m0, ua) < 0.5 && degrees(m2, ub) < 0.5)
                                    || (degrees(m0, ub) < 0.5 && degrees(m2, ua) < 0.5)
                            }
                            _ => false,
                        }
                });
                let class = if marked && (deg - 90.0).abs() <= 0.5 {
                    1
                } else if deg <= 90.0 - FROM_RIGHT_DEG {
                    0
                } else if deg >= 90.0 + FROM_RIGHT_DEG {
                    2
                } else {
                    continue;
                };
                out.push(Candidate {
                    about: [a, v, b],
                    correct: class,
                    measure: [deg, f64::from(u8::from(marked))],
                    count: None,
                    sig: 0,
                });
            }
        }
    }
    out
}
