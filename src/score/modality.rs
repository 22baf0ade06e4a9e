//! Does a model's score need the diagram? Per model, from its `modality` rows:
//! `blank_gap`, its accuracy on the base images minus on the blank canvas with the
//! same texts (`modality=blank`), paired per problem, with the row's bootstrap
//! interval and exact McNemar test turned round. Positive: the diagram helps; near
//! zero: the model answers from the words.

use super::tally::TallyRow;
use serde::Serialize;

/// The value of the `modality` axis that draws nothing.
const BLANK: &str = "blank";

/// One model's reliance on the image.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModalityRow {
    pub model: String,
    /// Accuracy on the base images minus on the blank ones, over the problems
    /// scored on both; null when there are none.
    pub blank_gap: Option<f64>,
    /// Paired bootstrap 95 % interval of `blank_gap` (resampling problems).
    pub blank_gap_ci_low: Option<f64>,
    pub blank_gap_ci_high: Option<f64>,
    /// Problems scored on both images.
    pub blank_pairs: u64,
    /// Right on the base image, wrong on the blank one.
    pub right_only_with_diagram: u64,
    /// Wrong on the base image, right on the blank one.
    pub right_only_blank: u64,
    /// Exact McNemar test of those two counts (two-sided).
    pub blank_mcnemar_p: f64,
}

/// A row per model that has a `modality=blank` row, in the rows' order.
pub(super) fn per_model(rows: &[TallyRow]) -> Vec<ModalityRow> {
    rows.iter()
        .filter(|r| r.axis == "modality" && r.value == BLANK)
        .map(|r| ModalityRow {
            model: r.model.clone(),
            blank_gap: r.delta.map(|d| -d),
            blank_gap_ci_low: r.delta_ci_high.map(|d| -d),
            blank_gap_ci_high: r.delta_ci_low.map(|d| -d),
            blank_pairs: r.paired_n,
            right_only_with_diagram: r.flips_to_wrong,
            right_only_blank: r.flips_to_right,
            blank_mcnemar_p: r.mcnemar_p,
        })
        .collect()
}
