//! `backward`: the backward question (GeoEval's backward reasoning): the forward
//! answer becomes a given and a given is asked.

use super::{AxisDef, Change, OnScene, Values};
use crate::generate::backward_question;
use crate::variants::VariantError;

pub(super) static DEF: AxisDef = AxisDef {
    name: "backward",
    changes: "the backward question (GeoEval §3.1.2): the forward answer becomes a given and one of the givens is asked — the deepest leaf of the reasoning whose chain inverts within the rounding and 3 % rules and whose value no other given states — with a complete solution and a new answer (params.backward marks it); the image changes with it: the forward answer is drawn as a given label (when givens are on the image) and the asked given's label is removed; a problem with no such given gets no such variant, and the run says how many",
    from: "GeoEval §3.1.2 (backward reasoning)",
    base: "0 (the forward question)",
    base_number: None,
    sweep: &["1"],
    values: Values::Integer {
        lo: 1,
        hi: 1,
        only: &[],
    },
    numeric: false,
    plot_title: "backward question",
    look: None,
    rewrite: Some(|_, p, _| backward_question(&p).map_err(VariantError::NoBackward)),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[
        Change::LabelsAdded,
        Change::LabelsRemoved,
        Change::LabelText,
        Change::LabelsMoved,
        Change::Question,
        Change::Cot,
        Change::Answer,
        Change::ValuesLost,
        Change::Leaders,
    ],
    made_when_same: false,
    relations: false,
    relations_sweep: None,
    // First: the rewrites after it keep the question it asks.
    order: 1,
};
