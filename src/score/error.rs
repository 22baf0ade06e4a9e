//! Why scoring failed, or which input line was rejected and why.

use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// The layouts a predictions file may have, for errors.
pub(super) const EXPECTED: &str = "geomrender JSONL ({\"id\", \"prediction\"} per line), \
     lmms-eval --log_samples JSONL ({\"doc\": {\"id\"}, \"filtered_resps\" or \"resps\"}), \
     or a VLMEvalKit result table (.xlsx/.tsv/.csv with columns index and prediction)";

/// A rejected input line. Scoring goes on without it and the run ends non-zero.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, thiserror::Error)]
pub struct RejectedLine {
    /// The file as it was named on the command line.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    pub reason: LineReason,
}

impl fmt::Display for RejectedLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

/// The specific fault of a line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LineReason {
    /// The bytes are not UTF-8.
    #[error("not valid UTF-8")]
    NotUtf8,
    /// The line is longer than the bound on one line of its file
    /// (`crate::jsonl::MAX_LINE_BYTES` for the manifest,
    /// `MAX_PREDICTION_LINE_BYTES` for predictions); it is not parsed.
    #[error("line longer than {max} bytes, the bound on one line of this file; not read")]
    LineTooLong { max: usize },
    /// Not a JSON object.
    #[error("malformed JSON: {message}")]
    Json { message: String },
    /// A required field is absent.
    #[error("missing field \"{field}\"")]
    MissingField { field: String },
    /// A field has the wrong type or an invalid value.
    #[error("field \"{field}\": {message}")]
    BadField { field: String, message: String },
    /// The same manifest id on two lines.
    #[error("duplicate manifest id {id:?} (first on line {first_line})")]
    DuplicateItem { id: String, first_line: usize },
    /// A prediction for an id the manifest does not have.
    #[error("unknown id {id:?}: not in the manifest")]
    UnknownId { id: String },
    /// A second prediction for the same (model, id); the first one is scored.
    #[error("duplicate prediction for id {id:?} of model {model:?} (first at {first})")]
    DuplicatePrediction {
        id: String,
        model: String,
        first: String,
    },
}

impl From<crate::jsonl::LineReadError> for LineReason {
    fn from(e: crate::jsonl::LineReadError) -> Self {
        match e {
            crate::jsonl::LineReadError::NotUtf8 { .. } => LineReason::NotUtf8,
            crate::jsonl::LineReadError::TooLong { max } => LineReason::LineTooLong { max },
        }
    }
}

/// Why a scoring run could not proceed at all.
#[derive(Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScoreError {
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    /// An input file holds more than `max` bytes (`MAX_INPUT_BYTES`); reading
    /// stopped there.
    #[error(
        "{path}: more than {max} bytes, the bound on one file that score reads; split \
         the predictions into several files (repeat --predictions), or score the run's \
         manifest in parts"
    )]
    TooLarge { path: String, max: u64 },
    /// An option is out of range.
    #[error("invalid option {option}: {message}")]
    BadOption {
        option: &'static str,
        message: String,
    },
    /// A predictions file in no known layout (or a table without the columns needed).
    #[error("{file}: {message}")]
    Predictions { file: String, message: String },
    /// The manifest has no valid item to score; `why` says what the file holds
    /// instead (Problems, Scenes, only bad rows, nothing).
    #[error("{file}: no valid manifest rows to score: {why}")]
    EmptyManifest { file: String, why: String },
    /// Drawing a plot failed.
    #[error("plot {name}: {message}")]
    Plot { name: String, message: String },
    /// A `--predictions` directory or pattern that gives no file.
    #[error("--predictions {arg}: {why}")]
    NoPredictions { arg: String, why: String },
    /// `--explain` named an id that is not in the manifest or has no prediction.
    #[error("{0}")]
    Explain(String),
}

impl ScoreError {
    pub(crate) fn io(path: impl fmt::Display, err: impl fmt::Display) -> Self {
        ScoreError::Io {
            path: path.to_string(),
            message: err.to_string(),
        }
    }
}

/// A field that is there but holds a value it may not.
pub(crate) fn bad(field: &str, message: impl Into<String>) -> LineReason {
    LineReason::BadField {
        field: field.into(),
        message: message.into(),
    }
}

/// The non-empty string `field` of a JSON object line, or why it is not there.
pub(crate) fn required_string(map: &Map<String, Value>, field: &str) -> Result<String, LineReason> {
    match map.get(field) {
        None => Err(LineReason::MissingField {
            field: field.into(),
        }),
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(bad(field, "must not be empty")),
        Some(_) => Err(bad(field, "must be a string")),
    }
}
