//! GeomRel relation items scored end to end: a manifest of relation rows in the
//! generator's contract, written here by hand (6 relations of 2 domains, 10 items
//! each, basic and advanced, text and visual, 2 of every 10 "Cannot be inferred",
//! each with a relabelled variant), predictions that plant a known accuracy per
//! relation and known "Cannot be inferred" answers (as letters, option texts in
//! another case, and bold last lines), and `geomrender score`'s report.json and
//! report.md checked against the plan: per relation, domain, subset and mode with
//! the variant's flips, and precision, recall and F1 computed here by hand.

use crate::support::cli::{bin, run_ok, run_score};
use geomrender::score::{self, LoadedFile, MissingPolicy, ScoreOptions};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const LINE_LINE: &[&str] = &[
    "Parallel",
    "Perpendicular",
    "Intersecting but not perpendicular",
    "Cannot be inferred",
];
const COLLINEARITY: &[&str] = &["Collinear", "Not collinear", "Cannot be inferred"];
const MEASURES: &[&str] = &[
    "Complementary",
    "Supplementary",
    "Neither",
    "Cannot be inferred",
];
const POSITIONS: &[&str] = &[
    "Corresponding angles",
    "Alternate interior angles",
    "Vertical angles",
    "Cannot be inferred",
];

/// (relation, domain, choices, the option of its answer, base items of 10 answered
/// right). Collinear's answer is "Not collinear", which a reader that took the
/// first or shortest option would read as "Collinear".
const RELATIONS: [(&str, &str, &[&str], usize, usize); 6] = [
    ("parallel", "line", LINE_LINE, 0, 10),
    ("perpendicular", "line", LINE_LINE, 1, 7),
    ("collinear", "line", COLLINEARITY, 1, 5),
    ("complementary", "angle", MEASURES, 0, 3),
    ("supplementary", "angle", MEASURES, 1, 8),
    ("vertical", "angle", POSITIONS, 2, 0),
];

/// One manifest item and what the model said about it (`None`: no option).
struct Item {
    id: String,
    base_id: String,
    variant: bool,
    relation: &'static str,
    domain: &'static str,
    subset: &'static str,
    mode: &'static str,
    choices: &'static [&'static str],
    gold: usize,
    said: Option<usize>,
    /// Which wording the prediction uses.
    k: usize,
}

impl Item {
    fn right(&self) -> bool {
        self.said == Some(self.gold)
    }

    fn axis(&self) -> &'static str {
        if self.variant { "relabel" } else { "base" }
    }
}

/// The plan. Base item k of a relation: basic when k < 5, visual when k % 5 = 4, its
/// answer "Cannot be inferred" when k % 5 = 0; answered right when k < the
/// relation's count; a wrong one names the relation's own answer when the gold is
/// "Cannot be inferred", else "Cannot be inferred" (k odd) or no option (k even).
/// Its variant repeats it, but k = 1 right turns wrong and k = 9 wrong turns right.
fn plan() -> Vec<Item> {
    let mut items = Vec::new();
    for (relation, domain, choices, answer, right) in RELATIONS {
        let cbi = choices.len() - 1;
        for k in 0..10 {
            let gold = if k % 5 == 0 { cbi } else { answer };
            let said = if k < right {
                Some(gold)
            } else if gold == cbi {
                Some(answer)
            } else if k % 2 == 1 {
                Some(cbi)
            } else {
                None
            };
            let base_id = format!("{relation}-{k}");
            let item = |id: String, variant: bool, said: Option<usize>| Item {
                id,
                base_id: base_id.clone(),
                variant,
                relation,
                domain,
                subset: if k < 5 { "basic" } else { "advanced" },
                mode: if k % 5 == 4 { "visual" } else { "text" },
                choices,
                gold,
                said,
                k,
            };
            let flipped = match k {
                1 if said == Some(gold) => Some((gold + 1) % cbi),
                9 if said != Some(gold) => Some(gold),
                _ => said,
            };
            items.push(item(base_id.clone(), false, said));
            items.push(item(format!("{base_id}__relabel-1"), true, flipped));
        }
    }
    items
}

