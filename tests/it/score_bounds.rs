//! `score`'s inputs are bounded: a file at [`MAX_INPUT_BYTES`], a JSONL line at
//! [`MAX_PREDICTION_LINE_BYTES`], a model output at
//! [`MAX_PREDICTION_BYTES`], an `.xlsx` at [`MAX_XLSX_BYTES`]
//! uncompressed. Each bound ends with an error naming the file (and the line or id),
//! never with an allocation failure; a bad line leaves the others scored.

use crate::support::cli::run_score;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// The bounds, as the README states them; `src/tests/score_bounds.rs` holds the
// library's (crate-private) constants to these figures.
const MAX_INPUT_BYTES: u64 = 1 << 30;
const MAX_PREDICTION_LINE_BYTES: usize = 16 << 20;
const MAX_PREDICTION_BYTES: usize = 1 << 20;
const MAX_XLSX_BYTES: u64 = 256 << 20;

/// Two problems, each a base image and a font-size variant, all with answer 44.
fn manifest(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for base in ["p0", "p1"] {
        for (id, variant) in [
            (base.to_string(), json!({})),
            (format!("{base}__fontsize-8"), json!({"fontsize": 8})),
        ] {
            let row = json!({"id": id, "base_id": base, "variant": variant, "answer": 44.0});
            text.push_str(&format!("{row}\n"));
        }
    }
    let path = dir.join("manifest.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

fn score_cli(manifest: &Path, predictions: &[&Path], out: &Path) -> (Option<i32>, String) {
    let run = run_score(manifest, predictions, out);
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

/// `report.json`, checked against its published schema.
fn report(out: &Path) -> Value {
    let report = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::repo().join("schemas/report.schema.json"))
            .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    report
}

/// `/dev/zero` never ends: reading stops at the file bound, quickly, with an error
/// that names the file and the bound (it used to grow to 8.4 GB).
#[test]
#[cfg(unix)]
fn predictions_from_dev_zero_stop_at_the_file_bound() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest(dir.path());
    let started = Instant::now();
    let (code, stderr) = score_cli(
        &manifest,
        &[Path::new("/dev/zero")],
        &dir.path().join("out"),
    );
    let took = started.elapsed();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "/dev/zero: more than {} bytes, the bound on one file that score reads; split",
            MAX_INPUT_BYTES
        )),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// A regular file over the bound is refused before a byte is read (a sparse file:
/// no disk is used).
#[test]
fn an_oversized_predictions_file_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest(dir.path());
    let big = dir.path().join("big.jsonl");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(MAX_INPUT_BYTES + 1)
        .unwrap();
    let started = Instant::now();
    let (code, stderr) = score_cli(&manifest, &[&big], &dir.path().join("out"));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: more than 1073741824 bytes", big.display())),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// A line over the bound is a line error naming file and line; the other lines of
/// the file are scored.
#[test]
fn an_over_long_prediction_line_is_a_line_error_and_the_rest_scores() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest(dir.path());
    let p = dir.path().join("m.jsonl");
    let mut f = std::fs::File::create(&p).unwrap();
    writeln!(
        f,
        "{}",
        json!({"id": "p0", "prediction": "The answer is 44."})
    )
    .unwrap();
    let long = "9".repeat(MAX_PREDICTION_LINE_BYTES);
    writeln!(f, "{{\"id\":\"p1\",\"prediction\":\"{long}\"}}").unwrap();
    writeln!(f, "{}", json!({"id": "p1__fontsize-8", "prediction": "44"})).unwrap();
    drop(f);
    let out = dir.path().join("out");
    let (code, stderr) = score_cli(&manifest, &[&p], &out);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}:2: line longer than 16777216 bytes, the bound on one line of this file",
            p.display()
        )),
        "{stderr}"
    );
    let report = report(&out);
    assert_eq!(report["counts"]["predictions"], 2, "{}", report["counts"]);
    assert_eq!(report["counts"]["malformed_lines"], 1);
    assert_eq!(report["errors"][0]["reason"]["kind"], "line_too_long");
}

/// A model output over the bound is an answer that is not read, in every layout:
/// counted in n as unparsed (rule `too_long`), so that rambling never scores higher
/// than answering; the file's other outputs are scored, and nothing is a line error.
#[test]
fn an_over_long_prediction_is_counted_unparsed() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest(dir.path());
    let long = "7".repeat(MAX_PREDICTION_BYTES + 1);
    let ok = "The answer is 44.";
    let geomrender = dir.path().join("m.jsonl");
    std::fs::write(
        &geomrender,
        format!(
            "{}\n{}\n",
            json!({"id": "p0", "prediction": long}),
            json!({"id": "p1", "prediction": ok})
        ),
    )
    .unwrap();
    let logs = dir.path().join("logs").join("lm");
    std::fs::create_dir_all(&logs).unwrap();
    let lmms = logs.join("samples_geomrender.jsonl");
    let sample = |id: &str, text: &str| {
        json!({"doc": {"id": id}, "resps": [[text]], "filtered_resps": [text]}).to_string()
    };
    std::fs::write(
        &lmms,
        format!(
            "{}\n{}\n",
            sample("p0__fontsize-8", &long),
            sample("p1", ok)
        ),
    )
    .unwrap();
    let tsv = dir.path().join("v_GeomRender.tsv");
    std::fs::write(
        &tsv,
        format!("index\tid\tprediction\n0\tp1__fontsize-8\t{long}\n1\tp1\t{ok}\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let started = Instant::now();
    let (code, stderr) = score_cli(&manifest, &[&geomrender, &lmms, &tsv], &out);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(code, Some(0), "{stderr}");
    let report = report(&out);
    assert_eq!(report["counts"]["predictions"], 6, "{}", report["counts"]);
    assert_eq!(report["counts"]["malformed_lines"], 0);
    let models = report["models"].as_array().unwrap();
    assert_eq!(models.len(), 3);
    for m in models {
        assert_eq!(
            (&m["predictions"], &m["missing"], &m["unparsed"]),
            (&json!(2), &json!(2), &json!(1)),
            "{m}"
        );
        assert_eq!(m["rules"]["too_long"], 1, "{m}");
    }
    // In n: the rows of each model count both of its predictions.
    let n: u64 = (report["rows"].as_array().unwrap().iter())
        .filter(|r| !r["model"].as_str().unwrap().starts_with("blind:"))
        .map(|r| r["n"].as_u64().unwrap())
        .sum();
    assert_eq!(n, 6);
}

/// Issue: a 3 MB workbook with one 3 GB cell aborted with an allocation failure. A
/// real bomb (300 MiB of one byte in the sheet, a few hundred KB of zip) is refused
/// from its zip directory, before calamine inflates it, naming the part and bound.
#[test]
fn an_xlsx_zip_bomb_is_refused_before_it_is_inflated() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest(dir.path());
    let path = dir.path().join("m_GeomRender.xlsx");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    zip.start_file("xl/workbook.xml", options).unwrap();
    zip.write_all(b"<workbook/>").unwrap();
    zip.start_file("xl/worksheets/sheet1.xml", options).unwrap();
    zip.write_all(b"<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>")
        .unwrap();
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..300 {
        zip.write_all(&chunk).unwrap();
    }
    zip.write_all(b"</t></is></c></row></sheetData></worksheet>")
        .unwrap();
    zip.finish().unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 4 << 20, "{size}");
    let started = Instant::now();
    let (code, stderr) = score_cli(&manifest, &[&path], &dir.path().join("out"));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: part xl/worksheets/sheet1.xml declares 314572",
            path.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "over the {}-byte bound on an .xlsx that score reads",
            MAX_XLSX_BYTES
        )),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}
