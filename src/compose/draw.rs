//! Scene items: fills, outlines, connector lines, right-angle marks, angle arcs, labels.

use super::frame::{Frame, Px, outline_polylines};
use super::labels::Placed;
use super::{Style, fill_colour};
use crate::generate::{Problem, Segment, SideKind, Status};
use crate::scene::{
    Anchor, Baseline, Color, FillRule, Item, LineCap, LineJoin, PathItem, TextItem,
};
use std::fmt::Write;

fn f(v: f32) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

fn sub(a: Px, b: Px) -> Px {
    [a[0] - b[0], a[1] - b[1]]
}
fn len(a: Px) -> f32 {
    a[0].hypot(a[1])
}
fn unit(a: Px) -> Px {
    let l = len(a).max(1e-6);
    [a[0] / l, a[1] / l]
}

/// Angle arcs and right-angle marks, sized from the canvas and the geometry only.
pub(crate) struct Marks {
    /// (vertex, start, end, radius, sweep flag)
    pub arcs: Vec<(Px, Px, Px, f32, bool)>,
    /// Three-point polylines.
    pub corners: Vec<[Px; 3]>,
}

pub(crate) fn marks(p: &Problem, frame: &Frame, canvas: u32) -> Marks {
    let c = canvas as f32;
    let d = &p.diagram;
    let mut corners = Vec::new();
    for r in &d.right_angles {
        let (a, v, b) = (
            frame.point(p, r[0]),
            frame.point(p, r[1]),
            frame.point(p, r[2]),
        );
        let s = (0.025 * c).min(0.3 * len(sub(a, v)).min(len(sub(b, v))));
        let (ua, ub) = (unit(sub(a, v)), unit(sub(b, v)));
        let p1 = [v[0] + ua[0] * s, v[1] + ua[1] * s];
        let p2 = [p1[0] + ub[0] * s, p1[1] + ub[1] * s];
        let p3 = [v[0] + ub[0] * s, v[1] + ub[1] * s];
        corners.push([p1, p2, p3]);
    }
    let mut arcs = Vec::new();
    for a in d.angles.iter().filter(|a| a.status != Status::Unused) {
        let (pa, v, pb) = (
            frame.point(p, a.points[0]),
            frame.point(p, a.points[1]),
            frame.point(p, a.points[2]),
        );
        let r = arc_radius(canvas, pa, v, pb);
        let (ua, ub) = (unit(sub(pa, v)), unit(sub(pb, v)));
        let from = [v[0] + ua[0] * r, v[1] + ua[1] * r];
        let to = [v[0] + ub[0] * r, v[1] + ub[1] * r];
        let sweep = ua[0] * ub[1] - ua[1] * ub[0] > 0.0;
        arcs.push((v, from, to, r, sweep));
    }
    Marks { arcs, corners }
}

/// Radius of an angle's arc in px.
pub(crate) fn arc_radius(canvas: u32, a: Px, v: Px, b: Px) -> f32 {
    (0.04 * canvas as f32).min(0.3 * len(sub(a, v)).min(len(sub(b, v))))
}

/// Every stroke as px segments: the obstacles labels keep clear of.
pub(crate) fn stroke_segments(p: &Problem, frame: &Frame, marks: &Marks) -> Vec<(Px, Px)> {
    let mut segs = Vec::new();
    for (_, poly) in outline_polylines(p) {
        let px: Vec<Px> = poly.iter().map(|&q| frame.px(q)).collect();
        segs.extend(px.windows(2).map(|w| (w[0], w[1])));
    }
    for s in p.diagram.sides.iter().filter(|s| s.kind != SideKind::Edge) {
        segs.push((frame.point(p, s.points[0]), frame.point(p, s.points[1])));
    }
    for r in &p.diagram.rays {
        segs.push((frame.point(p, r.points[0]), frame.point(p, r.points[1])));
    }
    for c in &marks.corners {
        segs.push((c[0], c[1]));
        segs.push((c[1], c[2]));
    }
    for &(v, from, to, r, sweep) in &marks.arcs {
        let a0 = (from[1] - v[1]).atan2(from[0] - v[0]);
        let mut d = (to[1] - v[1]).atan2(to[0] - v[0]) - a0;
        let tau = std::f32::consts::TAU;
        if sweep {
            while d <= 0.0 {
                d += tau;
            }
        } else {
            while d >= 0.0 {
                d -= tau;
            }
        }
        let pts: Vec<Px> = (0..=8)
            .map(|k| {
                let a = a0 + d * k as f32 / 8.0;
                [v[0] + r * a.cos(), v[1] + r * a.sin()]
            })
            .collect();
        segs.extend(pts.windows(2).map(|w| (w[0], w[1])));
    }
    segs
}

