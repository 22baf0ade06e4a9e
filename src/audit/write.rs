//! The audit's files: `audit.jsonl` (one row per variant, `schemas/audit.schema.json`)
//! and `audit.md` (per variant value: rows, rows with each kind of change, rows
//! flagged), written atomically.

use super::Audit;
use crate::output::atomic::write_atomic;
use crate::variants::Change;
use std::fmt::Write as _;
use std::path::Path;

pub const AUDIT_JSONL: &str = "audit.jsonl";
pub const AUDIT_MD: &str = "audit.md";

/// Writes `audit.jsonl` and `audit.md` into `dir`.
pub fn write_audit(audit: &Audit, dir: &Path) -> std::io::Result<()> {
    let mut jsonl = Vec::new();
    for row in &audit.rows {
        serde_json::to_writer(&mut jsonl, row)?;
        jsonl.push(b'\n');
    }
    write_atomic(&dir.join(AUDIT_JSONL), &jsonl)?;
    write_atomic(&dir.join(AUDIT_MD), markdown(audit).as_bytes())
}

/// The kinds of change any row has, in [`Change::ALL`] order.
pub fn columns(audit: &Audit) -> Vec<Change> {
    Change::ALL
        .into_iter()
        .filter(|c| audit.groups.iter().any(|g| g.changes.contains_key(c)))
        .collect()
}

/// `audit.md`: what each variant value changed, and what is flagged.
pub fn markdown(audit: &Audit) -> String {
    let mut md = String::new();
    let flagged = audit.flagged();
    let _ = writeln!(md, "# Audit of variants against their bases\n");
    let _ = writeln!(
        md,
        "{} variant rows of {} base images compared; {} flagged ({} with a change their \
         axes do not declare, {} identical to their base); {} manifest lines could not \
         be audited.\n",
        audit.rows.len(),
        audit.bases,
        flagged,
        audit
            .rows
            .iter()
            .filter(|r| !r.undeclared.is_empty())
            .count(),
        audit.rows.iter().filter(|r| r.identical).count(),
        audit.errors.len(),
    );
    let _ = writeln!(
        md,
        "Each cell counts the rows of that variant value with that kind of change \
         (`geomrender variants --list` says what each axis may change). Drawings are \
         read from the SVG files, or composed again from the run's Problems.\n"
    );
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
        let _ = write!(
            md,
            "| `{}` | {} | {} | {} |",
            g.label, g.rows, g.undeclared, g.identical
        );
        for c in &cols {
            let _ = write!(md, " {} |", g.changes.get(c).copied().unwrap_or(0));
        }
        md.push('\n');
    }
    let flagged_rows: Vec<_> = audit
        .rows
        .iter()
        .filter(|r| r.identical || !r.undeclared.is_empty())
        .collect();
    if !flagged_rows.is_empty() {
        let _ = writeln!(md, "\n## Flagged rows\n");
        for r in flagged_rows.iter().take(200) {
            let what = if r.identical {
                "identical to its base".to_string()
            } else {
                let names: Vec<&str> = r.undeclared.iter().map(|c| c.name()).collect();
                format!("undeclared: {}", names.join(", "))
            };
            let _ = writeln!(md, "- `{}`: {what}", r.id);
        }
        if flagged_rows.len() > 200 {
            let _ = writeln!(
                md,
                "- … and {} more (all in audit.jsonl)",
                flagged_rows.len() - 200
            );
        }
    }
    if !audit.errors.is_empty() {
        let _ = writeln!(md, "\n## Lines not audited\n");
        for e in audit.errors.iter().take(50) {
            // Its reason quotes the input (Markdown passes raw HTML through).
            let _ = writeln!(md, "- {}", crate::html::escape(&e.to_string()));
        }
    }
    md
}
