//! Issue 12: the dataset sinks. `--sink` on a sweep and `export` of the finished
//! directory write the same bytes; a run stopped and resumed ends with the same
//! shards; bad directories get errors naming what is missing. The formats themselves
//! are proven by the libraries that read them: `tests/python/test_datasets.py`
//! (HF `datasets`, `webdataset`, pandas, the lmms-eval YAML and utils).

use crate::support::cli::{bin, run, run_ok};
use crate::support::process::{line_count, run_bounded, signal_when};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

const SINKS: &str = "parquet,webdataset,vlmevalkit,lmms-eval";

/// Every dataset file under `dir` (not images/ or the manifest) by relative path,
/// not counting hidden (pending or temporary) files.
fn datasets(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for sub in ["data", "wds", "vlmevalkit", "lmms_eval"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in entries {
            let e = e.unwrap();
            let file = e.file_name().to_string_lossy().into_owned();
            if file.starts_with('.') {
                continue;
            }
            let name = format!("{sub}/{file}");
            out.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    if let Ok(card) = std::fs::read(dir.join("README.md")) {
        out.insert("README.md".into(), card);
    }
    out
}

/// [`datasets`] with `dir`'s absolute path (in the lmms-eval YAML) replaced by `DIR`,
/// to compare the datasets of two directories.
fn datasets_anywhere(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let abs = std::fs::canonicalize(dir).unwrap().display().to_string();
    datasets(dir)
        .into_iter()
        .map(|(name, bytes)| match name.starts_with("lmms_eval/") {
            true => (
                name,
                String::from_utf8(bytes)
                    .unwrap()
                    .replace(&abs, "DIR")
                    .into_bytes(),
            ),
            false => (name, bytes),
        })
        .collect()
}

/// The test sweep: 6 problems × 8 images, every sink, 20-row shards.
fn sweep_cmd(out: &Path, extra: &[&str]) -> std::process::Command {
    let mut cmd = bin();
    cmd.args([
        "sweep",
        "--count",
        "6",
        "--seed",
        "3",
        "--backend",
        "cpu",
        "-q",
    ])
    .args(["--variants", "opacity;fontsize=8,24;jpeg=50"])
    .args(["--sink", SINKS, "--shard-rows", "20", "--out"])
    .arg(out)
    .args(extra);
    cmd
}

fn sweep(out: &Path, extra: &[&str]) -> std::process::Output {
    run_ok(&mut sweep_cmd(out, extra))
}

#[test]
fn streamed_sinks_export_and_resume_give_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    sweep(&out, &[]);
    let streamed = datasets(&out);
    // 6 problems × 8 images, 20 rows a shard: 3 Parquet and 3 tar shards.
    let names: Vec<&String> = streamed.keys().collect();
    for want in [
        "data/test-00000-of-00003.parquet",
        "data/test-00002-of-00003.parquet",
        "wds/geomrender-000002.tar",
        "vlmevalkit/GeomRender.tsv",
        "lmms_eval/geomrender.yaml",
        "lmms_eval/geomrender_fontsize__8.yaml",
        "lmms_eval/utils.py",
        "README.md",
    ] {
        assert!(streamed.contains_key(want), "{want} not in {names:?}");
    }
    // 3 + 3 shards, the TSV, the card, and 11 lmms-eval files (template, group,
    // utils.py, 8 tasks: base, opacity ×4, fontsize ×2, jpeg).
    assert_eq!(streamed.len(), 19, "{names:?}");
    // export of the finished directory: the same bytes.
    for sub in ["data", "wds", "vlmevalkit", "lmms_eval"] {
        std::fs::remove_dir_all(out.join(sub)).unwrap();
    }
    std::fs::remove_file(out.join("README.md")).unwrap();
    run_ok(
        bin()
            .arg("export")
            .arg(&out)
            .args(["--to", SINKS, "--shard-rows", "20"]),
    );
    assert!(datasets(&out) == streamed, "export differs from --sink");
    // Exported again with smaller shards, then back: the larger set's extra shards
    // go, so `data/test-*.parquet` never mixes two datasets.
    run_ok(
        bin()
            .arg("export")
            .arg(&out)
            .args(["--to", SINKS, "--shard-rows", "7"]),
    );
    assert!(out.join("data/test-00006-of-00007.parquet").exists());
    assert!(out.join("wds/geomrender-000006.tar").exists());
    run_ok(
        bin()
            .arg("export")
            .arg(&out)
            .args(["--to", SINKS, "--shard-rows", "20"]),
    );
    assert!(datasets(&out) == streamed, "a re-export left other shards");
}

/// The codecs of every column chunk of every Parquet shard of a run.
fn parquet_codecs(out: &Path) -> std::collections::BTreeSet<String> {
    let mut codecs = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(out.join("data")).unwrap() {
        let file = std::fs::File::open(e.unwrap().path()).unwrap();
        let reader =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        for group in reader.metadata().row_groups() {
            for column in group.columns() {
                codecs.insert(column.compression().to_string());
            }
        }
    }
    codecs
}

/// `--parquet-compression none` stores every column uncompressed: the same rows
/// (the image bytes included) in larger files, the other sinks' bytes unchanged, and
/// `export` with the flag writes the same bytes as `--sink` with it.
#[test]
fn uncompressed_parquet_holds_the_same_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let (snappy, none) = (tmp.path().join("snappy"), tmp.path().join("none"));
    sweep(&snappy, &[]);
    sweep(&none, &["--parquet-compression", "none"]);
    assert_eq!(parquet_codecs(&snappy), ["SNAPPY".to_string()].into());
    assert_eq!(parquet_codecs(&none), ["UNCOMPRESSED".to_string()].into());
    assert!(parquet_batches(&snappy) == parquet_batches(&none));
    let (a, b) = (datasets_anywhere(&snappy), datasets_anywhere(&none));
    let size = |d: &BTreeMap<String, Vec<u8>>| -> usize {
        d.iter()
            .filter(|(name, _)| name.starts_with("data/"))
            .map(|(_, bytes)| bytes.len())
            .sum()
    };
    assert!(size(&b) > size(&a), "{} vs {} bytes", size(&b), size(&a));
    for (name, bytes) in &a {
        if !name.starts_with("data/") && name != "README.md" {
            assert!(b.get(name) == Some(bytes), "{name} differs");
        }
    }
    // The card's sizes differ; its features and configs do not.
    let card = |d: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        String::from_utf8(d["README.md"].clone())
            .unwrap()
            .lines()
            .filter(|l| !l.contains("_size") && !l.contains("num_bytes"))
            .map(String::from)
            .collect()
    };
    assert_eq!(card(&a), card(&b));
    assert_ne!(a["README.md"], b["README.md"]);
    run_ok(bin().arg("export").arg(&snappy).args([
        "--to",
        SINKS,
        "--shard-rows",
        "20",
        "--parquet-compression",
        "none",
    ]));
    assert!(
        datasets_anywhere(&snappy) == b,
        "export differs from --sink"
    );
}

