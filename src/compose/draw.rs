//! Scene items: fills, outlines, connector lines, right-angle marks, angle arcs, labels.
//! Where marks go is `marks`' business, where labels go `labels`'; this only draws them.

use super::fill_colour;
use super::frame::{Fit, Px};
use super::labels::Placed;
use super::marks::{Arc, Marks};
use crate::decimal::fmt_decimal;
use crate::generate::{Contour, Problem, Segment, SideKind};
use crate::scene::{
    Anchor, Baseline, Color, FillRule, Item, LineCap, LineJoin, PathItem, TextItem,
};
use crate::style::{Rotation, Style};
use std::fmt::Write;

/// A px coordinate or length in path data: at most 2 decimals.
fn f(v: f32) -> String {
    fmt_decimal(f64::from(v), 2)
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

/// Fills first (so that opacity changes only fill pixels), then every stroke on top,
/// then the auxiliary lines dashed.
pub(crate) fn shapes(p: &Problem, fit: &Fit, marks: &Marks, style: &Style) -> Vec<Item> {
    let mut fills = Vec::new();
    let mut strokes = Vec::new();
    for s in &p.diagram.shapes {
        let d = outline_path(&s.outline, fit);
        fills.push(Item::Path(PathItem {
            fill: Some(fill_colour(&s.colour, style.palette, style.fill_opacity)),
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
    for s in p.diagram.sides.iter().filter(|s| s.kind != SideKind::Edge) {
        strokes.push(line(fit.point(p, s.points[0]), fit.point(p, s.points[1])));
    }
    for r in &p.diagram.rays {
        strokes.push(line(fit.point(p, r.points[0]), fit.point(p, r.points[1])));
    }
    strokes.extend(mark_paths(marks));
    fills.push(stroke(strokes.join(" "), style));
    // Only `aux` variants have auxiliary lines, so every other image keeps its items.
    if !p.diagram.aux.is_empty() {
        fills.push(aux_lines(p, fit, style));
    }
    fills
}

/// A segment's path data.
fn line(a: Px, b: Px) -> String {
    format!("M {} {} L {} {}", f(a[0]), f(a[1]), f(b[0]), f(b[1]))
}

/// A shape's outline (one closed subpath per contour) in px.
fn outline_path(outline: &[Contour], fit: &Fit) -> String {
    let mut d = String::new();
    for c in outline {
        let st = fit.px(c.start);
        let _ = write!(d, "M {} {}", f(st[0]), f(st[1]));
        for seg in &c.segments {
            match *seg {
                Segment::Line { to } => {
                    let t = fit.px(to);
                    let _ = write!(d, " L {} {}", f(t[0]), f(t[1]));
                }
                Segment::Arc {
                    to,
                    radius,
                    large_arc,
                    sweep,
                    ..
                } => {
                    let t = fit.px(to);
                    let r = (radius * fit.scale) as f32;
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
    d.trim_end().to_string()
}

/// Right-angle corners and angle arcs, one path each.
fn mark_paths(marks: &Marks) -> impl Iterator<Item = String> + '_ {
    let corners = marks.corners.iter().map(|c| {
        format!(
            "M {} {} L {} {} L {} {}",
            f(c[0][0]),
            f(c[0][1]),
            f(c[1][0]),
            f(c[1][1]),
            f(c[2][0]),
            f(c[2][1])
        )
    });
    let arcs = marks.arcs.iter().map(
        |&Arc {
             from,
             to,
             radius: r,
             sweep,
             ..
         }| {
            format!(
                "M {} {} A {} {} 0 0 {} {} {}",
                f(from[0]),
                f(from[1]),
                f(r),
                f(r),
                sweep as u8,
                f(to[0]),
                f(to[1])
            )
        },
    );
    corners.chain(arcs)
}

/// The auxiliary lines, dashed, over the outlines.
fn aux_lines(p: &Problem, fit: &Fit, style: &Style) -> Item {
    let d: Vec<String> = p
        .diagram
        .aux
        .iter()
        .map(|a| line(fit.px(a.from), fit.px(a.to)))
        .collect();
    let k = style.canvas as f32 / 512.0;
    Item::Path(PathItem {
        stroke: Some(Color::BLACK),
        stroke_width: style.line_width,
        dash: vec![6.0 * k, 4.0 * k],
        ..PathItem::new(d.join(" "))
    })
}

/// The point dots as one black path of circles (none when there are no dots), on
/// top of the strokes. Each circle starts on the side the diagram's own left has
/// turned to, so that a rotated drawing's path is the base's, rotated.
pub(crate) fn dots(dots: &[Px], r: f32, rotation: Rotation) -> Option<Item> {
    if dots.is_empty() {
        return None;
    }
    // The diagram's left (-x) after turning clockwise on a y-down canvas.
    let u = match rotation {
        Rotation::R0 => [-r, 0.0],
        Rotation::R90 => [0.0, -r],
        Rotation::R180 => [r, 0.0],
        Rotation::R270 => [0.0, r],
    };
    let mut d = String::new();
    for &[x, y] in dots {
        if !d.is_empty() {
            d.push(' ');
        }
        let (sx, sy, ex, ey) = (f(x + u[0]), f(y + u[1]), f(x - u[0]), f(y - u[1]));
        let _ = write!(
            d,
            "M {sx} {sy} A {r} {r} 0 1 0 {ex} {ey} A {r} {r} 0 1 0 {sx} {sy} Z",
            r = f(r)
        );
    }
    Some(Item::Path(PathItem {
        fill: Some(super::DOT_COLOR),
        ..PathItem::new(d)
    }))
}

/// Thin lines from an element to its label where the label was pushed away; 1 px
/// on the 512 px reference canvas.
pub(crate) fn leaders(placed: &[Placed], style: &Style) -> Vec<Item> {
    placed
        .iter()
        .filter_map(|l| l.leader)
        .map(|(a, b)| {
            Item::Path(PathItem {
                stroke: Some(super::LEADER_COLOR),
                stroke_width: style.canvas as f32 / 512.0,
                line_cap: LineCap::Round,
                ..PathItem::new(format!(
                    "M {} {} L {} {}",
                    f(a[0]),
                    f(a[1]),
                    f(b[0]),
                    f(b[1])
                ))
            })
        })
        .collect()
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
