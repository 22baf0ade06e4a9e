//! The text-classifier baseline: a multinomial logistic regression on the words and
//! adjacent word pairs of an item's question template ([`super::template`]),
//! choosing among the item's own options. Multiple-choice items only: for a numeric
//! answer there is no set of classes to choose among.
//!
//! The classes are the option texts of the training fold. An item's features are
//! its template's known features, each `1/√k` for k of them (unit length, so one
//! step size suits every item), plus a bias per class. The probability of option c
//! is the softmax of `b_c + w_c · x` over the item's own options (the normaliser
//! runs over what the item offers, as the prediction does). Training minimises the
//! mean cross-entropy plus `L2/2 · |w|²` by [`ITERATIONS`] full-batch gradient
//! steps with heavy-ball momentum, from zero. Identical training items (template,
//! options, answer) are one example with their count as weight.
//!
//! Deterministic by construction: examples, features and classes are visited in
//! sorted order, every sum runs in that order on one thread, and `exp` is
//! [`exp`] below, built from IEEE basic operations (correctly rounded on every
//! platform), not the platform's libm, so the same manifest gives the same choices
//! everywhere. A prediction is the option with the highest score, ties to the
//! first; an item none of whose options the training fold has seen gets no answer.

use super::folds::FOLDS;
use super::template::{Templates, features};
use crate::score::cascade::Extracted;
use crate::score::manifest::{Label, ManifestItem};
use std::collections::{BTreeMap, BTreeSet};

/// Full-batch gradient steps. On a 1,500-problem relation sweep (3,419 images),
/// 500 steps reach 0.70 training accuracy where 3,000 reach 0.72, in about 1 s.
pub(in crate::score) const ITERATIONS: usize = 500;
/// Step size. An item's features and bias have squared length 2 and the softmax's
/// curvature is at most ½, so the loss's is at most 1, and heavy-ball steps are
/// stable below 2·(1 + momentum) = 3.8.
const LEARNING_RATE: f64 = 2.0;
/// Heavy-ball momentum.
const MOMENTUM: f64 = 0.9;
/// L2 penalty on the feature weights (not the biases): just enough to keep weights
/// finite on separable folds.
const L2: f64 = 1e-5;

/// A trained model.
struct Model {
    /// Feature text → row of `weights`.
    vocabulary: BTreeMap<String, usize>,
    /// Option text → class.
    classes: BTreeMap<String, usize>,
    /// `weights[f * classes + c]`.
    weights: Vec<f64>,
    bias: Vec<f64>,
}

/// One (deduplicated) training example.
struct Example {
    features: Vec<usize>,
    /// The item's options as classes, in its order.
    offered: Vec<usize>,
    /// Position in `offered` of the answer.
    gold: usize,
    weight: f64,
}

/// Every multiple-choice item's answer, each from a model trained on the other
/// fold; `None` for numeric items and items it cannot answer.
pub(super) fn predict(
    items: &[ManifestItem],
    templates: &Templates,
    folds: &[u8],
) -> Vec<Option<Extracted>> {
    let mut out = vec![None; items.len()];
    for test in 0..FOLDS as u8 {
        let train = (items.iter().enumerate())
            .filter(|(i, _)| folds[*i] != test)
            .filter_map(|(i, it)| Some((&templates.texts[templates.ids[i] as usize], choice(it)?)));
        let Some(model) = fit(train) else {
            continue;
        };
        for (i, item) in items.iter().enumerate().filter(|(i, _)| folds[*i] == test) {
            if let Some((choices, _)) = choice(item) {
                let template = &templates.texts[templates.ids[i] as usize];
                out[i] = model.choose(template, choices).map(Extracted::Choice);
            }
        }
    }
    out
}

/// A multiple-choice item's options and answer.
fn choice(item: &ManifestItem) -> Option<(&[String], usize)> {
    match &item.label {
        Label::Choice { index, choices } => Some((choices, *index)),
        Label::Number(_) => None,
    }
}

/// Trains on (template, (options, answer)) pairs; `None` when there are none.
fn fit<'a>(train: impl Iterator<Item = (&'a String, (&'a [String], usize))>) -> Option<Model> {
    let mut counted: BTreeMap<(&str, &[String], usize), u64> = BTreeMap::new();
    for (template, (choices, gold)) in train {
        *counted
            .entry((template.as_str(), choices, gold))
            .or_default() += 1;
    }
    if counted.is_empty() {
        return None;
    }
    let feature_sets: BTreeSet<&str> = counted.keys().map(|k| k.0).collect();
    let vocabulary: BTreeSet<String> = feature_sets.iter().flat_map(|t| features(t)).collect();
    let vocabulary: BTreeMap<String, usize> = vocabulary.into_iter().zip(0..).collect();
    let options: BTreeSet<&str> = (counted.keys())
        .flat_map(|k| k.1.iter().map(String::as_str))
        .collect();
    let classes: BTreeMap<String, usize> =
        options.into_iter().map(str::to_string).zip(0..).collect();
    let examples: Vec<Example> = (counted.iter())
        .map(|(&(template, choices, gold), &n)| Example {
            features: known(&vocabulary, template),
            offered: choices.iter().map(|c| classes[c.as_str()]).collect(),
            gold,
            weight: n as f64,
        })
        .collect();
    let mut model = Model {
        weights: vec![0.0; vocabulary.len() * classes.len()],
        bias: vec![0.0; classes.len()],
        vocabulary,
        classes,
    };
    model.train(&examples);
    Some(model)
}

/// The features of `template` that `vocabulary` has, as rows.
fn known(vocabulary: &BTreeMap<String, usize>, template: &str) -> Vec<usize> {
    (features(template).iter())
        .filter_map(|f| vocabulary.get(f).copied())
        .collect()
}