/// The run is killed (SIGKILL: nothing of ours runs) while rows stream into the
/// sinks; no shard is under a final name until a run finishes, and `--resume`
/// ends with the same bytes as a run never stopped.
#[test]
fn a_killed_run_with_sinks_resumes_to_the_same_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    sweep(&whole, &["--chunk-lines", "2"]);
    let want = datasets_anywhere(&whole);
    let out = tmp.path().join("killed");
    let partial = out.join(".manifest.jsonl.partial");
    let mut cmd = sweep_cmd(&out, &["--chunk-lines", "2"]);
    // Past the first shard (20 rows): its pending file is on disk.
    let (status, _) = signal_when(&mut cmd, || line_count(&partial) >= 26, libc::SIGKILL);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
    let left = datasets(&out);
    assert!(
        left.is_empty(),
        "a killed run left files under final names: {:?}",
        left.keys().collect::<Vec<_>>()
    );
    let hidden: Vec<String> = std::fs::read_dir(out.join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        hidden.iter().any(|n| n.ends_with(".pending")),
        "the first shard should be pending: {hidden:?}"
    );
    sweep(&out, &["--chunk-lines", "2", "--resume"]);
    let got = datasets_anywhere(&out);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &want {
        assert!(&got[name] == bytes, "{name} differs after the resumed run");
    }
    let data: Vec<String> = std::fs::read_dir(out.join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        data.iter().all(|n| !n.starts_with('.')),
        "pending or temp files left: {data:?}"
    );
}

