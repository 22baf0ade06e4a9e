//! End to end: a manifest of a small sweep in the exact format `geomrender render
//! --variants` writes, predictions whose correctness per item is decided here, and a
//! check that every count in report.json equals the one computed independently.
//!
//! [`check_sweep`] takes any manifest path: it runs on a hand-written manifest and on
//! the manifest of a real `geomrender sweep` (`real_rendered_sweep_end_to_end`).

use crate::support::cli::{bin, run_ok, run_score};
use geomrender::score::{self, LineReason, LoadedFile, RejectedLine, ScoreOptions};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- manifest helper

/// One manifest row: the fields scoring reads; the rest is filled like the renderer.
struct ManifestRow {
    base: usize,
    variant: Value,
    answer: f64,
    depth: Option<u32>,
    question_type: Option<&'static str>,
}

fn id_of(base: usize, variant: &Value) -> String {
    let base_id = format!("p{base:06}");
    let map = variant.as_object().expect("variant object");
    if map.is_empty() {
        return base_id;
    }
    let parts: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{k}-{}", v.to_string().trim_matches('"')))
        .collect();
    format!("{base_id}__{}", parts.join("__"))
}

/// Writes `dir/manifest.jsonl` in the render manifest format (issue 4's contract).
fn write_manifest(dir: &Path, rows: &[ManifestRow]) -> PathBuf {
    let mut text = String::new();
    for r in rows {
        let id = id_of(r.base, &r.variant);
        let mut params = json!({"width": 1, "distractors": false});
        if let Some(d) = r.depth {
            params["depth"] = json!(d);
        }
        if let Some(q) = r.question_type {
            params["question_type"] = json!(q);
        }
        let line = json!({
            "id": id,
            "base_id": format!("p{:06}", r.base),
            "variant": r.variant,
            "image": format!("images/{id}.png"),
            "width": 512,
            "height": 512,
            "sha256": "0".repeat(64),
            "backend": "cpu",
            "question": "Compute the perimeter of the ABCD parallelogram.",
            "cot": "The lengths of the AD and the AB sides are 10 and 12, so the perimeter is 44.",
            "answer": r.answer,
            "annotation": "coordinate",
            "params": params,
            "layout": {"labels": []},
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    let path = dir.join("manifest.jsonl");
    std::fs::write(&path, text).expect("write manifest");
    path
}

/// 24 problems × (base, fontsize 8/16/32, opacity 0.25/1, annotation
/// coordinate/individual, a fontsize+opacity grid pair); depth and question type
/// cycle, and problem 5 has neither.
fn small_sweep() -> Vec<ManifestRow> {
    let variants = [
        json!({}),
        json!({"fontsize": 8}),
        json!({"fontsize": 16}),
        json!({"fontsize": 32}),
        json!({"opacity": 0.25}),
        json!({"opacity": 1.0}),
        json!({"annotation": "coordinate"}),
        json!({"annotation": "individual"}),
        json!({"fontsize": 8, "opacity": 0.25}),
        json!({"fontsize": 32, "opacity": 0.25}),
    ];
    let qtypes = ["area", "perimeter", "angle", "side"];
    let mut rows = Vec::new();
    for base in 0..24 {
        for v in &variants {
            rows.push(ManifestRow {
                base,
                variant: v.clone(),
                answer: [44.0, 75.0, 28.69, 124.0, 57.7, 0.0, 1234.5, 6.58][base % 8],
                depth: (base != 5).then_some(1 + (base % 3) as u32),
                question_type: (base != 5).then_some(qtypes[base % 4]),
            });
        }
    }
    rows
}

// ---------------------------------------------------------------- the oracle

/// An item as this test reads it, independently of the library.
struct Expected {
    id: String,
    base_id: String,
    axis: String,
    value: String,
    answer: f64,
    depth: String,
    qtype: String,
}

fn fmt_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => {
            let f = n.as_f64().expect("number");
            if f.fract() == 0.0 {
                format!("{}", f as i64)
            } else {
                format!("{f}")
            }
        }
        other => panic!("bad variant value {other}"),
    }
}

fn read_items(manifest: &Path) -> Vec<Expected> {
    let text = std::fs::read_to_string(manifest).expect("manifest readable");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("manifest line");
            let variant = v["variant"].as_object().expect("variant");
            let mut keys: Vec<&String> = variant.keys().collect();
            keys.sort();
            let (axis, value) = if keys.is_empty() {
                ("base".to_string(), "base".to_string())
            } else {
                (
                    keys.iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join("+"),
                    keys.iter()
                        .map(|k| fmt_value(&variant[*k]))
                        .collect::<Vec<_>>()
                        .join("+"),
                )
            };
            let group = |g: &Value| match g {
                Value::Null => "unknown".to_string(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Expected {
                id: v["id"].as_str().expect("id").to_string(),
                base_id: v["base_id"].as_str().expect("base_id").to_string(),
                axis,
                value,
                answer: v["answer"].as_f64().expect("numeric answer"),
                depth: group(&v["params"]["depth"]),
                qtype: group(&v["params"]["question_type"]),
            }
        })
        .collect()
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether `model` answers `item` correctly. Like a real model, a variant keeps the
/// base image's outcome except for flips whose rates depend on the axis value
/// (alpha is thrown by small fonts, beta by the individual annotation style); a hash
/// decides, so the pattern has no structure the scorer could exploit.
fn truth(model: &str, item: &Expected) -> bool {
    let base_ok = fnv(&format!("{model}/{}", item.base_id)) % 100 < 70;
    if item.axis == "base" {
        return base_ok;
    }
    let (to_wrong, to_right) = match (model, item.value.as_str()) {
        ("alpha", "8") | ("alpha", "8+0.25") => (45, 5),
        ("alpha", "32") | ("alpha", "32+0.25") => (15, 10),
        ("beta", "individual") => (40, 5),
        ("beta", "8") => (20, 5),
        _ => (6, 6),
    };
    let r = fnv(&format!("{model}/{}", item.id)) % 100;
    if base_ok { r >= to_wrong } else { r < to_right }
}

/// `beta` has no prediction for every 7th variant item.
fn skipped(model: &str, item: &Expected) -> bool {
    model == "beta" && item.axis != "base" && fnv(&item.id).is_multiple_of(7)
}

/// A raw model output whose extracted value is right (or wrong) for `answer`,
/// cycling through the phrasings models use.
fn output(answer: f64, right: bool, k: u64) -> String {
    let shown = if right {
        // Inside the 3 % band (absolute 0.004 for a zero label).
        if answer == 0.0 { 0.004 } else { answer * 1.02 }
    } else if k % 5 == 4 {
        return "I cannot determine this from the diagram.".to_string();
    } else {
        answer * 1.5 + 1.0
    };
    let v = format!("{shown:.4}");
    match k % 4 {
        0 => format!(
            "The sides are 10 and 12, so 2 * (10 + 12) = 44. Therefore the final answer is {v}."
        ),
        1 => format!("We compute the area step by step.\n\n$$\\boxed{{{v}}}$$"),
        2 => format!("**Answer:** {v} cm^2"),
        _ => format!("AB = 3, BC = 4, so the result is {v}"),
    }
}

/// Writes `dir/<model>.jsonl` for the items and returns the paths.
fn write_predictions(dir: &Path, items: &[Expected], models: &[&str]) -> Vec<PathBuf> {
    models
        .iter()
        .map(|model| {
            let mut text = String::new();
            for item in items.iter().filter(|i| !skipped(model, i)) {
                let k = fnv(&format!("fmt/{model}/{}", item.id));
                let line = json!({"id": item.id, "prediction": output(item.answer, truth(model, item), k)});
                text.push_str(&line.to_string());
                text.push('\n');
            }
            let path = dir.join(format!("{model}.jsonl"));
            std::fs::write(&path, text).expect("write predictions");
            path
        })
        .collect()
}

/// Exact McNemar p from integer binomial sums (n ≤ 120 here): an oracle independent of
/// the library's scaled floating-point sum.
fn mcnemar_oracle(b: u64, c: u64) -> f64 {
    let n = b + c;
    assert!(n <= 120, "oracle limited to n ≤ 120");
    if n == 0 {
        return 1.0;
    }
    let mut binom: u128 = 1;
    let mut sum: u128 = 0;
    for i in 0..=b.min(c) {
        if i > 0 {
            binom = binom * u128::from(n - i + 1) / u128::from(i);
        }
        sum += binom;
    }
    (2.0 * sum as f64 / 2f64.powi(n as i32)).min(1.0)
}

/// (breakdown kind, model, axis, value, group).
type GroupKey = (&'static str, String, String, String, String);

#[derive(Default, Debug, PartialEq)]
struct Tally {
    n: u64,
    correct: u64,
    missing: u64,
    paired: u64,
    to_wrong: u64,
    to_right: u64,
}

// ---------------------------------------------------------------- the check

/// `items.jsonl`: one row per (item, model) in manifest order, each valid against
/// its schema, with the verdict this test planted (missing, right or wrong).
fn check_items(out: &Path, items: &[Expected], models: &[&str]) {
    let schema: Value = serde_json::from_str(&schema_file("score-items")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let text = std::fs::read_to_string(out.join("items.jsonl")).expect("items.jsonl");
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), items.len() * models.len());
    let mut sorted = models.to_vec();
    sorted.sort();
    let expected = items
        .iter()
        .flat_map(|i| sorted.iter().map(move |m| (i, *m)));
    for (row, (item, model)) in rows.iter().zip(expected) {
        if let Some(e) = validator.iter_errors(row).next() {
            panic!("{row}: {e}");
        }
        assert_eq!(row["id"], item.id.as_str(), "{row}");
        assert_eq!(row["model"], model, "{row}");
        assert_eq!(row["axis"], item.axis.as_str(), "{row}");
        // The report rows' own spelling (text: `base`, `8`), so the tables join.
        assert_eq!(row["value"], item.value.as_str(), "{row}");
        assert_eq!(row["task"], "geomverse", "{row}");
        assert!(row.get("relation").is_none(), "{row}");
        assert_eq!(row["answer"].as_f64(), Some(item.answer), "{row}");
        let missing = skipped(model, item);
        assert_eq!(row["missing"], missing, "{row}");
        assert_eq!(row["correct"], !missing && truth(model, item), "{row}");
        assert_eq!(row["rule"].is_null(), missing, "{row}");
    }
}

/// One problem on one axis, as counted here: (all scored, all the same verdict,
/// base right, rows right, rows).
type Seen = (bool, bool, bool, u64, u64);

/// Scores synthetic predictions for `manifest` and checks every number in the report.
/// Issue 25: per-base consistency against a tally made here. A problem counts on an
/// axis when its base and every variant there have a prediction (`--missing
/// exclude`), and is consistent when all have the base's verdict.
fn check_consistency(report: &Value, items: &[Expected], models: &[&str]) {
    let base_of: HashMap<&str, &Expected> = items
        .iter()
        .filter(|i| i.axis == "base")
        .map(|i| (i.base_id.as_str(), i))
        .collect();
    // (model, axis) → (problems, consistent, all right)
    let mut want: BTreeMap<(String, String), (u64, u64, u64)> = BTreeMap::new();
    // (model, axis) → (problems right on every row, rows right, rows), for
    // DynaMath's worst case and robustness (issue 46).
    let mut worst: BTreeMap<(String, String), (u64, u64, u64)> = BTreeMap::new();
    for model in models {
        let mut problems: BTreeMap<(&str, &str), Seen> = BTreeMap::new();
        for item in items.iter().filter(|i| i.axis != "base") {
            let Some(b) = base_of.get(item.base_id.as_str()) else {
                continue;
            };
            let base_ok = truth(model, b);
            let p = problems.entry((&item.axis, &item.base_id)).or_insert((
                !skipped(model, b),
                true,
                base_ok,
                u64::from(base_ok),
                1,
            ));
            match skipped(model, item) {
                true => p.0 = false,
                false => {
                    p.1 &= truth(model, item) == base_ok;
                    p.3 += u64::from(truth(model, item));
                    p.4 += 1;
                }
            }
        }
        for ((axis, _), (known, same, right, rows_right, rows)) in problems {
            let key = (model.to_string(), axis.to_string());
            let w = want.entry(key.clone()).or_default();
            if known {
                w.0 += 1;
                w.1 += u64::from(same);
                w.2 += u64::from(same && right);
                let v = worst.entry(key).or_default();
                v.0 += u64::from(same && right);
                v.1 += rows_right;
                v.2 += rows;
            }
        }
    }
    let mut got = BTreeMap::new();
    for c in report["consistency"].as_array().expect("consistency") {
        let u = |f: &str| c[f].as_u64().unwrap();
        let key = (
            c["model"].as_str().unwrap().to_string(),
            c["axis"].as_str().unwrap().to_string(),
        );
        if u("n") > 0 {
            assert_eq!(
                c["share"].as_f64(),
                Some(u("consistent") as f64 / u("n") as f64)
            );
        }
        if let Some(&(all, right, rows)) = worst.get(&key) {
            let wc = all as f64 / u("n") as f64;
            let close = |f: &str, v: f64| {
                let g = c[f].as_f64().unwrap_or_else(|| panic!("{f} of {c}"));
                assert!((g - v).abs() <= 1e-9, "{f}: {g} vs {v} counted here, {c}");
            };
            close("worst_case", wc);
            match right {
                0 => assert!(c["robustness"].is_null(), "{c}"),
                _ => close("robustness", wc / (right as f64 / rows as f64)),
            }
            let (lo, hi) = (c["worst_case_low"].as_f64(), c["worst_case_high"].as_f64());
            assert!(lo.unwrap() <= wc && wc <= hi.unwrap(), "{c}");
        } else {
            assert!(c["worst_case"].is_null(), "{c}");
        }
        got.insert(key, (u("n"), u("consistent"), u("all_right")));
    }
    assert_eq!(got, want);
    assert!(
        worst.values().any(|w| w.0 > 0 && w.1 < w.2),
        "no planted row with a worst case strictly below the accuracy: {worst:?}"
    );
    assert!(want.values().any(|w| w.0 > w.1 && w.1 > 0), "{want:?}");
}

fn check_sweep(manifest: &Path) -> Value {
    let work = tempfile::tempdir().expect("tempdir");
    let items = read_items(manifest);
    let models = ["alpha", "beta"];
    let preds = write_predictions(work.path(), &items, &models);
    let out = work.path().join("report");
    let run = run_score(manifest, &preds, &out);
    assert!(
        run.status.success(),
        "score failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).expect("report.json"))
            .expect("report is JSON");

    check_items(&out, &items, &models);
    check_consistency(&report, &items, &models);

    // Expected rows, computed here.
    let base_of: HashMap<&str, &Expected> = items
        .iter()
        .filter(|i| i.axis == "base")
        .map(|i| (i.base_id.as_str(), i))
        .collect();
    let mut rows: BTreeMap<(String, String, String), Tally> = BTreeMap::new();
    let mut groups: BTreeMap<GroupKey, (u64, u64)> = BTreeMap::new();
    for model in models {
        for item in &items {
            let t = rows
                .entry((model.into(), item.axis.clone(), item.value.clone()))
                .or_default();
            if skipped(model, item) {
                t.missing += 1;
                continue;
            }
            let ok = truth(model, item);
            t.n += 1;
            t.correct += u64::from(ok);
            if item.axis != "base"
                && let Some(b) = base_of.get(item.base_id.as_str())
                && !skipped(model, b)
            {
                let base_ok = truth(model, b);
                t.paired += 1;
                t.to_wrong += u64::from(base_ok && !ok);
                t.to_right += u64::from(!base_ok && ok);
            }
            for (kind, g) in [("depth", &item.depth), ("question_type", &item.qtype)] {
                let e = groups
                    .entry((
                        kind,
                        model.into(),
                        item.axis.clone(),
                        item.value.clone(),
                        g.clone(),
                    ))
                    .or_default();
                e.0 += 1;
                e.1 += u64::from(ok);
            }
        }
    }

    let got_rows = report["rows"].as_array().expect("rows");
    assert_eq!(
        got_rows.len(),
        rows.len(),
        "one row per (model, axis, value)"
    );
    for r in got_rows {
        let key = (
            r["model"].as_str().unwrap().to_string(),
            r["axis"].as_str().unwrap().to_string(),
            r["value"].as_str().unwrap().to_string(),
        );
        let want = rows
            .get(&key)
            .unwrap_or_else(|| panic!("unexpected row {key:?}"));
        let u = |f: &str| r[f].as_u64().unwrap_or_else(|| panic!("{key:?}.{f}"));
        let got = Tally {
            n: u("n"),
            correct: u("correct"),
            missing: u("missing"),
            paired: u("paired_n"),
            to_wrong: u("flips_to_wrong"),
            to_right: u("flips_to_right"),
        };
        assert_eq!(&got, want, "row {key:?}");
        let acc = r["accuracy"].as_f64().expect("accuracy");
        assert_eq!(acc, want.correct as f64 / want.n as f64, "accuracy {key:?}");
        let (lo, hi) = (
            r["ci_low"].as_f64().unwrap(),
            r["ci_high"].as_f64().unwrap(),
        );
        assert!(
            0.0 <= lo && lo <= acc && acc <= hi && hi <= 1.0,
            "CI {key:?}"
        );
        let p = r["mcnemar_p"].as_f64().unwrap();
        let oracle = mcnemar_oracle(want.to_wrong, want.to_right);
        assert!(
            (p - oracle).abs() <= 1e-12 * oracle.max(1e-300),
            "p {key:?}: {p} vs {oracle}"
        );
        // Issue 15: the paired bootstrap interval holds the observed change (up to
        // the 1/n grid of resampled changes) and Holm never lowers a p-value.
        let holm = r["mcnemar_p_holm"].as_f64().unwrap();
        assert!(
            p <= holm + 1e-15 && holm <= 1.0,
            "Holm {key:?}: {holm} < {p}"
        );
        if want.paired > 0 && r["axis"] != "base" {
            let delta = r["delta"].as_f64().unwrap();
            let (lo, hi) = (
                r["delta_ci_low"].as_f64().unwrap(),
                r["delta_ci_high"].as_f64().unwrap(),
            );
            let grid = 1.0 / want.paired as f64 + 1e-12;
            assert!(
                -1.0 <= lo && lo <= delta + grid && delta - grid <= hi && hi <= 1.0,
                "Δ CI {key:?}: {lo} … {hi} around {delta}"
            );
        }
    }

    let mut got_groups = 0;
    for kind in ["depth", "question_type"] {
        for g in report["breakdowns"][kind].as_array().expect("breakdown") {
            let key = (
                kind,
                g["model"].as_str().unwrap().to_string(),
                g["axis"].as_str().unwrap().to_string(),
                g["value"].as_str().unwrap().to_string(),
                g["group"].as_str().unwrap().to_string(),
            );
            let want = groups
                .get(&key)
                .unwrap_or_else(|| panic!("unexpected group {key:?}"));
            assert_eq!(
                (g["n"].as_u64().unwrap(), g["correct"].as_u64().unwrap()),
                *want,
                "{key:?}"
            );
            got_groups += 1;
        }
    }
    assert_eq!(got_groups, groups.len(), "every breakdown cell present");

    let missing: u64 = rows.values().map(|t| t.missing).sum();
    assert_eq!(report["counts"]["missing"].as_u64(), Some(missing));
    assert_eq!(report["counts"]["duplicate_ids"].as_u64(), Some(0));
    assert_eq!(report["counts"]["unknown_ids"].as_u64(), Some(0));
    assert_eq!(report["tolerance"]["relative"].as_f64(), Some(0.03));
    assert!(report["errors"].as_array().unwrap().is_empty());
    for name in [
        "report.md",
        "accuracy.png",
        "accuracy.svg",
        "flips.png",
        "flips.svg",
    ] {
        let bytes = std::fs::read(out.join(name)).unwrap_or_else(|_| panic!("{name} written"));
        assert!(bytes.len() > 1000, "{name} is too small");
    }
    if let Ok(keep) = std::env::var("GEOMRENDER_KEEP_REPORT") {
        copy_dir(&out, Path::new(&keep));
    }

    // Same inputs, same bytes; no temporary files left behind.
    let out2 = work.path().join("report2");
    assert!(run_score(manifest, &preds, &out2).status.success());
    let mut names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "accuracy.png",
            "accuracy.svg",
            "flips.png",
            "flips.svg",
            "items.jsonl",
            "report.json",
            "report.md"
        ]
    );
    for name in &names {
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(out2.join(name)).unwrap(),
            "{name} differs between runs"
        );
    }

    check_schema(&report);
    check_order_invariance(manifest, &preds, &report, work.path());
    report
}

