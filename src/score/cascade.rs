//! The extraction cascade's vocabulary, shared by the cascade (`extract`) and the
//! rules that live in files of their own (`letters`, `option_text`): what a rule
//! reads ([`Extracted`]), the rules in order ([`Rule`]), what one rule did
//! ([`RuleOutcome`]), the phrase rules' triggers and the answer clause after one.

use regex::Regex;
use serde::Serialize;
use std::fmt;
use std::sync::LazyLock;

/// An extracted answer: a number, or an option (0-based index) when the item has choices.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Extracted {
    Number(f64),
    Choice(usize),
}

impl fmt::Display for Extracted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Extracted::Number(v) => write!(f, "{v}"),
            Extracted::Choice(i) => write!(f, "option {}", option_letter(*i)),
        }
    }
}

/// The letter of option `index` (0 → `A`).
pub(crate) fn option_letter(index: usize) -> char {
    u8::try_from(index)
        .ok()
        .filter(|i| *i < 26)
        .map_or('?', |i| char::from(b'A' + i))
}

/// The rules of the cascade, in order, plus [`Rule::None`] when nothing fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// "final answer is X", "Final Answer: X", `"final_answer": X`.
    FinalAnswer,
    /// `\boxed{X}` / `\fbox{X}`, braces matched.
    Boxed,
    /// "answer is X", "Answer: X", "answer = X", `"answer": X` (subsumes GeoEval's "correct answer is
    /// (.+)" and "answer is ([\d.]+)").
    AnswerIs,
    /// Only for items with choices: an option named by its text after an answer
    /// trigger ("The answer is Parallel."), or a line that is just an option
    /// ("**Cannot be inferred**"); the longest option wins (module `option_text`).
    OptionText,
    /// GeoEval table 10: "value of (\w+) is ([\d.]+)".
    GeoevalValueOf,
    /// GeoEval table 10: "answer should be (.+) degrees" (degrees optional).
    GeoevalAnswerShouldBe,
    /// GeoEval table 10: "answer to (.+) is (.+) degrees" (degrees or ° required).
    GeoevalAnswerToDegrees,
    /// GeoEval table 10: "answer to the problem is (.+)" (or "question").
    GeoevalAnswerToProblem,
    /// GeoEval table 10: "The closest (.+) is (.+)".
    GeoevalClosest,
    /// GeoEval table 10: "the (.+) is equal to (.+)".
    GeoevalEqualTo,
    /// GeoEval table 10: "(.+) is approximately (.+) units" (also "about", "roughly";
    /// units optional).
    GeoevalApproximately,
    /// Only for items with choices: "option C", "the correct choice is (C)", "(C) is
    /// correct", "I choose option c", or a reply that is just a letter ("C", "(c).",
    /// "**C**"); lower case where it cannot be a word (module `letters`).
    OptionLetter,
    /// An explicit refusal ("cannot be determined", "not enough information", …) with
    /// no number after it: no answer, rather than a number from the reasoning. On an
    /// item whose options hold "Cannot be inferred", that option.
    Refusal,
    /// The last number in the text.
    LastNumber,
    /// Not a rule of the cascade: the rule that decided read two or more different
    /// options ("A or B", "(A) and (C)", "A, B, C or D"), so no answer is read.
    Hedged,
    /// Not a rule of the cascade: an output longer than
    /// `MAX_PREDICTION_BYTES`, not read.
    TooLong,
    /// Nothing could be read (empty output, no number).
    None,
}

impl Rule {
    /// The cascade, in the order the rules are tried.
    pub(crate) const CASCADE: [Rule; 14] = [
        Rule::FinalAnswer,
        Rule::Boxed,
        Rule::AnswerIs,
        Rule::OptionText,
        Rule::GeoevalValueOf,
        Rule::GeoevalAnswerShouldBe,
        Rule::GeoevalAnswerToDegrees,
        Rule::GeoevalAnswerToProblem,
        Rule::GeoevalClosest,
        Rule::GeoevalEqualTo,
        Rule::GeoevalApproximately,
        Rule::OptionLetter,
        Rule::Refusal,
        Rule::LastNumber,
    ];

    /// Every rule name that can be recorded: the cascade, then `hedged`, `too_long`
    /// and `none`, the decisions that read no answer.
    #[cfg(test)]
    pub(crate) const ALL: [Rule; 17] = {
        let mut all = [Rule::None; 17];
        let mut i = 0;
        while i < Rule::CASCADE.len() {
            all[i] = Rule::CASCADE[i];
            i += 1;
        }
        all[i] = Rule::Hedged;
        all[i + 1] = Rule::TooLong;
        all
    };

