//! Finding one's way (issue 44, Discovery): `variants --list --json` is the axis
//! table and matches its schema; `--variants all` draws every axis and the audit
//! passes it; an option that does not apply to the task, mode, backend or outputs
//! is an error naming both (or, for the GPU's tuning options, a warning), never
//! ignored; `sweep --task relations` draws GeomRel's own `relabel` and
//! `unrelated` by default, and `bench --task relations` runs.

use crate::support::cli::{bin, manifest, run, run_ok};
use geomrender::variants::{AXES, GEOMVERSE_SWEEP, RELATION_SWEEP};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn rows(path: &Path) -> Vec<Value> {
    match std::fs::read_to_string(path) {
        Ok(text) => text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The axes named in the rows' `variant` blocks.
fn axes_of(rows: &[Value]) -> BTreeSet<String> {
    (rows.iter())
        .flat_map(|r| r["variant"].as_object().unwrap().keys().cloned())
        .collect()
}

#[test]
fn variants_list_json_lists_every_axis_and_matches_its_schema() {
    let out = run_ok(bin().args(["variants", "--list", "--json"]));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let schema: Value =
        serde_json::from_slice(&run_ok(bin().args(["schema", "variants"])).stdout).unwrap();
    assert_eq!(
        schema,
        serde_json::from_str::<Value>(geomrender::variants::LIST_SCHEMA).unwrap()
    );
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let errors: Vec<String> = validator
        .iter_errors(&list)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");

    let listed = list["axes"].as_array().unwrap();
    let names: Vec<&str> = listed.iter().map(|a| a["name"].as_str().unwrap()).collect();
    let table: Vec<&str> = AXES.iter().map(|a| a.name()).collect();
    assert_eq!(names, table, "every axis, in table order");
    for (json, a) in listed.iter().zip(AXES) {
        let labels: Vec<&str> = (json["sweep"].as_array().unwrap().iter())
            .map(|v| v["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, a.sweep, "{a}");
        assert_eq!(json["changes"], a.changes, "{a}");
        assert_eq!(json["accepts"], a.accepts(), "{a}");
        assert_eq!(json["manifest_schema"], a.schema(), "{a}");
        assert_eq!(json["applies_to"]["relations"], a.relations, "{a}");
        assert_eq!(
            json["applies_to"]["scenes"],
            a.on_scenes() != "needs a Problem",
            "{a}"
        );
        let may: Vec<&str> = a.may_change.iter().map(|c| c.name()).collect();
        assert_eq!(json["may_change"], serde_json::json!(may), "{a}");
        // Each swept value is one the manifest's schema of the axis accepts.
        let fragment = jsonschema::validator_for(&json["manifest_schema"]).unwrap();
        for v in json["sweep"].as_array().unwrap() {
            assert!(fragment.is_valid(&v["value"]), "{a}: {v}");
        }
    }
    assert_eq!(list["default_sweeps"]["geomverse"], GEOMVERSE_SWEEP);
    assert_eq!(list["default_sweeps"]["relations"], RELATION_SWEEP);
    // The table that is not JSON says `all` and `--json`.
    let text =
        String::from_utf8_lossy(&run_ok(bin().args(["variants", "--list"])).stdout).into_owned();
    assert!(text.contains("`all`") && text.contains("--json"), "{text}");
    for a in AXES {
        assert!(text.contains(&format!("\n{}\n", a.name())), "{a}");
    }
}

/// `--variants all` on `sweep` draws every axis (each row's axes, or its
/// `skipped.jsonl` entry where the problem has no such variant) and `audit`
/// passes the run; `render --variants all` draws the same rows from the same
/// problems; `all` beside an axis gives that axis its own values.
#[test]
fn variants_all_draws_every_axis_and_the_audit_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    run_ok(
        bin()
            .args(["sweep", "--count", "3", "--seed", "2", "--variants", "all"])
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&dir),
    );
    let made = manifest(&dir);
    let skipped = rows(&dir.join("skipped.jsonl"));
    let mut seen = axes_of(&made);
    seen.extend(axes_of(&skipped));
    let every: BTreeSet<String> = AXES.iter().map(|a| a.name().to_string()).collect();
    assert_eq!(seen, every);
    // One value at a time: every row names one axis at most.
    assert!(
        made.iter()
            .all(|r| r["variant"].as_object().unwrap().len() <= 1)
    );
    // Most axes are drawn for every problem (backward and aux need their lines).
    assert!(
        axes_of(&made).len() >= AXES.len() - 2,
        "{:?}",
        axes_of(&made)
    );
    let audit = run(bin().arg("audit").arg(&dir));
    assert!(
        audit.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&audit.stdout),
        stderr(&audit)
    );
    assert!(dir.join("contact").is_dir());

    // render: the same rows from the same problems.
    let again = tmp.path().join("render");
    run_ok(
        bin()
            .arg("render")
            .arg(dir.join("problems.jsonl"))
            .args(["--variants", "all", "--backend", "cpu", "-q", "--out"])
            .arg(&again),
    );
    let ids = |rows: &[Value]| -> Vec<String> {
        rows.iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&manifest(&again)), ids(&made));

    // An axis named beside `all` keeps its own values.
    let small = tmp.path().join("small");
    run_ok(
        bin()
            .arg("render")
            .arg(dir.join("problems.jsonl"))
            .args(["--variants", "resolution=256;all", "--backend", "cpu", "-q"])
            .arg("--out")
            .arg(&small),
    );
    let resolutions: BTreeSet<String> = (manifest(&small).iter())
        .filter_map(|r| r["variant"]["resolution"].as_u64())
        .map(|v| v.to_string())
        .collect();
    assert_eq!(resolutions, BTreeSet::from(["256".to_string()]));

    // Refused before any work: a grid of every axis, and `all` with values.
    for (spec, said) in [
        ("all", "--grid would draw"),
        ("all=1", "`all` takes no values"),
    ] {
        let out = tmp.path().join("refused");
        let o = run(bin()
            .arg("render")
            .arg(dir.join("problems.jsonl"))
            .args(["--variants", spec, "--grid", "--backend", "cpu", "--out"])
            .arg(&out));
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", stderr(&o));
        assert!(stderr(&o).contains(said), "{spec}: {}", stderr(&o));
        assert!(!out.join("manifest.jsonl").exists());
    }
}

