//! Answer extraction: an ordered cascade of named rules over normalised model output.
//!
//! Rules run in the order of [`Rule::CASCADE`]; the first that yields a value wins and
//! is recorded with the prediction, so every score can be audited (`geomrender score
//! --explain ID`). Within a rule the *last* occurrence in the text is tried first: models
//! revise themselves ("I first thought the answer is 12 … so the answer is 14"). An
//! occurrence whose text holds no readable value is skipped and the next one tried.
//!
//! The answer text after a trigger ("answer is", `\boxed{`) is read as one clause: up to
//! the end of the line or sentence, cut before ", since …"-style asides; if it is an
//! equation (`x = 12.5`, `2 * 22 = 44`) the value after the last `=` or `≈` counts.
//!
//! Known limits, kept for fidelity to GeoEval or for lack of a safe reading: the
//! GeoEval rules run before the last-number fallback, so "the value of x is 5, hence
//! the angle is 75" reads 5 when no answer phrase follows; decimal commas (`12,5`) and
//! plain-space thousands groups (`1 234`) are not numbers; `\frac` reads numbers and π
//! only, not nested expressions.

use super::cascade::{Extracted, Rule, RuleOutcome, clause_after, head, re, trigger};
use super::letters::{tokens_at, whole_reply};
use super::normalize::{find_values, first_value, normalize_text};
use super::option_text::option_text_rule;
use super::relations::is_cannot_be_inferred;
use regex::Regex;
use std::sync::LazyLock;

/// One step of the trace.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Attempt {
    pub rule: Rule,
    pub outcome: RuleOutcome,
}

/// The result of running the cascade on one prediction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Extraction {
    /// The answer, `None` when nothing was read (unparsed: the model refused,
    /// hedged, or wrote nothing readable).
    pub answer: Option<Extracted>,
    /// The rule that decided: a rule of the cascade, [`Rule::Hedged`], or
    /// [`Rule::None`] if none did.
    pub rule: Rule,
    /// The normalised text the rules ran on.
    pub normalized: String,
    /// Rules tried, in order: up to the deciding one, or all of them for [`explain`].
    pub trace: Vec<Attempt>,
}

/// Runs the cascade and stops at the first rule that fires. `choices` are the option
/// texts when the item is multiple choice.
pub(crate) fn extract(raw: &str, choices: Option<&[String]>) -> Extraction {
    run(raw, choices, true)
}

/// Like [`extract`] but tries every rule, so the trace shows what each would have read.
pub(crate) fn explain(raw: &str, choices: Option<&[String]>) -> Extraction {
    run(raw, choices, false)
}

fn run(raw: &str, choices: Option<&[String]>, stop_at_first: bool) -> Extraction {
    let normalized = normalize_text(raw);
    let mut trace = Vec::new();
    let mut decided: Option<(Rule, Option<Extracted>)> = None;
    for rule in Rule::CASCADE {
        let outcome = apply(rule, &normalized, choices);
        if decided.is_none() {
            decided = match &outcome {
                RuleOutcome::Fired { answer, .. } => Some((rule, *answer)),
                RuleOutcome::Hedged { .. } => Some((Rule::Hedged, None)),
                _ => None,
            };
        }
        trace.push(Attempt { rule, outcome });
        if stop_at_first && decided.is_some() {
            break;
        }
    }
    let (rule, answer) = decided.unwrap_or((Rule::None, None));
    Extraction {
        answer,
        rule,
        normalized,
        trace,
    }
}

fn apply(rule: Rule, text: &str, choices: Option<&[String]>) -> RuleOutcome {
    let count = choices.map(<[String]>::len);
    match rule {
        Rule::Boxed => boxed(text, count),
        Rule::OptionText => match choices {
            Some(texts) => option_text_rule(text, texts),
            None => RuleOutcome::NotApplicable,
        },
        Rule::OptionLetter => match count {
            Some(n) => option_letter_rule(text, n),
            None => RuleOutcome::NotApplicable,
        },
        Rule::Refusal => refusal(text, choices),
        Rule::LastNumber => match find_values(text).last() {
            Some(m) => RuleOutcome::Fired {
                evidence: text[m.span.clone()].to_string(),
                answer: Some(Extracted::Number(m.value)),
            },
            None => RuleOutcome::NoMatch,
        },
        Rule::Hedged | Rule::TooLong | Rule::None => RuleOutcome::NoMatch,
        _ => match trigger(rule) {
            Some(r) => phrase(rule, r, text, count),
            None => RuleOutcome::NoMatch,
        },
    }
}

