//! Issue 11, defect 6: a tiny scene that asks for unbounded work (a stroke 64× the
//! canvas cut into 0.01 px dashes) is a line error on both backends, named in
//! `errors.jsonl`, while every other image of the run is written, in bounded time
//! and memory.

use crate::support::cli::{bin, files, manifest};
use crate::support::gpu::gpu_or_skip_part;
use crate::support::process::run_bounded;
use std::time::Duration;

const HOSTILE: &str = r##"{"id":"ID","width":64,"height":64,"items":[{"type":"path","d":"M 0 0 L 64 64","stroke":"#000000","stroke_width":4096,"dash":[0.01,0.01]}]}"##;
/// The same within the stroke-width limit: only the dash count stops it.
const FINE_DASHES: &str = r##"{"id":"ID","width":64,"height":64,"items":[{"type":"path","d":"M 0 0 L 64 64 L 0 64 L 64 0 L 0 0 L 0 64 L 64 64 L 64 0","stroke":"#000000","stroke_width":128,"line_cap":"round","dash":[0.001,0.001]}]}"##;

fn bounded_run(backend: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let mut lines = Vec::new();
    let mut good = Vec::new();
    let mut hostile = Vec::new();
    for i in 0..24u64 {
        // Hostile lines at 3, 9, 15 and 21, among 20 good scenes.
        if i % 6 == 2 {
            let id = format!("h{}", hostile.len() + 1);
            let template = if hostile.len() % 2 == 0 {
                HOSTILE
            } else {
                FINE_DASHES
            };
            lines.push(template.replace("ID", &id));
            hostile.push((i + 1, id));
        } else {
            let scene = geomrender::scene::synthetic::diagram_scene(i, 64);
            good.push(format!("{}.png", scene.id));
            lines.push(serde_json::to_string(&scene).unwrap());
        }
    }
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.path().join("out");
    let (code, peak_rss_kib) = run_bounded(
        bin()
            .arg("render")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args(["--backend", backend]),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{backend}: some lines failed");
    assert!(
        peak_rss_kib < 1 << 20,
        "{backend}: peak RSS {peak_rss_kib} KiB is over 1 GiB"
    );
    good.sort();
    assert_eq!(files(&out.join("images")), good, "{backend}");
    assert_eq!(manifest(&out).len(), 20, "{backend}");
    let errors: Vec<serde_json::Value> = std::fs::read_to_string(out.join("errors.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let named: Vec<(u64, String)> = errors
        .iter()
        .map(|e| {
            assert_eq!(e["file"], input.to_str().unwrap(), "{e}");
            assert_eq!(e["kind"], "scene", "{e}");
            (
                e["line"].as_u64().unwrap(),
                e["id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(named, hostile, "{backend}: {errors:?}");
    let messages: Vec<&str> = errors
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert!(
        messages[0].contains("stroke_width") && messages[0].contains("too wide"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("dash") && messages[1].contains("too fine"),
        "{messages:?}"
    );
}

#[test]
fn hostile_scenes_are_line_errors_on_the_cpu() {
    bounded_run("cpu");
}

#[test]
fn hostile_scenes_are_line_errors_on_the_gpu() {
    // The shared renderer only tells whether there is an adapter; the run is the binary's.
    if gpu_or_skip_part("").is_none() {
        return;
    }
    bounded_run("gpu");
}
