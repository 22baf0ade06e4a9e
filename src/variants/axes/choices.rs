//! `choices`: a multiple-choice item's options rotated (MMBench's CircularEval).

use super::{AxisDef, Change, OnScene, Values, integer};
use crate::generate::relations::rewrite::rotate_choices;
use crate::variants::VariantError;

pub(super) static DEF: AxisDef = AxisDef {
    name: "choices",
    changes: "a multiple-choice item's options rotated cyclically by k places (the option of letter i becomes letter i + k, mod the number of options): the answer's letter follows its text, answer_text stays; the question's option list and the solution's closing letter are written again, picture and everything else unchanged; an item of n options has the rotations 1 to n − 1 (n would be the base, more a repeat), and no other; a problem without options (GeomVerse's) gets no such variant",
    from: "MMBench (CircularEval)",
    base: "0 (the generated order)",
    base_number: None,
    sweep: &["1", "2", "3", "4"],
    values: Values::Integer {
        lo: 1,
        hi: 25,
        only: &[],
    },
    numeric: false,
    plot_title: "options rotated by",
    look: None,
    rewrite: Some(|s, p, _| match integer(s) {
        Some(k) => rotate_choices(&p, k).ok_or(VariantError::NoChoices),
        None => Ok(p),
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    // The options are not drawn: only the texts and the letter change.
    may_change: &[Change::Question, Change::Cot, Change::Answer],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
