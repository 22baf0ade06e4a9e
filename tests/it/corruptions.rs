//! Issue 49's run, checked from its files: `render --variants "corrupt=<11 of
//! them>;sketch=1,3;photo=1,3"` on 10 problems. The manifest is the same bytes
//! with 1 thread and with 2; `geomrender audit` passes it (pixel-stage values are
//! their base through the same stage, sketch values within their bound); sketch
//! and photo change the image visibly and keep every text. The match with the
//! `imagecorruptions` package itself is `tests/python/test_corruptions.py`.
//! Contact sheets come one per corruption family, plots one per corruption with
//! its severity on the x axis.

use crate::support::cli::{bin, manifest, manifest_text, run_ok};
use crate::support::images::load_png;
use serde_json::Value;
use std::path::Path;

const CORRUPTIONS: &str = "gaussian_noise-3,shot_noise-3,impulse_noise-3,defocus_blur-3,\
                           motion_blur-3,zoom_blur-3,fog-3,brightness-3,contrast-3,pixelate-3,\
                           elastic_transform-3";

fn render(problems: &Path, out: &Path, threads: &str) {
    run_ok(
        bin()
            .env("RAYON_NUM_THREADS", threads)
            .arg("render")
            .arg(problems)
            .args([
                "--backend",
                "cpu",
                "--format",
                "png,svg",
                "-q",
                "--variants",
            ])
            .arg(format!("corrupt={CORRUPTIONS};sketch=1,3;photo=1,3"))
            .arg("--out")
            .arg(out),
    );
}

/// Mean absolute difference over the colour channels, in levels.
fn distance(a: &[u8], b: &[u8]) -> f64 {
    let (sum, n) = (a.chunks_exact(4).zip(b.chunks_exact(4)))
        .flat_map(|(p, q)| (0..3).map(move |c| f64::from(p[c].abs_diff(q[c]))))
        .fold((0.0, 0usize), |(s, n), d| (s + d, n + 1));
    sum / n as f64
}

#[test]
fn corruptions_sketch_and_photo_are_reproducible_audited_and_keep_the_texts() {
    let tmp = tempfile::tempdir().unwrap();
    let problems = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "10", "--seed", "49", "--out"])
            .arg(&problems),
    );
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    render(&problems, &one, "1");
    render(&problems, &two, "2");
    assert_eq!(
        manifest_text(&one),
        manifest_text(&two),
        "1 and 2 threads differ"
    );

    let rows = manifest(&one);
    assert_eq!(rows.len(), 10 * (1 + 11 + 4));
    let audit = run_ok(bin().arg("audit").arg(&one));
    let err = String::from_utf8_lossy(&audit.stderr);
    assert!(err.contains("0 flagged, 0 lines not audited"), "{err}");

    let base_of = |r: &Value| -> Value {
        let id = r["base_id"].as_str().unwrap();
        rows.iter().find(|b| b["id"] == id).unwrap().clone()
    };
    let pixels = |r: &Value| load_png(&one.join(r["image"].as_str().unwrap()), "x").rgba;
    let mut seen = 0;
    for r in rows
        .iter()
        .filter(|r| r["variant"] != serde_json::json!({}))
    {
        let b = base_of(r);
        for text in ["question", "answer", "cot"] {
            assert_eq!(r[text], b[text], "{}: {text}", r["id"]);
        }
        let moved = distance(&pixels(r), &pixels(&b));
        let v = &r["variant"];
        // Visibly: a sketch moves strokes by px, a photo moves the whole page.
        let least = if v.get("sketch").is_some() {
            0.3
        } else if v.get("photo").is_some() {
            10.0
        } else {
            0.5
        };
        assert!(
            moved > least,
            "{}: {moved:.2} levels from its base",
            r["id"]
        );
        seen += 1;
    }
    assert_eq!(seen, 10 * 15);
}

/// `sweep`'s contact sheets put `corrupt` on one sheet per ImageNet-C family, and
/// `score` plots each corruption against its severity (the base images at 0).
#[test]
fn contact_sheets_are_per_family_and_plots_per_severity() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(
        bin()
            .args([
                "sweep",
                "--count",
                "4",
                "--seed",
                "3",
                "--backend",
                "cpu",
                "-q",
            ])
            .args([
                "--variants",
                "corrupt=gaussian_noise-3,fog-1,fog-3,contrast-3",
            ])
            .arg("--out")
            .arg(&out),
    );
    let mut sheets: Vec<String> = std::fs::read_dir(out.join("contact"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    sheets.sort();
    assert_eq!(
        sheets,
        [
            "corrupt-digital.png",
            "corrupt-noise.png",
            "corrupt-weather.png"
        ]
    );
    // Predictions: right on the base images, wrong under fog at 3.
    let preds: String = manifest(&out)
        .iter()
        .map(|r| {
            let wrong = r["variant"]["corrupt"] == "fog-3";
            let said = if wrong {
                "0".to_string()
            } else {
                r["answer"].to_string()
            };
            format!(
                "{}\n",
                serde_json::json!({"id": r["id"], "prediction": said})
            )
        })
        .collect();
    std::fs::write(tmp.path().join("m.jsonl"), preds).unwrap();
    let report = tmp.path().join("report");
    let s = crate::support::cli::run_score(
        &out.join("manifest.jsonl"),
        &[tmp.path().join("m.jsonl")],
        &report,
    );
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let svg = std::fs::read_to_string(report.join("accuracy.svg")).unwrap();
    for title in [
        "fog: ImageNet-C severity (0 = base)",
        "gaussian_noise: ImageNet-C severity",
    ] {
        assert!(svg.contains(title), "no panel titled {title:?}");
    }
}

/// `--probes` and `--sink coco` give each image's points where its composition
/// put them; `sketch` and `photo` draw them elsewhere, so the pair is refused
/// before any work, naming both.
#[test]
fn probes_and_coco_refuse_sketch_and_photo() {
    let tmp = tempfile::tempdir().unwrap();
    let problems = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--seed", "4", "--out"])
            .arg(&problems),
    );
    for (flags, axis) in [
        (vec!["--probes"], "sketch=1"),
        (vec!["--sink", "coco"], "photo=2"),
    ] {
        let out = crate::support::cli::run(
            bin()
                .arg("render")
                .arg(&problems)
                .args(&flags)
                .args(["--backend", "cpu", "-q", "--variants", axis, "--out"])
                .arg(tmp.path().join("out")),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flags:?} {axis}");
        let name = axis.split('=').next().unwrap();
        assert!(
            err.contains(&format!("--variants {name} with {}", flags.join(" "))),
            "{err}"
        );
        assert!(!tmp.path().join("out").join("manifest.jsonl").exists());
    }
}
