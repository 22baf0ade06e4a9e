//! `relabel`: the vertex letters permuted (GeomRel's relabelling).

use super::{AxisDef, Change, OnScene, Values, integer, rewrite_error};
use crate::generate::{relabel, relations};

pub(super) static DEF: AxisDef = AxisDef {
    name: "relabel",
    changes: "vertex letters permuted (every vertex renamed) in image and texts alike (a relation item's conditions and asked elements too; its choices and answer stay)",
    from: "GeomRel (relabelled points)",
    base: "0 (original letters)",
    base_number: None,
    sweep: &["1", "2", "3"],
    values: Values::Integer {
        lo: 1,
        hi: u64::MAX,
        only: &[],
    },
    numeric: false,
    plot_title: "relabelling seed",
    look: None,
    rewrite: Some(|s, p, _| match integer(s) {
        Some(seed) if p.is_relation() => Ok(relations::rewrite::relabel_relation(&p, seed)),
        Some(seed) => relabel(&p, seed).map_err(rewrite_error("relabel")),
        None => Ok(p),
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    // Every letter is placed with the box of the widest letter, so a renamed one
    // stays where it was, with its leader.
    may_change: &[Change::LabelText, Change::Question, Change::Cot],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
