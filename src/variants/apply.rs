//! Applying a variant: to a Problem (all axes) or to a bare Scene (style axes), by
//! running each axis's hooks (`axes`) in their order.

use super::axes::{Look, OnScene};
use super::{AxisValue, Pixels, Variant, VariantError};
use crate::generate::{Annotation, Problem};
use crate::scene::Scene;
use crate::style::{Encoding, Style};

/// Everything that decides one image of a problem and its texts.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// The problem as drawn and asked (values moved, letters permuted).
    pub problem: Problem,
    pub style: Style,
    pub annotation: Annotation,
    /// What the pixel stage does to the rendered image (nothing for most variants).
    pub pixels: Pixels,
    pub encoding: Encoding,
}

/// The reference canvas that `linewidth` and `fontsize` values refer to.
pub(crate) const REFERENCE_CANVAS: f32 = 512.0;

/// The variant's settings in the order their hooks run (stable: equal orders keep
/// SPEC order).
fn in_order(variant: &Variant) -> Vec<AxisValue> {
    let mut settings = variant.settings.clone();
    settings.sort_by_key(|v| v.axis().order);
    settings
}

/// How `variant` draws and stores a problem: the default style, coordinate
/// annotation and PNG with the variant's axes applied (resolution last, scaling the
/// final line width and font size). Needs no Problem, so a plan can be checked
/// against [`crate::style::limits`] before any work.
pub(crate) fn drawing_style(variant: &Variant) -> (Style, Annotation, Encoding) {
    let look = drawing_look(variant);
    (look.style, look.annotation, look.encoding)
}

fn drawing_look(variant: &Variant) -> Look {
    let mut look = Look::default();
    for v in in_order(variant) {
        if let Some(set) = v.axis().look {
            set(v.setting(), &mut look);
        }
    }
    look
}

/// The base drawing (default style, coordinate annotation, PNG) with `variant` applied.
pub fn draw_problem(base: &Problem, variant: &Variant) -> Result<Drawing, VariantError> {
    if base.is_relation()
        && let Some(v) = variant.settings.iter().find(|v| !v.axis().relations)
    {
        return Err(VariantError::NotForRelations(v.axis()));
    }
    let look = drawing_look(variant);
    let mut problem = base.clone();
    for v in in_order(variant) {
        if let Some(rewrite) = v.axis().rewrite {
            problem = rewrite(v.setting(), problem, &look)?;
        }
    }
    Ok(Drawing {
        problem,
        style: look.style,
        annotation: look.annotation,
        pixels: Pixels::of(variant),
        encoding: look.encoding,
    })
}

/// A bare Scene with the style axes of `variant` applied (see `on_scenes` in the
/// axis table); semantic axes are an error.
pub(crate) fn vary_scene(
    base: &Scene,
    variant: &Variant,
) -> Result<(Scene, Encoding), VariantError> {
    if let Some(v) = variant.settings.iter().find(|v| v.axis().needs_problem()) {
        return Err(VariantError::NeedsProblem(v.axis().name()));
    }
    let mut s = base.clone();
    let mut encoding = Encoding::Png;
    for v in in_order(variant) {
        if let OnScene::Apply { apply, .. } = v.axis().on_scene {
            apply(v.setting(), &mut s, &mut encoding)?;
        }
    }
    Ok((s, encoding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate_one};
    use crate::scene::Item;
    use crate::style::{Palette, Rotation};
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
}
