//! A finished run read for its gallery: the manifest's rows (only the fields the
//! pages show, each checked), grouped by base image in manifest order, with the
//! shapes of each Problem from `problems.jsonl` when the run has one.

use super::GalleryLineError;
use crate::output::dir::Dir;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Largest manifest or problems file read (as `score` bounds its inputs).
const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Task name of a row without a question (a Scene line drawn by `render`).
pub const SCENE_TASK: &str = "scene";

/// One image of the run, as the gallery shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// 1-based manifest line.
    pub line: usize,
    pub id: String,
    /// Path relative to the run directory, `/`-separated.
    pub image: String,
    pub width: u32,
    pub height: u32,
    pub sha256: String,
    pub base_id: String,
    /// `axis=value[;axis=value…]` as SPEC writes it; `base` for a base image.
    pub label: String,
    /// The variant's axes, in the manifest's order.
    pub axes: Vec<String>,
    pub question: Option<String>,
    /// The answer as the manifest writes it (a number or an option letter).
    pub answer: Option<String>,
    pub cot: Option<String>,
    pub choices: Vec<String>,
    pub depth: Option<String>,
    pub question_type: Option<String>,
    /// `geomverse`, `relations`, or `scene` for a row without a question.
    pub task: String,
}

/// One base image and the rows drawn from it (the base's own row first when the
/// run has it, then its variants in manifest order).
#[derive(Clone, Debug, PartialEq)]
pub struct Base {
    pub id: String,
    /// Indices into the entries.
    pub rows: Vec<usize>,
    /// Shape kinds of its Problem (from `problems.jsonl`), when known.
    pub shapes: Vec<String>,
}

/// The run as read.
#[derive(Debug, Default)]
pub struct Run {
    pub entries: Vec<Entry>,
    pub bases: Vec<Base>,
    /// Base index of each entry.
    pub base_of: Vec<usize>,
    pub errors: Vec<GalleryLineError>,
}

/// Reads `manifest.jsonl` from `root`, and the shapes of each Problem from
/// `problems` (the run's input) or else `root/problems.jsonl` when there is one.
pub fn read_run(root: &Dir, problems: Option<&std::path::Path>) -> std::io::Result<Run> {
    let text = root.read("manifest.jsonl", MAX_INPUT_BYTES)?;
    let mut run = Run::default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (line, raw) in crate::jsonl::split(&text, crate::jsonl::MAX_LINE_BYTES) {
        let parsed = match raw {
            Err(e) => Err((None, e.to_string())),
            Ok(bytes) => parse_row(bytes, line),
        };
        let fail = |id: Option<String>, reason: String| GalleryLineError {
            file: "manifest.jsonl".into(),
            line,
            id,
            reason,
        };
        match parsed {
            Err((id, reason)) => run.errors.push(fail(id, reason)),
            Ok(entry) => match seen.get(&entry.id) {
                Some(first) => {
                    let reason = format!("duplicate id, first on line {first}");
                    run.errors.push(fail(Some(entry.id), reason));
                }
                None => {
                    seen.insert(entry.id.clone(), line);
                    run.entries.push(entry);
                }
            },
        }
    }
    group(&mut run);
    if let Some(shapes) = read_shapes(root, problems, &mut run.errors)? {
        for base in &mut run.bases {
            if let Some(s) = shapes.get(&base.id) {
                base.shapes = s.clone();
            }
        }
    }
    Ok(run)
}

fn group(run: &mut Run) {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut bases: Vec<Base> = Vec::new();
    let mut base_of = Vec::with_capacity(run.entries.len());
    for (i, e) in run.entries.iter().enumerate() {
        let b = *index.entry(e.base_id.as_str()).or_insert_with(|| {
            bases.push(Base {
                id: e.base_id.clone(),
                rows: Vec::new(),
                shapes: Vec::new(),
            });
            bases.len() - 1
        });
        base_of.push(b);
        if e.id == e.base_id {
            bases[b].rows.insert(0, i);
        } else {
            bases[b].rows.push(i);
        }
    }
    run.bases = bases;
    run.base_of = base_of;
}

type RowError = (Option<String>, String);