/// The sinks stream in bounded memory: a 20,000-image render with every sink peaks
/// at most 8 MiB above a 200-image one, while the datasets it writes hold over ten
/// times that (a sink that kept its rows would add them all). Small scenes keep
/// this quick in a debug build; `--chunk-lines 8` lets the short run fill the
/// pipeline as the long one does. What remains (measured +4.5 MiB on 17 MiB; +4.6
/// to +5.2 MiB on 21–22 MiB since text shaping is cached per thread and memory is
/// trimmed every 512 images; +5.4 to +6.1 MiB on 23 MiB since the binary fixes
/// glibc's mmap and trim thresholds, `cli/malloc.rs`; 2026-12-03) is the set of ids seen (one entry per id
/// stem), each open Parquet shard's footer (row-group metadata, ~1 MB per 10,000
/// rows), each thread's last 256 shaped texts (these texts all differ) and the
/// allocator's high-water mark. On the default sweep's 512² diagrams (release) the
/// same two sizes peak at 94 and 101–103 MB: under 10 % apart.
#[test]
fn sinks_stream_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for n in [200, 20_000] {
        let input = tmp.path().join(format!("scenes-{n}.jsonl"));
        let mut text = String::new();
        for k in 0..n {
            text.push_str(&format!(
                r##"{{"id":"t{k:06}","width":128,"height":128,"background":"#ffffff","items":[{{"type":"path","d":"M 10 10 L 110 20 L 60 {} Z","fill":"#4d80e6","stroke":"#202020","stroke_width":2}},{{"type":"text","text":"x = {k} cm","x":8,"y":120,"size":14,"color":"#202020"}}]}}"##,
                60 + k % 50
            ));
            text.push('\n');
        }
        std::fs::write(&input, text).unwrap();
        let out = tmp.path().join(format!("out-{n}"));
        let (code, peak) = run_bounded(
            bin()
                .arg("render")
                .arg(&input)
                .args(["--backend", "cpu", "-q", "--chunk-lines", "8"])
                .args(["--sink", SINKS, "--out"])
                .arg(&out),
            Duration::from_secs(600),
        );
        assert_eq!(code, Some(0));
        assert_eq!(line_count(&out.join("manifest.jsonl")), n);
        peaks.push(peak);
    }
    let written: u64 = ["data", "wds", "vlmevalkit"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(tmp.path().join("out-20000").join(sub)).unwrap())
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    let (small, large) = (peaks[0], peaks[1]);
    eprintln!("peak RSS: 200 images {small} KiB, 20,000 images {large} KiB; datasets {written} B");
    let bound = 8 << 10;
    assert!(
        written >> 10 > 10 * bound,
        "the test's data is too small to tell"
    );
    assert!(
        large < small + bound,
        "peak RSS grew from {small} KiB (200 images) to {large} KiB (20,000)"
    );
}

#[test]
fn export_refuses_what_it_cannot_convert() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(bin()
        .arg("export")
        .arg(tmp.path())
        .args(["--to", "parquet"]));
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("no finished manifest.jsonl"), "{stderr}");
    // An SVG-only run has no raster images to put in a dataset.
    let svg = tmp.path().join("svg");
    run_ok(
        bin()
            .args([
                "sweep",
                "--count",
                "2",
                "--backend",
                "cpu",
                "-q",
                "--format",
                "svg",
            ])
            .args(["--variants", "opacity=0.25", "--out"])
            .arg(&svg),
    );
    let o = run(bin().arg("export").arg(&svg).args(["--to", "webdataset"]));
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("render with --format png"), "{stderr}");
    assert!(!svg.join("wds").join("geomrender-000000.tar").exists());
}

/// Issue 26: `generate --task relations` items rendered with every sink, `fontsize`
/// variants, 4-row shards. Returns the run directory.
fn relation_run(tmp: &Path, name: &str, seed: &str) -> std::path::PathBuf {
    let problems = tmp.join(format!("{name}.jsonl"));
    run_ok(
        bin()
            .args([
                "generate",
                "--task",
                "relations",
                "--count",
                "5",
                "--seed",
                seed,
                "--out",
            ])
            .arg(&problems),
    );
    let out = tmp.join(name);
    run_ok(
        bin()
            .arg("render")
            .arg(&problems)
            .args(["--backend", "cpu", "-q", "--variants", "fontsize=8"])
            .args(["--sink", SINKS, "--shard-rows", "4", "--out"])
            .arg(&out),
    );
    out
}

