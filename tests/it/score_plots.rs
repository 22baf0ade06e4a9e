//! What score's plots and report.md say (issue 25): flips.png stars mark Holm-adjusted
//! p < 0.05, as report.md's preamble says of its Holm column; categorical axes are
//! points, numeric axes lines through the base value the axis table gives.

use crate::support::cli::run_score;
use serde_json::json;
use std::path::{Path, PathBuf};

/// Six problems: each base image answered right, and each variant of `variants`
/// answered right or wrong as `right` says. Returns the report directory.
fn scored(dir: &Path, variants: &[(&str, serde_json::Value, bool)]) -> PathBuf {
    let (mut manifest, mut preds) = (String::new(), String::new());
    for p in 0..6 {
        let base = format!("p{p}");
        manifest.push_str(&format!(
            "{}\n",
            json!({"id": base, "base_id": base, "variant": {}, "answer": 44})
        ));
        preds.push_str(&format!("{}\n", json!({"id": base, "prediction": "44"})));
        for (k, (axis, value, right)) in variants.iter().enumerate() {
            let id = format!("{base}__{k}");
            let row = json!({"id": id, "base_id": base, "variant": {*axis: value}, "answer": 44});
            manifest.push_str(&format!("{row}\n"));
            let said = if *right { "44" } else { "7" };
            preds.push_str(&format!("{}\n", json!({"id": id, "prediction": said})));
        }
    }
    std::fs::write(dir.join("manifest.jsonl"), manifest).unwrap();
    std::fs::write(dir.join("m.jsonl"), preds).unwrap();
    let out = dir.join("report");
    let run = run_score(&dir.join("manifest.jsonl"), &[dir.join("m.jsonl")], &out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

fn svg(out: &Path, name: &str) -> String {
    std::fs::read_to_string(out.join(format!("{name}.svg"))).unwrap()
}

/// The number of points of every `<polyline>` in an SVG.
fn polylines(svg: &str) -> Vec<usize> {
    svg.split("<polyline")
        .skip(1)
        .map(|p| {
            let at = p.find("points=\"").unwrap() + 8;
            p[at..]
                .split('"')
                .next()
                .unwrap()
                .split_whitespace()
                .count()
        })
        .collect()
}

#[test]
fn flip_stars_mark_holm_adjusted_p_as_the_report_says() {
    let dir = tempfile::tempdir().unwrap();
    // Six right→wrong flips: McNemar p = 2 · 0.5⁶ = 0.031.
    let one = dir.path().join("one");
    std::fs::create_dir(&one).unwrap();
    let out = scored(&one, &[("fontsize", json!(8), false)]);
    // plotters writes a text element's content on a line of its own.
    let stars = |out: &Path| {
        svg(out, "flips")
            .lines()
            .filter(|l| l.trim() == "*")
            .count()
    };
    assert_eq!(stars(&out), 1, "one value: Holm p = p = 0.031");
    // Two such values: Holm p = 0.0625 for both, so no star, though each p is 0.031.
    let two = dir.path().join("two");
    std::fs::create_dir(&two).unwrap();
    let out = scored(
        &two,
        &[
            ("fontsize", json!(8), false),
            ("fontsize", json!(32), false),
        ],
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    for row in report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["axis"] == "fontsize")
    {
        assert!(row["mcnemar_p"].as_f64().unwrap() < 0.05);
        assert!(row["mcnemar_p_holm"].as_f64().unwrap() >= 0.05);
    }
    assert_eq!(stars(&out), 0);
    assert!(svg(&out, "flips").contains("* Holm-adjusted McNemar p &lt; 0.05"));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("not corrected"), "{md}");
    assert!(md.contains("\"Holm p\" adjusted (Holm–Bonferroni) across the values of that axis"));
    assert!(md.contains("| McNemar p | Holm p |"));
}

#[test]
fn categories_are_points_and_numeric_axes_lines_through_their_base() {
    let dir = tempfile::tempdir().unwrap();
    let categories = dir.path().join("categories");
    std::fs::create_dir(&categories).unwrap();
    let out = scored(
        &categories,
        &[
            ("palette", json!("grayscale"), true),
            ("palette", json!("high-contrast"), false),
            ("relabel", json!(1), true),
            ("relabel", json!(2), false),
            ("relabel", json!(3), true),
        ],
    );
    let accuracy = svg(&out, "accuracy");
    // Whiskers (2 points) and dashed base segments only: nothing joins the values,
    // and no band spans them.
    let lines = polylines(&accuracy);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|n| *n <= 2), "{lines:?}");
    assert!(!accuracy.contains("<polygon"));

    let numeric = dir.path().join("numeric");
    std::fs::create_dir(&numeric).unwrap();
    let out = scored(
        &numeric,
        &[
            ("unrelated", json!(1), true),
            ("unrelated", json!(2), false),
        ],
    );
    let accuracy = svg(&out, "accuracy");
    // The line runs through unrelated = 0 (the base images), 1 and 2, over its band.
    assert!(
        polylines(&accuracy).contains(&3),
        "{:?}",
        polylines(&accuracy)
    );
    assert!(accuracy.contains("<polygon"));
}
