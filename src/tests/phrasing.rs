//! `phrasing=1,2,3` (GeoEval's rephrased questions): another wording of the same
//! question. Checked against the base image of the same annotation, from the texts
//! and Scenes themselves: the numbers and named elements of each question are the
//! original's, the solution and answer are unchanged, and the image is identical.

use geomrender::generate::colours::{COLOURS, GRAYS};
use geomrender::generate::{GenerateOptions, generate_range};
use geomrender::pipeline::expand_line;
use geomrender::variants::Plan;
use std::collections::HashMap;

/// What a wording must keep: numbers, vertex names (capital runs such as `ABCD`),
/// Greek angle names (and π), single-letter side names and colour names, in text
/// order (the wordings may move the π sentence, so callers compare them sorted).
fn content(question: &str) -> Vec<String> {
    let mut colours: Vec<&str> = COLOURS
        .iter()
        .copied()
        .chain(GRAYS.iter().map(|g| g.0))
        .collect();
    colours.sort_by_key(|w| std::cmp::Reverse(w.len()));
    let mut text = question.to_string();
    let mut out = Vec::new();
    // Colour names first (some are two words), then the remaining tokens.
    let mut found: Vec<(usize, String)> = Vec::new();
    for c in colours {
        while let Some(at) = text.find(&format!(" {c} ")) {
            found.push((at, c.to_string()));
            text.replace_range(at + 1..at + 1 + c.len(), &"_".repeat(c.len()));
        }
    }
    let mut at = 0;
    for token in text.split(|ch: char| ch.is_whitespace() || ",?()".contains(ch)) {
        let t = token.trim_end_matches('.');
        let keep = t.chars().any(|c| c.is_ascii_digit())
            || (t.len() >= 2
                && t.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
            || t.chars().all(|c| ('α'..='ω').contains(&c)) && !t.is_empty()
            || (t.len() == 1 && t.chars().all(|c| c.is_ascii_lowercase()));
        if keep {
            found.push((at, t.to_string()));
        }
        at += token.len() + 1;
    }
    found.sort();
    out.extend(found.into_iter().map(|(_, t)| t));
    out
}

#[test]
fn every_wording_keeps_the_facts_solution_answer_and_image() {
    let plan = Plan::parse("phrasing=1,2,3;annotation=coordinate,individual", true).unwrap();
    let bases_plan = Plan::parse("annotation=individual", false).unwrap();
    let opts = GenerateOptions {
        seed: 5,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let mut checked = 0;
    for p in generate_range(&opts, 0, 300) {
        let p = p.unwrap();
        let line = serde_json::to_string(&p).unwrap();
        let jobs = expand_line(&line, &plan).unwrap();
        // The base of each annotation: the job without a phrasing.
        // The base image of each annotation: the base and `annotation=individual`.
        let base_jobs = expand_line(&line, &bases_plan).unwrap();
        let bases: HashMap<_, _> = base_jobs
            .iter()
            .map(|j| (j.problem.as_ref().unwrap().annotation, j))
            .collect();
        let mut wordings: HashMap<_, Vec<String>> = HashMap::new();
        for job in jobs.iter().filter(|j| j.scene.id.contains("phrasing-")) {
            let f = job.problem.as_ref().unwrap();
            let base = bases[&f.annotation];
            let b = base.problem.as_ref().unwrap();
            let id = &job.scene.id;
            assert_ne!(f.question, b.question, "{id}: the wording did not change");
            let sorted = |q: &str| {
                let mut c = content(q);
                c.sort();
                c
            };
            assert_eq!(
                sorted(&f.question),
                sorted(&b.question),
                "{id}: numbers or names differ\n  base: {}\n  this: {}",
                b.question,
                f.question
            );
            assert_eq!(f.cot, b.cot, "{id}");
            assert_eq!(
                f.answer.number().map(f64::to_bits),
                b.answer.number().map(f64::to_bits),
                "{id}"
            );
            let (mut s, mut t) = (job.scene.clone(), base.scene.clone());
            s.id.clear();
            t.id.clear();
            assert_eq!(
                serde_json::to_string(&s).unwrap(),
                serde_json::to_string(&t).unwrap(),
                "{id}: the image changed"
            );
            wordings
                .entry(f.annotation)
                .or_default()
                .push(f.question.clone());
            checked += 1;
        }
        for (_, mut qs) in wordings {
            let n = qs.len();
            qs.sort();
            qs.dedup();
            assert_eq!(qs.len(), n, "{}: two wordings are the same", p.id);
        }
    }
    assert_eq!(checked, 300 * 3 * 2);
}

#[test]
fn the_content_tokens_are_what_the_check_needs() {
    assert_eq!(
        content(
            "If the length of the AB side of the gray ABCD shape is 5.5 and α is 30, compute x. Assume π = 3.14."
        ),
        ["AB", "gray", "ABCD", "5.5", "α", "30", "x", "π", "3.14"]
    );
}

/// A Problem edited to a wording that does not exist is refused with a reason.
#[test]
fn an_unknown_wording_in_a_problem_is_an_error() {
    let opts = GenerateOptions::default();
    let p = generate_range(&opts, 0, 1).remove(0).unwrap();
    let mut v: serde_json::Value = serde_json::to_value(&p).unwrap();
    v["params"]["phrasing"] = 7.into();
    let plan = Plan::parse("opacity=1", false).unwrap();
    let Err(err) = expand_line(&v.to_string(), &plan) else {
        panic!("a wording that does not exist was accepted");
    };
    let msg = err.fault.to_string();
    assert!(
        msg.contains("params.phrasing") && msg.contains("7 is not a wording"),
        "{msg}"
    );
}
