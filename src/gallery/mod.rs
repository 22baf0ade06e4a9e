//! `geomrender gallery DIR`: a static site under `DIR/gallery/` to browse a finished
//! run — an index of its images (bases by default) with thumbnails, filters by axis,
//! value, depth, question type, task, audit verdict, relation, domain, subset,
//! mode, answer and "Cannot be inferred", and a search by id; and one page per
//! base (named by its id) with the base and all its variants side by side, each
//! with its question, answer, choices, solution, variant value and what the audit
//! says changed.
//!
//! It works from `file://` with no server and no network: the index's data are
//! JavaScript files loaded with `<script>` (a browser refuses `fetch` on `file://`),
//! split so that a 100,000-image run opens by loading its small tables and the
//! first page's rows only. Thumbnails are made by the tool; the pages link to the
//! run's own images and never copy them. Every text is escaped (`crate::html`).
//!
//! The manifest is streamed, never read whole: the audit first (it writes
//! `DIR/audit.jsonl` and `audit.md`, read back a row at a time), then a pass that
//! counts the bases, then one that makes thumbnails, cards, pages and index data a
//! chunk of rows at a time. Memory holds a chunk of rows and a few tables per base
//! (module docs of `scan`, `page`, `thumbs`, `index` say how many bytes).
//!
//! ```text
//! entry   a manifest row as the pages show it, checked
//! scan    the rows shown, streamed; the first pass over them
//! thumbs  thumbnails named by image digest, checked against the manifest
//! notes   the audit's note per variant, read back from audit.jsonl
//! page    one HTML page per base, and each row's card
//! index   index.html and its data files: tables, columns, row chunks, ids
//! ```

mod entry;
mod index;
mod notes;
mod page;
mod scan;
mod thumbs;

pub(crate) use thumbs::Thumb;

use crate::audit::{self, AuditOptions, Problems};
use crate::output::dir::{Dir, Kind};
use index::{COLUMNS, IndexRow, IndexWriter, NONE};
use page::Pages;
use std::path::Path;

/// The stylesheet and script every gallery page uses (written beside the pages).
pub(crate) const CSS: &str = include_str!("../../assets/gallery/gallery.css");
pub(crate) const SCRIPT: &str = include_str!("../../assets/gallery/gallery.js");

/// The gallery's directory inside the run directory.
pub(crate) const GALLERY_DIR: &str = "gallery";

/// Lines not shown that are kept with their reason (the rest are counted).
pub(crate) const LISTED_ERRORS: usize = 1000;

/// Rows whose thumbnails are made together (in parallel).
const BATCH: usize = 256;

/// How the gallery is made; the CLI fills the same struct.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GalleryOptions {
    /// Longest side of a thumbnail, in pixels (shown at half that on the index, so
    /// that it is sharp on a high-density screen).
    pub thumb_size: u32,
    /// Index rows per data file.
    pub chunk_rows: usize,
    /// Run the audit (writing `DIR/audit.jsonl` and `audit.md`, as `geomrender
    /// audit` does) and show on each variant what changed.
    pub audit: bool,
    /// The run's Problems: the shapes the index shows, and for the audit to compose
    /// each Scene again when the run wrote no SVGs ([`AuditOptions::problems`]);
    /// default `DIR/problems.jsonl`.
    pub problems: Option<std::path::PathBuf>,
}

impl Default for GalleryOptions {
    fn default() -> Self {
        GalleryOptions {
            thumb_size: 192,
            chunk_rows: 256,
            audit: true,
            problems: None,
        }
    }
}

/// A manifest (or problems) line the gallery could not show, or an image it could
/// not make a thumbnail of.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GalleryLineError {
    pub file: String,
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub reason: String,
}

impl std::fmt::Display for GalleryLineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if let Some(id) = &self.id {
            write!(f, " ({id})")?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// Why no gallery could be made at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GalleryError {
    #[error("{path}: no manifest.jsonl: the gallery shows a finished run's directory")]
    NoManifest { path: std::path::PathBuf },
    #[error("{path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: no row of manifest.jsonl could be shown; the first: {first}")]
    Empty {
        path: std::path::PathBuf,
        first: String,
    },
    #[error("the thumbnail size {0} is outside 16..=1024 pixels")]
    ThumbSize(u32),
}

