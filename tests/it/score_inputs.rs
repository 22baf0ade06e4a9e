//! `score --predictions` as a directory or a glob, and `"prediction": null` as a
//! missing prediction (issue 25).

use crate::support::cli::{bin, run, run_score};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Two problems, each a base image and a `fontsize=8` variant, all answered 44.
fn manifest(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for base in ["p0", "p1"] {
        for (id, variant) in [
            (base.to_string(), json!({})),
            (format!("{base}__fs8"), json!({"fontsize": 8})),
        ] {
            let row = json!({"id": id, "base_id": base, "variant": variant, "answer": 44});
            text.push_str(&format!("{row}\n"));
        }
    }
    let path = dir.join("manifest.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

fn report(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap()
}

/// The report's numbers without the input bookkeeping (paths differ by design).
fn numbers(out: &Path) -> Value {
    let mut r = report(out);
    r.as_object_mut().unwrap().remove("inputs");
    r
}

#[test]
fn a_directory_or_a_glob_reads_the_files_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(d);
    let a = write(
        &d.join("preds/a.jsonl"),
        "{\"id\":\"p0\",\"prediction\":\"44\"}\n{\"id\":\"p0__fs8\",\"prediction\":\"40\"}\n",
    );
    let b = write(
        &d.join("preds/b.jsonl"),
        "{\"id\":\"p1\",\"prediction\":\"44\"}\n{\"id\":\"p1__fs8\",\"prediction\":\"44\"}\n",
    );
    write(&d.join("preds/notes.txt"), "not predictions\n");
    let files = run_score(&m, &[&a, &b], &d.join("files"));
    assert!(
        files.status.success(),
        "{}",
        String::from_utf8_lossy(&files.stderr)
    );
    let folder = run_score(&m, &[d.join("preds")], &d.join("folder"));
    assert!(
        folder.status.success(),
        "{}",
        String::from_utf8_lossy(&folder.stderr)
    );
    let glob = run_score(&m, &[d.join("pr*/?.jsonl")], &d.join("glob"));
    assert!(
        glob.status.success(),
        "{}",
        String::from_utf8_lossy(&glob.stderr)
    );
    assert_eq!(numbers(&d.join("folder")), numbers(&d.join("files")));
    assert_eq!(numbers(&d.join("glob")), numbers(&d.join("files")));
    let read: Vec<String> = report(&d.join("glob"))["inputs"]["predictions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(read, [a.display().to_string(), b.display().to_string()]);
    assert_eq!(
        report(&d.join("files"))["models"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn a_directory_or_glob_that_gives_no_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(d);
    write(&d.join("empty/readme.txt"), "");
    let cases = [
        (
            d.join("logs/*/*_samples_*.jsonl"),
            "a pattern that matches no file",
        ),
        (
            d.join("empty"),
            "a directory with no prediction files in it",
        ),
    ];
    for (arg, why) in cases {
        let out = run_score(&m, &[&arg], &d.join("out"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("--predictions {}: {why}", arg.display())),
            "{stderr}"
        );
        assert!(!d.join("out/report.json").exists());
    }
}

#[test]
fn a_null_prediction_counts_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(d);
    let preds = write(
        &d.join("m.jsonl"),
        "{\"id\":\"p0\",\"prediction\":\"44\"}\n{\"id\":\"p0__fs8\",\"prediction\":null}\n\
         {\"id\":\"p1\",\"prediction\":\"44\"}\n{\"id\":\"p1__fs8\",\"prediction\":\"44\"}\n",
    );
    // The same predictions as lmms-eval samples, the null one as `filtered_resps: [null]`.
    let samples: String = [
        ("p0", json!("44")),
        ("p0__fs8", Value::Null),
        ("p1", json!("44")),
        ("p1__fs8", json!("44")),
    ]
    .iter()
    .enumerate()
    .map(|(i, (id, resp))| {
        let doc =
            json!({"doc_id": i, "doc": {"id": id}, "resps": [[resp]], "filtered_resps": [resp]});
        format!("{doc}\n")
    })
    .collect();
    let lmms = write(
        &d.join("logs/m/20261201_samples_geomrender.jsonl"),
        &samples,
    );
    for (name, file) in [("jsonl", &preds), ("lmms", &lmms)] {
        let out = d.join(name);
        let run_ = run_score(&m, &[file], &out);
        assert!(
            run_.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&run_.stderr)
        );
        let r = report(&out);
        assert_eq!(r["counts"]["missing"], 1, "{name}");
        assert_eq!(r["models"][0]["missing_ids"], json!(["p0__fs8"]), "{name}");
        assert_eq!(r["models"][0]["unparsed"], 0, "{name}");
        let row = r["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["axis"] == "fontsize")
            .unwrap();
        // Left out of n (the default policy): 1 of 1 right, not 1 of 2.
        assert_eq!(
            (&row["n"], &row["correct"], &row["missing"]),
            (&json!(1), &json!(1), &json!(1)),
            "{name}"
        );
        let items = std::fs::read_to_string(out.join("items.jsonl")).unwrap();
        let item: Value = items
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|i| i["id"] == "p0__fs8")
            .unwrap();
        assert_eq!(
            (&item["missing"], &item["rule"]),
            (&json!(true), &Value::Null),
            "{name}"
        );
    }
    // With --missing wrong it is scored wrong, as an image without a line would be.
    let out = run(bin()
        .args(["score", "--missing", "wrong", "--manifest"])
        .arg(&m)
        .arg("--predictions")
        .arg(&preds)
        .arg("--out")
        .arg(d.join("wrong")));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&d.join("wrong"));
    let row = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["axis"] == "fontsize")
        .unwrap();
    assert_eq!((&row["n"], &row["correct"]), (&json!(2), &json!(1)));
}
