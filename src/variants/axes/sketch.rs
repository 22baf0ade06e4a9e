//! `sketch=1..3`: the diagram as if drawn by hand, on the vector paths before the
//! raster (`scene::sketch`): strokes wobble and overshoot the corners, level 3
//! draws them twice, labels move with their points plus a little jitter. Every
//! path point stays within the level's bound of the ruled drawing, and every
//! label within its bound of where it stood; `audit` checks both from the SVGs.
//! Seeded by the problem's id, so every image of a base is sketched alike.

use super::{AxisDef, Change, OnScene, Values, integer};

fn level(s: super::Setting) -> Option<u8> {
    integer(s).and_then(|v| u8::try_from(v).ok())
}

pub(super) static DEF: AxisDef = AxisDef {
    name: "sketch",
    changes: "the diagram drawn as if by hand: wobbly strokes overshooting the corners \
              (drawn twice at 3), labels jittered with their points, everything within \
              the level's bound of the ruled drawing; texts unchanged",
    from: "ours, after MathSight (2025)'s hand-drawn problems",
    base: "0 (ruled)",
    base_number: Some(0.0),
    sweep: &["1", "2", "3"],
    values: Values::Integer {
        lo: 1,
        hi: 3,
        only: &[],
    },
    numeric: true,
    plot_title: "sketch level (0 ruled, 3 roughest)",
    look: Some(|s, look| {
        if let Some(l) = level(s) {
            look.style.sketch = l;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "every path and label redrawn by hand, seeded by the Scene's id",
        apply: |s, scene, _| {
            if let Some(l) = level(s) {
                let seed = crate::digest::fnv1a64(&scene.id);
                let side = scene.width.max(scene.height) as f32;
                crate::scene::sketch::hand_drawn(&mut scene.items, l, seed, side).map_err(|r| {
                    super::super::VariantError::Scene(crate::scene::SceneError::new("items", r))
                })?;
            }
            Ok(())
        },
    },
    may_change: &[
        Change::PathsMoved,
        Change::PathsAdded,
        Change::Leaders,
        Change::LabelsMoved,
    ],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 4,
};