/// What was made.
#[derive(Debug)]
pub struct Gallery {
    /// `DIR/gallery/index.html`.
    pub index: std::path::PathBuf,
    pub rows: u64,
    pub bases: u64,
    /// Distinct thumbnails made or kept.
    pub thumbs: usize,
    /// The first `LISTED_ERRORS` lines not shown and images without a thumbnail
    /// (their rows are listed), of `error_count`.
    pub errors: Vec<GalleryLineError>,
    pub error_count: u64,
    /// The audit made with it, or why there is none.
    pub audit: Result<audit::Audit, String>,
}

/// What the audit says of one variant row, for its card.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct AuditNote {
    /// `(change, count)` in the audit's order.
    pub changes: Vec<(String, u32)>,
    pub undeclared: Vec<String>,
    pub identical: bool,
}

impl AuditNote {
    /// An undeclared change, or none at all.
    pub(crate) fn flagged(&self) -> bool {
        self.identical || !self.undeclared.is_empty()
    }
}

/// Lines not shown: the first kept, all counted.
#[derive(Default)]
struct Errors {
    listed: Vec<GalleryLineError>,
    count: u64,
}

impl Errors {
    fn push(&mut self, e: GalleryLineError) {
        self.count += 1;
        if self.listed.len() < LISTED_ERRORS {
            self.listed.push(e);
        }
    }
}

/// Whether a gallery can be written into the run directory `dir` (checked before a
/// run with `--gallery` starts, so that it does not fail only at the end): its
/// `gallery/` and the directories in it are absent or real directories. Any size
/// of run can have one (the manifest is streamed).
pub(crate) fn check_writable(dir: &Path) -> Result<(), GalleryError> {
    let Ok(root) = Dir::open(dir) else {
        return Ok(()); // made by the run
    };
    let Some(site) = root
        .existing_sub(GALLERY_DIR)
        .map_err(io(&dir.join(GALLERY_DIR)))?
    else {
        return Ok(());
    };
    for sub in ["thumbs", "bases", "data"] {
        site.existing_sub(sub).map_err(io(&site.join(sub)))?;
    }
    Ok(())
}

/// Makes (or makes again) the gallery of the run in `dir`.
pub fn build(dir: &Path, options: &GalleryOptions) -> Result<Gallery, GalleryError> {
    if !(16..=1024).contains(&options.thumb_size) {
        return Err(GalleryError::ThumbSize(options.thumb_size));
    }
    let manifest = dir.join("manifest.jsonl");
    let root = Dir::open(dir).map_err(io(dir))?;
    if root.kind("manifest.jsonl").map_err(io(dir))? != Some(Kind::File) {
        return Err(GalleryError::NoManifest {
            path: dir.to_path_buf(),
        });
    }
    let audit = match options.audit {
        false => Err("not asked for (--no-audit)".to_string()),
        true => {
            let o = AuditOptions {
                problems: options.problems.clone(),
                gallery: true,
            };
            audit::audit(dir, &o, dir).map_err(|e| e.to_string())
        }
    };
    let scan = scan::scan(&root).map_err(io(&manifest))?;
    if scan.rows == 0 {
        return Err(GalleryError::Empty {
            path: manifest,
            first: (scan.first_error).map_or("the file is empty".into(), |e| e.to_string()),
        });
    }
    let site = root.sub(GALLERY_DIR).map_err(io(&dir.join(GALLERY_DIR)))?;
    let mut errors = Errors::default();
    let mut problems = Problems::open(dir, &root, options.problems.as_deref(), &mut |e| {
        errors.push(GalleryLineError {
            file: e.file,
            line: e.line,
            id: e.id,
            reason: e.reason,
        })
    })
    .map_err(|e| match e {
        audit::AuditError::Io { path, source } => GalleryError::Io { path, source },
        other => GalleryError::Io {
            path: dir.to_path_buf(),
            source: std::io::Error::other(other.to_string()),
        },
    })?;
    let unavailable = audit.as_ref().err().cloned();
    let sub = |name: &str| site.sub(name).map_err(io(&site.join(name)));
    let mut made = Made {
        notes: match &audit {
            Ok(_) => Some(notes::Notes::open(&root).map_err(io(&dir.join(audit::AUDIT_JSONL)))?),
            Err(_) => None,
        },
        thumbs: thumbs::Thumbs::new(&root, sub("thumbs")?, options.thumb_size),
        index: IndexWriter::create(sub("data")?, options.chunk_rows)
            .map_err(io(&site.join("data")))?,
        pages: match scan.grouped {
            true => Pages::streamed(sub("bases")?, scan.bases, unavailable.clone()),
            false => Pages::spooled(sub("bases")?, scan.bases, unavailable.clone())
                .map_err(io(&site.join("bases")))?,
        },
        problems: problems.as_mut(),
        unavailable,
        variants: 0,
        first_page: None,
    };
    // The second pass: a batch of rows at a time.
    let mut batch: Vec<entry::Entry> = Vec::with_capacity(BATCH);
    for item in scan::Entries::open(&root).map_err(io(&manifest))? {
        match item.map_err(io(&manifest))? {
            Err(e) => errors.push(e),
            Ok(e) => batch.push(e),
        }
        if batch.len() == BATCH {
            made.add(&mut batch, &mut errors)
                .map_err(io(&site.join("bases")))?;
        }
    }
    made.add(&mut batch, &mut errors)
        .map_err(io(&site.join("bases")))?;
    let run = crate::output::record::provenance_of(&root).map(|p| p.line());
    let thumbs = finish(&site, made, &scan, &audit, (errors.count, run))?;
    errors
        .listed
        .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    Ok(Gallery {
        index: site.join("index.html"),
        rows: scan.rows,
        bases: scan.bases,
        thumbs,
        errors: errors.listed,
        error_count: errors.count,
        audit,
    })
}

