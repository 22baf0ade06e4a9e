//! `info`: the given values on the diagram or in the question (GeomVerse's
//! information placement).

use super::{AxisDef, Change, OnScene, Values, chosen, rewrite_error, words};
use crate::generate::{Info, with_info};

const CHOICES: [(&str, Info); 2] = [("text", Info::Text), ("image", Info::Image)];
static WORDS: [&str; 2] = words(&CHOICES);

pub(super) static DEF: AxisDef = AxisDef {
    name: "info",
    changes: "given values printed on the diagram (image) or stated in the question (text)",
    from: "GeomVerse (information on the image or in the text)",
    base: "the problem's own",
    base_number: None,
    sweep: &["text", "image"],
    values: Values::Choice(&WORDS),
    numeric: false,
    plot_title: "where the given values are shown",
    look: None,
    rewrite: Some(|s, p, _| match chosen(&CHOICES, s) {
        Some(info) => with_info(&p, info).map_err(rewrite_error("info")),
        None => Ok(p),
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[
        Change::LabelsAdded,
        Change::LabelsRemoved,
        Change::LabelsMoved,
        Change::Question,
        Change::Cot,
        Change::Leaders,
    ],
    made_when_same: false,
    relations: false,
    relations_sweep: None,
    order: 5,
};