fn letter(i: usize) -> char {
    char::from(b'A' + u8::try_from(i).unwrap())
}

fn write_manifest(dir: &Path, items: &[Item]) -> PathBuf {
    let mut text = String::new();
    for it in items {
        let row = json!({
            "id": it.id,
            "base_id": it.base_id,
            "variant": if it.variant { json!({"relabel": 1}) } else { json!({}) },
            "task": "relations",
            "question": format!("What is the relationship ({})?", it.relation),
            "cot": "",
            "answer": letter(it.gold).to_string(),
            "choices": it.choices,
            "answer_text": it.choices[it.gold],
            "relation": it.relation,
            "domain": it.domain,
            "subset": it.subset,
            "mode": it.mode,
            "params": {},
        });
        text.push_str(&row.to_string());
        text.push('\n');
    }
    let path = dir.join("manifest.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

/// The model's output for an item: a letter, the option's text in lower case after
/// "the answer is", or the text in bold on a last line, by turns.
fn output(it: &Item) -> String {
    match it.said {
        None => "I am not sure which of these holds.".into(),
        Some(i) => match it.k % 3 {
            0 => format!("The answer is {}.", letter(i)),
            1 => format!(
                "Compare the two.\nTherefore the answer is {}.",
                it.choices[i].to_lowercase()
            ),
            _ => format!("Look at the figure.\n\n**{}**", it.choices[i]),
        },
    }
}

fn write_predictions(dir: &Path, items: &[Item], skip: &[&str]) -> PathBuf {
    let mut text = String::new();
    for it in items.iter().filter(|it| !skip.contains(&it.id.as_str())) {
        let row = json!({"id": it.id, "prediction": output(it), "model": "m1"});
        text.push_str(&row.to_string());
        text.push('\n');
    }
    let path = dir.join("m1.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

/// Counts of one breakdown cell, tallied here from the plan.
#[derive(Debug, Default, PartialEq)]
struct Cell {
    n: u64,
    correct: u64,
    unparsed: u64,
    paired_n: u64,
    to_wrong: u64,
    to_right: u64,
}

fn expected_cells(
    items: &[Item],
    group: fn(&Item) -> &'static str,
) -> BTreeMap<(String, String), Cell> {
    let base: BTreeMap<&str, &Item> = (items.iter().filter(|i| !i.variant))
        .map(|i| (i.base_id.as_str(), i))
        .collect();
    let mut cells: BTreeMap<(String, String), Cell> = BTreeMap::new();
    for it in items {
        let c = cells
            .entry((group(it).to_string(), it.axis().to_string()))
            .or_default();
        c.n += 1;
        c.correct += u64::from(it.right());
        c.unparsed += u64::from(it.said.is_none());
        if it.variant {
            let b = base[it.base_id.as_str()];
            c.paired_n += 1;
            c.to_wrong += u64::from(b.right() && !it.right());
            c.to_right += u64::from(!b.right() && it.right());
        }
    }
    cells
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

/// Every row of `breakdowns[dim]` is the cell the plan gives, with its Wilson
/// interval and McNemar test; the groups come in `order`.
fn check_breakdown(
    report: &Value,
    dim: &str,
    items: &[Item],
    group: fn(&Item) -> &'static str,
    order: &[&str],
) {
    let rows = report["breakdowns"][dim].as_array().expect(dim);
    let want = expected_cells(items, group);
    assert_eq!(
        rows.len(),
        want.len(),
        "{dim}: one row per (group, axis value)"
    );
    let groups: Vec<&str> = rows.iter().map(|r| r["group"].as_str().unwrap()).collect();
    let mut seen: Vec<&str> = groups.clone();
    seen.dedup();
    assert_eq!(seen, order, "{dim}: groups in report order");
    for r in rows {
        let key = (
            r["group"].as_str().unwrap().to_string(),
            r["axis"].as_str().unwrap().to_string(),
        );
        let c = &want[&key];
        let got = Cell {
            n: r["n"].as_u64().unwrap(),
            correct: r["correct"].as_u64().unwrap(),
            unparsed: r["unparsed"].as_u64().unwrap(),
            paired_n: r["paired_n"].as_u64().unwrap(),
            to_wrong: r["flips_to_wrong"].as_u64().unwrap(),
            to_right: r["flips_to_right"].as_u64().unwrap(),
        };
        assert_eq!(&got, c, "{dim} {key:?}");
        assert_eq!(
            num(&r["accuracy"]),
            c.correct as f64 / c.n as f64,
            "{dim} {key:?}"
        );
        let (low, high) = wilson(c.correct, c.n);
        assert!(close(num(&r["ci_low"]), low), "{dim} {key:?}");
        assert!(close(num(&r["ci_high"]), high), "{dim} {key:?}");
        let p = mcnemar_exact(c.to_wrong, c.to_right);
        assert!(close(num(&r["mcnemar_p"]), p), "{dim} {key:?}");
        // One value on the axis: Holm leaves p as it is.
        assert_eq!(
            num(&r["mcnemar_p_holm"]),
            num(&r["mcnemar_p"]),
            "{dim} {key:?}"
        );
        assert_eq!(r["missing"], json!(0));
    }
}

/// The 95 % Wilson interval of `x` out of `n`, in the textbook form
/// `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)` (the library uses another
/// arrangement of it, so the two agree to rounding).
fn wilson(x: u64, n: u64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let (p, n) = (x as f64 / n as f64, n as f64);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    (
        ((centre - half) / d).max(0.0),
        ((centre + half) / d).min(1.0),
    )
}

/// The exact two-sided McNemar p: `min(1, 2·P(X ≤ min(b, c)))`, X ~ Bin(b + c, ½),
/// summed term by term (the counts here are small).
fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    let mut term = 0.5f64.powi(n as i32);
    let mut tail = 0.0;
    for i in 0..=b.min(c) {
        tail += term;
        term *= (n - i) as f64 / (i + 1) as f64;
    }
    (2.0 * tail).min(1.0)
}

/// Equal to rounding.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(1.0)
}

/// The row of `rows` whose fields match `want`.
fn find<'a>(rows: &'a Value, want: &[(&str, &str)]) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| want.iter().all(|(k, v)| r[*k] == json!(v)))
        .unwrap_or_else(|| panic!("no row {want:?}"))
}

