//! The extraction cascade against a fixture of real-looking model outputs
//! (`tests/fixtures/score/extraction.jsonl`): each line names the value that must be
//! read and the rule that must read it, and every rule of the cascade is covered.

use geomrender::score::{Extracted, Rule, RuleOutcome, explain, extract};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    prediction: String,
    /// A number, an option letter, or null for "no answer".
    expect: serde_json::Value,
    rule: String,
    note: String,
    #[serde(default)]
    choices: Option<Vec<String>>,
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/score/extraction.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("fixture readable");
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("fixture line {}: {e}", i + 1))
        })
        .collect()
}

fn expected(case: &Case) -> Option<Extracted> {
    match &case.expect {
        serde_json::Value::Null => None,
        serde_json::Value::Number(n) => Some(Extracted::Number(n.as_f64().expect("finite"))),
        serde_json::Value::String(s) => {
            Some(Extracted::Choice(usize::from(s.as_bytes()[0] - b'A')))
        }
        other => panic!("bad expect {other}"),
    }
}

fn same(a: Option<Extracted>, b: Option<Extracted>) -> bool {
    match (a, b) {
        (Some(Extracted::Number(x)), Some(Extracted::Number(y))) => {
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        (a, b) => a == b,
    }
}

#[test]
fn fixture_values_and_rules() {
    let cases = cases();
    assert!(cases.len() >= 80, "fixture has only {} cases", cases.len());
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let rule = Rule::from_name(&c.rule)
            .unwrap_or_else(|| panic!("line {}: unknown rule {}", i + 1, c.rule));
        let e = extract(&c.prediction, c.choices.as_deref());
        let want = expected(c);
        if e.rule != rule || !same(e.answer, want) {
            failures.push(format!(
                "line {} ({}): want {want:?} by {rule}, got {:?} by {}\n    text: {:?}\n    normalized: {:?}",
                i + 1,
                c.note,
                e.answer,
                e.rule,
                c.prediction,
                e.normalized
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn fixture_covers_every_rule() {
    let cases: Vec<Case> = cases().into_iter().chain(letter_cases()).collect();
    // `too_long` is decided before extraction, on the output's length
    // (tests/it/score_bounds.rs).
    for rule in Rule::ALL.into_iter().filter(|r| *r != Rule::TooLong) {
        let n = cases.iter().filter(|c| c.rule == rule.name()).count();
        assert!(n >= 2, "rule {rule} has {n} fixture cases; want at least 2");
    }
}

#[test]
fn trace_is_consistent_with_the_decision() {
    for c in cases().into_iter().chain(letter_cases()) {
        let choices = c.choices.as_deref();
        let fast = extract(&c.prediction, choices);
        let full = explain(&c.prediction, choices);
        assert_eq!(
            (fast.answer, fast.rule),
            (full.answer, full.rule),
            "{}",
            c.note
        );
        // Every rule before the deciding one did not fire; the deciding one did (a
        // hedge is decided by the rule whose reading named several options).
        let decides =
            |o: &RuleOutcome| matches!(o, RuleOutcome::Fired { .. } | RuleOutcome::Hedged { .. });
        let pos = full.trace.iter().position(|a| decides(&a.outcome));
        match pos {
            Some(p) => {
                let hedged = matches!(full.trace[p].outcome, RuleOutcome::Hedged { .. });
                let want = if hedged {
                    Rule::Hedged
                } else {
                    full.trace[p].rule
                };
                assert_eq!(full.rule, want, "{}", c.note);
            }
            None => assert_eq!(full.rule, Rule::None, "{}", c.note),
        }
        assert_eq!(
            fast.trace.last().map(|a| a.rule),
            pos.map(|p| full.trace[p].rule).or(Some(Rule::LastNumber))
        );
    }
}

#[test]
fn letters_are_never_read_without_choices() {
    for c in cases().into_iter().chain(letter_cases()) {
        let e = extract(&c.prediction, None);
        assert!(
            !matches!(e.answer, Some(Extracted::Choice(_))),
            "{}",
            c.note
        );
    }
}

/// The option sets of `tests/fixtures/score/letters.jsonl`, by the name its lines use.
fn option_set(name: &str) -> Vec<String> {
    let set: &[&str] = match name {
        "FOUR" => &[
            "Parallel",
            "Perpendicular",
            "Intersecting but not perpendicular",
            "Cannot be inferred",
        ],
        "THREE" => &["Collinear", "Not collinear", "Cannot be inferred"],
        "FIVE" => &[
            "Inside the circle",
            "On the circle",
            "Outside the circle",
            "Tangent to the circle",
            "Cannot be inferred",
        ],
        other => panic!("unknown option set {other}"),
    };
    set.iter().map(|s| s.to_string()).collect()
}

/// One line of the letters fixture: a surface form models write for a relation
/// item, the option it means (`null`: no option, unparsed), the rule that must read
/// it, and what VLMEvalKit's `can_infer` (vlmeval/utils/matching_util.py at commit
/// e8e78f05, run on the same text and options) reads: a letter, `"Z"` (its refusal
/// class) or `false` (nothing).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LetterCase {
    prediction: String,
    choices: String,
    expect: Option<String>,
    rule: String,
    vlmevalkit: serde_json::Value,
    note: String,
}

fn letter_lines() -> Vec<LetterCase> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/score/letters.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("fixture readable");
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("letters line {}: {e}", i + 1))
        })
        .collect()
}

