//! Reading `manifest.jsonl` back: one line at a time, each line its number, byte
//! offset and [`ManifestRow`] or the reason it is none. The one streaming reader of
//! the manifest: `each_row` (export, merge, resume) stops at the first bad line;
//! `audit` and `gallery` name bad lines and go on. Memory holds one line, whatever
//! the file's size; a line is read again from its offset with [`RowReader::at`].

use super::dir::Dir;
use super::manifest::ManifestRow;
use crate::jsonl::{Line, Lines};
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};

/// Why a manifest line is not a row: the reason, with the line's id when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RowError {
    pub id: Option<String>,
    pub why: String,
}

/// One manifest line as read.
#[derive(Debug)]
pub(crate) struct ReadRow {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line in the file.
    pub offset: u64,
    pub row: Result<ManifestRow, RowError>,
}

/// The rows of a manifest, in order, in bounded memory.
pub(crate) struct Rows {
    lines: Lines<BufReader<File>>,
}

impl Rows {
    /// The manifest `name` in `dir` (a regular file only: see [`Dir::open_file`]).
    pub(crate) fn open(dir: &Dir, name: &str) -> std::io::Result<Rows> {
        let file = dir.open_file(name)?;
        Ok(Rows {
            lines: Lines::new(BufReader::with_capacity(1 << 16, file)),
        })
    }
}

impl Iterator for Rows {
    type Item = std::io::Result<ReadRow>;

    fn next(&mut self) -> Option<Self::Item> {
        self.lines.next_line().transpose().map(|l| l.map(read))
    }
}

/// Reads lines of a manifest again, each from its offset (random access for a
/// row met earlier: a variant's base, when the base's rows are not together).
pub(crate) struct RowReader {
    file: File,
}

impl RowReader {
    pub(crate) fn open(dir: &Dir, name: &str) -> std::io::Result<RowReader> {
        Ok(RowReader {
            file: dir.open_file(name)?,
        })
    }

    /// The line `line` that starts at byte `offset` (as [`ReadRow`] gave them).
    pub(crate) fn at(&mut self, line: u64, offset: u64) -> std::io::Result<ReadRow> {
        self.file.seek(SeekFrom::Start(offset))?;
        let mut lines = Lines::starting_at(BufReader::new(&mut self.file), line, offset);
        match lines.next_line()? {
            Some(l) if l.number == line => Ok(read(l)),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("line {line} is no longer at byte {offset}: the file changed"),
            )),
        }
    }
}

fn read(line: Line) -> ReadRow {
    let row = match line.text {
        Ok(text) => parse(&text),
        Err(e) => Err(RowError {
            id: None,
            why: e.to_string(),
        }),
    };
    ReadRow {
        line: line.number,
        offset: line.offset,
        row,
    }
}

/// A parse error as a reason: "not JSON: …" when the line is no JSON text, and the
/// column rather than "line 1" (the caller names the file's line).
fn reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    let what = text.strip_suffix(&at).unwrap_or(&text);
    match e.classify() {
        serde_json::error::Category::Data => format!("{what} (column {})", e.column()),
        _ => format!("not JSON: {what} (column {})", e.column()),
    }
}

/// One line's text as a manifest row. Ids name files and samples downstream, so a
/// row whose id is not one this tool writes is refused.
pub(crate) fn parse(text: &str) -> Result<ManifestRow, RowError> {
    let row: ManifestRow = serde_json::from_str(text).map_err(|e| RowError {
        // The id, when the line has one, to name it by (a bounded parse).
        id: crate::jsonl::parse_value(text).ok().and_then(|v| {
            v.get("id")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        }),
        why: reason(&e),
    })?;
    crate::scene::check_id(&row.image.id).map_err(|_| RowError {
        id: None,
        why: format!(
            "id {:?} is not one this tool writes (1 to 200 of A-Z a-z 0-9 . _ -, not \
             starting with .)",
            row.image.id
        ),
    })?;
    Ok(row)
}

/// Why reading a manifest row by row stopped.
#[derive(Debug)]
pub(crate) enum RowsError<E> {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// Line `line` is not a manifest row (`why`).
    Bad { line: u64, why: String },
    /// The caller's function stopped it.
    Stopped(E),
}

/// Calls `f` with the 1-based line number and row of every row of the manifest
/// `name` in `dir`, in order, reading it in bounded memory (a regular file only:
/// see [`Dir::open_file`]). Ids name files and samples downstream, so a row whose
/// id is not one this tool writes is a bad line.
pub(crate) fn each_row<E>(
    dir: &Dir,
    name: &str,
    mut f: impl FnMut(u64, ManifestRow) -> Result<(), E>,
) -> Result<(), RowsError<E>> {
    for read in Rows::open(dir, name).map_err(RowsError::Io)? {
        let read = read.map_err(RowsError::Io)?;
        let row = read.row.map_err(|e| RowsError::Bad {
            line: read.line,
            why: e.why,
        })?;
        f(read.line, row).map_err(RowsError::Stopped)?;
    }
    Ok(())
}
