//! Scene paths → tiny-skia fills and strokes, with the paint semantics the SVG
//! writer gives resvg: straight colour with alpha = colour alpha × opacity rounded
//! to 8 bits, anti-aliased, source-over in sRGB; the fill first, then the stroke;
//! an odd dash array repeated once, a dash array that draws nothing ignored, no
//! stroke of width 0.

use super::coverage::Coverage;
use super::reuse::{self, Shape};
use crate::scene::{Color, FillRule, LineCap, LineJoin, PathItem, Reason, path_data};
use lyon::path::Event;
use resvg::tiny_skia::{self, Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform};

/// The scene path as a tiny-skia path (`None` when it draws nothing).
pub(super) fn to_path(d: &str) -> Result<Option<tiny_skia::Path>, Reason> {
    let lyon = path_data::parse(d)?;
    let mut b = PathBuilder::new();
    for event in lyon.iter() {
        match event {
            Event::Begin { at } => b.move_to(at.x, at.y),
            Event::Line { to, .. } => b.line_to(to.x, to.y),
            Event::Quadratic { ctrl, to, .. } => b.quad_to(ctrl.x, ctrl.y, to.x, to.y),
            Event::Cubic {
                ctrl1, ctrl2, to, ..
            } => b.cubic_to(ctrl1.x, ctrl1.y, ctrl2.x, ctrl2.y, to.x, to.y),
            Event::End { close: true, .. } => b.close(),
            Event::End { close: false, .. } => {}
        }
    }
    Ok(b.finish())
}

/// A solid anti-aliased paint of `color` at `opacity`, as resvg makes it.
pub(super) fn paint(color: Color, opacity: f32) -> Paint<'static> {
    let alpha = (color.a as f32 / 255.0 * opacity).clamp(0.0, 1.0);
    let mut paint = Paint::default();
    paint.set_color_rgba8(color.r, color.g, color.b, (alpha * 255.0).round() as u8);
    paint.anti_alias = true;
    paint
}

fn stroke(p: &PathItem) -> Stroke {
    let mut dash = p.dash.clone();
    if dash.len() % 2 == 1 {
        dash.extend_from_within(..);
    }
    Stroke {
        width: p.stroke_width,
        miter_limit: p.miter_limit,
        line_cap: match p.line_cap {
            LineCap::Butt => tiny_skia::LineCap::Butt,
            LineCap::Round => tiny_skia::LineCap::Round,
            LineCap::Square => tiny_skia::LineCap::Square,
        },
        line_join: match p.line_join {
            LineJoin::Miter => tiny_skia::LineJoin::Miter,
            LineJoin::Round => tiny_skia::LineJoin::Round,
            LineJoin::Bevel => tiny_skia::LineJoin::Bevel,
        },
        dash: match dash.is_empty() {
            true => None,
            false => StrokeDash::new(dash, p.dash_offset),
        },
    }
}

/// The 8-bit alpha of `color` at `opacity`, rounded as resvg rounds it.
fn alpha(color: Color, opacity: f32) -> u32 {
    let alpha = (color.a as f32 / 255.0 * opacity).clamp(0.0, 1.0);
    (alpha * 255.0).round() as u32
}

/// Whether tiny-skia draws a stroke of this width as a hairline with modulated
/// coverage (`treat_as_hairline` at the identity transform: width ≤ 1). Such
/// strokes go through `Pixmap::stroke_path` unchanged.
fn hairline(width: f32) -> bool {
    width <= 1.0
}

/// Draws one path item onto `pixmap` (premultiplied): the fill's and the stroke's
/// coverage (reused from an earlier image of the same geometry on this thread,
/// `reuse`) blended source-over, fill first. The stroke's coverage is tiny-skia's
/// fill of its stroke outline with the nonzero rule, exactly what
/// `Pixmap::stroke_path` fills; the blending is ours, the same up to rounding (±1).
pub(super) fn draw(pixmap: &mut Pixmap, p: &PathItem) -> Result<(), Reason> {
    let canvas = (pixmap.width(), pixmap.height());
    // The path parsed once, on the first miss.
    let parsed = std::cell::OnceCell::new();
    let path = || -> Result<Option<&tiny_skia::Path>, Reason> {
        if parsed.get().is_none() {
            let _ = parsed.set(to_path(&p.d)?);
        }
        Ok(parsed.get().and_then(Option::as_ref))
    };
    if let Some(color) = p.fill {
        let (evenodd, rule) = match p.fill_rule {
            FillRule::Nonzero => (false, tiny_skia::FillRule::Winding),
            FillRule::Evenodd => (true, tiny_skia::FillRule::EvenOdd),
        };
        let alpha = alpha(color, p.fill_opacity);
        if alpha > 0 {
            let cov = reuse::coverage(&p.d, Shape::Fill { evenodd }, canvas, || {
                Ok(path()?.map(|path| Coverage::scan(path, rule, canvas.0, canvas.1)))
            })?;
            if let Some(cov) = cov {
                cov.blend(pixmap.data_mut(), [color.r, color.g, color.b], alpha);
            }
        }
    }
    // SVG draws no stroke of width 0 (tiny-skia would draw a hairline).
    let Some(color) = p.stroke.filter(|_| p.stroke_width > 0.0) else {
        return Ok(());
    };
    let stroke = stroke(p);
    if hairline(p.stroke_width) {
        if let Some(path) = path()? {
            let paint = paint(color, p.stroke_opacity);
            pixmap.stroke_path(path, &paint, &stroke, Transform::identity(), None);
        }
        return Ok(());
    }
    let alpha = alpha(color, p.stroke_opacity);
    if alpha == 0 {
        return Ok(());
    }
    let shape = Shape::Stroke {
        width: stroke.width.to_bits(),
        miter: stroke.miter_limit.to_bits(),
        cap: p.line_cap as u8,
        join: p.line_join as u8,
        dash: p.dash.iter().map(|v| v.to_bits()).collect(),
        offset: p.dash_offset.to_bits(),
    };
    let cov = reuse::coverage(&p.d, shape, canvas, || {
        Ok(path()?
            .and_then(|path| outline(path, &stroke))
            .map(|outline| {
                Coverage::scan(&outline, tiny_skia::FillRule::Winding, canvas.0, canvas.1)
            }))
    })?;
    if let Some(cov) = cov {
        cov.blend(pixmap.data_mut(), [color.r, color.g, color.b], alpha);
    }
    Ok(())
}

/// The outline `Pixmap::stroke_path` fills for a stroke wider than a hairline:
/// the path dashed (when `stroke` has a dash), then stroked at resolution scale 1
/// (the identity transform). `None` where tiny-skia draws nothing.
fn outline(path: &tiny_skia::Path, stroke: &Stroke) -> Option<tiny_skia::Path> {
    let dashed;
    let path = match &stroke.dash {
        Some(dash) => {
            dashed = path.dash(dash, 1.0)?;
            &dashed
        }
        None => path,
    };
    path.stroke(stroke, 1.0)
}