/// A phrase rule: the last trigger occurrence whose following clause holds a value.
fn phrase(rule: Rule, trigger: &Regex, text: &str, choices: Option<usize>) -> RuleOutcome {
    let ends: Vec<(usize, usize)> = trigger
        .find_iter(text)
        .map(|m| (m.start(), m.end()))
        .collect();
    let mut last_evidence = None;
    for &(start, end) in ends.iter().rev() {
        let clause = clause_after(&text[end..]);
        let evidence = format!("{}{}", &text[start..end], clause);
        if let Some((reading, rest)) = read_answer(clause, choices) {
            let degrees_ok = rule != Rule::GeoevalAnswerToDegrees || {
                let rest = rest.trim_start().to_lowercase();
                rest.starts_with('°') || rest.starts_with("degree")
            };
            if degrees_ok {
                return reading.outcome(evidence.trim().to_string());
            }
        }
        last_evidence.get_or_insert(evidence);
    }
    match last_evidence {
        None => RuleOutcome::NoMatch,
        Some(evidence) => RuleOutcome::NoValue {
            count: ends.len(),
            evidence: evidence.trim().to_string(),
        },
    }
}

/// What a clause or a box holds: an answer, or several options named at once.
enum Reading {
    Extracted(Extracted),
    Hedged(Vec<usize>),
}

impl Reading {
    fn outcome(self, evidence: String) -> RuleOutcome {
        match self {
            Reading::Extracted(answer) => RuleOutcome::Fired {
                evidence,
                answer: Some(answer),
            },
            Reading::Hedged(options) => RuleOutcome::Hedged { evidence, options },
        }
    }
}

/// Reads one answer from a clause: option letters at its start (items with choices:
/// one option, or a hedge naming several), else the first number of the clause's
/// head (after the last `=`/`≈` of an equation). Returns it and the text after it.
fn read_answer(clause: &str, choices: Option<usize>) -> Option<(Reading, &str)> {
    static BREAK: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\s\((?:[a-z])|,\s|\s(?:since|because|as|where|which|so|and|but|given|if|when|while|from|rounded|or)\s",
        )
    });
    static LEADING: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(?:[\s:*=\x22'“{]|\\boxed\s*\{|\\fbox\s*\{)+"));
    let stripped = LEADING.find(clause).map_or(clause, |m| &clause[m.end()..]);
    if let Some(n) = choices
        && let Some((named, len)) = tokens_at(stripped)
    {
        match named[..] {
            [index] if index < n => {
                return Some((
                    Reading::Extracted(Extracted::Choice(index)),
                    &stripped[len..],
                ));
            }
            // A letter past the options is no answer: a number may still follow.
            [_] => {}
            _ => return Some((Reading::Hedged(named), &stripped[len..])),
        }
    }
    let head_end = BREAK.find(stripped).map_or(stripped.len(), |m| m.start());
    let head = &stripped[..head_end];
    let from = head.rfind(['=', '≈']).map_or(0, |i| {
        i + head[i..].chars().next().map_or(1, char::len_utf8)
    });
    let m = first_value(&head[from..])?;
    Some((
        Reading::Extracted(Extracted::Number(m.value)),
        &stripped[from + m.span.end..],
    ))
}

fn boxed(text: &str, choices: Option<usize>) -> RuleOutcome {
    static OPEN: LazyLock<Regex> = LazyLock::new(|| re(r"\\(?:boxed|fbox)\s*\{"));
    let opens: Vec<(usize, usize)> = OPEN.find_iter(text).map(|m| (m.start(), m.end())).collect();
    if opens.is_empty() {
        return RuleOutcome::NoMatch;
    }
    let groups = brace_groups(text);
    let mut last_evidence = None;
    for &(start, content_start) in opens.iter().rev() {
        let content_end = closing_brace(&groups, content_start - 1, text.len());
        let content = &text[content_start..content_end];
        let evidence = || text[start..(content_end + 1).min(text.len())].to_string();
        if let Some((reading, _)) = read_answer(head(content), choices) {
            return reading.outcome(evidence());
        }
        if last_evidence.is_none() {
            last_evidence = Some(evidence());
        }
    }
    match last_evidence {
        None => RuleOutcome::NoMatch,
        Some(evidence) => RuleOutcome::NoValue {
            count: opens.len(),
            evidence,
        },
    }
}

/// Every `{` of `text` with the `}` that closes it (`None`: unclosed), in order of
/// the `{`: one pass, however deeply the groups nest.
fn brace_groups(text: &str) -> Vec<(usize, Option<usize>)> {
    let mut groups = Vec::new();
    let mut open = Vec::new();
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'{' => {
                open.push(groups.len());
                groups.push((i, None));
            }
            b'}' => {
                if let Some(g) = open.pop() {
                    groups[g].1 = Some(i);
                }
            }
            _ => {}
        }
    }
    groups
}