fn schema_validator() -> jsonschema::Validator {
    let out = run_ok(bin().args(["schema", "report"]));
    let schema: Value = serde_json::from_slice(&out.stdout).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("a valid JSON Schema")
}

fn check_schema(report: &Value) {
    let validator = schema_validator();
    let errors: Vec<String> = (validator.iter_errors(report))
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "report does not match `schema report`:\n{}",
        errors.join("\n")
    );
    let rejects = |what: &str, edit: &dyn Fn(&mut Value)| {
        let mut bad = report.clone();
        edit(&mut bad);
        assert!(!validator.is_valid(&bad), "the schema accepts {what}");
    };
    rejects("an unknown field in a relation row", &|r| {
        r["breakdowns"]["relation"][0]["extra"] = json!(1)
    });
    rejects("an unknown field in a row", &|r| {
        r["rows"][0]["group"] = json!("x")
    });
    rejects("a domain outside line/angle/shape", &|r| {
        r["breakdowns"]["domain"][0]["group"] = json!("plane")
    });
    rejects("a relation row without its group", &|r| {
        r["breakdowns"]["mode"][0]
            .as_object_mut()
            .unwrap()
            .remove("group");
    });
    rejects("a precision above 1", &|r| {
        r["cannot_be_inferred"][0]["precision"] = json!(1.5)
    });
    rejects("NaN written as a string", &|r| {
        r["cannot_be_inferred"][0]["f1"] = json!("NaN")
    });
}

