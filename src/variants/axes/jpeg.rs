//! `jpeg`: the image stored as JPEG at a quality (compression artefacts).

use super::{AxisDef, Change, OnScene, Values, integer};
use crate::style::Encoding;

fn encoding(s: super::Setting) -> Option<Encoding> {
    let quality = u8::try_from(integer(s)?).ok()?;
    Some(Encoding::Jpeg { quality })
}

pub(super) static DEF: AxisDef = AxisDef {
    name: "jpeg",
    changes: "stored as JPEG at the given quality instead of PNG",
    from: "ours (lossy storage)",
    base: "none (PNG)",
    base_number: None,
    sweep: &["95", "75", "50", "25", "10"],
    values: Values::Integer {
        lo: 1,
        hi: 100,
        only: &[],
    },
    numeric: true,
    plot_title: "JPEG quality (1–100)",
    look: Some(|s, look| {
        if let Some(e) = encoding(s) {
            look.encoding = e;
        }
    }),
    rewrite: None,
    pixels: None,
    on_scene: OnScene::Apply {
        doc: "same",
        apply: |s, _, out| {
            if let Some(e) = encoding(s) {
                *out = e;
            }
            Ok(())
        },
    },
    may_change: &[Change::Encoding],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 5,
};
