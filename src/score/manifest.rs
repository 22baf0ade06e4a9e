//! Reading the render manifest (`DIR/manifest.jsonl`): one item per image, its label
//! and the variant that made it. Unknown fields are ignored; every line is validated.
//!
//! Fields read: `id`, `base_id`, `variant` (`{}` for the base image, whose `id` equals
//! `base_id`; values are numbers or strings), `answer`, optional `choices` (then
//! `answer` is the 0-based option index or its letter `"A"`…), optional
//! `params.depth` and `params.question_type`, and on GeomRel relation rows
//! (`"task": "relations"`) the keys [`super::relations`] reads.

use super::error::{LineReason, RejectedLine, bad, required_string};
use super::relations::{ItemRelation, is_relation_row, parse_relation};
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

/// The value of one variant axis.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum VariantValue {
    Number(f64),
    Text(String),
}

impl VariantValue {
    /// Numbers before text; numbers by value, text by bytes.
    pub(crate) fn cmp_order(&self, other: &VariantValue) -> Ordering {
        match (self, other) {
            (VariantValue::Number(a), VariantValue::Number(b)) => a.total_cmp(b),
            (VariantValue::Number(_), VariantValue::Text(_)) => Ordering::Less,
            (VariantValue::Text(_), VariantValue::Number(_)) => Ordering::Greater,
            (VariantValue::Text(a), VariantValue::Text(b)) => a.cmp(b),
        }
    }
}

impl fmt::Display for VariantValue {
    /// Numbers as the manifest and the datasets spell them
    /// (`crate::decimal::fmt_shortest_f64`: `24`, not `24.0`), text as it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantValue::Number(v) => f.write_str(&crate::decimal::fmt_shortest_f64(*v)),
            VariantValue::Text(s) => f.write_str(s),
        }
    }
}

/// What a correct answer is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Label {
    /// A free-form numeric answer (GeomVerse).
    Number(f64),
    /// Multiple choice: the correct option's index and all option texts.
    Choice { index: usize, choices: Vec<String> },
}

/// One manifest line.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ManifestItem {
    pub id: String,
    pub base_id: String,
    /// `(axis, value)` sorted by axis name; empty for the base image.
    pub variant: Vec<(String, VariantValue)>,
    pub label: Label,
    /// `params.depth` as text, when present.
    pub depth: Option<String>,
    /// `params.question_type`, when present.
    pub question_type: Option<String>,
    /// The relation keys of a GeomRel row; `None` for GeomVerse rows.
    pub relation: Option<ItemRelation>,
    /// The image file, relative to the manifest's directory, when the row names one.
    pub image: Option<String>,
    /// The question asked with the image, when the row has one.
    pub question: Option<String>,
    /// The image's width and height in pixels, when the row gives both.
    pub size: Option<(u32, u32)>,
    /// 1-based line in the manifest.
    pub line: usize,
}

impl ManifestItem {
    /// Whether this is the unmodified base image of its problem.
    pub(crate) fn is_base(&self) -> bool {
        self.variant.is_empty()
    }

    /// The option texts, for multiple-choice items.
    pub(crate) fn choices(&self) -> Option<&[String]> {
        match &self.label {
            Label::Choice { choices, .. } => Some(choices),
            Label::Number(_) => None,
        }
    }
}

/// Axis names joined with `+` for grid rows; `base` is reserved for base images.
pub(crate) const BASE_AXIS: &str = "base";

/// Parses manifest text. Returns the valid items and one error per rejected line
/// (`file` is used in the errors only).
pub(crate) fn parse_manifest(text: &[u8], file: &str) -> (Vec<ManifestItem>, Vec<RejectedLine>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (line, raw) in crate::jsonl::split(text, crate::jsonl::MAX_LINE_BYTES) {
        let fail = |reason| RejectedLine {
            file: file.to_string(),
            line,
            reason,
        };
        let item = match raw.map(std::str::from_utf8) {
            Err(e) => Err(LineReason::from(e)),
            Ok(Err(_)) => Err(LineReason::NotUtf8),
            Ok(Ok(s)) => parse_item(s, line),
        };
        match item {
            Err(reason) => errors.push(fail(reason)),
            Ok(item) => match seen.get(&item.id) {
                Some(&first_line) => errors.push(fail(LineReason::DuplicateItem {
                    id: item.id,
                    first_line,
                })),
                None => {
                    seen.insert(item.id.clone(), line);
                    items.push(item);
                }
            },
        }
    }
    (items, errors)
}

