//! Per-base consistency: for each model and axis, the share of base problems
//! answered the same way on the base image and on every variant of that axis —
//! right on all of them, or wrong on all of them.
//!
//! "The same way" is the verdict, not the extracted answer. A variant may change the
//! answer itself (a `backward` question asks for another value), and two readings
//! within the tolerance (12.5 and 12.51) are one answer to the marker; the verdict is
//! what every axis keeps comparable. Accuracy and flips say how often a variant
//! changes the outcome; consistency says for how many problems no value of the axis
//! changes it. A problem counts when its base image and every variant of the axis
//! were scored: under `--missing exclude` one missing image leaves it out.

use super::MissingPolicy;
use super::join::Verdict;
use super::manifest::ManifestItem;
use super::stats::{BOOTSTRAP_RESAMPLES, Z_95, wilson};
use super::tally::counted;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One model's consistency on one axis (a grid's `+`-joined axes are one axis).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Consistency {
    pub model: String,
    pub axis: String,
    /// Base problems whose base image and every variant on this axis were scored.
    pub n: u64,
    /// Of those, answered right on all of them or wrong on all of them.
    pub consistent: u64,
    /// Of the consistent ones, right on all of them.
    pub all_right: u64,
    /// `consistent / n`; null when n = 0.
    pub share: Option<f64>,
    /// 95 % Wilson interval of `share`.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// DynaMath's worst-case accuracy: the share of the `n` problems right on the
    /// base image and every variant of the axis (`all_right / n`); on `choices`,
    /// MMBench's CircularEval. Null when n = 0.
    pub worst_case: Option<f64>,
    /// 95 % bootstrap interval of `worst_case`, problems resampled (a base and its
    /// variants are one cluster).
    pub worst_case_low: Option<f64>,
    pub worst_case_high: Option<f64>,
    /// DynaMath's reasoning robustness: `worst_case` over the mean accuracy of the
    /// base and variant rows of those problems. Null when nothing is right.
    pub robustness: Option<f64>,
    /// 95 % bootstrap interval of `robustness`, problems resampled.
    pub robustness_low: Option<f64>,
    pub robustness_high: Option<f64>,
}

/// What one problem's images on one axis said so far.
struct Problem {
    /// The base image's verdict (`None`: not scored).
    base: Option<bool>,
    /// Every variant so far was scored, as was the base.
    known: bool,
    /// Every variant so far had the base's verdict.
    same: bool,
    /// Rows (the base and its variants so far) scored right, of `rows`.
    right: u64,
    rows: u64,
}

/// One model's consistency per axis over the items `scope` marks, axes sorted by name.
pub(super) fn per_axis(
    model: &str,
    items: &[ManifestItem],
    verdicts: &[Option<Verdict>],
    policy: MissingPolicy,
    scope: &[bool],
) -> Vec<Consistency> {
    let base_of: HashMap<&str, usize> = (items.iter().enumerate())
        .filter(|(i, it)| it.is_base() && scope[*i])
        .map(|(i, it)| (it.base_id.as_str(), i))
        .collect();
    let mut axes: BTreeMap<String, HashMap<usize, Problem>> = BTreeMap::new();
    let variants = (items.iter().enumerate()).filter(|(i, it)| !it.is_base() && scope[*i]);
    for (i, item) in variants {
        let Some(&b) = base_of.get(item.base_id.as_str()) else {
            continue;
        };
        let axis = (item.variant.iter())
            .map(|(a, _)| a.as_str())
            .collect::<Vec<_>>()
            .join("+");
        let base = counted(verdicts[b].as_ref(), policy);
        let p = axes.entry(axis).or_default().entry(b).or_insert(Problem {
            base,
            known: base.is_some(),
            same: true,
            right: u64::from(base == Some(true)),
            rows: 1,
        });
        match (p.base, counted(verdicts[i].as_ref(), policy)) {
            (Some(base_ok), Some(ok)) => {
                p.same &= ok == base_ok;
                p.right += u64::from(ok);
                p.rows += 1;
            }
            _ => p.known = false,
        }
    }
    axes.into_iter()
        .map(|(axis, problems)| {
            // In base id order, so the resamples are the same whatever the hashing
            // and the manifest's line order.
            let mut known: Vec<(usize, &Problem)> = problems
                .iter()
                .filter(|(_, p)| p.known)
                .map(|(b, p)| (*b, p))
                .collect();
            known.sort_unstable_by_key(|(b, _)| items[*b].base_id.as_str());
            let clusters: Vec<Cluster> = (known.iter())
                .map(|(_, p)| Cluster {
                    worst: p.same && p.base == Some(true),
                    right: p.right,
                    rows: p.rows,
                })
                .collect();
            let (mut n, mut consistent, mut all_right) = (0, 0, 0);
            for (_, p) in &known {
                n += 1;
                consistent += u64::from(p.same);
                all_right += u64::from(p.same && p.base == Some(true));
            }
            let ci = wilson(consistent, n, Z_95);
            // Seeded by what names the row, as the tally's paired bootstrap is.
            let seed = crate::digest::fingerprint(&format!("{model}\n{axis}")) as u64;
            let boot = worst_case_bootstrap(&clusters, seed);
            let point = worst_case(&clusters);
            Consistency {
                model: model.to_string(),
                axis,
                n,
                consistent,
                all_right,
                share: (n > 0).then(|| consistent as f64 / n as f64),
                ci_low: ci.map(|c| c.low),
                ci_high: ci.map(|c| c.high),
                worst_case: point.map(|p| p.0),
                worst_case_low: boot.map(|b| b.worst_case.0),
                worst_case_high: boot.map(|b| b.worst_case.1),
                robustness: point.and_then(|p| p.1),
                robustness_low: boot.and_then(|b| b.robustness.map(|r| r.0)),
                robustness_high: boot.and_then(|b| b.robustness.map(|r| r.1)),
            }
        })
        .collect()
}

