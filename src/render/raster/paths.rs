//! Scene paths → tiny-skia fills and strokes, with the paint semantics the SVG
//! writer gives resvg: straight colour with alpha = colour alpha × opacity rounded
//! to 8 bits, anti-aliased, source-over in sRGB; the fill first, then the stroke;
//! an odd dash array repeated once, a dash array that draws nothing ignored, no
//! stroke of width 0.

use super::blend;
use crate::scene::{Color, FillRule, LineCap, LineJoin, PathItem, Reason, path_data};
use lyon::path::Event;
use resvg::tiny_skia::{self, Mask, Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform};

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

/// Fills `path` with `color` at `opacity`: tiny-skia's anti-aliased coverage of the
/// path's box (a [`Mask`], the same scan converter `Pixmap::fill_path` uses), then
/// one source-over pass over that box. Faster than tiny-skia's blending pipeline
/// for the large translucent shapes of a diagram; the same up to rounding (±1).
fn fill(
    pixmap: &mut Pixmap,
    path: &tiny_skia::Path,
    color: Color,
    opacity: f32,
    rule: tiny_skia::FillRule,
) {
    let alpha = (color.a as f32 / 255.0 * opacity).clamp(0.0, 1.0);
    let alpha = (alpha * 255.0).round() as u32;
    let b = path.bounds();
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    let x0 = (b.left().floor() as i32 - 1).clamp(0, w);
    let y0 = (b.top().floor() as i32 - 1).clamp(0, h);
    let x1 = (b.right().ceil() as i32 + 1).clamp(0, w);
    let y1 = (b.bottom().ceil() as i32 + 1).clamp(0, h);
    if alpha == 0 || x1 <= x0 || y1 <= y0 {
        return;
    }
    let (mw, mh) = ((x1 - x0) as u32, (y1 - y0) as u32);
    // The coverage buffer is this thread's, reused from fill to fill (a fresh one
    // is a large zeroed allocation per shape).
    thread_local! {
        static COVERAGE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut data = COVERAGE.take();
    data.clear();
    data.resize(mw as usize * mh as usize, 0);
    let Some(mut mask) =
        tiny_skia::IntSize::from_wh(mw, mh).and_then(|size| Mask::from_vec(data, size))
    else {
        return;
    };
    mask.fill_path(
        path,
        rule,
        true,
        Transform::from_translate(-x0 as f32, -y0 as f32),
    );
    let rgb = [color.r as u32, color.g as u32, color.b as u32];
    let full = blend::Source::new(rgb, alpha);
    let data = pixmap.data_mut();
    for (my, cov_row) in mask.data().chunks_exact(mw as usize).enumerate() {
        let start = (((y0 + my as i32) * w + x0) * 4) as usize;
        let row = &mut data[start..start + mw as usize * 4];
        // Runs of no coverage skipped, runs of full coverage in one vectorised pass,
        // edge pixels one by one.
        let mut i = 0;
        while i < cov_row.len() {
            match cov_row[i] {
                // Runs of no coverage skipped at once (most of a mask's box).
                0 => i = run_end(cov_row, i, 0),
                255 => {
                    let end = run_end(cov_row, i, 255);
                    full.over_run(&mut row[i * 4..end * 4]);
                    i = end;
                }
                c => {
                    let a = blend::mul255(c as u32, alpha);
                    blend::Source::new(rgb, a).over(&mut row[i * 4..i * 4 + 4]);
                    i += 1;
                }
            }
        }
    }
    COVERAGE.set(mask.take());
}

/// Where the run of `byte` starting at `from` ends: eight bytes at a time, then one
/// by one (most of a mask's row is one long run of 0 or 255).
fn run_end(cov: &[u8], from: usize, byte: u8) -> usize {
    let word = u64::from_ne_bytes([byte; 8]);
    let mut i = from;
    while let Some(chunk) = cov.get(i..i + 8) {
        if u64::from_ne_bytes(chunk.try_into().expect("8 bytes")) != word {
            break;
        }
        i += 8;
    }
    i + cov[i..]
        .iter()
        .position(|&c| c != byte)
        .unwrap_or(cov.len() - i)
}

/// Draws one path item onto `pixmap` (premultiplied).
pub(super) fn draw(pixmap: &mut Pixmap, p: &PathItem) -> Result<(), Reason> {
    let Some(path) = to_path(&p.d)? else {
        return Ok(());
    };
    if let Some(color) = p.fill {
        let rule = match p.fill_rule {
            FillRule::Nonzero => tiny_skia::FillRule::Winding,
            FillRule::Evenodd => tiny_skia::FillRule::EvenOdd,
        };
        fill(pixmap, &path, color, p.fill_opacity, rule);
    }
    // SVG draws no stroke of width 0 (tiny-skia would draw a hairline).
    if let Some(color) = p.stroke.filter(|_| p.stroke_width > 0.0) {
        pixmap.stroke_path(
            &path,
            &paint(color, p.stroke_opacity),
            &stroke(p),
            Transform::identity(),
            None,
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run_end;

    /// Against a byte-by-byte scan, at every start of rows of mixed runs.
    #[test]
    fn run_end_finds_where_a_run_stops() {
        let mut row = vec![0u8; 5];
        row.extend([255; 19]);
        row.extend([7, 0, 0]);
        row.extend([0; 17]);
        row.extend([255; 8]);
        for from in 0..row.len() {
            let byte = row[from];
            let want = row[from..]
                .iter()
                .position(|&c| c != byte)
                .map_or(row.len(), |n| from + n);
            assert_eq!(run_end(&row, from, byte), want, "from {from}");
        }
        assert_eq!(run_end(&[], 0, 0), 0);
    }
}
