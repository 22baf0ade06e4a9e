//! Hand-written alternative wordings of a question's framing sentences (GeoEval's
//! rephrased questions, §3.1.3, without a language model). Only the frame changes:
//! the facts, element names, numbers, answer and solution are the original's.
//! Wording 0 is GeomVerse's own (table 3).
//!
//! A Problem's wording is `params.phrasing`: [`check`] refuses one that does not
//! exist (read back, and before texts are written), and [`question_of`] writes the
//! question in it (`generate::text`).

use crate::generate::formulas::{self, Formula};
use crate::generate::{LimitError, Problem};

/// The wordings, by number; 0 is the original.
const FRAMES: [Frame; 4] = [
    Frame {
        given: ("If ", ", compute "),
        bare: "Compute ",
        end: ".",
        pi: "Assume π = 3.14.",
        round: "Round computations to 2 decimal places.",
    },
    Frame {
        given: ("Given that ", ", find "),
        bare: "Find ",
        end: ".",
        pi: "Use 3.14 for π.",
        round: "Round each computation to 2 decimal places.",
    },
    Frame {
        given: ("We know that ", ". What is "),
        bare: "What is ",
        end: "?",
        pi: "Take π to be 3.14.",
        round: "Give every intermediate result to 2 decimal places.",
    },
    Frame {
        given: ("Suppose ", ". Calculate "),
        bare: "Calculate ",
        end: ".",
        pi: "Let π be 3.14.",
        round: "Keep 2 decimal places in each computation.",
    },
];

/// The largest wording number (`phrasing=1..=MAX`).
pub(crate) const MAX: u8 = FRAMES.len() as u8 - 1;

/// The sentences around a question's facts and asked quantity.
struct Frame {
    /// Before the facts, and between them and the asked quantity.
    given: (&'static str, &'static str),
    /// Before the asked quantity when nothing is stated.
    bare: &'static str,
    /// After the asked quantity.
    end: &'static str,
    pi: &'static str,
    round: &'static str,
}

/// Whether `k` is the original wording (serde leaves it out of a Problem's JSON).
pub(crate) fn is_original(k: &u8) -> bool {
    *k == 0
}

/// `p`'s wording exists: `params.phrasing` is at most [`MAX`].
pub(crate) fn check(p: &Problem) -> Result<(), LimitError> {
    let k = p.params.phrasing;
    if k > MAX {
        return Err(LimitError {
            path: "params.phrasing".into(),
            reason: format!("{k} is not a wording; they are 0..={MAX}"),
        });
    }
    Ok(())
}

/// `p`'s question in its wording, for `facts` and `asked` in one annotation style:
/// with the π sentence when a step's formula uses π, and the rounding one when its
/// solution `cot` has decimals.
pub(crate) fn question_of(p: &Problem, facts: &str, asked: &str, cot: &str) -> String {
    let uses_pi = p
        .steps
        .iter()
        .any(|s| formulas::by_id(&s.formula).is_some_and(Formula::uses_pi));
    question(p.params.phrasing, facts, asked, uses_pi, has_decimals(cot))
}

/// A digit, a point and a digit: a decimal number.
fn has_decimals(text: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b'.' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

/// The question for `facts` (joined clauses, may be empty) and `asked` in wording
/// `k` (at most [`MAX`]; texts are checked for it first), with the π and rounding
/// sentences when needed.
pub(crate) fn question(k: u8, facts: &str, asked: &str, uses_pi: bool, rounds: bool) -> String {
    let f = &FRAMES[usize::from(k).min(FRAMES.len() - 1)];
    let mut q = if facts.is_empty() {
        format!("{}{asked}{}", f.bare, f.end)
    } else {
        format!("{}{facts}{}{asked}{}", f.given.0, f.given.1, f.end)
    };
    for (wanted, sentence) in [(uses_pi, f.pi), (rounds, f.round)] {
        if wanted {
            q.push(' ');
            q.push_str(sentence);
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording_0_is_geomverses() {
        assert_eq!(
            question(0, "the length of AB is 5", "the area of ABC", true, true),
            "If the length of AB is 5, compute the area of ABC. Assume π = 3.14. \
             Round computations to 2 decimal places."
        );
        assert_eq!(question(0, "", "x", false, false), "Compute x.");
    }

    #[test]
    fn every_wording_differs_and_keeps_the_numbers() {
        let qs: Vec<String> = (0..=MAX)
            .map(|k| question(k, "AB is 5", "the area", true, true))
            .collect();
        for (i, a) in qs.iter().enumerate() {
            for b in &qs[i + 1..] {
                assert_ne!(a, b);
            }
            let nums: Vec<&str> = a
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
                .map(|t| t.trim_matches('.'))
                .collect();
            assert_eq!(nums, ["5", "3.14", "2"], "{a}");
        }
    }
}