/// The letters fixture as extraction cases (for the checks on every fixture).
fn letter_cases() -> Vec<Case> {
    letter_lines()
        .into_iter()
        .map(|c| Case {
            prediction: c.prediction,
            expect: c
                .expect
                .map_or(serde_json::Value::Null, serde_json::Value::String),
            rule: c.rule,
            note: c.note,
            choices: Some(option_set(&c.choices)),
        })
        .collect()
}

/// Issue 44: option letters in the forms models write (lower case where it cannot be
/// a word, brackets, list markers, "option c"), hedges naming several options read
/// as none, and "cannot be determined" read as "Cannot be inferred" — on more than 40
/// real-world surface forms, each with the rule that reads it.
#[test]
fn letters_fixture_values_and_rules() {
    let lines = letter_lines();
    assert!(lines.len() >= 40, "only {} surface forms", lines.len());
    let mut failures = Vec::new();
    for (i, c) in lines.iter().enumerate() {
        let choices = option_set(&c.choices);
        let e = extract(&c.prediction, Some(&choices));
        let want = c
            .expect
            .as_deref()
            .map(|l| Extracted::Choice(usize::from(l.as_bytes()[0] - b'A')));
        if e.answer != want || e.rule.name() != c.rule {
            failures.push(format!(
                "line {} ({}): want {want:?} by {}, got {:?} by {}: {:?}",
                i + 1,
                c.note,
                c.rule,
                e.answer,
                e.rule,
                c.prediction
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where we read otherwise than VLMEvalKit's `can_infer`: every such line says why in
/// its note, and the count is the README's ("Letters").
#[test]
fn letters_fixture_differs_from_vlmevalkit_where_it_says() {
    let lines = letter_lines();
    let differ: Vec<&LetterCase> = lines
        .iter()
        .filter(|c| {
            let theirs = c.vlmevalkit.as_str().filter(|l| *l != "Z");
            theirs != c.expect.as_deref()
        })
        .collect();
    let shown: Vec<String> = differ
        .iter()
        .map(|c| {
            format!(
                "{:?}: ours {:?}, VLMEvalKit {}",
                c.prediction, c.expect, c.vlmevalkit
            )
        })
        .collect();
    assert_eq!(
        (lines.len(), differ.len()),
        (LETTER_FORMS, LETTER_FORMS_DIFFERING),
        "{}",
        shown.join("\n")
    );
}

/// The letters fixture's size and how many of its lines VLMEvalKit reads otherwise
/// (quoted in the README).
const LETTER_FORMS: usize = 69;
const LETTER_FORMS_DIFFERING: usize = 25;
