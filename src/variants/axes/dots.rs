//! `dots`: the dots on points that are not corners of a drawn outline (a point on a
//! line, a segment's end, a circle's centre), drawn or not. Labels stay where they
//! are: they keep clear of the dots' places either way.

use super::{AxisDef, Change, OnScene, Values, chosen, words};

const CHOICES: [(&str, bool); 2] = [("on", true), ("off", false)];
static WORDS: [&str; 2] = words(&CHOICES);

pub(super) static DEF: AxisDef = AxisDef {
    name: "dots",
    changes: "the dots on points that are not corners of a drawn outline (points on lines, segment ends, centres), drawn or not; nothing else moves",
    from: "ours (how points are marked)",
    base: "on",
    base_number: None,
    sweep: &["off"],
    values: Values::Choice(&WORDS),
    numeric: false,
    plot_title: "point dots",
    look: Some(|s, look| {
        if let Some(on) = chosen(&CHOICES, s) {
            look.style.point_dots = on;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[Change::PathsRemoved],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
