//! `geomrender audit DIR`: every variant of a finished run compared with its base,
//! from the files — what changed (paths moved, added or removed, leader lines,
//! fills, strokes, labels moved, added, removed, renamed or resized, the canvas,
//! the encoding, the question, the CoT, the answer, the pixels) and whether its
//! axes declare that (`AxisDef::may_change`). A variant that changes something its
//! axes do not declare, or nothing at all, is flagged.
//!
//! What is drawn is read from each row's SVG file when the run wrote SVGs
//! (`--format png,svg`, or the image itself with `--format svg`); otherwise each
//! Scene is composed again from the run's Problems (`DIR/problems.jsonl`, as
//! `sweep` writes it, or `AuditOptions::problems`) and read from its SVG text.
//! Texts and answers come from the manifest rows, images' identity from their
//! `sha256`.
//!
//! The manifest is streamed (`output::rows`), twice: once to index where each base
//! row is, once to audit each variant as it comes, its base read again from its
//! offset when it is not the one before. Rows go to `audit.jsonl` as they are
//! made; what is kept in memory is 32 bytes per base and per Problem (where to read
//! it again), one base's drawing, and a count per variant value.
//!
//! ```text
//! items    an SVG file → its canvas, subpaths with paint, labels with place and text
//! diff     a variant's drawing and texts against its base's: counts per Change
//! compare  one variant row against its base row: files, drawings, texts
//! pixels   a pixel-stage variant is its base's PNG through the same stage
//! sketch   a sketch variant's paths and labels within its level's bound of its base's
//! index    where a line of an id is, to read it again
//! problems the run's Problems, indexed, each read when a base needs it
//! summary  counts per variant value, the first flagged rows and errors
//! write    audit.jsonl (one row per variant) and audit.md (per variant value)
//! ```

mod compare;
mod diff;
mod index;
mod items;
mod pixels;
mod problems;
mod sketch;
mod summary;
mod write;

pub(crate) use diff::Changes;
pub(crate) use items::read_svg;
pub(crate) use problems::Problems;
pub(crate) use write::{AUDIT_JSONL, AUDIT_MD, Links, columns};

use crate::output::dir::{Dir, Kind};
use crate::output::rows::{RowReader, Rows};
use crate::variants::{AXES, Axis, Change, Plan, Variant};
use compare::Base;
use index::LineIndex;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The JSON Schema of an `audit.jsonl` row (`geomrender schema audit`).
pub const SCHEMA: &str = include_str!("../../schemas/audit.schema.json");

/// Where the audit reads what was drawn when the run wrote no SVGs.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct AuditOptions {
    /// The run's Problems (the `render` input). Default: `DIR/problems.jsonl` when
    /// it exists.
    pub problems: Option<PathBuf>,
    /// A gallery is being made in the run directory as well (`geomrender gallery`):
    /// `audit.md` links to it without saying it is missing.
    pub gallery: bool,
}

/// How a row's drawing was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Source {
    /// Its SVG file.
    Svg,
    /// Its Scene composed again from the run's Problem.
    Recomposed,
    /// Neither: only texts and image bytes were compared.
    Bytes,
    /// The row has no image (text-only): only its texts were compared.
    None,
}

/// One variant against its base.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct AuditRow {
    /// Its 1-based line in the manifest.
    pub line: u64,
    pub id: String,
    pub base_id: String,
    /// As SPEC writes it: `opacity=0.1`, `palette=grayscale;opacity=0.25`.
    pub label: String,
    pub variant: Map<String, Value>,
    /// Items changed, per kind.
    pub changes: Changes,
    /// Kinds changed that none of the variant's axes declares.
    pub undeclared: Vec<Change>,
    /// Nothing changed: the same image bytes and texts as the base, on axes that
    /// do not make such a variant on purpose (`AxisDef::made_when_same`).
    pub identical: bool,
    /// The variant's diagram scale over its base's (manifest `layout.scale`), when
    /// both rows have one and they differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale_ratio: Option<f64>,
    pub source: Source,
}

impl AuditRow {
    /// An undeclared change, or none at all.
    pub(crate) fn flagged(&self) -> bool {
        self.identical || !self.undeclared.is_empty()
    }
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

/// A flagged row, as `audit.md` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Flagged {
    pub id: String,
    pub base_id: String,
    pub identical: bool,
    pub undeclared: Vec<Change>,
}

