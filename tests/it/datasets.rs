//! Issue 12: the dataset sinks. `--sink` on a sweep and `export` of the finished
//! directory write the same bytes; a run stopped and resumed ends with the same
//! shards; bad directories get errors naming what is missing. The formats themselves
//! are proven by the libraries that read them: `tests/python/test_datasets.py`
//! (HF `datasets`, `webdataset`, pandas, the lmms-eval YAML and utils).

use crate::support::cli::{bin, run, run_ok};
use std::collections::BTreeMap;
use std::path::Path;

const SINKS: &str = "parquet,webdataset,vlmevalkit,lmms-eval";

/// Every dataset file under `dir` (not images/ or the manifest) by relative path.
fn datasets(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for sub in ["data", "wds", "vlmevalkit", "lmms_eval"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in entries {
            let e = e.unwrap();
            let name = format!("{sub}/{}", e.file_name().to_string_lossy());
            out.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    if let Ok(card) = std::fs::read(dir.join("README.md")) {
        out.insert("README.md".into(), card);
    }
    out
}

fn sweep(out: &Path, extra: &[&str]) -> std::process::Output {
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
            .args(["--variants", "opacity;fontsize=8,24;jpeg=50"])
            .args(["--sink", SINKS, "--shard-rows", "20", "--out"])
            .arg(out)
            .args(extra),
    )
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
        "lmms_eval/geomrender_fontsize_8.yaml",
        "lmms_eval/utils.py",
        "README.md",
    ] {
        assert!(streamed.contains_key(want), "{want} not in {names:?}");
    }
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
    // A resumed run (manifest cut short, as a killed run leaves it) ends the same.
    let manifest = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
    let half: String = manifest
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(out.join(".manifest.jsonl.partial"), half).unwrap();
    std::fs::remove_file(out.join("manifest.jsonl")).unwrap();
    for sub in ["data", "wds", "vlmevalkit", "lmms_eval"] {
        std::fs::remove_dir_all(out.join(sub)).unwrap();
    }
    sweep(&out, &["--resume"]);
    assert!(
        datasets(&out) == streamed,
        "a resumed run's datasets differ"
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
