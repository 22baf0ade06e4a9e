//! The typed manifest row is the output contract: the bytes of today's manifests,
//! every row reads back into `ManifestRow` and writes out to the same line, and every
//! row validates against the published JSON Schema. CPU backend (resvg): needs no GPU.

use crate::support::cli::{
    assert_manifest_row, bin, examples, manifest_text, manifest_validator, run_ok,
};
use geomrender::output::manifest::ManifestRow;

/// SHA-256 of the manifests written by the commands in
/// `manifests_keep_their_bytes`, first recorded on main at e0a4486 (before the typed
/// row, when rows were built as string-keyed maps) and re-recorded for issue 16 (one
/// fit per problem, labels kept with their elements, leaders and the new `layout`
/// figures change label positions and rows; the new palette changes colour names and
/// fills; `style.rotation` became an integer), and for issue 14 (the sweep's
/// `--backend cpu` is now the direct rasteriser, and PNGs use the `Up` filter: new
/// pixels and bytes, so new `sha256` and `backend` in both; then `palette=grayscale`
/// renaming shapes to the greys drawn changed the SVG run's grayscale texts), and for
/// issue 25 (a whole variant value is written as ids spell it, `"fontsize":24`, not
/// `24.0`, which changes the sweep's; grayscale fills became the greys their names
/// show at 50 %, which changes the SVG run's), and for issue 29 (strokes wider than
/// a pixel blended by the rasteriser's own source-over, as fills already were: 0.16 %
/// of the sweep's pixels moved by one level, so new PNG `sha256` in both), and again
/// for issue 29 (our own deflate stream: the same pixels, decoded, in new PNG bytes,
/// so new `sha256` in both), and for issue 44 (point dots, and labels placed at
/// least 1.5 times nearer their own element than any other: new pixels and
/// `layout` figures in both). A
/// deliberate change to what a row says
/// (or to the pixels, through `sha256`) changes these.
const SWEEP_MANIFEST: &str = "27170bd164eed451bed09316a852ced23bdd089b8f62036abd5bd33bda60ac93";
const SVG_MANIFEST: &str = "7637662b5de8e97bae556580beb5b8eb00a4804f1527e12ec2029ece42007d84";

#[test]
fn manifests_keep_their_bytes_read_back_typed_and_match_the_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = tmp.path().join("sweep");
    run_ok(
        bin()
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
            .arg(&sweep),
    );
    let svg = tmp.path().join("svg");
    run_ok(
        bin()
            .arg("render")
            .arg(sweep.join("problems.jsonl"))
            .args(["--backend", "cpu", "--format", "png,svg", "-q"])
            .args(["--variants", "rotation=90;palette=grayscale", "--out"])
            .arg(&svg),
    );
    let validator = manifest_validator();
    let problems = std::fs::read_to_string(sweep.join("problems.jsonl")).unwrap();
    let line_hashes: std::collections::HashMap<String, String> = problems
        .lines()
        .map(|l| {
            let id = serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string();
            (id, crate::support::sha256_hex(l.as_bytes()))
        })
        .collect();
    for (dir, expected) in [(&sweep, SWEEP_MANIFEST), (&svg, SVG_MANIFEST)] {
        let text = manifest_text(dir);
        // The rows of e0a4486 plus one field added since (issue 11): each row's
        // input_sha256 is the hash of the problem line it came from.
        let mut without_input = String::new();
        let mut svgs = 0;
        for line in text.lines() {
            let mut row: ManifestRow = serde_json::from_str(line).expect("a typed row");
            assert_eq!(row.to_json(), line, "re-serialised row differs");
            let base_id = &row.source.as_ref().unwrap().base_id;
            assert_eq!(
                row.input_sha256.as_ref(),
                line_hashes.get(base_id),
                "{line}"
            );
            row.input_sha256 = None;
            without_input.push_str(&row.to_json());
            without_input.push('\n');
            assert!(row.source.is_some() && row.problem.is_some(), "{line}");
            svgs += usize::from(row.svg.is_some());
            assert_manifest_row(&validator, &serde_json::from_str(line).unwrap());
        }
        assert_eq!(svgs > 0, dir == &svg);
        assert_eq!(
            crate::support::sha256_hex(without_input.as_bytes()),
            expected,
            "{}",
            dir.display()
        );
    }
}

