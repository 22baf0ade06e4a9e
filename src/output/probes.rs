//! `probes.jsonl`: the perception probes of a run (`--probes`), one row per probe,
//! in manifest order (each image row's probes right after it is written).
//!
//! A probe row names its image row (`of`) and that row's image file with the same
//! `sha256`: it asks about the very image the reasoning question is asked with.
//! Its question ends with the option list as relation items' do ("Answer choices:
//! A. Yes B. No"), `answer` is the correct option's letter, and `probe` says what
//! it asks (`type`, `elements`), where every labelled point is in the image
//! (`points`, px) and why the answer holds (`why`: the measurement). The rows are
//! streamed to `.probes.jsonl.partial` and renamed when the run ends, as the
//! manifest is.

use crate::compose::Grounding;
use crate::output::manifest::ManifestRow;
use crate::probe::{Probe, ProbeAnswer, ProbeKind};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The JSON Schema of a probe row (`geomrender schema probe`).
pub(crate) const SCHEMA: &str = include_str!("../../schemas/probe.schema.json");

/// The file the rows go to.
pub(crate) const FILE: &str = "probes.jsonl";

/// One probe row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ProbeRow {
    /// `<of>__probe-<k>`, k from 0 per image.
    pub id: String,
    /// The image row whose image it asks about.
    pub of: String,
    /// That row's base image (its problem's unvaried image).
    pub base_id: String,
    /// That row's variant (`{}` on a base image).
    pub variant: Map<String, Value>,
    /// The image file, as the manifest names it, and its facts.
    pub image: String,
    pub width: u32,
    pub height: u32,
    pub sha256: String,
    /// The question, ending with its option list (when it has options).
    pub question: String,
    /// The options in letter order; absent on a count, answered with a number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    /// The correct option's letter, or the count.
    pub answer: ProbeRowAnswer,
    /// The correct option's text, or the count as text.
    pub answer_text: String,
    pub probe: ProbeBlock,
}

/// What a probe asks and how its answer follows from the image.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ProbeBlock {
    #[serde(rename = "type")]
    pub kind: ProbeKind,
    /// The point names asked about (`["AB", "CD"]`, `["ABC"]` for an angle; a
    /// count names what it counts: `["triangles"]`).
    pub elements: Vec<String>,
    /// Every labelled point's position in the image, px (x right, y down).
    pub points: BTreeMap<String, [f64; 2]>,
    /// The measurement that decides the answer.
    pub why: String,
}

/// A probe's answer as its row writes it: a letter, or a whole number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum ProbeRowAnswer {
    Letter(char),
    Count(u32),
}

/// The letter of option `i`.
fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// The probe rows of `row`'s image, `None` when the row has no image file.
pub(crate) fn rows(row: &ManifestRow, g: &Grounding, probes: &[Probe]) -> Vec<ProbeRow> {
    let Some(file) = &row.image.file else {
        return Vec::new();
    };
    let points: BTreeMap<String, [f64; 2]> = (g.points.iter())
        .filter(|p| p.labelled)
        .map(|p| {
            let r = |v: f64| (v * 100.0).round() / 100.0;
            (p.name.clone(), [r(p.at[0]), r(p.at[1])])
        })
        .collect();
    let (base_id, variant) = match &row.source {
        Some(s) => (
            s.base_id.clone(),
            crate::output::manifest::spelled(&s.variant),
        ),
        None => (row.image.id.clone(), Map::new()),
    };
    (probes.iter().enumerate())
        .map(|(k, p)| {
            let (question, choices, answer, answer_text) = match &p.answer {
                ProbeAnswer::Choice { choices, correct } => (
                    format!(
                        "{} {}",
                        p.question,
                        crate::generate::relations::choice_list(choices)
                    ),
                    choices.clone(),
                    ProbeRowAnswer::Letter(letter(*correct)),
                    choices[*correct].clone(),
                ),
                ProbeAnswer::Count(n) => (
                    p.question.clone(),
                    Vec::new(),
                    ProbeRowAnswer::Count(*n),
                    n.to_string(),
                ),
            };
            ProbeRow {
                id: format!("{}__probe-{k}", row.image.id),
                of: row.image.id.clone(),
                base_id: base_id.clone(),
                variant: variant.clone(),
                image: file.image.clone(),
                width: file.width,
                height: file.height,
                sha256: file.sha256.clone(),
                question,
                choices,
                answer,
                answer_text,
                probe: ProbeBlock {
                    kind: p.kind,
                    elements: p.elements.clone(),
                    points: points.clone(),
                    why: p.why.clone(),
                },
            }
        })
        .filter(|r| r.id.len() <= crate::scene::limits::MAX_ID_BYTES)
        .collect()
}