fn parse_row(bytes: &[u8], line: usize) -> Result<Entry, RowError> {
    let text = std::str::from_utf8(bytes).map_err(|_| (None, "not UTF-8".to_string()))?;
    let map = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => m,
        Ok(_) => return Err((None, "expected a JSON object".into())),
        Err(e) => return Err((None, format!("not JSON: {e}"))),
    };
    let id = string(&map, "id").map_err(|r| (None, r))?;
    let with_id = |r: String| (Some(id.clone()), r);
    let image = string(&map, "image").map_err(with_id)?;
    if image.starts_with('/')
        || image
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Err(with_id(format!(
            "image {image:?} is not a relative path inside the run directory"
        )));
    }
    let width = dimension(&map, "width").map_err(with_id)?;
    let height = dimension(&map, "height").map_err(with_id)?;
    let sha256 = string(&map, "sha256").map_err(with_id)?;
    if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(with_id("sha256 must be 64 hex digits".into()));
    }
    let base_id = match map.get("base_id") {
        None | Some(Value::Null) => id.clone(),
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(_) => return Err(with_id("base_id must be a non-empty string".into())),
    };
    let variant = match map.get("variant") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(v)) => v.clone(),
        Some(_) => return Err(with_id("variant must be an object".into())),
    };
    if variant.is_empty() != (id == base_id) {
        return Err(with_id(
            "a base image (empty variant) must have id equal to base_id, a variant another id"
                .into(),
        ));
    }
    let mut parts = Vec::new();
    for (axis, v) in &variant {
        let value = match v {
            Value::String(s) if !s.is_empty() => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => {
                return Err(with_id(format!(
                    "variant.{axis} must be a number or a text"
                )));
            }
        };
        parts.push(format!("{axis}={value}"));
    }
    let label = match parts.is_empty() {
        true => "base".to_string(),
        false => parts.join(";"),
    };
    let params = map.get("params").and_then(Value::as_object);
    let depth = params.and_then(|p| p.get("depth")).and_then(scalar_text);
    let question_type = params
        .and_then(|p| p.get("question_type"))
        .and_then(scalar_text);
    let question = optional_string(&map, "question").map_err(with_id)?;
    let task = match (map.get("task").and_then(Value::as_str), &question) {
        (Some(t), _) if !t.is_empty() => t.to_string(),
        (_, Some(_)) => "geomverse".to_string(),
        (_, None) => SCENE_TASK.to_string(),
    };
    let choices = match map.get("choices") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|c| c.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| with_id("choices must be an array of texts".into()))?,
        Some(_) => return Err(with_id("choices must be an array of texts".into())),
    };
    Ok(Entry {
        line,
        answer: map.get("answer").and_then(answer_text).map(|a| {
            // A relation item's letter with the choice it names.
            match map.get("answer_text").and_then(Value::as_str) {
                Some(t) if !t.is_empty() => format!("{a} ({t})"),
                _ => a,
            }
        }),
        cot: optional_string(&map, "cot").map_err(with_id)?,
        axes: variant.keys().cloned().collect(),
        id,
        image,
        width,
        height,
        sha256: sha256.to_ascii_lowercase(),
        base_id,
        label,
        question,
        choices,
        depth,
        question_type,
        task,
    })
}

fn string(map: &Map<String, Value>, field: &str) -> Result<String, String> {
    match map.get(field) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(format!("{field} must not be empty")),
        Some(_) => Err(format!("{field} must be a string")),
        None => Err(format!("missing field {field}")),
    }
}

fn optional_string(map: &Map<String, Value>, field: &str) -> Result<Option<String>, String> {
    match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{field} must be a string")),
    }
}

fn dimension(map: &Map<String, Value>, field: &str) -> Result<u32, String> {
    match map.get(field).and_then(Value::as_u64) {
        Some(n) if (1..=u64::from(crate::scene::limits::MAX_DIMENSION)).contains(&n) => {
            Ok(n as u32)
        }
        _ => Err(format!(
            "{field} must be a whole number of pixels from 1 to {}",
            crate::scene::limits::MAX_DIMENSION
        )),
    }
}

/// An answer as the texts write it: a number's shortest decimal (`225`, not
/// `225.0`), or an option letter.
fn answer_text(v: &Value) -> Option<String> {
    match v.as_f64() {
        Some(n) if v.is_number() => Some(crate::decimal::json_number(n).to_string()),
        _ => scalar_text(v),
    }
}

/// A number or a non-empty text as text (`2`, `1.5`, `"B"`).
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// Shape kinds per Problem id from the Problems file; `None` when there is none.
fn read_shapes(
    root: &Dir,
    problems: Option<&std::path::Path>,
    errors: &mut Vec<GalleryLineError>,
) -> std::io::Result<Option<HashMap<String, Vec<String>>>> {
    let (file, read) = match problems {
        Some(p) => (
            p.display().to_string(),
            std::fs::File::open(p)
                .and_then(|f| crate::output::dir::read_bounded(f, MAX_INPUT_BYTES)),
        ),
        None => (
            "problems.jsonl".to_string(),
            root.read("problems.jsonl", MAX_INPUT_BYTES),
        ),
    };
    let text = match read {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut out = HashMap::new();
    for (line, raw) in crate::jsonl::split(&text, crate::jsonl::MAX_LINE_BYTES) {
        let value = raw
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice::<Value>(b).map_err(|e| format!("not JSON: {e}")));
        let shapes = value.as_ref().map_err(Clone::clone).and_then(|v| {
            let id = v.get("id").and_then(Value::as_str).ok_or("missing id")?;
            let kinds = v
                .pointer("/diagram/shapes")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.get("kind").and_then(Value::as_str))
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            Ok::<_, String>((id.to_string(), kinds))
        });
        match shapes {
            Ok((id, kinds)) => {
                out.insert(id, kinds);
            }
            Err(reason) => errors.push(GalleryLineError {
                file: file.clone(),
                line,
                id: None,
                reason,
            }),
        }
    }
    Ok(Some(out))
}
