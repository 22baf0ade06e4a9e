//! Text metrics from the embedded font (DejaVu Sans), for label boxes.
//!
//! A label's box is as wide as the sum of its glyph advances and as tall as the font's
//! ascent minus descent, centred on the label's anchor (`text-anchor: middle`,
//! `dominant-baseline: central`), which is how the Scene draws it.

use std::sync::OnceLock;
use ttf_parser::Face;

/// The font labels are drawn with.
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

fn face() -> Option<&'static Face<'static>> {
    static F: OnceLock<Option<Face<'static>>> = OnceLock::new();
    F.get_or_init(|| Face::parse(FONT, 0).ok()).as_ref()
}

/// Width and height in px of `text` set at `size` px.
pub fn text_box(text: &str, size: f32) -> (f32, f32) {
    let Some(f) = face() else {
        // The font is compiled in, so this cannot happen; estimate generously anyway.
        return (0.7 * size * text.chars().count() as f32, 1.2 * size);
    };
    let upem = f.units_per_em() as f32;
    let units: f32 = text
        .chars()
        .map(|c| {
            f.glyph_index(c)
                .and_then(|g| f.glyph_hor_advance(g))
                .map_or(0.6 * upem, f32::from)
        })
        .sum();
    let scale = size / upem;
    (
        units * scale,
        (f.ascender() as f32 - f.descender() as f32) * scale,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