/// Reversing every input file changes no row, breakdown, model summary or axis.
fn check_order_invariance(manifest: &Path, preds: &[PathBuf], report: &Value, dir: &Path) {
    let reversed = |path: &Path, name: &str| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.reverse();
        let out = dir.join("reversed").join(name);
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        std::fs::write(&out, lines.join("\n") + "\n").unwrap();
        out
    };
    let m = reversed(manifest, "manifest.jsonl");
    let p: Vec<PathBuf> = preds
        .iter()
        .map(|p| reversed(p, p.file_name().unwrap().to_str().unwrap()))
        .collect();
    let out = dir.join("reversed-report");
    assert!(run_score(&m, &p, &out).status.success());
    let again: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    for field in ["rows", "breakdowns", "models", "axes", "counts"] {
        assert_eq!(
            again[field], report[field],
            "{field} depends on input line order"
        );
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn small_sweep_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = write_manifest(dir.path(), &small_sweep());
    let report = check_sweep(&manifest);
    // A hand-made manifest has no run record beside it: the report says no run.
    assert!(report.get("run").is_none(), "{}", report["run"]);
}

/// Runs `geomrender sweep` with `args` (CPU, quiet) into a temporary directory,
/// checks the scores of its manifest and returns its stderr and the report.
fn sweep_and_check(args: &[&str]) -> (String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["sweep", "-q", "--backend", "cpu"])
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let report = check_sweep(&dir.path().join("manifest.jsonl"));
    (stderr, report)
}

