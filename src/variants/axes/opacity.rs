//! `opacity`: the fill opacity of the shapes (GeomVerse's visual variations).

use super::{AxisDef, Change, OnScene, Values, each_path, number};

pub(super) static DEF: AxisDef = AxisDef {
    name: "opacity",
    changes: "fill opacity of the shapes (outlines, marks and labels untouched)",
    from: "GeomVerse (how the diagram is drawn)",
    base: "0.5",
    base_number: Some(0.5),
    sweep: &["0.1", "0.25", "0.75", "1"],
    values: Values::Number { lo: 0.0, hi: 1.0 },
    numeric: true,
    plot_title: "fill opacity (0–1)",
    look: Some(|s, look| {
        if let Some(o) = number(s) {
            look.style.fill_opacity = o;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "sets fill_opacity of every filled path",
        apply: |s, scene, _| {
            if let Some(o) = number(s) {
                each_path(scene, |p| {
                    if p.fill.is_some() {
                        p.fill_opacity = o;
                    }
                });
            }
            Ok(())
        },
    },
    may_change: &[Change::Fills],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