pub(crate) fn parse_object(line: &str) -> Result<Map<String, Value>, LineReason> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(LineReason::Json {
            message: "expected a JSON object".into(),
        }),
        Err(e) => Err(LineReason::Json {
            message: e.to_string(),
        }),
    }
}

fn parse_item(line_text: &str, line: usize) -> Result<ManifestItem, LineReason> {
    let map = parse_object(line_text)?;
    let id = required_string(&map, "id")?;
    let base_id = required_string(&map, "base_id")?;
    let variant = parse_variant(map.get("variant"))?;
    if variant.is_empty() != (id == base_id) {
        return Err(bad(
            "variant",
            if variant.is_empty() {
                "is {} (a base image) but id differs from base_id"
            } else {
                "is not {} but id equals base_id (a base image has an empty variant)"
            },
        ));
    }
    let is_relation = is_relation_row(&map)?;
    if is_relation && map.get("choices").is_none_or(Value::is_null) {
        // A relation question is multiple choice.
        return Err(LineReason::MissingField {
            field: "choices".into(),
        });
    }
    let label = parse_label(map.get("answer"), map.get("choices"))?;
    let relation = match (&label, is_relation) {
        (Label::Choice { index, choices }, true) => Some(parse_relation(&map, *index, choices)?),
        _ => None,
    };
    let params = match map.get("params") {
        None | Some(Value::Null) => None,
        Some(Value::Object(p)) => Some(p),
        Some(_) => return Err(bad("params", "must be an object")),
    };
    let depth = match params.and_then(|p| p.get("depth")) {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(_) => return Err(bad("params.depth", "must be an integer or a string")),
    };
    let question_type = match params.and_then(|p| p.get("question_type")) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(_) => return Err(bad("params.question_type", "must be a non-empty string")),
    };
    Ok(ManifestItem {
        id,
        base_id,
        variant,
        label,
        depth,
        question_type,
        relation,
        image: map.get("image").and_then(Value::as_str).map(str::to_string),
        question: map
            .get("question")
            .and_then(Value::as_str)
            .map(str::to_string),
        size: dimension(&map, "width").zip(dimension(&map, "height")),
        line,
    })
}

/// A positive whole number of pixels that fits a `u32`, or nothing.
fn dimension(map: &Map<String, Value>, field: &str) -> Option<u32> {
    let n = map.get(field)?.as_u64()?;
    u32::try_from(n).ok().filter(|n| *n > 0)
}

