//! Blind baselines: what a model could get without the image, from the manifest
//! alone (no predictions needed), reported beside the models' rows.
//!
//! Each baseline answers every item it covers from the question text and the gold
//! answers of *other* problems: 2-fold cross-fitting split by base problem
//! ([`folds`]), training on one fold and predicting the other, then the other way
//! round. Its answers are scored like a model's, with the same rows (per axis and
//! value, paired with the base images), relation breakdowns and "Cannot be
//! inferred" measures (the report's own code, [`super::report`] and
//! [`super::relation_report`]), over the report's base set; plus a summary pooled
//! over all images, per task and per relation, domain, subset and mode. The answers
//! do not depend on the predictions, `--matched` or `--missing`: only which images
//! are counted does.
//!
//! ```text
//! template  the question with point names and numbers masked; its words
//! folds     the cross-fitting split, by a hash of base_id
//! majority  template majority: the training fold's most frequent answer of the template
//! logistic  text classifier: logistic regression on the template's words (multiple choice)
//! ```

pub(super) mod folds;
mod logistic;
mod majority;
mod template;

pub(super) use logistic::ITERATIONS as CLASSIFIER_ITERATIONS;

use super::MissingPolicy;
use super::accuracy::{Tolerance, is_correct};
use super::cascade::{Extracted, Rule};
use super::consistency::{Consistency, per_axis};
use super::join::Verdict;
use super::manifest::ManifestItem;
use super::relation_report::{CannotInferRow, Dimension, PairedGroupRow, RelationTallies};
use super::relations::RELATIONS_TASK;
use super::stats::{Z_95, wilson};
use super::tally::{Layout, TallyRow, make_rows, ratio, tally_model};
use folds::Fold;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// The task of GeomVerse (numeric) items in a baseline's summary.
pub(crate) const GEOMVERSE_TASK: &str = "geomverse";

/// The blind baselines of a report (`baselines` in report.json).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Baselines {
    /// The cross-fitting folds' sizes over the whole manifest.
    pub folds: Vec<Fold>,
    /// Each baseline that covers some item of the manifest, in `BlindBaseline::ALL` order.
    pub methods: Vec<BaselineReport>,
}

/// A blind baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlindBaseline {
    /// The training fold's most frequent answer of the item's template.
    TemplateMajority,
    /// Logistic regression on the template's words; multiple-choice items only.
    TextClassifier,
}

impl BlindBaseline {
    pub(crate) const ALL: [BlindBaseline; 2] = [
        BlindBaseline::TemplateMajority,
        BlindBaseline::TextClassifier,
    ];

    /// The `model` of its rows: `blind:` and its name, beside the models' names.
    pub(crate) fn model(self) -> &'static str {
        match self {
            BlindBaseline::TemplateMajority => "blind:template_majority",
            BlindBaseline::TextClassifier => "blind:text_classifier",
        }
    }

    /// Whether it answers `item`: the classifier only chooses among options.
    pub(crate) fn covers(self, item: &ManifestItem) -> bool {
        match self {
            BlindBaseline::TemplateMajority => true,
            BlindBaseline::TextClassifier => item.choices().is_some(),
        }
    }
}

/// One baseline's results over the report's base set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BaselineReport {
    pub name: BlindBaseline,
    /// The `model` of its rows.
    pub model: &'static str,
    /// Pooled over the images counted: all, per task, and for relation items per
    /// relation, domain, subset and mode.
    pub summary: Vec<SummaryRow>,
    /// Per (axis, value), as the models' rows.
    pub rows: Vec<TallyRow>,
    /// Per axis, as the models' consistency: a blind answer that follows the
    /// options' order shows here (`choices`' worst case is CircularEval's).
    pub consistency: Vec<Consistency>,
    /// Relation items per relation, domain, subset and mode, as the models'.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub relation: Vec<PairedGroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub domain: Vec<PairedGroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subset: Vec<PairedGroupRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mode: Vec<PairedGroupRow>,
    /// The "Cannot be inferred" class per (axis, value), as the models'.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cannot_be_inferred: Vec<CannotInferRow>,
}

/// A baseline's accuracy over a group of the images counted, every axis pooled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SummaryRow {
    /// `all`, `task`, `relation`, `domain`, `subset` or `mode`.
    pub dimension: &'static str,
    /// `all`; the task (`geomverse`, `relations`); the relation, domain, subset or mode.
    pub group: String,
    pub n: u64,
    /// Base problems of those images.
    pub bases: u64,
    pub correct: u64,
    pub accuracy: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

