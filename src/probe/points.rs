//! Probes on a point and a line or an arc: does the point lie on it?
//!
//! Margins: "Yes" when the point is within [`ON_PX`] px of the line (strictly
//! between its ends) or of the arc (within its angular range); "No" when it is
//! at least [`OFF_PX`] px, and at least a tenth of the line's length (a sixth of
//! the arc's radius), away.

use super::lines::seen_lines;
use super::{Answers, Candidate, KindDef, ProbeKind, Texts, fmt1, yes_no_options};
use crate::compose::Grounding;
use crate::generate::ShapeKind;
use std::f64::consts::TAU;

/// A point this near (px) lies on a line or arc to the eye.
pub(crate) const ON_PX: f64 = 1.0;
/// A point at least this far (px) from a line or arc is visibly off it.
pub(crate) const OFF_PX: f64 = 10.0;

pub(super) const ON_LINE: KindDef = KindDef {
    kind: ProbeKind::PointOnLine,
    name: "point_on_line",
    asks: "whether a labelled point lies on a drawn line segment",
    answers: Answers::YesNo,
    candidates: on_line,
    texts: |g, c| {
        let (p, l) = (
            &g.points[c.about[0]].name,
            g.line_name(&g.lines[c.about[1]]),
        );
        Texts {
            question: format!("Does the point {p} lie on the line segment {l}?"),
            why: format!("{p} is {} px from {l}", fmt1(c.measure[0])),
            elements: vec![p.clone(), l],
            options: yes_no_options(),
        }
    },
};

pub(super) const ON_CIRCLE: KindDef = KindDef {
    kind: ProbeKind::PointOnCircle,
    name: "point_on_circle",
    asks: "whether a labelled point lies on a drawn circle or arc",
    answers: Answers::YesNo,
    candidates: on_circle,
    texts: |g, c| {
        let (p, shape) = (&g.points[c.about[0]].name, &g.shapes[c.about[1]]);
        Texts {
            question: format!(
                "Does the point {p} lie on {}?",
                arc_owner(shape.kind, &shape.name)
            ),
            why: format!(
                "{p} is {} px from the centre of a circle of radius {} px",
                fmt1(c.measure[0]),
                fmt1(c.measure[1])
            ),
            elements: vec![p.clone(), shape.name.clone()],
            options: yes_no_options(),
        }
    },
};

fn on_line(g: &Grounding) -> Vec<Candidate> {
    let mut out = Vec::new();
    for s in seen_lines(g) {
        let d = [s.b[0] - s.a[0], s.b[1] - s.a[1]];
        for (i, p) in g.points.iter().enumerate() {
            if !p.labelled || s.ends.contains(&i) {
                continue;
            }
            let t = ((p.at[0] - s.a[0]) * d[0] + (p.at[1] - s.a[1]) * d[1]) / (s.length * s.length);
            let near = [
                s.a[0] + t.clamp(0.0, 1.0) * d[0],
                s.a[1] + t.clamp(0.0, 1.0) * d[1],
            ];
            let off = (p.at[0] - near[0]).hypot(p.at[1] - near[1]);
            // Strictly between the ends, by more than the margin on either side.
            let inside = t * s.length >= OFF_PX && (1.0 - t) * s.length >= OFF_PX;
            let yes = off <= ON_PX && inside;
            let no = off >= OFF_PX.max(0.1 * s.length);
            if yes || no {
                let sig = u32::from(g.one_shape(&[i, s.ends[0], s.ends[1]]));
                out.push(Candidate::yes_no([i, s.line, 0], yes, [off, 0.0], sig));
            }
        }
    }
    out
}

/// How the texts name the round part of a shape.
fn arc_owner(kind: ShapeKind, name: &str) -> String {
    let letters = !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase());
    match (kind, letters) {
        (ShapeKind::Circle, false) => format!("the {name} circle"),
        (ShapeKind::Circle, true) => format!("the circle {name}"),
        (ShapeKind::Semicircle, false) => format!("the arc of the {name} semicircle"),
        (ShapeKind::Sector, true) => format!("the arc of the sector {name}"),
        (ShapeKind::Sector, false) => format!("the arc of the {name} sector"),
        (_, true) => format!("the arc of the shape {name}"),
        (_, false) => format!("the arc of the {name} shape"),
    }
}

/// Whether the direction `phi` lies on the arc from `a0` turning by `span` (both
/// radians; `span` negative: anticlockwise on screen), within `tol` radians.
fn within(phi: f64, a0: f64, span: f64, tol: f64) -> bool {
    let rel = (phi - a0).rem_euclid(TAU);
    if span >= 0.0 {
        rel <= span + tol || rel >= TAU - tol
    } else {
        let rel = TAU - rel;
        rel <= -span + tol || rel >= TAU - tol
    }
}

fn on_circle(g: &Grounding) -> Vec<Candidate> {
    let mut out = Vec::new();
    for si in 0..g.shapes.len() {
        let arcs: Vec<_> = g.arcs.iter().filter(|a| a.shape == si).collect();
        let Some(first) = arcs.first() else { continue };
        // A shape's arcs share one circle (a circle is drawn as two).
        let (c, r) = (first.center, first.radius);
        if arcs.iter().any(|a| {
            (a.center[0] - c[0]).hypot(a.center[1] - c[1]) > 0.5 || (a.radius - r).abs() > 0.5
        }) {
            continue;
        }
        for (pi, p) in g.points.iter().enumerate().filter(|(_, p)| p.labelled) {
            let dist = (p.at[0] - c[0]).hypot(p.at[1] - c[1]);
            let off = (dist - r).abs();
            let phi = (p.at[1] - c[1]).atan2(p.at[0] - c[0]);
            let on_arc = arcs.iter().any(|a| {
                let a0 = (a.from[1] - c[1]).atan2(a.from[0] - c[0]);
                let a1 = (a.to[1] - c[1]).atan2(a.to[0] - c[0]);
                let mut span = a1 - a0;
                if a.sweep {
                    while span <= 0.0 {
                        span += TAU;
                    }
                } else {
                    while span >= 0.0 {
                        span -= TAU;
                    }
                }
                within(phi, a0, span, 0.5f64.to_radians())
            });
            let yes = off <= ON_PX && on_arc;
            let no = off >= OFF_PX.max(r / 6.0);
            if yes || no {
                // The shape, and where the point's letter is in its name (a sector
                // BAC's centre is its middle letter; 255 when it is not there).
                let name = &g.shapes[si].name;
                let at = (name.find(p.name.as_str())).map_or(255, |k| k.min(254) as u32);
                let sig = ((si as u32) << 8) | at;
                out.push(Candidate::yes_no([pi, si, 0], yes, [dist, r], sig));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arc_holds_the_directions_it_turns_through() {
        let q = std::f64::consts::FRAC_PI_2;
        assert!(within(0.5, 0.0, q, 0.0));
        assert!(!within(-0.5, 0.0, q, 0.0));
        assert!(within(-0.5, 0.0, -q, 0.0));
        assert!(!within(0.5, 0.0, -q, 0.0));
        assert!(within(3.0, 0.0, TAU, 0.0));
        assert!(within(-0.001, 0.0, q, 0.01));
    }
}