/// The same checks on the manifest of a real `geomrender sweep`, rendered on the
/// CPU (scoring reads the manifest, not the pixels), so it needs no GPU.
#[test]
fn real_rendered_sweep_end_to_end() {
    let (_, report) = sweep_and_check(&["--count", "12", "--seed", "3"]);
    // The report carries the run's provenance from the record beside the manifest
    // (validated against the report schema by `check_sweep`).
    let run = &report["run"];
    assert_eq!(run["geomrender"], env!("CARGO_PKG_VERSION"), "{run}");
    assert_eq!(run["backend"], "cpu", "{run}");
    assert_eq!(
        run["font_sha256"],
        crate::support::sha256_hex(&crate::support::font_bytes()),
        "{run}"
    );
    assert_eq!(run["generator"]["seed"], 3, "{run}");
}

/// The same on a sweep of the text and drawing axes of issue 15: wordings, backward
/// questions (their own answers; not every problem has one) and auxiliary lines
/// (not every problem has both kinds), so pairs are missing for some bases.
#[test]
fn real_sweep_of_the_newer_axes_end_to_end() {
    let (stderr, _) = sweep_and_check(&[
        "--count",
        "24",
        "--seed",
        "5",
        "--variants",
        "phrasing=1,2;backward;aux",
    ]);
    assert!(stderr.contains("variants not made"), "{stderr}");
}

