//! `score --matched` and the base-set statement: a manifest where one axis is made
//! for only some base problems. Without `--matched` the report says how many bases
//! each row counts; with it every row, comparison, breakdown, consistency figure and
//! baseline counts the same matched bases, and a model's missing prediction leaves a
//! base out under `--missing exclude` only.

use crate::support::cli::{bin, run_ok};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const CHOICES: [&str; 4] = [
    "Parallel",
    "Perpendicular",
    "Intersecting but not perpendicular",
    "Cannot be inferred",
];

/// 12 relation problems: every one has its base image and `fontsize=8`; only
/// problems 0–4 have `unrelated=1`.
const BASES: usize = 12;
const WITH_UNRELATED: usize = 5;

fn variants(p: usize) -> Vec<Value> {
    let mut v = vec![json!({}), json!({"fontsize": 8})];
    if p < WITH_UNRELATED {
        v.push(json!({"unrelated": 1}));
    }
    v
}

fn id(p: usize, variant: &Value) -> String {
    match variant.as_object().unwrap().iter().next() {
        None => format!("r{p}"),
        Some((axis, value)) => format!("r{p}__{axis}-{value}"),
    }
}

fn gold(p: usize) -> usize {
    p % CHOICES.len()
}

fn write_manifest(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for p in 0..BASES {
        let relation = if p % 2 == 0 {
            "parallel"
        } else {
            "perpendicular"
        };
        for v in variants(p) {
            let row = json!({
                "id": id(p, &v), "base_id": format!("r{p}"), "variant": v,
                "task": "relations", "question": format!("How are lines AB and CD related ({p})?"),
                "answer": gold(p), "choices": CHOICES, "answer_text": CHOICES[gold(p)],
                "relation": relation, "domain": "line", "subset": "basic", "mode": "text",
            });
            text.push_str(&row.to_string());
            text.push('\n');
        }
    }
    let path = dir.join("manifest.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

/// `m1` is right on every image of problems 0–4 and wrong on the others; `m2` is
/// right everywhere but has no prediction for problem 4's `fontsize=8` image.
fn write_predictions(dir: &Path) -> Vec<PathBuf> {
    let letter = |i: usize| char::from(b'A' + i as u8);
    let mut paths = Vec::new();
    for model in ["m1", "m2"] {
        let mut text = String::new();
        for p in 0..BASES {
            for v in variants(p) {
                let id = id(p, &v);
                let right = model == "m2" || p < WITH_UNRELATED;
                if model == "m2" && id == "r4__fontsize-8" {
                    continue;
                }
                let said = if right { gold(p) } else { (gold(p) + 1) % 4 };
                let row = json!({"id": id, "model": model,
                    "prediction": format!("The answer is {}.", letter(said))});
                text.push_str(&row.to_string());
                text.push('\n');
            }
        }
        let path = dir.join(format!("{model}.jsonl"));
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    paths
}

/// Scores with `flags`, returning report.json, report.md and report.html.
fn score(dir: &Path, flags: &[&str]) -> (Value, String, String) {
    let manifest = write_manifest(dir);
    let out = dir.join(format!("report{}", flags.join("")));
    let mut cmd = bin();
    cmd.arg("score").arg("--manifest").arg(&manifest);
    for p in write_predictions(dir) {
        cmd.arg("--predictions").arg(p);
    }
    cmd.arg("--out").arg(&out).arg("--html").args(flags);
    run_ok(&mut cmd);
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    let report: Value = serde_json::from_str(&read("report.json")).unwrap();
    let validator = schema_validator();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "report does not match the schema: {errors:?}"
    );
    (report, read("report.md"), read("report.html"))
}

fn schema_validator() -> jsonschema::Validator {
    let out = run_ok(bin().args(["schema", "report"]));
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// (model, axis, value, n, bases, accuracy) of every row.
fn rows(rows: &Value) -> Vec<(String, String, String, u64, u64, f64)> {
    (rows.as_array().unwrap().iter())
        .map(|r| {
            (
                r["model"].as_str().unwrap().to_string(),
                r["axis"].as_str().unwrap().to_string(),
                r["value"].as_str().unwrap().to_string(),
                r["n"].as_u64().unwrap(),
                r["bases"].as_u64().unwrap(),
                r["accuracy"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// (n, bases, accuracy) of a model's row on an axis.
fn counts(
    all: &[(String, String, String, u64, u64, f64)],
    model: &str,
    axis: &str,
) -> (u64, u64, f64) {
    let r = all
        .iter()
        .find(|r| r.0 == model && r.1 == axis)
        .unwrap_or_else(|| panic!("no row {model} {axis}"));
    (r.3, r.4, r.5)
}

#[test]
fn without_matched_each_row_says_how_many_bases_it_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let (report, md, html) = score(tmp.path(), &[]);
    assert_eq!(
        report["base_set"],
        json!({"set": "all", "bases": 12, "left_out": 0, "conditions": 3, "matched": 4,
               "lacking_variant": 7, "lacking_prediction": 1})
    );
    let all = rows(&report["rows"]);
    // m1 is right on exactly the problems that have `unrelated`: its unrelated row
    // describes an easier subset, and says so.
    assert_eq!(counts(&all, "m1", "base"), (12, 12, 5.0 / 12.0));
    assert_eq!(counts(&all, "m1", "fontsize"), (12, 12, 5.0 / 12.0));
    assert_eq!(counts(&all, "m1", "unrelated"), (5, 5, 1.0));
    assert_eq!(counts(&all, "m2", "fontsize"), (11, 11, 1.0));
    let fontsize = (report["breakdowns"]["relation"].as_array().unwrap().iter())
        .filter(|r| r["model"] == "m2" && r["axis"] == "fontsize");
    assert_eq!(
        fontsize.map(|r| r["bases"].as_u64().unwrap()).sum::<u64>(),
        11
    );
    assert!(md.contains("**Base set: all** — 12 base problems"), "{md}");
    assert!(md.contains("4 of them have an image of every one of the 3 conditions"));
    assert!(md.contains("| m1 | 1 | 5 | 5 | 100.0 % |"), "{md}");
    assert!(html.contains("data-base-set=\"all\""));
}

#[test]
fn matched_rows_all_count_the_same_bases() {
    let tmp = tempfile::tempdir().unwrap();
    let (report, md, html) = score(tmp.path(), &["--matched"]);
    assert_eq!(
        report["base_set"],
        json!({"set": "matched", "bases": 4, "left_out": 8, "conditions": 3, "matched": 4,
               "lacking_variant": 7, "lacking_prediction": 1})
    );
    // Problems 0–3: m1 is right on all of them, on every axis.
    let all = rows(&report["rows"]);
    assert_eq!(all.len(), 6);
    for r in &all {
        assert_eq!((r.3, r.4, r.5), (4, 4, 1.0), "{r:?}");
    }
    for c in report["consistency"].as_array().unwrap() {
        assert_eq!(c["n"], 4, "{c}");
    }
    for dim in ["relation", "domain", "subset", "mode"] {
        let cells = report["breakdowns"][dim].as_array().unwrap();
        for (model, axis) in [("m1", "base"), ("m2", "fontsize"), ("m2", "unrelated")] {
            let of = cells
                .iter()
                .filter(|c| c["model"] == model && c["axis"] == axis);
            let bases: u64 = of.map(|c| c["bases"].as_u64().unwrap()).sum();
            assert_eq!(bases, 4, "{dim} {model} {axis}");
        }
    }
    for c in report["cannot_be_inferred"].as_array().unwrap() {
        assert_eq!((&c["n"], &c["bases"]), (&json!(4), &json!(4)), "{c}");
    }
    // The blind baselines count the same images as the models.
    for m in report["baselines"]["methods"].as_array().unwrap() {
        for r in rows(&m["rows"]) {
            assert_eq!((r.3, r.4), (4, 4), "{r:?}");
        }
        assert_eq!(m["summary"][0]["bases"], 4);
        assert_eq!(m["summary"][0]["n"], 12);
    }
    assert!(
        md.contains("**Base set: matched** — the 4 base problems"),
        "{md}"
    );
    assert!(md.contains("8 left out (7 lacking a variant, 1 lacking a prediction)"));
    assert!(html.contains("data-base-set=\"matched\""));
}

#[test]
fn a_missing_prediction_scored_wrong_leaves_no_base_out() {
    let tmp = tempfile::tempdir().unwrap();
    let (report, _, _) = score(tmp.path(), &["--matched", "--missing", "wrong"]);
    assert_eq!(report["base_set"]["bases"], 5);
    assert_eq!(report["base_set"]["lacking_prediction"], 0);
    let all = rows(&report["rows"]);
    for r in &all {
        assert_eq!((r.3, r.4), (5, 5), "{r:?}");
    }
    // m2's missing image counts as wrong: 4 of 5.
    assert_eq!(counts(&all, "m2", "fontsize").2, 0.8);
}
