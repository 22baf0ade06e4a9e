//! `geomrender gallery DIR`: a static site under `DIR/gallery/` to browse a finished
//! run — an index of its images (bases by default) with thumbnails, filters by axis,
//! value, depth, question type and task and a search by id; and one page per base
//! with the base and all its variants side by side, each with its question, answer,
//! solution, variant value and what the audit says changed.
//!
//! It works from `file://` with no server and no network: the index's data are
//! JavaScript files loaded with `<script>` (a browser refuses `fetch` on `file://`),
//! split so that a 100,000-image run opens by loading its small tables and the
//! first page's rows only. Thumbnails are made by the tool; the pages link to the
//! run's own images and never copy them. Every text is escaped (`crate::html`).
//!
//! ```text
//! read    the manifest rows the pages show, grouped by base; shapes from problems.jsonl
//! thumbs  thumbnails named by image digest, checked against the manifest
//! index   index.html and its data files: tables, columns, row chunks, ids
//! page    one HTML page per base
//! ```

mod index;
mod page;
mod read;
mod thumbs;

pub use read::{Base, Entry, Run, SCENE_TASK, read_run};
pub use thumbs::{Thumb, fit};

use crate::audit::{self, AuditOptions};
use crate::output::dir::{Dir, Kind};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The stylesheet and script every gallery page uses (written beside the pages).
pub const CSS: &str = include_str!("../../assets/gallery/gallery.css");
pub const SCRIPT: &str = include_str!("../../assets/gallery/gallery.js");

/// The gallery's directory inside the run directory.
pub const GALLERY_DIR: &str = "gallery";

/// How the gallery is made; the CLI fills the same struct.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GalleryOptions {
    /// Longest side of a thumbnail, in pixels (shown at half that on the index, so
    /// that it is sharp on a high-density screen).
    pub thumb_size: u32,
    /// Index rows per data file.
    pub chunk_rows: usize,
    /// Run the audit and show on each variant what changed (`geomrender audit`).
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
    pub line: usize,
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
    pub rows: usize,
    pub bases: usize,
    /// Distinct thumbnails made or kept.
    pub thumbs: usize,
    /// Lines not shown and images without a thumbnail (their rows are listed).
    pub errors: Vec<GalleryLineError>,
    /// Why the audit column is empty, when it is.
    pub audit_unavailable: Option<String>,
}

/// What the audit says of one variant row, for its card.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AuditNote {
    /// `(change, count)` in the audit's order.
    pub changes: Vec<(String, u32)>,
    pub undeclared: Vec<String>,
    pub identical: bool,
}

/// Makes (or makes again) the gallery of the run in `dir`.
pub fn build(dir: &Path, options: &GalleryOptions) -> Result<Gallery, GalleryError> {
    if !(16..=1024).contains(&options.thumb_size) {
        return Err(GalleryError::ThumbSize(options.thumb_size));
    }
    let io = |path: std::path::PathBuf| move |source| GalleryError::Io { path, source };
    let root = Dir::open(dir).map_err(io(dir.to_path_buf()))?;
    if root.kind("manifest.jsonl").map_err(io(dir.to_path_buf()))? != Some(Kind::File) {
        return Err(GalleryError::NoManifest {
            path: dir.to_path_buf(),
        });
    }
    let mut run =
        read_run(&root, options.problems.as_deref()).map_err(io(dir.join("manifest.jsonl")))?;
    if run.entries.is_empty() {
        return Err(GalleryError::Empty {
            path: dir.join("manifest.jsonl"),
            first: (run.errors.first()).map_or("the file is empty".into(), ToString::to_string),
        });
    }
    let (notes, audit_unavailable) = match options.audit {
        true => audit_notes(dir, options.problems.clone()),
        false => (
            HashMap::new(),
            Some("not asked for (--no-audit)".to_string()),
        ),
    };
    let site = root.sub(GALLERY_DIR).map_err(io(dir.join(GALLERY_DIR)))?;
    let thumbs_dir = site.sub("thumbs").map_err(io(site.join("thumbs")))?;
    let images: Vec<(&str, &str)> = (run.entries.iter())
        .map(|e| (e.image.as_str(), e.sha256.as_str()))
        .collect();
    let made = thumbs::make_all(&root, &thumbs_dir, &images, options.thumb_size);
    let mut thumbs: Vec<Option<Thumb>> = Vec::with_capacity(run.entries.len());
    for e in &run.entries {
        match &made[&e.image] {
            Ok(t) => thumbs.push(Some(t.clone())),
            Err(reason) => {
                run.errors.push(GalleryLineError {
                    file: "manifest.jsonl".into(),
                    line: e.line,
                    id: Some(e.id.clone()),
                    reason: reason.clone(),
                });
                thumbs.push(None);
            }
        }
    }
    run.errors
        .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    let site_io = |name: &str| io(site.join(name));
    let ctx = page::Context {
        run: &run,
        thumbs: &thumbs,
        notes: &notes,
        audit_unavailable: audit_unavailable.as_deref(),
    };
    let written_pages = page::write_all(&site, &ctx).map_err(site_io("bases"))?;
    index::write(&site, &ctx, options).map_err(site_io("index.html"))?;
    site.write_atomic("gallery.css", CSS.as_bytes())
        .map_err(site_io("gallery.css"))?;
    site.write_atomic("gallery.js", SCRIPT.as_bytes())
        .map_err(site_io("gallery.js"))?;
    // What an earlier, larger gallery left: pages of bases and thumbnails no longer shown.
    let keep: HashSet<String> = made.values().flatten().map(|t| t.key.clone()).collect();
    remove_stale_thumbs(&thumbs_dir, &keep).map_err(site_io("thumbs"))?;
    let pages = site.sub("bases").map_err(site_io("bases"))?;
    for (name, kind) in pages.entries().map_err(site_io("bases"))? {
        if kind == Kind::File && !written_pages.contains(&name) {
            pages.remove_file(&name).map_err(site_io("bases"))?;
        }
    }
    Ok(Gallery {
        index: site.join("index.html"),
        rows: run.entries.len(),
        bases: run.bases.len(),
        thumbs: keep.len(),
        errors: run.errors,
        audit_unavailable,
    })
}

/// The audit's note per variant id, or why there is none.
fn audit_notes(
    dir: &Path,
    problems: Option<std::path::PathBuf>,
) -> (HashMap<String, AuditNote>, Option<String>) {
    match audit::audit(dir, &AuditOptions { problems }) {
        Err(e) => (HashMap::new(), Some(e.to_string())),
        Ok(report) => {
            let notes = (report.rows.into_iter())
                .map(|r| {
                    let note = AuditNote {
                        changes: (r.changes.iter())
                            .map(|(c, n)| (c.name().to_string(), *n))
                            .collect(),
                        undeclared: r.undeclared.iter().map(|c| c.name().to_string()).collect(),
                        identical: r.identical,
                    };
                    (r.id, note)
                })
                .collect();
            (notes, None)
        }
    }
}

fn remove_stale_thumbs(thumbs: &Dir, keep: &HashSet<String>) -> std::io::Result<()> {
    for (sub, kind) in thumbs.entries()? {
        if kind != Kind::Dir {
            continue;
        }
        let dir = thumbs.sub(&sub)?;
        for (name, kind) in dir.entries()? {
            let key = format!("{sub}/{}", name.trim_end_matches(".png"));
            if kind == Kind::File && !keep.contains(&key) {
                dir.remove_file(&name)?;
            }
        }
    }
    Ok(())
}