// ---------------------------------------------------------------- bad input

fn small_manifest(dir: &Path) -> PathBuf {
    let rows: Vec<ManifestRow> = (0..2)
        .flat_map(|base| {
            [json!({}), json!({"fontsize": 8})].map(|variant| ManifestRow {
                base,
                variant,
                answer: 44.0,
                depth: Some(1),
                question_type: Some("area"),
            })
        })
        .collect();
    write_manifest(dir, &rows)
}

fn scored(dir: &Path, preds: &str) -> (geomrender::score::Report, PathBuf) {
    let manifest = small_manifest(dir);
    let p = dir.join("m.jsonl");
    std::fs::write(&p, preds).unwrap();
    let report = score::score(
        &LoadedFile::read(&manifest).unwrap(),
        &[LoadedFile::read(&p).unwrap()],
        &ScoreOptions::default(),
    )
    .unwrap();
    (report, p)
}

fn line_error(file: &Path, line: usize, reason: LineReason) -> RejectedLine {
    RejectedLine {
        file: file.display().to_string(),
        line,
        reason,
    }
}

#[test]
fn numeric_predictions_score_like_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let as_text = "{\"id\":\"p000000\",\"prediction\":\"44\"}\n{\"id\":\"p000001\",\"prediction\":\"12.5\"}\n";
    let as_numbers =
        "{\"id\":\"p000000\",\"prediction\":44}\n{\"id\":\"p000001\",\"prediction\":12.5}\n";
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let (text_report, _) = scored(&dir.path().join("a"), as_text);
    let (number_report, _) = scored(&dir.path().join("b"), as_numbers);
    assert!(
        number_report.errors.is_empty(),
        "{:?}",
        number_report.errors
    );
    assert_eq!(number_report.rows, text_report.rows);
    assert_eq!(number_report.counts, text_report.counts);
}

