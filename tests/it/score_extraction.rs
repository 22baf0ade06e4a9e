//! The extraction cascade against a fixture of real-looking model outputs
//! (`tests/fixtures/score/extraction.jsonl`): each line names the value that must be
//! read and the rule that must read it, and every rule of the cascade is covered.

use geomrender::score::{Answer, Outcome, Rule, explain, extract};
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

fn expected(case: &Case) -> Option<Answer> {
    match &case.expect {
        serde_json::Value::Null => None,
        serde_json::Value::Number(n) => Some(Answer::Number(n.as_f64().expect("finite"))),
        serde_json::Value::String(s) => Some(Answer::Choice(usize::from(s.as_bytes()[0] - b'A'))),
        other => panic!("bad expect {other}"),
    }
}

fn same(a: Option<Answer>, b: Option<Answer>) -> bool {
    match (a, b) {
        (Some(Answer::Number(x)), Some(Answer::Number(y))) => {
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
    let cases = cases();
    for rule in Rule::ALL {
        let n = cases.iter().filter(|c| c.rule == rule.name()).count();
        assert!(n >= 2, "rule {rule} has {n} fixture cases; want at least 2");
    }
}

#[test]
fn trace_is_consistent_with_the_decision() {
    for c in cases() {
        let choices = c.choices.as_deref();
        let fast = extract(&c.prediction, choices);
        let full = explain(&c.prediction, choices);
        assert_eq!(
            (fast.answer, fast.rule),
            (full.answer, full.rule),
            "{}",
            c.note
        );
        // Every rule before the deciding one did not fire; the deciding one did.
        let pos = full.trace.iter().position(|a| a.rule == full.rule);
        for a in &full.trace[..pos.unwrap_or(full.trace.len())] {
            assert!(
                !matches!(a.outcome, Outcome::Fired { .. }),
                "{}: {:?} fired early",
                c.note,
                a.rule
            );
        }
        if let Some(p) = pos {
            assert!(
                matches!(full.trace[p].outcome, Outcome::Fired { .. }),
                "{}",
                c.note
            );
        }
        assert_eq!(
            fast.trace.last().map(|a| a.rule),
            pos.map(|_| full.rule).or(Some(Rule::LastNumber))
        );
    }
}

#[test]
fn letters_are_never_read_without_choices() {
    for c in cases() {
        let e = extract(&c.prediction, None);
        assert!(!matches!(e.answer, Some(Answer::Choice(_))), "{}", c.note);
    }
}
