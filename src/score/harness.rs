//! Predictions as the evaluation harnesses write them, besides geomrender's own JSONL:
//!
//! - **lmms-eval** `--log_samples` files (`…_samples_<task>.jsonl`): one JSON object
//!   per sample with the dataset row in `doc` (our `id` column is `doc.id`) and the
//!   model's output in `filtered_resps` (else `resps`). The model is the name of the
//!   folder lmms-eval writes them into (`<output_path>/<model>/…`).
//! - **VLMEvalKit** result files (`<model>_GeomRender.xlsx`, or `.tsv` / `.csv`): a
//!   table with `index` and `prediction` (and the TSV's other columns, `id` among
//!   them). A row's image is its `id` when present, else manifest row number `index`
//!   (0-based), which is how the exported TSV numbers them. The model is the file
//!   name without `_GeomRender`.
//!
//! [`PredictionFormat::detect`] tells them apart by extension and, for JSONL, by the
//! first line's fields; `score --predictions-format` names one instead.

use super::error::{EXPECTED, LineReason, RejectedLine, ScoreError};
use super::manifest::ManifestItem;
use super::predictions::{ModelOutput, Prediction};
use super::table::{Columns, TableRow};
use serde_json::Value;
use std::path::Path;

/// The layout of a predictions file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PredictionFormat {
    /// `{"id", "prediction", "model"?}` per line.
    Geomrender,
    /// lmms-eval `--log_samples` JSONL.
    LmmsEval,
    /// A VLMEvalKit result table (`.xlsx`, `.tsv`, `.csv`).
    #[cfg_attr(feature = "cli", value(name = "vlmevalkit"))]
    VlmEvalKit,
}

crate::words!(PredictionFormat, "predictions format", {
    Geomrender => "geomrender",
    LmmsEval => "lmms-eval",
    VlmEvalKit => "vlmevalkit",
});

impl PredictionFormat {
    /// Guesses the layout from the file name and the first non-blank line.
    pub(crate) fn detect(name: &str, bytes: &[u8]) -> PredictionFormat {
        let ext = Path::new(name)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if matches!(ext.as_str(), "xlsx" | "tsv" | "csv") {
            return PredictionFormat::VlmEvalKit;
        }
        let first = crate::jsonl::split(bytes, super::MAX_PREDICTION_LINE_BYTES)
            .next()
            .and_then(|(_, raw)| serde_json::from_slice::<Value>(raw.ok()?).ok());
        match first {
            Some(v)
                if v.get("doc").is_some()
                    && (v.get("filtered_resps").is_some() || v.get("resps").is_some()) =>
            {
                PredictionFormat::LmmsEval
            }
            _ => PredictionFormat::Geomrender,
        }
    }

    /// The model a file's predictions belong to (see the module docs).
    pub(crate) fn model_name(self, name: &str) -> String {
        let path = Path::new(name);
        let stem = super::predictions::default_model_name(path);
        match self {
            PredictionFormat::Geomrender => stem,
            PredictionFormat::LmmsEval => path
                .parent()
                .and_then(|p| p.file_name())
                .map(|p| p.to_string_lossy().into_owned())
                .filter(|p| !p.is_empty())
                .unwrap_or(stem),
            PredictionFormat::VlmEvalKit => stem
                .strip_suffix(&format!("_{}", crate::output::datasets::VLMEVALKIT_NAME))
                .map(str::to_string)
                .unwrap_or(stem),
        }
    }
}

/// A sample's answer: `filtered_resps[0]`, else `resps[0][0]`, unwrapping nested
/// lists; numbers as their JSON text; [`ModelOutput::Null`] for a JSON `null` (no
/// output: the image counts as missing); `None` when there is no answer field.
fn response(sample: &Value) -> Option<ModelOutput> {
    let mut v = sample
        .get("filtered_resps")
        .filter(|v| !v.is_null())
        .or_else(|| sample.get("resps"))?;
    while let Value::Array(a) = v {
        v = a.first()?;
    }
    match v {
        Value::String(s) => Some(ModelOutput::of(s.clone())),
        Value::Number(n) => Some(ModelOutput::Text(n.to_string())),
        Value::Null => Some(ModelOutput::Null),
        _ => None,
    }
}

