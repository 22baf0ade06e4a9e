//! Blind baselines on real sweeps: computed from the manifest alone, so the same
//! whatever the predictions, byte-identical run to run, in the schema; GeomVerse's
//! numeric items get the template majority only.

use crate::support::cli::{bin, run_ok};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A sweep rendered on the CPU into `dir`; its manifest.
fn sweep(dir: &Path, args: &[&str]) -> PathBuf {
    run_ok(
        bin()
            .args(["sweep", "-q", "--backend", "cpu"])
            .args(args)
            .arg("--out")
            .arg(dir),
    );
    dir.join("manifest.jsonl")
}

/// One model answering `text` to every image of the manifest.
fn predictions(dir: &Path, manifest: &Path, model: &str, text: &str) -> PathBuf {
    let mut out = String::new();
    for line in std::fs::read_to_string(manifest).unwrap().lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        let p = json!({"id": row["id"], "model": model, "prediction": text});
        out.push_str(&p.to_string());
        out.push('\n');
    }
    let path = dir.join(format!("{model}.jsonl"));
    std::fs::write(&path, out).unwrap();
    path
}

fn score(manifest: &Path, predictions: &Path, out: &Path) -> (Vec<u8>, String) {
    run_ok(
        bin()
            .arg("score")
            .arg("--manifest")
            .arg(manifest)
            .arg("--predictions")
            .arg(predictions)
            .arg("--out")
            .arg(out),
    );
    (
        std::fs::read(out.join("report.json")).unwrap(),
        std::fs::read_to_string(out.join("report.md")).unwrap(),
    )
}

fn check_schema(report: &Value) {
    let out = run_ok(bin().args(["schema", "report"]));
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn relation_baselines_depend_on_the_manifest_alone_and_repeat_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let args = ["--task", "relations", "--count", "40", "--seed", "11"];
    let manifest = sweep(&run, &[&args[..], &["--variants", "unrelated"]].concat());
    let a = predictions(tmp.path(), &manifest, "always_a", "The answer is A.");
    let b = predictions(tmp.path(), &manifest, "always_b", "The answer is B.");
    let (first, md) = score(&manifest, &a, &tmp.path().join("a1"));
    let (again, _) = score(&manifest, &a, &tmp.path().join("a2"));
    assert!(first == again, "report.json differs between two runs");
    let (other, _) = score(&manifest, &b, &tmp.path().join("b"));
    let first: Value = serde_json::from_slice(&first).unwrap();
    let other: Value = serde_json::from_slice(&other).unwrap();
    check_schema(&first);
    assert_eq!(first["baselines"], other["baselines"]);
    assert_ne!(first["rows"], other["rows"]);
    let methods = first["baselines"]["methods"].as_array().unwrap();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["template_majority", "text_classifier"]);
    let folds = first["baselines"]["folds"].as_array().unwrap();
    let bases: u64 = folds.iter().map(|f| f["bases"].as_u64().unwrap()).sum();
    assert_eq!(bases, 40);
    for m in methods {
        let summary = m["summary"].as_array().unwrap();
        assert_eq!(summary[0]["dimension"], "all");
        assert_eq!(summary[1]["group"], "relations");
        let dims: Vec<&str> = summary
            .iter()
            .map(|s| s["dimension"].as_str().unwrap())
            .collect();
        for d in ["relation", "domain", "subset", "mode"] {
            assert!(dims.contains(&d), "{d} missing from {dims:?}");
        }
        assert!(!m["cannot_be_inferred"].as_array().unwrap().is_empty());
        // The base row counts every problem once.
        assert_eq!(
            (&m["rows"][0]["axis"], &m["rows"][0]["n"]),
            (&json!("base"), &json!(40))
        );
    }
    assert!(md.contains("## Blind baselines"));
    assert!(
        md.contains("| blind:text_classifier | base | 40 | 40 |"),
        "{md}"
    );
}

#[test]
fn geomverse_reports_have_the_template_majority_only() {
    let tmp = tempfile::tempdir().unwrap();
    let manifest = sweep(
        &tmp.path().join("run"),
        &["--count", "8", "--seed", "2", "--variants", "annotation"],
    );
    let p = predictions(tmp.path(), &manifest, "m", "The final answer is 12.");
    let (report, md) = score(&manifest, &p, &tmp.path().join("r"));
    let report: Value = serde_json::from_slice(&report).unwrap();
    check_schema(&report);
    let methods = report["baselines"]["methods"].as_array().unwrap();
    assert_eq!(methods.len(), 1);
    assert_eq!(methods[0]["name"], "template_majority");
    let groups: Vec<&str> = (methods[0]["summary"].as_array().unwrap().iter())
        .map(|s| s["group"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["all", "geomverse"]);
    assert!(methods[0].get("cannot_be_inferred").is_none());
    assert!(
        md.contains("This manifest has no multiple-choice item"),
        "{md}"
    );
}

/// `choices` (CircularEval): an answer that keeps its letter is right on no base
/// under every rotation, and each blind baseline gets its own worst case, no more
/// than its accuracy on any row of the axis.
#[test]
fn choices_rotations_give_every_model_and_baseline_a_circular_worst_case() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--task", "relations", "--count", "40", "--seed", "5"];
    let manifest = sweep(
        &tmp.path().join("run"),
        &[&args[..], &["--variants", "choices=1,2"]].concat(),
    );
    let a = predictions(tmp.path(), &manifest, "always_a", "The answer is A.");
    let (report, _) = score(&manifest, &a, &tmp.path().join("r"));
    let report: Value = serde_json::from_slice(&report).unwrap();
    check_schema(&report);
    let choices = |rows: &Value| -> Value {
        let rows = rows.as_array().unwrap();
        let row = rows.iter().find(|c| c["axis"] == "choices").unwrap();
        assert_eq!(row["n"], 40);
        row.clone()
    };
    assert_eq!(choices(&report["consistency"])["worst_case"], 0.0);
    for m in report["baselines"]["methods"].as_array().unwrap() {
        let worst = choices(&m["consistency"])["worst_case"].as_f64().unwrap();
        let least = (m["rows"].as_array().unwrap().iter())
            .map(|r| r["accuracy"].as_f64().unwrap())
            .fold(f64::INFINITY, f64::min);
        assert!(worst <= least + 1e-12, "{}: {worst} > {least}", m["name"]);
    }
}