/// A relation row's option texts and letter, from the manifest.
fn choices(row: &serde_json::Value) -> Vec<String> {
    row["choices"]
        .as_array()
        .expect("a relation row has choices")
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// The `huggingface` key of a Parquet shard's metadata: the HF features.
fn hf_features(shard: &Path) -> String {
    let file = std::fs::File::open(shard).unwrap();
    let reader =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let kv = reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .unwrap();
    let hf = kv.iter().find(|kv| kv.key == "huggingface").unwrap();
    hf.value.clone().unwrap()
}

/// Every Parquet shard of a run, read back as Arrow batches.
fn parquet_batches(out: &Path) -> Vec<arrow_array::RecordBatch> {
    let mut shards: Vec<_> = std::fs::read_dir(out.join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    shards.sort();
    shards
        .iter()
        .flat_map(|p| {
            let file = std::fs::File::open(p).unwrap();
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
                .unwrap()
                .build()
                .unwrap()
                .map(Result::unwrap)
        })
        .collect()
}

/// VLMEvalKit reads the relation run's TSV as multiple choice (columns `A` and `B`:
/// `build_dataset` in `vlmeval/dataset/__init__.py`), the Parquet rows carry the
/// letter and the options, lmms-eval scores `accuracy`, and `export` writes the same
/// bytes as `--sink`.
#[test]
fn relation_items_are_multiple_choice_in_every_sink() {
    use arrow_array::cast::AsArray;
    let tmp = tempfile::tempdir().unwrap();
    let out = relation_run(tmp.path(), "rel", "4");
    let rows = crate::support::cli::manifest(&out);
    assert_eq!(rows.len(), 10);

    // VLMEvalKit: option columns A–E, the letter, the question without its options.
    let mut tsv = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_path(out.join("vlmevalkit/GeomRender.tsv"))
        .unwrap();
    let header: Vec<String> = tsv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "index",
            "image",
            "question",
            "A",
            "B",
            "C",
            "D",
            "E",
            "answer",
            "category",
            "l2-category",
            "id",
            "base_id",
            "axis",
            "value"
        ]
    );
    let records: Vec<csv::StringRecord> = tsv.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), rows.len());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for (row, rec) in rows.iter().zip(&records) {
        let options = choices(row);
        assert_eq!(&rec[col("id")], row["id"].as_str().unwrap());
        assert_eq!(&rec[col("answer")], row["answer"].as_str().unwrap());
        for (k, letter) in ["A", "B", "C", "D", "E"].iter().enumerate() {
            let want = options.get(k).map_or("", String::as_str);
            assert_eq!(&rec[col(letter)], want, "{} option {letter}", row["id"]);
        }
        let listed: Vec<String> = (options.iter().zip('A'..))
            .map(|(c, l)| format!("{l}. {c}"))
            .collect();
        let question = &rec[col("question")];
        assert!(!question.contains("Answer choices"), "{question}");
        assert_eq!(
            format!("{question} Answer choices: {}", listed.join(" ")),
            row["question"].as_str().unwrap()
        );
        assert_eq!(&rec[col("l2-category")], row["relation"].as_str().unwrap());
        let axis = if row["variant"].as_object().unwrap().is_empty() {
            "base"
        } else {
            "fontsize"
        };
        assert_eq!(&rec[col("category")], axis);
    }

    // Parquet: `answer` the letter, `choices` a list of strings, the relation fields.
    let batches = parquet_batches(&out);
    assert_eq!(batches.len(), 3, "10 rows in 4-row shards");
    let schema = batches[0].schema();
    for (name, ty) in [
        ("answer", "Utf8"),
        ("choices", "List"),
        ("answer_text", "Utf8"),
        ("relation", "Utf8"),
        ("domain", "Utf8"),
        ("subset", "Utf8"),
        ("mode", "Utf8"),
        ("task", "Utf8"),
    ] {
        let dt = format!("{:?}", schema.field_with_name(name).unwrap().data_type());
        assert!(dt.starts_with(ty), "{name}: {dt}");
    }
    let features: serde_json::Value =
        serde_json::from_str(&hf_features(&out.join("data/test-00000-of-00003.parquet"))).unwrap();
    let features = &features["info"]["features"];
    assert_eq!(
        features["choices"],
        serde_json::json!({"feature": {"dtype": "string", "_type": "Value"}, "_type": "List"})
    );
    assert_eq!(
        features["answer"],
        serde_json::json!({"dtype": "string", "_type": "Value"})
    );
    let mut got = Vec::new();
    for b in &batches {
        let text = |name: &str| b.column_by_name(name).unwrap().as_string::<i32>().clone();
        let (ids, answers, texts, relations, domains) = (
            text("id"),
            text("answer"),
            text("answer_text"),
            text("relation"),
            text("domain"),
        );
        let lists = b
            .column_by_name("choices")
            .unwrap()
            .as_list::<i32>()
            .clone();
        for i in 0..b.num_rows() {
            let options: Vec<String> = lists
                .value(i)
                .as_string::<i32>()
                .iter()
                .map(|s| s.unwrap().to_string())
                .collect();
            got.push((
                ids.value(i).to_string(),
                answers.value(i).to_string(),
                options,
                texts.value(i).to_string(),
                relations.value(i).to_string(),
                domains.value(i).to_string(),
            ));
        }
    }
    let want: Vec<_> = rows
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap().to_string();
            (
                s("id"),
                s("answer"),
                choices(r),
                s("answer_text"),
                s("relation"),
                s("domain"),
            )
        })
        .collect();
    assert_eq!(got, want);
    // The card declares the list and names the relation columns.
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        card.contains("  - name: choices\n    list: string\n"),
        "{card}"
    );
    assert!(
        card.contains("  - name: answer\n    dtype: string\n"),
        "{card}"
    );
    assert!(
        card.contains("`choices` (the options in letter order"),
        "{card}"
    );

    // lmms-eval: the template scores `accuracy` (utils.py's multiple-choice metric).
    let template = std::fs::read_to_string(out.join("lmms_eval/_default_template_yaml")).unwrap();
    assert!(
        template.contains("metric_list:\n  - metric: accuracy\n"),
        "{template}"
    );

    // export of the finished directory: the same bytes.
    let streamed = datasets(&out);
    for sub in ["data", "wds", "vlmevalkit", "lmms_eval"] {
        std::fs::remove_dir_all(out.join(sub)).unwrap();
    }
    std::fs::remove_file(out.join("README.md")).unwrap();
    run_ok(
        bin()
            .arg("export")
            .arg(&out)
            .args(["--to", SINKS, "--shard-rows", "4"]),
    );
    assert!(datasets(&out) == streamed, "export differs from --sink");
}

