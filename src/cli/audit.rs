//! `geomrender audit DIR`: every variant against its base, per variant value.

use crate::audit::{self, AuditOptions};
use crate::output::dir::Dir;
use crate::output::lock::{LockError, OutputLock};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Compare every variant of a finished run with its base image, from the files.
///
/// For each variant row of DIR/manifest.jsonl, reads what it and its base draw (their
/// SVG files when the run wrote SVGs, else their Scenes composed again from the run's
/// Problems) and their texts, and counts what changed: paths moved, added or removed,
/// leader lines, fills, strokes, labels moved, added, removed, renamed or resized, the
/// canvas, the encoding, the question, the CoT, the answer, the pixels. A row is
/// flagged when it changes something none of its axes declares (`variants --list`),
/// or nothing at all.
///
/// Prints a table per variant value and writes OUT/audit.jsonl (one row per variant,
/// schema: `geomrender schema audit`) and OUT/audit.md. Exit status: 0 nothing
/// flagged; 1 some rows flagged or some lines could not be audited; 2 the audit could
/// not run. Works on any finished run directory: render, sweep, merged shards.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The run's output directory (with manifest.jsonl and its images).
    dir: PathBuf,

    /// The run's Problems (the JSONL given to `render`), to compose each Scene again
    /// when the run wrote no SVG files. Default: DIR/problems.jsonl, which `sweep`
    /// writes. Without either, drawings are compared by image bytes only.
    #[arg(long, value_name = "PROBLEMS.jsonl")]
    problems: Option<PathBuf>,

    /// Where audit.jsonl and audit.md go (default: DIR).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Not while a run writes there (nor two audits at once).
    let _lock = lock_existing(&args.dir)?;
    let options = AuditOptions {
        problems: args.problems,
        ..AuditOptions::default()
    };
    let out = args.out.unwrap_or_else(|| args.dir.clone());
    let report = audit::audit(&args.dir, &options, &out)?;
    print_table(&report);
    for e in report.errors.iter().take(20) {
        eprintln!("not audited: {e}");
    }
    if report.error_count > 20 {
        eprintln!(
            "… and {} more (audit.md lists the first 50)",
            report.error_count - 20
        );
    }
    let flagged = report.flagged;
    eprintln!(
        "audited {} variant rows of {} bases: {flagged} flagged, {} lines not audited; \
         {} and {}",
        report.rows,
        report.bases,
        report.error_count,
        out.join(audit::AUDIT_MD).display(),
        out.join(audit::AUDIT_JSONL).display()
    );
    Ok(if flagged == 0 && report.error_count == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The lock of the run directory `dir` (held while a command reads and writes in
/// it): an error while a run holds it; `None` when there is no such directory (the
/// command says so itself) or it cannot hold a lock file (read-only: no run writes
/// there either).
pub(super) fn lock_existing(dir: &Path) -> anyhow::Result<Option<OutputLock>> {
    let Ok(d) = Dir::open(dir) else {
        return Ok(None);
    };
    match OutputLock::acquire(d) {
        Ok(lock) => Ok(Some(lock)),
        Err(e @ LockError::InUse { .. }) => Err(e.into()),
        Err(_) => Ok(None),
    }
}

/// The per-value table: rows, flagged counts, then rows per kind of change.
fn print_table(report: &audit::Audit) {
    let cols = audit::columns(report);
    let width = report
        .groups
        .iter()
        .map(|g| g.label.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let mut head = format!(
        "{:<width$}  {:>5}  {:>10}  {:>9}",
        "variant", "rows", "undeclared", "identical"
    );
    for c in &cols {
        head.push_str(&format!("  {}", c.name()));
    }
    println!("{head}");
    for g in &report.groups {
        let mut line = format!(
            "{:<width$}  {:>5}  {:>10}  {:>9}",
            g.label, g.rows, g.undeclared, g.identical
        );
        for c in &cols {
            let n = g.changes.get(c).copied().unwrap_or(0);
            line.push_str(&format!("  {:>w$}", n, w = c.name().len()));
        }
        println!("{line}");
    }
}
