//! `--resume`: carry on an interrupted (or finished) run in the same directory.
//!
//! The manifest is written in input order, one row after its files are in place,
//! so the rows of an interrupted run are a prefix of the whole run's rows. Resuming
//! keeps the longest prefix whose files are still there with the recorded SHA-256,
//! copies those rows into the new manifest first, skips their jobs (nothing is
//! rendered twice) and renders the rest, so the final manifest equals the one an
//! uninterrupted run writes.
//!
//! "Resume or refuse" is decided before anything on disk changes: the previous run's
//! recipe fingerprint (its record, `.geomrender.run.json`) must equal this run's, and every kept
//! row's `input_sha256` must be the hash of the input line that makes it, checked
//! against the input file before any work. The reader checks ids and input hashes
//! again as it goes, and that no new image comes before the last kept one.

use super::{Outputs, RunError};
use crate::digest::sha256_hex;
use crate::jsonl::Lines;
use crate::output::datasets::DatasetWriter;
use crate::output::dir::Dir;
use crate::output::manifest::{ManifestRow, ManifestWriter};
use crate::output::record::{RUN_RECORD, RecordError, RunRecipe, RunRecord};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// The run-state file: this run's record (recipe, fingerprint, provenance), for the
/// next `--resume`.
pub(super) const RUN_STATE: &str = RUN_RECORD;

/// Rows verified per parallel step.
const CHUNK: usize = 256;

/// The kept prefix of a previous run: its ids in manifest order, and the hash of the
/// input line each came from.
#[derive(Debug, Default)]
pub(super) struct Kept {
    pub ids: Vec<Box<str>>,
    pub inputs: Vec<Box<str>>,
    pub set: HashSet<Box<str>>,
}

/// Why a previous run's rows can't be resumed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    #[error(
        "--resume: the input differs from the resumed run's: {detail}. Nothing was changed: \
         resume with the original input to finish that run, or use a new --out directory"
    )]
    Mismatch { detail: String },
    #[error(
        "--resume: {dir} was made with other options ({detail}). Nothing was changed: resume \
         with the original --variants, --format, --backend and rendering flags, or use a new \
         --out directory",
        dir = dir.display()
    )]
    Options { dir: PathBuf, detail: String },
    #[error(
        "--resume: {dir} holds rows that cannot be checked against this input ({reason}). \
         Nothing was changed: use a new --out directory, or render again without --resume",
        dir = dir.display()
    )]
    Unverifiable { dir: PathBuf, reason: String },
    #[error(
        "--resume: {dir} holds a {source}: rerun with --force (its files are replaced), or \
         use a new --out directory. Nothing was changed",
        dir = dir.display()
    )]
    Format { dir: PathBuf, source: RecordError },
}

/// The file the kept rows are read from while they are copied: it outlives a crash
/// during the copy, so a later resume still finds them.
const STAGING: &str = ".manifest.jsonl.resume";

/// The previous run's rows, wherever an interruption left them: a copy in progress,
/// the finished manifest, or the partial one.
pub(super) fn previous(dir: &Dir) -> Option<&'static str> {
    [STAGING, "manifest.jsonl", ".manifest.jsonl.partial"]
        .into_iter()
        // Regular files only: a symlink planted under one of these names is not followed.
        .find(|n| matches!(dir.kind(n), Ok(Some(crate::output::dir::Kind::File))))
}

/// What a resume will keep, decided before anything on disk changes.
#[derive(Debug)]
pub(super) struct ResumePlan {
    /// Where the previous rows are (a name in the output directory).
    from: &'static str,
    /// The kept prefix.
    pub kept: Kept,
}

/// Reads the previous run's rows (read only) and decides: `Ok(None)` when there is
/// nothing to resume, the plan when the longest intact prefix can be kept, or a
/// refusal (another backend, other options, another input, or rows that cannot be
/// checked).
pub(super) fn plan(
    dir: &Dir,
    backend: &str,
    outputs: Outputs,
    recipe: &RunRecipe,
    input: Option<&Path>,
) -> Result<Option<ResumePlan>, RunError> {
    let Some(from) = previous(dir) else {
        return Ok(None);
    };
    check_options(dir, recipe)?;
    let kept = scan(from, dir, backend, outputs)?;
    if !kept.ids.is_empty() {
        let Some(input) = input else {
            return Err(ResumeError::Unverifiable {
                dir: dir.path().to_path_buf(),
                reason: "--resume needs the input as a file, not a stream".into(),
            }
            .into());
        };
        check_input(input, &kept)?;
    }
    Ok(Some(ResumePlan { from, kept }))
}