fn parse_variant(value: Option<&Value>) -> Result<Vec<(String, VariantValue)>, LineReason> {
    let map = match value {
        None => {
            return Err(LineReason::MissingField {
                field: "variant".into(),
            });
        }
        Some(Value::Object(m)) => m,
        Some(_) => return Err(bad("variant", "must be an object")),
    };
    let mut out = Vec::with_capacity(map.len());
    for (axis, v) in map {
        let field = format!("variant.{axis}");
        if axis.is_empty() || axis.contains('+') || axis == BASE_AXIS {
            return Err(bad(
                &field,
                "axis name must be non-empty, without '+', and not \"base\"",
            ));
        }
        let value = match v {
            Value::Number(n) => match n.as_f64() {
                Some(f) if f.is_finite() => VariantValue::Number(f),
                _ => return Err(bad(&field, "must be a finite number")),
            },
            Value::String(s) if !s.is_empty() => VariantValue::Text(s.clone()),
            _ => return Err(bad(&field, "must be a number or a non-empty string")),
        };
        out.push((axis.clone(), value));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn parse_label(answer: Option<&Value>, choices: Option<&Value>) -> Result<Label, LineReason> {
    let answer = answer.ok_or_else(|| LineReason::MissingField {
        field: "answer".into(),
    })?;
    let choices = match choices {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => {
            let texts: Option<Vec<String>> =
                a.iter().map(|v| v.as_str().map(str::to_string)).collect();
            match texts {
                Some(t) if !t.is_empty() && t.len() <= 26 => Some(t),
                _ => return Err(bad("choices", "must be an array of 1 to 26 strings")),
            }
        }
        Some(_) => return Err(bad("choices", "must be an array of strings")),
    };
    match (choices, answer) {
        (None, Value::Number(n)) => match n.as_f64() {
            Some(v) if v.is_finite() => Ok(Label::Number(v)),
            _ => Err(bad("answer", "must be a finite number")),
        },
        (None, _) => Err(bad("answer", "must be a number")),
        (Some(choices), answer) => {
            let index = match answer {
                Value::Number(n) => n.as_u64().and_then(|i| usize::try_from(i).ok()),
                Value::String(s) if s.len() == 1 && s.as_bytes()[0].is_ascii_uppercase() => {
                    Some(usize::from(s.as_bytes()[0] - b'A'))
                }
                _ => None,
            };
            match index {
                Some(index) if index < choices.len() => Ok(Label::Choice { index, choices }),
                _ => Err(bad(
                    "answer",
                    format!(
                        "with choices, must be a 0-based option index or a letter A..{}",
                        super::cascade::option_letter(choices.len() - 1)
                    ),
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Result<ManifestItem, LineReason> {
        let (mut items, mut errors) = parse_manifest(line.as_bytes(), "m.jsonl");
        match errors.pop() {
            Some(e) => Err(e.reason),
            None => Ok(items.remove(0)),
        }
    }

    #[test]
    fn base_and_variant_rows() {
        let b = one(r#"{"id":"p1","base_id":"p1","variant":{},"answer":44.0,"params":{"depth":2,"question_type":"area"},"extra":1}"#).unwrap();
        assert!(b.is_base());
        assert_eq!(b.depth.as_deref(), Some("2"));
        let v = one(
            r#"{"id":"p1__g","base_id":"p1","variant":{"opacity":0.5,"fontsize":24},"answer":44}"#,
        )
        .unwrap();
        assert_eq!(v.variant[0].0, "fontsize");
        assert_eq!(v.variant[1].1.to_string(), "0.5");
        assert_eq!(v.depth, None);
    }

    #[test]
    fn choices_take_index_or_letter() {
        let c =
            one(r#"{"id":"a","base_id":"a","variant":{},"answer":"C","choices":["1","2","3"]}"#)
                .unwrap();
        assert_eq!(
            c.label,
            Label::Choice {
                index: 2,
                choices: vec!["1".into(), "2".into(), "3".into()]
            }
        );
        let e = one(r#"{"id":"a","base_id":"a","variant":{},"answer":3,"choices":["1","2","3"]}"#);
        assert!(matches!(e, Err(LineReason::BadField { ref field, .. }) if field == "answer"));
    }

    #[test]
    fn rejects_bad_lines_with_reasons() {
        assert!(matches!(one("{"), Err(LineReason::Json { .. })));
        assert!(matches!(one("[1]"), Err(LineReason::Json { .. })));
        assert_eq!(
            one(r#"{"base_id":"a","variant":{},"answer":1}"#),
            Err(LineReason::MissingField { field: "id".into() })
        );
        assert!(matches!(
            one(r#"{"id":"a","base_id":"b","variant":{},"answer":1}"#),
            Err(LineReason::BadField { .. })
        ));
        assert!(matches!(
            one(r#"{"id":"a","base_id":"a","variant":{},"answer":"44"}"#),
            Err(LineReason::BadField { .. })
        ));
        assert!(matches!(
            one(r#"{"id":"a","base_id":"b","variant":{"x":true},"answer":1}"#),
            Err(LineReason::BadField { .. })
        ));
        let (_, errs) = parse_manifest(
            b"{\"id\":\"a\",\"base_id\":\"a\",\"variant\":{},\"answer\":1}\n\n\xff\n",
            "m",
        );
        assert_eq!(errs[0].line, 3);
        assert_eq!(errs[0].reason, LineReason::NotUtf8);
    }

    #[test]
    fn duplicate_ids_name_the_first_line() {
        let text = "{\"id\":\"a\",\"base_id\":\"a\",\"variant\":{},\"answer\":1}\n{\"id\":\"a\",\"base_id\":\"a\",\"variant\":{},\"answer\":2}\n";
        let (items, errs) = parse_manifest(text.as_bytes(), "m");
        assert_eq!(items.len(), 1);
        assert_eq!(
            errs[0].reason,
            LineReason::DuplicateItem {
                id: "a".into(),
                first_line: 1
            }
        );
    }
}
