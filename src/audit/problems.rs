//! The run's Problems (`DIR/problems.jsonl` or `--problems FILE`), to compose a
//! row's Scene again when the run wrote no SVG files (and for the gallery's shapes): indexed by id in one pass
//! (32 bytes a Problem), each read again from the file when a base needs it.

use super::index::LineIndex;
use super::{AuditError, AuditLineError};
use crate::generate::Problem;
use crate::jsonl::Lines;
use crate::output::dir::Dir;
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A Problem with the SHA-256 of its line, or why there is none.
type Got = Result<(String, Problem), String>;

pub(crate) struct Problems {
    file: File,
    name: String,
    index: LineIndex,
    /// The last Problem read (a base's variants come one after another).
    last: Option<(String, Got)>,
}

/// The id of a line, all the index pass reads of it.
#[derive(serde::Deserialize)]
struct Id {
    id: String,
}

impl Problems {
    /// The Problems of `options.problems` or else `DIR/problems.jsonl`; `None` when
    /// neither is there. Lines without an id are errors of the audit (it goes on).
    pub(crate) fn open(
        dir: &Path,
        root: &Dir,
        problems: Option<&Path>,
        errors: &mut dyn FnMut(AuditLineError),
    ) -> Result<Option<Problems>, AuditError> {
        let io = |path: PathBuf| move |source| AuditError::Io { path, source };
        let (file, path) = match problems {
            // The user's own path; a FIFO or device is refused, never waited on.
            Some(p) => (
                crate::output::dir::open_regular(p).map_err(io(p.to_path_buf()))?,
                p.to_path_buf(),
            ),
            None => match root.open_file("problems.jsonl") {
                Ok(f) => (f, dir.join("problems.jsonl")),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(io(dir.join("problems.jsonl"))(e)),
            },
        };
        let name = path.display().to_string();
        let mut index = LineIndex::default();
        let mut lines = Lines::new(BufReader::with_capacity(1 << 16, &file));
        while let Some(line) = lines.next_line().map_err(io(path.clone()))? {
            let id = (line.text.as_ref().map_err(ToString::to_string))
                .and_then(|t| serde_json::from_str::<Id>(t).map_err(|e| e.to_string()));
            match id {
                Ok(Id { id }) => index.insert(&id, line.number, line.offset),
                Err(reason) => errors(AuditLineError {
                    file: name.clone(),
                    line: line.number,
                    id: None,
                    reason,
                }),
            }
        }
        Ok(Some(Problems {
            file,
            name,
            index,
            last: None,
        }))
    }

    /// The Problem `id` and the SHA-256 of its line (what a row's `input_sha256`
    /// is), or why there is none.
    pub(crate) fn get(&mut self, id: &str) -> Result<&(String, Problem), String> {
        if self.last.as_ref().is_none_or(|(last, _)| last != id) {
            let read = self.read(id);
            self.last = Some((id.to_string(), read));
        }
        match &self.last {
            Some((_, Ok(read))) => Ok(read),
            Some((_, Err(e))) => Err(e.clone()),
            None => unreachable!("set above"),
        }
    }

    fn read(&mut self, id: &str) -> Got {
        let missing = || format!("its problem {id:?} is not in the problems file");
        let (number, offset) = self.index.get(id).ok_or_else(missing)?;
        let at = |reason: String| format!("its problem {id:?}: {}:{number}: {reason}", self.name);
        let line = (self.file.seek(SeekFrom::Start(offset)))
            .and_then(|_| {
                Lines::starting_at(BufReader::new(&self.file), number, offset).next_line()
            })
            .map_err(|e| at(e.to_string()))?
            .ok_or_else(|| at("the file changed while it was read".into()))?;
        let text = line.text.map_err(|e| at(e.to_string()))?;
        let problem: Problem = serde_json::from_str(&text).map_err(|e| at(e.to_string()))?;
        if problem.id != id {
            // Another id with the same fingerprint: this one is not in the file.
            return Err(missing());
        }
        Ok((crate::digest::sha256_hex(text.as_bytes()), problem))
    }
}
