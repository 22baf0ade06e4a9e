//! The typed manifest row is the output contract: the bytes of today's manifests,
//! every row reads back into `ManifestRow` and writes out to the same line, and every
//! row validates against the published JSON Schema. CPU backend (resvg): needs no GPU.

use crate::cli::bin;
use geomrender::output::manifest::{ManifestRow, SCHEMA};
use std::path::Path;

/// SHA-256 of the manifests written by the commands in
/// `manifests_keep_their_bytes`, recorded on main at e0a4486 (before the typed row,
/// when rows were built as string-keyed maps). A deliberate change to what a row says
/// (or to the pixels, through `sha256`) changes these.
const SWEEP_MANIFEST: &str = "a01b936be18afe57f7545e0d12454a917b33b8cbabfbd88ae87bb75668835222";
const SVG_MANIFEST: &str = "46d7fcf4acafad4106c7cc4275ddc96876e3cb24525b5e7a2f01192487090145";

fn ok(cmd: &mut std::process::Command) {
    let out = cmd.output().expect("run geomrender");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn manifest_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("manifest.jsonl")).expect("manifest.jsonl")
}

#[test]
fn manifests_keep_their_bytes_read_back_typed_and_match_the_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = tmp.path().join("sweep");
    ok(bin()
        .args([
            "sweep",
            "--count",
            "6",
            "--seed",
            "2",
            "--backend",
            "cpu",
            "-q",
        ])
        .args([
            "--variants",
            "opacity;fontsize=24;annotation;jpeg=50",
            "--out",
        ])
        .arg(&sweep));
    let svg = tmp.path().join("svg");
    ok(bin()
        .arg("render")
        .arg(sweep.join("problems.jsonl"))
        .args(["--backend", "cpu", "--format", "png,svg", "-q"])
        .args(["--variants", "rotation=90;palette=grayscale", "--out"])
        .arg(&svg));
    let schema: serde_json::Value = serde_json::from_str(SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (dir, expected) in [(&sweep, SWEEP_MANIFEST), (&svg, SVG_MANIFEST)] {
        let text = manifest_text(dir);
        assert_eq!(
            geomrender::digest::sha256_hex(text.as_bytes()),
            expected,
            "{}",
            dir.display()
        );
        let mut svgs = 0;
        for line in text.lines() {
            let row: ManifestRow = serde_json::from_str(line).expect("a typed row");
            assert_eq!(row.to_json(), line, "re-serialised row differs");
            assert!(row.source.is_some() && row.problem.is_some(), "{line}");
            svgs += usize::from(row.svg.is_some());
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{line}\n{}", errors.join("\n"));
        }
        assert_eq!(svgs > 0, dir == &svg);
    }
}

#[test]
fn scene_rows_carry_only_what_a_scene_has() {
    let tmp = tempfile::tempdir().unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/scenes.jsonl");
    for (name, variants) in [("plain", None), ("varied", Some("opacity=0.25"))] {
        let out = tmp.path().join(name);
        let mut cmd = bin();
        cmd.arg("render")
            .arg(&examples)
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&out);
        if let Some(v) = variants {
            cmd.args(["--variants", v]);
        }
        ok(&mut cmd);
        for line in manifest_text(&out).lines() {
            let row: ManifestRow = serde_json::from_str(line).unwrap();
            assert_eq!(row.to_json(), line);
            assert!(row.problem.is_none(), "{line}");
            assert_eq!(row.source.is_some(), variants.is_some(), "{line}");
        }
    }
}