/// Byte index of the `}` closing the `{` at `brace` (or `end` when it is unclosed).
fn closing_brace(groups: &[(usize, Option<usize>)], brace: usize, end: usize) -> usize {
    groups
        .binary_search_by_key(&brace, |g| g.0)
        .ok()
        .and_then(|g| groups[g].1)
        .unwrap_or(end)
}

/// "option C", "the correct choice is (c)", "(C) is correct", or a reply of letters
/// only: the last such mention within the `n` options decides; one that names
/// several options ("option A or B", a reply "A or B") is a hedge.
fn option_letter_rule(text: &str, n: usize) -> RuleOutcome {
    static NAMED: LazyLock<Regex> = LazyLock::new(|| {
        re(r"\b(?i:option|choice)\b|\([A-Za-z]\)\s+is\s+(?i:the\s+)?(?i:correct|right|answer)")
    });
    let mut candidates: Vec<(Vec<usize>, String)> = Vec::new();
    // A mention inside the one before ("option B" of "option A or option B") is
    // part of it.
    let mut covered = 0;
    for m in NAMED.find_iter(text) {
        if m.start() < covered {
            continue;
        }
        let Some((named, len)) = tokens_at(&text[m.start()..]) else {
            continue;
        };
        covered = m.start() + len;
        let evidence = match text[m.start()..].starts_with('(') {
            true => m.as_str(),
            false => &text[m.start()..covered],
        };
        candidates.push((named, evidence.trim().to_string()));
    }
    if let Some(named) = whole_reply(text) {
        candidates.push((named, text.trim().to_string()));
    }
    let count = candidates.len();
    let decides = |named: &[usize]| named.len() > 1 || named[0] < n;
    match candidates.iter().rev().find(|(named, _)| decides(named)) {
        Some((named, evidence)) if named.len() > 1 => RuleOutcome::Hedged {
            evidence: evidence.clone(),
            options: named.clone(),
        },
        Some((named, evidence)) => RuleOutcome::Fired {
            evidence: evidence.clone(),
            answer: Some(Extracted::Choice(named[0])),
        },
        None => match candidates.pop() {
            Some((_, evidence)) => RuleOutcome::NoValue { count, evidence },
            None => RuleOutcome::NoMatch,
        },
    }
}

