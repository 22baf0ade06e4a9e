//! The report: accuracy with Wilson intervals per (model, axis, value), the paired
//! comparison of every variant with its base image, breakdowns by depth and question
//! type (and, for GeomRel relation items, by relation, domain, subset and mode, with
//! the "Cannot be inferred" class: [`super::relation_report`]), and the input
//! bookkeeping. Field meanings are published in
//! `schemas/report.schema.json`; everything is sorted so equal inputs give equal bytes,
//! and rows, breakdowns and model summaries do not depend on the order of input lines.
//!
//! A row's axis is the variant's axis name; a grid variant (`{"fontsize": 8,
//! "opacity": 0.25}`) is its own axis named by the axis names sorted and joined with
//! `+` (`fontsize+opacity`), its value the values in the same order (`8+0.25`). Base
//! images form the row with axis and value `base`. Numbers print without a trailing
//! `.0` (24, 0.5).

use super::accuracy::Tolerance;
use super::base_set::{BaseSet, base_set};
use super::blind::{Baselines, baselines};
use super::consistency::{Consistency, per_axis};
use super::error::RejectedLine;
use super::join::{Scored, Verdict};
use super::manifest::{ManifestItem, VariantValue};
use super::relation_report::{CannotInferRow, PairedGroupRow, RelationTallies};
use super::stats::{Z_95, wilson};
use super::tally::{Key, Layout, Tally, TallyRow, make_rows, ratio, tally_model};
use super::{MissingPolicy, ScoreOptions};
use serde::Serialize;
use std::collections::BTreeMap;

/// Identifies this report format.
pub(crate) const REPORT_FORMAT: &str = "geomrender-score-report/1";

/// The whole report (`report.json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub format: &'static str,
    pub tolerance: Tolerance,
    pub missing_policy: MissingPolicy,
    /// Confidence level of `ci_low`/`ci_high` (Wilson score interval).
    pub confidence: f64,
    pub inputs: Inputs,
    /// The provenance of the run that wrote the manifest, from its run record beside
    /// it (`score_paths`); none for a merged run or a manifest without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<crate::output::record::Provenance>,
    pub counts: ItemCounts,
    /// Which base problems the rows, breakdowns and consistency count (`BaseSet`).
    pub base_set: BaseSet,
    pub models: Vec<ModelSummary>,
    pub axes: Vec<ReportAxis>,
    pub rows: Vec<TallyRow>,
    /// Per model and axis: base problems answered the same way on the base image
    /// and every variant of the axis (`Consistency`).
    pub consistency: Vec<Consistency>,
    /// Per model: how much its score needs the diagram (`ModalityRow`). Absent
    /// without `modality=blank` images.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modality: Vec<super::ModalityRow>,
    /// Per model: accuracy per probe type, and the probes joined with the reasoning
    /// verdict on the same image (`Perception`). Absent without `probes.jsonl`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub perception: Vec<Perception>,
    /// The run's variants that were not drawn, per value and reason (from
    /// `skipped.jsonl` beside the manifest; `super::read_not_drawn`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_drawn: Vec<super::NotDrawn>,
    pub breakdowns: Breakdowns,
    /// Per (model, axis, value) over GeomRel relation items: precision, recall and
    /// F1 of the "Cannot be inferred" class. Absent without relation items.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cannot_be_inferred: Vec<CannotInferRow>,
    /// What a model could get without the image, from the manifest alone (`Baselines`).
    pub baselines: Baselines,
    /// Every rejected input line, sorted by file and line.
    pub errors: Vec<RejectedLine>,
}

/// One model's perception block.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Perception {
    pub model: String,
    /// Accuracy per probe type (`group`) on the images of each variant (`axis`,
    /// `value`), and on all of them (`all`, `all`); `bases` counts the base problems
    /// of the images probed.
    pub probes: Vec<GroupRow>,
    /// Images whose reasoning item and every probe were answered: the 2×2's total.
    pub images: u64,
    /// Reasoning right, every probe right.
    pub right_seen: u64,
    /// Reasoning right, some probe wrong.
    pub right_misread: u64,
    /// Reasoning wrong, every probe right.
    pub wrong_seen: u64,
    /// Reasoning wrong, some probe wrong.
    pub wrong_misread: u64,
    /// Reasoning accuracy on the images whose probes were all right...
    pub accuracy_when_seen: Option<f64>,
    /// ...and on those with a probe wrong.
    pub accuracy_when_misread: Option<f64>,
    /// Fisher's exact test (two-sided) of reasoning and perception being independent.
    pub fisher_p: f64,
}

