//! Applying a variant: to a Problem (all axes) or to a bare Scene (style axes).

use super::{Axis, AxisValue, Variant, VariantError};
use crate::generate::{Annotation, Problem, relabel, with_info};
use crate::scene::transform::{rotate_scene, scale_scene};
use crate::scene::{Color, Item, Scene};
use crate::style::{Encoding, Palette, Style};

/// Everything that decides one image of a problem and its texts.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// The problem as drawn and asked (values moved, letters permuted).
    pub problem: Problem,
    pub style: Style,
    pub annotation: Annotation,
    pub encoding: Encoding,
}

/// The reference canvas that `linewidth` and `fontsize` values refer to.
pub const REFERENCE_CANVAS: f32 = 512.0;

/// How `variant` draws and stores a problem: the default style, coordinate
/// annotation and PNG with the variant's axes applied (resolution last, scaling the
/// final line width and font size). Needs no Problem, so a plan can be checked
/// against [`crate::style::limits`] before any work.
pub fn drawing_style(variant: &Variant) -> (Style, Annotation, Encoding) {
    let mut style = Style::default();
    let mut annotation = Annotation::Coordinate;
    let mut encoding = Encoding::Png;
    for v in &variant.settings {
        match *v {
            AxisValue::Opacity(o) => style.fill_opacity = o,
            AxisValue::LineWidth(w) => style.line_width = w,
            AxisValue::FontSize(f) => style.font_size = f,
            AxisValue::Annotation(a) => annotation = a,
            AxisValue::Palette(p) => style.palette = p,
            AxisValue::Rotation(r) => style.rotation = r,
            AxisValue::Jpeg(q) => encoding = Encoding::Jpeg { quality: q },
            // Texts and letters (applied to the Problem), and the canvas (below).
            AxisValue::Info(_)
            | AxisValue::Relabel(_)
            | AxisValue::Phrasing(_)
            | AxisValue::Backward
            | AxisValue::Aux(_)
            | AxisValue::Unrelated(_)
            | AxisValue::Resolution(_) => {}
        }
    }
    if let Some(AxisValue::Resolution(r)) = variant.get(Axis::Resolution) {
        let k = r as f32 / REFERENCE_CANVAS;
        style.canvas = r;
        style.font_size *= k;
        style.line_width *= k;
    }
    (style, annotation, encoding)
}

/// The base drawing (default style, coordinate annotation, PNG) with `variant` applied.
pub fn draw_problem(base: &Problem, variant: &Variant) -> Result<Drawing, VariantError> {
    let (style, annotation, encoding) = drawing_style(variant);
    // The question asked backward first: the rewrites below keep it.
    let mut problem = match variant.get(Axis::Backward) {
        Some(_) => crate::generate::backward_question(base).map_err(VariantError::NoBackward)?,
        None => base.clone(),
    };
    if let Some(AxisValue::Unrelated(k)) = variant.get(Axis::Unrelated) {
        problem = crate::generate::unrelated::with_unrelated(&problem, k)
            .map_err(VariantError::NoUnrelated)?;
    }
    if let Some(AxisValue::Aux(aids)) = variant.get(Axis::Aux) {
        problem.diagram.aux =
            crate::generate::aids::aux_lines(&problem, aids).map_err(VariantError::NoAux)?;
    }
    // The wording next: the rewrites below regenerate the texts in it.
    if let Some(AxisValue::Phrasing(k)) = variant.get(Axis::Phrasing) {
        problem.params.phrasing = k;
        crate::generate::refresh_texts(&mut problem).map_err(rewrite("phrasing"))?;
    }
    for v in &variant.settings {
        match *v {
            AxisValue::Info(i) => problem = with_info(&problem, i).map_err(rewrite("info"))?,
            AxisValue::Relabel(seed) => {
                problem = relabel(&problem, seed).map_err(rewrite("relabel"))?
            }
            _ => {}
        }
    }
    if style.palette == Palette::Grayscale {
        problem = grayscale_names(&problem)?;
    }
    Ok(Drawing {
        problem,
        style,
        annotation,
        encoding,
    })
}

