//! `geomrender gallery DIR`: a finished run as a static site under DIR/gallery/.

use crate::gallery::{self, GalleryOptions};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const SHOWN_ERRORS: usize = 20;

/// Make a browsable gallery of a finished run: DIR/gallery/index.html.
///
/// The index lists the run's images (bases first; every image with a filter) with
/// thumbnails the tool makes, filters by variant axis, value, depth, question type,
/// task, the audit's verdict, relation, domain, subset, mode, answer and "Cannot be
/// inferred" (those with more than one value), a search by id, and pages; each base
/// has a page (bases/<base id>.html) with the base and all its variants side by
/// side, their questions, answers, choices, solutions (collapsed), variant values
/// and what the audit says changed. The audit is run first and written to
/// DIR/audit.jsonl and DIR/audit.md (as `geomrender audit DIR` does), its rows
/// linked to the pages. Open index.html in a browser: it works from file:// without
/// a server or the network, and links to the run's own images rather than copying
/// them. Making it again keeps the thumbnails it already made. The manifest is
/// streamed, so any size of run has a gallery. Exit status: 0 every row shown; 1
/// some rows or images could not be shown (listed); 2 no gallery could be made.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The run's output directory (with manifest.jsonl and its images): render,
    /// sweep or merged shards.
    dir: PathBuf,

    /// Longest side of a thumbnail in pixels (16 to 1024; shown at half size so
    /// that it is sharp on high-density screens).
    #[arg(long, value_name = "PX", default_value_t = GalleryOptions::default().thumb_size)]
    thumb_size: u32,

    /// The run's Problems (the JSONL given to `render`): the shapes the index shows,
    /// and for the audit to compose each Scene again when the run wrote no SVG
    /// files. Default: DIR/problems.jsonl, which `sweep` writes; without either,
    /// the index shows no shapes and the audit compares image bytes.
    #[arg(long, value_name = "PROBLEMS.jsonl")]
    problems: Option<PathBuf>,

    /// Do not run the audit (faster on a large run; the pages then say "no audit",
    /// and DIR/audit.* are left as they are).
    #[arg(long)]
    no_audit: bool,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let options = GalleryOptions {
        thumb_size: args.thumb_size,
        audit: !args.no_audit,
        problems: args.problems,
        ..GalleryOptions::default()
    };
    // Not while a run writes there (`--gallery` makes it under the run's own lock).
    let _lock = super::audit::lock_existing(&args.dir)?;
    make(&args.dir, &options)
}

/// Makes the gallery of `dir` and reports it (also after `render`/`sweep --gallery`).
pub(crate) fn make(dir: &Path, options: &GalleryOptions) -> anyhow::Result<ExitCode> {
    let g = gallery::build(dir, options)
        .with_context(|| format!("making the gallery of {}", dir.display()))?;
    for e in g.errors.iter().take(SHOWN_ERRORS) {
        eprintln!("not shown: {e}");
    }
    if g.error_count > SHOWN_ERRORS as u64 {
        eprintln!("… and {} more", g.error_count - SHOWN_ERRORS as u64);
    }
    match &g.audit {
        Err(why) => eprintln!("gallery without the audit: {why}"),
        Ok(a) => eprintln!(
            "audited {} variant rows of {} bases: {} flagged, {} lines not audited; {}",
            a.rows,
            a.bases,
            a.flagged,
            a.error_count,
            dir.join(crate::audit::AUDIT_MD).display()
        ),
    }
    eprintln!(
        "gallery of {} images of {} bases ({} thumbnails, {} rows or images not shown): {}",
        g.rows,
        g.bases,
        g.thumbs,
        g.error_count,
        g.index.display()
    );
    Ok(match g.error_count {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// `--gallery` on `render`/`sweep`: the gallery of the finished run in `dir`; the
/// exit status is the run's unless the run succeeded and the gallery did not.
/// `problems`: the run's input when it was a Problems file (for the audit).
pub(crate) fn after_run(
    wanted: bool,
    dir: &Path,
    problems: Option<&Path>,
    code: ExitCode,
) -> anyhow::Result<ExitCode> {
    if !wanted {
        return Ok(code);
    }
    let options = GalleryOptions {
        problems: problems.map(Path::to_path_buf),
        ..GalleryOptions::default()
    };
    let gallery = make(dir, &options)?;
    Ok(if code == ExitCode::SUCCESS {
        gallery
    } else {
        code
    })
}
