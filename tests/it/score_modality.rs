//! The modality figures of `score`: planted predictions give `blank_gap` (the
//! blank control) and `vision_gain` (text-dominant against planted imageless
//! text-only rows), their discordant counts and exact McNemar p, checked against
//! an independent computation to 1e-9, in the schema and in report.md.

use crate::support::cli::{bin, run_ok};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

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

/// `sweep --variants VARIANTS` of 40 problems of `seed` into `dir/run`; its manifest.
fn modality_run(dir: &Path, seed: &str, variants: &str) -> PathBuf {
    let run = dir.join("run");
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
                seed,
            ])
            .args(["--variants", variants, "--out"])
            .arg(&run),
    );
    run.join("manifest.jsonl")
}

/// A row's problem number (the `k` of its `base_id` `s<seed>-<k>`).
fn problem_number(row: &Value) -> u64 {
    let base_id = row["base_id"].as_str().unwrap();
    base_id.rsplit('-').next().unwrap().parse().unwrap()
}

/// Model `m`'s prediction line for `row`: its answer when `right`, else a wrong one.
fn prediction(row: &Value, right: bool) -> String {
    let answer = row["answer"].as_f64().unwrap();
    let said = if right { answer } else { answer * 3.0 + 7.0 };
    let p = json!({"id": row["id"], "model": "m", "prediction": format!("The answer is {said}.")});
    format!("{p}\n")
}

/// `score --html` of `predictions` against `manifest` into `dir/r`: the report,
/// checked against `geomrender schema report`, and the output directory.
fn scored(dir: &Path, manifest: &Path, predictions: &str) -> (Value, PathBuf) {
    let file = dir.join("m.jsonl");
    std::fs::write(&file, predictions).unwrap();
    let out = dir.join("r");
    run_ok(
        bin()
            .arg("score")
            .arg("--manifest")
            .arg(manifest)
            .arg("--predictions")
            .arg(&file)
            .arg("--html")
            .arg("--out")
            .arg(&out),
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let schema: Value =
        serde_json::from_slice(&run_ok(bin().args(["schema", "report"])).stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = (validator.iter_errors(&report))
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    (report, out)
}

#[test]
fn blank_gap_is_the_paired_base_minus_blank_accuracy_with_its_mcnemar_test() {
    let tmp = tempfile::tempdir().unwrap();
    let manifest = modality_run(tmp.path(), "5", "modality=blank");
    // Right on the base image of problems 0, 1, 2 (mod 4); on the blank one of
    // problems 0 (mod 5) and of problem 3.
    let (mut base_right, mut blank_right) = (Vec::new(), Vec::new());
    let mut lines = String::new();
    for line in std::fs::read_to_string(&manifest).unwrap().lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        let k = problem_number(&row);
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
        lines.push_str(&prediction(&row, right));
    }
    let (report, out) = scored(tmp.path(), &manifest, &lines);

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

/// `vision_gain`: accuracy on `text-dominant` minus on `text-only`, paired per
/// problem. The run draws `text-dominant`; a `text-only` row of each problem is
/// planted beside it as such rows are written (the same texts, `image: null`).
#[test]
fn vision_gain_is_the_paired_text_dominant_minus_text_only_accuracy() {
    let tmp = tempfile::tempdir().unwrap();
    let manifest = modality_run(tmp.path(), "6", "modality=text-dominant");
    let mut rows: Vec<Value> = Vec::new();
    for line in std::fs::read_to_string(&manifest).unwrap().lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        if row["variant"]["modality"] == "text-dominant" {
            let mut text_only = row.clone();
            let id = row["id"]
                .as_str()
                .unwrap()
                .replace("text-dominant", "text-only");
            text_only["id"] = json!(id);
            text_only["variant"] = json!({"modality": "text-only"});
            text_only["image"] = Value::Null;
            for gone in ["width", "height", "sha256", "backend"] {
                text_only.as_object_mut().unwrap().remove(gone);
            }
            rows.push(row);
            rows.push(text_only);
        } else {
            rows.push(row);
        }
    }
    let planted = tmp.path().join("planted.jsonl");
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&planted, text).unwrap();
    // Right with the image on problems not divisible by 3; without it on the even
    // ones below 20 and on problem 21.
    let (mut with_image, mut text_only) = (Vec::new(), Vec::new());
    let mut lines = String::new();
    for row in &rows {
        let k = problem_number(row);
        let right = match row["variant"]["modality"].as_str() {
            Some("text-dominant") => !k.is_multiple_of(3),
            Some("text-only") => (k < 20 && k.is_multiple_of(2)) || k == 21,
            _ => true,
        };
        match (row["variant"]["modality"].as_str(), right) {
            (Some("text-dominant"), true) => with_image.push(k),
            (Some("text-only"), true) => text_only.push(k),
            _ => {}
        }
        lines.push_str(&prediction(row, right));
    }
    let (report, out) = scored(tmp.path(), &planted, &lines);

    let only_image = with_image.iter().filter(|k| !text_only.contains(k)).count() as u64;
    let only_text = text_only.iter().filter(|k| !with_image.contains(k)).count() as u64;
    assert_eq!(
        (with_image.len(), text_only.len(), only_image, only_text),
        (26, 11, 20, 5)
    );
    let gain = (with_image.len() as f64 - text_only.len() as f64) / 40.0;
    let rows = report["modality"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    let m = &rows[0];
    assert_eq!(m["vision_pairs"], 40);
    assert_eq!(m["right_only_with_image"], only_image);
    assert_eq!(m["right_only_text_only"], only_text);
    assert!(
        (m["vision_gain"].as_f64().unwrap() - gain).abs() < 1e-9,
        "{m}"
    );
    let p = m["vision_mcnemar_p"].as_f64().unwrap();
    assert!((p - mcnemar(only_image, only_text)).abs() < 1e-9, "{p}");
    let (lo, hi) = (
        m["vision_gain_ci_low"].as_f64().unwrap(),
        m["vision_gain_ci_high"].as_f64().unwrap(),
    );
    assert!(lo <= gain && gain <= hi && lo > 0.0, "{lo} {gain} {hi}");
    // No blank images: that half is empty, not made up.
    assert_eq!(
        (m["blank_gap"].clone(), m["blank_pairs"].clone()),
        (Value::Null, json!(0))
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains(
            "| m | 0 | – | – | 0 | 0 | 1.000 | 40 | +37.5 pp | +15.0 pp … +57.5 pp | 20 | 5 |"
        ),
        "{md}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("vision gain (pp)"));
}