/// One base problem on one axis: right on every row, and how many rows were right.
#[derive(Clone, Copy, Debug)]
struct Cluster {
    worst: bool,
    right: u64,
    rows: u64,
}

/// Worst-case accuracy and reasoning robustness (worst case over mean accuracy;
/// `None` when no row is right) of these problems; `None` for none.
fn worst_case(clusters: &[Cluster]) -> Option<(f64, Option<f64>)> {
    if clusters.is_empty() {
        return None;
    }
    let worst = clusters.iter().filter(|c| c.worst).count() as f64 / clusters.len() as f64;
    let right: u64 = clusters.iter().map(|c| c.right).sum();
    let rows: u64 = clusters.iter().map(|c| c.rows).sum();
    let mean = right as f64 / rows as f64;
    Some((worst, (right > 0).then(|| worst / mean)))
}

/// 95 % percentile intervals of [`worst_case`] over [`BOOTSTRAP_RESAMPLES`]
/// resamples of the problems with replacement (a pinned ChaCha8 stream seeded with
/// `seed`; nearest-rank 2.5 % and 97.5 % quantiles, as `stats::paired_bootstrap`).
/// Robustness's interval leaves out resamples with no row right; it is `None`
/// when more than 2.5 % of them have none.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Intervals {
    worst_case: (f64, f64),
    robustness: Option<(f64, f64)>,
}

