//! `rotation`: the diagram turned by quarter turns, labels upright (VisAidMath's
//! viewing angle).

use super::{AxisDef, Change, OnScene, Values, integer};
use crate::scene::transform::rotate_scene;
use crate::style::Rotation;
use crate::variants::VariantError;

fn rotation(s: super::Setting) -> Option<Rotation> {
    integer(s).and_then(|d| Rotation::from_degrees(u32::try_from(d).ok()?))
}

pub(super) static DEF: AxisDef = AxisDef {
    name: "rotation",
    changes: "diagram rotated clockwise by the value in degrees, labels kept upright and re-placed",
    from: "VisAidMath (viewing angle)",
    base: "0",
    base_number: Some(0.0),
    sweep: &["90", "180", "270"],
    values: Values::Integer {
        lo: 0,
        hi: 270,
        only: &[0, 90, 180, 270],
    },
    numeric: true,
    plot_title: "rotation (degrees clockwise)",
    look: Some(|s, look| {
        if let Some(r) = rotation(s) {
            look.style.rotation = r;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "rotates geometry and text anchors about the centre (a 90° turn swaps width and height)",
        apply: |s, scene, _| {
            if let Some(r) = rotation(s) {
                *scene = rotate_scene(scene, r.quarter_turns()).map_err(VariantError::Scene)?;
            }
            Ok(())
        },
    },
    may_change: &[Change::PathsMoved, Change::LabelsMoved, Change::Leaders],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
