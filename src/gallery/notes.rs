//! What the audit says of each variant row, read back from the `audit.jsonl` it
//! has just written into the run directory: its rows are in manifest order with
//! their manifest line, so they are read alongside the manifest, one at a time.

use super::AuditNote;
use crate::jsonl::Lines;
use crate::output::dir::Dir;
use crate::variants::Change;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;

pub(super) struct Notes {
    lines: Lines<BufReader<File>>,
    /// The next audit row not yet asked for.
    next: Option<(u64, AuditNote)>,
}

/// The fields of an audit row a note shows.
#[derive(serde::Deserialize)]
struct Row {
    line: u64,
    changes: BTreeMap<String, u32>,
    undeclared: Vec<String>,
    identical: bool,
}

impl Notes {
    pub(super) fn open(root: &Dir) -> std::io::Result<Notes> {
        let file = root.open_file(crate::audit::AUDIT_JSONL)?;
        let mut notes = Notes {
            lines: Lines::new(BufReader::with_capacity(1 << 16, file)),
            next: None,
        };
        notes.advance()?;
        Ok(notes)
    }

    fn advance(&mut self) -> std::io::Result<()> {
        self.next = None;
        while let Some(line) = self.lines.next_line()? {
            let Ok(text) = line.text else { continue };
            let Ok(row) = serde_json::from_str::<Row>(&text) else {
                continue;
            };
            // Kinds of change in the audit's order (`Change::ALL`).
            let position = |name: &str| Change::ALL.iter().position(|c| c.name() == name);
            let mut changes: Vec<(String, u32)> = row.changes.into_iter().collect();
            changes.sort_by_key(|(c, _)| position(c));
            let note = AuditNote {
                changes,
                undeclared: row.undeclared,
                identical: row.identical,
            };
            self.next = Some((row.line, note));
            return Ok(());
        }
        Ok(())
    }

    /// The note of the row on manifest line `line` (asked for in increasing order).
    pub(super) fn get(&mut self, line: u64) -> std::io::Result<Option<AuditNote>> {
        while self.next.as_ref().is_some_and(|(l, _)| *l < line) {
            self.advance()?;
        }
        match &self.next {
            Some((l, _)) if *l == line => {
                let note = self.next.take().map(|(_, n)| n);
                self.advance()?;
                Ok(note)
            }
            _ => Ok(None),
        }
    }
}
