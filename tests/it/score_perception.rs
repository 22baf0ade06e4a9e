//! The perception block of `score`: a planted model that misreads parallel lines and
//! fails the problems whose shapes are built on them (parallelograms, trapezoids)
//! shows the dependence in the joined 2×2, checked against an independent count and
//! Fisher p; every other probe type stays at 100 %, and a model right everywhere has
//! no dependence. The report is checked against its schema and report.md.

use crate::support::cli::{bin, manifest, run_ok};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};

/// C(n, k) as f64.
fn choose(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Fisher's exact two-sided p, by enumerating the tables with the same margins.
fn fisher(a: u64, b: u64, c: u64, d: u64) -> f64 {
    let (r0, r1, c0) = (a + b, c + d, a + c);
    let n = r0 + r1;
    let p = |x: u64| choose(r0, x) * choose(r1, c0 - x) / choose(n, c0);
    let observed = p(a);
    (c0.saturating_sub(r1)..=r0.min(c0))
        .map(p)
        .filter(|&q| q <= observed * (1.0 + 1e-7))
        .sum::<f64>()
        .min(1.0)
}

/// Whether a row's problem has a shape built on parallel sides.
fn on_parallels(row: &Value) -> bool {
    row["problem"]["diagram"]["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["kind"] == "parallelogram" || s["kind"] == "trapezoid")
}

/// A prediction for a probe: its answer, or (wrong) another option.
fn probe_prediction(p: &Value, model: &str, right: bool) -> Value {
    let said = match (&p["answer"], right) {
        (Value::String(a), true) => a.clone(),
        (Value::String(a), false) => if a == "A" { "B" } else { "A" }.to_string(),
        (n, true) => n.to_string(),
        (n, false) => (n.as_u64().unwrap() + 2).to_string(),
    };
    json!({"id": p["id"], "model": model, "prediction": format!("The answer is {said}.")})
}

#[test]
fn a_model_blind_to_parallels_fails_where_it_misreads() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("problems.jsonl");
    run_ok(
        bin()
            .args([
                "generate", "--count", "80", "--seed", "50", "--depth", "2", "--out",
            ])
            .arg(&input),
    );
    let out = tmp.path().join("run");
    run_ok(
        bin()
            .arg("render")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args([
                "--backend",
                "cpu",
                "-q",
                "--emit-problems",
                "--probes",
                "--probes-per-image",
                "16",
                "--probes-per-kind",
                "2",
                "--variants",
                "fontsize=10",
            ]),
    );
    let rows = manifest(&out);
    let probes: Vec<Value> = std::fs::read_to_string(out.join("probes.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let par: HashMap<&str, bool> = rows
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), on_parallels(r)))
        .collect();
    let mut lines = String::new();
    // "sharp" sees everything, and fails the small-font images of five problems:
    // their flips show its (right) probes on them.
    let small: Vec<&str> = (rows.iter())
        .filter(|r| r["variant"]["fontsize"] == 10)
        .take(5)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for r in &rows {
        let answer = r["answer"].as_f64().unwrap();
        let id = r["id"].as_str().unwrap();
        for (model, right) in [("blind", !par[id]), ("sharp", !small.contains(&id))] {
            let said = if right { answer } else { answer * 3.0 + 7.0 };
            let p = json!({"id": r["id"], "model": model, "prediction": format!("The answer is {said}.")});
            lines += &format!("{p}\n");
        }
    }
    // The independent count: misread = a parallel probe on a problem on parallels.
    let mut misread: BTreeMap<&str, bool> = BTreeMap::new();
    for p in &probes {
        let of = p["of"].as_str().unwrap();
        let wrong = p["probe"]["type"] == "parallel" && par[of];
        *misread.entry(of).or_default() |= wrong;
        lines += &format!("{}\n", probe_prediction(p, "blind", !wrong));
        lines += &format!("{}\n", probe_prediction(p, "sharp", true));
    }
    let [mut rs, mut rm, mut ws, mut wm] = [0u64; 4];
    for (of, m) in &misread {
        match (!par[of], *m) {
            (true, false) => rs += 1,
            (true, true) => rm += 1,
            (false, false) => ws += 1,
            (false, true) => wm += 1,
        }
    }
    assert!(
        wm >= 5 && rs >= 20,
        "too few images to show it: {rs} {rm} {ws} {wm}"
    );

    let file = tmp.path().join("predictions.jsonl");
    std::fs::write(&file, lines).unwrap();
    let report_dir = tmp.path().join("report");
    run_ok(
        bin()
            .arg("score")
            .arg("--manifest")
            .arg(out.join("manifest.jsonl"))
            .arg("--predictions")
            .arg(&file)
            .arg("--html")
            .arg("--out")
            .arg(&report_dir),
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(report_dir.join("report.json")).unwrap()).unwrap();
    let schema: Value =
        serde_json::from_slice(&run_ok(bin().args(["schema", "report"])).stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // Probe predictions are not the images': no unknown ids, rows count images only.
    assert_eq!(report["counts"]["unknown_ids"], 0);
    assert_eq!(report["counts"]["items"], rows.len());

    let block = |m: &str| {
        report["perception"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["model"] == m)
            .unwrap()
            .clone()
    };
    let blind = block("blind");
    assert_eq!(
        [
            &blind["right_seen"],
            &blind["right_misread"],
            &blind["wrong_seen"],
            &blind["wrong_misread"]
        ],
        [&json!(rs), &json!(rm), &json!(ws), &json!(wm)]
    );
    assert_eq!(blind["accuracy_when_misread"], 0.0);
    assert_eq!(blind["accuracy_when_seen"], rs as f64 / (rs + ws) as f64);
    let p = blind["fisher_p"].as_f64().unwrap();
    assert!(
        (p - fisher(rs, rm, ws, wm)).abs() <= 1e-9 * p.max(1e-300),
        "{p}"
    );
    assert!(p < 0.01, "the dependence shows: p = {p}");
    // Per type: only parallel falls below 100 %.
    let all: Vec<&Value> = (blind["probes"].as_array().unwrap().iter())
        .filter(|t| t["axis"] == "all")
        .collect();
    assert!(all.len() >= 6, "{all:?}");
    for t in all {
        let acc = t["accuracy"].as_f64().unwrap();
        assert_eq!(acc < 1.0, t["group"] == "parallel", "{t}");
    }
    let sharp = block("sharp");
    assert_eq!(sharp["fisher_p"], 1.0);
    assert_eq!(sharp["right_seen"], json!(rs + rm + ws + wm - 5));
    assert_eq!(sharp["wrong_seen"], json!(5));
    // report.html's flips show the probes of the flipped image, each marked.
    let html = std::fs::read_to_string(report_dir.join("report.html")).unwrap();
    assert!(html.contains("<th>probes on this image</th>"));
    for id in &small {
        let row = (html.split("<tr ").find(|r| {
            r.contains(&format!("data-id=\"{id}\"")) && r.contains("data-model=\"sharp\"")
        }))
        .unwrap_or_else(|| panic!("no flip row for {id}"));
        let first = probes.iter().find(|p| p["of"] == *id).unwrap();
        let (kind, q) = (
            first["probe"]["type"].as_str().unwrap(),
            first["question"].as_str().unwrap(),
        );
        let q = q
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;");
        assert!(row.contains(&format!("<li>✓ {kind}: {q}")), "{row}");
    }
    let md = std::fs::read_to_string(report_dir.join("report.md")).unwrap();
    assert!(
        md.contains("## Does the model see it? Perception probes"),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "| blind | {} | {rs} | {rm} | {ws} | {wm} |",
            rs + rm + ws + wm
        )),
        "{md}"
    );
}
