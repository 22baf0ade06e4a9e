//! An item's question template: what a reader without the image sees of the
//! question once its particulars are masked — point names (maximal runs of capital
//! letters, `ABCD`, the `ABC` of `∠ABC`) become `@`, numbers (`4`, `3.5`) become
//! `#`. A capitalised word (one capital, then a lower-case letter: "Circle", "What")
//! is a word, not a point name, and is kept. A multiple-choice question's option
//! list (" Answer choices: A. … B. …", shuffled per item) is dropped: the baselines
//! choose among the item's own options, and its order would split a template in
//! up to 5! = 120. The template's words ([`features`]) are what the text classifier
//! reads.

use crate::generate::relations::question_stem;
use crate::score::manifest::ManifestItem;
use std::collections::HashMap;

/// Every item's template, each distinct text once.
pub(super) struct Templates {
    /// `ids[i]`: index into `texts` of item i's template.
    pub(super) ids: Vec<u32>,
    /// The distinct templates, in order of first appearance.
    pub(super) texts: Vec<String>,
}

impl Templates {
    pub(super) fn of(items: &[ManifestItem]) -> Templates {
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut texts = Vec::new();
        let ids = (items.iter())
            .map(|item| {
                let t = template(item);
                *index.entry(t).or_insert_with_key(|t| {
                    texts.push(t.clone());
                    texts.len() as u32 - 1
                })
            })
            .collect();
        Templates { ids, texts }
    }
}

/// The template of `item`'s question (empty when the row has none).
pub(super) fn template(item: &ManifestItem) -> String {
    let question = item.question.as_deref().unwrap_or_default();
    let stem = match item.choices() {
        Some(choices) => question_stem(question, choices),
        None => question,
    };
    mask(stem)
}

/// `text` with point names as `@` and numbers as `#`.
pub(super) fn mask(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let run = |from: usize, f: fn(char) -> bool| {
            (from..chars.len())
                .find(|&j| !f(chars[j]))
                .unwrap_or(chars.len())
        };
        if c.is_ascii_uppercase() {
            let end = run(i, |c| c.is_ascii_uppercase());
            let word = end == i + 1 && chars.get(end).is_some_and(|n| n.is_lowercase());
            if word {
                out.push(c);
            } else {
                out.push('@');
            }
            i = end;
        } else if c.is_ascii_digit() {
            let mut end = run(i, |c| c.is_ascii_digit());
            if chars.get(end) == Some(&'.') && chars.get(end + 1).is_some_and(char::is_ascii_digit)
            {
                end = run(end + 1, |c| c.is_ascii_digit());
            }
            out.push('#');
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The words of a template, lower-cased: runs of letters and digits, and every
/// other character but white space on its own (`@`, `#`, `∠`, `?`).
pub(super) fn words(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in template.chars() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The classifier's features of a template: its words and each pair of adjacent
/// words (`"line @"`), each once, sorted.
pub(super) fn features(template: &str) -> Vec<String> {
    let words = words(template);
    let mut out: Vec<String> = words.clone();
    out.extend(words.windows(2).map(|w| format!("{} {}", w[0], w[1])));
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_names_and_numbers_are_masked_words_are_not() {
        assert_eq!(
            mask("Circle O has radius 3.5. Point P lies on segment AB. ∠ABC = 44°."),
            "Circle @ has radius #. Point @ lies on segment @. ∠@ = #°."
        );
        assert_eq!(
            mask("If the area of the CEFG parallelogram is 71, compute the ABC angle."),
            "If the area of the @ parallelogram is #, compute the @ angle."
        );
        // "OH" is a name even before a lower-case word; "4." ends a sentence.
        assert_eq!(mask("OH = 2. Radius 4."), "@ = #. Radius #.");
    }

    #[test]
    fn a_question_and_its_relabelled_twin_share_a_template() {
        let a = mask("Line AB is parallel to line CD. What is ∠EGB?");
        let b = mask("Line PQ is parallel to line RS. What is ∠TUV?");
        assert_eq!(a, b);
    }

    #[test]
    fn features_are_words_and_adjacent_pairs() {
        assert_eq!(
            features("Point @ lies"),
            ["@", "@ lies", "lies", "point", "point @"]
        );
        assert_eq!(words("∠@ = #°?"), ["∠", "@", "=", "#", "°", "?"]);
    }
}
