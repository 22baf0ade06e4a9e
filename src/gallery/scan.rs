//! The manifest's rows as the gallery shows them, streamed: each line an [`Entry`]
//! or the reason it is not shown (not a row, a field the pages cannot use, an id
//! an earlier row has). Read twice, with the same result: a first pass counts the
//! bases and learns whether each base's rows stand together, and the second makes
//! the pages.

use super::GalleryLineError;
use super::entry::{Entry, entry};
use crate::output::dir::Dir;
use crate::output::rows::Rows;
use crate::pipeline::Seen;
use std::collections::HashSet;

/// Every row shown, in manifest order; a line not shown is an error.
pub(super) struct Entries {
    rows: Rows,
    /// The ids shown so far (about 20 bytes a base: `pipeline::Seen`).
    seen: Seen,
}

impl Entries {
    pub(super) fn open(root: &Dir) -> std::io::Result<Entries> {
        Ok(Entries {
            rows: Rows::open(root, "manifest.jsonl")?,
            seen: Seen::default(),
        })
    }
}

impl Iterator for Entries {
    type Item = std::io::Result<Result<Entry, GalleryLineError>>;

    fn next(&mut self) -> Option<Self::Item> {
        let read = match self.rows.next()? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        let fail = |id: Option<String>, reason: String| GalleryLineError {
            file: "manifest.jsonl".into(),
            line: read.line,
            id,
            reason,
        };
        let shown = (read.row)
            .and_then(|row| entry(read.line, row))
            .map_err(|e| fail(e.id, e.why))
            .and_then(|e| match self.seen.insert(&e.id) {
                true => Ok(e),
                false => Err(fail(
                    Some(e.id),
                    "duplicate id: an earlier row has the same id".into(),
                )),
            });
        Some(Ok(shown))
    }
}

/// What the first pass learns.
pub(super) struct Scan {
    /// Rows shown.
    pub rows: u64,
    /// Distinct bases of the rows shown.
    pub bases: u64,
    /// Every base's rows stand together in the manifest (as `render` writes them):
    /// each page is written as soon as its rows are read.
    pub grouped: bool,
    /// Fingerprints (`digest::fingerprint`) of the base pages' file names.
    pub pages: HashSet<u128>,
    /// The first line not shown, for the message when none is.
    pub first_error: Option<GalleryLineError>,
}

/// The first pass over the manifest.
pub(super) fn scan(root: &Dir) -> std::io::Result<Scan> {
    let mut scan = Scan {
        rows: 0,
        bases: 0,
        grouped: true,
        pages: HashSet::new(),
        first_error: None,
    };
    let mut current: Option<u128> = None;
    for item in Entries::open(root)? {
        match item? {
            Ok(e) => {
                scan.rows += 1;
                let page = crate::digest::fingerprint(&crate::html::page_name(&e.base_id));
                if current != Some(page) {
                    current = Some(page);
                    match scan.pages.insert(page) {
                        true => scan.bases += 1,
                        // A base whose rows started earlier, then others came.
                        false => scan.grouped = false,
                    }
                }
            }
            Err(e) => {
                scan.first_error.get_or_insert(e);
            }
        }
    }
    Ok(scan)
}
