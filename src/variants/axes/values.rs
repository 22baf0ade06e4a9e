//! `values`: the same problem with other givens, drawn and solved again (DynaMath).

use super::{AxisDef, Change, OnScene, Values, integer};
use crate::generate::GenerateError;
use crate::generate::relations::relation_with_values;
use crate::generate::rewrite::values::{TRIES, with_values};
use crate::variants::VariantError;

pub(super) static DEF: AxisDef = AxisDef {
    name: "values",
    changes: "the givens drawn again (variant k of the problem, from its seed and k): the same shapes, letters, colours, connections, question type and wording, other numbers, the diagram redrawn to them and the answer solved again under the generator's rules (3 % rounding, sensible shapes, ρ's a·x + b); texts differ from the base's only in their numbers; a relation item: the same construction drawn again with other coordinates, the same relation, answer, letters, option order and statements (numbers aside), checked as a generated item is; a problem with no such redraw in 200 tries gets no such variant",
    from: "DynaMath (value variants)",
    base: "0 (the generated values)",
    base_number: None,
    sweep: &["1", "2", "3", "4", "5"],
    values: Values::Integer {
        lo: 1,
        hi: u64::MAX,
        only: &[],
    },
    numeric: false,
    plot_title: "values variant",
    look: None,
    rewrite: Some(|s, p, _| match integer(s) {
        Some(k) if p.is_relation() => relation_with_values(&p, k).ok_or_else(|| {
            VariantError::NoValues(GenerateError::NoValues {
                id: p.id.clone(),
                k,
                tries: TRIES,
            })
        }),
        Some(k) => with_values(&p, k).map_err(VariantError::NoValues),
        None => Ok(p),
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    // Paths and labels move with the values; a leader may come or go where a
    // label's room changes. Letters, fills and every path's presence stay.
    may_change: &[
        Change::PathsMoved,
        Change::Leaders,
        Change::LabelsMoved,
        Change::LabelValue,
        Change::Question,
        Change::Cot,
        Change::Answer,
        Change::ValuesLost,
    ],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    // First: it draws the problem again from its seed, before any rewrite.
    order: 0,
};
