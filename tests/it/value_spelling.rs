//! One variant value, one spelling (issue 25): `fontsize=12` and `opacity=0.25` read
//! `12` and `0.25` in the ids, the manifest rows, every dataset sink (Parquet `value`
//! and `variant` columns, WebDataset JSON, the VLMEvalKit TSV, lmms-eval task names
//! and selectors) and every score output (report.json, report.md, items.jsonl); the
//! manifest used to write `12.0`.

use crate::support::cli::{bin, run_ok, run_score};
use arrow_array::cast::AsArray;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// The values swept and their one spelling, as a JSON number and as text alike.
const VALUES: [(&str, &str); 2] = [("fontsize", "12"), ("opacity", "0.25")];

/// Records that `what` spells `axis`'s value `text` (`12`, `12.0`, …).
fn spellings(what: &str, found: &mut BTreeSet<(String, String, String)>, axis: &str, text: &str) {
    found.insert((what.to_string(), axis.to_string(), text.to_string()));
}

fn read_parquet(dir: &Path, found: &mut BTreeSet<(String, String, String)>) {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    for entry in std::fs::read_dir(dir.join("data")).unwrap() {
        let file = std::fs::File::open(entry.unwrap().path()).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            let batch = batch.unwrap();
            let column = |name: &str| {
                batch
                    .column_by_name(name)
                    .unwrap()
                    .as_string::<i32>()
                    .clone()
            };
            let (axis, value, variant) = (column("axis"), column("value"), column("variant"));
            for i in 0..batch.num_rows() {
                if axis.value(i) != "base" {
                    spellings("parquet value", found, axis.value(i), value.value(i));
                    let v: Value = serde_json::from_str(variant.value(i)).unwrap();
                    json_spellings("parquet variant", found, variant.value(i), &v);
                }
            }
        }
    }
}

/// The spelling of each variant value inside a JSON text that holds `"variant":{…}`
/// (or is the variant object itself).
fn json_spellings(
    what: &str,
    found: &mut BTreeSet<(String, String, String)>,
    text: &str,
    parsed: &Value,
) {
    let variant = parsed.get("variant").unwrap_or(parsed);
    for (axis, _) in variant.as_object().unwrap() {
        let key = format!("\"{axis}\":");
        let at = text
            .find(&key)
            .unwrap_or_else(|| panic!("{what}: {axis} not in {text}"))
            + key.len();
        let spelled: String = text[at..]
            .chars()
            .take_while(|c| !matches!(c, ',' | '}'))
            .collect();
        spellings(what, found, axis, &spelled);
    }
}

#[test]
fn a_variant_value_is_spelled_the_same_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let problems = d.join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--seed", "3", "--out"])
            .arg(&problems),
    );
    let out = d.join("run");
    run_ok(
        bin()
            .arg("render")
            .arg(&problems)
            .arg("--out")
            .arg(&out)
            .args([
                "--backend",
                "cpu",
                "-q",
                "--variants",
                "fontsize=12;opacity=0.25",
                "--sink",
                "parquet,webdataset,vlmevalkit,lmms-eval",
            ]),
    );
    let mut found = BTreeSet::new();

    // Manifest rows (raw text) and ids.
    let manifest = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
    let mut predictions = String::new();
    for line in manifest.lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        json_spellings("manifest", &mut found, line, &row);
        let id = row["id"].as_str().unwrap();
        for (axis, _) in row["variant"].as_object().unwrap() {
            let at = id.find(&format!("__{axis}-")).unwrap() + axis.len() + 3;
            spellings("id", &mut found, axis, &id[at..]);
        }
        let answer = &row["answer"];
        predictions.push_str(&format!(
            "{}\n",
            serde_json::json!({"id": id, "prediction": format!("Therefore the final answer is {answer}.")})
        ));
    }

    // The sinks.
    read_parquet(&out, &mut found);
    for entry in std::fs::read_dir(out.join("wds")).unwrap() {
        let mut tar = tar::Archive::new(std::fs::File::open(entry.unwrap().path()).unwrap());
        for member in tar.entries().unwrap() {
            let mut member = member.unwrap();
            if member
                .path()
                .unwrap()
                .extension()
                .is_some_and(|e| e == "json")
            {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut member, &mut text).unwrap();
                json_spellings(
                    "webdataset",
                    &mut found,
                    &text,
                    &serde_json::from_str(&text).unwrap(),
                );
            }
        }
    }
    let tsv = std::fs::read_to_string(out.join("vlmevalkit/GeomRender.tsv")).unwrap();
    let header: Vec<&str> = tsv.lines().next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for line in tsv.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells[col("axis")] != "base" {
            spellings(
                "vlmevalkit",
                &mut found,
                cells[col("axis")],
                cells[col("value")],
            );
        }
    }
    let utils = std::fs::read_to_string(out.join("lmms_eval/utils.py")).unwrap();
    for (axis, text) in VALUES {
        let task = format!("geomrender_{axis}__{}", text.replace('.', "_p"));
        assert!(
            out.join(format!("lmms_eval/{task}.yaml")).is_file(),
            "{task}"
        );
        let selector = format!("_select(dataset, \"{axis}\", \"");
        let at = utils.find(&selector).unwrap() + selector.len();
        spellings(
            "lmms-eval selector",
            &mut found,
            axis,
            utils[at..].split('"').next().unwrap(),
        );
    }

    // score's outputs.
    std::fs::write(d.join("m.jsonl"), predictions).unwrap();
    let report_dir = d.join("report");
    let scored = run_score(
        &out.join("manifest.jsonl"),
        &[d.join("m.jsonl")],
        &report_dir,
    );
    assert!(
        scored.status.success(),
        "{}",
        String::from_utf8_lossy(&scored.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(report_dir.join("report.json")).unwrap())
            .unwrap();
    for row in report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["axis"] != "base")
    {
        spellings(
            "report.json rows",
            &mut found,
            row["axis"].as_str().unwrap(),
            row["value"].as_str().unwrap(),
        );
    }
    for axis in report["axes"].as_array().unwrap() {
        for v in axis["values"].as_array().unwrap() {
            spellings(
                "report.json axes",
                &mut found,
                axis["axis"].as_str().unwrap(),
                v.as_str().unwrap(),
            );
        }
    }
    let md = std::fs::read_to_string(report_dir.join("report.md")).unwrap();
    for (axis, _) in VALUES {
        let section = md.split(&format!("### {axis}\n")).nth(1).unwrap();
        let table = section.trim_start().split("\n\n").next().unwrap();
        for line in table.lines().skip(2) {
            spellings(
                "report.md",
                &mut found,
                axis,
                line.split(" | ").nth(1).unwrap(),
            );
        }
    }
    let items = std::fs::read_to_string(report_dir.join("items.jsonl")).unwrap();
    for line in items.lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        if row["axis"] != "base" {
            json_spellings("items.jsonl variant", &mut found, line, &row);
            // Text, as report.json's rows spell it (so the two tables join).
            spellings(
                "items.jsonl value",
                &mut found,
                row["axis"].as_str().unwrap(),
                row["value"].as_str().unwrap(),
            );
        }
    }

    // Every place, one spelling per value, as a JSON number and as text alike.
    let places: BTreeSet<&str> = found.iter().map(|(w, _, _)| w.as_str()).collect();
    assert_eq!(places.len(), 12, "{places:?}");
    let want: BTreeSet<(String, String, String)> = places
        .iter()
        .flat_map(|w| VALUES.map(|(a, t)| (w.to_string(), a.to_string(), t.to_string())))
        .collect();
    assert_eq!(found, want);
}
