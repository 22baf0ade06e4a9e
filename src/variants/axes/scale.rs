//! `scale`: the diagram drawn smaller, about the canvas centre (VisAidMath's
//! relative size); labels, lines and canvas keep their sizes.

use super::{AxisDef, Change, OnScene, Values, number};

pub(super) static DEF: AxisDef = AxisDef {
    name: "scale",
    changes: "the diagram's drawn size as a share of its fitted size, centred (an exact scaling of the base about the canvas centre); label font size, line width and canvas unchanged, labels re-placed around the smaller diagram",
    from: "VisAidMath (relative size)",
    base: "1",
    base_number: Some(1.0),
    sweep: &["0.5", "0.7", "0.85"],
    values: Values::Number { lo: 0.1, hi: 1.0 },
    numeric: true,
    plot_title: "diagram size (share of the fitted size)",
    look: Some(|s, look| {
        if let Some(k) = number(s) {
            look.style.scale = k;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[Change::PathsMoved, Change::LabelsMoved, Change::Leaders],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