/// An I/O error of `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GalleryError + use<> {
    let path = path.to_path_buf();
    move |source| GalleryError::Io { path, source }
}

/// After the rows: the last pages, the index and its data, the stylesheet and
/// script; then what an earlier, larger gallery left (pages of bases and
/// thumbnails no longer shown) goes. Returns the thumbnails shown.
fn finish(
    site: &Dir,
    made: Made,
    scan: &scan::Scan,
    audit: &Result<audit::Audit, String>,
    (errors, run): (u64, Option<String>),
) -> Result<usize, GalleryError> {
    let at = |name: &str| io(&site.join(name));
    made.pages.finish().map_err(at("bases"))?;
    let counts = index::Counts {
        rows: scan.rows,
        bases: scan.bases,
        variants: made.variants,
        errors,
        audit: match audit {
            Ok(a) => Ok(a.flagged),
            Err(why) => Err(why.as_str()),
        },
        first_page: made.first_page.unwrap_or_default(),
        run,
    };
    let extra = serde_json::json!({
        "bases": scan.bases,
        "errors": errors,
        "audit": audit.is_ok(),
    });
    let filters = made.index.finish(extra).map_err(at("data"))?;
    let html = index::index_html(&counts, &filters);
    site.write_atomic("index.html", html.as_bytes())
        .map_err(at("index.html"))?;
    site.write_atomic("gallery.css", CSS.as_bytes())
        .map_err(at("gallery.css"))?;
    site.write_atomic("gallery.js", SCRIPT.as_bytes())
        .map_err(at("gallery.js"))?;
    let thumbs = made.thumbs.finish().map_err(at("thumbs"))?;
    let bases = site.sub("bases").map_err(at("bases"))?;
    for (name, kind) in bases.entries().map_err(at("bases"))? {
        let current = scan.pages.contains(&crate::digest::fingerprint(&name));
        if kind == Kind::File && !current {
            bases.remove_file(&name).map_err(at("bases"))?;
        }
    }
    Ok(thumbs)
}

/// What the second pass writes as rows come.
struct Made<'p> {
    notes: Option<notes::Notes>,
    thumbs: thumbs::Thumbs,
    index: IndexWriter,
    pages: Pages,
    problems: Option<&'p mut Problems>,
    unavailable: Option<String>,
    variants: u64,
    first_page: Option<String>,
}