/// The run record of `dir` must have this run's recipe (the same fingerprint); a
/// refusal names each field that differs. A record of another format is refused
/// naming its format.
pub(super) fn check_options(dir: &Dir, recipe: &RunRecipe) -> Result<(), ResumeError> {
    let previous = match dir.read(RUN_STATE, 1 << 20) {
        Ok(bytes) => RunRecord::parse(&bytes),
        Err(e) => Err(RecordError::Bad(e.to_string())),
    };
    let previous = match previous {
        Ok(p) => p,
        Err(source @ RecordError::Version { .. }) => {
            return Err(ResumeError::Format {
                dir: dir.path().to_path_buf(),
                source,
            });
        }
        Err(_) => {
            return Err(ResumeError::Unverifiable {
                dir: dir.path().to_path_buf(),
                reason: format!("{RUN_STATE} is missing or damaged"),
            });
        }
    };
    if previous.recipe.fingerprint() == recipe.fingerprint() {
        return Ok(());
    }
    let changes: Vec<String> = crate::output::record::differences(&previous.recipe, recipe)
        .into_iter()
        .map(|d| format!("{}: {} → {}", d.field, d.a, d.b))
        .collect();
    Err(ResumeError::Options {
        dir: dir.path().to_path_buf(),
        detail: changes.join("; "),
    })
}

/// Walks the input file: every kept row, in order, must come from an input line with
/// its recorded hash (lines that made no row, e.g. rejected ones, are passed over).
pub(super) fn check_input(input: &Path, kept: &Kept) -> Result<(), RunError> {
    let file = std::fs::File::open(input).map_err(|source| RunError::Io {
        path: input.to_path_buf(),
        source,
    })?;
    let mut lines = Lines::new(BufReader::with_capacity(1 << 20, file));
    let mut next = 0;
    while next < kept.inputs.len() {
        let chunk = lines.next_chunk(256).map_err(|source| RunError::Io {
            path: input.to_path_buf(),
            source,
        })?;
        if chunk.is_empty() {
            break;
        }
        for line in chunk {
            let Ok(text) = line.text else { continue };
            let hash = sha256_hex(text.as_bytes());
            while next < kept.inputs.len() && *kept.inputs[next] == hash {
                next += 1;
            }
        }
    }
    match kept.ids.get(next) {
        None => Ok(()),
        Some(id) => Err(ResumeError::Mismatch {
            detail: format!(
                "the previous manifest's {id:?} (row {}) comes from no line of {} with the \
                 recorded input hash",
                next + 1,
                input.display()
            ),
        }
        .into()),
    }
}

/// Writes this run's record (its recipe, fingerprint and provenance).
pub(super) fn write_state(dir: &Dir, record: &RunRecord) -> Result<(), RunError> {
    dir.write_atomic(RUN_STATE, record.to_json().as_bytes())
        .map_err(|source| RunError::Io {
            path: dir.join(RUN_STATE),
            source,
        })
}

/// Moves the previous rows aside (before `manifest` is created, which would truncate
/// the partial file); returns the staging file's name.
pub(super) fn stage(dir: &Dir, plan: &ResumePlan) -> Result<&'static str, RunError> {
    if plan.from != STAGING {
        dir.rename(plan.from, STAGING)
            .map_err(|source| RunError::Io {
                path: dir.join(plan.from),
                source,
            })?;
    }
    Ok(STAGING)
}

/// The longest usable prefix of the rows in `path` (read only). A row is usable
/// when it parses, was rendered by `backend`, has the files `outputs` asks for, every
/// file it names still has its recorded SHA-256, and it records its input's hash.
fn scan(name: &str, dir: &Dir, backend: &str, outputs: Outputs) -> Result<Kept, RunError> {
    let io = |source| RunError::Io {
        path: dir.join(name),
        source,
    };
    // Raw lines: a row torn inside a multi-byte character is not UTF-8.
    let mut lines = BufReader::new(dir.open_file(name).map_err(io)?).split(b'\n');
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
        for row in checked {
            let Some(row) = row else { break 'outer };
            let Some(input) = row.input_sha256 else {
                break 'outer; // from a version that did not record it: render anew
            };
            if row
                .image
                .file
                .as_ref()
                .is_some_and(|f| f.backend != backend)
            {
                break 'outer; // a mix of backends (only by hand): render the rest anew
            }
            let id: Box<str> = row.image.id.into();
            kept.set.insert(id.clone());
            kept.ids.push(id);
            kept.inputs.push(input.into());
        }
    }
    Ok(kept)
}