#[test]
fn malformed_prediction_line_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let preds = "{\"id\":\"p000000\",\"prediction\":\"44\"}\n{\"id\":\"p000001\",\"prediction\":\"44\"}\n{\"id\": \"p000001__fontsize-8\", \"prediction\": true}\n{oops\n";
    let (report, p) = scored(dir.path(), preds);
    assert_eq!(report.errors.len(), 2);
    assert_eq!(
        report.errors[0],
        line_error(
            &p,
            3,
            LineReason::BadField {
                field: "prediction".into(),
                message: "must be a string, a number or null".into()
            }
        )
    );
    assert_eq!(report.errors[1].line, 4);
    assert!(matches!(report.errors[1].reason, LineReason::Json { .. }));
    assert_eq!(report.counts.malformed_lines, 2);
    assert_eq!(report.counts.missing, 2);

    // The CLI writes the report, names file and line, and exits 1.
    let run = run_score(
        &dir.path().join("manifest.jsonl"),
        std::slice::from_ref(&p),
        &dir.path().join("out"),
    );
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains(&format!("{}:4: malformed JSON", p.display())),
        "{stderr}"
    );
    assert!(dir.path().join("out/report.json").exists());
}

#[test]
fn duplicate_prediction_is_an_error_and_the_first_counts() {
    let dir = tempfile::tempdir().unwrap();
    let preds = "{\"id\":\"p000000\",\"prediction\":\"The answer is 44.\"}\n{\"id\":\"p000000\",\"prediction\":\"The answer is 99.\"}\n";
    let (report, p) = scored(dir.path(), preds);
    assert_eq!(
        report.errors,
        [line_error(
            &p,
            2,
            LineReason::DuplicatePrediction {
                id: "p000000".into(),
                model: "m".into(),
                first: format!("{}:1", p.display()),
            }
        )]
    );
    assert_eq!(report.counts.duplicate_ids, 1);
    let base = report.rows.iter().find(|r| r.axis == "base").unwrap();
    assert_eq!((base.n, base.correct), (1, 1));
    let run = run_score(
        &dir.path().join("manifest.jsonl"),
        &[p],
        &dir.path().join("out"),
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("duplicate prediction for id \"p000000\"")
    );
}