#[test]
fn scene_rows_carry_only_what_a_scene_has() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, variants) in [("plain", None), ("varied", Some("opacity=0.25"))] {
        let out = tmp.path().join(name);
        let mut cmd = bin();
        cmd.arg("render")
            .arg(examples())
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&out);
        if let Some(v) = variants {
            cmd.args(["--variants", v]);
        }
        run_ok(&mut cmd);
        for line in manifest_text(&out).lines() {
            let row: ManifestRow = serde_json::from_str(line).unwrap();
            assert_eq!(row.to_json(), line);
            assert!(row.problem.is_none(), "{line}");
            assert_eq!(row.source.is_some(), variants.is_some(), "{line}");
        }
    }
}

/// Every axis of the table, at every value of its default sweep and in a grid,
/// writes rows that validate against the published schema, and the schema's
/// `variant` block is the table's, axis by axis (its `additionalProperties: false`
/// once refused every row of `phrasing`, `backward`, `aux` and `unrelated`: no test
/// swept them).
#[test]
fn every_axis_writes_rows_the_schema_accepts() {
    use geomrender::variants::AXES;
    let schema: serde_json::Value =
        serde_json::from_str(geomrender::output::manifest::SCHEMA).unwrap();
    let published = schema["properties"]["variant"]["properties"]
        .as_object()
        .unwrap();
    let expected: serde_json::Map<String, serde_json::Value> = AXES
        .iter()
        .map(|a| (a.name.to_string(), a.schema()))
        .collect();
    if published != &expected {
        let lines: Vec<String> = expected
            .iter()
            .map(|(k, v)| format!("        \"{k}\": {v}"))
            .collect();
        panic!(
            "schemas/manifest.schema.json's variant block is not the axis table's; it should read:\n{}",
            lines.join(",\n")
        );
    }
    let table: Vec<&str> = AXES.iter().map(|a| a.name).collect();
    let tmp = tempfile::tempdir().unwrap();
    let problems = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            // 16: the first of seed 4's problems with a point that is no corner
            // (its `dots=off` differs from the base) is the 14th.
            .args(["generate", "--count", "16", "--seed", "4", "--out"])
            .arg(&problems),
    );
    let spec = table.join(";");
    let out = tmp.path().join("out");
    run_ok(
        bin()
            .arg("render")
            .arg(&problems)
            .args(["--backend", "cpu", "-q", "--variants", &spec, "--out"])
            .arg(&out),
    );
    // A grid: rows whose variant names several axes.
    let grid = tmp.path().join("grid");
    run_ok(
        bin()
            .arg("render")
            .arg(&problems)
            .args(["--backend", "cpu", "-q", "--grid", "--variants"])
            .arg("scale=0.5;fontsize=8,24;relabel=1;phrasing=2;jpeg=50")
            .arg("--out")
            .arg(&grid),
    );
    let validator = manifest_validator();
    let grid_rows = manifest_text(&grid);
    assert_eq!(grid_rows.lines().count(), 16 * 3);
    for line in grid_rows.lines() {
        assert_manifest_row(&validator, &serde_json::from_str(line).unwrap());
    }
    let mut seen = std::collections::BTreeSet::new();
    for line in manifest_text(&out).lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_manifest_row(&validator, &row);
        if let Some(axis) = row["variant"].as_object().and_then(|v| v.keys().next()) {
            seen.insert(axis.clone());
        }
    }
    // `choices` rotates options, which only relation items have.
    let items = tmp.path().join("items.jsonl");
    run_ok(
        bin()
            .args(["generate", "--task", "relations", "--count", "2", "--out"])
            .arg(&items),
    );
    let rotated = tmp.path().join("rotated");
    run_ok(
        bin()
            .arg("render")
            .arg(&items)
            .args(["--backend", "cpu", "-q", "--variants", "choices=1", "--out"])
            .arg(&rotated),
    );
    let rotated_rows = manifest_text(&rotated);
    assert_eq!(rotated_rows.lines().count(), 2 * 2);
    for line in rotated_rows.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_manifest_row(&validator, &row);
        if let Some(axis) = row["variant"].as_object().and_then(|v| v.keys().next()) {
            seen.insert(axis.clone());
        }
    }
    let table: std::collections::BTreeSet<String> = table.iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, table, "some axis made no row to check");
}
