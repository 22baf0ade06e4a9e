//! `--resume`: carry on an interrupted (or finished) run in the same directory.
//!
//! The manifest is written in input order, one row after its files are in place,
//! so the rows of an interrupted run are a prefix of the whole run's rows. Resuming
//! keeps the longest prefix whose files are still there with the recorded SHA-256,
//! copies those rows into the new manifest first, skips their jobs (nothing is
//! rendered twice) and renders the rest, so the final manifest equals the one an
//! uninterrupted run writes. The reader checks that the kept ids come back in the
//! same order and before any new image, which catches a changed input or options.

use super::{Outputs, RunError};
use crate::digest::sha256_hex;
use crate::output::manifest::{ManifestRow, ManifestWriter};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Rows verified per parallel step.
const CHUNK: usize = 256;

/// The kept prefix of a previous run: its ids in manifest order.
#[derive(Debug, Default)]
pub struct Kept {
    pub ids: Vec<Box<str>>,
    pub set: HashSet<Box<str>>,
}

/// Why a previous run's rows can't be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error(
        "--resume: {path}: the previous run rendered with {previous:?}, this one would use \
         {current:?}; resume with the same --backend (and adapter), or use a new --out directory"
    )]
    Backend {
        path: PathBuf,
        previous: String,
        current: String,
    },
    #[error(
        "--resume: the input or options differ from the resumed run's: {detail}. The previous \
         rows are kept in .manifest.jsonl.partial of the --out directory: resume with the \
         original input, --variants and --format to finish that run, or use a new --out directory"
    )]
    Mismatch { detail: String },
}

/// The file the kept rows are read from while they are copied: it outlives a crash
/// during the copy, so a later resume still finds them.
fn staging(dir: &Path) -> PathBuf {
    dir.join(".manifest.jsonl.resume")
}

/// The previous run's rows, wherever an interruption left them: a copy in progress,
/// the finished manifest, or the partial one.
fn previous(dir: &Path) -> Option<PathBuf> {
    [
        staging(dir),
        dir.join("manifest.jsonl"),
        dir.join(".manifest.jsonl.partial"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// Moves the previous rows aside (before `manifest` is created, which would
/// truncate the partial file). Returns the staging path, if there was anything.
/// Rows of another backend are refused before anything is moved.
pub(super) fn stage(dir: &Path, backend: &str) -> Result<Option<PathBuf>, RunError> {
    let Some(from) = previous(dir) else {
        return Ok(None);
    };
    let first = BufReader::new(std::fs::File::open(&from).map_err(|source| RunError::Io {
        path: from.clone(),
        source,
    })?)
    .lines()
    .next();
    if let Some(Ok(line)) = first {
        check_backend(&from, &line, backend)?;
    }
    let to = staging(dir);
    if from != to {
        std::fs::rename(&from, &to).map_err(|source| RunError::Io {
            path: from.clone(),
            source,
        })?;
    }
    Ok(Some(to))
}

/// Copies the longest usable prefix of the staged rows into `manifest` and
/// removes the staging file. A row is usable when it parses, was rendered by
/// `backend`, has the files `outputs` asks for, and every file it names still has
/// its recorded SHA-256.
pub(super) fn keep(
    staged: &Path,
    dir: &Path,
    backend: &str,
    outputs: Outputs,
    manifest: &mut ManifestWriter,
) -> Result<Kept, RunError> {
    let io = |source| RunError::Io {
        path: staged.to_path_buf(),
        source,
    };
    // Raw lines: a row torn inside a multi-byte character is not UTF-8.
    let mut lines = BufReader::new(std::fs::File::open(staged).map_err(io)?).split(b'\n');
    let mut kept = Kept::default();
    'outer: loop {
        let mut chunk = Vec::with_capacity(CHUNK);
        for line in lines.by_ref().take(CHUNK) {
            chunk.push(String::from_utf8(line.map_err(io)?).unwrap_or_default());
        }
        if chunk.is_empty() {
            break;
        }
        let checked: Vec<Option<ManifestRow>> = chunk
            .par_iter()
            .map(|line| usable(line, dir, outputs))
            .collect();
        for (row, line) in checked.into_iter().zip(&chunk) {
            let Some(row) = row else { break 'outer };
            if row.image.backend != backend {
                break 'outer; // a mix of backends (only by hand): render the rest anew
            }
            let id: Box<str> = row.image.id.into();
            // The line as it was: re-serialising could change a float's last digit.
            manifest.write_raw(line.trim_end()).map_err(io)?;
            kept.set.insert(id.clone());
            kept.ids.push(id);
        }
    }
    // On disk before the only other copy goes.
    manifest.sync().map_err(io)?;
    std::fs::remove_file(staged).map_err(io)?;
    Ok(kept)
}

/// Refuses a previous run drawn by another backend: its pixels would differ.
fn check_backend(path: &Path, first_row: &str, backend: &str) -> Result<(), ResumeError> {
    let Ok(row) = serde_json::from_str::<ManifestRow>(first_row) else {
        return Ok(()); // a torn first row: nothing to keep anyway
    };
    match row.image.backend {
        previous if previous != backend => Err(ResumeError::Backend {
            path: path.to_path_buf(),
            previous,
            current: backend.to_string(),
        }),
        _ => Ok(()),
    }
}

/// The row, if it is whole and its files are intact.
fn usable(line: &str, dir: &Path, outputs: Outputs) -> Option<ManifestRow> {
    let row: ManifestRow = serde_json::from_str(line).ok()?;
    // The row must carry exactly the files this run writes.
    let svg_only = row.image.image.ends_with(".svg");
    let has = match (svg_only, row.svg.is_some()) {
        (true, false) => Outputs::Svg,
        (false, false) => Outputs::Raster,
        (false, true) => Outputs::Both,
        (true, true) => return None,
    };
    if has != outputs {
        return None;
    }
    let intact = |rel: &str, sha: &str| {
        std::fs::read(dir.join(rel)).is_ok_and(|bytes| sha256_hex(&bytes) == sha)
    };
    let all_intact = row.files().all(|(rel, sha)| intact(rel, sha));
    all_intact.then_some(row)
}

/// Follows the reader through the input: every kept id must come back in
/// manifest order, and before any job that is rendered anew.
#[derive(Debug, Default)]
pub(super) struct Cursor {
    next: usize,
    rendered_any: bool,
}

impl Cursor {
    /// A job of the kept prefix was skipped.
    pub fn skipped(&mut self, kept: &Kept, id: &str) -> Result<(), ResumeError> {
        let expected = kept.ids.get(self.next).map(|s| &**s);
        if self.rendered_any || expected != Some(id) {
            return Err(ResumeError::Mismatch {
                detail: format!(
                    "kept image {id:?} comes back {}",
                    match expected {
                        Some(e) if !self.rendered_any =>
                            format!("where the previous manifest has {e:?}"),
                        _ => "after a new image".to_string(),
                    }
                ),
            });
        }
        self.next += 1;
        Ok(())
    }

    /// A job is rendered.
    pub fn rendered(&mut self) {
        self.rendered_any = true;
    }

    /// At the end of the input: every kept row must have been met.
    pub fn finish(&self, kept: &Kept) -> Result<(), ResumeError> {
        match kept.ids.get(self.next) {
            None => Ok(()),
            Some(id) => Err(ResumeError::Mismatch {
                detail: format!(
                    "{} image(s) of the previous manifest, from {id:?} on, are not in this input",
                    kept.ids.len() - self.next
                ),
            }),
        }
    }
}
