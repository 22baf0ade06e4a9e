//! `unrelated`: shapes that the question does not need, built on free sides or
//! standing in the free space of the base's frame (GeomRel's unrelated information).

use super::{AxisDef, Change, OnScene, Values, integer};
use crate::generate::relations;
use crate::generate::rewrite::unrelated::{UnrelatedError, with_unrelated};
use crate::variants::VariantError;

pub(super) static DEF: AxisDef = AxisDef {
    name: "unrelated",
    changes: "that many shapes the answer does not need (GeomRel's unrelated information, §2.5): a rectangle built outward on a free outline edge, or where no edge has room a free-standing rectangle, square or right triangle with new points in the free space of the square the base is fitted by, 8 % of its side clear of everything drawn; each with one given value, a side's whole-number length the texts do not use, on the image or in the question as the problem states its givens; solution and answer unchanged, no overlaps; the base drawn at its own scale and place (paths byte for byte), only the labels the new shapes crowd re-placed; a problem with no room inside the base's frame, or no colour left told apart from its fills, gets no such variant. On a relation item: that many new points, each on a drawn segment and stated (\"Point X lies on segment AB.\"), that no relation needs",
    from: "GeomRel §2.5 (unrelated information)",
    base: "0",
    base_number: Some(0.0),
    sweep: &["1", "2"],
    values: Values::Integer {
        lo: 1,
        hi: 3,
        only: &[],
    },
    numeric: true,
    plot_title: "unrelated shapes added",
    look: None,
    rewrite: Some(
        |s, p, _| match integer(s).and_then(|k| u8::try_from(k).ok()) {
            Some(k) if p.is_relation() => relations::rewrite::with_unrelated(&p, k).ok_or(
                VariantError::NoUnrelated(UnrelatedError::NoSegment { wanted: k }),
            ),
            Some(k) => with_unrelated(&p, k).map_err(VariantError::NoUnrelated),
            None => Ok(p),
        },
    ),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[
        Change::PathsAdded,
        Change::LabelsAdded,
        Change::LabelsMoved,
        Change::Leaders,
        Change::Question,
    ],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    // After the backward question, before the auxiliary lines (which may use the
    // shapes it adds) and the wording.
    order: 2,
};
