//! An earlier run in the output directory: rendered over, resumed, refused or
//! replaced — decided before anything on disk changes.
//!
//! By default a run renders over an earlier one only when it *is* that run again:
//! the same options fingerprint, and every earlier manifest row made from a line of
//! this input (its recorded `input_sha256`), so the new files replace equal ones.
//! Any other earlier run — other input, other options, rows that cannot be checked
//! against a stream — is refused: its manifest, images, problems, contact sheets,
//! gallery and audit would otherwise be left beside the new run's or silently
//! replaced. `--resume` finishes the earlier run (`pipeline::resume`); `--force`
//! removes the earlier run's files — only the names this tool writes — first.

use super::resume::{self, Kept, RUN_STATE};
use super::{RunError, io};
use crate::output::dir::{Dir, Kind};
use crate::output::record::RunRecipe;
use serde::Deserialize;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What a run does with an earlier run it finds in its output directory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Previous {
    /// Render over it only when it is this run again (same options, every row from
    /// this input); refuse any other run (the default).
    #[default]
    Refuse,
    /// Keep what it finished and render only the rest (`--resume`).
    Resume,
    /// Remove its files first (`--force`).
    Replace,
}

/// Why a run refuses its output directory.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OccupiedError {
    #[error(
        "{dir} holds {state} run of {what} (its record: {record}). Nothing was changed: run \
         the same command with --resume to finish that run, add --force to replace it (its \
         manifest, images, problems, contact sheets, gallery and audit are removed), or use \
         a new --out directory",
        dir = dir.display(),
        record = record.display()
    )]
    Other {
        dir: PathBuf,
        /// "a finished" or "an interrupted".
        state: &'static str,
        /// What differs, e.g. "other options (backend: …)".
        what: String,
        /// The file that records the earlier run.
        record: PathBuf,
    },
}

/// Files at the top of the output directory that only a run writes.
pub(crate) const RUN_FILES: &[&str] = &[
    "manifest.jsonl",
    ".manifest.jsonl.partial",
    ".manifest.jsonl.resume",
    "errors.jsonl",
    "skipped.jsonl",
    "problems.jsonl",
    "probes.jsonl",
    ".probes.jsonl.partial",
    // `geomrender audit` (a later stage: named here, compared in tests/it/previous.rs).
    "audit.jsonl",
    "audit.md",
    RUN_STATE,
];

/// Directories a run (or `gallery`) fills with files of these kinds only.
/// (`gallery` is `geomrender gallery`'s, named as [`RUN_FILES`] name the audit's.)
pub(crate) const RUN_DIRS: &[&str] = &["images", "contact", "gallery"];

/// Extensions of the files this tool writes under [`RUN_DIRS`].
const OWNED_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "svg", "html", "css", "js", "json"];

/// Whether `dir` holds an earlier run: a manifest (finished, partial or being
/// resumed) or a run record.
pub(crate) fn holds_run(dir: &Dir) -> bool {
    resume::previous(dir).is_some() || matches!(dir.kind(RUN_STATE), Ok(Some(Kind::File)))
}

/// The refusal of the earlier run in `dir` for `what` differs (a sweep's problems,
/// compared before it writes them).
pub(crate) fn occupied(dir: &Dir, what: String) -> OccupiedError {
    let from = resume::previous(dir).unwrap_or(RUN_STATE);
    OccupiedError::Other {
        dir: dir.path().to_path_buf(),
        state: state(from),
        what,
        record: dir.join(from),
    }
}

/// How an earlier run left the rows in `from`.
fn state(from: &str) -> &'static str {
    if from == "manifest.jsonl" {
        "a finished"
    } else {
        "an interrupted"
    }
}