    /// The snake_case name used in reports and fixtures.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Rule::FinalAnswer => "final_answer",
            Rule::Boxed => "boxed",
            Rule::AnswerIs => "answer_is",
            Rule::OptionText => "option_text",
            Rule::GeoevalValueOf => "geoeval_value_of",
            Rule::GeoevalAnswerShouldBe => "geoeval_answer_should_be",
            Rule::GeoevalAnswerToDegrees => "geoeval_answer_to_degrees",
            Rule::GeoevalAnswerToProblem => "geoeval_answer_to_problem",
            Rule::GeoevalClosest => "geoeval_closest",
            Rule::GeoevalEqualTo => "geoeval_equal_to",
            Rule::GeoevalApproximately => "geoeval_approximately",
            Rule::OptionLetter => "option_letter",
            Rule::Refusal => "refusal",
            Rule::LastNumber => "last_number",
            Rule::Hedged => "hedged",
            Rule::TooLong => "too_long",
            Rule::None => "none",
        }
    }

    /// The rule with this [`Rule::name`].
    #[cfg(test)]
    pub(crate) fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one rule did with the text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RuleOutcome {
    /// The rule does not apply to this item (option letters without choices).
    NotApplicable,
    /// The rule's pattern does not occur.
    NoMatch,
    /// The pattern occurs `count` times but no occurrence holds a readable value;
    /// `evidence` is the last one.
    NoValue { count: usize, evidence: String },
    /// The rule fired: `evidence` is the text it read.
    Fired {
        evidence: String,
        answer: Option<Extracted>,
    },
    /// The rule's deciding occurrence names several options (0-based, in the order
    /// named): the cascade stops there with no answer ([`Rule::Hedged`]).
    Hedged {
        evidence: String,
        options: Vec<usize>,
    },
}

pub(super) fn re(pattern: &str) -> Regex {
    // Patterns are constants covered by the extraction fixture.
    Regex::new(pattern).unwrap_or_else(|e| panic!("bad built-in regex {pattern:?}: {e}"))
}

/// The trigger of each phrase rule; the answer text starts where the match ends.
pub(super) fn trigger(rule: Rule) -> Option<&'static Regex> {
    static FINAL: LazyLock<Regex> =
        LazyLock::new(|| re(r#"(?i)\bfinal[\s_]+answer"?\s*(?:is\b|:|=)\s*:?"#));
    static ANSWER: LazyLock<Regex> =
        LazyLock::new(|| re(r#"(?i)\banswers?"?\s*(?:is\b|:|=)\s*:?"#));
    static VALUE_OF: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bvalue of\s+\w+\s+is\b"));
    static SHOULD_BE: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\banswer should be\b"));
    static TO_DEGREES: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\banswer to\s+[^\n]{1,80}?\s+is\b"));
    static TO_PROBLEM: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\banswer to (?:the |this )?(?:problem|question)\s+is\b"));
    static CLOSEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\bthe closest\s+\w+(?:\s+\w+)?\s+is\b"));
    static EQUAL_TO: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\bthe\s+[^\n.]{1,120}?\s+is\s+equal\s+to\b"));
    static APPROX: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)\b(?:is|are|equals|of)\s+(?:approximately|approx\.|about|roughly|around)\s")
    });
    let r: &'static LazyLock<Regex> = match rule {
        Rule::FinalAnswer => &FINAL,
        Rule::AnswerIs => &ANSWER,
        Rule::GeoevalValueOf => &VALUE_OF,
        Rule::GeoevalAnswerShouldBe => &SHOULD_BE,
        Rule::GeoevalAnswerToDegrees => &TO_DEGREES,
        Rule::GeoevalAnswerToProblem => &TO_PROBLEM,
        Rule::GeoevalClosest => &CLOSEST,
        Rule::GeoevalEqualTo => &EQUAL_TO,
        Rule::GeoevalApproximately => &APPROX,
        _ => return None,
    };
    Some(LazyLock::force(r))
}

/// Longest answer text read after a trigger or inside `\boxed{}`, in bytes. Bounding
/// it keeps extraction linear in the output's length: every occurrence of a trigger
/// reads at most this much, however long the text after it.
const CLAUSE_MAX: usize = 300;

/// The first [`CLAUSE_MAX`] bytes of `s` (fewer, to end on a character boundary).
pub(super) fn head(s: &str) -> &str {
    let mut end = s.len().min(CLAUSE_MAX);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The answer clause after a trigger: the rest of the line (or the next non-empty line
/// when the trigger ends its line), bounded in length, cut at the sentence end.
pub(super) fn clause_after(tail: &str) -> &str {
    static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| re(r"\.(?:\s|$)|[\n;!?]"));
    // Bounded before the line is looked for, so that a text without line breaks is
    // not scanned to its end once per trigger.
    let line = head(tail.trim_start()).split('\n').next().unwrap_or("");
    let cut = SENTENCE_END.find(line).map_or(line.len(), |m| m.start());
    &line[..cut]
}