#[test]
fn unknown_id_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let preds = "{\"id\":\"p000000\",\"prediction\":\"44\",\"model\":\"x\"}\n{\"id\":\"p999999\",\"prediction\":\"44\",\"model\":\"x\"}\n";
    let (report, p) = scored(dir.path(), preds);
    assert_eq!(
        report.errors,
        [line_error(
            &p,
            2,
            LineReason::UnknownId {
                id: "p999999".into()
            }
        )]
    );
    assert_eq!(report.counts.unknown_ids, 1);
    assert_eq!(report.models[0].model, "x");
    assert_eq!(
        report.models[0].missing_ids,
        ["p000000__fontsize-8", "p000001", "p000001__fontsize-8"]
    );
    let run = run_score(
        &dir.path().join("manifest.jsonl"),
        std::slice::from_ref(&p),
        &dir.path().join("out"),
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr)
            .contains(&format!("{}:2: unknown id \"p999999\"", p.display()))
    );
}

#[test]
fn bad_manifest_line_is_located_and_the_rest_scored() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = small_manifest(dir.path());
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str(
        "{\"id\":\"p000009\",\"base_id\":\"p000009\",\"variant\":{},\"answer\":\"44\"}\n",
    );
    std::fs::write(&manifest, text).unwrap();
    let p = dir.path().join("m.jsonl");
    std::fs::write(&p, "{\"id\":\"p000000\",\"prediction\":\"44\"}\n").unwrap();
    let run = run_score(&manifest, &[p], &dir.path().join("out"));
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:5: field \"answer\": must be a number",
            manifest.display()
        )),
        "{stderr}"
    );
}

#[test]
fn unreadable_inputs_exit_2_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_score(
        &dir.path().join("nope.jsonl"),
        &[dir.path().join("p.jsonl")],
        &dir.path().join("out"),
    );
    assert_eq!(run.status.code(), Some(2));
    std::fs::write(dir.path().join("empty.jsonl"), "\n").unwrap();
    std::fs::write(dir.path().join("p.jsonl"), "").unwrap();
    let run = run_score(
        &dir.path().join("empty.jsonl"),
        &[dir.path().join("p.jsonl")],
        &dir.path().join("out"),
    );
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("no valid manifest rows to score: the file is empty"),
        "{stderr}"
    );
    // Defect 12: a Problems file given as the manifest says what it is.
    let problems = dir.path().join("problems.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--out"])
            .arg(&problems),
    );
    let run = run_score(
        &problems,
        &[dir.path().join("p.jsonl")],
        &dir.path().join("out"),
    );
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("it holds Problems (from `geomrender generate`)"),
        "{stderr}"
    );
}