/// GeomVerse runs keep the open-question layout: no option columns (VLMEvalKit
/// would read `A`/`B` as multiple choice), a numeric `answer` in Parquet, and
/// `relaxed_accuracy` in lmms-eval.
#[test]
fn geomverse_runs_keep_the_open_question_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("gv");
    run_ok(
        bin()
            .args([
                "sweep",
                "--count",
                "2",
                "--seed",
                "1",
                "--backend",
                "cpu",
                "-q",
            ])
            .args(["--sink", SINKS, "--out"])
            .arg(&out),
    );
    let tsv = std::fs::read_to_string(out.join("vlmevalkit/GeomRender.tsv")).unwrap();
    assert_eq!(
        tsv.lines().next(),
        Some("index\timage\tquestion\tanswer\tcategory\tid\tbase_id\taxis\tvalue")
    );
    let schema = parquet_batches(&out)[0].schema();
    assert_eq!(
        schema.field_with_name("answer").unwrap().data_type(),
        &arrow_schema::DataType::Float64
    );
    assert!(schema.field_with_name("choices").is_err());
    let template = std::fs::read_to_string(out.join("lmms_eval/_default_template_yaml")).unwrap();
    assert!(
        template.contains("  - metric: relaxed_accuracy\n"),
        "{template}"
    );
}

