//! Reading a multiple-choice answer by its option's text, for items with choices:
//! "The answer is Parallel.", "Answer: cannot be inferred", a reply or a last line
//! that is just "**Intersecting but not perpendicular**" (the rule
//! [`Rule::OptionText`](super::Rule::OptionText)).
//!
//! GeoEval reads a choice from the text after "correct answer is (.+)" (table 10)
//! and counts a prediction right when it "either matches the golden answer or the
//! golden option letter" (§4.2): an option can be named by what it says as well as
//! by its letter. This rule reads the former; letters stay with the rules before and
//! after it.
//!
//! An option is matched case-insensitively, whole (at word boundaries; any run of
//! spaces matches a space), and where several options match at one place the
//! longest wins, so "Intersecting but not perpendicular" is not read as
//! "Perpendicular" nor "Not collinear" as "Collinear". Options that are numbers
//! ("150.8") are left to the numeric rules, which match them within the tolerance.
//!
//! Where it looks, in order:
//! 1. the clause after an answer trigger ("final answer is", "answer is", "Answer:",
//!    "answer should be", `\boxed{`), the last trigger first: the first option the
//!    clause names, skipping one negated by the word before it ("not parallel");
//! 2. lines that are only an option, optionally after its letter ("D. Cannot be
//!    inferred", "**Perpendicular**"): read when they all name the same option, so
//!    an echoed list of the choices reads nothing.
//!
//! Known limits: a relation stated without a trigger ("so the lines are parallel")
//! is not read, nor a refusal worded otherwise ("cannot be determined" is the
//! refusal rule's, no answer).

use super::cascade::{Extracted, Rule, RuleOutcome, clause_after, re, trigger};
use super::normalize::{normalize_text, parse_value};
use regex::Regex;
use std::sync::LazyLock;

/// The option texts an item's answer can be read from: (index, normalised text),
/// longest first.
struct Options(Vec<(usize, String)>);

impl Options {
    fn new(choices: &[String]) -> Options {
        let mut texts: Vec<(usize, String)> = (choices.iter().enumerate())
            .map(|(i, c)| (i, normalize_text(c).trim().to_string()))
            .filter(|(_, t)| !t.is_empty() && parse_value(t).is_none())
            .collect();
        texts.sort_by_key(|(i, t)| (std::cmp::Reverse(t.chars().count()), *i));
        Options(texts)
    }

    /// The longest option that `hay` starts with, at a word boundary: its index and
    /// length in `hay`.
    fn at(&self, hay: &str) -> Option<(usize, usize)> {
        self.0
            .iter()
            .find_map(|(i, t)| prefix_len(hay, t).map(|len| (*i, len)))
    }

    /// The first option named in `clause` that no negation precedes.
    fn first_named(&self, clause: &str) -> Option<usize> {
        let mut from = 0;
        while from < clause.len() {
            let starts_word = !clause[..from].chars().next_back().is_some_and(is_word);
            if starts_word && let Some((index, len)) = self.at(&clause[from..]) {
                if !negated(&clause[..from]) {
                    return Some(index);
                }
                from += len;
                continue;
            }
            from += clause[from..].chars().next().map_or(1, char::len_utf8);
        }
        None
    }

