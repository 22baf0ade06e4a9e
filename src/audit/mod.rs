//! `geomrender audit DIR`: every variant of a finished run compared with its base,
//! from the files — what changed (paths moved, added or removed, leader lines,
//! fills, strokes, labels moved, added, removed, renamed or resized, the canvas,
//! the encoding, the question, the CoT, the answer, the pixels) and whether its
//! axes declare that (`AxisDef::may_change`). A variant that changes something its
//! axes do not declare, or nothing at all, is flagged.
//!
//! What is drawn is read from each row's SVG file when the run wrote SVGs
//! (`--format png,svg`); otherwise each Scene is composed again from the run's
//! Problems (`DIR/problems.jsonl`, as `sweep` writes it, or `AuditOptions::problems`)
//! and read from its SVG text. Texts and answers come from the manifest rows,
//! images' identity from their `sha256`.
//!
//! ```text
//! items  an SVG file → its canvas, subpaths with paint, labels with place and text
//! diff   a variant's drawing and texts against its base's: counts per Change
//! write  audit.jsonl (one row per variant) and audit.md (per variant value)
//! ```

mod diff;
mod items;
mod write;

pub use diff::Changes;
pub use items::{Drawn, ItemsError, Label, Piece, read_svg};
pub use write::{AUDIT_JSONL, AUDIT_MD, columns, markdown, write_audit};

use crate::generate::Problem;
use crate::output::dir::Dir;
use crate::pipeline::draw_variant;
use crate::variants::{AXES, Axis, Change, Plan, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// The JSON Schema of an `audit.jsonl` row (`geomrender schema audit`).
pub const SCHEMA: &str = include_str!("../../schemas/audit.schema.json");

/// Largest SVG file the audit reads (one with the font embedded is about 1 MB).
const MAX_SVG_BYTES: u64 = 64 << 20;

/// Where the audit reads what was drawn when the run wrote no SVGs.
#[derive(Clone, Debug, Default)]
pub struct AuditOptions {
    /// The run's Problems (the `render` input). Default: `DIR/problems.jsonl` when
    /// it exists.
    pub problems: Option<PathBuf>,
}

/// How a row's drawing was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Its SVG file.
    Svg,
    /// Its Scene composed again from the run's Problem.
    Recomposed,
    /// Neither: only texts and image bytes were compared.
    Bytes,
}

/// One variant against its base.
#[derive(Clone, Debug, Serialize)]
pub struct AuditRow {
    pub id: String,
    pub base_id: String,
    /// As SPEC writes it: `opacity=0.1`, `palette=grayscale;opacity=0.25`.
    pub label: String,
    pub variant: Map<String, Value>,
    /// Items changed, per kind.
    pub changes: Changes,
    /// Kinds changed that none of the variant's axes declares.
    pub undeclared: Vec<Change>,
    /// Nothing changed: the same image bytes and texts as the base.
    pub identical: bool,
    /// The variant's diagram scale over its base's (manifest `layout.scale`), when
    /// both rows have one and they differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale_ratio: Option<f64>,
    pub source: Source,
}

/// A manifest line the audit could not use.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditLineError {
    pub file: String,
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub reason: String,
}

impl std::fmt::Display for AuditLineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if let Some(id) = &self.id {
            write!(f, " ({id})")?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// The rows of one variant value.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AuditGroup {
    pub label: String,
    pub rows: u64,
    /// Rows with each kind of change.
    pub changes: BTreeMap<Change, u64>,
    /// Rows with an undeclared change.
    pub undeclared: u64,
    pub identical: u64,
}

/// A whole run audited.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    pub bases: u64,
    pub rows: Vec<AuditRow>,
    /// One per variant value, in table order of their first axis, then by label.
    pub groups: Vec<AuditGroup>,
    pub errors: Vec<AuditLineError>,
}

impl Audit {
    /// Rows flagged: an undeclared change, or none at all.
    pub fn flagged(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.identical || !r.undeclared.is_empty())
            .count()
    }
}

/// Why the audit could not run at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: no manifest.jsonl: audit reads a finished run's directory")]
    NoManifest { path: PathBuf },
}

/// The manifest fields the audit reads.
#[derive(Deserialize)]
struct Row {
    id: String,
    image: Option<String>,
    sha256: Option<String>,
    svg: Option<String>,
    base_id: Option<String>,
    /// SHA-256 of the input line the image came from: its Problem is used only when
    /// the problems file's line has this hash.
    input_sha256: Option<String>,
    #[serde(default)]
    variant: Map<String, Value>,
    question: Option<String>,
    cot: Option<String>,
    answer: Option<crate::generate::Answer>,
    layout: Option<Layout>,
}