/// Relation items after GeomVerse problems in one input: the one-layout sinks
/// refuse the first relation row, naming it, its line and the row that set the
/// layout, and write nothing under a final name; WebDataset takes both; `export`
/// refuses the same row before writing anything.
#[test]
fn a_run_mixing_relation_items_and_geomverse_problems_is_refused_where_one_dataset_cannot_hold_both()
 {
    let tmp = tempfile::tempdir().unwrap();
    let (gv, rel) = (tmp.path().join("gv.jsonl"), tmp.path().join("rel.jsonl"));
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--seed", "1", "--out"])
            .arg(&gv),
    );
    run_ok(
        bin()
            .args([
                "generate",
                "--task",
                "relations",
                "--count",
                "2",
                "--seed",
                "1",
                "--out",
            ])
            .arg(&rel),
    );
    let mixed = tmp.path().join("mixed.jsonl");
    let text = std::fs::read_to_string(&gv).unwrap() + &std::fs::read_to_string(&rel).unwrap();
    std::fs::write(&mixed, text).unwrap();
    let render = |out: &Path, sinks: &str| {
        run(bin()
            .arg("render")
            .arg(&mixed)
            .args(["--backend", "cpu", "-q", "--sink", sinks, "--out"])
            .arg(out))
    };

    let out = tmp.path().join("tsv");
    let o = render(&out, "vlmevalkit");
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&mixed)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (first, third) = (
        rows[0]["id"].as_str().unwrap(),
        rows[2]["id"].as_str().unwrap(),
    );
    for want in [
        format!("manifest.jsonl:3: {third:?} is one of GeomRel's relation items (multiple choice)"),
        format!(
            "the vlmevalkit dataset holds GeomVerse's problems (numeric answers) (set by its first row, {first:?})"
        ),
        "render the two kinds into separate directories".to_string(),
    ] {
        assert!(stderr.contains(&want), "{want:?} not in {stderr}");
    }
    assert!(!out.join("vlmevalkit/GeomRender.tsv").exists());

    // WebDataset alone: every row, relation items' choices in their JSON.
    let out = tmp.path().join("wds");
    let o = render(&out, "webdataset");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tar = std::fs::read(out.join("wds/geomrender-000000.tar")).unwrap();
    let mut archive = tar::Archive::new(&tar[..]);
    let jsons: Vec<serde_json::Value> = archive
        .entries()
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.path().unwrap().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_reader(e).unwrap())
        .collect();
    assert_eq!(jsons.len(), 4);
    assert!(jsons[2]["choices"].is_array() && jsons[2]["answer"].is_string());
    assert!(jsons[0].get("choices").is_none() && jsons[0]["answer"].is_number());

    // export to Parquet from that directory: refused before anything is written.
    let o = run(bin().arg("export").arg(&out).args(["--to", "parquet"]));
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(&format!("manifest.jsonl:3: {third:?} is one of")),
        "{stderr}"
    );
    assert!(stderr.contains("the parquet dataset holds"), "{stderr}");
    assert!(!out.join("data").exists() && !out.join("README.md").exists());
}

/// The user's own files beside the datasets stay: a `README.md` (the card goes to
/// `DATASET_CARD.md`, and the run says so), and names in the sink folders that
/// resemble ours but are not what a run writes.
#[test]
fn the_users_files_beside_the_datasets_stay() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let theirs = [
        "README.md",
        "wds/geomrender-backup-2024.tar",
        "lmms_eval/geomrender_mytask.yaml",
        "data/test-final.parquet",
    ];
    for name in theirs {
        let path = out.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("mine: {name}")).unwrap();
    }
    let o = sweep(&out, &[]);
    let said =
        String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("DATASET_CARD.md"),
        "the run does not say where the card went: {said}"
    );
    let card = std::fs::read_to_string(out.join("DATASET_CARD.md")).unwrap();
    assert!(card.contains("# geomrender dataset"), "{card}");
    // The same run without sinks removes its datasets, and only them.
    run_ok(
        bin()
            .args([
                "sweep",
                "--count",
                "6",
                "--seed",
                "3",
                "--backend",
                "cpu",
                "-q",
            ])
            .args(["--variants", "opacity;fontsize=8,24;jpeg=50", "--out"])
            .arg(&out),
    );
    assert!(
        !out.join("DATASET_CARD.md").exists() && !out.join("wds/geomrender-000000.tar").exists()
    );
    for name in theirs {
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            format!("mine: {name}"),
            "{name} was not kept"
        );
    }
}