/// Where the numbers came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Inputs {
    pub manifest: ScoredFile,
    pub predictions: Vec<ScoredFile>,
}

/// One input file: its name as given, its SHA-256, and how many lines were used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoredFile {
    pub path: String,
    pub sha256: String,
    /// Non-blank lines.
    pub lines: usize,
    /// Lines accepted (items or predictions).
    pub accepted: usize,
}

/// Totals over the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemCounts {
    pub items: usize,
    /// Items with choices (multiple choice, such as GeomRel relation items); the
    /// others have a numeric answer.
    pub multiple_choice: usize,
    pub base_items: usize,
    /// Variant items whose `base_id` has no base image in the manifest: scored, never paired.
    pub variants_without_base: usize,
    pub predictions: usize,
    /// (model, item) pairs with no prediction, summed over models.
    pub missing: usize,
    /// Prediction lines whose id is not in the manifest.
    pub unknown_ids: usize,
    /// Prediction lines repeating a (model, id) pair; the first is scored.
    pub duplicate_ids: usize,
    /// Manifest or prediction lines rejected as malformed.
    pub malformed_lines: usize,
}

/// Per model: coverage and which extraction rules decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelSummary {
    pub model: String,
    pub predictions: usize,
    pub missing: usize,
    /// Predictions from which no answer could be read, scored not correct: rules
    /// `none`, `refusal` (unless it read a "Cannot be inferred" option), `hedged`
    /// and `too_long` (the `rules` counts tell them apart).
    pub unparsed: usize,
    /// How many predictions each rule decided, by rule name.
    pub rules: BTreeMap<&'static str, usize>,
    /// Ids with no prediction from this model, sorted.
    pub missing_ids: Vec<String>,
}

/// One variant axis (or `+`-joined grid axes) and its values in plot order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportAxis {
    pub axis: String,
    pub values: Vec<String>,
    /// All values are single numbers (plotted on a numeric x axis).
    pub numeric: bool,
}

/// Accuracy per (model, axis, value) split by a problem parameter. The relation
/// breakdowns cover GeomRel relation items only and are absent without them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Breakdowns {
    pub depth: Vec<GroupRow>,
    pub question_type: Vec<GroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub relation: Vec<PairedGroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub domain: Vec<PairedGroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subset: Vec<PairedGroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mode: Vec<PairedGroupRow>,
}

/// One cell of a breakdown; `group` is "unknown" when the parameter is absent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupRow {
    pub model: String,
    pub axis: String,
    pub value: String,
    pub group: String,
    pub n: u64,
    /// Base problems of those items.
    pub bases: u64,
    pub correct: u64,
    pub accuracy: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

/// Everything the report needs besides the scored table.
pub(super) struct BuildInput<'a> {
    pub items: &'a [ManifestItem],
    pub scored: &'a Scored,
    pub inputs: Inputs,
    pub errors: Vec<RejectedLine>,
    pub predictions: usize,
}

