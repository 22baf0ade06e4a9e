//! One dataset row: what every sink writes for one image.

use crate::output::manifest::{ManifestRow, spelled};
use serde_json::Value;

/// An image and what a harness needs about it.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetRow {
    /// 0-based position in the manifest (VLMEvalKit's `index`).
    pub index: u64,
    pub id: String,
    pub base_id: String,
    /// The variant axis: `base`, an axis name, or names joined with `+` (grid).
    pub axis: String,
    /// Its value as text: `base` for base images, values joined with `+` for a grid.
    pub value: String,
    /// The variant as JSON text (`{}` for the base image).
    pub variant: String,
    /// The image file's name (`s0-000001.png`) and bytes, as written.
    pub file_name: String,
    pub image: Vec<u8>,
    pub question: Option<String>,
    pub answer: Option<f64>,
    pub annotation: Option<String>,
    pub cot: Option<String>,
    pub depth: Option<i64>,
    pub question_type: Option<String>,
    pub width: u32,
    pub height: u32,
    pub sha256: String,
    /// The manifest row itself (one JSON object), for sinks that keep it whole.
    pub manifest_json: String,
}

/// A variant value as text: numbers as [`crate::decimal::fmt_shortest_f64`] spells
/// them (`24`, `0.25`), strings as they are.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) => crate::decimal::fmt_shortest_f64(f),
            None => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `(axis, value)` of a manifest row, as `score` names them: `("base", "base")` for
/// base images, `("fontsize", "24")`, `("fontsize+opacity", "24+0.25")` for grids.
pub fn axis_and_value(row: &ManifestRow) -> (String, String) {
    match &row.source {
        Some(s) if !s.variant.is_empty() => {
            let mut keys: Vec<&String> = s.variant.keys().collect();
            keys.sort();
            let axis = keys
                .iter()
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
                .join("+");
            let value = keys
                .iter()
                .map(|k| value_text(&s.variant[*k]))
                .collect::<Vec<_>>()
                .join("+");
            (axis, value)
        }
        _ => ("base".to_string(), "base".to_string()),
    }
}

impl DatasetRow {
    pub fn new(index: u64, row: &ManifestRow, image: Vec<u8>) -> DatasetRow {
        let (axis, value) = axis_and_value(row);
        let p = row.problem.as_ref();
        let file_name = row
            .image
            .image
            .rsplit('/')
            .next()
            .unwrap_or(&row.image.image)
            .to_string();
        DatasetRow {
            index,
            id: row.image.id.clone(),
            base_id: row
                .source
                .as_ref()
                .map_or_else(|| row.image.id.clone(), |s| s.base_id.clone()),
            axis,
            value,
            variant: row.source.as_ref().map_or_else(
                || "{}".to_string(),
                |s| Value::Object(spelled(&s.variant)).to_string(),
            ),
            file_name,
            image,
            question: p.map(|p| p.question.clone()),
            answer: p.and_then(|p| p.answer.number()),
            annotation: p.map(|p| {
                serde_json::to_value(p.annotation)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            }),
            cot: p.map(|p| p.cot.clone()),
            depth: p.map(|p| i64::from(p.params.depth)),
            question_type: p.map(|p| {
                serde_json::to_value(p.params.question_type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            }),
            width: row.image.width,
            height: row.image.height,
            sha256: row.image.sha256.clone(),
            manifest_json: row.to_json(),
        }
    }

    /// The image's extension (`png` or `jpg`).
    pub fn extension(&self) -> &str {
        self.file_name.rsplit('.').next().unwrap_or("png")
    }
}