/// A whole run audited: its counts (every row is in `audit.jsonl`).
#[derive(Clone, Debug, Default)]
pub struct Audit {
    /// Base images (distinct ids of rows without a variant).
    pub bases: u64,
    /// Variant rows audited.
    pub rows: u64,
    /// Rows flagged: an undeclared change, or none at all.
    pub flagged: u64,
    /// Rows with an undeclared change.
    pub undeclared: u64,
    /// Rows identical to their base.
    pub identical: u64,
    /// One per variant value, in table order of their first axis, then by label.
    pub groups: Vec<AuditGroup>,
    /// The first `LISTED_FLAGGED` flagged rows.
    pub flagged_rows: Vec<Flagged>,
    /// The first `LISTED_ERRORS` lines not audited (of `error_count`).
    pub errors: Vec<AuditLineError>,
    pub error_count: u64,
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

/// Audits the run in `dir`, writing `audit.jsonl` and `audit.md` into `out`.
pub fn audit(dir: &Path, options: &AuditOptions, out: &Path) -> Result<Audit, AuditError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| AuditError::Io { path, source }
    };
    let root = Dir::open(dir).map_err(io(dir))?;
    let manifest = dir.join("manifest.jsonl");
    if root.kind("manifest.jsonl").map_err(io(dir))?.is_none() {
        return Err(AuditError::NoManifest {
            path: dir.to_path_buf(),
        });
    }
    let bases = index_bases(&root).map_err(io(&manifest))?;
    let mut summary = summary::Summary::default();
    let mut problems =
        problems::Problems::open(dir, &root, options.problems.as_deref(), &mut |e| {
            summary.add_error(e)
        })?;
    let out_dir = Dir::create(out).map_err(io(out))?;
    let mut file = write::RowsFile::create(&out_dir).map_err(io(&out.join(AUDIT_JSONL)))?;
    let mut reader = RowReader::open(&root, "manifest.jsonl").map_err(io(&manifest))?;
    let name = manifest.display().to_string();
    let mut base: Option<Base> = None;
    for read in Rows::open(&root, "manifest.jsonl").map_err(io(&manifest))? {
        let read = read.map_err(io(&manifest))?;
        let fail = |id: Option<String>, reason: String| AuditLineError {
            file: name.clone(),
            line: read.line,
            id,
            reason,
        };
        let row = match read.row {
            Ok(row) => row,
            Err(e) => {
                summary.add_error(fail(e.id, e.why));
                continue;
            }
        };
        let Some(source) = row.source.as_ref().filter(|s| !s.variant.is_empty()) else {
            continue; // a base
        };
        if base.as_ref().is_none_or(|b| b.id() != source.base_id) {
            match base_row(&bases, &mut reader, &source.base_id) {
                Ok(b) => base = Some(Base::new(&root, b)),
                Err(reason) => {
                    summary.add_error(fail(Some(row.image.id.clone()), reason));
                    continue;
                }
            }
        }
        let b = base.as_mut().expect("set above");
        match compare::compare(&root, b, read.line, &row, problems.as_mut()) {
            Ok(r) => {
                file.push(&r).map_err(io(&out.join(AUDIT_JSONL)))?;
                summary.add_row(&r);
            }
            Err(reason) => summary.add_error(fail(Some(row.image.id.clone()), reason)),
        }
    }
    let audit = summary.finish(bases.len() as u64);
    file.commit().map_err(io(&out.join(AUDIT_JSONL)))?;
    let links = links(dir, &root, out, options.gallery);
    let run = crate::output::record::provenance_of(&root).map(|p| p.line());
    write::write_markdown(&audit, &out_dir, &links, run.as_deref())
        .map_err(io(&out.join(AUDIT_MD)))?;
    Ok(audit)
}

/// Where each base row (a row without a variant) is in the manifest.
fn index_bases(root: &Dir) -> std::io::Result<LineIndex> {
    let mut bases = LineIndex::default();
    for read in Rows::open(root, "manifest.jsonl")? {
        let read = read?;
        if let Ok(row) = &read.row {
            if row.source.as_ref().is_none_or(|s| s.variant.is_empty()) {
                bases.insert(&row.image.id, read.line, read.offset);
            }
        }
    }
    Ok(bases)
}

/// The base row `base_id`, read again from where the index found it.
fn base_row(
    bases: &LineIndex,
    reader: &mut RowReader,
    base_id: &str,
) -> Result<crate::output::manifest::ManifestRow, String> {
    let missing = || {
        format!(
            "its base {base_id:?} has no row in the manifest (a variant is audited against              its base)"
        )
    };
    let (line, offset) = bases.get(base_id).ok_or_else(missing)?;
    let read = reader.at(line, offset).map_err(|e| e.to_string())?;
    // A fingerprint shared with another id: that row is not this base.
    read.row
        .ok()
        .filter(|r| r.image.id == base_id)
        .ok_or_else(missing)
}

/// How `audit.md` in `out` links to the gallery of the run in `dir`: by a relative
/// path from `out` to `dir` when both resolve.
fn links(dir: &Path, root: &Dir, out: &Path, gallery: bool) -> Links {
    let (Ok(run), Ok(out)) = (std::fs::canonicalize(dir), std::fs::canonicalize(out)) else {
        return Links::None;
    };
    let common = run
        .components()
        .zip(out.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = String::new();
    for _ in out.components().skip(common) {
        rel.push_str("../");
    }
    for c in run.components().skip(common) {
        let Some(part) = c.as_os_str().to_str() else {
            return Links::None;
        };
        rel.push_str(part);
        rel.push('/');
    }
    let exists = gallery
        || root
            .existing_sub(crate::audit::write::GALLERY)
            .ok()
            .flatten()
            .is_some_and(|g| g.kind("index.html").ok().flatten() == Some(Kind::File));
    Links::Gallery { run: rel, exists }
}

/// A manifest `variant` object as a [`Variant`] and its axes.
pub fn parse_variant(values: &Map<String, Value>) -> Result<(Variant, Vec<Axis>), String> {
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
