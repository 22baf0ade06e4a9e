//! `palette`: the fill colours — grayscale or high contrast (VisAidMath's style).
//! A grayscale image renames its shapes to the greys drawn, so that no text names
//! a colour the image does not show.

use super::{AxisDef, Change, OnScene, Setting, Values, chosen, each_path, rewrite_error, words};
use crate::generate::Problem;
use crate::generate::colours::gray_names;
use crate::scene::{Color, Item, Scene};
use crate::style::Palette;
use crate::variants::VariantError;

const CHOICES: [(&str, Palette); 3] = [
    ("color", Palette::Color),
    ("grayscale", Palette::Grayscale),
    ("high-contrast", Palette::HighContrast),
];
static WORDS: [&str; 3] = words(&CHOICES);

pub(super) static DEF: AxisDef = AxisDef {
    name: "palette",
    changes: "shape fill colours; grayscale names each shape by the grey it shows over white at the drawn opacity (dark gray #404040, gray #808080, light gray #c0c0c0, very light gray #e8e8e8; darker colours darker) and rewrites the texts to match — at 50 % opacity up to 3 shapes; high-contrast fills keep their names' hues",
    from: "VisAidMath (drawing style)",
    base: "color",
    base_number: None,
    sweep: &["grayscale", "high-contrast"],
    values: Values::Choice(&WORDS),
    numeric: false,
    plot_title: "fill palette",
    look: Some(|s, look| {
        if let Some(p) = chosen(&CHOICES, s) {
            look.style.palette = p;
        }
    }),
    rewrite: Some(|s, p, look| match chosen(&CHOICES, s) {
        Some(Palette::Grayscale) => grayscale_names(&p, look.style.fill_opacity),
        _ => Ok(p),
    }),
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "grayscale: every colour to its luma; high-contrast: fills fully saturated",
        apply: |s, scene, _| {
            recolour(scene, s);
            Ok(())
        },
    },
    may_change: &[Change::Fills, Change::Question, Change::Cot],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    // After the rewrites that regenerate the texts (info, relabel), which would
    // otherwise bring the colour names back.
    order: 6,
};

/// The problem with its shapes renamed to the grey each shows at fill `opacity`
/// (darker colours get darker greys) and its texts rewritten.
fn grayscale_names(p: &Problem, opacity: f32) -> Result<Problem, VariantError> {
    // A relation item's texts name points and lines, never a colour.
    if p.is_relation() {
        return Ok(p.clone());
    }
    let colours: Vec<&str> = p.diagram.shapes.iter().map(|s| s.colour.as_str()).collect();
    let names = gray_names(&colours, opacity).ok_or(VariantError::TooManyGrays {
        shapes: colours.len(),
        opacity,
    })?;
    let mut q = p.clone();
    for (shape, name) in q.diagram.shapes.iter_mut().zip(names) {
        shape.colour = name.to_string();
    }
    crate::generate::refresh_texts(&mut q).map_err(rewrite_error("palette"))?;
    Ok(q)
}

/// Grayscale: every colour (fills, strokes, text, background) to its Rec. 709 luma.
/// High contrast: fills fully saturated at full value, greys left alone.
fn recolour(s: &mut Scene, setting: Setting) {
    match chosen(&CHOICES, setting) {
        None | Some(Palette::Color) => {}
        Some(Palette::Grayscale) => {
            s.background = s.background.map(gray);
            for item in &mut s.items {
                match item {
                    Item::Path(p) => {
                        p.fill = p.fill.map(gray);
                        p.stroke = p.stroke.map(gray);
                    }
                    Item::Text(t) => t.color = gray(t.color),
                }
            }
        }
        Some(Palette::HighContrast) => each_path(s, |p| p.fill = p.fill.map(vivid)),
    }
}

fn gray(c: Color) -> Color {
    let l = (0.2126 * c.r as f32 + 0.7152 * c.g as f32 + 0.0722 * c.b as f32).round() as u8;
    Color::rgba(l, l, l, c.a)
}

fn vivid(c: Color) -> Color {
    let (r, g, b) = (c.r as f32, c.g as f32, c.b as f32);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    if max - min < 16.0 {
        return c; // a grey: no hue to saturate
    }
    let stretch = |v: f32| (((v - min) / (max - min)) * 255.0).round() as u8;
    Color::rgba(stretch(r), stretch(g), stretch(b), c.a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palettes_on_scenes() {
        assert_eq!(gray(Color::rgb(255, 0, 0)), Color::rgb(54, 54, 54));
        // (0x80 − 0x4d) / (0xe6 − 0x4d) · 255 = 85.
        assert_eq!(vivid(Color::rgb(0x4d, 0x80, 0xe6)), Color::rgb(0, 85, 255));
        assert_eq!(vivid(Color::rgb(100, 100, 105)), Color::rgb(100, 100, 105));
    }
}