#[test]
fn relation_report_reproduces_the_planted_accuracies_and_cannot_be_inferred() {
    let dir = tempfile::tempdir().unwrap();
    let items = plan();
    let manifest = write_manifest(dir.path(), &items);
    let preds = write_predictions(dir.path(), &items, &[]);
    let out = dir.path().join("report");
    let run = run_score(&manifest, &[&preds], &out);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    check_schema(&report);

    // Against the plan, cell by cell; relations in the pool's order.
    let ours: Vec<&str> = RELATIONS.iter().map(|r| r.0).collect();
    let pool: Vec<&str> = (geomrender::generate::relations::RELATIONS.iter())
        .map(|r| r.name)
        .filter(|n| ours.contains(n))
        .collect();
    assert_eq!(pool[..2], ["collinear", "parallel"]);
    check_breakdown(&report, "relation", &items, |i| i.relation, &pool);
    check_breakdown(&report, "domain", &items, |i| i.domain, &["line", "angle"]);
    check_breakdown(
        &report,
        "subset",
        &items,
        |i| i.subset,
        &["basic", "advanced"],
    );
    check_breakdown(&report, "mode", &items, |i| i.mode, &["text", "visual"]);

    // And the planted numbers themselves, on the base images.
    let b = &report["breakdowns"];
    let base_accuracy = |dim: &str, group: &str| {
        let r = find(&b[dim], &[("group", group), ("axis", "base")]);
        (r["correct"].as_u64().unwrap(), r["n"].as_u64().unwrap())
    };
    for (relation, _, _, _, right) in RELATIONS {
        assert_eq!(
            base_accuracy("relation", relation),
            (right as u64, 10),
            "{relation}"
        );
    }
    assert_eq!(base_accuracy("domain", "line"), (22, 30));
    assert_eq!(base_accuracy("domain", "angle"), (11, 30));
    assert_eq!(base_accuracy("subset", "basic"), (23, 30));
    assert_eq!(base_accuracy("subset", "advanced"), (10, 30));
    assert_eq!(base_accuracy("mode", "text"), (28, 48));
    assert_eq!(base_accuracy("mode", "visual"), (5, 12));
    let relabel = find(
        &b["relation"],
        &[("group", "perpendicular"), ("axis", "relabel")],
    );
    assert_eq!(
        (
            relabel["flips_to_wrong"].as_u64(),
            relabel["flips_to_right"].as_u64()
        ),
        (Some(1), Some(1))
    );

    // "Cannot be inferred", by hand. Base: 12 items have it as their answer (2 a
    // relation); answered right on 8 of them (parallel 2, perpendicular 2, collinear
    // 1, complementary 1, supplementary 2, vertical 0); answered so wrongly 12 times
    // (perpendicular 2, collinear 2, complementary 3, supplementary 1, vertical 4).
    // The variant answers 5 of those wrong ones (k = 9) right instead.
    let cbi = &report["cannot_be_inferred"];
    assert_eq!(cbi.as_array().unwrap().len(), 2);
    for (axis, tp, fp, fn_) in [("base", 8u64, 12u64, 4u64), ("relabel", 8, 7, 4)] {
        let r = find(cbi, &[("model", "m1"), ("axis", axis)]);
        let (p, rc) = (tp as f64 / (tp + fp) as f64, tp as f64 / (tp + fn_) as f64);
        assert_eq!(r["n"], json!(60), "{axis}");
        assert_eq!(r["gold"].as_u64(), Some(tp + fn_), "{axis}");
        assert_eq!(r["predicted"].as_u64(), Some(tp + fp), "{axis}");
        assert_eq!(r["true_positive"].as_u64(), Some(tp), "{axis}");
        assert_eq!(num(&r["precision"]), p, "{axis}");
        assert_eq!(num(&r["recall"]), rc, "{axis}");
        assert!(
            (num(&r["f1"]) - 2.0 * p * rc / (p + rc)).abs() < 1e-15,
            "{axis}"
        );
        let (low, high) = wilson(tp, tp + fp);
        assert!(close(num(&r["precision_ci_low"]), low), "{axis}");
        assert!(close(num(&r["precision_ci_high"]), high), "{axis}");
        let (low, high) = wilson(tp, tp + fn_);
        assert!(close(num(&r["recall_ci_low"]), low), "{axis}");
        assert!(close(num(&r["recall_ci_high"]), high), "{axis}");
    }
    let base = find(cbi, &[("axis", "base")]);
    assert_eq!((num(&base["precision"]), num(&base["f1"])), (0.4, 0.5));

    // Option texts were read by their rule, letters by answer_is.
    let rules = &report["models"][0]["rules"];
    assert!(rules["option_text"].as_u64().unwrap() > 40, "{rules}");
    assert!(rules["answer_is"].as_u64().unwrap() > 20, "{rules}");

    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("## Accuracy by depth"), "only unknown depths");
    // Worded for a multiple-choice run: no numeric tolerance, no constant sections.
    assert!(md.contains("Multiple choice: a prediction is correct when the one option"));
    assert!(!md.contains("Relaxed accuracy"), "{md}");
    assert!(!md.contains("question type"), "{md}");
    for line in [
        "## Relation identification",
        "### Accuracy by relation",
        "### Accuracy by mode",
        "| m1 | parallel | base | 10 | 10 | 100.0 % |",
        "| m1 | vertical | relabel = 1 | 10 | 10 | 10.0 % |",
        "| m1 | base | 60 | 60 | 12 | 20 | 8 | 40.0 % |",
    ] {
        assert!(md.contains(line), "report.md lacks {line:?}:\n{md}");
    }
}

