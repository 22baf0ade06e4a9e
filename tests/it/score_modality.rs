//! The blank control in `score`: planted predictions give `blank_gap`, its
//! discordant counts and its exact McNemar p, checked against an independent
//! computation to 1e-9, in the schema and in report.md.

use crate::support::cli::{bin, run_ok};
use serde_json::{Value, json};

/// Two-sided exact McNemar p: twice the smaller binomial tail at ½, at most 1.
fn mcnemar(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let choose = |n: u64, k: u64| -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    };
    let tail: f64 = (0..=b.min(c)).map(|k| choose(n, k)).sum::<f64>() / 2f64.powi(n as i32);
    (2.0 * tail).min(1.0)
}

#[test]
fn blank_gap_is_the_paired_base_minus_blank_accuracy_with_its_mcnemar_test() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    run_ok(
        bin()
            .args([
                "sweep",
                "-q",
                "--backend",
                "cpu",
                "--count",
                "40",
                "--seed",
                "5",
            ])
            .args(["--variants", "modality=blank", "--out"])
            .arg(&run),
    );
    let manifest = run.join("manifest.jsonl");
    // Right on the base image of problems 0, 1, 2 (mod 4); on the blank one of
    // problems 0 (mod 5) and of problem 3.
    let (mut base_right, mut blank_right) = (Vec::new(), Vec::new());
    let mut lines = String::new();
    for line in std::fs::read_to_string(&manifest).unwrap().lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        let base_id = row["base_id"].as_str().unwrap();
        let k: u64 = base_id.rsplit('-').next().unwrap().parse().unwrap();
        let blank = row["variant"]["modality"] == "blank";
        let right = match blank {
            false => k % 4 != 3,
            true => k.is_multiple_of(5) || k == 3,
        };
        if right {
            (if blank {
                &mut blank_right
            } else {
                &mut base_right
            })
            .push(k);
        }
        let answer = row["answer"].as_f64().unwrap();
        let said = if right { answer } else { answer * 3.0 + 7.0 };
        let p =
            json!({"id": row["id"], "model": "m", "prediction": format!("The answer is {said}.")});
        lines.push_str(&p.to_string());
        lines.push('\n');
    }
    let predictions = tmp.path().join("m.jsonl");
    std::fs::write(&predictions, lines).unwrap();
    let out = tmp.path().join("r");
    run_ok(
        bin()
            .arg("score")
            .arg("--manifest")
            .arg(&manifest)
            .arg("--predictions")
            .arg(&predictions)
            .arg("--html")
            .arg("--out")
            .arg(&out),
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let schema: Value =
        serde_json::from_slice(&run_ok(bin().args(["schema", "report"])).stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");

    let only_base = base_right
        .iter()
        .filter(|k| !blank_right.contains(k))
        .count() as u64;
    let only_blank = blank_right
        .iter()
        .filter(|k| !base_right.contains(k))
        .count() as u64;
    assert_eq!(
        (base_right.len(), blank_right.len(), only_base, only_blank),
        (30, 9, 24, 3)
    );
    let gap = (base_right.len() as f64 - blank_right.len() as f64) / 40.0;
    let rows = report["modality"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    let m = &rows[0];
    assert_eq!(m["model"], "m");
    assert_eq!(m["blank_pairs"], 40);
    assert_eq!(m["right_only_with_diagram"], only_base);
    assert_eq!(m["right_only_blank"], only_blank);
    assert!((m["blank_gap"].as_f64().unwrap() - gap).abs() < 1e-9, "{m}");
    let p = m["blank_mcnemar_p"].as_f64().unwrap();
    assert!((p - mcnemar(only_base, only_blank)).abs() < 1e-9, "{p}");
    let (lo, hi) = (
        m["blank_gap_ci_low"].as_f64().unwrap(),
        m["blank_gap_ci_high"].as_f64().unwrap(),
    );
    assert!(lo <= gap && gap <= hi && lo > 0.0, "{lo} {gap} {hi}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Does the score need the diagram?"), "{md}");
    assert!(md.contains("| m | 40 | +52.5 pp |"), "{md}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("id=\"modality\""));
}