/// The value of each of `k` active features: unit length together.
fn scale(k: usize) -> f64 {
    if k == 0 { 0.0 } else { 1.0 / (k as f64).sqrt() }
}

impl Model {
    fn scores(&self, features: &[usize], offered: &[usize], out: &mut Vec<f64>) {
        let k = self.classes.len();
        let s = scale(features.len());
        out.clear();
        for &c in offered {
            let mut z = 0.0;
            for &f in features {
                z += self.weights[f * k + c];
            }
            out.push(self.bias[c] + s * z);
        }
    }

    fn train(&mut self, examples: &[Example]) {
        let k = self.classes.len();
        let total: f64 = examples.iter().map(|e| e.weight).sum();
        let mut grad = vec![0.0; self.weights.len()];
        let mut grad_bias = vec![0.0; k];
        let mut velocity = vec![0.0; self.weights.len()];
        let mut velocity_bias = vec![0.0; k];
        let mut z = Vec::new();
        for _ in 0..ITERATIONS {
            grad.fill(0.0);
            grad_bias.fill(0.0);
            for e in examples {
                self.scores(&e.features, &e.offered, &mut z);
                softmax(&mut z);
                let s = scale(e.features.len());
                for (j, (&c, &p)) in e.offered.iter().zip(&z).enumerate() {
                    let g = e.weight / total * (p - f64::from(u8::from(j == e.gold)));
                    grad_bias[c] += g;
                    for &f in &e.features {
                        grad[f * k + c] += g * s;
                    }
                }
            }
            for ((w, v), g) in self.weights.iter_mut().zip(&mut velocity).zip(&grad) {
                *v = MOMENTUM * *v - LEARNING_RATE * (g + L2 * *w);
                *w += *v;
            }
            for ((b, v), g) in self.bias.iter_mut().zip(&mut velocity_bias).zip(&grad_bias) {
                *v = MOMENTUM * *v - LEARNING_RATE * g;
                *b += *v;
            }
        }
    }

    /// The option of `choices` with the highest score, ties to the first; `None`
    /// when the training fold has none of them.
    fn choose(&self, template: &str, choices: &[String]) -> Option<usize> {
        let features = known(&self.vocabulary, template);
        let offered: Vec<(usize, usize)> = (choices.iter().enumerate())
            .filter_map(|(i, c)| Some((i, *self.classes.get(c.as_str())?)))
            .collect();
        let classes: Vec<usize> = offered.iter().map(|o| o.1).collect();
        let mut z = Vec::new();
        self.scores(&features, &classes, &mut z);
        let mut best: Option<(usize, f64)> = None;
        for (&(i, _), &score) in offered.iter().zip(&z) {
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// `z` replaced by its softmax.
fn softmax(z: &mut [f64]) {
    let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for v in z.iter_mut() {
        *v = exp(*v - max);
        sum += *v;
    }
    for v in z.iter_mut() {
        *v /= sum;
    }
}

/// e^x for x ≤ 0 (what the softmax needs), from IEEE basic operations only:
/// x = k·ln 2 + r with |r| ≤ ln 2 / 2 (ln 2 split in two parts so that k·ln 2 is
/// exact), e^r by its Taylor series to r¹³ (truncation error below 4·10⁻¹⁸), then
/// scaled by 2^k exactly. Relative error a few ulps; 0 below −708.
fn exp(x: f64) -> f64 {
    // fdlibm's split of ln 2: the high part ends in 21 zero bits, so k·LN2_HI is
    // exact for the |k| ≤ 1022 used here.
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    debug_assert!(x <= 0.0 || x.is_nan());
    if x < -708.0 {
        return 0.0;
    }
    let k = (x * std::f64::consts::LOG2_E).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    for i in 1..=13 {
        term *= r / f64::from(i);
        sum += term;
    }
    // k ≥ −1022 here, so 2^k is a normal number.
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_agrees_with_libm() {
        for i in 0..=7000 {
            let x = -(i as f64) * 0.1;
            let (ours, theirs) = (exp(x), x.exp());
            assert!(
                (ours - theirs).abs() <= 4.0 * f64::EPSILON * theirs,
                "e^{x}: {ours} against {theirs}"
            );
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-800.0), 0.0);
    }

    fn options(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn a_planted_word_decides_the_answer() {
        // "parallel" in the question → Alternate; "crossing" → Vertical; the rest
        // of the words are noise shared by both.
        let choices = options(&["Vertical", "Alternate", "Cannot be inferred"]);
        let flipped = options(&["Cannot be inferred", "Alternate", "Vertical"]);
        let fillers = ["red", "green", "blue", "small", "large", "round"];
        let mut train: Vec<(String, (&[String], usize))> = Vec::new();
        for (i, filler) in fillers.iter().enumerate() {
            for (word, answer) in [("parallel", "Alternate"), ("crossing", "Vertical")] {
                let offered = if i % 2 == 0 { &choices } else { &flipped };
                let gold = offered.iter().position(|c| c == answer).unwrap();
                let q = format!("the {filler} lines @ are {word} so what is ∠@?");
                train.push((q, (offered.as_slice(), gold)));
            }
        }
        let model = fit(train.iter().map(|(q, l)| (q, *l))).unwrap();
        let ask =
            |q: &str, offered: &[String]| model.choose(q, offered).map(|i| offered[i].clone());
        assert_eq!(
            ask("the purple lines @ are parallel so what is ∠@?", &choices).as_deref(),
            Some("Alternate")
        );
        assert_eq!(
            ask("the purple lines @ are crossing so what is ∠@?", &flipped).as_deref(),
            Some("Vertical")
        );
        // Only options the training fold has seen can be chosen.
        assert_eq!(model.choose("anything", &options(&["Tangent"])), None);
    }
}
