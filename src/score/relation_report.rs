//! GeomRel's measures (§3.1) on relation items: accuracy per relation, domain, subset
//! and mode — each cell a full report [`Row`] (Wilson interval, and for a variant the
//! paired flips against the base images, exact McNemar, Holm across the axis's values
//! within the group, bootstrap interval of Δ) — and precision, recall and F1 of the
//! "Cannot be inferred" class per (model, axis, value). Items without relation keys
//! (GeomVerse rows) are in none of these, so a report without relation items has
//! none of them.
//!
//! The "Cannot be inferred" class counts an item as the accuracy does under the
//! report's missing policy: a scored prediction that names no option, or names
//! another, is an answer other than "Cannot be inferred"; a missing prediction is
//! left out (`exclude`) or counts as such an answer (`wrong`). Precision is over the
//! counted items answered "Cannot be inferred", recall over the counted items whose
//! answer it is, F1 = 2·TP / (answered + gold); each is null where its denominator
//! is 0.

use super::MissingPolicy;
use super::cascade::Extracted;
use super::join::Verdict;
use super::manifest::{Label, ManifestItem};
use super::relations::{ItemRelation, is_cannot_be_inferred};
use super::stats::{Z_95, wilson};
use super::tally::{Layout, Tally, TallyRow, counted, holm_per_axis, make_row_seeded, ratio};
use crate::generate::relations::{Domain, RELATIONS};
use crate::generate::relations::{Mode, Subset};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// One cell of a relation breakdown: the [`TallyRow`] of the items of one group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairedGroupRow {
    #[serde(flatten)]
    pub row: TallyRow,
    /// The relation, domain, subset or mode.
    pub group: String,
}

/// Precision, recall and F1 of the "Cannot be inferred" class for one model on one
/// (axis, value).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CannotInferRow {
    pub model: String,
    pub axis: String,
    pub value: String,
    /// Relation items counted (as `n` of the accuracy rows).
    pub n: u64,
    /// Base problems of those items.
    pub bases: u64,
    /// Of those, items whose answer is "Cannot be inferred".
    pub gold: u64,
    /// Of those, items answered "Cannot be inferred".
    pub predicted: u64,
    /// Items both.
    pub true_positive: u64,
    /// `true_positive / predicted`; null when nothing was answered so.
    pub precision: Option<f64>,
    pub precision_ci_low: Option<f64>,
    pub precision_ci_high: Option<f64>,
    /// `true_positive / gold`; null when no item has that answer.
    pub recall: Option<f64>,
    pub recall_ci_low: Option<f64>,
    pub recall_ci_high: Option<f64>,
    /// `2 · true_positive / (predicted + gold)`; null when both are 0.
    pub f1: Option<f64>,
}

/// The four ways relation items are grouped, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Dimension {
    Relation,
    Domain,
    Subset,
    Mode,
}

impl Dimension {
    pub(super) const ALL: [Dimension; 4] = [
        Dimension::Relation,
        Dimension::Domain,
        Dimension::Subset,
        Dimension::Mode,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            Dimension::Relation => "relation",
            Dimension::Domain => "domain",
            Dimension::Subset => "subset",
            Dimension::Mode => "mode",
        }
    }

    /// An item's group: its rank in report order (the pool's table order for
    /// relations) and its name.
    pub(super) fn group(self, r: &ItemRelation) -> (usize, &'static str) {
        let rank = |found: Option<usize>| found.unwrap_or(usize::MAX);
        match self {
            Dimension::Relation => (
                rank(RELATIONS.iter().position(|p| p.name == r.relation)),
                r.relation,
            ),
            Dimension::Domain => (
                rank(
                    [Domain::Line, Domain::Angle, Domain::Shape]
                        .iter()
                        .position(|d| *d == r.domain),
                ),
                r.domain.name(),
            ),
            Dimension::Subset => (
                rank(Subset::ALL.iter().position(|s| *s == r.subset)),
                r.subset.name(),
            ),
            Dimension::Mode => (
                rank(Mode::ALL.iter().position(|m| *m == r.mode)),
                r.mode.name(),
            ),
        }
    }
}

/// "Cannot be inferred" counts of one (model, axis, value).
#[derive(Clone, Debug, Default)]
struct ClassCounts {
    n: u64,
    /// The bases of the counted items, by [`Layout::base_index`].
    bases: HashSet<u32>,
    gold: u64,
    predicted: u64,
    true_positive: u64,
}

/// The relation measures of every model, filled one model at a time.
#[derive(Default)]
pub(super) struct RelationTallies {
    /// Per dimension, in [`Dimension::ALL`] order.
    breakdowns: [Vec<PairedGroupRow>; 4],
    cannot_be_inferred: Vec<CannotInferRow>,
}

/// The finished relation measures, each empty without relation items.
pub(super) struct RelationReport {
    pub relation: Vec<PairedGroupRow>,
    pub domain: Vec<PairedGroupRow>,
    pub subset: Vec<PairedGroupRow>,
    pub mode: Vec<PairedGroupRow>,
    pub cannot_be_inferred: Vec<CannotInferRow>,
}

/// The relation items of `items` that `scope` marks, with their index.
fn related<'a>(
    items: &'a [ManifestItem],
    scope: &'a [bool],
) -> impl Iterator<Item = (usize, &'a ItemRelation)> {
    (items.iter().enumerate())
        .filter(|(i, _)| scope[*i])
        .filter_map(|(i, it)| Some((i, it.relation.as_ref()?)))
}

