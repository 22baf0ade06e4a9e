//! One dataset row: what every sink writes for one image, and the [`Layout`] of the
//! dataset it belongs in.

use crate::generate::Answer;
use crate::output::manifest::{ManifestRow, RelationFields, spelled};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// What kind of benchmark a dataset is. The harnesses read one table as one kind:
/// VLMEvalKit takes a TSV with option columns `A` and `B` for multiple choice and
/// one without for open questions (`build_dataset`, `vlmeval/dataset/__init__.py`),
/// and a Parquet column has one type (`answer`: a number or a letter). So every
/// row of a dataset is of its layout, set by its first row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Open questions with a numeric answer: GeomVerse problems (and rows without
    /// a problem, plain scenes).
    Open,
    /// Multiple choice, the answer an option's letter: GeomRel relation items.
    Choice,
}

impl Layout {
    /// The layout a manifest row needs: `None` for a row without a problem (a plain
    /// scene), which fits either.
    pub(crate) fn of(row: &ManifestRow) -> Option<Layout> {
        row.problem.as_ref().map(|p| match p.relation {
            Some(_) => Layout::Choice,
            None => Layout::Open,
        })
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::Open => "GeomVerse's problems (numeric answers)",
            Layout::Choice => "GeomRel's relation items (multiple choice)",
        })
    }
}

/// An image and what a harness needs about it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DatasetRow {
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
    /// The image file, as written; `None` on a text-only row.
    pub image: Option<RowImage>,
    pub question: Option<String>,
    /// GeomVerse's number, or a relation item's letter.
    pub answer: Option<Answer>,
    /// A relation item's choices, answer text, relation, domain, subset and mode.
    pub relation: Option<RelationFields>,
    /// The layout the row needs ([`Layout::of`]).
    pub layout: Option<Layout>,
    pub annotation: Option<String>,
    pub cot: Option<String>,
    pub depth: Option<i64>,
    pub question_type: Option<String>,
    /// The manifest row itself (one JSON object), for sinks that keep it whole.
    pub manifest_json: String,
    /// The image's path relative to the output directory (`images/a.png`).
    pub image_path: Option<String>,
    /// What the image draws, in its pixels, when the run made it (COCO).
    pub grounding: Option<std::sync::Arc<crate::compose::Grounding>>,
}

/// A dataset row's image file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RowImage {
    /// Its name (`s0-000001.png`).
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub sha256: String,
}

impl RowImage {
    /// The extension (`png` or `jpg`).
    pub(crate) fn extension(&self) -> &str {
        self.file_name.rsplit('.').next().unwrap_or("png")
    }
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
pub(crate) fn axis_and_value(row: &ManifestRow) -> (String, String) {
    match &row.source {
        Some(s) => variant_axis_value(&s.variant),
        None => ("base".to_string(), "base".to_string()),
    }
}

/// A variant's `(axis, value)` as [`axis_and_value`] names them (`("base", "base")`
/// for the empty variant of a base image).
pub(crate) fn variant_axis_value(variant: &serde_json::Map<String, Value>) -> (String, String) {
    if variant.is_empty() {
        return ("base".to_string(), "base".to_string());
    }
    let mut keys: Vec<&String> = variant.keys().collect();
    keys.sort();
    let axis = keys
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join("+");
    let value = (keys.iter())
        .map(|k| value_text(&variant[*k]))
        .collect::<Vec<_>>()
        .join("+");
    (axis, value)
}

impl DatasetRow {
    /// `image`: the bytes of the file the row names (`None` on a text-only row).
    pub(crate) fn new(index: u64, row: &ManifestRow, image: Option<Vec<u8>>) -> DatasetRow {
        DatasetRow::with_line(index, row, row.to_json(), image)
    }

    /// [`new`](Self::new) with the row's JSON already made (`line`: `row.to_json()`,
    /// as the manifest holds it), so a run that writes the manifest line does not
    /// serialise the row twice.
    pub(crate) fn with_line(
        index: u64,
        row: &ManifestRow,
        line: String,
        image: Option<Vec<u8>>,
    ) -> DatasetRow {
        let (axis, value) = axis_and_value(row);
        let p = row.problem.as_ref();
        let image = row
            .image
            .file
            .as_ref()
            .zip(image)
            .map(|(f, bytes)| RowImage {
                file_name: f.image.rsplit('/').next().unwrap_or(&f.image).to_string(),
                bytes,
                width: f.width,
                height: f.height,
                sha256: f.sha256.clone(),
            });
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
            image,
            question: p.map(|p| p.question.clone()),
            answer: p.map(|p| p.answer),
            relation: p.and_then(|p| p.relation.clone()),
            layout: Layout::of(row),
            annotation: p.map(|p| spelling(p.annotation)),
            cot: p.map(|p| p.cot.clone()),
            depth: p.map(|p| i64::from(p.params.depth)),
            question_type: p.map(|p| spelling(p.params.question_type)),
            manifest_json: line,
            image_path: row.image.path().map(str::to_string),
            grounding: None,
        }
    }

    /// The number, on a GeomVerse row (the Parquet sink's `answer` column).
    #[cfg(feature = "parquet")]
    pub(crate) fn number(&self) -> Option<f64> {
        self.answer.and_then(Answer::number)
    }

    /// The correct option's letter, on a relation item's row.
    pub(crate) fn letter(&self) -> Option<char> {
        match self.answer {
            Some(Answer::Choice(c)) => Some(c),
            _ => None,
        }
    }

    /// The image's bytes on disk (0 without one): what a shard's size counts.
    pub(crate) fn image_bytes(&self) -> u64 {
        self.image.as_ref().map_or(0, |i| i.bytes.len() as u64)
    }
}

/// A unit enum's name as the manifest spells it (`coordinate`, `basic`).
pub(super) fn spelling<T: Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