/// Refuses an earlier run in `dir` that this one is not: other options, or rows not
/// made from `input` (or an input that cannot be read twice). Reads only.
pub(super) fn check(dir: &Dir, recipe: &RunRecipe, input: Option<&Path>) -> Result<(), RunError> {
    let Some(from) = resume::previous(dir) else {
        // A run record alone: killed before its first row, nothing to lose.
        return Ok(());
    };
    let refuse = |what: String| OccupiedError::Other {
        dir: dir.path().to_path_buf(),
        state: state(from),
        what,
        record: dir.join(from),
    };
    if let Err(e) = resume::check_options(dir, recipe) {
        return Err(refuse(match e {
            resume::ResumeError::Options { detail, .. } => format!("other options ({detail})"),
            resume::ResumeError::Format { source, .. } => format!("options in a {source}"),
            _ => "unknown options (its run record is missing or damaged)".into(),
        })
        .into());
    }
    let rows = rows(dir, from)?;
    let Some(rows) = rows else {
        return Err(refuse("rows without input hashes, which cannot be checked".into()).into());
    };
    if rows.ids.is_empty() {
        return Ok(());
    }
    let Some(input) = input else {
        return Err(refuse("an input that cannot be checked against a stream".into()).into());
    };
    match resume::check_input(input, &rows) {
        Ok(()) => Ok(()),
        Err(RunError::Resume(resume::ResumeError::Mismatch { detail })) => {
            Err(refuse(format!("other input ({detail})")).into())
        }
        Err(e) => Err(e),
    }
}

/// The ids and input hashes of every whole row of `name`; `None` when a row does
/// not record its input's hash (a version before it did). A torn last line (an
/// interrupted run) is passed over.
fn rows(dir: &Dir, name: &str) -> Result<Option<Kept>, RunError> {
    #[derive(Deserialize)]
    struct Row {
        id: String,
        input_sha256: Option<String>,
    }
    let file = dir.open_file(name).map_err(io(&dir.join(name)))?;
    let mut kept = Kept::default();
    for line in std::io::BufReader::new(file).split(b'\n') {
        let line = line.map_err(io(&dir.join(name)))?;
        let Ok(row) = serde_json::from_slice::<Row>(&line) else {
            continue;
        };
        let Some(input) = row.input_sha256 else {
            return Ok(None);
        };
        kept.ids.push(row.id.into());
        kept.inputs.push(input.into());
    }
    Ok(Some(kept))
}

/// Removes the earlier run's files from `dir` (`--force`): the files in
/// [`RUN_FILES`] except `input` (a run may read the problems file it replaces),
/// and the files this tool writes under [`RUN_DIRS`]. Datasets are removed when
/// the new manifest is published, as after every run. Returns what it removed,
/// relative to `dir`.
pub(crate) fn clear(dir: &Dir, input: Option<&Path>) -> Result<Vec<PathBuf>, RunError> {
    let keep = input.and_then(|p| std::fs::canonicalize(p).ok());
    let mut removed = Vec::new();
    for &name in RUN_FILES {
        let path = dir.join(name);
        if keep.is_some() && std::fs::canonicalize(&path).ok() == keep {
            continue;
        }
        if dir.remove_file(name).map_err(io(&path))? {
            removed.push(PathBuf::from(name));
        }
    }
    for &name in RUN_DIRS {
        if let Some(sub) = dir.existing_sub(name).map_err(io(&dir.join(name)))? {
            clear_tree(&sub, Path::new(name), &mut removed)?;
            // Left in place when something else is in it (the user's own files);
            // `images/` always: the run holds it open to write into.
            if name != "images" {
                let _ = dir.remove_empty_dir(name);
            }
        }
    }
    Ok(removed)
}

/// Removes the files of [`OWNED_EXTENSIONS`] under `dir`, and the directories
/// that leaves empty.
fn clear_tree(dir: &Dir, rel: &Path, removed: &mut Vec<PathBuf>) -> Result<(), RunError> {
    for (name, kind) in dir.entries().map_err(io(dir.path()))? {
        match kind {
            Kind::File
                if owned(&name) && dir.remove_file(&name).map_err(io(&dir.join(&name)))? =>
            {
                removed.push(rel.join(&name));
            }
            Kind::Dir => {
                if let Some(sub) = dir.existing_sub(&name).map_err(io(&dir.join(&name)))? {
                    clear_tree(&sub, &rel.join(&name), removed)?;
                    let _ = dir.remove_empty_dir(&name);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a file under [`RUN_DIRS`] is one this tool writes: an image, or a page
/// or its data (a run removes its own temporary files before this).
fn owned(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| OWNED_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

#[cfg(test)]
mod tests {
    use super::owned;

    #[test]
    fn owned_names_are_the_tools() {
        for n in [
            "a.png",
            "x-1.jpg",
            "b.svg",
            "index.html",
            "gallery.css",
            "d.json",
        ] {
            assert!(owned(n), "{n}");
        }
        for n in ["notes.txt", "README", "data.parquet", "my.tar"] {
            assert!(!owned(n), "{n}");
        }
    }
}