/// Under `--missing exclude` a missing prediction leaves the class's counts; under
/// `wrong` it is an answer other than "Cannot be inferred". A model that never
/// answers so has no precision (null, not NaN) and an F1 of 0.
#[test]
fn cannot_be_inferred_follows_the_missing_policy_and_writes_null() {
    let dir = tempfile::tempdir().unwrap();
    let items: Vec<Item> = plan().into_iter().filter(|i| !i.variant).collect();
    let manifest = LoadedFile::read(&write_manifest(dir.path(), &items)).unwrap();
    // parallel-5: its answer is "Cannot be inferred", answered so (a true positive).
    let preds = LoadedFile::read(&write_predictions(dir.path(), &items, &["parallel-5"])).unwrap();
    let row = |missing: MissingPolicy| {
        let mut opts = ScoreOptions::default();
        opts.missing = missing;
        let report = score::score(&manifest, std::slice::from_ref(&preds), &opts).unwrap();
        let r = &report.cannot_be_inferred[0];
        (r.n, r.gold, r.predicted, r.true_positive)
    };
    assert_eq!(row(MissingPolicy::Exclude), (59, 11, 19, 7));
    assert_eq!(row(MissingPolicy::Wrong), (60, 12, 19, 7));

    let never = dir.path().join("never.jsonl");
    let text: String = (items.iter())
        .map(|it| {
            format!(
                "{}\n",
                json!({"id": it.id, "prediction": "The answer is A."})
            )
        })
        .collect();
    std::fs::write(&never, text).unwrap();
    let out = dir.path().join("never");
    assert_eq!(
        run_score(manifest.name.as_ref(), &[&never], &out)
            .status
            .code(),
        Some(0)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let r = &report["cannot_be_inferred"][0];
    assert_eq!(
        (
            &r["precision"],
            &r["precision_ci_low"],
            &r["recall"],
            &r["f1"]
        ),
        (&Value::Null, &Value::Null, &json!(0.0), &json!(0.0))
    );
}

/// A manifest without relation items keeps the report it had: no relation keys in
/// report.json, no relation section in report.md.
#[test]
fn geomverse_reports_have_no_relation_keys() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("manifest.jsonl");
    std::fs::write(
        &manifest,
        "{\"id\":\"p1\",\"base_id\":\"p1\",\"variant\":{},\"answer\":44,\"params\":{\"depth\":1}}\n\
         {\"id\":\"p2\",\"base_id\":\"p2\",\"variant\":{},\"answer\":\"B\",\"choices\":[\"1\",\"Cannot be inferred\"]}\n",
    )
    .unwrap();
    let preds = dir.path().join("m.jsonl");
    std::fs::write(
        &preds,
        "{\"id\":\"p1\",\"prediction\":\"44\"}\n{\"id\":\"p2\",\"prediction\":\"Cannot be inferred\"}\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    assert_eq!(run_score(&manifest, &[&preds], &out).status.code(), Some(0));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert!(report.get("cannot_be_inferred").is_none());
    let keys: Vec<&String> = report["breakdowns"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["depth", "question_type"]);
    assert!(schema_validator().is_valid(&report));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("Relation identification"));
    // Both kinds of item: both definitions.
    assert!(md.contains("Numeric items, relaxed accuracy: a prediction p is correct"));
    assert!(md.contains("Multiple-choice items: a prediction is correct"));
    // The option text is still read on a multiple-choice item without a task.
    assert_eq!(report["rows"][0]["correct"], json!(2));
}

