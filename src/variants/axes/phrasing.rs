//! `phrasing`: the question's framing in another hand-written wording (GeoEval's
//! rephrased questions, without a language model).

use super::{AxisDef, Change, OnScene, Values, integer, rewrite_error};
use crate::generate::rewrite::phrasing::MAX;

pub(super) static DEF: AxisDef = AxisDef {
    name: "phrasing",
    changes: "the question's framing sentences in another hand-written wording (GeoEval's rephrased questions, §3.1.3, without a language model); facts, names, numbers, solution and answer unchanged, image identical",
    from: "GeoEval §3.1.3 (rephrased questions)",
    base: "0 (GeomVerse's wording)",
    base_number: None,
    sweep: &["1", "2", "3"],
    values: Values::Integer {
        lo: 1,
        hi: MAX as u64,
        only: &[],
    },
    numeric: false,
    plot_title: "wording of the question",
    look: None,
    rewrite: Some(|s, mut p, _| {
        if let Some(k) = integer(s).and_then(|k| u8::try_from(k).ok()) {
            p.params.phrasing = k;
            crate::generate::refresh_texts(&mut p).map_err(rewrite_error("phrasing"))?;
        }
        Ok(p)
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[Change::Question],
    made_when_same: false,
    relations: false,
    relations_sweep: None,
    // Before the rewrites that regenerate the texts, which then keep the wording.
    order: 4,
};
