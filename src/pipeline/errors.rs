//! `errors.jsonl`: every rejected line (and every image that failed alone: a
//! variant that could not be made, a scene the GPU could not render), streamed to disk as lines fail so that a
//! million bad lines take no memory, and written under its final name only when
//! the run ends (in line order, like the manifest).
//!
//! The reader's errors arrive in line order and go to an anonymous temporary file
//! in the output directory (`O_TMPFILE`: nothing is left behind if the process
//! dies). The few scenes that fail later on the GPU are merged in by line number
//! when the file is finished.

use super::LineError;
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};

/// The errors of one run so far.
pub(crate) struct ErrorLog {
    dir: Dir,
    /// The reader's errors, one JSON object per line; created on the first.
    spool: Option<BufWriter<File>>,
    count: u64,
    /// Of `count`, whole lines (the rest are single images).
    lines: u64,
    /// The first spooled error, as the terminal shows it.
    first: Option<(u64, String)>,
}

/// What the finished log holds.
pub(crate) struct Logged {
    pub count: u64,
    /// Of `count`, whole lines; the rest are single images whose lines' other
    /// images were made (or tried).
    pub lines: u64,
    /// The first error in line order, as the terminal shows it.
    pub first: Option<String>,
}

impl ErrorLog {
    /// A log for the run writing into `dir`.
    pub(super) fn new(dir: &Dir) -> Self {
        ErrorLog {
            dir: dir.clone(),
            spool: None,
            count: 0,
            lines: 0,
            first: None,
        }
    }

    /// Appends a rejected line, or an image of it that failed `alone` (errors come in
    /// line order).
    pub(super) fn push(&mut self, e: LineError, alone: bool) -> std::io::Result<()> {
        let spool = match &mut self.spool {
            Some(s) => s,
            None => self.spool.insert(BufWriter::new(self.dir.anonymous()?)),
        };
        write_row(spool, &e)?;
        self.count += 1;
        self.lines += u64::from(!alone);
        if self.first.is_none() {
            self.first = Some((e.line, e.to_string()));
        }
        Ok(())
    }

    /// Writes `errors.jsonl` (the spooled errors with `late`, single images sorted by
    /// line, merged in), or removes the one a previous run left when nothing failed.
    pub(super) fn finish(mut self, mut late: Vec<LineError>) -> std::io::Result<Logged> {
        const NAME: &str = "errors.jsonl";
        late.sort_by_key(|e| e.line);
        let count = self.count + late.len() as u64;
        if count == 0 {
            // An earlier run's (or a link planted there: removed, never followed).
            self.dir.unlink(NAME)?;
            return Ok(Logged {
                count,
                lines: 0,
                first: None,
            });
        }
        let first = match (self.first.take(), late.first()) {
            (Some((line, _)), Some(e)) if e.line < line => Some(e.to_string()),
            (Some((_, text)), _) => Some(text),
            (None, e) => e.map(ToString::to_string),
        };
        let mut out = AtomicFile::create_in(&self.dir, NAME)?;
        let mut late = late.into_iter().peekable();
        if let Some(spool) = self.spool.take() {
            let mut file = spool.into_inner().map_err(|e| e.into_error())?;
            file.rewind()?;
            for row in BufReader::new(file).lines() {
                let row = row?;
                let line = line_of(&row)?;
                while let Some(e) = late.next_if(|e| e.line < line) {
                    write_row(&mut out, &e)?;
                }
                out.write_all(row.as_bytes())?;
                out.write_all(b"\n")?;
            }
        }
        for e in late {
            write_row(&mut out, &e)?;
        }
        out.commit(false)?;
        Ok(Logged {
            count,
            lines: self.lines,
            first,
        })
    }
}

fn write_row(out: &mut impl Write, e: &LineError) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, e)?;
    out.write_all(b"\n")
}

/// The `line` of a row this log wrote.
fn line_of(row: &str) -> std::io::Result<u64> {
    #[derive(serde::Deserialize)]
    struct Row {
        line: u64,
    }
    Ok(serde_json::from_str::<Row>(row)?.line)
}
