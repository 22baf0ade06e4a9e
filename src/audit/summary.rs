//! What the audit keeps of its rows while they stream to `audit.jsonl`: counts per
//! variant value, the first flagged rows and the first errors (with the totals),
//! so that its memory holds one entry per variant value, not per row.

use super::{Audit, AuditGroup, AuditLineError, AuditRow, Flagged};
use crate::variants::AXES;
use std::collections::HashMap;

/// Flagged rows listed by name (`audit.md`, the command's output); the rest counted.
pub(crate) const LISTED_FLAGGED: usize = 200;
/// Lines not audited that are kept with their reason; the rest counted.
pub(crate) const LISTED_ERRORS: usize = 100;

/// A group's place in the table: the first axis's position in the axis table, its
/// first value when it is a number.
type Order = (usize, Option<f64>);

#[derive(Default)]
pub(super) struct Summary {
    audit: Audit,
    groups: HashMap<String, (Order, AuditGroup)>,
}

impl Summary {
    pub(super) fn add_row(&mut self, r: &AuditRow) {
        let a = &mut self.audit;
        a.rows += 1;
        let flagged = r.flagged();
        a.undeclared += u64::from(!r.undeclared.is_empty());
        a.identical += u64::from(r.identical);
        a.flagged += u64::from(flagged);
        if flagged && a.flagged_rows.len() < LISTED_FLAGGED {
            a.flagged_rows.push(Flagged {
                id: r.id.clone(),
                base_id: r.base_id.clone(),
                identical: r.identical,
                undeclared: r.undeclared.clone(),
            });
        }
        let (_, g) = (self.groups.entry(r.label.clone())).or_insert_with(|| {
            let (name, value) =
                (r.variant.iter().next()).map_or(("", None), |(k, v)| (k.as_str(), v.as_f64()));
            let pos = (AXES.iter().position(|a| a.name == name)).unwrap_or(usize::MAX);
            let group = AuditGroup {
                label: r.label.clone(),
                ..AuditGroup::default()
            };
            ((pos, value), group)
        });
        g.rows += 1;
        for c in r.changes.keys() {
            *g.changes.entry(*c).or_insert(0) += 1;
        }
        g.undeclared += u64::from(!r.undeclared.is_empty());
        g.identical += u64::from(r.identical);
    }

    pub(super) fn add_error(&mut self, e: AuditLineError) {
        self.audit.error_count += 1;
        if self.audit.errors.len() < LISTED_ERRORS {
            self.audit.errors.push(e);
        }
    }

    /// The audit: groups in table order of their first axis, then by first value
    /// (numbers by size), then by label.
    pub(super) fn finish(mut self, bases: u64) -> Audit {
        let mut groups: Vec<(Order, AuditGroup)> = self.groups.into_values().collect();
        groups.sort_by(|(a, ga), (b, gb)| {
            (a.0.cmp(&b.0))
                .then((a.1.unwrap_or(f64::INFINITY)).total_cmp(&b.1.unwrap_or(f64::INFINITY)))
                .then(ga.label.cmp(&gb.label))
        });
        self.audit.groups = groups.into_iter().map(|(_, g)| g).collect();
        self.audit.bases = bases;
        self.audit
    }
}