/// A refusal with no number after it: no answer. One that says the problem itself
/// is undecided ("It cannot be determined.", "There is not enough information"),
/// rather than that the model will not answer ("I can't answer", "I don't know"),
/// is on an item with a "Cannot be inferred" option that option: it says what the
/// option says. A model that declines never earns that option.
fn refusal(text: &str, choices: Option<&[String]>) -> RuleOutcome {
    static REFUSAL: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?ix)
            (?P<undecided>
                \b(?:cannot|can't|can\s+not)\s+be\s+(?:determined|inferred|concluded|established|deduced|told|known)
              | \b(?:impossible|not\s+possible)\s+to\s+(?:determine|tell|infer|conclude|deduce|say)
              | \b(?:not\s+enough|insufficient)\s+(?:information|data)
              | \b(?:undetermined|indeterminate|undeterminable|not\s+determinable)\b
            )
          | \b(?:cannot|can't|can\s+not)\s+be\s+(?:computed|calculated|found|answered|solved)
          | \bcan(?:not|'t|\s+not)\s+(?:determine|compute|calculate|find|answer|solve|tell|be\s+determined)
          | \bunable\s+to\s+(?:determine|compute|calculate|find|answer|solve|tell)
          | \b(?:impossible|not\s+possible)\s+to\s+(?:compute|calculate|find|answer|solve)
          | \bno\s+(?:answer|solution)\b
          | \bi\s+(?:do\s+not|don't)\s+know\b
          | \bN/A\b
        ")
    });
    static LISTED: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:[-•*]\s+)?\(?[A-Za-z][.):]\s*$"));
    // "D. Cannot be inferred" on a line of its own is an option listed, not said.
    let said = |m: &regex::Captures<'_>| {
        let start = m.get(0).map_or(0, |m| m.start());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        !LISTED.is_match(&text[line_start..start])
    };
    let Some(last) = REFUSAL.captures_iter(text).filter(said).last() else {
        return RuleOutcome::NoMatch;
    };
    let (Some(whole), undecided) = (last.get(0), last.name("undecided").is_some()) else {
        return RuleOutcome::NoMatch;
    };
    let evidence = whole.as_str().to_string();
    if !find_values(&text[whole.end()..]).is_empty() {
        return RuleOutcome::NoValue {
            count: REFUSAL.captures_iter(text).filter(said).count(),
            evidence,
        };
    }
    let cannot_be_inferred = choices
        .filter(|_| undecided)
        .and_then(|c| (0..c.len()).find(|&i| is_cannot_be_inferred(c, i)));
    RuleOutcome::Fired {
        evidence,
        answer: cannot_be_inferred.map(Extracted::Choice),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> (Option<f64>, Rule) {
        let e = extract(s, None);
        let v = match e.answer {
            Some(Extracted::Number(v)) => Some(v),
            _ => None,
        };
        (v, e.rule)
    }

    #[test]
    fn names_round_trip_and_cascade_order() {
        for r in Rule::ALL {
            assert_eq!(Rule::from_name(r.name()), Some(r));
        }
        assert_eq!(Rule::ALL[0], Rule::FinalAnswer);
        assert_eq!(Rule::ALL[Rule::CASCADE.len()], Rule::Hedged);
        assert_eq!(Rule::ALL.last(), Some(&Rule::None));
    }

    #[test]
    fn last_occurrence_wins() {
        let s = "At first the answer is 12. Rechecking, the answer is 14.";
        assert_eq!(num(s), (Some(14.0), Rule::AnswerIs));
    }

    #[test]
    fn equation_takes_last_side() {
        assert_eq!(
            num("The final answer is 2 * (10 + 12) = 2 * 22 = 44."),
            (Some(44.0), Rule::FinalAnswer)
        );
        assert_eq!(
            num("Answer: 12 (since AB=3 and BC=4)"),
            (Some(12.0), Rule::AnswerIs)
        );
    }

    fn four() -> Vec<String> {
        ["30", "20", "15", "10"].map(String::from).to_vec()
    }

    #[test]
    fn letters_only_with_choices() {
        let four = four();
        let e = extract("The answer is C.", Some(&four));
        assert_eq!(
            (e.answer, e.rule),
            (Some(Extracted::Choice(2)), Rule::AnswerIs)
        );
        let e = extract("The answer is E.", Some(&four));
        assert_eq!(e.rule, Rule::None);
        let e = extract("The answer is C.", None);
        assert_eq!(e.rule, Rule::None);
    }

    fn relation_choices() -> Vec<String> {
        [
            "Parallel",
            "Perpendicular",
            "Intersecting but not perpendicular",
            "Cannot be inferred",
        ]
        .map(String::from)
        .to_vec()
    }

    fn read(s: &str) -> (Option<Extracted>, Rule) {
        let e = extract(s, Some(&relation_choices()));
        (e.answer, e.rule)
    }

    /// The forms the issue names, each read as its option.
    #[test]
    fn lower_case_letters_in_the_forms_models_write() {
        let c = Some(Extracted::Choice(2));
        let d = Some(Extracted::Choice(3));
        assert_eq!(read("answer: (c)"), (c, Rule::AnswerIs));
        assert_eq!(read("The correct option is d."), (d, Rule::OptionLetter));
        assert_eq!(read("c"), (c, Rule::OptionLetter));
        assert_eq!(read("**(c)**"), (c, Rule::OptionLetter));
        assert_eq!(
            read("Answer: C) Intersecting but not perpendicular"),
            (c, Rule::AnswerIs)
        );
        assert_eq!(read("I choose option c"), (c, Rule::OptionLetter));
        assert_eq!(read("the answer is c."), (c, Rule::AnswerIs));
        // An article is not a letter.
        assert_eq!(read("The answer is a right angle.").0, None);
    }

    #[test]
    fn hedges_are_unparsed() {
        for s in [
            "The answer is A, B, C or D",
            "A or B",
            "A and B",
            "(A) or (D)",
            "The answer is either (b) or (c).",
            "Final answer: A/B",
            "\\boxed{A or C}",
            "It is option A or option B.",
        ] {
            assert_eq!(read(s), (None, Rule::Hedged), "{s:?}");
        }
        // One option named twice, or points named in a statement, are no hedge.
        assert_eq!(
            read("The answer is A or A."),
            (Some(Extracted::Choice(0)), Rule::AnswerIs)
        );
        assert_eq!(
            read("Answer: A, since A and B lie on the line."),
            (Some(Extracted::Choice(0)), Rule::AnswerIs)
        );
    }

    #[test]
    fn a_refusal_is_cannot_be_inferred_where_that_is_an_option() {
        for s in [
            "It cannot be determined.",
            "There is not enough information to tell.",
        ] {
            assert_eq!(
                read(s),
                (Some(Extracted::Choice(3)), Rule::Refusal),
                "{s:?}"
            );
            assert_eq!(num(s), (None, Rule::Refusal), "{s:?}");
        }
        let three: Vec<String> = ["Parallel", "Perpendicular", "Skew"]
            .map(String::from)
            .to_vec();
        let e = extract("It cannot be determined.", Some(&three));
        assert_eq!((e.answer, e.rule), (None, Rule::Refusal));
    }

    #[test]
    fn explain_tries_every_rule() {
        let e = explain("The final answer is 44.", None);
        assert_eq!(e.trace.len(), Rule::CASCADE.len());
        assert_eq!(e.rule, Rule::FinalAnswer);
        let e = extract("The final answer is 44.", None);
        assert_eq!(e.trace.len(), 1);
    }

    #[test]
    fn random_token_soup_never_panics() {
        const TOKENS: [&str; 44] = [
            "answer is",
            "final answer:",
            "\\boxed{",
            "}",
            "{",
            "\\frac{",
            "^",
            "-",
            "−",
            ".",
            ",",
            "1",
            "23",
            "4.5",
            "1,234",
            "π",
            "√",
            "e",
            "×10^",
            "%",
            "°",
            " ",
            "\n",
            "option",
            "A",
            "(C)",
            "=",
            "≈",
            "é",
            "日本",
            "\u{202F}",
            "$",
            "**",
            "\\text{",
            "cannot be determined",
            "value of x is",
            "answer to the problem is",
            "is approximately",
            "the closest value is",
            "\\sqrt",
            "Parallel",
            "not ",
            "cannot be inferred",
            "D. ",
        ];
        let three: Vec<String> = ["Parallel", "Not parallel", "Cannot be inferred"]
            .map(String::from)
            .to_vec();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            let mut s = String::new();
            for _ in 0..(state % 24) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                s.push_str(TOKENS[(state % TOKENS.len() as u64) as usize]);
            }
            let e = explain(&s, Some(&three));
            let f = extract(&s, None);
            assert!(!matches!(f.answer, Some(Extracted::Choice(_))));
            assert!(!matches!(e.answer, Some(Extracted::Choice(3..))), "{s:?}");
            if let Some(Extracted::Number(v)) = e.answer {
                assert!(v.is_finite(), "{s:?}");
            }
        }
    }

    /// Long adversarial outputs (1 MiB, the most `score` reads): every rule reads a
    /// bounded clause per occurrence, so each takes well under a second (0.5 s at
    /// most, measured); a rule that rescanned the rest of the text per occurrence took
    /// over a minute on nested `\boxed{`.
    #[test]
    fn extraction_is_linear_on_long_outputs() {
        let n = crate::score::MAX_PREDICTION_BYTES;
        let fill = |unit: &str| unit.repeat(n / unit.len());
        let texts = [
            fill("\\boxed{"),
            fill("\\text{"),
            fill("answer is x "),
            fill("the final answer is "),
            fill("value of x is y "),
            fill("the side is equal to "),
            fill("option "),
            fill("answer is not parallel "),
            fill("answer: p pa par para "),
            fill("Not parallel\nParallel\n"),
            fill("1 "),
            fill("{"),
            fill("- "),
            fill(" "),
            fill("\\frac{1}{"),
            fill("is about ."),
            format!("{}{}", fill("\\boxed{"), "}".repeat(n / 7)),
            format!("{}x{}", fill("\\text{"), "}".repeat(n / 6)),
        ];
        let options: Vec<String> = [
            "Parallel",
            "Intersecting but not perpendicular",
            "Cannot be inferred",
            "x",
        ]
        .map(String::from)
        .to_vec();
        for text in &texts {
            let started = std::time::Instant::now();
            let _ = explain(text, Some(&options));
            let took = started.elapsed();
            assert!(
                took < std::time::Duration::from_secs(20),
                "{took:?} on {:?}…",
                &text[..24]
            );
        }
    }

    #[test]
    fn boxed_groups_match_like_a_scan() {
        let text = "a{b{c}d}e}{f{g";
        let groups = brace_groups(text);
        assert_eq!(closing_brace(&groups, 1, text.len()), 7);
        assert_eq!(closing_brace(&groups, 3, text.len()), 5);
        assert_eq!(closing_brace(&groups, 10, text.len()), text.len());
        assert_eq!(
            num(r"\boxed{\boxed{44}} and \boxed{x}"),
            (Some(44.0), Rule::Boxed)
        );
        assert_eq!(num(r"\boxed{2 * 22 = 44}"), (Some(44.0), Rule::Boxed));
    }

    #[test]
    fn empty_and_garbage_read_nothing() {
        // No digit, no option letter, no option text, no refusal: every rule tried,
        // none fired, no answer; `explain` tries each rule of the cascade once, in order.
        for s in [
            "",
            "   ",
            "\\boxed{",
            "answer is",
            "}{",
            "−",
            "é\u{202F}",
            "\\frac{}{}",
        ] {
            for choices in [None, Some(&four()[..3])] {
                let e = extract(s, choices);
                assert_eq!((e.answer, e.rule), (None, Rule::None), "{s:?} {choices:?}");
                assert_eq!(e.trace.len(), Rule::CASCADE.len(), "{s:?}");
                let x = explain(s, choices);
                assert_eq!((x.answer, x.rule), (None, Rule::None), "{s:?} {choices:?}");
                let tried: Vec<Rule> = x.trace.iter().map(|a| a.rule).collect();
                assert_eq!(tried, Rule::CASCADE, "{s:?}");
                assert!(
                    x.trace.iter().all(|a| !matches!(
                        a.outcome,
                        RuleOutcome::Fired { .. } | RuleOutcome::Hedged { .. }
                    )),
                    "{s:?}: {:?}",
                    x.trace
                );
            }
        }
    }
}
