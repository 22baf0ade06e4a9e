//! Which bases each variant value was made for. An axis a problem has no such
//! variant of (`unrelated` with no room, `aux` with no line, every semantic axis
//! on a relation item) is made for some bases only, so its rows describe a
//! subset: a comparison across axes is fair only on the bases they share
//! (`score --matched`). This counts, per variant value and kind of base (a
//! GeomVerse problem, a relation item, a "Cannot be inferred" relation item, a
//! Scene), how many bases had it made, not made, skipped as identical to their
//! base, or failed; the run prints it, `done.json` records it and `merge` sums
//! it.

use crate::generate::{Answer, Problem};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The kind of base a count is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bases {
    /// GeomVerse problems.
    Geomverse,
    /// Relation items whose answer is settled.
    Relations,
    /// Relation items answered "Cannot be inferred".
    RelationsCannotBeInferred,
    /// Scene lines (no Problem).
    Scenes,
}

impl Bases {
    /// Every kind, in report order.
    #[cfg(test)]
    pub(crate) const ALL: [Bases; 4] = [
        Bases::Geomverse,
        Bases::Relations,
        Bases::RelationsCannotBeInferred,
        Bases::Scenes,
    ];

    /// The kind of base `p` is.
    pub(crate) fn of(p: &Problem) -> Bases {
        match (p.relation.as_deref(), p.answer) {
            (Some(r), Answer::Choice(l)) if r.indeterminate(l) => Bases::RelationsCannotBeInferred,
            (Some(_), _) => Bases::Relations,
            (None, _) => Bases::Geomverse,
        }
    }

    /// Its name in summaries, `done.json` and tables.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Bases::Geomverse => "geomverse",
            Bases::Relations => "relations",
            Bases::RelationsCannotBeInferred => "relations_cannot_be_inferred",
            Bases::Scenes => "scenes",
        }
    }

    /// Its heading in a table.
    #[cfg(test)]
    fn heading(self) -> &'static str {
        match self {
            Bases::Geomverse => "GeomVerse",
            Bases::Relations => "relations (settled)",
            Bases::RelationsCannotBeInferred => "relations (Cannot be inferred)",
            Bases::Scenes => "scenes",
        }
    }
}

/// What became of one planned variant of one base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantOutcome {
    Made,
    /// The base has no such variant (a row of `skipped.jsonl`).
    NotMade,
    /// Its image and texts would equal its base's (a row of `skipped.jsonl`).
    Identical,
    /// It could not be made (a row of `errors.jsonl`).
    Failed,
}

/// Of the bases a variant value was planned for, how many had it made, not
/// made, skipped as identical, or failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MadeCounts {
    pub bases: u64,
    pub made: u64,
    pub not_made: u64,
    pub identical: u64,
    pub failed: u64,
}

impl MadeCounts {
    fn add(&mut self, o: &MadeCounts) {
        self.bases += o.bases;
        self.made += o.made;
        self.not_made += o.not_made;
        self.identical += o.identical;
        self.failed += o.failed;
    }
}

/// One row: a variant value (as SPEC writes it, `unrelated=1`) over one kind of
/// base.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AvailabilityRow {
    pub variant: String,
    #[serde(rename = "of")]
    pub bases: Bases,
    #[serde(flatten)]
    pub counts: MadeCounts,
}

/// A run's availability, per (variant value, kind of base). Serialised as its
/// rows, in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Vec<AvailabilityRow>", into = "Vec<AvailabilityRow>")]
pub struct Availability {
    counts: BTreeMap<(String, Bases), MadeCounts>,
}

impl From<Vec<AvailabilityRow>> for Availability {
    fn from(rows: Vec<AvailabilityRow>) -> Self {
        let mut a = Availability::default();
        for r in rows {
            a.counts
                .entry((r.variant, r.bases))
                .or_default()
                .add(&r.counts);
        }
        a
    }
}

impl From<Availability> for Vec<AvailabilityRow> {
    fn from(a: Availability) -> Self {
        a.rows()
    }
}

impl Availability {
    /// Counts one base of kind `bases` with what became of each planned variant
    /// (labels as SPEC writes them).
    pub(crate) fn add(&mut self, bases: Bases, outcomes: &[(String, VariantOutcome)]) {
        for (variant, outcome) in outcomes {
            let c = self.counts.entry((variant.clone(), bases)).or_default();
            c.bases += 1;
            match outcome {
                VariantOutcome::Made => c.made += 1,
                VariantOutcome::NotMade => c.not_made += 1,
                VariantOutcome::Identical => c.identical += 1,
                VariantOutcome::Failed => c.failed += 1,
            }
        }
    }