/// Copies the first `kept` rows of the staged file into `manifest`, as they were
/// (re-serialising could change a float's last digit), and into the datasets being
/// written (so they hold the kept rows before the new ones, as an uninterrupted
/// run's would), then removes the staging file.
pub(super) fn keep(
    dir: &Dir,
    staged: &str,
    kept: usize,
    manifest: &mut ManifestWriter,
    mut datasets: Option<&mut DatasetWriter>,
) -> Result<(), RunError> {
    let path = dir.join(staged);
    let io = |source| RunError::Io {
        path: path.clone(),
        source,
    };
    let lines = BufReader::new(dir.open_file(staged).map_err(io)?).split(b'\n');
    for (k, line) in lines.take(kept).enumerate() {
        let line = line.map_err(io)?;
        let text = String::from_utf8(line).unwrap_or_default();
        manifest.write_raw(text.trim_end()).map_err(io)?;
        if let Some(datasets) = datasets.as_deref_mut() {
            // `scan` parsed every kept row already.
            let row: ManifestRow = serde_json::from_str(&text).map_err(|e| RunError::Io {
                path: path.clone(),
                source: e.into(),
            })?;
            datasets.push_stored(&path, k as u64 + 1, &row)?;
        }
    }
    // On disk before the only other copy goes.
    manifest.sync().map_err(io)?;
    dir.remove_file(staged).map_err(io)?;
    Ok(())
}

/// The row, if it is whole and its files are intact.
fn usable(line: &str, dir: &Dir, outputs: Outputs) -> Option<ManifestRow> {
    let row: ManifestRow = serde_json::from_str(line).ok()?;
    // The row must carry exactly the files this run writes; a text-only row has
    // none, whatever the run writes.
    let Some(file) = &row.image.file else {
        return row.svg.is_none().then_some(row);
    };
    let svg_only = file.image.ends_with(".svg");
    let has = match (svg_only, row.svg.is_some()) {
        (true, false) => Outputs::Svg,
        (false, false) => Outputs::Raster,
        (false, true) => Outputs::Both,
        (true, true) => return None,
    };
    if has != outputs {
        return None;
    }
    let intact =
        |rel: &str, sha: &str| crate::output::manifest::read_checked(dir, rel, sha).is_ok();
    let all_intact = row.files().all(|(rel, sha)| intact(rel, sha));
    all_intact.then_some(row)
}

/// Follows the reader through the input: every kept id must come back in
/// manifest order, from an input line with the recorded hash, and before any job
/// that is rendered anew.
#[derive(Debug, Default)]
pub(super) struct Cursor {
    next: usize,
}

impl Cursor {
    /// A job of the kept prefix was skipped; `input` is its line's hash.
    pub(super) fn skipped(
        &mut self,
        kept: &Kept,
        id: &str,
        input: &str,
    ) -> Result<(), ResumeError> {
        let expected = kept.ids.get(self.next).map(|s| &**s);
        if expected != Some(id) {
            return Err(ResumeError::Mismatch {
                detail: format!(
                    "kept image {id:?} comes back where the previous manifest has {}",
                    expected.map_or("no more rows".to_string(), |e| format!("{e:?}"))
                ),
            });
        }
        if *kept.inputs[self.next] != *input {
            return Err(ResumeError::Mismatch {
                detail: format!("image {id:?} now comes from another input line"),
            });
        }
        self.next += 1;
        Ok(())
    }

    /// A job is about to be rendered: every kept row must have been met before it.
    pub(super) fn rendered(&mut self, kept: &Kept, id: &str) -> Result<(), ResumeError> {
        match kept.ids.get(self.next) {
            None => Ok(()),
            Some(e) => Err(ResumeError::Mismatch {
                detail: format!("new image {id:?} comes where the previous manifest has {e:?}"),
            }),
        }
    }

    /// At the end of the input: every kept row must have been met.
    pub(super) fn finish(&self, kept: &Kept) -> Result<(), ResumeError> {
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