/// With `--task relations`, `all` is every axis that applies to relation items
/// (no "not made" rows of the others), and an axis that does not apply is
/// refused, naming the task.
#[test]
fn variants_all_of_relation_items_is_their_axes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    run_ok(
        bin()
            .args([
                "sweep",
                "--task",
                "relations",
                "--count",
                "3",
                "--seed",
                "3",
            ])
            .args(["--variants", "all", "--backend", "cpu", "-q", "--out"])
            .arg(&dir),
    );
    let mut seen = axes_of(&manifest(&dir));
    let skipped = rows(&dir.join("skipped.jsonl"));
    // Not made only where the item has no such variant: no room for unrelated
    // points, fewer options than the rotation, no redraw with other values.
    assert!(
        skipped.iter().all(|r| r["reason"] != "not_made"
            || r["variant"].as_object().unwrap().keys().all(|k| [
                "unrelated",
                "choices",
                "values"
            ]
            .contains(&k.as_str()))),
        "{skipped:?}"
    );
    seen.extend(axes_of(&skipped));
    let apply: BTreeSet<String> = (AXES.iter())
        .filter(|a| a.relations)
        .map(|a| a.name().to_string())
        .collect();
    assert_eq!(seen, apply);

    let out = tmp.path().join("refused");
    let o = run(bin()
        .args(["sweep", "--task", "relations", "--count", "3"])
        .args(["--variants", "opacity;info", "--backend", "cpu", "--out"])
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--variants: info does not apply to --task relations"),
        "{}",
        stderr(&o)
    );
    assert!(!out.join("problems.jsonl").exists());
}

/// Each option given where it does not apply is refused before any work (exit
/// 2, clap's usage error), naming the option and what rules it out.
#[test]
fn options_that_do_not_apply_are_refused_naming_both() {
    let tmp = tempfile::tempdir().unwrap();
    let problems = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--out"])
            .arg(&problems),
    );
    let p = problems.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "generate",
                "--task",
                "relations",
                "--depth",
                "2",
                "--count",
                "1",
            ],
            "--depth does not apply to --task relations",
        ),
        (
            &[
                "generate",
                "--task",
                "relations",
                "--question",
                "area",
                "--count",
                "1",
            ],
            "--question does not apply to --task relations",
        ),
        (
            &[
                "generate",
                "--task",
                "relations",
                "--standard-only",
                "--count",
                "1",
            ],
            "--standard-only does not apply to --task relations",
        ),
        (
            &["generate", "--mode", "visual", "--count", "1"],
            "--mode does not apply to --task geomverse (the default)",
        ),
        (
            &["generate", "--indeterminate", "0.3", "--count", "1"],
            "--indeterminate does not apply to --task geomverse (the default)",
        ),
        (
            &["sweep", "--subset", "basic", "--count", "1"],
            "--subset does not apply to --task geomverse (the default)",
        ),
        (
            &["bench", "--domain", "line", "--count", "1"],
            "--domain does not apply to --task geomverse (the default)",
        ),
        (
            &[
                "bench",
                "--input",
                "scenes",
                "--task",
                "relations",
                "--count",
                "1",
            ],
            "--task does not apply to --input scenes",
        ),
        (
            &["render", p, "--embed-font"],
            "--embed-font does not apply to --format png (the default)",
        ),
        (
            &["render", p, "--sink", "vlmevalkit", "--shard-rows", "5"],
            "--shard-rows does not apply to --sink vlmevalkit",
        ),
        (
            &["render", p, "--parquet-compression", "none"],
            "--parquet-compression does not apply to a run without --sink",
        ),
        (
            &[
                "sweep",
                "--count",
                "1",
                "--format",
                "svg",
                "--sheet-problem",
                "x",
            ],
            "--sheet-problem does not apply to --format svg",
        ),
    ];
    for (args, said) in cases {
        let out = tmp.path().join("out");
        let o = run(bin().args(*args).arg("--out").arg(&out));
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(said), "{args:?}: {e}");
        assert!(e.contains("Usage: geomrender"), "{args:?}: {e}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    // `export` shares the sinks' options.
    let o = run(bin().args(["export", p, "--to", "vlmevalkit", "--shard-mib", "9"]));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--shard-mib does not apply to --to vlmevalkit"));

    // The GPU's tuning options under a CPU backend: said, and the run goes on.
    let out = tmp.path().join("cpu");
    let o = run_ok(
        bin()
            .arg("render")
            .arg(&problems)
            .args(["--backend", "cpu", "--frame-size", "700", "-q", "--out"])
            .arg(&out),
    );
    assert!(
        stderr(&o).contains("warning: --frame-size does not apply to --backend cpu"),
        "{}",
        stderr(&o)
    );
    // Where they apply, nothing is said.
    let o = run_ok(
        bin()
            .arg("render")
            .arg(&problems)
            .args([
                "--backend",
                "cpu",
                "--format",
                "png,svg",
                "--embed-font",
                "-q",
            ])
            .arg("--out")
            .arg(tmp.path().join("svg")),
    );
    assert!(!stderr(&o).contains("does not apply"), "{}", stderr(&o));
}

