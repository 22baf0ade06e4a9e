//! `items.jsonl`: one row per (model, image) — the verdict a researcher joins with
//! their own tables: id, base image, model, axis and value, task (and a relation
//! item's relation, domain, subset and mode), label, what was extracted, by which
//! rule, and whether it was right. Rows follow the manifest's order, models sorted
//! within each image; an image a model has no prediction for gets a row with
//! `missing: true` (and `correct: false`, whatever `--missing` says about counting
//! it).
//!
//! `axis` and `value` are the report's own (`report.json` rows, breakdowns and
//! `cannot_be_inferred`): `value` is always text, `base` for a base image and the
//! values joined with `+` for a grid cell, so every row joins its report row on
//! (model, axis, value); the typed values are in `variant`.

use super::blind::GEOMVERSE_TASK;
use super::cascade::{Extracted, Rule, option_letter};
use super::join::Scored;
use super::manifest::{Label, ManifestItem, VariantValue};
use super::relations::{ItemRelation, RELATIONS_TASK};
use super::tally::Key;
use serde::Serialize;
use std::collections::BTreeMap;

/// The JSON Schema of an `items.jsonl` row.
pub(crate) const ITEMS_SCHEMA: &str = include_str!("../../schemas/score-items.schema.json");

/// A number, or a text (an option letter, a palette name). A number is written as
/// the manifest writes variant values (`crate::decimal::json_number`: `12`, not
/// `12.0`).
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    Number(f64),
    Text(String),
}

impl Serialize for Scalar {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Scalar::Number(n) => crate::decimal::json_number(*n).serialize(s),
            Scalar::Text(t) => t.serialize(s),
        }
    }
}

impl From<&VariantValue> for Scalar {
    fn from(v: &VariantValue) -> Scalar {
        match v {
            VariantValue::Number(n) => Scalar::Number(*n),
            VariantValue::Text(t) => Scalar::Text(t.clone()),
        }
    }
}

/// One row of `items.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemRow {
    pub id: String,
    pub base_id: String,
    pub model: String,
    /// The variant axis: `base` for the base image, `a+b` for a grid cell.
    pub axis: String,
    /// The axis value as the report's rows spell it: `8`, `base` for the base
    /// image, `8+0.25` for a grid cell (always text: one type in every table).
    pub value: String,
    /// Every axis of the variant and its value (`{}` for the base image).
    pub variant: BTreeMap<String, Scalar>,
    /// `geomverse`, or `relations` for a GeomRel relation item.
    pub task: &'static str,
    /// A relation item's relation, domain, subset and mode, spelled as the
    /// report's relation breakdowns name their groups; absent on GeomVerse rows.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub relation: Option<RelationKeys>,
    /// The label: the answer, or the correct option's letter.
    pub answer: Scalar,
    /// What was read from the prediction: a number, an option letter, or `null`.
    pub extracted: Option<Scalar>,
    /// The extraction rule that fired (`none` when none did); `null` when missing.
    pub rule: Option<Rule>,
    pub correct: bool,
    /// No prediction from this model for this image.
    pub missing: bool,
}

/// The relation keys of a relation item's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RelationKeys {
    pub relation: &'static str,
    pub domain: &'static str,
    pub subset: &'static str,
    pub mode: &'static str,
}

impl From<&ItemRelation> for RelationKeys {
    fn from(r: &ItemRelation) -> RelationKeys {
        RelationKeys {
            relation: r.relation,
            domain: r.domain.name(),
            subset: r.subset.name(),
            mode: r.mode.name(),
        }
    }
}

/// The rows of every model's verdict on every item.
pub(crate) fn item_rows(items: &[ManifestItem], scored: &Scored) -> Vec<ItemRow> {
    let mut rows = Vec::with_capacity(items.len() * scored.models.len());
    for (i, item) in items.iter().enumerate() {
        // The report's own row key, so that items join its rows on (axis, value).
        let key = Key::of(item);
        let (axis, value) = (key.axis.clone(), key.value_label());
        let task = match item.relation {
            Some(_) => RELATIONS_TASK,
            None => GEOMVERSE_TASK,
        };
        let relation = item.relation.as_ref().map(RelationKeys::from);
        let variant: BTreeMap<String, Scalar> = (item.variant.iter())
            .map(|(a, v)| (a.clone(), Scalar::from(v)))
            .collect();
        let answer = match &item.label {
            Label::Number(n) => Scalar::Number(*n),
            Label::Choice { index, .. } => Scalar::Text(option_letter(*index).to_string()),
        };
        for (m, model) in scored.models.iter().enumerate() {
            let verdict = scored.verdicts[m][i];
            rows.push(ItemRow {
                id: item.id.clone(),
                base_id: item.base_id.clone(),
                model: model.clone(),
                axis: axis.clone(),
                value: value.clone(),
                variant: variant.clone(),
                task,
                relation: relation.clone(),
                answer: answer.clone(),
                extracted: verdict.and_then(|v| v.answer).map(|a| match a {
                    Extracted::Number(n) => Scalar::Number(n),
                    Extracted::Choice(k) => Scalar::Text(option_letter(k).to_string()),
                }),
                rule: verdict.map(|v| v.rule),
                correct: verdict.is_some_and(|v| v.correct),
                missing: verdict.is_none(),
            });
        }
    }
    rows
}