/// The problem with its shapes renamed to the grey each is drawn in (darker colours
/// get darker greys) and its texts rewritten, so that a grayscale image is never
/// described by the colours it no longer shows.
fn grayscale_names(p: &Problem) -> Result<Problem, VariantError> {
    let colours: Vec<&str> = p.diagram.shapes.iter().map(|s| s.colour.as_str()).collect();
    let names =
        crate::generate::colours::gray_names(&colours).ok_or(VariantError::TooManyGrays {
            shapes: colours.len(),
            max: crate::generate::colours::GRAYS.len(),
        })?;
    let mut q = p.clone();
    for (shape, name) in q.diagram.shapes.iter_mut().zip(names) {
        shape.colour = name.to_string();
    }
    crate::generate::refresh_texts(&mut q).map_err(rewrite("palette"))?;
    Ok(q)
}

/// A failed rewrite of the texts, blamed on `axis`.
fn rewrite(axis: &'static str) -> impl Fn(crate::generate::TextError) -> VariantError {
    move |error| VariantError::Problem { axis, error }
}

/// A bare Scene with the style axes of `variant` applied (see `on_scenes` in the
/// axis table); semantic axes are an error.
pub fn vary_scene(base: &Scene, variant: &Variant) -> Result<(Scene, Encoding), VariantError> {
    let mut s = base.clone();
    let mut encoding = Encoding::Png;
    for v in &variant.settings {
        match *v {
            AxisValue::Opacity(o) => each_path(&mut s, |p| {
                if p.fill.is_some() {
                    p.fill_opacity = o;
                }
            }),
            AxisValue::LineWidth(w) => {
                let k = w / Style::default().line_width;
                each_path(&mut s, |p| p.stroke_width *= k)
            }
            AxisValue::FontSize(f) => {
                let k = f / Style::default().font_size;
                for item in &mut s.items {
                    if let Item::Text(t) = item {
                        t.size *= k;
                    }
                }
            }
            AxisValue::Palette(p) => recolour(&mut s, p),
            AxisValue::Rotation(r) => {
                s = rotate_scene(&s, r.quarter_turns()).map_err(VariantError::Scene)?;
            }
            AxisValue::Resolution(_) => {} // applied last
            AxisValue::Jpeg(q) => encoding = Encoding::Jpeg { quality: q },
            AxisValue::Annotation(_)
            | AxisValue::Info(_)
            | AxisValue::Relabel(_)
            | AxisValue::Phrasing(_)
            | AxisValue::Backward
            | AxisValue::Aux(_)
            | AxisValue::Unrelated(_) => {
                return Err(VariantError::NeedsProblem(v.axis().name()));
            }
        }
    }
    if let Some(AxisValue::Resolution(r)) = variant.get(Axis::Resolution) {
        let k = r as f32 / s.width.max(s.height) as f32;
        s = scale_scene(&s, k).map_err(VariantError::Scene)?;
    }
    Ok((s, encoding))
}

fn each_path(s: &mut Scene, mut f: impl FnMut(&mut crate::scene::PathItem)) {
    for item in &mut s.items {
        if let Item::Path(p) = item {
            f(p);
        }
    }
}