/// The baselines over the items `scope` marks (the report's base set).
pub(super) fn baselines(
    items: &[ManifestItem],
    layout: &Layout<'_>,
    tol: &Tolerance,
    scope: &[bool],
) -> Baselines {
    let templates = template::Templates::of(items);
    let (fold, sizes) = folds::folds(items);
    let methods = (BlindBaseline::ALL.into_iter())
        .filter(|b| items.iter().any(|it| b.covers(it)))
        .map(|b| {
            let answers = match b {
                BlindBaseline::TemplateMajority => majority::predict(items, &templates, &fold),
                BlindBaseline::TextClassifier => logistic::predict(items, &templates, &fold),
            };
            report(b, items, layout, tol, scope, &answers)
        })
        .collect();
    Baselines {
        folds: sizes,
        methods,
    }
}

/// One baseline's answers scored and tabled.
fn report(
    b: BlindBaseline,
    items: &[ManifestItem],
    layout: &Layout<'_>,
    tol: &Tolerance,
    scope: &[bool],
    answers: &[Option<Extracted>],
) -> BaselineReport {
    let scope: Vec<bool> = (items.iter().zip(scope))
        .map(|(it, &s)| s && b.covers(it))
        .collect();
    let verdicts: Vec<Option<Verdict>> = (items.iter().zip(answers).zip(&scope))
        .map(|((item, &answer), &counted)| {
            counted.then(|| Verdict {
                answer,
                // No output was read: the baseline gives its answer directly.
                rule: Rule::None,
                correct: answer.is_some_and(|a| is_correct(a, &item.label, tol)),
            })
        })
        .collect();
    // Every counted item has a verdict, so the policy changes nothing.
    let policy = MissingPolicy::Exclude;
    let tallies = tally_model(layout, items, &verdicts, policy, &scope);
    let mut relations = RelationTallies::default();
    relations.add_model(b.model(), layout, items, &verdicts, policy, &scope);
    let r = relations.finish();
    BaselineReport {
        name: b,
        model: b.model(),
        summary: summary(items, layout, &verdicts),
        rows: make_rows(b.model(), layout, &tallies.rows),
        consistency: per_axis(b.model(), items, &verdicts, policy, &scope),
        relation: r.relation,
        domain: r.domain,
        subset: r.subset,
        mode: r.mode,
        cannot_be_inferred: r.cannot_be_inferred,
    }
}

