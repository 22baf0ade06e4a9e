//! `resolution`: the canvas side, with line widths and font sizes scaled along.

use super::{AxisDef, Change, OnScene, Values, integer};
use crate::scene::transform::scale_scene;
use crate::variants::{REFERENCE_CANVAS, VariantError};

pub(super) static DEF: AxisDef = AxisDef {
    name: "resolution",
    changes: "canvas side in px, with line widths and font sizes scaled along",
    from: "ours (image size; smaller canvases than 128 px cannot fit a legible label)",
    base: "512",
    base_number: Some(512.0),
    sweep: &["256", "384", "768", "1024"],
    values: Values::Integer {
        lo: 128,
        hi: 8192,
        only: &[],
    },
    numeric: true,
    plot_title: "canvas side (px)",
    // Last, so that it scales the line width and font size the other axes set.
    look: Some(|s, look| {
        if let Some(r) = integer(s) {
            let k = r as f32 / REFERENCE_CANVAS;
            look.style.canvas = r as u32;
            look.style.font_size *= k;
            look.style.line_width *= k;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "scales the scene so its longer side is the value",
        apply: |s, scene, _| {
            if let Some(r) = integer(s) {
                let k = r as f32 / scene.width.max(scene.height) as f32;
                *scene = scale_scene(scene, k).map_err(VariantError::Scene)?;
            }
            Ok(())
        },
    },
    may_change: &[
        Change::Canvas,
        Change::PathsMoved,
        Change::Strokes,
        Change::LabelsMoved,
        Change::LabelSize,
        Change::Leaders,
    ],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 10,
};