/// Grayscale: every colour (fills, strokes, text, background) to its Rec. 709 luma.
/// High contrast: fills fully saturated at full value, greys left alone.
fn recolour(s: &mut Scene, palette: Palette) {
    match palette {
        Palette::Color => {}
        Palette::Grayscale => {
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
        Palette::HighContrast => each_path(s, |p| p.fill = p.fill.map(vivid)),
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
    use crate::generate::{GenerateOptions, generate_one};
    use crate::style::Rotation;
    use crate::variants::Plan;

    #[test]
    fn style_axes_set_exactly_their_field() {
        let p = generate_one(&GenerateOptions::default(), 1).unwrap();
        let base = draw_problem(&p, &Variant::default()).unwrap();
        for (spec, check) in [
            (
                "opacity=0.25",
                Box::new(|d: &Drawing| d.style.fill_opacity == 0.25)
                    as Box<dyn Fn(&Drawing) -> bool>,
            ),
            (
                "linewidth=4",
                Box::new(|d: &Drawing| d.style.line_width == 4.0),
            ),
            (
                "fontsize=24",
                Box::new(|d: &Drawing| d.style.font_size == 24.0),
            ),
            (
                "palette=grayscale",
                Box::new(|d: &Drawing| d.style.palette == Palette::Grayscale),
            ),
            (
                "rotation=90",
                Box::new(|d: &Drawing| d.style.rotation == Rotation::R90),
            ),
            (
                "jpeg=50",
                Box::new(|d: &Drawing| d.encoding == Encoding::Jpeg { quality: 50 }),
            ),
            (
                "annotation",
                Box::new(|d: &Drawing| d.annotation == Annotation::Individual),
            ),
        ] {
            let v = &Plan::parse(spec, false).unwrap().variants()[1];
            let d = draw_problem(&p, v).unwrap();
            assert!(check(&d), "{spec}");
            if spec == "palette=grayscale" {
                // Only the shapes' colour names and the texts naming them change.
                let mut renamed = d.problem.clone();
                for (a, b) in renamed
                    .diagram
                    .shapes
                    .iter_mut()
                    .zip(&base.problem.diagram.shapes)
                {
                    assert!(crate::generate::colours::gray_level(&a.colour).is_some());
                    a.colour = b.colour.clone();
                }
                crate::generate::refresh_texts(&mut renamed).unwrap();
                assert_eq!(
                    renamed, base.problem,
                    "{spec} changed more than colour names"
                );
                continue;
            }
            assert_eq!(d.problem, base.problem, "{spec} must not touch the problem");
        }
    }

    #[test]
    fn resolution_scales_sizes_with_the_canvas() {
        let p = generate_one(&GenerateOptions::default(), 1).unwrap();
        let v = &Plan::parse("resolution=1024;fontsize=24", true)
            .unwrap()
            .variants()[1];
        let d = draw_problem(&p, v).unwrap();
        assert_eq!(
            (d.style.canvas, d.style.font_size, d.style.line_width),
            (1024, 48.0, 4.0)
        );
    }

    #[test]
    fn semantic_axes_change_the_problem_but_not_the_answer() {
        let p = generate_one(&GenerateOptions::default(), 2).unwrap();
        for spec in ["relabel=1", "info=text"] {
            let v = &Plan::parse(spec, false).unwrap().variants()[1];
            let d = draw_problem(&p, v).unwrap();
            assert_ne!(d.problem, p, "{spec}");
            assert_eq!(d.problem.answer, p.answer);
        }
    }

    #[test]
    fn bare_scenes_take_style_axes_and_refuse_semantic_ones() {
        let s = crate::scene::synthetic::diagram_scene(3, 512);
        let v = &Plan::parse("opacity=0.2", false).unwrap().variants()[1];
        let (o, _) = vary_scene(&s, v).unwrap();
        for (a, b) in o.items.iter().zip(&s.items) {
            match (a, b) {
                (Item::Path(a), Item::Path(b)) if b.fill.is_some() => {
                    assert_eq!(a.fill_opacity, 0.2)
                }
                (a, b) => assert_eq!(a, b),
            }
        }
        let v = &Plan::parse("resolution=256", false).unwrap().variants()[1];
        assert_eq!(vary_scene(&s, v).unwrap().0.width, 256);
        let v = &Plan::parse("annotation", false).unwrap().variants()[1];
        assert_eq!(
            vary_scene(&s, v).unwrap_err(),
            VariantError::NeedsProblem("annotation")
        );
    }

    #[test]
    fn palettes_on_scenes() {
        assert_eq!(gray(Color::rgb(255, 0, 0)), Color::rgb(54, 54, 54));
        // (0x80 − 0x4d) / (0xe6 − 0x4d) · 255 = 85.
        assert_eq!(vivid(Color::rgb(0x4d, 0x80, 0xe6)), Color::rgb(0, 85, 255));
        assert_eq!(vivid(Color::rgb(100, 100, 105)), Color::rgb(100, 100, 105));
    }
}