impl Made<'_> {
    /// A batch of rows: their thumbnails, cards and index rows (the batch is emptied).
    fn add(&mut self, batch: &mut Vec<entry::Entry>, errors: &mut Errors) -> std::io::Result<()> {
        let images: Vec<(&str, &str)> = (batch.iter())
            .filter_map(|e| e.file.as_ref())
            .map(|f| (f.image.as_str(), f.sha256.as_str()))
            .collect();
        let mut made = self.thumbs.make(&images).into_iter();
        // A text-only row has no image, so no thumbnail: `None`.
        let thumbs: Vec<Option<Result<Thumb, String>>> = (batch.iter())
            .map(|e| e.file.as_ref().and_then(|_| made.next()))
            .collect();
        for (e, thumb) in batch.iter().zip(&thumbs) {
            if let Some(Err(reason)) = thumb {
                errors.push(GalleryLineError {
                    file: "manifest.jsonl".into(),
                    line: e.line,
                    id: Some(e.id.clone()),
                    reason: reason.clone(),
                });
            }
            let note = match (&mut self.notes, e.is_base()) {
                (Some(n), false) => n.get(e.line)?,
                _ => None,
            };
            let shapes = match e.is_base() {
                true => self.shapes(e),
                false => Vec::new(),
            };
            let readable = thumb.as_ref().is_none_or(|t| t.is_ok());
            let card = page::card(e, readable, note.as_ref(), self.unavailable.as_deref());
            let problems = &mut self.problems;
            self.pages.add(e, card, || {
                let shapes = match e.is_base() {
                    true => shapes.clone(),
                    false => shapes_of(problems.as_deref_mut(), e),
                };
                page::facts(e, &shapes)
            })?;
            self.first_page
                .get_or_insert_with(|| crate::html::page_name(&e.base_id));
            self.variants += u64::from(!e.is_base());
            self.index.push(index_row(
                e,
                thumb.as_ref().and_then(|t| t.as_ref().ok()),
                note.as_ref(),
                &shapes,
                self.notes.is_some(),
            ))?;
        }
        batch.clear();
        Ok(())
    }

    fn shapes(&mut self, e: &entry::Entry) -> Vec<String> {
        shapes_of(self.problems.as_deref_mut(), e)
    }
}

/// The shape kinds of a row's Problem: carried by the row, or from the problems file.
fn shapes_of(problems: Option<&mut Problems>, e: &entry::Entry) -> Vec<String> {
    if let Some(s) = &e.shapes {
        return s.clone();
    }
    let Some(problems) = problems else {
        return Vec::new();
    };
    match problems.get(&e.base_id) {
        Ok((_, p)) => (p.diagram.shapes.iter())
            .map(|s| match serde_json::to_value(s.kind) {
                Ok(serde_json::Value::String(k)) => k,
                _ => String::new(),
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The row as the index lists it.
fn index_row<'a>(
    e: &'a entry::Entry,
    thumb: Option<&'a Thumb>,
    note: Option<&AuditNote>,
    shapes: &[String],
    audited: bool,
) -> IndexRow<'a> {
    let r = e.relation.as_ref();
    let audit = match (audited, e.is_base(), note) {
        (false, _, _) => NONE,
        (true, true, _) => "base image",
        (true, false, None) => "not audited",
        (true, false, Some(n)) if n.flagged() => "flagged",
        (true, false, Some(_)) => "passed",
    };
    let answer = match (r, &e.answer) {
        (Some(_), Some(a)) => a.as_str(),
        _ => NONE,
    };
    let cbi = match e.cannot_be_inferred() {
        Some(true) => "yes",
        Some(false) => "no",
        None => NONE,
    };
    let values: [&str; COLUMNS.len()] = [
        &e.label,
        match r {
            None => e.depth.as_deref().unwrap_or(NONE),
            Some(_) => NONE,
        },
        match r {
            None => e.question_type.as_deref().unwrap_or(NONE),
            Some(_) => NONE,
        },
        &e.task,
        audit,
        r.map_or(NONE, |r| r.relation.as_str()),
        r.map_or(NONE, |r| r.domain.as_str()),
        r.map_or(NONE, |r| r.subset.as_str()),
        r.map_or(NONE, |r| r.mode.as_str()),
        answer,
        cbi,
    ];
    let mut facts = vec![e.label.clone()];
    match (page::relation_words(e), &e.depth) {
        (Some(words), _) => facts.push(words),
        (None, Some(depth)) => {
            facts.push(format!("depth {depth}"));
            facts.extend(e.question_type.clone());
        }
        (None, None) => facts.push(e.task.clone()),
    }
    IndexRow {
        id: &e.id,
        thumb: thumb.map(|t| t.key.as_str()),
        width: thumb.map(|t| t.width).or(e.file.as_ref().map(|f| f.width)),
        height: thumb
            .map(|t| t.height)
            .or(e.file.as_ref().map(|f| f.height)),
        href: page::href(e),
        shapes: shapes.join(", "),
        facts: facts.join(" · "),
        values,
        axes: &e.axes,
    }
}
