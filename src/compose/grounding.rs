//! What an image draws, element by element, in its own pixels: every named point
//! (and whether its letter is drawn), every straight line between two of them, every
//! shape's outline, every outline arc and every label's box. The perception probes
//! and the COCO annotations are made from it, so that both speak of the picture as
//! drawn: after the fit, rotation and canvas of this very variant.
//!
//! It is taken from the Problem's own geometry and the fit that drew it, not from
//! the Scene's items; tests check it against the Scene's path data.

use super::Drawn;
use super::frame::ARC_PER_TURN;
use crate::generate::{Problem, Segment, ShapeKind, SideKind};

/// A point in image px (x right, y down).
pub(crate) type At = [f64; 2];

/// A named point of the diagram.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GPoint {
    pub name: String,
    pub at: At,
    /// Its letter is drawn in the image (coordinate annotation).
    pub labelled: bool,
}

/// What a straight line between two named points is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// A straight piece of a shape's outline.
    Edge,
    /// A diagonal or diameter drawn inside a shape.
    Inner,
    /// An angle connector's extension line.
    Ray,
}

/// A straight line drawn between two named points.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GLine {
    pub ends: [usize; 2],
    pub kind: LineKind,
}

/// A shape as drawn: its outer contour as a polygon (arcs sampled), and its holes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GShape {
    pub kind: ShapeKind,
    /// Its name in coordinate style ("ABCD", "the blue circle").
    pub name: String,
    /// Its corners (named points), in outline order.
    pub vertices: Vec<usize>,
    pub outline: Vec<At>,
    pub holes: Vec<Vec<At>>,
}

/// An arc of a shape's outline.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GArc {
    pub shape: usize,
    pub center: At,
    pub radius: f64,
    pub from: At,
    pub to: At,
    /// Clockwise on screen.
    pub sweep: bool,
}

/// A drawn label: its text and the box of its rendered text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GLabel {
    pub text: String,
    pub center: At,
    pub half: At,
    /// A vertex letter (its text is the point's name).
    pub letter: bool,
}

/// An image's elements in its pixels.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Grounding {
    pub width: u32,
    pub height: u32,
    pub points: Vec<GPoint>,
    pub lines: Vec<GLine>,
    pub shapes: Vec<GShape>,
    pub arcs: Vec<GArc>,
    pub labels: Vec<GLabel>,
    /// Corners (a, vertex, b) drawn with a right-angle mark.
    pub right_angles: Vec<[usize; 3]>,
    /// Dashed auxiliary lines (their ends need not be named points).
    pub aux: Vec<[At; 2]>,
    /// Every straight piece of every outline joins two named points.
    pub corners_named: bool,
}

impl Grounding {
    /// The grounding of `problem` (the drawn Problem, as its variant rewrote it)
    /// drawn as `drawn` says; `None` for an image that draws no diagram.
    pub(crate) fn of(problem: &Problem, drawn: &Drawn) -> Option<Grounding> {
        if !drawn.diagram {
            return None;
        }
        let fit = &drawn.fit;
        let px = |q: [f64; 2]| {
            let p = fit.px(q);
            [f64::from(p[0]), f64::from(p[1])]
        };
        let d = &problem.diagram;
        let points: Vec<GPoint> = (d.points.iter())
            .map(|q| GPoint {
                name: q.name.clone(),
                at: px([q.x, q.y]),
                labelled: drawn.placed.iter().any(|l| l.letter && l.text == q.name),
            })
            .collect();
        // A diagram position → its point, when a named point sits exactly there.
        let point_at = |xy: [f64; 2]| {
            d.points.iter().position(|q| {
                let tol = 1e-9 * (1.0 + q.x.abs().max(q.y.abs()));
                (q.x - xy[0]).abs() <= tol && (q.y - xy[1]).abs() <= tol
            })
        };
        let mut lines: Vec<GLine> = Vec::new();
        let mut push = |a: usize, b: usize, kind: LineKind| {
            let same = |l: &GLine| l.ends == [a, b] || l.ends == [b, a];
            if a != b && !lines.iter().any(same) {
                lines.push(GLine { ends: [a, b], kind });
            }
        };
        let mut shapes = Vec::new();
        let mut arcs = Vec::new();
        let mut corners_named = true;
        for (si, s) in d.shapes.iter().enumerate() {
            for c in &s.outline {
                let mut cur = c.start;
                for seg in &c.segments {
                    match *seg {
                        Segment::Line { to } => {
                            match (point_at(cur), point_at(to)) {
                                (Some(a), Some(b)) => push(a, b, LineKind::Edge),
                                _ => corners_named = false,
                            }
                            cur = to;
                        }
                        Segment::Arc {
                            to,
                            center,
                            radius,
                            sweep,
                            ..
                        } => {
                            arcs.push(GArc {
                                shape: si,
                                center: px(center),
                                radius: radius * fit.scale,
                                from: px(cur),
                                to: px(to),
                                sweep,
                            });
                            cur = to;
                        }
                    }
                }
            }
            let mut contours = s.outline.iter().map(|c| {
                (c.polyline(ARC_PER_TURN).into_iter())
                    .map(px)
                    .collect::<Vec<At>>()
            });
            shapes.push(GShape {
                kind: s.kind,
                name: s.name.coordinate.clone(),
                vertices: s.vertices.clone(),
                outline: contours.next().unwrap_or_default(),
                holes: contours.collect(),
            });
        }
        for s in &d.sides {
            let kind = match s.kind {
                SideKind::Edge => LineKind::Edge,
                SideKind::Diagonal | SideKind::Diameter => LineKind::Inner,
            };
            push(s.points[0], s.points[1], kind);
        }
        for r in &d.rays {
            push(r.points[0], r.points[1], LineKind::Ray);
        }
        let labels = (drawn.placed.iter())
            .map(|l| GLabel {
                text: l.text.clone(),
                center: [f64::from(l.center[0]), f64::from(l.center[1])],
                half: [f64::from(l.half[0]), f64::from(l.half[1])],
                letter: l.letter,
            })
            .collect();
        Some(Grounding {
            width: drawn.width,
            height: drawn.height,
            points,
            lines,
            shapes,
            arcs,
            labels,
            right_angles: d.right_angles.clone(),
            aux: d.aux.iter().map(|a| [px(a.from), px(a.to)]).collect(),
            corners_named,
        })
    }

    /// Whether one shape has every one of `points` among its corners.
    pub(crate) fn one_shape(&self, points: &[usize]) -> bool {
        (self.shapes.iter()).any(|s| points.iter().all(|p| s.vertices.contains(p)))
    }

    /// A line's name: its two point names in alphabetical order ("AB", never "BA":
    /// the order a shape lists its sides in would tell a reader which shape it is).
    pub(crate) fn line_name(&self, l: &GLine) -> String {
        let (a, b) = (&self.points[l.ends[0]].name, &self.points[l.ends[1]].name);
        if a <= b {
            format!("{a}{b}")
        } else {
            format!("{b}{a}")
        }
    }
}
