//! `aux`: auxiliary lines drawn dashed (VisAidMath's visual aids).

use super::{AxisDef, Change, OnScene, Values, chosen, words};
use crate::generate::rewrite::aux::{Aids, aux_lines};
use crate::variants::VariantError;

const CHOICES: [(&str, Aids); 2] = [("solution", Aids::Solution), ("unrelated", Aids::Unrelated)];
static WORDS: [&str; 2] = words(&CHOICES);

pub(super) static DEF: AxisDef = AxisDef {
    name: "aux",
    changes: "auxiliary lines drawn dashed (VisAidMath's visual aids): solution = the heights and semicircle radii the solution uses but the diagram does not show; unrelated = per shape a height, radius, diagonal (composite shapes too), median or sector chord it does not use; texts and answer unchanged; base labels stay unless a new line crowds them; a problem with no such line gets no such variant",
    from: "VisAidMath (visual aids)",
    base: "none",
    base_number: None,
    sweep: &["solution", "unrelated"],
    values: Values::Choice(&WORDS),
    numeric: false,
    plot_title: "auxiliary lines drawn",
    look: None,
    rewrite: Some(|s, mut p, _| {
        if let Some(aids) = chosen(&CHOICES, s) {
            p.diagram.aux = aux_lines(&p, aids).map_err(VariantError::NoAux)?;
        }
        Ok(p)
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[
        Change::PathsAdded,
        Change::LabelsMoved,
        Change::Cot,
        Change::Leaders,
    ],
    made_when_same: false,
    relations: false,
    relations_sweep: None,
    order: 3,
};
