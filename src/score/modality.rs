//! Does a model's score need the diagram? Per model, from its `modality` rows:
//! - `blank_gap`: its accuracy on the base images minus on the blank canvas with the
//!   same texts (`modality=blank`), paired per problem, with the row's bootstrap
//!   interval and exact McNemar test turned round;
//! - `vision_gain`: its accuracy on `text-dominant` (every fact in the text, and
//!   the image) minus on `text-only` (the same text, no image), paired per problem,
//!   MathVerse's comparison of what the image adds to a text that already says all.
//!
//! Positive: the image helps; near zero: the model answers from the words.

use super::MissingPolicy;
use super::join::Verdict;
use super::manifest::ManifestItem;
use super::stats::{mcnemar_exact, paired_bootstrap};
use super::tally::{TallyRow, counted};
use serde::Serialize;
use std::collections::BTreeMap;

/// The axis, and its values these figures compare.
const AXIS: &str = "modality";
/// Draws nothing.
const BLANK: &str = "blank";
/// Every fact in the text, with the base's image.
const WITH_IMAGE: &str = "text-dominant";
/// The same text, no image.
const TEXT_ONLY: &str = "text-only";

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
    /// Accuracy on `text-dominant` minus on `text-only`, over the problems scored
    /// on both; null when there are none.
    pub vision_gain: Option<f64>,
    /// Paired bootstrap 95 % interval of `vision_gain` (resampling problems).
    pub vision_gain_ci_low: Option<f64>,
    pub vision_gain_ci_high: Option<f64>,
    /// Problems scored on both `text-dominant` and `text-only`.
    pub vision_pairs: u64,
    /// Right with the image (`text-dominant`), wrong without (`text-only`).
    pub right_only_with_image: u64,
    /// Wrong with the image, right without.
    pub right_only_text_only: u64,
    /// Exact McNemar test of those two counts (two-sided).
    pub vision_mcnemar_p: f64,
}

/// One model's `text-dominant` and `text-only` verdicts, paired per problem.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct VisionPairs {
    /// Whether the model has a scored `text-dominant` or `text-only` item at all.
    pub seen: bool,
    pub pairs: u64,
    pub with_image_only: u64,
    pub text_only_only: u64,
}

/// Pairs one model's `modality=text-dominant` and `modality=text-only` items of
/// the same base problem, among the items `scope` marks, each counted under
/// `policy`.
pub(super) fn vision_pairs(
    items: &[ManifestItem],
    verdicts: &[Option<Verdict>],
    policy: MissingPolicy,
    scope: &[bool],
) -> VisionPairs {
    // Per base problem: (right with the image, right without), as scored.
    let mut by_base: BTreeMap<&str, (Option<bool>, Option<bool>)> = BTreeMap::new();
    let mut out = VisionPairs::default();
    for (i, item) in items.iter().enumerate() {
        let [(axis, value)] = item.variant.as_slice() else {
            continue;
        };
        if axis != AXIS || !scope.get(i).copied().unwrap_or(false) {
            continue;
        }
        let value = value.to_string();
        let with_image = match value.as_str() {
            WITH_IMAGE => true,
            TEXT_ONLY => false,
            _ => continue,
        };
        let Some(ok) = counted(verdicts[i].as_ref(), policy) else {
            continue;
        };
        out.seen = true;
        let slot = by_base.entry(item.base_id.as_str()).or_default();
        match with_image {
            true => slot.0 = Some(ok),
            false => slot.1 = Some(ok),
        }
    }
    for (with, without) in by_base.into_values() {
        if let (Some(with), Some(without)) = (with, without) {
            out.pairs += 1;
            out.with_image_only += u64::from(with && !without);
            out.text_only_only += u64::from(!with && without);
        }
    }
    out
}

/// A row per model with a `modality=blank` row or `text-dominant`/`text-only`
/// items, in the models' order (`vision[k]` is model `models[k]`'s).
pub(super) fn per_model(
    models: &[String],
    rows: &[TallyRow],
    vision: &[VisionPairs],
) -> Vec<ModalityRow> {
    models
        .iter()
        .zip(vision)
        .filter_map(|(model, v)| {
            let blank =
                (rows.iter()).find(|r| &r.model == model && r.axis == AXIS && r.value == BLANK);
            if blank.is_none() && !v.seen {
                return None;
            }
            // Seeded by the model, as a tally row is by itself.
            let digest = crate::digest::sha256_hex(format!("{model}\nvision_gain").as_bytes());
            let seed = u64::from_str_radix(&digest[..16], 16).unwrap_or(0);
            // paired_bootstrap's "to right" is right on the second image only: here
            // with the image, against text-only as the first.
            let boot = paired_bootstrap(v.text_only_only, v.with_image_only, v.pairs, seed);
            Some(ModalityRow {
                model: model.clone(),
                blank_gap: blank.and_then(|r| r.delta).map(|d| -d),
                blank_gap_ci_low: blank.and_then(|r| r.delta_ci_high).map(|d| -d),
                blank_gap_ci_high: blank.and_then(|r| r.delta_ci_low).map(|d| -d),
                blank_pairs: blank.map_or(0, |r| r.paired_n),
                right_only_with_diagram: blank.map_or(0, |r| r.flips_to_wrong),
                right_only_blank: blank.map_or(0, |r| r.flips_to_right),
                blank_mcnemar_p: blank.map_or(1.0, |r| r.mcnemar_p),
                vision_gain: (v.pairs > 0)
                    .then(|| (v.with_image_only as f64 - v.text_only_only as f64) / v.pairs as f64),
                vision_gain_ci_low: boot.map(|b| b.0),
                vision_gain_ci_high: boot.map(|b| b.1),
                vision_pairs: v.pairs,
                right_only_with_image: v.with_image_only,
                right_only_text_only: v.text_only_only,
                vision_mcnemar_p: mcnemar_exact(v.with_image_only, v.text_only_only),
            })
        })
        .collect()
}
