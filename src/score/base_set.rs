//! Which base problems a report's rows count: all of them, or only the matched ones
//! (`--matched`).
//!
//! A variant axis is not always made for every base: `opacity` is skipped where it
//! would equal its base, `unrelated` or `aux` only where the problem allows it. Each
//! such row then describes a subset of the problems, often an easier one, and its
//! accuracy is not comparable with the base row's. A base is *matched* when it has
//! an image of every (axis, value) in the manifest, the base image included, and,
//! under [`MissingPolicy::Exclude`], every model has a prediction for each of them:
//! a missing prediction would otherwise drop the image from that model's rows only.
//! Under [`MissingPolicy::Wrong`] a missing prediction is a scored wrong answer, so
//! it leaves no base out. With the matched set, every row of every model counts the
//! same problems, one image of each.

use super::MissingPolicy;
use super::join::Verdict;
use super::manifest::ManifestItem;
use super::tally::Layout;
use serde::Serialize;

/// Which bases the rows count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseSetKind {
    /// Every base problem of the manifest: a row counts whichever bases have its variant.
    #[default]
    All,
    /// Only the matched bases (`--matched`).
    Matched,
}

impl BaseSetKind {
    /// The name report.json and report.md use.
    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        match self {
            BaseSetKind::All => "all",
            BaseSetKind::Matched => "matched",
        }
    }
}

/// The base set of a report (`base_set` in report.json).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BaseSet {
    pub set: BaseSetKind,
    /// Base problems (distinct `base_id`s) whose images the rows count.
    pub bases: u64,
    /// Base problems of the manifest left out of the rows (0 for `all`).
    pub left_out: u64,
    /// (axis, value) conditions a matched base has an image of, the base image included.
    pub conditions: u64,
    /// Base problems with an image of every condition and every prediction they
    /// need: the set `--matched` keeps.
    pub matched: u64,
    /// Base problems without an image of some condition (a variant not made, or no
    /// base image).
    pub lacking_variant: u64,
    /// Base problems with every image, but where some model has no prediction for
    /// one of them (only under `missing_policy` = exclude).
    pub lacking_prediction: u64,
    /// Per item: whether the rows count it.
    #[serde(skip)]
    pub(super) in_set: Vec<bool>,
}

/// The base set of `items` under `matched`, given every model's verdicts.
pub(super) fn base_set(
    items: &[ManifestItem],
    layout: &Layout<'_>,
    verdicts: &[Vec<Option<Verdict>>],
    policy: MissingPolicy,
    matched: bool,
) -> BaseSet {
    let bases = layout.bases;
    // Per base: the conditions it has an image of (each counted once), and whether
    // a model lacks a prediction for one of its images.
    let mut seen = vec![false; layout.keys.len() * bases];
    let mut conditions = vec![0usize; bases];
    let mut lacks_prediction = vec![false; bases];
    for (i, _) in items.iter().enumerate() {
        let b = layout.base_index[i] as usize;
        let cell = &mut seen[b * layout.keys.len() + layout.slot[i]];
        conditions[b] += usize::from(!*cell);
        *cell = true;
        if policy == MissingPolicy::Exclude && verdicts.iter().any(|v| v[i].is_none()) {
            lacks_prediction[b] = true;
        }
    }
    let complete: Vec<bool> = conditions.iter().map(|&c| c == layout.keys.len()).collect();
    let is_matched: Vec<bool> = (complete.iter().zip(&lacks_prediction))
        .map(|(&c, &l)| c && !l)
        .collect();
    let n_matched = is_matched.iter().filter(|&&m| m).count() as u64;
    let in_set = match matched {
        true => (0..items.len())
            .map(|i| is_matched[layout.base_index[i] as usize])
            .collect(),
        false => vec![true; items.len()],
    };
    BaseSet {
        set: if matched {
            BaseSetKind::Matched
        } else {
            BaseSetKind::All
        },
        bases: if matched { n_matched } else { bases as u64 },
        left_out: if matched { bases as u64 - n_matched } else { 0 },
        conditions: layout.keys.len() as u64,
        matched: n_matched,
        lacking_variant: complete.iter().filter(|&&c| !c).count() as u64,
        lacking_prediction: (complete.iter().zip(&lacks_prediction))
            .filter(|&(&c, &l)| c && l)
            .count() as u64,
        in_set,
    }
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

    fn verdict() -> Option<Verdict> {
        Some(Verdict {
            answer: None,
            rule: Rule::None,
            correct: true,
        })
    }

    /// a has every condition; b lacks opacity; c has all but a model has no
    /// prediction for its fontsize image; "orphan" has no base image.
    fn items() -> Vec<ManifestItem> {
        vec![
            item("a", "a", &[]),
            item("a8", "a", &[("fontsize", 8.0)]),
            item("a1", "a", &[("opacity", 1.0)]),
            item("b", "b", &[]),
            item("b8", "b", &[("fontsize", 8.0)]),
            item("c", "c", &[]),
            item("c8", "c", &[("fontsize", 8.0)]),
            item("c1", "c", &[("opacity", 1.0)]),
            item("o8", "orphan", &[("fontsize", 8.0)]),
        ]
    }

    #[test]
    fn a_matched_base_has_every_condition_and_every_prediction() {
        let items = items();
        let layout = Layout::new(&items);
        let mut v = vec![verdict(); items.len()];
        v[6] = None;
        let verdicts = vec![vec![verdict(); items.len()], v];
        let set = base_set(&items, &layout, &verdicts, MissingPolicy::Exclude, true);
        assert_eq!(set.set, BaseSetKind::Matched);
        assert_eq!(
            (set.bases, set.left_out, set.conditions, set.matched),
            (1, 3, 3, 1)
        );
        assert_eq!((set.lacking_variant, set.lacking_prediction), (2, 1));
        let kept: Vec<&str> = (items.iter().zip(&set.in_set))
            .filter(|(_, k)| **k)
            .map(|(it, _)| it.id.as_str())
            .collect();
        assert_eq!(kept, ["a", "a8", "a1"]);
        // A missing prediction scored wrong leaves no base out.
        let set = base_set(&items, &layout, &verdicts, MissingPolicy::Wrong, true);
        assert_eq!((set.bases, set.lacking_prediction), (2, 0));
        // Without --matched every item counts, and the set says what --matched keeps.
        let set = base_set(&items, &layout, &verdicts, MissingPolicy::Exclude, false);
        assert_eq!((set.set.name(), set.bases, set.left_out), ("all", 4, 0));
        assert_eq!(set.matched, 1);
        assert!(set.in_set.iter().all(|&k| k));
    }
}