/// Every outline, side, ray and mark as one stroked path: a single path is covered
/// once where its pieces overlap, so a side shared by two shapes is not darkened by
/// anti-aliasing twice (which analytic rasterisers such as resvg and browsers do
/// when each piece is its own path, and 4× MSAA does not).
fn stroke(d: String, style: &Style) -> Item {
    Item::Path(PathItem {
        stroke: Some(Color::BLACK),
        stroke_width: style.line_width,
        line_join: LineJoin::Round,
        line_cap: LineCap::Round,
        ..PathItem::new(d)
    })
}

/// Fills first (so that opacity changes only fill pixels), then every stroke on top.
pub(crate) fn shapes(p: &Problem, frame: &Frame, marks: &Marks, style: &Style) -> Vec<Item> {
    let mut fills = Vec::new();
    let mut strokes = Vec::new();
    for s in &p.diagram.shapes {
        let mut d = String::new();
        for c in &s.outline {
            let st = frame.px(c.start);
            let _ = write!(d, "M {} {}", f(st[0]), f(st[1]));
            for seg in &c.segments {
                match *seg {
                    Segment::Line { to } => {
                        let t = frame.px(to);
                        let _ = write!(d, " L {} {}", f(t[0]), f(t[1]));
                    }
                    Segment::Arc {
                        to,
                        radius,
                        large_arc,
                        sweep,
                        ..
                    } => {
                        let t = frame.px(to);
                        let r = (radius * frame.scale) as f32;
                        let _ = write!(
                            d,
                            " A {} {} 0 {} {} {} {}",
                            f(r),
                            f(r),
                            large_arc as u8,
                            sweep as u8,
                            f(t[0]),
                            f(t[1])
                        );
                    }
                }
            }
            d.push_str(" Z ");
        }
        let d = d.trim_end().to_string();
        fills.push(Item::Path(PathItem {
            fill: Some(fill_colour(&s.colour, style.palette)),
            fill_opacity: style.fill_opacity,
            fill_rule: if s.outline.len() > 1 {
                FillRule::Evenodd
            } else {
                FillRule::Nonzero
            },
            ..PathItem::new(d.clone())
        }));
        strokes.push(d);
    }
    let line = |a: Px, b: Px| format!("M {} {} L {} {}", f(a[0]), f(a[1]), f(b[0]), f(b[1]));
    for s in p.diagram.sides.iter().filter(|s| s.kind != SideKind::Edge) {
        strokes.push(line(
            frame.point(p, s.points[0]),
            frame.point(p, s.points[1]),
        ));
    }
    for r in &p.diagram.rays {
        strokes.push(line(
            frame.point(p, r.points[0]),
            frame.point(p, r.points[1]),
        ));
    }
    for c in &marks.corners {
        let d = format!(
            "M {} {} L {} {} L {} {}",
            f(c[0][0]),
            f(c[0][1]),
            f(c[1][0]),
            f(c[1][1]),
            f(c[2][0]),
            f(c[2][1])
        );
        strokes.push(d);
    }
    for &(_, from, to, r, sweep) in &marks.arcs {
        let d = format!(
            "M {} {} A {} {} 0 0 {} {} {}",
            f(from[0]),
            f(from[1]),
            f(r),
            f(r),
            sweep as u8,
            f(to[0]),
            f(to[1])
        );
        strokes.push(d);
    }
    fills.push(stroke(strokes.join(" "), style));
    fills
}

/// Text items for the placed labels.
pub(crate) fn labels(placed: &[Placed], style: &Style) -> Vec<Item> {
    placed
        .iter()
        .map(|l| {
            Item::Text(TextItem {
                anchor: Anchor::Middle,
                baseline: Baseline::Central,
                ..TextItem::new(l.text.clone(), l.center[0], l.center[1], style.font_size)
            })
        })
        .collect()
}
