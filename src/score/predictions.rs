//! Reading model predictions: JSONL lines `{"id", "prediction", "model"?}`.
//!
//! `prediction` is the raw model output: a string, or a number (a harness that has
//! already extracted the answer; read as its JSON text, so `44` and `"44"` score the
//! same); `null` means there is no output for the image: it counts as missing (left
//! out of n, or wrong with `--missing wrong`), like an image with no line at all. An
//! output longer than [`super::MAX_PREDICTION_BYTES`] is an answer that is not read:
//! counted in n, unparsed ([`ModelOutput::TooLong`]), so that rambling never scores
//! higher than answering.
//! `model` defaults to the file's stem, so one file per model needs no `model` field
//! and one file may also hold several models.
//! Unknown fields are ignored.

use super::error::{LineReason, RejectedLine};
use super::error::{bad, required_string};
use super::manifest::parse_object;
use serde_json::Value;

/// What a prediction line says the model wrote.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ModelOutput {
    /// `null`: no output for the image; it counts as missing.
    Null,
    /// The raw output.
    Text(String),
    /// An output longer than [`super::MAX_PREDICTION_BYTES`]: an answer, scored as
    /// unparsed, whose text is not kept.
    TooLong { bytes: usize },
}

impl ModelOutput {
    /// The output of a harness's text: [`ModelOutput::TooLong`] past the bound.
    pub(crate) fn of(text: String) -> ModelOutput {
        match text.len() > super::MAX_PREDICTION_BYTES {
            true => ModelOutput::TooLong { bytes: text.len() },
            false => ModelOutput::Text(text),
        }
    }

    /// The raw text, when there is one to read.
    #[cfg(test)]
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            ModelOutput::Text(t) => Some(t),
            ModelOutput::Null | ModelOutput::TooLong { .. } => None,
        }
    }

    /// What a page shows for it: the text, or a note of its length.
    pub(crate) fn shown(&self) -> Option<std::borrow::Cow<'_, str>> {
        match self {
            ModelOutput::Null => None,
            ModelOutput::Text(t) => Some(t.into()),
            ModelOutput::TooLong { bytes } => {
                Some(format!("⟨an output of {bytes} bytes, too long to read: unparsed⟩").into())
            }
        }
    }
}

/// One prediction line.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Prediction {
    pub id: String,
    pub model: String,
    /// What the model wrote.
    pub output: ModelOutput,
    /// The file as named on the command line, and the 1-based line.
    pub file: String,
    pub line: usize,
}

/// Parses one predictions file. Returns the valid lines and one error per bad line.
pub(crate) fn parse_predictions(
    text: &[u8],
    file: &str,
    default_model: &str,
) -> (Vec<Prediction>, Vec<RejectedLine>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (line, raw) in crate::jsonl::split(text, super::MAX_PREDICTION_LINE_BYTES) {
        let parsed = raw
            .map_err(LineReason::from)
            .and_then(|raw| std::str::from_utf8(raw).map_err(|_| LineReason::NotUtf8))
            .and_then(|s| parse_line(s, default_model));
        match parsed {
            Ok((id, model, output)) => out.push(Prediction {
                id,
                model,
                output,
                file: file.to_string(),
                line,
            }),
            Err(reason) => errors.push(RejectedLine {
                file: file.to_string(),
                line,
                reason,
            }),
        }
    }
    (out, errors)
}

fn parse_line(
    line: &str,
    default_model: &str,
) -> Result<(String, String, ModelOutput), LineReason> {
    let map = parse_object(line)?;
    let id = required_string(&map, "id")?;
    let output = match map.get("prediction") {
        None => {
            return Err(LineReason::MissingField {
                field: "prediction".into(),
            });
        }
        Some(Value::String(s)) => ModelOutput::of(s.clone()),
        Some(Value::Number(n)) => ModelOutput::Text(n.to_string()),
        Some(Value::Null) => ModelOutput::Null,
        Some(_) => return Err(bad("prediction", "must be a string, a number or null")),
    };
    let model = match map.get("model") {
        None | Some(Value::Null) => default_model.to_string(),
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(_) => return Err(bad("model", "must be a non-empty string")),
    };
    Ok((id, model, output))
}

/// The model name used when a line has none: the file name without its extension.
pub(crate) fn default_model_name(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "model".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_defaults_to_stem_and_null_is_no_output() {
        let text = b"{\"id\":\"a\",\"prediction\":\"44\"}\n{\"id\":\"b\",\"prediction\":null,\"model\":\"m2\",\"latency\":3}\n";
        let (p, e) = parse_predictions(text, "runs/gpt.jsonl", "gpt");
        assert!(e.is_empty());
        assert_eq!((p[0].model.as_str(), p[0].line), ("gpt", 1));
        assert_eq!(
            (p[1].model.as_str(), &p[1].output),
            ("m2", &ModelOutput::Null)
        );
        assert_eq!(
            default_model_name("runs/gpt-4o.preds.jsonl".as_ref()),
            "gpt-4o.preds"
        );
    }

    #[test]
    fn an_over_long_line_is_a_line_error_and_an_over_long_output_an_unread_answer() {
        use crate::score::{MAX_PREDICTION_BYTES, MAX_PREDICTION_LINE_BYTES};
        let long_text = "7".repeat(MAX_PREDICTION_BYTES + 1);
        let long_line = format!(
            "{{\"id\":\"x\",\"prediction\":\"{}\"}}",
            "8".repeat(MAX_PREDICTION_LINE_BYTES)
        );
        let text = format!(
            "{{\"id\":\"a\",\"prediction\":\"44\"}}\n{long_line}\n\
             {{\"id\":\"big\",\"prediction\":\"{long_text}\"}}\n\
             {{\"id\":\"b\",\"prediction\":\"{}\"}}\n",
            "9".repeat(MAX_PREDICTION_BYTES)
        );
        let (p, e) = parse_predictions(text.as_bytes(), "p.jsonl", "p");
        let ids: Vec<&str> = p.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a", "big", "b"]);
        assert_eq!(
            p[1].output,
            ModelOutput::TooLong {
                bytes: MAX_PREDICTION_BYTES + 1
            }
        );
        assert_eq!(
            (p[2].line, p[2].output.text().map(str::len)),
            (4, Some(MAX_PREDICTION_BYTES))
        );
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].line, &e[0].reason),
            (
                2,
                &LineReason::LineTooLong {
                    max: MAX_PREDICTION_LINE_BYTES
                }
            )
        );
        assert!(
            e[0].to_string()
                .starts_with("p.jsonl:2: line longer than 16777216 bytes")
        );
    }

    #[test]
    fn bad_lines_are_reported() {
        let text = b"{\"id\":\"a\"}\n{\"id\":3,\"prediction\":\"x\"}\nnot json\n";
        let (p, e) = parse_predictions(text, "p.jsonl", "p");
        assert!(p.is_empty());
        assert_eq!(
            e[0].reason,
            LineReason::MissingField {
                field: "prediction".into()
            }
        );
        assert!(matches!(e[1].reason, LineReason::BadField { .. }));
        assert!(matches!(e[2].reason, LineReason::Json { .. }));
        assert_eq!(
            e[2].to_string().split(':').take(2).collect::<Vec<_>>(),
            ["p.jsonl", "3"]
        );
    }
}