/// Bad relation rows are rejected lines naming file, line and field; the rest is
/// scored.
#[test]
fn bad_relation_rows_are_named_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let items: Vec<Item> = plan().into_iter().filter(|i| !i.variant).take(3).collect();
    let manifest = write_manifest(dir.path(), &items);
    let good = std::fs::read_to_string(&manifest).unwrap();
    let first: Value = serde_json::from_str(good.lines().next().unwrap()).unwrap();
    let mut text = good.clone();
    let bad = [
        ("domain", json!("plane"), "field \"domain\""),
        ("mode", Value::Null, "field \"mode\""),
        ("subset", json!(""), "field \"subset\": must not be empty"),
        ("task", json!("geomverse"), "field \"task\""),
        (
            "answer_text",
            json!("Perpendicular"),
            "field \"answer_text\"",
        ),
        (
            "relation",
            json!("skew"),
            "field \"relation\": \"skew\" is not a relation",
        ),
    ];
    for (i, (key, value, _)) in bad.iter().enumerate() {
        let mut row = first.clone();
        row["id"] = json!(format!("bad-{i}"));
        row["base_id"] = row["id"].clone();
        row[*key] = value.clone();
        text.push_str(&format!("{row}\n"));
    }
    let mut row = first.clone();
    row["id"] = json!("bad-missing");
    row["base_id"] = row["id"].clone();
    row.as_object_mut().unwrap().remove("relation");
    text.push_str(&format!("{row}\n"));
    std::fs::write(&manifest, text).unwrap();
    let preds = write_predictions(dir.path(), &items, &[]);
    let out = dir.path().join("out");
    let run = run_score(&manifest, &[&preds], &out);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    for (i, (_, _, says)) in bad.iter().enumerate() {
        let at = format!("{}:{}: {says}", manifest.display(), 4 + i);
        assert!(stderr.contains(&at), "no {at:?} in\n{stderr}");
    }
    assert!(stderr.contains(&format!(
        "{}:10: missing field \"relation\"",
        manifest.display()
    )));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["counts"]["items"], json!(3));
    assert_eq!(report["counts"]["malformed_lines"], json!(7));
}