#[test]
fn invalid_tolerance_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = small_manifest(dir.path());
    let p = dir.path().join("m.jsonl");
    std::fs::write(&p, "").unwrap();
    let run = bin()
        .args(["score", "--tolerance", "-0.1", "--out"])
        .arg(dir.path().join("out"))
        .arg("--manifest")
        .arg(&manifest)
        .arg("--predictions")
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("invalid option tolerance"));
    assert!(
        !dir.path().join("out").exists(),
        "nothing written on a bad option"
    );
}

#[test]
fn explain_prints_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = small_manifest(dir.path());
    let p = dir.path().join("gpt.jsonl");
    std::fs::write(
        &p,
        "{\"id\":\"p000000__fontsize-8\",\"prediction\":\"So 2 * 22 = 44. **Answer:** 44 cm\"}\n",
    )
    .unwrap();
    let run = bin()
        .args(["score", "--explain", "p000000__fontsize-8", "--manifest"])
        .arg(&manifest)
        .arg("--predictions")
        .arg(&p)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("model gpt"), "{text}");
    assert!(text.contains("answer_is"), "{text}");
    assert!(text.contains("FIRED \"Answer: 44 cm\" → 44"), "{text}");
    assert!(text.contains("would read \"44\" → 44"), "{text}");
    assert!(
        text.contains("extracted   by answer_is: 44 → correct"),
        "{text}"
    );

    let run = bin()
        .args(["score", "--explain", "p404", "--manifest"])
        .arg(&manifest)
        .arg("--predictions")
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
}

// ---------------------------------------------------------------- schema check

/// Marks an `integer` schema for [`WrittenAsInteger`].
const WRITTEN_AS_INTEGER: &str = "x-written-as-integer";

/// The one check beyond JSON Schema: a number where the schema says `integer` must be
/// written as one (`3`, not `3.0`, which JSON Schema also counts as an integer).
struct WrittenAsInteger;

impl<'i> jsonschema::Keyword<'i> for WrittenAsInteger {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(jsonschema::ValidationError::custom(format!(
                "{instance} is not written as an integer"
            )))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        !instance.is_number() || instance.is_u64() || instance.is_i64()
    }
}

/// Adds [`WRITTEN_AS_INTEGER`] beside every `"type": "integer"` in `schema`.
fn mark_integers(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let integer = match map.get("type") {
                Some(Value::String(t)) => t == "integer",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                _ => false,
            };
            if integer {
                map.insert(WRITTEN_AS_INTEGER.into(), Value::Bool(true));
            }
            map.values_mut().for_each(mark_integers);
        }
        Value::Array(items) => items.iter_mut().for_each(mark_integers),
        _ => {}
    }
}

/// Validates the report against the published schema (`jsonschema`), after checking
/// that the validator is not vacuous: it rejects reports the writer must never produce.
fn check_schema(report: &Value) {
    let mut schema: Value = serde_json::from_str(&schema_file("report")).expect("schema is JSON");
    mark_integers(&mut schema);
    assert!(
        schema.to_string().contains(WRITTEN_AS_INTEGER),
        "the schema has integer fields"
    );
    let validator = jsonschema::options()
        .with_keyword(WRITTEN_AS_INTEGER, |_, _, _| Ok(Box::new(WrittenAsInteger)))
        .build(&schema)
        .expect("the report schema is a valid JSON Schema");
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "report does not match its schema:\n{}",
        errors.join("\n")
    );
    let rejects = |what: &str, edit: &dyn Fn(&mut Value)| {
        let mut bad = report.clone();
        edit(&mut bad);
        assert!(!validator.is_valid(&bad), "the schema accepts {what}");
    };
    rejects("an unknown top-level field", &|r| r["extra"] = json!(1));
    rejects("another format", &|r| {
        r["format"] = json!("geomrender-score-report/0")
    });
    rejects("a missing field", &|r| {
        r.as_object_mut().unwrap().remove("rows");
    });
    rejects("a negative count", &|r| r["counts"]["missing"] = json!(-1));
    rejects("a count written as 3.0", &|r| {
        r["counts"]["missing"] = json!(3.0)
    });
    rejects("an accuracy above 1", &|r| {
        r["rows"][0]["accuracy"] = json!(1.5)
    });
}

/// The size of an SVG's root element (`width="W" height="H"`).
fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |name: &str| -> u32 {
        let at = svg.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("width"), attr("height"))
}

/// Issue 16: plots a paper can use — the PNG at twice the SVG's size, every x axis
/// titled with its quantity and unit, numeric axes at their values, and a report
/// with a single axis wide enough for its header (it used to be clipped).
#[test]
fn plots_are_titled_numeric_and_sized_for_a_paper() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = small_manifest(dir.path());
    let p = dir.path().join("m.jsonl");
    std::fs::write(
        &p,
        "{\"id\":\"p000000\",\"prediction\":\"44\"}\n{\"id\":\"p000000__fontsize-8\",\"prediction\":\"40\"}\n",
    )
    .unwrap();
    let out = dir.path().join("report");
    let run = run_score(&manifest, &[p], &out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for name in ["accuracy", "flips"] {
        let svg = std::fs::read_to_string(out.join(format!("{name}.svg"))).unwrap();
        let (w, h) = svg_size(&svg);
        assert!(w >= 880, "{name}: {w} px wide with one axis");
        let png = image::open(out.join(format!("{name}.png"))).unwrap();
        assert_eq!((png.width(), png.height()), (2 * w, 2 * h), "{name}");
        assert!(svg.contains("label font size (px at 512 px)"), "{name}");
        // A numeric axis: ticks at numbers around the one value 8, not the single
        // category "8", spanning the base's 16 too, where the accuracy panel plots
        // the base images' accuracy (issue 15).
        let ticks: Vec<&str> = svg
            .lines()
            .filter(|l| l.trim().parse::<f64>().is_ok())
            .collect();
        for t in ["5", "10", "15"] {
            assert!(ticks.contains(&t), "{name}: tick {t} not in {ticks:?}");
        }
    }
}

