//! Issue 47's run, checked from its files: `sweep --variants modality` (the six
//! rungs and the blank control) on 60 problems with the Parquet,
//! WebDataset and VLMEvalKit sinks. Each value is made for nearly every problem;
//! the texts and images hold what their rung says, checked against each row's own
//! Problem (`--emit-problems`) and its SVG; the Parquet rows are the manifest's;
//! `geomrender audit` flags nothing.

use crate::support::cli::{bin, manifest, run_ok};
use arrow_array::Array;
use arrow_array::cast::AsArray;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The axis's values, from its table.
fn levels() -> &'static [&'static str] {
    let axis = geomrender::variants::AXES
        .iter()
        .find(|a| a.name == "modality");
    axis.unwrap().sweep
}

/// The text of every `<text>` element of an SVG file, in document order.
fn svg_texts(path: &Path) -> Vec<String> {
    let svg = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect()
}

/// Every given of a Problem (JSON) as the texts and labels write it: its value in
/// GeomVerse's number format, or its `a·x + b`.
fn givens(problem: &Value) -> Vec<String> {
    let d = &problem["diagram"];
    let mut out = Vec::new();
    for kind in ["sides", "angles", "measures"] {
        for e in d[kind].as_array().into_iter().flatten() {
            let given = e["status"] == "given" || e.get("expr").is_some_and(|x| !x.is_null());
            if !given {
                continue;
            }
            out.push(match e.get("expr").and_then(Value::as_str) {
                Some(x) => x.to_string(),
                None => number(e["value"].as_f64().unwrap()),
            });
        }
    }
    out
}