    /// The option a whole line is, optionally after its letter (which must agree).
    fn whole_line(&self, line: &str) -> Option<usize> {
        static LINE: LazyLock<Regex> = LazyLock::new(|| {
            re(r#"^\s*(?:[#>]+\s*|[-•*]\s+)?(?:\(?([A-Z])(?:\)|[.):])\s*)?(.+?)[\s.!"'\])]*$"#)
        });
        let caps = LINE.captures(line)?;
        let body = caps.get(2)?.as_str();
        let (index, len) = self.at(body)?;
        let letter = caps
            .get(1)
            .map(|m| usize::from(m.as_str().as_bytes()[0] - b'A'));
        (len == body.len() && letter.is_none_or(|l| l == index)).then_some(index)
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Bytes of `hay` that spell `option` from its start (case-insensitive, a run of
/// whitespace for each space), ending at a word boundary.
fn prefix_len(hay: &str, option: &str) -> Option<usize> {
    let mut h = hay.char_indices().peekable();
    for o in option.chars() {
        if o.is_whitespace() {
            // One or more whitespace characters.
            h.next_if(|(_, c)| c.is_whitespace())?;
            while h.next_if(|(_, c)| c.is_whitespace()).is_some() {}
            continue;
        }
        let (_, c) = h.next()?;
        if c != o && !c.to_lowercase().eq(o.to_lowercase()) {
            return None;
        }
    }
    let end = h.peek().map_or(hay.len(), |(i, _)| *i);
    let last_is_word = option.chars().next_back().is_some_and(is_word);
    let next_is_word = hay[end..].chars().next().is_some_and(is_word);
    (!(last_is_word && next_is_word)).then_some(end)
}

/// Whether the word just before an option negates it ("not", "isn't", "never"…).
fn negated(before: &str) -> bool {
    let reversed: String = (before.trim_end().chars().rev())
        .take_while(|c| is_word(*c) || *c == '\'')
        .collect();
    let word: String = reversed.chars().rev().collect::<String>().to_lowercase();
    matches!(word.as_str(), "not" | "no" | "never" | "nor") || word.ends_with("n't")
}

/// Where answer triggers end: (start, end) of each, in text order.
fn trigger_spans(text: &str) -> Vec<(usize, usize)> {
    static OPEN_BOX: LazyLock<Regex> = LazyLock::new(|| re(r"\\(?:boxed|fbox)\s*\{"));
    let regexes = [
        Rule::FinalAnswer,
        Rule::AnswerIs,
        Rule::GeoevalAnswerShouldBe,
    ]
    .into_iter()
    .filter_map(trigger)
    .chain(std::iter::once(&*OPEN_BOX));
    let mut spans: Vec<(usize, usize)> = regexes
        .flat_map(|r| r.find_iter(text).map(|m| (m.start(), m.end())))
        .collect();
    spans.sort_unstable();
    spans
}

/// The rule: see the module documentation.
pub(super) fn option_text_rule(text: &str, choices: &[String]) -> RuleOutcome {
    let options = Options::new(choices);
    if options.0.is_empty() {
        return RuleOutcome::NoMatch;
    }
    let spans = trigger_spans(text);
    for &(start, end) in spans.iter().rev() {
        let clause = clause_after(&text[end..]);
        if let Some(index) = options.first_named(clause) {
            return RuleOutcome::Fired {
                evidence: format!("{}{clause}", &text[start..end]).trim().to_string(),
                answer: Some(Extracted::Choice(index)),
            };
        }
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .filter_map(|l| options.whole_line(l).map(|i| (i, l.trim())))
        .collect();
    match lines.last() {
        Some(&(index, evidence)) if lines.iter().all(|(i, _)| *i == index) => RuleOutcome::Fired {
            evidence: evidence.to_string(),
            answer: Some(Extracted::Choice(index)),
        },
        Some(&(_, evidence)) => RuleOutcome::NoValue {
            count: lines.len(),
            evidence: evidence.to_string(),
        },
        None => match spans.last() {
            Some(&(start, end)) => RuleOutcome::NoValue {
                count: spans.len(),
                evidence: format!("{}{}", &text[start..end], clause_after(&text[end..]))
                    .trim()
                    .to_string(),
            },
            None => RuleOutcome::NoMatch,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    const LINES: [&str; 4] = [
        "Parallel",
        "Perpendicular",
        "Intersecting but not perpendicular",
        "Cannot be inferred",
    ];

    fn read(text: &str, opts: &[&str]) -> Option<usize> {
        match option_text_rule(&normalize_text(text), &choices(opts)) {
            RuleOutcome::Fired {
                answer: Some(Extracted::Choice(i)),
                ..
            } => Some(i),
            _ => None,
        }
    }

    #[test]
    fn the_longest_option_wins() {
        assert_eq!(
            read("The answer is intersecting but not perpendicular.", &LINES),
            Some(2)
        );
        assert_eq!(
            read("**Intersecting but not perpendicular**", &LINES),
            Some(2)
        );
        let col = ["Collinear", "Not collinear", "Cannot be inferred"];
        assert_eq!(read("The answer is not collinear.", &col), Some(1));
        assert_eq!(read("Answer: Collinear", &col), Some(0));
        // A prefix of a longer option of the same item.
        let lc = ["Intersecting", "Intersecting at one point"];
        assert_eq!(read("Answer: intersecting at one point", &lc), Some(1));
        assert_eq!(read("Answer: intersecting", &lc), Some(0));
    }

    #[test]
    fn whole_words_only() {
        // "Parallelogram" is not "Parallel"; "inside" is not "Inside out".
        assert_eq!(read("The answer is parallelogram-like.", &LINES), None);
        assert_eq!(read("Answer: Inside", &["Inside out", "Outside"]), None);
        // Spaces and line breaks inside an option.
        assert_eq!(read("Answer: cannot  be   inferred", &LINES), Some(3));
    }

    #[test]
    fn negations_and_later_mentions() {
        assert_eq!(
            read("The answer is not parallel but perpendicular.", &LINES),
            Some(1)
        );
        assert_eq!(
            read(
                "The answer is parallel (both are perpendicular to CD).",
                &LINES
            ),
            Some(0)
        );
        assert_eq!(read("The answer is not parallel.", &LINES), None);
        // The last trigger decides.
        assert_eq!(
            read(
                "The answer is Parallel? No. Final answer: Perpendicular",
                &LINES
            ),
            Some(1)
        );
    }

    #[test]
    fn lines_that_are_an_option() {
        let text = "AB ⟂ CD and EF ⟂ CD.\n\n**Parallel**\n";
        assert_eq!(read(text, &LINES), Some(0));
        assert_eq!(read("D. Cannot be inferred", &LINES), Some(3));
        assert_eq!(
            read("(C) Intersecting but not perpendicular.", &LINES),
            Some(2)
        );
        // The letter and the text disagree: not read.
        assert_eq!(read("A. Cannot be inferred", &LINES), None);
        // An echoed list of the choices names several options.
        let echo = "A. Parallel\nB. Perpendicular\nC. Intersecting but not perpendicular\nD. Cannot be inferred";
        assert!(matches!(
            option_text_rule(echo, &choices(&LINES)),
            RuleOutcome::NoValue { count: 4, .. }
        ));
    }

    #[test]
    fn no_option_named_reads_nothing() {
        assert!(matches!(
            option_text_rule("The answer is that they meet.", &choices(&LINES)),
            RuleOutcome::NoValue { count: 1, .. }
        ));
        assert_eq!(
            option_text_rule("I am not sure about this one.", &choices(&LINES)),
            RuleOutcome::NoMatch
        );
        // Numeric options are the numeric rules' to read.
        assert_eq!(
            option_text_rule("150.8", &choices(&["94.2", "150.8"])),
            RuleOutcome::NoMatch
        );
    }
}
