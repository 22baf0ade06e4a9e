//! The template-majority baseline: each item's answer is the most frequent gold
//! answer among the training fold's items of the same template
//! ([`super::template`]). A number for a numeric item (the most frequent value;
//! ties to the smaller); for a multiple-choice item the most frequent answer text
//! that the item offers, as its option (ties to the text first in byte order). A
//! template the training fold does not have, or none of whose answers the item
//! offers, falls back to the training fold's overall majority, counted the same
//! way; an empty training fold gives no answer.

use super::folds::FOLDS;
use super::template::Templates;
use crate::score::cascade::Extracted;
use crate::score::manifest::{Label, ManifestItem};
use std::collections::{BTreeMap, HashMap};

/// Answer counts of one template, or of a whole fold.
#[derive(Default)]
struct Counts<'a> {
    /// Numeric answers by their bits.
    numbers: HashMap<u64, u64>,
    /// Multiple-choice answers by their text.
    texts: BTreeMap<&'a str, u64>,
}

impl<'a> Counts<'a> {
    fn add(&mut self, label: &'a Label) {
        match label {
            Label::Number(v) => *self.numbers.entry(v.to_bits()).or_default() += 1,
            Label::Choice { index, choices } => {
                *self.texts.entry(choices[*index].as_str()).or_default() += 1;
            }
        }
    }

    /// The most frequent number; ties to the smaller.
    fn number(&self) -> Option<f64> {
        (self.numbers.iter())
            .map(|(&bits, &n)| (n, f64::from_bits(bits)))
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
            .map(|(_, v)| v)
    }

    /// The option of `choices` whose text is the most frequent answer; ties to the
    /// text first in byte order.
    fn option(&self, choices: &[String]) -> Option<usize> {
        let (text, _) = (choices.iter())
            .filter_map(|c| Some((c.as_str(), *self.texts.get(c.as_str())?)))
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))?;
        choices.iter().position(|c| c == text)
    }

    fn answer(&self, label: &Label) -> Option<Extracted> {
        match label {
            Label::Number(_) => self.number().map(Extracted::Number),
            Label::Choice { choices, .. } => self.option(choices).map(Extracted::Choice),
        }
    }
}

/// Every item's answer, each from the other fold's items.
pub(super) fn predict(
    items: &[ManifestItem],
    templates: &Templates,
    folds: &[u8],
) -> Vec<Option<Extracted>> {
    let mut out = vec![None; items.len()];
    for test in 0..FOLDS as u8 {
        let mut by_template: HashMap<u32, Counts<'_>> = HashMap::new();
        let mut overall = Counts::default();
        for (i, item) in items.iter().enumerate().filter(|(i, _)| folds[*i] != test) {
            let t = templates.ids[i];
            by_template.entry(t).or_default().add(&item.label);
            overall.add(&item.label);
        }
        for (i, item) in items.iter().enumerate().filter(|(i, _)| folds[*i] == test) {
            let seen = by_template.get(&templates.ids[i]);
            out[i] =
                (seen.and_then(|c| c.answer(&item.label))).or_else(|| overall.answer(&item.label));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(index: usize, choices: &[&str]) -> Label {
        Label::Choice {
            index,
            choices: choices.iter().map(|c| c.to_string()).collect(),
        }
    }

    #[test]
    fn the_majority_text_is_mapped_to_the_items_own_option() {
        let mut c = Counts::default();
        let a = choice(0, &["Parallel", "Cannot be inferred"]);
        let b = choice(1, &["Cannot be inferred", "Parallel"]);
        let d = choice(0, &["Perpendicular", "Parallel"]);
        for l in [&a, &b, &d] {
            c.add(l);
        }
        // Parallel 2, Perpendicular 1: Parallel is option B here.
        assert_eq!(
            c.answer(&choice(0, &["Cannot be inferred", "Parallel"])),
            Some(Extracted::Choice(1))
        );
        // Not offered: the most frequent of those offered.
        assert_eq!(
            c.answer(&choice(0, &["Perpendicular", "Disjoint"])),
            Some(Extracted::Choice(0))
        );
        assert_eq!(c.answer(&choice(0, &["Tangent"])), None);
    }

    #[test]
    fn numbers_take_the_mode_ties_to_the_smaller() {
        let labels = [3.0, 5.0, 5.0, 3.0, 7.0].map(Label::Number);
        let mut c = Counts::default();
        for l in &labels {
            c.add(l);
        }
        assert_eq!(c.number(), Some(3.0));
    }
}