#[derive(Deserialize)]
struct Layout {
    scale: Option<f64>,
}

/// Audits the run in `dir`.
pub fn audit(dir: &Path, options: &AuditOptions) -> Result<Audit, AuditError> {
    let io = |path: PathBuf| move |source| AuditError::Io { path, source };
    let root = Dir::open(dir).map_err(io(dir.to_path_buf()))?;
    let manifest_path = dir.join("manifest.jsonl");
    let file = match root.open_file("manifest.jsonl") {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(AuditError::NoManifest {
                path: dir.to_path_buf(),
            });
        }
        Err(e) => return Err(io(manifest_path)(e)),
    };
    let mut audit = Audit::default();
    let file_name = manifest_path.display().to_string();
    let rows: Vec<(u64, Row)> = read_jsonl(file, &manifest_path, &mut audit.errors)?;
    let problems = load_problems(dir, &root, options, &mut audit)?;
    let bases: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, (_, r))| r.variant.is_empty())
        .map(|(i, (_, r))| (r.id.as_str(), i))
        .collect();
    audit.bases = bases.len() as u64;
    let mut drawn_cache: HashMap<usize, Option<(Drawn, Source)>> = HashMap::new();
    // Whether each row's files are there with the recorded SHA-256 (bases once).
    let mut intact_cache: HashMap<usize, Result<(), String>> = HashMap::new();
    let mut intact = |k: usize| -> Result<(), String> {
        intact_cache
            .entry(k)
            .or_insert_with(|| files_intact(&root, &rows[k].1))
            .clone()
    };
    for (i, (number, row)) in rows.iter().enumerate() {
        if row.variant.is_empty() {
            continue;
        }
        let fail = |reason: String| AuditLineError {
            file: file_name.clone(),
            line: *number,
            id: Some(row.id.clone()),
            reason,
        };
        let base_id = row.base_id.as_deref().unwrap_or_default();
        let Some(&b) = bases.get(base_id) else {
            audit.errors.push(fail(format!(
                "its base {base_id:?} has no row in the manifest (a variant is audited \
                 against its base)"
            )));
            continue;
        };
        if let Err(reason) = intact(b).and_then(|()| intact(i)) {
            audit.errors.push(fail(reason));
            continue;
        }
        let (variant, axes) = match parse_variant(&row.variant) {
            Ok(v) => v,
            Err(reason) => {
                audit.errors.push(fail(reason));
                continue;
            }
        };
        let mut get = |k: usize| -> Result<Option<(Drawn, Source)>, String> {
            if let Some(d) = drawn_cache.get(&k) {
                return Ok(d.clone());
            }
            let (_, r) = &rows[k];
            let d = drawing(&root, r, problems.as_ref())?;
            drawn_cache.insert(k, d.clone());
            Ok(d)
        };
        let pair = get(b).and_then(|x| Ok((x, get(i)?)));
        // The variant's drawing is needed once; the base's for all its variants.
        drawn_cache.remove(&i);
        let (base_drawn, var_drawn) = match pair {
            Ok(p) => p,
            Err(reason) => {
                audit.errors.push(fail(reason));
                continue;
            }
        };
        let base = &rows[b].1;
        let declared: Vec<Change> = axes
            .iter()
            .flat_map(|a| a.may_change.iter().copied())
            .collect();
        let mut changes = Changes::new();
        let source = match (&base_drawn, &var_drawn) {
            (Some((bd, bs)), Some((vd, _))) => {
                let renames = declared.contains(&Change::LabelText);
                changes = diff::drawn(bd, vd, &leader_stroke(), renames);
                *bs
            }
            _ => Source::Bytes,
        };
        let ext = |r: &Row| {
            r.image
                .as_deref()
                .and_then(|p| p.rsplit_once('.'))
                .map(|(_, e)| e.to_ascii_lowercase())
        };
        diff::add(
            &mut changes,
            Change::Encoding,
            u32::from(ext(base) != ext(row)),
        );
        let bytes_differ = base.sha256 != row.sha256;
        if bytes_differ && changes.is_empty() && source != Source::Bytes {
            diff::add(&mut changes, Change::Pixels, 1);
        }
        diff::add(
            &mut changes,
            Change::Question,
            u32::from(base.question != row.question),
        );
        diff::add(&mut changes, Change::Cot, u32::from(base.cot != row.cot));
        diff::add(
            &mut changes,
            Change::Answer,
            u32::from(base.answer != row.answer),
        );
        if source == Source::Bytes && bytes_differ {
            // Without the drawing only "the image differs" is known: it counts as
            // declared for any axis that draws something else.
            diff::add(&mut changes, Change::Pixels, 1);
        }
        let drawing_axes = declared
            .iter()
            .any(|c| !matches!(c, Change::Question | Change::Cot | Change::Answer));
        let undeclared: Vec<Change> = changes
            .keys()
            .copied()
            .filter(|c| !declared.contains(c))
            .filter(|c| !(source == Source::Bytes && *c == Change::Pixels && drawing_axes))
            .collect();
        let scale = |r: &Row| r.layout.as_ref().and_then(|l| l.scale);
        let scale_ratio = match (scale(base), scale(row)) {
            (Some(a), Some(b)) if a > 0.0 && a != b => Some(b / a),
            _ => None,
        };
        audit.rows.push(AuditRow {
            id: row.id.clone(),
            base_id: base_id.to_string(),
            label: variant.label(),
            variant: row.variant.clone(),
            identical: changes.is_empty() && !bytes_differ,
            changes,
            undeclared,
            scale_ratio,
            source,
        });
    }
    audit.groups = groups(&audit.rows);
    Ok(audit)
}

