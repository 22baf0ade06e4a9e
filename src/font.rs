//! The one embedded font, DejaVu Sans: its bytes, family name and metrics.
//!
//! Every stage uses this font and no other, so output never depends on the fonts of
//! the machine: `compose` measures label boxes with [`text_box`], both renderers and
//! the SVG writer load [`FONT_DATA`] under `FONT_FAMILY`, and the score plots
//! register it for plotters. The font is parsed once per process.

use std::sync::LazyLock;
use ttf_parser::Face;

/// DejaVu Sans (Latin, Greek, Cyrillic), Bitstream Vera licence: `assets/fonts`.
pub(crate) static FONT_DATA: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// The family name of [`FONT_DATA`].
pub(crate) const FONT_FAMILY: &str = "DejaVu Sans";

/// The parsed font, with the metrics read from it.
struct Parsed {
    face: Face<'static>,
    metrics: FontMetrics,
}

static FONT: LazyLock<Parsed> = LazyLock::new(|| {
    let face = Face::parse(FONT_DATA, 0).expect("the embedded font parses");
    let metrics = FontMetrics {
        units_per_em: face.units_per_em() as f32,
        ascent: face.ascender() as f32,
        descent: face.descender() as f32,
    };
    Parsed { face, metrics }
});

/// Vertical metrics of the embedded font, in font units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FontMetrics {
    pub units_per_em: f32,
    /// Ascent above the baseline (positive).
    pub ascent: f32,
    /// Descent below the baseline (negative), as in the font's tables.
    pub descent: f32,
}

impl FontMetrics {
    /// How far below `y` the alphabetic baseline lies when text of `size` px is
    /// centred on `y` (`dominant-baseline: central`): halfway between the ascent and
    /// descent lines, as resvg and browsers do.
    pub(crate) fn central_shift(&self, size: f32) -> f32 {
        (self.ascent + self.descent) / 2.0 * size / self.units_per_em
    }
}

/// Metrics of the embedded font (hhea ascender/descender, as skrifa and resvg read them).
pub(crate) fn metrics() -> FontMetrics {
    FONT.metrics
}

/// Horizontal advance of `c` in font units; a character the font lacks counts 0.6 em.
pub(crate) fn advance(c: char) -> f32 {
    let f = &FONT.face;
    f.glyph_index(c)
        .and_then(|g| f.glyph_hor_advance(g))
        .map_or(0.6 * FONT.metrics.units_per_em, f32::from)
}

/// Width and height in px of `text` set at `size` px: the sum of the glyph advances
/// (no kerning) by ascent minus descent. Compose centres this box on a label's anchor
/// (`text-anchor: middle`, `dominant-baseline: central`), which is how the Scene draws it.
pub(crate) fn text_box(text: &str, size: f32) -> (f32, f32) {
    let m = FONT.metrics;
    let units: f32 = text.chars().map(advance).sum();
    let scale = size / m.units_per_em;
    (units * scale, (m.ascent - m.descent) * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_dejavu_sans() {
        let m = metrics();
        assert_eq!(
            (m.units_per_em, m.ascent, m.descent),
            (2048.0, 1901.0, -483.0)
        );
        // Central baseline: (1901 - 483) / 2 / 2048 em below y.
        assert!((m.central_shift(2048.0) - 709.0).abs() < 1e-3);
    }

    #[test]
    fn boxes_grow_with_text_and_size() {
        let (w1, h1) = text_box("A", 16.0);
        let (w2, _) = text_box("AA", 16.0);
        let (w3, h3) = text_box("A", 32.0);
        assert!(w1 > 5.0 && w1 < 16.0, "{w1}");
        assert!((w2 - 2.0 * w1).abs() < 0.01);
        assert!((w3 - 2.0 * w1).abs() < 0.01 && (h3 - 2.0 * h1).abs() < 0.01);
        // DejaVu Sans: ascent 0.928 em, descent 0.236 em.
        assert!((h1 - 16.0 * 1.164).abs() < 0.1, "{h1}");
        let (wg, _) = text_box("α", 16.0);
        assert!(wg > 5.0);
    }
}
