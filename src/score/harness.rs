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

use super::error::{LineError, LineReason, ScoreError};
use super::manifest::Item;
use super::predictions::Prediction;
use serde_json::Value;
use std::path::Path;

/// The layout of a predictions file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredictionFormat {
    /// `{"id", "prediction", "model"?}` per line.
    Geomrender,
    /// lmms-eval `--log_samples` JSONL.
    LmmsEval,
    /// A VLMEvalKit result table (`.xlsx`, `.tsv`, `.csv`).
    VlmEvalKit,
}

/// The layouts a predictions file may have, for errors.
pub const EXPECTED: &str = "geomrender JSONL ({\"id\", \"prediction\"} per line), \
     lmms-eval --log_samples JSONL ({\"doc\": {\"id\"}, \"filtered_resps\" or \"resps\"}), \
     or a VLMEvalKit result table (.xlsx/.tsv/.csv with columns index and prediction)";

impl PredictionFormat {
    /// Guesses the layout from the file name and the first non-blank line.
    pub fn detect(name: &str, bytes: &[u8]) -> PredictionFormat {
        let ext = Path::new(name)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if matches!(ext.as_str(), "xlsx" | "tsv" | "csv") {
            return PredictionFormat::VlmEvalKit;
        }
        let first = crate::jsonl::split(bytes)
            .next()
            .and_then(|(_, raw)| serde_json::from_slice::<Value>(raw).ok());
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
    pub fn model_name(self, name: &str) -> String {
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

/// The text of a sample's answer: `filtered_resps[0]`, else `resps[0][0]`, unwrapping
/// nested lists; numbers as their JSON text.
fn response(sample: &Value) -> Option<String> {
    let mut v = sample
        .get("filtered_resps")
        .filter(|v| !v.is_null())
        .or_else(|| sample.get("resps"))?;
    while let Value::Array(a) = v {
        v = a.first()?;
    }
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Null => Some(String::new()),
        _ => None,
    }
}

/// Parses an lmms-eval samples file.
pub fn parse_lmms_eval(text: &[u8], file: &str, model: &str) -> (Vec<Prediction>, Vec<LineError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (line, raw) in crate::jsonl::split(text) {
        let fail = |reason| LineError {
            file: file.to_string(),
            line,
            reason,
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
        let Some(text) = response(&sample) else {
            errors.push(fail(LineReason::MissingField {
                field: "filtered_resps".into(),
            }));
            continue;
        };
        out.push(Prediction {
            id: id.to_string(),
            model: model.to_string(),
            text,
            file: file.to_string(),
            line,
        });
    }
    (out, errors)
}

/// One table row: its 1-based row number in the file (the header is row 1) and cells
/// by column name.
struct TableRow {
    row: usize,
    index: Option<String>,
    id: Option<String>,
    prediction: Option<String>,
}

fn cell_text(c: &calamine::Data) -> Option<String> {
    use calamine::Data;
    match c {
        Data::Empty => None,
        Data::String(s) => Some(s.clone()),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(format!("{}", *f as i64)),
        Data::Float(f) => Some(f.to_string()),
        Data::Int(i) => Some(i.to_string()),
        Data::Bool(b) => Some(b.to_string()),
        other => Some(other.to_string()),
    }
}

fn table(bytes: &[u8], name: &str) -> Result<Vec<TableRow>, ScoreError> {
    let bad = |message: String| ScoreError::Predictions {
        file: name.to_string(),
        message,
    };
    let rows: Vec<Vec<Option<String>>> = if name.to_ascii_lowercase().ends_with(".xlsx") {
        use calamine::Reader;
        let mut book: calamine::Xlsx<_> =
            calamine::open_workbook_from_rs(std::io::Cursor::new(bytes))
                .map_err(|e| bad(format!("not a readable .xlsx: {e}")))?;
        let range = book
            .worksheet_range_at(0)
            .ok_or_else(|| bad("the workbook has no sheet".into()))?
            .map_err(|e| bad(e.to_string()))?;
        range
            .rows()
            .map(|r| r.iter().map(cell_text).collect())
            .collect()
    } else {
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
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| bad(e.to_string()))?;
            rows.push(
                record
                    .iter()
                    .map(|f| (!f.is_empty()).then(|| f.to_string()))
                    .collect(),
            );
        }
        rows
    };
    let Some((header, body)) = rows.split_first() else {
        return Err(bad(format!("the file is empty; expected {EXPECTED}")));
    };
    let column = |want: &str| {
        header
            .iter()
            .position(|h| h.as_deref().map(str::trim) == Some(want))
    };
    let (index, id, prediction) = (column("index"), column("id"), column("prediction"));
    if prediction.is_none() || (index.is_none() && id.is_none()) {
        let found: Vec<&str> = header.iter().flatten().map(String::as_str).collect();
        return Err(bad(format!(
            "a VLMEvalKit result needs columns index (or id) and prediction; found {found:?}"
        )));
    }
    let cell =
        |r: &Vec<Option<String>>, c: Option<usize>| c.and_then(|c| r.get(c).cloned().flatten());
    Ok(body
        .iter()
        .enumerate()
        .map(|(i, r)| TableRow {
            row: i + 2,
            index: cell(r, index),
            id: cell(r, id),
            prediction: cell(r, prediction),
        })
        .collect())
}

/// Parses a VLMEvalKit result table; `items` (in manifest order) map `index` to ids.
pub fn parse_vlmevalkit(
    bytes: &[u8],
    file: &str,
    model: &str,
    items: &[Item],
) -> Result<(Vec<Prediction>, Vec<LineError>), ScoreError> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for r in table(bytes, file)? {
        let fail = |reason| LineError {
            file: file.to_string(),
            line: r.row,
            reason,
        };
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
        out.push(Prediction {
            id,
            model: model.to_string(),
            text: r.prediction.unwrap_or_default(),
            file: file.to_string(),
            line: r.row,
        });
    }
    Ok((out, errors))
}