/// A number as GeomVerse writes it: at most two decimals, no trailing zeros.
fn number(v: f64) -> String {
    let s = format!("{:.2}", (v * 100.0).round() / 100.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The question without its π and rounding sentences.
fn without_frame(q: &str) -> String {
    q.split(". ")
        .filter(|s| !s.contains("3.14") && !s.contains("decimal places"))
        .collect::<Vec<_>>()
        .join(". ")
}

/// Whether a label reads given `g`: a side's value, an angle's with its degree sign,
/// or a shape's measure ("Area = 150").
fn labelled(texts: &[String], g: &str) -> bool {
    texts
        .iter()
        .any(|t| t == g || *t == format!("{g}°") || t.ends_with(&format!(" = {g}")))
}

fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

#[test]
fn every_level_holds_what_it_says_in_every_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(
        bin()
            .args([
                "sweep",
                "-q",
                "--backend",
                "cpu",
                "--count",
                "60",
                "--seed",
                "47",
            ])
            .args([
                "--variants",
                "modality",
                "--format",
                "png,svg",
                "--emit-problems",
            ])
            .args(["--sink", "parquet,webdataset,vlmevalkit", "--out"])
            .arg(&out),
    );
    let rows = manifest(&out);
    let level = |r: &Value| r["variant"]["modality"].as_str().map(str::to_string);
    // Each value is made for ≥ 95 % of the problems.
    let mut made: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &rows {
        if let Some(l) = level(r) {
            made.entry(l)
                .or_default()
                .insert(r["base_id"].as_str().unwrap().into());
        }
    }
    assert_eq!(levels().len(), 7, "{:?}", levels());
    for l in levels() {
        let n = made.get(*l).map_or(0, BTreeSet::len);
        assert!(n * 100 >= 95 * 60, "{l}: made for {n} of 60");
    }
    let by_id: BTreeMap<(String, Option<String>), &Value> = rows
        .iter()
        .map(|r| ((r["base_id"].as_str().unwrap().to_string(), level(r)), r))
        .collect();
    let instruction =
        "According to the question shown in the image, please directly answer the question.";
    let mut blank_images = BTreeSet::new();
    // How many facts were checked, so that a check that finds nothing fails.
    let (mut points, mut stated, mut drawn_givens, mut text_only) = (0, 0, 0, 0);
    for r in &rows {
        let Some(l) = level(r) else { continue };
        let id = r["id"].as_str().unwrap();
        let question = r["question"].as_str().unwrap();
        let problem = &r["problem"];
        let base = by_id[&(r["base_id"].as_str().unwrap().to_string(), None)];
        // Exactly the text-only rows have no image, and no file of any kind.
        assert_eq!(r["image"].is_null(), l == "text-only", "{id}");
        if l == "text-only" {
            text_only += 1;
            for field in ["width", "height", "sha256", "backend", "svg", "svg_sha256"] {
                assert!(r.get(field).is_none(), "{id}: has {field}");
            }
            // Every given its base states or draws is stated; every point named.
            for g in givens(&base["problem"]) {
                assert!(question.contains(&g), "{id}: {g} not stated in {question}");
                stated += 1;
            }
            let named = words(question);
            for p in problem["diagram"]["points"].as_array().unwrap() {
                let name = p["name"].as_str().unwrap();
                assert!(name.is_empty() || named.contains(&name), "{id}: {name}");
                points += 1;
            }
            assert_eq!(r["answer"], base["answer"], "{id}");
            continue;
        }
        let texts = svg_texts(&out.join(r["svg"].as_str().unwrap()));
        let drawn = texts.join(" ");
        match l.as_str() {
            "text-dominant" => {
                // Every labelled point is named.
                let named = words(question);
                for p in problem["diagram"]["points"].as_array().unwrap() {
                    let name = p["name"].as_str().unwrap();
                    assert!(
                        name.is_empty() || named.contains(&name),
                        "{id}: {name} not named in {question}"
                    );
                    points += 1;
                }
                for g in givens(problem) {
                    assert!(question.contains(&g), "{id}: {g} not stated in {question}");
                    stated += 1;
                }
            }
            "vision-dominant" => {
                let q = without_frame(question);
                assert!(
                    !q.chars().any(|c| c.is_ascii_digit()),
                    "{id}: states a given: {q}"
                );
                for g in givens(problem) {
                    assert!(labelled(&texts, &g), "{id}: {g} is not drawn: {texts:?}");
                    drawn_givens += 1;
                }
            }
            "vision-only" => {
                assert_eq!(question, instruction, "{id}");
                let caption = r["caption"].as_str().unwrap();
                let vd = by_id[&(
                    r["base_id"].as_str().unwrap().to_string(),
                    Some("vision-dominant".to_string()),
                )];
                assert_eq!(caption, vd["question"].as_str().unwrap(), "{id}");
                assert!(
                    words(&drawn).join(" ").contains(&words(caption).join(" ")),
                    "{id}: the SVG does not read {caption:?}: {texts:?}"
                );
                assert!(r["height"].as_u64() > base["height"].as_u64(), "{id}");
                for g in givens(problem) {
                    assert!(labelled(&texts, &g), "{id}: {g} is not drawn: {texts:?}");
                    drawn_givens += 1;
                }
            }
            "blank" => {
                assert!(texts.is_empty(), "{id}: draws {texts:?}");
                let svg = std::fs::read_to_string(out.join(r["svg"].as_str().unwrap())).unwrap();
                assert!(!svg.contains("<path"), "{id}: draws a path");
                assert_eq!(question, base["question"].as_str().unwrap(), "{id}");
                assert_eq!(
                    (&r["width"], &r["height"]),
                    (&base["width"], &base["height"])
                );
                blank_images.insert(r["sha256"].as_str().unwrap().to_string());
            }
            _ => {}
        }
        assert_eq!(r["answer"], base["answer"], "{id}");
    }
    eprintln!("{points} points named, {stated} givens stated, {drawn_givens} givens drawn");
    assert!(points >= 2 * 60 * 3 && stated >= 2 * 60 * 2 && drawn_givens >= 2 * 60 * 2);
    assert!(text_only >= 57, "{text_only} text-only rows");
    // No file of a text-only row was written.
    let files: Vec<String> = std::fs::read_dir(out.join("images"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!files.iter().any(|f| f.contains("text-only")), "{files:?}");
    // One white canvas, whatever the problem.
    assert_eq!(blank_images.len(), 1, "{blank_images:?}");

    // The Parquet rows are the manifest's, image bytes included.
    let mut parquet_rows = 0;
    let mut shards: Vec<_> = std::fs::read_dir(out.join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    shards.sort();
    for shard in shards {
        let file = std::fs::File::open(&shard).unwrap();
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        for batch in reader.map(Result::unwrap) {
            let text = |name: &str| {
                batch
                    .column_by_name(name)
                    .unwrap()
                    .as_string::<i32>()
                    .clone()
            };
            let (ids, questions, cots) = (text("id"), text("question"), text("cot"));
            let (shas, variants) = (text("sha256"), text("variant"));
            let answers = batch
                .column_by_name("answer")
                .unwrap()
                .as_primitive::<arrow_array::types::Float64Type>()
                .clone();
            let images = batch.column_by_name("image").unwrap().as_struct().clone();
            let bytes = images
                .column_by_name("bytes")
                .unwrap()
                .as_binary::<i32>()
                .clone();
            for i in 0..batch.num_rows() {
                let r = &rows[parquet_rows];
                let id = r["id"].as_str().unwrap();
                assert_eq!(ids.value(i), id);
                assert_eq!(questions.value(i), r["question"].as_str().unwrap(), "{id}");
                assert_eq!(cots.value(i), r["cot"].as_str().unwrap(), "{id}");
                assert_eq!(answers.value(i), r["answer"].as_f64().unwrap(), "{id}");
                // A text-only row's image, size and hash are null.
                if r["image"].is_null() {
                    assert!(shas.is_null(i) && images.is_null(i), "{id}");
                    assert!(bytes.is_null(i), "{id}");
                    parquet_rows += 1;
                    continue;
                }
                assert_eq!(shas.value(i), r["sha256"].as_str().unwrap(), "{id}");
                let variant: Value = serde_json::from_str(variants.value(i)).unwrap();
                assert_eq!(
                    variant,
                    r.get("variant").cloned().unwrap_or(serde_json::json!({})),
                    "{id}"
                );
                let file = std::fs::read(out.join(r["image"].as_str().unwrap())).unwrap();
                assert!(
                    bytes.value(i) == file.as_slice(),
                    "{id}: image bytes differ"
                );
                parquet_rows += 1;
            }
        }
    }
    assert_eq!(parquet_rows, rows.len());
    // The other sinks hold every row.
    let tsv = std::fs::read_to_string(out.join("vlmevalkit/GeomRender.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), rows.len() + 1);
    // A text-only row's image cell is empty; every other one holds its image.
    for (r, line) in rows.iter().zip(tsv.lines().skip(1)) {
        let image = line.split('\t').nth(1).unwrap();
        assert_eq!(image.is_empty(), r["image"].is_null(), "{}", r["id"]);
    }
    // A WebDataset sample of a text-only row is its JSON alone.
    let mut members = BTreeMap::<String, Vec<String>>::new();
    for shard in std::fs::read_dir(out.join("wds")).unwrap() {
        let file = std::fs::File::open(shard.unwrap().path()).unwrap();
        for entry in tar::Archive::new(file).entries().unwrap() {
            let path = entry
                .unwrap()
                .path()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let (key, ext) = path.split_once('.').unwrap();
            members
                .entry(key.to_string())
                .or_default()
                .push(ext.to_string());
        }
    }
    assert_eq!(members.len(), rows.len());
    for (key, exts) in &members {
        let want = match key.ends_with("text-only") {
            true => vec!["json"],
            false => vec!["png", "json"],
        };
        assert_eq!(exts, &want, "{key}");
    }

    // The audit flags nothing.
    let audit = run_ok(bin().arg("audit").arg(&out));
    let said = String::from_utf8_lossy(&audit.stderr);
    let audited = rows.len() - 60;
    assert!(
        said.contains(&format!(
            "audited {audited} variant rows of 60 bases: 0 flagged, 0 lines"
        )),
        "{said}"
    );
}

/// On the GPU backend a row without an image passes the GPU stage in its place:
/// the manifest is the CPU run's row for row, with text-only rows first (a
/// text-only Problem line), between images and after the last one.
#[test]
fn text_only_rows_keep_their_place_on_the_gpu() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    run_ok(
        bin()
            .args([
                "sweep",
                "-q",
                "--backend",
                "cpu",
                "--count",
                "4",
                "--seed",
                "5",
            ])
            .args([
                "--variants",
                "modality=text-only",
                "--emit-problems",
                "--out",
            ])
            .arg(&first),
    );
    // A text-only Problem (as `--emit-problems` wrote it) leads the input.
    let rows = manifest(&first);
    let text_only = rows.iter().find(|r| r["image"].is_null()).unwrap();
    let mut lead = text_only["problem"].clone();
    lead["id"] = "lead".into();
    let mut input = serde_json::to_string(&lead).unwrap() + "\n";
    input += &std::fs::read_to_string(first.join("problems.jsonl")).unwrap();
    let path = tmp.path().join("input.jsonl");
    std::fs::write(&path, input).unwrap();
    let runs: Vec<Vec<(String, bool, Option<String>)>> = ["gpu", "cpu"]
        .iter()
        .map(|backend| {
            let out = tmp.path().join(backend);
            run_ok(
                bin()
                    .arg("render")
                    .arg(&path)
                    .args(["-q", "--backend", backend, "--chunk-lines", "2"])
                    .args(["--variants", "modality=text-lite,text-only", "--out"])
                    .arg(&out),
            );
            (manifest(&out).iter())
                .map(|r| {
                    let id = r["id"].as_str().unwrap().to_string();
                    (
                        id,
                        r["image"].is_null(),
                        r["question"].as_str().map(String::from),
                    )
                })
                .collect()
        })
        .collect();
    assert_eq!(runs[0], runs[1]);
    let nulls: Vec<bool> = runs[0].iter().map(|r| r.1).collect();
    // The text-only line's own base row, then 4 problems of 3 rows each.
    assert_eq!(nulls.len(), 3 + 4 * 3);
    assert!(nulls[0] && *nulls.last().unwrap(), "{nulls:?}");
    assert_eq!(nulls.iter().filter(|n| **n).count(), 1 + 1 + 4, "{nulls:?}");
}