/// Accuracy pooled over the items with a verdict, per group.
fn summary(
    items: &[ManifestItem],
    layout: &Layout<'_>,
    verdicts: &[Option<Verdict>],
) -> Vec<SummaryRow> {
    #[derive(Default)]
    struct Count {
        n: u64,
        correct: u64,
        bases: HashSet<u32>,
    }
    // Keyed by (dimension rank, group rank, dimension, group): report order.
    type Key = (usize, usize, &'static str, &'static str);
    let mut groups: BTreeMap<Key, Count> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let Some(v) = &verdicts[i] else {
            continue;
        };
        let task = match item.relation {
            Some(_) => (1, RELATIONS_TASK),
            None => (0, GEOMVERSE_TASK),
        };
        let mut keys: Vec<Key> = vec![(0, 0, "all", "all"), (1, task.0, "task", task.1)];
        if let Some(r) = &item.relation {
            for (rank, d) in (2..).zip(Dimension::ALL) {
                let (g, name) = d.group(r);
                keys.push((rank, g, d.name(), name));
            }
        }
        for key in keys {
            let c = groups.entry(key).or_default();
            c.n += 1;
            c.correct += u64::from(v.correct);
            c.bases.insert(layout.base_index[i]);
        }
    }
    (groups.into_iter())
        .map(|((_, _, dimension, group), c)| {
            let ci = wilson(c.correct, c.n, Z_95);
            SummaryRow {
                dimension,
                group: group.to_string(),
                n: c.n,
                bases: c.bases.len() as u64,
                correct: c.correct,
                accuracy: ratio(c.correct, c.n),
                ci_low: ci.map(|c| c.low),
                ci_high: ci.map(|c| c.high),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::manifest::parse_manifest;

    const OPTIONS: [&str; 4] = [
        "Parallel",
        "Perpendicular",
        "Intersecting",
        "Cannot be inferred",
    ];
    const WORDS: [&str; 8] = [
        "red", "green", "blue", "small", "large", "round", "square", "thin",
    ];

    /// A small deterministic stream (SplitMix64) for the synthetic manifests.
    fn mix(x: u64) -> u64 {
        let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 160 relation problems × (base, fontsize 8, fontsize 24): problem p's template
    /// has the word `WORDS[p % 8]`, its point names and numbers vary, its options
    /// are shuffled, and its answer text is `answer(p)`.
    fn relation_manifest(answer: impl Fn(usize) -> &'static str) -> Vec<ManifestItem> {
        let mut text = String::new();
        for p in 0..160 {
            let letters: String = (0..2)
                .map(|j| char::from(b'A' + (mix((p * 7 + j) as u64) % 26) as u8))
                .collect();
            let question = format!(
                "Point {letters} lies on a {} line of length {}. What is the relationship?",
                WORDS[p % 8],
                p % 13
            );
            let mut choices = OPTIONS.to_vec();
            choices.rotate_left(p % 4);
            let gold = choices.iter().position(|c| *c == answer(p)).unwrap();
            for variant in [json!({}), json!({"fontsize": 8}), json!({"fontsize": 24})] {
                let base = format!("r{p}");
                let id = match variant.as_object().unwrap().iter().next() {
                    None => base.clone(),
                    Some((a, v)) => format!("{base}__{a}-{v}"),
                };
                let q = format!(
                    "{question} Answer choices: {}",
                    (choices.iter().enumerate())
                        .map(|(i, c)| format!("{}. {c}", char::from(b'A' + i as u8)))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                let row = json!({
                    "id": id, "base_id": base, "variant": variant, "task": "relations",
                    "question": q, "choices": choices, "answer": gold,
                    "relation": "parallel", "domain": "line", "subset": "basic", "mode": "text",
                });
                text.push_str(&row.to_string());
                text.push('\n');
            }
        }
        let (items, errors) = parse_manifest(text.as_bytes(), "m.jsonl");
        assert_eq!(errors, []);
        items
    }

    fn run(items: &[ManifestItem]) -> Baselines {
        let layout = Layout::new(items);
        baselines(
            items,
            &layout,
            &Tolerance::default(),
            &vec![true; items.len()],
        )
    }

    fn overall(b: &Baselines, which: BlindBaseline) -> f64 {
        let m = b.methods.iter().find(|m| m.name == which).unwrap();
        assert_eq!(
            (m.summary[0].dimension, m.summary[0].group.as_str()),
            ("all", "all")
        );
        m.summary[0].accuracy.unwrap()
    }

    use serde_json::json;

    #[test]
    fn an_answer_given_by_the_template_is_found_by_both_baselines() {
        let items = relation_manifest(|p| OPTIONS[(p % 8) / 2]);
        let b = run(&items);
        assert_eq!(overall(&b, BlindBaseline::TemplateMajority), 1.0);
        assert_eq!(overall(&b, BlindBaseline::TextClassifier), 1.0);
        let m = &b.methods[0];
        assert_eq!((m.summary[0].n, m.summary[0].bases), (480, 160));
        // Every row counts the 160 problems; the folds split them by base.
        assert!(m.rows.iter().all(|r| r.n == 160 && r.bases == 160));
        assert_eq!(b.folds.iter().map(|f| f.bases).sum::<u64>(), 160);
        assert_eq!(b.folds.iter().map(|f| f.items).sum::<u64>(), 480);
        assert!(b.folds.iter().all(|f| f.bases > 50), "{:?}", b.folds);
    }

    #[test]
    fn a_random_answer_is_answered_near_chance() {
        let items = relation_manifest(|p| OPTIONS[(mix(1000 + p as u64) % 4) as usize]);
        let b = run(&items);
        for which in BlindBaseline::ALL {
            let acc = overall(&b, which);
            assert!((acc - 0.25).abs() < 0.1, "{which:?}: {acc}");
        }
    }

    #[test]
    fn the_same_manifest_gives_the_same_bytes_whatever_its_line_order() {
        let items = relation_manifest(|p| OPTIONS[(mix(p as u64) % 4) as usize]);
        let first = serde_json::to_string(&run(&items)).unwrap();
        assert_eq!(first, serde_json::to_string(&run(&items)).unwrap());
        let mut shuffled = items.clone();
        shuffled.sort_by_key(|it| mix(it.line as u64));
        assert_eq!(first, serde_json::to_string(&run(&shuffled)).unwrap());
    }

    #[test]
    fn numeric_items_get_the_template_majority_only() {
        let mut text = String::new();
        for p in 0..80 {
            let row = json!({
                "id": format!("g{p}"), "base_id": format!("g{p}"), "variant": {},
                "question": format!("If the {} ABCD side is {p}, compute it.", WORDS[p % 4]),
                "answer": 10.0 * (p % 4) as f64,
            });
            text.push_str(&row.to_string());
            text.push('\n');
        }
        let (items, _) = parse_manifest(text.as_bytes(), "m.jsonl");
        let b = run(&items);
        assert_eq!(b.methods.len(), 1);
        assert_eq!(b.methods[0].name, BlindBaseline::TemplateMajority);
        assert_eq!(overall(&b, BlindBaseline::TemplateMajority), 1.0);
        let tasks: Vec<&str> = (b.methods[0].summary.iter())
            .map(|s| s.group.as_str())
            .collect();
        assert_eq!(tasks, ["all", GEOMVERSE_TASK]);
        assert!(b.methods[0].cannot_be_inferred.is_empty());
    }
}