/// Issue 12: a predictions file in no known layout, or a result table without the
/// columns needed, is refused naming what was expected.
#[test]
fn unknown_prediction_layouts_name_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = small_manifest(dir.path());
    let cases = [
        (
            "odd.jsonl",
            "{\"foo\":1}\n{\"bar\":2}\n",
            "no line matches a known layout",
        ),
        (
            "m_GeomRender.csv",
            "index,answer\n0,44\n",
            "needs columns index (or id) and prediction; found [\"index\", \"answer\"]",
        ),
        ("m_GeomRender.xlsx", "not a zip", "not a readable .xlsx"),
    ];
    for (name, text, want) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        let run = run_score(&manifest, &[p], &dir.path().join("out"));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(want), "{name}: {stderr}");
    }
}

/// Model names come from file names, which may hold HTML: `report.md` escapes them
/// (Markdown passes raw HTML through to the page that shows it).
#[test]
fn report_md_escapes_model_names() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = write_manifest(dir.path(), &small_sweep());
    let items = read_items(&manifest);
    let model = "<img src=x onerror=alert(1)> & co";
    let preds = write_predictions(dir.path(), &items, &[model]);
    let out = dir.path().join("scored");
    let o = crate::support::cli::run_score(&manifest, &preds, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("<img"), "raw HTML in report.md");
    assert!(
        md.contains("&lt;img src=x onerror=alert(1)&gt; &amp; co"),
        "{md}"
    );
}

/// `report.html` stays bounded however long the outputs: each flip shows the head
/// of its outputs and says where the rest is.
#[test]
fn report_html_is_bounded_by_long_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = write_manifest(dir.path(), &small_sweep());
    let items = read_items(&manifest);
    let preds = write_predictions(dir.path(), &items, &["m1"]);
    // Every output 200 KB of reasoning before its answer.
    let padded: String = std::fs::read_to_string(&preds[0])
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let text = format!(
                "{} {}",
                "let me think. ".repeat(14_000),
                v["prediction"].as_str().unwrap()
            );
            v["prediction"] = text.into();
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&preds[0], &padded).unwrap();
    let out = dir.path().join("scored");
    let o = run_ok(
        bin()
            .arg("score")
            .arg("--manifest")
            .arg(&manifest)
            .arg("--predictions")
            .arg(&preds[0])
            .arg("--html")
            .arg("--out")
            .arg(&out),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains("more bytes: the whole output is in the predictions file"),
        "no flip cut"
    );
    // 2 × 2,000 bytes of output per flip (escaped: at most ×6), plus the rest.
    let flips = page.matches("<tr data-model=").count();
    assert!(flips > 0, "{report}");
    assert!(
        page.len() < 400_000 + flips * 30_000,
        "report.html is {} bytes for {flips} flips",
        page.len()
    );
}

/// report.md is worded for the run: a numeric run defines relaxed accuracy only, and
/// a breakdown with one group (every item of depth 2) is a line, not a table that
/// repeats the rows.
#[test]
fn report_md_of_a_numeric_run_has_no_constant_sections() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("manifest.jsonl");
    let row = |id: &str, qt: &str| {
        json!({"id": id, "base_id": id, "variant": {}, "answer": 44,
               "params": {"depth": 2, "question_type": qt}})
        .to_string()
    };
    std::fs::write(
        &manifest,
        format!("{}\n{}\n", row("p1", "area"), row("p2", "perimeter")),
    )
    .unwrap();
    let preds = dir.path().join("m.jsonl");
    std::fs::write(
        &preds,
        "{\"id\":\"p1\",\"prediction\":\"44\"}\n{\"id\":\"p2\",\"prediction\":\"40\"}\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    assert_eq!(run_score(&manifest, &[&preds], &out).status.code(), Some(0));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("Relaxed accuracy: a prediction p is correct"),
        "{md}"
    );
    assert!(!md.contains("Multiple choice"), "{md}");
    assert!(
        md.contains("Every item has depth 2: no breakdown by it."),
        "{md}"
    );
    assert!(!md.contains("Accuracy by depth"), "{md}");
    assert!(md.contains("Accuracy by question type"), "{md}");
}

/// `schemas/NAME.schema.json`, the file `geomrender schema NAME` prints.
fn schema_file(name: &str) -> String {
    std::fs::read_to_string(crate::support::repo().join(format!("schemas/{name}.schema.json")))
        .unwrap()
}
