//! A run prints the variant values not every base has, a shard's `done.json`
//! records the counts this test tallies itself from each problem's expansion, and
//! `merge` prints the sum of its shards'. (The README's table: the library's own
//! test, `src/tests/availability.rs`.)

use super::support::cli::{bin, run_ok};
use geomrender::generate::relations::{RelationOptions, generate_relations};
use geomrender::generate::{GenerateOptions, Problem, generate_range};
use geomrender::output::availability::VariantOutcome;
use geomrender::pipeline::Job;
use geomrender::variants::Plan;
use std::collections::BTreeMap;

/// Planned, made, not made, identical and failed, per (variant, kind of base).
type Tally = BTreeMap<(String, String), [u64; 5]>;

/// The counts tallied here from each problem's expansion (`Job::expand_problem`),
/// keyed as `done.json` writes them (`of`: the kind of base, as JSON).
fn tally(problems: &[Problem], plan: &Plan) -> Tally {
    let mut t = Tally::new();
    for p in problems {
        let e = Job::expand_problem(p, plan).unwrap();
        let of = serde_json::to_value(e.bases.unwrap()).unwrap();
        for (variant, outcome) in &e.outcomes {
            let c = t
                .entry((variant.clone(), of.as_str().unwrap().to_string()))
                .or_default();
            c[0] += 1;
            c[match outcome {
                VariantOutcome::Made => 1,
                VariantOutcome::NotMade => 2,
                VariantOutcome::Identical => 3,
                VariantOutcome::Failed => 4,
            }] += 1;
        }
    }
    t
}

/// `done.json`'s `availability` rows added into `t`.
fn add_rows(t: &mut Tally, rows: &serde_json::Value) {
    for r in rows.as_array().unwrap() {
        let key = (
            r["variant"].as_str().unwrap().to_string(),
            r["of"].as_str().unwrap().to_string(),
        );
        let c = t.entry(key).or_default();
        for (i, f) in ["bases", "made", "not_made", "identical", "failed"]
            .iter()
            .enumerate()
        {
            c[i] += r[f].as_u64().unwrap();
        }
    }
}

/// The variant values made for fewer bases than planned, with their "M of N" counts.
fn partial(t: &Tally) -> Vec<(String, Vec<String>)> {
    let mut out: BTreeMap<String, (bool, Vec<String>)> = BTreeMap::new();
    for ((variant, _), c) in t {
        let e = out.entry(variant.clone()).or_default();
        e.0 |= c[1] < c[0];
        e.1.push(format!("{} of {}", c[1], c[0]));
    }
    (out.into_iter())
        .filter(|(_, (short, _))| *short)
        .map(|(v, (_, counts))| (v, counts))
        .collect()
}

/// Each partial value's line is in `stderr`: `<value>: made for`, then its counts.
fn assert_printed(stderr: &str, expected: &Tally) {
    let short = partial(expected);
    assert!(
        !short.is_empty(),
        "the plan has values not made for every base"
    );
    for (v, counts) in short {
        let line = (stderr.lines())
            .find(|l| l.contains(&format!("{v}: made for")))
            .unwrap_or_else(|| panic!("no line for {v} in:\n{stderr}"));
        for c in counts {
            assert!(line.contains(&c), "{c} not in {line:?}");
        }
    }
}

/// A run prints the variant values not every base has, and a shard's
/// `done.json` records the counts tallied here; `merge` prints the sum of its
/// shards'.
#[test]
fn runs_print_and_record_the_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let geomverse = GenerateOptions {
        seed: 5,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let mut problems: Vec<Problem> = (generate_range(&geomverse, 0, 12).into_iter())
        .map(|p| p.unwrap())
        .collect();
    let relations = generate_relations(&RelationOptions::default(), 0, 12);
    problems.extend(relations.into_iter().map(|p| p.unwrap()));
    let input = tmp.path().join("in.jsonl");
    let lines: Vec<String> = problems
        .iter()
        .map(|p| serde_json::to_string(p).unwrap())
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let spec = "unrelated=1;aux;relabel";
    let expected = tally(&problems, &Plan::parse(spec, false).unwrap());
    // One run: its summary lists the partial values.
    let out = run_ok(
        bin()
            .args(["render", "--backend", "cpu", "--quiet", "--variants", spec])
            .arg(&input)
            .arg("--out")
            .arg(tmp.path().join("one")),
    );
    assert_printed(&String::from_utf8_lossy(&out.stderr), &expected);
    // Two shards: each done.json's counts, summed, are the whole run's.
    let sharded = tmp.path().join("two");
    let mut sum = Tally::new();
    for s in ["0/2", "1/2"] {
        run_ok(
            bin()
                .args(["render", "--backend", "cpu", "--quiet", "--variants", spec])
                .args(["--shard", s])
                .arg(&input)
                .arg("--out")
                .arg(&sharded),
        );
        let done = sharded.join(format!("shards/{}-of-2/done.json", &s[..1]));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(done).unwrap()).unwrap();
        add_rows(&mut sum, &v["availability"]);
    }
    assert_eq!(sum, expected);
    let merged = run_ok(bin().arg("merge").arg(&sharded));
    assert_printed(&String::from_utf8_lossy(&merged.stderr), &expected);
}