/// `--indeterminate` applies to the visual mode: a share of its items are
/// "Cannot be inferred". Where no construction the options draw has such a
/// version it is refused when given, and said when left at its default.
#[test]
fn indeterminate_is_honoured_in_the_visual_mode_or_said() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("visual.jsonl");
    let o = run_ok(
        bin()
            .args(["generate", "--task", "relations", "--mode", "visual"])
            .args(["--indeterminate", "0.5", "--count", "60", "--out"])
            .arg(&file),
    );
    assert!(!stderr(&o).contains("does not apply"), "{}", stderr(&o));
    let items = rows(&file);
    let cbi = (items.iter())
        .filter(|p| {
            let letter = p["answer"].as_str().unwrap();
            let choices = p["relation"]["choices"].as_array().unwrap();
            let k = (letter.as_bytes()[0] - b'A') as usize;
            choices[k].as_str().unwrap() == "Cannot be inferred"
        })
        .count();
    assert!((20..=40).contains(&cbi), "{cbi} of 60 'Cannot be inferred'");
    assert!(items.iter().all(|p| p["relation"]["mode"] == "visual"));

    // The visual mode's advanced shape chains have no such version: asked for,
    // refused; left at its default, said (and the items are made).
    let args = ["generate", "--task", "relations", "--mode", "visual"];
    let narrow = ["--subset", "advanced", "--domain", "shape", "--count", "2"];
    let out = tmp.path().join("none.jsonl");
    let o = run(bin()
        .args(args)
        .args(narrow)
        .args(["--indeterminate", "0.3", "--out"])
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "--indeterminate does not apply to --mode visual --subset advanced --domain shape"
        ),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let o = run_ok(bin().args(args).args(narrow).arg("--out").arg(&out));
    assert!(
        stderr(&o).contains("warning: --indeterminate (default 0.15) does not apply"),
        "{}",
        stderr(&o)
    );
    assert_eq!(rows(&out).len(), 2);
    run_ok(
        bin()
            .args(args)
            .args(narrow)
            .args(["--indeterminate", "0", "--out"])
            .arg(&out),
    );
}

/// `sweep --task relations` draws GeomRel's relabelling and unrelated points by
/// default, besides the style axes, and the audit passes the run.
#[test]
fn relation_sweeps_draw_relabel_and_unrelated_by_default() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    run_ok(
        bin()
            .args([
                "sweep",
                "--task",
                "relations",
                "--count",
                "6",
                "--seed",
                "9",
            ])
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&dir),
    );
    let labels: BTreeSet<String> = (manifest(&dir).iter())
        .filter_map(|r| {
            let v = r["variant"].as_object().unwrap();
            v.iter().next().map(|(k, v)| format!("{k}={v}"))
        })
        .collect();
    for want in [
        "relabel=1",
        "unrelated=1",
        "unrelated=2",
        "fontsize=8",
        "linewidth=4",
    ] {
        assert!(labels.contains(want), "{want} missing: {labels:?}");
    }
    assert!(
        !labels.iter().any(|l| l.starts_with("relabel=2")),
        "{labels:?}"
    );
    let audit = run(bin().arg("audit").arg(&dir));
    assert!(
        audit.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&audit.stdout),
        stderr(&audit)
    );
    crate::support::readme_says(&format!("default `--variants {RELATION_SWEEP}`"));
}

/// `bench --task relations` renders relation items (with their own axes under
/// `all`), and refuses an axis they do not take.
#[test]
fn bench_runs_relation_items() {
    let o = run_ok(bin().args([
        "bench",
        "--task",
        "relations",
        "--count",
        "4",
        "--variants",
        "all",
        "--backend",
        "cpu",
    ]));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("bench: "), "{stdout}");
    let o = run(bin().args([
        "bench",
        "--task",
        "relations",
        "--count",
        "4",
        "--variants",
        "phrasing",
        "--backend",
        "cpu",
    ]));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("phrasing does not apply to --task relations"));
}