/// Aggregates scored predictions into the report.
pub(super) fn build_report(input: BuildInput<'_>, opts: &ScoreOptions) -> Report {
    let BuildInput {
        items,
        scored,
        inputs,
        mut errors,
        predictions,
    } = input;
    let layout = Layout::new(items);
    let base_set = base_set(items, &layout, &scored.verdicts, opts.missing, opts.matched);
    let scope = &base_set.in_set;
    let mut rows = Vec::new();
    let mut depth = Vec::new();
    let mut question_type = Vec::new();
    let mut models = Vec::new();
    let mut consistency = Vec::new();
    let mut relations = RelationTallies::default();
    let mut vision = Vec::new();
    for (model, verdicts) in scored.models.iter().zip(&scored.verdicts) {
        relations.add_model(model, &layout, items, verdicts, opts.missing, scope);
        vision.push(super::modality::vision_pairs(
            items,
            verdicts,
            opts.missing,
            scope,
        ));
        consistency.extend(per_axis(model, items, verdicts, opts.missing, scope));
        let t = tally_model(&layout, items, verdicts, opts.missing, scope);
        rows.extend(make_rows(model, &layout, &t.rows));
        for (map, out) in [(t.depth, &mut depth), (t.question_type, &mut question_type)] {
            for ((slot, group), tally) in map {
                out.push(make_group_row(
                    model,
                    &layout.keys[slot],
                    group.label(),
                    &tally,
                ));
            }
        }
        models.push(model_summary(model, items, verdicts));
    }
    errors.sort();
    let counts = counts(items, &layout, &models, &errors, predictions);
    let relations = relations.finish();
    let baselines = baselines(items, &layout, &opts.tolerance, scope);
    Report {
        format: REPORT_FORMAT,
        tolerance: opts.tolerance,
        missing_policy: opts.missing,
        confidence: 0.95,
        inputs,
        run: None,
        counts,
        base_set,
        models,
        axes: axes(&layout.keys),
        modality: super::modality::per_model(&scored.models, &rows, &vision),
        perception: Vec::new(),
        rows,
        consistency,
        not_drawn: Vec::new(),
        breakdowns: Breakdowns {
            depth,
            question_type,
            relation: relations.relation,
            domain: relations.domain,
            subset: relations.subset,
            mode: relations.mode,
        },
        cannot_be_inferred: relations.cannot_be_inferred,
        baselines,
        errors,
    }
}

fn counts(
    items: &[ManifestItem],
    layout: &Layout<'_>,
    models: &[ModelSummary],
    errors: &[RejectedLine],
    predictions: usize,
) -> ItemCounts {
    use super::error::LineReason as R;
    let count = |f: fn(&RejectedLine) -> bool| errors.iter().filter(|e| f(e)).count();
    ItemCounts {
        items: items.len(),
        multiple_choice: items.iter().filter(|i| i.choices().is_some()).count(),
        base_items: items.iter().filter(|i| i.is_base()).count(),
        variants_without_base: items
            .iter()
            .filter(|i| !i.is_base() && !layout.base_of.contains_key(i.base_id.as_str()))
            .count(),
        predictions,
        missing: models.iter().map(|m| m.missing).sum(),
        unknown_ids: count(|e| matches!(e.reason, R::UnknownId { .. })),
        duplicate_ids: count(|e| matches!(e.reason, R::DuplicatePrediction { .. })),
        malformed_lines: count(|e| {
            !matches!(
                e.reason,
                R::UnknownId { .. } | R::DuplicatePrediction { .. }
            )
        }),
    }
}

fn make_group_row(model: &str, key: &Key, group: String, t: &Tally) -> GroupRow {
    let ci = wilson(t.correct, t.n, Z_95);
    GroupRow {
        model: model.to_string(),
        axis: key.axis.clone(),
        value: key.value_label(),
        group,
        n: t.n,
        bases: t.bases.len() as u64,
        correct: t.correct,
        accuracy: ratio(t.correct, t.n),
        ci_low: ci.map(|c| c.low),
        ci_high: ci.map(|c| c.high),
    }
}

fn model_summary(
    model: &str,
    items: &[ManifestItem],
    verdicts: &[Option<Verdict>],
) -> ModelSummary {
    let mut rules: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut missing_ids = Vec::new();
    for (item, v) in items.iter().zip(verdicts) {
        match v {
            Some(v) => *rules.entry(v.rule.name()).or_default() += 1,
            None => missing_ids.push(item.id.clone()),
        }
    }
    missing_ids.sort();
    let unparsed = verdicts
        .iter()
        .flatten()
        .filter(|v| v.answer.is_none())
        .count();
    ModelSummary {
        model: model.to_string(),
        predictions: verdicts.iter().flatten().count(),
        missing: missing_ids.len(),
        unparsed,
        rules,
        missing_ids,
    }
}

fn axes(keys: &[Key]) -> Vec<ReportAxis> {
    let mut out: Vec<ReportAxis> = Vec::new();
    for k in keys.iter().filter(|k| !k.values.is_empty()) {
        let numeric = k.values.len() == 1 && matches!(k.values[0], VariantValue::Number(_));
        match out.last_mut() {
            Some(a) if a.axis == k.axis => {
                a.values.push(k.value_label());
                a.numeric &= numeric;
            }
            _ => out.push(ReportAxis {
                axis: k.axis.clone(),
                values: vec![k.value_label()],
                numeric,
            }),
        }
    }
    out
}