/// Issue 44: relation items answered in the forms models write are all read —
/// lower-case letters bracketed, after "option"/"answer", alone, in bold, and a
/// list marker with its text — while answers naming several options, and refusals
/// that decline rather than say the relation is undecided, are unparsed: counted
/// in n, apart from wrong. "It cannot be determined." is the "Cannot be inferred"
/// option.
#[test]
fn letters_in_every_common_form_are_read_and_hedges_are_unparsed() {
    let dir = tempfile::tempdir().unwrap();
    let items: Vec<Item> = plan().into_iter().filter(|i| !i.variant).collect();
    let manifest = write_manifest(dir.path(), &items);
    let forms: [fn(char) -> String; 7] = [
        |c| format!("answer: ({c})"),
        |c| format!("The correct option is {c}."),
        |c| format!("{c}"),
        |c| format!("**({c})**"),
        |c| format!("Answer: {}) the option", c.to_ascii_uppercase()),
        |c| format!("I choose option {c}"),
        |c| format!("the answer is {c}."),
    ];
    let mut text = String::new();
    let mut want = (0u64, 0u64, 0u64); // correct, wrong, unparsed
    for (i, it) in items.iter().enumerate() {
        let gold = letter(it.gold).to_ascii_lowercase();
        let other = letter((it.gold + 1) % it.choices.len()).to_ascii_lowercase();
        let said = match i % 10 {
            k @ 0..=6 => forms[k](gold),
            7 => forms[i % 7](other),
            8 => format!(
                "{} or {}",
                letter(it.gold),
                letter((it.gold + 1) % it.choices.len())
            ),
            _ => "It cannot be determined.".to_string(),
        };
        let cbi = it.choices.len() - 1;
        match i % 10 {
            0..=6 => want.0 += 1,
            7 => want.1 += 1,
            8 => want.2 += 1,
            _ if it.gold == cbi => want.0 += 1,
            _ => want.1 += 1,
        }
        text.push_str(&json!({"id": it.id, "prediction": said, "model": "m1"}).to_string());
        text.push('\n');
    }
    let preds = dir.path().join("m1.jsonl");
    std::fs::write(&preds, text).unwrap();
    let out = dir.path().join("out");
    let run = run_score(&manifest, &[&preds], &out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    check_schema(&report);
    let base = find(&report["rows"], &[("model", "m1"), ("axis", "base")]);
    assert_eq!(
        (
            &base["n"],
            &base["correct"],
            &base["wrong"],
            &base["unparsed"]
        ),
        (&json!(60), &json!(want.0), &json!(want.1), &json!(want.2)),
        "{base}"
    );
    assert_eq!(report["models"][0]["rules"]["hedged"], json!(6));
    assert_eq!(report["models"][0]["unparsed"], json!(6));
}

/// `items.jsonl` of a relation run (issue 44): every row valid against `schema
/// score-items`, with task `relations` and the item's relation, domain, subset and
/// mode (the relation breakdowns' groups), and the report rows' own value.
#[test]
fn items_carry_the_relation_keys_and_the_report_value() {
    let dir = tempfile::tempdir().unwrap();
    let items = plan();
    let manifest = write_manifest(dir.path(), &items);
    let preds = write_predictions(dir.path(), &items, &[]);
    let out = dir.path().join("report");
    let run = run_score(&manifest, &[&preds], &out);
    assert_eq!(run.status.code(), Some(0));
    let schema: Value =
        serde_json::from_slice(&run_ok(bin().args(["schema", "score-items"])).stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let text = std::fs::read_to_string(out.join("items.jsonl")).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), items.len());
    for (row, it) in rows.iter().zip(&items) {
        if let Some(e) = validator.iter_errors(row).next() {
            panic!("{row}: {e}");
        }
        assert_eq!(row["id"], it.id.as_str());
        assert_eq!(row["task"], "relations");
        let keys = [
            &row["relation"],
            &row["domain"],
            &row["subset"],
            &row["mode"],
        ];
        assert_eq!(keys, [it.relation, it.domain, it.subset, it.mode], "{row}");
        let value = if it.variant { "1" } else { "base" };
        assert_eq!(
            (&row["axis"], &row["value"]),
            (&json!(it.axis()), &json!(value))
        );
    }
    // A relation row without its keys, or a GeomVerse row with them, is refused.
    let mut bad = rows[0].clone();
    bad.as_object_mut().unwrap().remove("mode");
    assert!(!validator.is_valid(&bad));
    let mut bad = rows[0].clone();
    bad["task"] = json!("geomverse");
    assert!(!validator.is_valid(&bad));
}
