//! Where a line with a given id is in a JSONL file, to read it again when it is
//! needed (a variant's base row, a base's Problem): 32 bytes per id (a 128-bit
//! fingerprint of it, its line and byte offset), never the line itself, so the
//! audit's memory does not grow with what the lines hold.

use std::collections::HashMap;

/// Line and byte offset per id (the first line of each id).
#[derive(Default)]
pub(super) struct LineIndex {
    at: HashMap<u128, (u64, u64)>,
}

impl LineIndex {
    /// Records `id` on `line` at `offset`, unless an earlier line has it.
    pub(super) fn insert(&mut self, id: &str, line: u64, offset: u64) {
        self.at
            .entry(crate::digest::fingerprint(id))
            .or_insert((line, offset));
    }

    /// The line and offset of `id`. A fingerprint shared by two ids is told apart
    /// by the caller, which reads the line and compares its id.
    pub(super) fn get(&self, id: &str) -> Option<(u64, u64)> {
        self.at.get(&crate::digest::fingerprint(id)).copied()
    }

    pub(super) fn len(&self) -> usize {
        self.at.len()
    }
}
