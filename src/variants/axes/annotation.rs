//! `annotation`: coordinate or individual labels, in the image and the texts
//! together (GeomVerse's annotation study).

use super::{AxisDef, Change, OnScene, Values, chosen, words};
use crate::generate::Annotation;

const CHOICES: [(&str, Annotation); 2] = [
    ("coordinate", Annotation::Coordinate),
    ("individual", Annotation::Individual),
];
static WORDS: [&str; 2] = words(&CHOICES);

pub(super) static DEF: AxisDef = AxisDef {
    name: "annotation",
    changes: "labels on the image and the question and solution texts together",
    from: "GeomVerse (annotation style)",
    base: "coordinate",
    base_number: None,
    sweep: &["individual"],
    values: Values::Choice(&WORDS),
    numeric: false,
    plot_title: "annotation style",
    look: Some(|s, look| {
        if let Some(a) = chosen(&CHOICES, s) {
            look.annotation = a;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[
        Change::LabelText,
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
