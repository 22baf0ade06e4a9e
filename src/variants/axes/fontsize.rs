//! `fontsize`: the label size (GeomVerse's visual variations).

use super::{AxisDef, Change, OnScene, Values, number};
use crate::scene::Item;
use crate::style::Style;

pub(super) static DEF: AxisDef = AxisDef {
    name: "fontsize",
    changes: "size of all labels in px at 512 px; labels are re-placed, the diagram stays (a label with no room nearby gets a leader line)",
    from: "GeomVerse (how the diagram is drawn)",
    base: "16",
    base_number: Some(16.0),
    sweep: &["8", "12", "24", "32"],
    values: Values::Number { lo: 4.0, hi: 96.0 },
    numeric: true,
    plot_title: "label font size (px at 512 px)",
    look: Some(|s, look| {
        if let Some(f) = number(s) {
            look.style.font_size = f;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "scales every text size by value/16 (no re-layout)",
        apply: |s, scene, _| {
            if let Some(f) = number(s) {
                let k = f / Style::default().font_size;
                for item in &mut scene.items {
                    if let Item::Text(t) = item {
                        t.size *= k;
                    }
                }
            }
            Ok(())
        },
    },
    may_change: &[Change::LabelSize, Change::LabelsMoved, Change::Leaders],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