/// Parses an lmms-eval samples file.
pub(crate) fn parse_lmms_eval(
    text: &[u8],
    file: &str,
    model: &str,
) -> (Vec<Prediction>, Vec<RejectedLine>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (line, raw) in crate::jsonl::split(text, super::MAX_PREDICTION_LINE_BYTES) {
        let fail = |reason| RejectedLine {
            file: file.to_string(),
            line,
            reason,
        };
        let raw = match raw {
            Ok(raw) => raw,
            Err(e) => {
                errors.push(fail(e.into()));
                continue;
            }
        };
        let sample: Value = match serde_json::from_slice(raw) {
            Ok(v) => v,
            Err(e) => {
                errors.push(fail(LineReason::Json {
                    message: e.to_string(),
                }));
                continue;
            }
        };
        let Some(id) = sample.pointer("/doc/id").and_then(Value::as_str) else {
            errors.push(fail(LineReason::MissingField {
                field: "doc.id".into(),
            }));
            continue;
        };
        let Some(output) = response(&sample) else {
            errors.push(fail(LineReason::MissingField {
                field: "filtered_resps".into(),
            }));
            continue;
        };
        out.push(Prediction {
            id: id.to_string(),
            model: model.to_string(),
            output,
            file: file.to_string(),
            line,
        });
    }
    (out, errors)
}

fn table(bytes: &[u8], name: &str) -> Result<Vec<TableRow>, ScoreError> {
    if name.to_ascii_lowercase().ends_with(".xlsx") {
        return super::xlsx::table(bytes, name, &super::xlsx::Limits::DEFAULT);
    }
    let bad = |message: String| ScoreError::Predictions {
        file: name.to_string(),
        message,
    };
    let delimiter = if name.to_ascii_lowercase().ends_with(".csv") {
        b','
    } else {
        b'\t'
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut record = csv::StringRecord::new();
    let mut columns = None;
    let mut rows = Vec::new();
    let mut number = 0;
    while reader
        .read_record(&mut record)
        .map_err(|e| bad(e.to_string()))?
    {
        number += 1;
        let Some(columns) = columns else {
            let header: Vec<(usize, String)> = record
                .iter()
                .enumerate()
                .filter(|(_, f)| !f.is_empty())
                .map(|(c, f)| (c, f.to_string()))
                .collect();
            columns = Some(Columns::find(&header).map_err(bad)?);
            continue;
        };
        // A row is bounded like a line of a JSONL predictions file.
        if record.as_slice().len() > super::MAX_PREDICTION_LINE_BYTES {
            let mut row = columns.row(number, |_| None);
            row.fault = Some(LineReason::LineTooLong {
                max: super::MAX_PREDICTION_LINE_BYTES,
            });
            rows.push(row);
            continue;
        }
        rows.push(columns.row(number, |c| {
            record.get(c).filter(|f| !f.is_empty()).map(str::to_string)
        }));
    }
    if columns.is_none() {
        return Err(bad(format!("the file is empty; expected {EXPECTED}")));
    }
    Ok(rows)
}

/// Parses a VLMEvalKit result table; `items` (in manifest order) map `index` to ids.
pub(crate) fn parse_vlmevalkit(
    bytes: &[u8],
    file: &str,
    model: &str,
    items: &[ManifestItem],
) -> Result<(Vec<Prediction>, Vec<RejectedLine>), ScoreError> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for r in table(bytes, file)? {
        let fail = |reason| RejectedLine {
            file: file.to_string(),
            line: r.row,
            reason,
        };
        if let Some(reason) = r.fault {
            errors.push(fail(reason));
            continue;
        }
        let id = match (&r.id, &r.index) {
            (Some(id), _) => id.clone(),
            (None, Some(index)) => match index
                .trim()
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
            {
                Some(item) => item.id.clone(),
                None => {
                    errors.push(fail(LineReason::BadField {
                        field: "index".into(),
                        message: format!(
                            "{index:?} is not a row of the manifest (0..{})",
                            items.len()
                        ),
                    }));
                    continue;
                }
            },
            (None, None) => {
                errors.push(fail(LineReason::MissingField {
                    field: "index".into(),
                }));
                continue;
            }
        };
        let output = ModelOutput::of(r.prediction.unwrap_or_default());
        out.push(Prediction {
            id,
            model: model.to_string(),
            output,
            file: file.to_string(),
            line: r.row,
        });
    }
    Ok((out, errors))
}
