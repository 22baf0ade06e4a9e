//! Text items → shaped cosmic-text buffers placed by SVG anchor and baseline rules.
//!
//! Only the embedded DejaVu Sans ([`crate::font`]) is ever loaded, so output never
//! depends on the fonts of the machine. Hinting is off: glyph outlines scale exactly,
//! as in resvg and browsers.

use crate::font::{self, FONT_DATA, FONT_FAMILY};
use crate::scene::{Anchor, Baseline, TextItem};
use glyphon::cosmic_text::{CacheKeyFlags, fontdb};
use glyphon::{Attrs, Buffer, Family, FontSystem, Metrics, Shaping};
use std::sync::Arc;

/// How far below `y` the alphabetic baseline lies for `baseline` at `size` px.
///
/// `central` puts `y` halfway between the ascent and descent lines, as resvg and
/// browsers do for `dominant-baseline: central`.
pub(super) fn baseline_shift(baseline: Baseline, size: f32) -> f32 {
    match baseline {
        Baseline::Alphabetic => 0.0,
        Baseline::Central => font::metrics().central_shift(size),
    }
}

/// A font system holding only the embedded font, with a fixed locale so shaping
/// never depends on the environment. Font ids are equal across instances.
pub(crate) fn font_system() -> FontSystem {
    let mut db = fontdb::Database::new();
    db.load_font_source(fontdb::Source::Binary(Arc::new(FONT_DATA)));
    db.set_sans_serif_family(FONT_FAMILY);
    FontSystem::new_with_locale_and_db("en-US".to_string(), db)
}

/// A text item shaped and placed: draw `buffer` with its top-left at (`left`, `top`).
pub struct ShapedText {
    pub buffer: Buffer,
    pub left: f32,
    /// Whole pixels: glyphon snaps glyphs vertically, so the baseline is put on the
    /// nearest pixel row explicitly.
    pub top: f32,
    /// Non-premultiplied sRGB with the item's opacity folded into alpha.
    pub color: [u8; 4],
    /// Advance width of the shaped text in pixels.
    pub advance: f32,
}

/// Shapes `item` and places it by its anchor and baseline.
pub(crate) fn shape(font_system: &mut FontSystem, item: &TextItem) -> ShapedText {
    let mut buffer = Buffer::new(font_system, Metrics::new(item.size, item.size));
    buffer.set_size(None, None);
    let attrs = Attrs::new()
        .family(Family::Name(FONT_FAMILY))
        .cache_key_flags(CacheKeyFlags::DISABLE_HINTING);
    buffer.set_text(&item.text, &attrs, Shaping::Advanced, None);
    buffer.shape_until_scroll(font_system, false);
    let (advance, line_y) = buffer
        .layout_runs()
        .next()
        .map(|run| (run.line_w, run.line_y))
        .unwrap_or((0.0, 0.0));
    let left = item.x
        - match item.anchor {
            Anchor::Start => 0.0,
            Anchor::Middle => advance / 2.0,
            Anchor::End => advance,
        };
    let baseline = item.y + baseline_shift(item.baseline, item.size);
    let top = baseline.round() - line_y.round();
    let c = item.color;
    let alpha = (c.a as f32 * item.opacity).round().clamp(0.0, 255.0) as u8;
    ShapedText {
        buffer,
        left,
        top,
        color: [c.r, c.g, c.b, alpha],
        advance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn central_baseline_is_halfway_between_ascent_and_descent() {
        // (1901 - 483) / 2 / 2048 em below y.
        assert!((baseline_shift(Baseline::Central, 2048.0) - 709.0).abs() < 1e-3);
        assert_eq!(baseline_shift(Baseline::Alphabetic, 2048.0), 0.0);
    }

    #[test]
    fn anchors_shift_by_the_advance() {
        let mut fs = font_system();
        let mut item = TextItem::new("ABC", 100.0, 50.0, 20.0);
        let start = shape(&mut fs, &item);
        assert!(
            start.advance > 30.0 && start.advance < 60.0,
            "{}",
            start.advance
        );
        assert_eq!(start.left, 100.0);
        item.anchor = Anchor::Middle;
        assert!((shape(&mut fs, &item).left - (100.0 - start.advance / 2.0)).abs() < 1e-4);
        item.anchor = Anchor::End;
        assert!((shape(&mut fs, &item).left - (100.0 - start.advance)).abs() < 1e-4);
    }

    #[test]
    fn greek_is_shaped_with_real_glyphs() {
        let mut fs = font_system();
        let shaped = shape(&mut fs, &TextItem::new("αβγθ", 0.0, 20.0, 16.0));
        let run = shaped.buffer.layout_runs().next().unwrap();
        assert_eq!(run.glyphs.len(), 4);
        assert!(
            run.glyphs.iter().all(|g| g.glyph_id != 0),
            "a glyph fell back to .notdef"
        );
    }

    #[test]
    fn font_ids_agree_across_font_systems() {
        let mut a = font_system();
        let mut b = font_system();
        let ga = shape(&mut a, &TextItem::new("A", 0.0, 9.0, 9.0));
        let gb = shape(&mut b, &TextItem::new("A", 0.0, 9.0, 9.0));
        let id = |s: &ShapedText| s.buffer.layout_runs().next().unwrap().glyphs[0].font_id;
        assert_eq!(id(&ga), id(&gb));
    }
}
