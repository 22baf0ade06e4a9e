//! `geomrender gallery` (issue 28) from the files a reader opens: every row of a run
//! becomes an index row and a card on its base's page, with the run's own images
//! linked; bad manifest lines and changed or missing images are named (file, line,
//! id, reason) and the rest is still shown; a gallery made again after the run
//! shrank keeps no page or thumbnail of what is gone. The browser's view of the
//! same pages is tests/python/test_browser.py.

use crate::support::cli::{bin, run};
use serde_json::Value;
use std::path::Path;

/// A rendered run of `count` problems with two font sizes, with `--gallery`.
fn gallery_run(tmp: &Path, count: u32) -> std::path::PathBuf {
    let problems = tmp.join("p.jsonl");
    let g = run(bin()
        .args([
            "generate",
            "--seed",
            "9",
            "--count",
            &count.to_string(),
            "--out",
        ])
        .arg(&problems));
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    let dir = tmp.join("run");
    let r = run(bin()
        .arg("render")
        .arg(&problems)
        .args([
            "--backend",
            "cpu",
            "-q",
            "--variants",
            "fontsize=8,24",
            "--gallery",
            "--out",
        ])
        .arg(&dir));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    dir
}

fn manifest(dir: &Path) -> Vec<Value> {
    (std::fs::read_to_string(dir.join("manifest.jsonl"))
        .unwrap()
        .lines())
    .map(|l| serde_json::from_str(l).unwrap())
    .collect()
}

/// The JSON payload of a `GR.put(kind, …)` data file.
fn data(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join("gallery/data").join(name)).unwrap();
    let start = text.find([',']).unwrap() + 1;
    let body = text[start..].trim_end().trim_end_matches(");");
    // rows-K.js has the chunk number first.
    let body = match name.starts_with("rows-") {
        true => &body[body.find(',').unwrap() + 1..],
        false => body,
    };
    serde_json::from_str(body).unwrap()
}

#[test]
fn every_row_is_indexed_and_carded_with_its_image_linked() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 4);
    let rows = manifest(&dir);
    assert_eq!(rows.len(), 12);
    let meta = data(&dir, "meta.js");
    assert_eq!(
        (meta["rows"].as_u64(), meta["bases"].as_u64()),
        (Some(12), Some(4))
    );
    let labels: Vec<(&str, u64)> = (meta["labels"].as_array().unwrap().iter())
        .map(|l| (l["key"].as_str().unwrap(), l["n"].as_u64().unwrap()))
        .collect();
    assert_eq!(labels, [("base", 4), ("fontsize=8", 4), ("fontsize=24", 4)]);
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(data(&dir, "ids.js"), serde_json::json!(ids));
    let chunk = data(&dir, "rows-0.js");
    for (row, entry) in rows.iter().zip(chunk.as_array().unwrap()) {
        assert_eq!(entry[0], row["id"]);
        // A base lists its Problem's shapes (from render's input): non-empty kinds.
        let shapes = entry[5].as_str().unwrap();
        assert_eq!(row["id"] == row["base_id"], !shapes.is_empty(), "{shapes}");
        // The thumbnail exists, fits 192 px, and keeps the aspect of the image.
        let thumb = dir.join(format!("gallery/thumbs/{}.png", entry[1].as_str().unwrap()));
        let (w, h) = image::image_dimensions(&thumb).unwrap();
        assert_eq!(
            (u64::from(w), u64::from(h)),
            (entry[2].as_u64().unwrap(), entry[3].as_u64().unwrap())
        );
        assert!(w <= 192 && h <= 192 && w.abs_diff(h) <= 1, "{w}×{h}");
        // The card on the base page links the run's own file.
        let (page, anchor) = entry[4].as_str().unwrap().split_once('#').unwrap();
        let html = std::fs::read_to_string(dir.join("gallery").join(page)).unwrap();
        let card = &html[html.find(&format!("id=\"{anchor}\"")).unwrap()..];
        let src = format!("src=\"../../{}\"", row["image"].as_str().unwrap());
        assert!(
            card[..card.find("</article>").unwrap()].contains(&src),
            "{page}#{anchor}"
        );
        assert!(card.contains(row["question"].as_str().unwrap()));
    }
    // The audit's note: a font size changes label sizes, and nothing undeclared.
    let page = std::fs::read_to_string(dir.join("gallery/bases/0.html")).unwrap();
    assert_eq!(page.matches("<dd class=\"audit\">").count(), 2, "{page}");
    assert!(page.contains("label size"), "{page}");
    assert!(!page.contains("undeclared"));
}

#[test]
fn bad_lines_and_changed_images_are_named_and_the_rest_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 3);
    let mut text = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    text.push_str("{\"id\": \"x\"}\nnot json\n");
    std::fs::write(dir.join("manifest.jsonl"), &text).unwrap();
    let rows = manifest_lines(&text);
    // One image changed after the run, one gone.
    let changed = rows[1]["image"].as_str().unwrap();
    std::fs::write(dir.join(changed), b"\x89PNG not the same").unwrap();
    std::fs::remove_file(dir.join(rows[2]["image"].as_str().unwrap())).unwrap();
    let out = run(bin().args(["gallery", "--no-audit"]).arg(&dir));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "manifest.jsonl:2 ({}): {changed}: its SHA-256 is",
            rows[1]["id"].as_str().unwrap()
        )),
        "{err}"
    );
    assert!(err.contains("manifest.jsonl:3 ("), "{err}");
    assert!(
        err.contains("manifest.jsonl:10 (x): missing field image"),
        "{err}"
    );
    assert!(err.contains("manifest.jsonl:11: not JSON"), "{err}");
    assert!(err.contains("gallery of 9 images of 3 bases"), "{err}");
    // The two rows are still listed, without a thumbnail, and say why on their page.
    let chunk = data(&dir, "rows-0.js");
    assert_eq!(chunk.as_array().unwrap().len(), 9);
    assert!(chunk[1][1].is_null() && chunk[2][1].is_null() && chunk[0][1].is_string());
    let page = std::fs::read_to_string(dir.join("gallery/bases/0.html")).unwrap();
    assert_eq!(page.matches("Image not readable").count(), 2);

    // Not a run: a clear error and status 2.
    let out = run(bin().args(["gallery"]).arg(tmp.path()));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no manifest.jsonl"));
}

fn manifest_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn made_again_on_a_smaller_run_it_keeps_nothing_of_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 3);
    let thumbs = |d: &Path| walk(&d.join("gallery/thumbs"));
    assert_eq!(thumbs(&dir), 9);
    let text = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    let first: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("manifest.jsonl"), first).unwrap();
    let out = run(bin().args(["gallery", "--no-audit"]).arg(&dir));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(thumbs(&dir), 3);
    let pages: Vec<_> = std::fs::read_dir(dir.join("gallery/bases"))
        .unwrap()
        .collect();
    assert_eq!(pages.len(), 1);
    assert_eq!(walk(&dir.join("gallery/data")), 4); // meta, cols, rows-0, ids
}

fn walk(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        n += if p.is_dir() { walk(&p) } else { 1 };
    }
    n
}
