//! The audit's files: `audit.jsonl` (one row per variant, in manifest order,
//! `schemas/audit.schema.json`), streamed as rows are audited, and `audit.md` (per
//! variant value: rows, rows with each kind of change, rows flagged; the flagged
//! rows and the lines not audited, each linked to its base's page in the run's
//! gallery), both written atomically.

use super::summary::LISTED_FLAGGED;
use super::{Audit, AuditRow};
use crate::html::{escape, page_name, url_path};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use crate::variants::Change;
use std::fmt::Write as _;
use std::io::Write as _;

pub(crate) const AUDIT_JSONL: &str = "audit.jsonl";
pub(crate) const AUDIT_MD: &str = "audit.md";

/// The gallery's directory in the run directory (`crate::gallery::GALLERY_DIR`).
pub(super) const GALLERY: &str = "gallery";

/// Where a base's page is in the run's gallery, from the run directory
/// (`crate::gallery` writes it there).
pub(crate) fn gallery_page(base_id: &str) -> String {
    format!("{GALLERY}/bases/{}", page_name(base_id))
}

/// `audit.jsonl` being written: committed by [`RowsFile::commit`], gone if dropped.
pub(super) struct RowsFile {
    file: AtomicFile,
}

impl RowsFile {
    pub(super) fn create(out: &Dir) -> std::io::Result<RowsFile> {
        Ok(RowsFile {
            file: AtomicFile::create_in(out, AUDIT_JSONL)?,
        })
    }

    pub(super) fn push(&mut self, row: &AuditRow) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.file, row)?;
        self.file.write_all(b"\n")
    }

    pub(super) fn commit(self) -> std::io::Result<()> {
        self.file.commit(false)
    }
}

/// How `audit.md` links rows to the run's gallery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Links {
    /// `audit.md` is not where it can reach the run's gallery by a relative link.
    None,
    /// The run directory as seen from `audit.md` (`""` when it is there), and
    /// whether the gallery exists (or is being made) there.
    Gallery { run: String, exists: bool },
}

/// The kinds of change any row has, in `Change::ALL` order.
pub(crate) fn columns(audit: &Audit) -> Vec<Change> {
    Change::ALL
        .into_iter()
        .filter(|c| audit.groups.iter().any(|g| g.changes.contains_key(c)))
        .collect()
}

/// Writes `audit.md` into `out`, with a line on the run's provenance (from its run
/// record) under the heading when there is one.
pub(super) fn write_markdown(
    audit: &Audit,
    out: &Dir,
    links: &Links,
    run: Option<&str>,
) -> std::io::Result<()> {
    let mut md = markdown(audit, links);
    if let Some(run) = run {
        let at = md.find("\n\n").map_or(md.len(), |i| i + 2);
        md.insert_str(at, &format!("The run: {run} (`.geomrender.run.json`).\n\n"));
    }
    out.write_atomic(AUDIT_MD, md.as_bytes())
}

/// `audit.md`: what each variant value changed, and what is flagged.
pub(crate) fn markdown(audit: &Audit, links: &Links) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Audit of variants against their bases\n");
    let _ = writeln!(
        md,
        "{} variant rows of {} base images compared; {} flagged ({} with a change their \
         axes do not declare, {} identical to their base); {} manifest lines could not \
         be audited.\n",
        audit.rows,
        audit.bases,
        audit.flagged,
        audit.undeclared,
        audit.identical,
        audit.error_count,
    );
    let _ = writeln!(
        md,
        "Each cell counts the rows of that variant value with that kind of change \
         (`geomrender variants --list` says what each axis may change). Drawings are \
         read from the SVG files, or composed again from the run's Problems.\n"
    );
    let page = |base_id: &str, id: &str| match links {
        Links::None => None,
        Links::Gallery { run, .. } => Some(format!(
            "{}{}#{}",
            url_path(run),
            url_path(&gallery_page(base_id)),
            url_path(id)
        )),
    };
    match links {
        Links::None => md.push_str(
            "This file is not in the run directory, so its rows are not linked to the \
             run's gallery.\n\n",
        ),
        Links::Gallery { exists: true, .. } => md.push_str(
            "Each variant value links to its images in the run's gallery, and each row to \
             its base's page there.\n\n",
        ),
        Links::Gallery { exists: false, .. } => md.push_str(
            "Each variant value and row links to the run's gallery, which this directory \
             does not have yet: `geomrender gallery DIR` makes it (the links lead nowhere \
             until then).\n\n",
        ),
    }
    table(&mut md, audit, links);
    if audit.flagged > 0 {
        let _ = writeln!(md, "\n## Flagged rows\n");
        for r in &audit.flagged_rows {
            let what = if r.identical {
                "identical to its base".to_string()
            } else {
                let names: Vec<&str> = r.undeclared.iter().map(|c| c.name()).collect();
                format!("undeclared: {}", names.join(", "))
            };
            // Ids are A–Z a–z 0–9 . _ - (the manifest reader refuses others).
            match page(&r.base_id, &r.id) {
                Some(to) => {
                    let _ = writeln!(md, "- [`{}`]({to}): {what}", r.id);
                }
                None => {
                    let _ = writeln!(md, "- `{}`: {what}", r.id);
                }
            }
        }
        if audit.flagged > audit.flagged_rows.len() as u64 {
            let _ = writeln!(
                md,
                "- … and {} more (the first {LISTED_FLAGGED} are listed; all are in audit.jsonl)",
                audit.flagged - audit.flagged_rows.len() as u64
            );
        }
    }
    if audit.error_count > 0 {
        let _ = writeln!(md, "\n## Lines not audited\n");
        for e in audit.errors.iter().take(50) {
            // Its reason quotes the input (Markdown passes raw HTML through).
            let _ = writeln!(md, "- {}", escape(&e.to_string()));
        }
        if audit.error_count > 50 {
            let _ = writeln!(md, "- … and {} more", audit.error_count - 50);
        }
    }
    md
}

/// The table of variant values: rows, flagged, then rows per kind of change.
fn table(md: &mut String, audit: &Audit, links: &Links) {
    let cols = columns(audit);
    let _ = write!(md, "| variant | rows | undeclared | identical |");
    for c in &cols {
        let _ = write!(md, " {} |", c.name());
    }
    let _ = write!(md, "\n|---|---:|---:|---:|");
    for _ in &cols {
        md.push_str("---:|");
    }
    md.push('\n');
    for g in &audit.groups {
        // The value's images in the gallery's index, filtered by the URL.
        let axis = g.label.split('=').next().unwrap_or_default();
        let cell = match links {
            Links::None => format!("`{}`", g.label),
            Links::Gallery { run, .. } => format!(
                "[`{}`]({}{GALLERY}/index.html#axis={}&value={})",
                g.label,
                url_path(run),
                url_path(axis),
                url_path(&g.label)
            ),
        };
        let _ = write!(
            md,
            "| {cell} | {} | {} | {} |",
            g.rows, g.undeclared, g.identical
        );
        for c in &cols {
            let _ = write!(md, " {} |", g.changes.get(c).copied().unwrap_or(0));
        }
        md.push('\n');
    }
}