/// The row's files (image and SVG) are regular files inside the run with the
/// SHA-256 it recorded: else the row is not audited (its recorded hash says
/// nothing about a deleted or replaced file).
fn files_intact(root: &Dir, row: &Row) -> Result<(), String> {
    let Some(image) = &row.image else {
        return Err("it names no image".into());
    };
    let Some(sha) = &row.sha256 else {
        return Err("it records no sha256 for its image".into());
    };
    crate::output::manifest::read_checked(root, image, sha)
        .map_err(|e| format!("its image {image:?}: {e}"))?;
    Ok(())
}

/// The stroke paint that marks a leader line in an SVG (`compose::LEADER_COLOR`).
fn leader_stroke() -> String {
    let c = crate::compose::LEADER_COLOR;
    format!("stroke=#{:02x}{:02x}{:02x} ", c.r, c.g, c.b)
}

/// A manifest `variant` object as a [`Variant`] and its axes.
fn parse_variant(values: &Map<String, Value>) -> Result<(Variant, Vec<Axis>), String> {
    if values.is_empty() {
        return Ok((Variant::default(), Vec::new()));
    }
    let mut spec = Vec::new();
    let mut axes = Vec::new();
    for (name, value) in values {
        let axis = AXES
            .iter()
            .copied()
            .find(|a| a.name == name)
            .ok_or_else(|| format!("unknown axis {name:?} in its variant"))?;
        let value = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => return Err(format!("variant {name}: {other} is no axis value")),
        };
        spec.push(format!("{name}={value}"));
        axes.push(axis);
    }
    let plan = Plan::parse(&spec.join(";"), true).map_err(|e| e.to_string())?;
    let variant = plan
        .variants()
        .pop()
        .ok_or_else(|| "an empty variant".to_string())?;
    Ok((variant, axes))
}

