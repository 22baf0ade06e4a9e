//! Matching predictions to manifest items, extracting answers and marking each one
//! right or wrong. Unknown ids and duplicate (model, id) pairs are line errors; the
//! first prediction of a duplicate pair is the one scored. A `null` prediction gives
//! no verdict: the item counts as missing for that model; an output too long to read
//! gives a verdict with no answer ([`Rule::TooLong`]), counted.

use super::accuracy::{Tolerance, is_correct};
use super::cascade::{Extracted, Rule};
use super::error::{LineReason, RejectedLine};
use super::extract::extract;
use super::manifest::ManifestItem;
use super::predictions::ModelOutput;
use super::predictions::Prediction;
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// The verdict on one prediction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Verdict {
    pub answer: Option<Extracted>,
    pub rule: Rule,
    pub correct: bool,
}

/// Every model's verdict on every item: `verdicts[model][item]`, `None` = no prediction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Scored {
    /// Model names, sorted.
    pub models: Vec<String>,
    pub verdicts: Vec<Vec<Option<Verdict>>>,
    /// Unknown ids and duplicate predictions, in input order.
    pub errors: Vec<RejectedLine>,
}

/// Joins `predictions` to `items` and scores them with `tol`.
pub(crate) fn score_predictions(
    items: &[ManifestItem],
    predictions: &[Prediction],
    tol: &Tolerance,
) -> Scored {
    let index: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, item)| (item.id.as_str(), i))
        .collect();
    let models: Vec<String> = predictions
        .iter()
        .map(|p| p.model.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let model_index: HashMap<&str, usize> = models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();

    let mut errors = Vec::new();
    let mut first_at: HashMap<(usize, usize), &Prediction> = HashMap::new();
    let mut accepted: Vec<(usize, usize, &Prediction)> = Vec::new();
    for p in predictions {
        let fail = |reason| RejectedLine {
            file: p.file.clone(),
            line: p.line,
            reason,
        };
        let Some(&item) = index.get(p.id.as_str()) else {
            errors.push(fail(LineReason::UnknownId { id: p.id.clone() }));
            continue;
        };
        let model = model_index[p.model.as_str()];
        match first_at.get(&(model, item)) {
            Some(first) => errors.push(fail(LineReason::DuplicatePrediction {
                id: p.id.clone(),
                model: p.model.clone(),
                first: format!("{}:{}", first.file, first.line),
            })),
            None => {
                first_at.insert((model, item), p);
                accepted.push((model, item, p));
            }
        }
    }

    let judged: Vec<(usize, usize, Verdict)> = accepted
        .par_iter()
        .filter_map(|&(model, item, p)| {
            let label = &items[item].label;
            let (answer, rule) = match &p.output {
                ModelOutput::Null => return None,
                ModelOutput::Text(text) => {
                    let e = extract(text, items[item].choices());
                    (e.answer, e.rule)
                }
                ModelOutput::TooLong { .. } => (None, Rule::TooLong),
            };
            let correct = answer.is_some_and(|a| is_correct(a, label, tol));
            let verdict = Verdict {
                answer,
                rule,
                correct,
            };
            Some((model, item, verdict))
        })
        .collect();
    let mut verdicts = vec![vec![None; items.len()]; models.len()];
    for (model, item, v) in judged {
        verdicts[model][item] = Some(v);
    }
    Scored {
        models,
        verdicts,
        errors,
    }
}
