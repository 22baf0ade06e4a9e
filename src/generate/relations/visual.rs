//! The visual mode: an item's conditions drawn instead of stated, as a textbook
//! marks them — a right-angle mark where two lines are perpendicular, arrowheads
//! on parallel lines (as many on each line of a pair), ticks on equal segments and
//! on the halves a midpoint makes, the same letter on equal angles, a value on an
//! angle or segment whose measure is given. Incidences (a point on a line, a
//! segment, a circle), sides and tangency are what the picture shows by itself.

use super::item::Condition;
use super::sketch::{P, Sketch};
use crate::generate::{MarkKind, SegmentMark};

/// What the drawing adds to carry an item's conditions.
#[derive(Clone, Debug, Default)]
pub(super) struct Drawn {
    pub marks: Vec<SegmentMark>,
    pub right_angles: Vec<[usize; 3]>,
    /// Angles (a, vertex, b) with the label they carry.
    pub angle_labels: Vec<([usize; 3], String)>,
    /// Segments with the label they carry.
    pub segment_labels: Vec<([usize; 2], String)>,
}

/// Letters for equal angles, pair by pair.
const ANGLE_LETTERS: [&str; 3] = ["α", "β", "γ"];

fn on_line(p: P, a: P, b: P) -> bool {
    let (u, w) = ([b[0] - a[0], b[1] - a[1]], [p[0] - a[0], p[1] - a[1]]);
    let l = u[0].hypot(u[1]).max(w[0].hypot(w[1])).max(1.0);
    (u[0] * w[1] - u[1] * w[0]).abs() <= 1e-6 * l * l
}

/// Segments grouped into classes (parallel lines, equal segments): two pairs
/// that share a segment are one class, and every segment of a class gets the
/// class's number of marks.
#[derive(Default)]
struct Classes {
    /// (segment with sorted ends, class).
    members: Vec<([usize; 2], usize)>,
    classes: usize,
}

impl Classes {
    fn join(&mut self, a: [usize; 2], b: [usize; 2]) {
        let key = |s: [usize; 2]| [s[0].min(s[1]), s[0].max(s[1])];
        let (a, b) = (key(a), key(b));
        let of = |m: &Vec<([usize; 2], usize)>, s| m.iter().find(|(t, _)| *t == s).map(|x| x.1);
        match (of(&self.members, a), of(&self.members, b)) {
            (Some(x), Some(y)) if x != y => {
                for m in &mut self.members {
                    if m.1 == y {
                        m.1 = x;
                    }
                }
            }
            (Some(_), Some(_)) => {}
            (Some(x), None) => self.members.push((b, x)),
            (None, Some(y)) => self.members.push((a, y)),
            (None, None) => {
                self.members.push((a, self.classes));
                self.members.push((b, self.classes));
                self.classes += 1;
            }
        }
    }

    /// Each segment with its class's mark count (1, 2, 3 in order of first
    /// appearance); `None` past three classes.
    fn marks(&self, kind: MarkKind) -> Option<Vec<SegmentMark>> {
        let mut order: Vec<usize> = Vec::new();
        for (_, c) in &self.members {
            if !order.contains(c) {
                order.push(*c);
            }
        }
        (order.len() <= 3).then(|| {
            (self.members.iter())
                .map(|(points, c)| SegmentMark {
                    kind,
                    points: *points,
                    count: order.iter().position(|o| o == c).unwrap_or(0) as u8 + 1,
                })
                .collect()
        })
    }
}

/// The marks for `conditions` on `s`, or `None` when one cannot be drawn (two
/// perpendicular lines whose crossing is no named point, more than three classes
/// of parallels or of equal segments).
pub(super) fn draw(s: &Sketch, conditions: &[Condition]) -> Option<Drawn> {
    let mut out = Drawn::default();
    let idx = |n: &String| s.names.iter().position(|m| m == n);
    let (mut parallels, mut equal) = (Classes::default(), Classes::default());
    let mut equal_angles = 0usize;
    for c in conditions {
        match c {
            Condition::Parallel { a, b } => {
                parallels.join([idx(&a[0])?, idx(&a[1])?], [idx(&b[0])?, idx(&b[1])?]);
            }
            Condition::Perpendicular { a, b } => {
                let (a0, a1, b0, b1) = (idx(&a[0])?, idx(&a[1])?, idx(&b[0])?, idx(&b[1])?);
                let pt = |i: usize| s.points[i];
                // The crossing: a named point on both lines.
                let v = (0..s.points.len())
                    .find(|&v| on_line(pt(v), pt(a0), pt(a1)) && on_line(pt(v), pt(b0), pt(b1)))?;
                let arm = |x: usize, y: usize| if x != v { x } else { y };
                out.right_angles.push([arm(a0, a1), v, arm(b0, b1)]);
            }
            Condition::Midpoint { point, ends } => {
                let m = idx(point)?;
                equal.join([idx(&ends[0])?, m], [m, idx(&ends[1])?]);
            }
            Condition::EqualLengths { a, b } => {
                equal.join([idx(&a[0])?, idx(&a[1])?], [idx(&b[0])?, idx(&b[1])?]);
            }
            Condition::EqualAngles { a, b } => {
                let letter = ANGLE_LETTERS.get(equal_angles)?;
                equal_angles += 1;
                for x in [a, b] {
                    out.angle_labels
                        .push(([idx(&x[0])?, idx(&x[1])?, idx(&x[2])?], letter.to_string()));
                }
            }
            Condition::AngleValue { angle, degrees } => {
                let at = [idx(&angle[0])?, idx(&angle[1])?, idx(&angle[2])?];
                if (degrees - 90.0).abs() < 1e-9 {
                    out.right_angles.push(at);
                } else {
                    let text = format!("{}°", crate::decimal::fmt_shortest_f64(*degrees));
                    out.angle_labels.push((at, text));
                }
            }
            Condition::Length { segment, value } => {
                out.segment_labels.push((
                    [idx(&segment[0])?, idx(&segment[1])?],
                    crate::decimal::fmt_shortest_f64(*value),
                ));
            }
            // Seen in the picture.
            Condition::OnLine { .. }
            | Condition::Between { .. }
            | Condition::SameSide { .. }
            | Condition::OppositeSides { .. }
            | Condition::OnCircle { .. }
            | Condition::Tangent { .. } => {}
        }
    }
    out.marks.extend(parallels.marks(MarkKind::Arrow)?);
    out.marks.extend(equal.marks(MarkKind::Tick)?);
    Some(out)
}