impl RelationTallies {
    /// Adds one model's breakdown cells and "Cannot be inferred" rows over the items
    /// `scope` marks.
    pub(super) fn add_model(
        &mut self,
        model: &str,
        layout: &Layout<'_>,
        items: &[ManifestItem],
        verdicts: &[Option<Verdict>],
        policy: MissingPolicy,
        scope: &[bool],
    ) {
        for (d, out) in Dimension::ALL.into_iter().zip(&mut self.breakdowns) {
            out.extend(breakdown(d, model, layout, items, verdicts, policy, scope));
        }
        let mut classes: BTreeMap<usize, ClassCounts> = BTreeMap::new();
        for (i, _) in related(items, scope) {
            let c = classes.entry(layout.slot[i]).or_default();
            let v = verdicts[i].as_ref();
            let Label::Choice { index, choices } = &items[i].label else {
                continue;
            };
            if counted(v, policy).is_none() {
                continue;
            }
            let gold = is_cannot_be_inferred(choices, *index);
            let predicted = matches!(v.and_then(|v| v.answer),
                Some(Extracted::Choice(k)) if is_cannot_be_inferred(choices, k));
            c.n += 1;
            c.bases.insert(layout.base_index[i]);
            c.gold += u64::from(gold);
            c.predicted += u64::from(predicted);
            c.true_positive += u64::from(gold && predicted);
        }
        for (slot, c) in classes {
            let key = &layout.keys[slot];
            self.cannot_be_inferred
                .push(class_row(model, &key.axis, key.value_label(), c));
        }
    }

    pub(super) fn finish(self) -> RelationReport {
        let [relation, domain, subset, mode] = self.breakdowns;
        RelationReport {
            relation,
            domain,
            subset,
            mode,
            cannot_be_inferred: self.cannot_be_inferred,
        }
    }
}

/// One model's cells of one dimension: groups in order, within a group the rows in
/// report order, Holm-adjusted within (group, axis).
fn breakdown(
    d: Dimension,
    model: &str,
    layout: &Layout<'_>,
    items: &[ManifestItem],
    verdicts: &[Option<Verdict>],
    policy: MissingPolicy,
    scope: &[bool],
) -> Vec<PairedGroupRow> {
    let mut cells: BTreeMap<((usize, &str), usize), Tally> = BTreeMap::new();
    for (i, r) in related(items, scope) {
        let cell = cells.entry((d.group(r), layout.slot[i])).or_default();
        cell.add(i, layout, items, verdicts, policy);
    }
    let mut out = Vec::new();
    let mut group_rows: Vec<TallyRow> = Vec::new();
    let mut cells = cells.into_iter().peekable();
    while let Some((((rank, group), slot), tally)) = cells.next() {
        let key = &layout.keys[slot];
        // Seeded by the cell itself, as a row is.
        let seed = format!(
            "{model}\n{}\n{}\n{}\n{group}",
            key.axis,
            key.value_label(),
            d.name()
        );
        group_rows.push(make_row_seeded(model, key, &tally, &seed));
        if cells
            .peek()
            .is_none_or(|((next, _), _)| *next != (rank, group))
        {
            holm_per_axis(&mut group_rows);
            out.extend(group_rows.drain(..).map(|row| PairedGroupRow {
                row,
                group: group.to_string(),
            }));
        }
    }
    out
}

fn class_row(model: &str, axis: &str, value: String, c: ClassCounts) -> CannotInferRow {
    let precision = wilson(c.true_positive, c.predicted, Z_95);
    let recall = wilson(c.true_positive, c.gold, Z_95);
    CannotInferRow {
        model: model.to_string(),
        axis: axis.to_string(),
        value,
        n: c.n,
        bases: c.bases.len() as u64,
        gold: c.gold,
        predicted: c.predicted,
        true_positive: c.true_positive,
        precision: ratio(c.true_positive, c.predicted),
        precision_ci_low: precision.map(|i| i.low),
        precision_ci_high: precision.map(|i| i.high),
        recall: ratio(c.true_positive, c.gold),
        recall_ci_low: recall.map(|i| i.low),
        recall_ci_high: recall.map(|i| i.high),
        f1: ratio(2 * c.true_positive, c.predicted + c.gold),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(n: u64, gold: u64, predicted: u64, true_positive: u64) -> CannotInferRow {
        let c = ClassCounts {
            n,
            gold,
            predicted,
            true_positive,
            ..ClassCounts::default()
        };
        class_row("m", "base", "base".into(), c)
    }

    #[test]
    fn empty_denominators_are_null_not_nan() {
        let r = counts(5, 0, 0, 0);
        assert_eq!((r.precision, r.recall, r.f1), (None, None, None));
        assert_eq!((r.precision_ci_low, r.recall_ci_high), (None, None));
        // Nothing answered so, but some gold: recall and F1 are 0, precision null.
        let r = counts(5, 2, 0, 0);
        assert_eq!((r.precision, r.recall, r.f1), (None, Some(0.0), Some(0.0)));
    }

    #[test]
    fn f1_is_the_harmonic_mean() {
        // P = 3/4, R = 3/6: F1 = 2·0.75·0.5 / 1.25 = 0.6 = 2·3 / (4 + 6).
        let r = counts(20, 6, 4, 3);
        assert_eq!(
            (r.precision, r.recall, r.f1),
            (Some(0.75), Some(0.5), Some(0.6))
        );
    }

    #[test]
    fn groups_follow_the_pool_and_the_enums() {
        let item = |relation, domain, subset, mode| ItemRelation {
            relation,
            domain,
            subset,
            mode,
        };
        let a = item("vertical", Domain::Angle, Subset::Advanced, Mode::Visual);
        let b = item("collinear", Domain::Line, Subset::Basic, Mode::Text);
        for d in Dimension::ALL {
            assert!(d.group(&b) < d.group(&a), "{d:?}");
        }
        assert_eq!(Dimension::Domain.group(&a).1, "angle");
        assert_eq!(Dimension::Mode.group(&a).1, "visual");
    }
}