    /// Adds another part's counts (a shard's, at merge).
    pub(crate) fn merge(&mut self, other: &Availability) {
        for (k, c) in &other.counts {
            self.counts.entry(k.clone()).or_default().add(c);
        }
    }

    /// Its rows, by variant value then kind of base.
    pub(crate) fn rows(&self) -> Vec<AvailabilityRow> {
        (self.counts.iter())
            .map(|((variant, bases), counts)| AvailabilityRow {
                variant: variant.clone(),
                bases: *bases,
                counts: *counts,
            })
            .collect()
    }

    /// The variant values not made for every base they were planned for, each
    /// with its kinds of base ("unrelated=1: made for 277 of 300 geomverse, …").
    pub(crate) fn partial(&self) -> Vec<String> {
        let mut by_variant: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        let mut short: Vec<&str> = Vec::new();
        for ((variant, bases), c) in &self.counts {
            if c.made < c.bases {
                short.push(variant);
            }
            by_variant.entry(variant).or_default().push(format!(
                "{} of {} {}",
                c.made,
                c.bases,
                bases.name()
            ));
        }
        short.dedup();
        (short.into_iter())
            .map(|v| format!("{v}: made for {}", by_variant[v].join(", ")))
            .collect()
    }

    /// The table in Markdown: one row per variant value, a column per kind of
    /// base that has any, each cell "made of planned (share)".
    #[cfg(test)]
    pub(crate) fn markdown(&self) -> String {
        let kinds: Vec<Bases> = (Bases::ALL.into_iter())
            .filter(|b| self.counts.keys().any(|(_, k)| k == b))
            .collect();
        let mut out = String::from("| variant |");
        for k in &kinds {
            out.push_str(&format!(" {} |", k.heading()));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(kinds.len()));
        out.push('\n');
        let mut variants: Vec<&str> = self.counts.keys().map(|(v, _)| v.as_str()).collect();
        variants.dedup();
        for v in variants {
            out.push_str(&format!("| `{v}` |"));
            for k in &kinds {
                let cell = match self.counts.get(&(v.to_string(), *k)) {
                    Some(c) if c.bases > 0 => format!(
                        "{} of {} ({:.0} %)",
                        c.made,
                        c.bases,
                        100.0 * c.made as f64 / c.bases as f64
                    ),
                    _ => "–".to_string(),
                };
                out.push_str(&format!(" {cell} |"));
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes(list: &[(&str, VariantOutcome)]) -> Vec<(String, VariantOutcome)> {
        list.iter().map(|(v, o)| (v.to_string(), *o)).collect()
    }

    /// Counts add up per variant and kind; the rows round-trip through JSON (as in
    /// `done.json`); merging two halves is counting the whole.
    #[test]
    fn counts_rows_and_merge() {
        let mut a = Availability::default();
        a.add(
            Bases::Geomverse,
            &outcomes(&[
                ("unrelated=1", VariantOutcome::Made),
                ("aux=solution", VariantOutcome::NotMade),
            ]),
        );
        let mut b = Availability::default();
        b.add(
            Bases::Geomverse,
            &outcomes(&[
                ("unrelated=1", VariantOutcome::NotMade),
                ("aux=solution", VariantOutcome::Made),
            ]),
        );
        b.add(
            Bases::RelationsCannotBeInferred,
            &outcomes(&[
                ("unrelated=1", VariantOutcome::Made),
                ("aux=solution", VariantOutcome::NotMade),
            ]),
        );
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(serde_json::from_str::<Availability>(&json).unwrap(), b);
        a.merge(&b);
        let rows = a.rows();
        assert_eq!(rows.len(), 4);
        let of = |v: &str, k: Bases| {
            rows.iter()
                .find(|r| r.variant == v && r.bases == k)
                .unwrap()
        };
        assert_eq!(
            of("unrelated=1", Bases::Geomverse).counts,
            MadeCounts {
                bases: 2,
                made: 1,
                not_made: 1,
                ..MadeCounts::default()
            }
        );
        assert_eq!(
            of("aux=solution", Bases::RelationsCannotBeInferred)
                .counts
                .made,
            0
        );
        assert_eq!(
            a.partial(),
            [
                "aux=solution: made for 1 of 2 geomverse, 0 of 1 relations_cannot_be_inferred",
                "unrelated=1: made for 1 of 2 geomverse, 1 of 1 relations_cannot_be_inferred",
            ]
        );
        let md = a.markdown();
        assert!(
            md.contains("| `unrelated=1` | 1 of 2 (50 %) | 1 of 1 (100 %) |"),
            "{md}"
        );
    }
}
