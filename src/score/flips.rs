//! The items whose verdict flips against their base image, per model: right on the
//! base and wrong on the variant, or the other way round — what a researcher reads
//! first in `report.html`. Taken from the per-image verdicts ([`ItemRow`]): a pair
//! flips when the model answered both the variant and its base (neither missing)
//! and one is right and the other wrong, exactly as `items.jsonl` pairs them.

use super::items::{ItemRow, Scalar};
use super::manifest::{BASE_AXIS, ManifestItem};
use super::predictions::{ModelOutput, Prediction};
use serde::Serialize;
use std::collections::HashMap;

/// Which way a verdict flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlipDirection {
    /// Right on the base image, wrong on the variant.
    RightToWrong,
    /// Wrong on the base image, right on the variant.
    WrongToRight,
}

impl FlipDirection {
    pub(crate) fn name(self) -> &'static str {
        match self {
            FlipDirection::RightToWrong => "right_to_wrong",
            FlipDirection::WrongToRight => "wrong_to_right",
        }
    }
}

/// One variant image whose verdict differs from its base's, for one model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flip {
    pub model: String,
    pub id: String,
    pub base_id: String,
    /// As in `items.jsonl`: the axis, `a+b` for a grid cell.
    pub axis: String,
    /// `axis=value[;…]`, the variant as SPEC writes it.
    pub variant: String,
    pub direction: FlipDirection,
    /// The variant's image, relative to the manifest's directory.
    pub image: Option<String>,
    /// Its width and height in pixels, when the manifest gives them.
    pub size: Option<(u32, u32)>,
    pub question: Option<String>,
    /// The gold answer (a number or an option letter).
    pub answer: Scalar,
    /// The model's raw output on the variant, and what was extracted from it.
    pub output: Option<String>,
    pub extracted: Option<Scalar>,
    /// The same on the base image.
    pub base_output: Option<String>,
    pub base_extracted: Option<Scalar>,
    /// The model's perception probes on this image (`probes.jsonl`), one line each:
    /// `✓` or `✗` (or `–` unanswered), the probe type, the question and the gold
    /// answer. Empty without probes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<String>,
}

/// The flips in `rows` (manifest order, models sorted within an image), with the
/// image and question of `items` and the raw outputs of `predictions` (the first
/// prediction of a repeated (model, id) pair, the one scored).
pub(crate) fn flips(
    items: &[ManifestItem],
    rows: &[ItemRow],
    predictions: &[Prediction],
) -> Vec<Flip> {
    let item_of: HashMap<&str, &ManifestItem> = items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut output: HashMap<(&str, &str), &ModelOutput> = HashMap::new();
    for p in predictions {
        output
            .entry((p.model.as_str(), p.id.as_str()))
            .or_insert(&p.output);
    }
    let row_of: HashMap<(&str, &str), &ItemRow> = (rows.iter())
        .map(|r| ((r.model.as_str(), r.id.as_str()), r))
        .collect();
    let text = |model: &str, id: &str| {
        let said = output.get(&(model, id))?.shown()?;
        Some(shown(&said))
    };
    let mut out = Vec::new();
    for r in rows {
        if r.axis == BASE_AXIS || r.missing {
            continue;
        }
        let Some(base) = row_of.get(&(r.model.as_str(), r.base_id.as_str())) else {
            continue;
        };
        if base.axis != BASE_AXIS || base.missing || base.correct == r.correct {
            continue;
        }
        let item = item_of.get(r.id.as_str());
        out.push(Flip {
            model: r.model.clone(),
            id: r.id.clone(),
            base_id: r.base_id.clone(),
            axis: r.axis.clone(),
            variant: (r.variant.iter())
                .map(|(a, v)| format!("{a}={}", scalar_text(v)))
                .collect::<Vec<_>>()
                .join(";"),
            direction: match base.correct {
                true => FlipDirection::RightToWrong,
                false => FlipDirection::WrongToRight,
            },
            image: item.and_then(|i| i.image.clone()),
            size: item.and_then(|i| i.size),
            question: item.and_then(|i| i.question.clone()),
            answer: r.answer.clone(),
            output: text(&r.model, &r.id),
            extracted: r.extracted.clone(),
            base_output: text(&r.model, &r.base_id),
            base_extracted: base.extracted.clone(),
            probes: Vec::new(),
        });
    }
    out
}

/// Bytes of a model's output a flip keeps: enough to read the answer's reasoning,
/// and a page of every flip stays bounded however long the outputs are.
pub(super) const OUTPUT_SHOWN: usize = 2_000;

/// The first [`OUTPUT_SHOWN`] bytes of `output` (to a character boundary), and how
/// much was cut.
fn shown(output: &str) -> String {
    if output.len() <= OUTPUT_SHOWN {
        return output.to_string();
    }
    let mut end = OUTPUT_SHOWN;
    while !output.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{} … [{} more bytes: the whole output is in the predictions file]",
        &output[..end],
        output.len() - end
    )
}

/// A scalar as the report writes it (`12`, `0.5`, `B`).
pub(super) fn scalar_text(v: &Scalar) -> String {
    match v {
        Scalar::Number(n) => crate::decimal::json_number(*n).to_string(),
        Scalar::Text(t) => t.clone(),
    }
}
