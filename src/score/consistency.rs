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
use super::stats::{Z_95, wilson};
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
}

/// What one problem's images on one axis said so far.
struct Problem {
    /// The base image's verdict (`None`: not scored).
    base: Option<bool>,
    /// Every variant so far was scored, as was the base.
    known: bool,
    /// Every variant so far had the base's verdict.
    same: bool,
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
        });
        match (p.base, counted(verdicts[i].as_ref(), policy)) {
            (Some(base_ok), Some(ok)) => p.same &= ok == base_ok,
            _ => p.known = false,
        }
    }
    axes.into_iter()
        .map(|(axis, problems)| {
            let known = problems.values().filter(|p| p.known);
            let (mut n, mut consistent, mut all_right) = (0, 0, 0);
            for p in known {
                n += 1;
                consistent += u64::from(p.same);
                all_right += u64::from(p.same && p.base == Some(true));
            }
            let ci = wilson(consistent, n, Z_95);
            Consistency {
                model: model.to_string(),
                axis,
                n,
                consistent,
                all_right,
                share: (n > 0).then(|| consistent as f64 / n as f64),
                ci_low: ci.map(|c| c.low),
                ci_high: ci.map(|c| c.high),
            }
        })
        .collect()
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
        // Scored as wrong, c's missing variant agrees with its wrong base.
        let rows = per_axis("m", &items, &verdicts, MissingPolicy::Wrong, &all);
        assert_eq!((rows[0].n, rows[0].consistent), (3, 2));
    }
}