fn worst_case_bootstrap(clusters: &[Cluster], seed: u64) -> Option<Intervals> {
    if clusters.is_empty() {
        return None;
    }
    let mut rng = crate::generate::rng::Rng::from_u64(seed, 0x776f_7273_7463_7365);
    let mut worst = Vec::with_capacity(BOOTSTRAP_RESAMPLES as usize);
    let mut robust = Vec::with_capacity(BOOTSTRAP_RESAMPLES as usize);
    let mut sample = Vec::with_capacity(clusters.len());
    for _ in 0..BOOTSTRAP_RESAMPLES {
        sample.clear();
        sample.extend((0..clusters.len()).map(|_| clusters[rng.index(clusters.len())]));
        let (w, r) = worst_case(&sample).expect("a resample of problems is not empty");
        worst.push(w);
        robust.extend(r);
    }
    let interval = |v: &mut Vec<f64>| {
        v.sort_unstable_by(f64::total_cmp);
        let rank = |q: f64| {
            let k = (q * BOOTSTRAP_RESAMPLES as f64).ceil() as usize;
            v[k.clamp(1, v.len()) - 1]
        };
        (rank(0.025), rank(0.975))
    };
    let enough = robust.len() as f64 >= 0.975 * BOOTSTRAP_RESAMPLES as f64;
    Some(Intervals {
        worst_case: interval(&mut worst),
        robustness: enough.then(|| interval(&mut robust)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::cascade::Rule;
    use crate::score::manifest::{Label, VariantValue};

    fn item(id: &str, base: &str, variant: &[(&str, f64)]) -> ManifestItem {
        ManifestItem {
            id: id.into(),
            base_id: base.into(),
            variant: (variant.iter())
                .map(|(a, v)| (a.to_string(), VariantValue::Number(*v)))
                .collect(),
            label: Label::Number(1.0),
            depth: None,
            question_type: None,
            relation: None,
            image: None,
            question: None,
            size: None,
            line: 1,
        }
    }

    fn verdict(correct: bool) -> Option<Verdict> {
        Some(Verdict {
            answer: None,
            rule: Rule::None,
            correct,
        })
    }

    #[test]
    fn a_problem_is_consistent_when_every_variant_of_the_axis_agrees_with_its_base() {
        let items = [
            item("a", "a", &[]),
            item("a8", "a", &[("fontsize", 8.0)]),
            item("a24", "a", &[("fontsize", 24.0)]),
            item("a1", "a", &[("opacity", 1.0)]),
            item("b", "b", &[]),
            item("b8", "b", &[("fontsize", 8.0)]),
            item("b24", "b", &[("fontsize", 24.0)]),
            item("b1", "b", &[("opacity", 1.0)]),
            item("c", "c", &[]),
            item("c8", "c", &[("fontsize", 8.0)]),
            item("c24", "c", &[("fontsize", 24.0)]),
            item("orphan", "z", &[("fontsize", 8.0)]),
        ];
        // a: right everywhere; b: wrong on base and on fontsize 8, right on 24;
        // c: fontsize 24 unanswered.
        let verdicts = [
            verdict(true),
            verdict(true),
            verdict(true),
            verdict(true),
            verdict(false),
            verdict(false),
            verdict(true),
            verdict(false),
            verdict(false),
            verdict(false),
            None,
            verdict(true),
        ];
        let all = vec![true; items.len()];
        let rows = per_axis("m", &items, &verdicts, MissingPolicy::Exclude, &all);
        let got: Vec<(&str, u64, u64, u64)> = rows
            .iter()
            .map(|r| (r.axis.as_str(), r.n, r.consistent, r.all_right))
            .collect();
        assert_eq!(got, [("fontsize", 2, 1, 1), ("opacity", 2, 2, 1)]);
        assert_eq!(rows[0].share, Some(0.5));
        // Worst case: a only. Fontsize rows right: a's 3, b's 1 (b24), of 6, so
        // robustness 0.5 / (4/6); opacity: a's 2 of 4 rows, 0.5 / 0.5.
        assert_eq!(rows[0].worst_case, Some(0.5));
        assert!((rows[0].robustness.unwrap() - 0.75).abs() < 1e-12);
        assert_eq!(rows[1].worst_case, Some(0.5));
        assert!((rows[1].robustness.unwrap() - 1.0).abs() < 1e-12);
        let (lo, hi) = (
            rows[0].worst_case_low.unwrap(),
            rows[0].worst_case_high.unwrap(),
        );
        assert!(lo <= 0.5 && 0.5 <= hi && lo < hi, "{lo} {hi}");
        // Scored as wrong, c's missing variant agrees with its wrong base.
        let rows = per_axis("m", &items, &verdicts, MissingPolicy::Wrong, &all);
        assert_eq!((rows[0].n, rows[0].consistent), (3, 2));
    }

    #[test]
    fn worst_case_intervals_are_seeded_and_cover_the_point() {
        let clusters: Vec<Cluster> = (0..40)
            .map(|i| Cluster {
                worst: i % 3 == 0,
                right: 1 + u64::from(i % 3 == 0) + u64::from(i % 2 == 0),
                rows: 3,
            })
            .collect();
        let (w, r) = worst_case(&clusters).unwrap();
        let b = worst_case_bootstrap(&clusters, 7).unwrap();
        assert_eq!(worst_case_bootstrap(&clusters, 7), Some(b));
        assert_ne!(worst_case_bootstrap(&clusters, 8), Some(b));
        assert!(b.worst_case.0 <= w && w <= b.worst_case.1, "{b:?} {w}");
        let (rl, rh) = b.robustness.unwrap();
        assert!(rl <= r.unwrap() && r.unwrap() <= rh, "{b:?} {r:?}");
        // Nothing right: no robustness; no problems: nothing at all.
        let none = [Cluster {
            worst: false,
            right: 0,
            rows: 2,
        }];
        assert_eq!(worst_case(&none), Some((0.0, None)));
        assert_eq!(worst_case_bootstrap(&none, 1).unwrap().robustness, None);
        assert_eq!(worst_case(&[]), None);
    }
}
