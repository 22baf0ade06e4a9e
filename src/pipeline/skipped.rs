//! `skipped.jsonl`: every variant of the plan that was not drawn, and why — the
//! problem has none (`backward`, `aux`, `unrelated`, grayscale with too many
//! shapes), or it would equal its base image and texts. One row per variant, in
//! line order, streamed to a temporary file and published under its final name
//! when the run ends (removed when nothing was skipped). The run's summary counts
//! them per variant value and reason.

use super::jobs::{SkipReason, Skipped};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

/// The file's name in the output directory.
pub(crate) const SKIPPED: &str = "skipped.jsonl";

/// The JSON Schema of a `skipped.jsonl` row (`geomrender schema skipped`).
pub(crate) const SKIPPED_SCHEMA: &str = include_str!("../../schemas/skipped.schema.json");

/// One row of `skipped.jsonl` (`schemas/skipped.schema.json`).
#[derive(Serialize)]
struct Row<'a> {
    /// The input line (1-based).
    line: u64,
    /// The id the variant would have had.
    id: &'a str,
    base_id: &'a str,
    /// The variant's values, as manifest rows write them.
    variant: &'a serde_json::Map<String, serde_json::Value>,
    reason: SkipReason,
    /// The message: why the problem has no such variant, or that it equals its base.
    why: String,
}

/// How many variants of one value were skipped for one reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SkipCount {
    /// The variant as SPEC writes it: `info=image`, `opacity=0.1;palette=grayscale`.
    pub variant: String,
    pub reason: SkipReason,
    pub count: u64,
    /// For [`SkipReason::NotMade`], when its axis has no such variant (as
    /// `variants --list` says it); for [`SkipReason::Identical`], that it equals its base.
    pub when: &'static str,
}

/// The skipped variants of one run so far.
pub(crate) struct SkipLog {
    dir: Dir,
    out: Option<AtomicFile>,
    counts: BTreeMap<(SkipReason, String), (u64, &'static str)>,
}

impl SkipLog {
    pub(super) fn new(dir: &Dir) -> Self {
        SkipLog {
            dir: dir.clone(),
            out: None,
            counts: BTreeMap::new(),
        }
    }

    /// Appends the skipped variants of input line `line` (lines come in order).
    pub(super) fn push(&mut self, line: u64, skipped: &[Skipped]) -> std::io::Result<()> {
        for s in skipped {
            let out = match &mut self.out {
                Some(o) => o,
                None => self.out.insert(AtomicFile::create_in(&self.dir, SKIPPED)?),
            };
            let row = Row {
                line,
                id: s.error.id.as_deref().unwrap_or_default(),
                base_id: &s.base_id,
                variant: &s.values,
                reason: s.reason(),
                why: s.error.fault.to_string(),
            };
            serde_json::to_writer(&mut *out, &row)?;
            out.write_all(b"\n")?;
            let when = match s.not_made() {
                Some((_, when)) => when,
                None => "its image and texts equal its base's",
            };
            self.counts
                .entry((s.reason(), s.variant.clone()))
                .or_insert((0, when))
                .0 += 1;
        }
        Ok(())
    }

    /// Publishes `skipped.jsonl`, or removes one an earlier run left when nothing
    /// was skipped; returns the counts, by reason, then variant.
    pub(super) fn finish(self) -> std::io::Result<Vec<SkipCount>> {
        match self.out {
            Some(out) => out.commit(false)?,
            None => {
                self.dir.unlink(SKIPPED)?;
            }
        }
        Ok(self
            .counts
            .into_iter()
            .map(|((reason, variant), (count, when))| SkipCount {
                variant,
                reason,
                count,
                when,
            })
            .collect())
    }
}
