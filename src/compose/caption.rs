//! The caption band: words drawn below the diagram (`modality=vision-only`'s
//! question). The canvas grows down by the band, so the diagram above it is drawn
//! exactly as without one.

use crate::font;
use crate::scene::{Item, TextItem};
use crate::style::Style;

/// Line spacing as a share of the font's ascent-to-descent height.
const LINE_SPACING: f32 = 1.25;

/// The band's lines and its height in px.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Band {
    pub height: u32,
    pub items: Vec<Item>,
}

/// Space (px) between the canvas edge, or the diagram, and the band's text: the
/// margin the layout keeps the diagram inside.
fn margin(canvas: u32) -> f32 {
    (canvas as f32 * 0.04).max(4.0)
}

/// `text` wrapped at word breaks into lines at most `width` px wide at `size` px
/// (a word wider than that stands on a line of its own).
pub(super) fn wrap(text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = match line.is_empty() {
            true => word.to_string(),
            false => format!("{line} {word}"),
        };
        if !line.is_empty() && font::text_box(&candidate, size).0 > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The band for `text` below a `style.canvas` px square diagram: start-anchored
/// lines in the labels' font size, the canvas margin on every side.
pub(super) fn band(text: &str, style: &Style) -> Band {
    let pad = margin(style.canvas);
    let size = style.font_size;
    let m = font::metrics();
    let scale = size / m.units_per_em;
    let (ascent, height) = (m.ascent * scale, (m.ascent - m.descent) * scale);
    let step = height * LINE_SPACING;
    let lines = wrap(text, size, style.canvas as f32 - 2.0 * pad);
    let top = style.canvas as f32;
    let items = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let y = top + pad + ascent + i as f32 * step;
            Item::Text(TextItem::new(line.clone(), pad, y, size))
        })
        .collect();
    let used = match lines.len() {
        0 => 0.0,
        n => (n - 1) as f32 * step + height,
    };
    Band {
        height: (used + 2.0 * pad).ceil() as u32,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_every_word_in_order_and_fit_the_width() {
        let text = "If the ABCD shape is a square and the DCEF shape is a parallelogram, \
                    compute the area of the ABCD square. Round computations to 2 decimal places.";
        let lines = wrap(text, 16.0, 200.0);
        assert!(lines.len() >= 4, "{lines:?}");
        assert_eq!(
            lines.join(" "),
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        for l in &lines {
            assert!(font::text_box(l, 16.0).0 <= 200.0, "{l:?} is too wide");
        }
        // Greedy: no line could take the next line's first word.
        for w in lines.windows(2) {
            let first = w[1].split(' ').next().unwrap();
            assert!(font::text_box(&format!("{} {first}", w[0]), 16.0).0 > 200.0);
        }
    }

    #[test]
    fn a_word_wider_than_the_line_stands_alone() {
        assert_eq!(
            wrap("a Supercalifragilistic b", 16.0, 30.0),
            ["a", "Supercalifragilistic", "b"]
        );
        assert!(wrap("  ", 16.0, 100.0).is_empty());
    }

    #[test]
    fn the_band_lies_below_the_canvas_and_holds_its_lines() {
        let style = Style::default();
        let b = band("Compute the area of the ABCD square.", &style);
        assert_eq!(b.items.len(), 1);
        let Item::Text(t) = &b.items[0] else {
            panic!("not a text: {:?}", b.items[0])
        };
        let (w, h) = font::text_box(&t.text, t.size);
        assert!(
            t.y - h > style.canvas as f32,
            "the line starts inside the diagram"
        );
        assert!(t.y < (style.canvas + b.height) as f32);
        assert!(t.x + w <= style.canvas as f32);
    }
}

#[cfg(test)]
mod limits {
    use crate::compose::{ComposeError, compose};
    use crate::generate::{Annotation, GenerateOptions, Texts, generate_one};
    use crate::style::Style;

    /// A band that would make the image taller than a Scene may be is an error that
    /// says so, not a broken Scene.
    #[test]
    fn a_band_past_the_largest_image_is_refused_by_name() {
        let mut p = generate_one(&GenerateOptions::default(), 0).unwrap();
        let words = "Compute the area of the ABCD square.".to_string();
        p.caption = Some(Texts {
            coordinate: words.clone(),
            individual: words,
        });
        let fits = compose(&p, &Style::default(), Annotation::Coordinate).unwrap();
        assert!(fits.scene.height > 512);
        let style = Style {
            canvas: 8192,
            ..Style::default()
        };
        match compose(&p, &style, Annotation::Coordinate) {
            Err(ComposeError::CaptionTooTall {
                canvas: 8192, band, ..
            }) => assert!(band > 0),
            other => panic!("{other:?}"),
        }
    }
}