/// What a row draws: its SVG file, else its Scene composed again from the run's
/// Problem; `None` when neither is there.
fn drawing(
    root: &Dir,
    row: &Row,
    problems: Option<&Problems>,
) -> Result<Option<(Drawn, Source)>, String> {
    if let Some(rel) = &row.svg {
        let (dir, name) = root
            .resolve(rel)
            .map_err(|e| format!("its svg {rel:?}: {e}"))?;
        let bytes = dir
            .read(name, MAX_SVG_BYTES)
            .map_err(|e| format!("its svg {rel:?}: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("its svg {rel:?}: not UTF-8"))?;
        let drawn = read_svg(&text).map_err(|e| format!("its svg {rel:?}: {e}"))?;
        return Ok(Some((drawn, Source::Svg)));
    }
    let Some(problems) = problems else {
        return Ok(None);
    };
    let base_id = row.base_id.as_deref().unwrap_or(&row.id);
    let (hash, problem) = problems
        .get(base_id)
        .ok_or_else(|| format!("its problem {base_id:?} is not in the problems file"))?;
    if row.input_sha256.as_ref() != Some(hash) {
        return Err(format!(
            "its problem {base_id:?} in the problems file is not the line it was drawn from              (the line's SHA-256 is not the row's input_sha256): pass the run's input with              --problems"
        ));
    }
    let (variant, _) = parse_variant(&row.variant)?;
    // As the run drew it: the base first, the variant against it.
    let (_, base) = draw_variant(problem, &Variant::default(), None).map_err(|e| e.to_string())?;
    let composed = match variant.is_base() {
        true => base,
        false => {
            draw_variant(problem, &variant, Some(&base))
                .map_err(|e| e.to_string())?
                .1
        }
    };
    let svg = crate::scene::svg::to_svg(&composed.scene);
    let drawn = read_svg(&svg).map_err(|e| e.to_string())?;
    Ok(Some((drawn, Source::Recomposed)))
}

/// Problems by id, each with the SHA-256 of its line.
type Problems = HashMap<String, (String, Problem)>;

/// The run's Problems by id, from `options.problems` or `DIR/problems.jsonl`; bad
/// lines are errors of the audit (it goes on).
fn load_problems(
    dir: &Path,
    root: &Dir,
    options: &AuditOptions,
    audit: &mut Audit,
) -> Result<Option<Problems>, AuditError> {
    let (file, path) = match &options.problems {
        Some(p) => (
            std::fs::File::open(p).map_err(|source| AuditError::Io {
                path: p.clone(),
                source,
            })?,
            p.clone(),
        ),
        None => match root.open_file("problems.jsonl") {
            Ok(f) => (f, dir.join("problems.jsonl")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(AuditError::Io {
                    path: dir.join("problems.jsonl"),
                    source,
                });
            }
        },
    };
    let problems = read_lines(file, &path, &mut audit.errors, |t| {
        let p = serde_json::from_str::<Problem>(t).map_err(|e| e.to_string())?;
        Ok((crate::digest::sha256_hex(t.as_bytes()), p))
    })?;
    Ok(Some(
        problems
            .into_iter()
            .map(|(_, (hash, p))| (p.id.clone(), (hash, p)))
            .collect(),
    ))
}

/// Every line of a JSONL file read as a `T`, with its number; a line that is not
/// one is an error of the audit, which goes on.
fn read_jsonl<T: serde::de::DeserializeOwned>(
    file: std::fs::File,
    path: &Path,
    errors: &mut Vec<AuditLineError>,
) -> Result<Vec<(u64, T)>, AuditError> {
    read_lines(file, path, errors, |t| {
        serde_json::from_str::<T>(t).map_err(|e| e.to_string())
    })
}

/// Every line of a JSONL file read by `parse`, with its number; a line it refuses
/// is an error of the audit, which goes on.
fn read_lines<T>(
    file: std::fs::File,
    path: &Path,
    errors: &mut Vec<AuditLineError>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<(u64, T)>, AuditError> {
    let name = path.display().to_string();
    let mut out = Vec::new();
    let mut lines = crate::jsonl::Lines::new(BufReader::new(file));
    loop {
        let chunk = lines.next_chunk(1024).map_err(|source| AuditError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if chunk.is_empty() {
            return Ok(out);
        }
        for line in chunk {
            let parsed = line.text.map_err(|e| e.to_string()).and_then(|t| parse(&t));
            match parsed {
                Ok(v) => out.push((line.number, v)),
                Err(reason) => errors.push(AuditLineError {
                    file: name.clone(),
                    line: line.number,
                    id: None,
                    reason,
                }),
            }
        }
    }
}

/// Rows summed per variant value: in table order of the first axis, then by the
/// first value (numbers by size), then by label.
fn groups(rows: &[AuditRow]) -> Vec<AuditGroup> {
    let mut by: HashMap<&str, AuditGroup> = HashMap::new();
    let mut keys: Vec<(usize, Option<f64>, &str)> = Vec::new();
    for r in rows {
        let g = by.entry(&r.label).or_insert_with(|| {
            let (name, value) = r
                .variant
                .iter()
                .next()
                .map_or(("", None), |(k, v)| (k.as_str(), v.as_f64()));
            let pos = AXES
                .iter()
                .position(|a| a.name == name)
                .unwrap_or(usize::MAX);
            keys.push((pos, value, &r.label));
            AuditGroup {
                label: r.label.clone(),
                ..AuditGroup::default()
            }
        });
        g.rows += 1;
        for c in r.changes.keys() {
            *g.changes.entry(*c).or_insert(0) += 1;
        }
        g.undeclared += u64::from(!r.undeclared.is_empty());
        g.identical += u64::from(r.identical);
    }
    keys.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(
                a.1.unwrap_or(f64::INFINITY)
                    .total_cmp(&b.1.unwrap_or(f64::INFINITY)),
            )
            .then(a.2.cmp(b.2))
    });
    keys.into_iter()
        .filter_map(|(_, _, label)| by.remove(label))
        .collect()
}
