//! The CLI writes rows that pair every variant with its base, and refuses semantic
//! axes on Scene files. (What each axis changes: `src/tests/variants.rs`.)

use crate::support::cli::{assert_manifest_row, bin, examples, manifest, manifest_validator};
use crate::support::gpu::gpu_or_skip;

/// resvg only: runs without a GPU.
#[test]
fn cli_rows_pair_each_variant_with_its_base_on_the_cpu() {
    cli_rows_pair_each_variant_with_its_base("cpu");
}

#[test]
fn cli_rows_pair_each_variant_with_its_base_on_the_gpu() {
    if gpu_or_skip().is_none() {
        return;
    }
    cli_rows_pair_each_variant_with_its_base("gpu");
}

/// Renders 3 problems × (base, opacity, annotation, jpeg) as PNG and SVG with
/// `--backend <backend>` and checks that the rows match the manifest schema, pair
/// each variant with its base and point at the files written.
fn cli_rows_pair_each_variant_with_its_base(backend: &str) {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("p.jsonl");
    let out = bin()
        .args(["generate", "--count", "3", "--seed", "5", "--out"])
        .arg(&problems)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out_dir = dir.path().join("out");
    let out = bin()
        .arg("render")
        .arg(&problems)
        .arg("--out")
        .arg(&out_dir)
        .args([
            "--variants",
            "opacity=0.25;annotation;jpeg=50",
            "--format",
            "png,svg",
            "-q",
            "--backend",
            backend,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = manifest(&out_dir);
    assert_eq!(rows.len(), 3 * 4);
    let validator = manifest_validator();
    for row in &rows {
        assert_manifest_row(&validator, row);
        let id = row["id"].as_str().unwrap();
        let base = row["base_id"].as_str().unwrap();
        let variant = row["variant"].as_object().unwrap();
        match variant.iter().next() {
            None => assert_eq!(id, base),
            Some((axis, value)) => {
                let label = value
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| value.to_string());
                assert_eq!(id, format!("{base}__{axis}-{label}"));
            }
        }
        for field in [
            "image",
            "question",
            "cot",
            "answer",
            "annotation",
            "sha256",
            "layout",
            "params",
            "style",
            "svg",
        ] {
            assert!(row.get(field).is_some(), "{id}: no {field}");
        }
        let image = row["image"].as_str().unwrap();
        assert_eq!(
            image.ends_with(".jpg"),
            variant.contains_key("jpeg"),
            "{id}: {image}"
        );
        let bytes = std::fs::read(out_dir.join(image)).unwrap();
        assert_eq!(row["sha256"], crate::support::sha256_hex(&bytes));
        assert!(out_dir.join(row["svg"].as_str().unwrap()).exists());
    }
    // The schema is not vacuous: it rejects what the writer must never produce.
    let mut bad = rows[1].clone();
    bad["variant"] = serde_json::json!({"size": 3});
    assert!(!validator.is_valid(&bad));
    let mut bad = rows[1].clone();
    bad["sha256"] = "xyz".into();
    assert!(!validator.is_valid(&bad));
    // The answer of every variant equals its base's.
    for row in &rows {
        let base = rows.iter().find(|b| b["id"] == row["base_id"]).unwrap();
        assert_eq!(row["answer"], base["answer"]);
    }
}

#[test]
fn semantic_axes_on_a_scene_file_fail_before_rendering() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .arg("render")
        .arg(examples())
        .arg("--out")
        .arg(dir.path())
        .args(["--variants", "relabel"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("relabel needs Problems"), "{stderr}");
    // The axes that would work are named from the table.
    assert!(
        stderr.contains(
            "work on Scenes: opacity, linewidth, fontsize, resolution, palette, rotation, jpeg"
        ),
        "{stderr}"
    );
    assert!(!dir.path().join("manifest.jsonl").exists());
}
