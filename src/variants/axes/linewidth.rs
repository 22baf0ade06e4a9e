//! `linewidth`: the outline width (GeomVerse's visual variations).

use super::{AxisDef, Change, OnScene, Values, each_path, number};
use crate::style::Style;

pub(super) static DEF: AxisDef = AxisDef {
    name: "linewidth",
    changes: "outline width in px at 512 px (label positions stay put)",
    from: "GeomVerse (how the diagram is drawn)",
    base: "2",
    base_number: Some(2.0),
    sweep: &["0.5", "1", "4", "6"],
    values: Values::Number { lo: 0.1, hi: 32.0 },
    numeric: true,
    plot_title: "line width (px at 512 px)",
    look: Some(|s, look| {
        if let Some(w) = number(s) {
            look.style.line_width = w;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "scales every stroke width by value/2",
        apply: |s, scene, _| {
            if let Some(w) = number(s) {
                let k = w / Style::default().line_width;
                each_path(scene, |p| p.stroke_width *= k);
            }
            Ok(())
        },
    },
    may_change: &[Change::Strokes],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
