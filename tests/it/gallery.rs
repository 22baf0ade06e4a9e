//! `geomrender gallery` (issues 28 and 44) from the files a reader opens: every row
//! of a run becomes an index row and a card on its base's page (named by the base's
//! id), with the run's own images linked; bad manifest lines and changed or missing
//! images are named (file, line, id, reason) and the rest is still shown; a gallery
//! made again after the run shrank keeps no page or thumbnail of what is gone. The
//! filters' columns (audit verdict, relation, domain, answer, "Cannot be inferred")
//! hold each row's value; relation cards say what the item is and list its choices
//! once; `audit.md` links to the pages; an SVG-only run has thumbnails; a manifest
//! over 1 GiB, or whose bases' rows are apart, is streamed; a FIFO is refused at
//! once; memory does not grow with the rows. The browser's view of the same pages
//! is tests/python/test_browser.py.

use crate::support::cli::{bin, run};
use crate::support::process::run_bounded;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A rendered run of `count` problems with two font sizes, with `--gallery`.
fn gallery_run(tmp: &Path, count: u32) -> PathBuf {
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

/// A relation sweep of `count` items (text mode, "Cannot be inferred" among the
/// answers) with `args`.
fn relation_run(dir: &Path, count: u32, args: &[&str]) {
    let r = run(bin()
        .args([
            "sweep",
            "--task",
            "relations",
            "--count",
            &count.to_string(),
        ])
        .args(["--seed", "4", "--backend", "cpu", "-q", "--out"])
        .arg(dir)
        .args(args));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

fn manifest(dir: &Path) -> Vec<Value> {
    manifest_lines(&std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap())
}

fn manifest_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn write_manifest(dir: &Path, rows: &[Value]) {
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join("manifest.jsonl"), text).unwrap();
}

/// The JSON payload of a `GR.put(kind, …)` data file (`rows-K.js` and
/// `col-NAME.js` have a key first).
fn data(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join("gallery/data").join(name)).unwrap();
    let mut body = text[text.find(',').unwrap() + 1..]
        .trim_end()
        .trim_end_matches(");");
    if name.starts_with("rows-") || name.starts_with("col-") {
        body = &body[body.find(',').unwrap() + 1..];
    }
    serde_json::from_str(body).unwrap()
}

/// Every index row, from all the row chunks.
fn index_rows(dir: &Path) -> Vec<Value> {
    let meta = data(dir, "meta.js");
    (0..meta["chunks"].as_u64().unwrap())
        .flat_map(|k| {
            data(dir, &format!("rows-{k}.js"))
                .as_array()
                .unwrap()
                .clone()
        })
        .collect()
}

/// Each row's value in the filter column `name`, decoded as the page's script does.
fn column(dir: &Path, name: &str) -> Vec<String> {
    const DIGITS: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
    let meta = data(dir, "meta.js");
    let col = &meta["columns"][name];
    let width = col["width"].as_u64().unwrap() as usize;
    let keys: Vec<&str> = (col["values"].as_array().unwrap().iter())
        .map(|v| v["key"].as_str().unwrap())
        .collect();
    let digits = data(dir, &format!("col-{name}.js"));
    let digits = digits.as_str().unwrap().as_bytes();
    assert_eq!(
        digits.len(),
        width * meta["rows"].as_u64().unwrap() as usize
    );
    digits
        .chunks(width)
        .map(|c| {
            let code = c.iter().fold(0, |n, d| {
                n * 64 + DIGITS.bytes().position(|x| x == *d).unwrap()
            });
            keys[code].to_string()
        })
        .collect()
}

/// The page file of a base, named by the gallery's rule (written out here, for the
/// short ids these tests use): lower-case letters, digits and `-` kept, `.` kept
/// past the first byte, `_` doubled, an upper-case letter as `_` and its lower case,
/// any other byte as `_~` and two hex digits; then `.html`.
fn page(dir: &Path, base_id: &str) -> PathBuf {
    let mut name = String::new();
    for (i, b) in base_id.bytes().enumerate() {
        match b {
            b'a'..=b'z' | b'0'..=b'9' | b'-' => name.push(b as char),
            b'.' if i > 0 => name.push('.'),
            b'_' => name.push_str("__"),
            b'A'..=b'Z' => name.extend(['_', b.to_ascii_lowercase() as char]),
            _ => name += &format!("_~{b:02x}"),
        }
    }
    assert!(name.len() < 150, "a short id: {base_id}");
    dir.join("gallery/bases").join(name + ".html")
}

/// The card of row `id` on its page.
fn card(html: &str, id: &str) -> String {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no card {id}"));
    let rest = &html[at..];
    rest[..rest.find("</article>").unwrap()].to_string()
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
    let labels: Vec<(&str, u64)> = (meta["columns"]["label"]["values"].as_array().unwrap())
        .iter()
        .map(|l| (l["key"].as_str().unwrap(), l["n"].as_u64().unwrap()))
        .collect();
    assert_eq!(labels, [("base", 4), ("fontsize=8", 4), ("fontsize=24", 4)]);
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(data(&dir, "ids.js"), json!(ids));
    assert_eq!(column(&dir, "depth").len(), 12);
    for (row, entry) in rows.iter().zip(index_rows(&dir)) {
        assert_eq!(entry[0], row["id"]);
        // A base lists its Problem's shapes (from render's input): non-empty kinds.
        let shapes = entry[5].as_str().unwrap();
        assert_eq!(row["id"] == row["base_id"], !shapes.is_empty(), "{shapes}");
        // A problem's cell says its depth and question type.
        let facts = entry[6].as_str().unwrap();
        assert!(
            facts.contains(&format!("depth {}", row["params"]["depth"])),
            "{facts}"
        );
        // The thumbnail exists, fits 192 px, and keeps the aspect of the image.
        let thumb = dir.join(format!("gallery/thumbs/{}.png", entry[1].as_str().unwrap()));
        let (w, h) = image::image_dimensions(&thumb).unwrap();
        assert_eq!(
            (u64::from(w), u64::from(h)),
            (entry[2].as_u64().unwrap(), entry[3].as_u64().unwrap())
        );
        assert!(w <= 192 && h <= 192 && w.abs_diff(h) <= 1, "{w}×{h}");
        // The card is on the page named by the base id, anchored by the row id,
        // and links the run's own file.
        let base_id = row["base_id"].as_str().unwrap();
        let id = row["id"].as_str().unwrap();
        assert_eq!(entry[4], format!("bases/{base_id}.html#{id}"));
        let html = std::fs::read_to_string(page(&dir, base_id)).unwrap();
        let card = card(&html, id);
        let src = format!("src=\"../../{}\"", row["image"].as_str().unwrap());
        assert!(card.contains(&src), "{base_id}#{id}");
        assert!(card.contains(row["question"].as_str().unwrap()));
    }
    // The audit's note: a font size changes label sizes, and nothing undeclared.
    let html = std::fs::read_to_string(page(&dir, ids[0])).unwrap();
    assert_eq!(html.matches("<dd class=\"audit\">").count(), 2, "{html}");
    assert!(html.contains("label size"), "{html}");
    assert!(!html.contains("undeclared"));
    assert_eq!(
        column(&dir, "audit"),
        [["base image", "passed", "passed"]; 4].concat()
    );
}

#[test]
fn bad_lines_and_changed_images_are_named_and_the_rest_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 3);
    let mut text = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    let rows = manifest_lines(&text);
    // A line that is no row, one that is no JSON, a repeated id, a base id that
    // names no page.
    let mut bad_base = rows[8].clone();
    bad_base["id"] = "other__fontsize-8".into();
    bad_base["base_id"] = "../x".into();
    text.push_str(&format!(
        "{{\"id\": \"x\"}}\nnot json\n{}\n{bad_base}\n",
        rows[4]
    ));
    std::fs::write(dir.join("manifest.jsonl"), &text).unwrap();
    // One image changed after the run, one gone.
    let changed = rows[1]["image"].as_str().unwrap();
    std::fs::write(dir.join(changed), b"\x89PNG not the same").unwrap();
    std::fs::remove_file(dir.join(rows[2]["image"].as_str().unwrap())).unwrap();
    let out = run(bin().args(["gallery", "--no-audit"]).arg(&dir));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for needle in [
        format!(
            "manifest.jsonl:2 ({}): {changed}: its SHA-256 is",
            rows[1]["id"].as_str().unwrap()
        ),
        "manifest.jsonl:3 (".to_string(),
        "manifest.jsonl:10 (x): missing field `image` (column 11)".to_string(),
        "manifest.jsonl:11: not JSON: expected ident (column 2)".to_string(),
        format!(
            "manifest.jsonl:12 ({}): duplicate id",
            rows[4]["id"].as_str().unwrap()
        ),
        "manifest.jsonl:13 (other__fontsize-8): base_id \"../x\" is not an id".to_string(),
        "gallery of 9 images of 3 bases".to_string(),
    ] {
        assert!(err.contains(&needle), "{needle:?} not in\n{err}");
    }
    // The two rows are still listed, without a thumbnail, and say why on their page.
    let chunk = data(&dir, "rows-0.js");
    assert_eq!(chunk.as_array().unwrap().len(), 9);
    assert!(chunk[1][1].is_null() && chunk[2][1].is_null() && chunk[0][1].is_string());
    let html = std::fs::read_to_string(page(&dir, rows[0]["id"].as_str().unwrap())).unwrap();
    assert_eq!(html.matches("Image not readable").count(), 2);

    // Not a run: a clear error and status 2.
    let out = run(bin().args(["gallery"]).arg(tmp.path()));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no manifest.jsonl"));
}

#[test]
fn made_again_on_a_smaller_run_it_keeps_nothing_of_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 3);
    let thumbs = |d: &Path| walk(&d.join("gallery/thumbs"));
    assert_eq!(thumbs(&dir), 9);
    // A page an older gallery named by position goes too.
    std::fs::write(dir.join("gallery/bases/0.html"), "old").unwrap();
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
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(pages, ["s9-000000.html"]);
    // meta, ids, rows-0 and one file per filter column.
    assert_eq!(walk(&dir.join("gallery/data")), 3 + 11);
}

fn walk(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        n += if p.is_dir() { walk(&p) } else { 1 };
    }
    n
}

/// Issue 44: the index's columns for the audit's verdict, relation, domain,
/// subset, mode, answer and "Cannot be inferred" hold each row's value; a relation
/// card says what the item is, lists its choices once with the answer marked, and
/// states no depth.
#[test]
fn filter_columns_hold_each_rows_value_and_relation_cards_say_what_they_are() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("rel");
    relation_run(
        &dir,
        12,
        &[
            "--variants",
            "opacity=0.25;relabel=1",
            "--format",
            "png,svg",
            "--indeterminate",
            "0.3",
        ],
    );
    let mut rows = manifest(&dir);
    // A planted defect: a variant row drawing its base's very files (identical).
    let (b, v) = (0, 1);
    assert_eq!(rows[v]["base_id"], rows[b]["id"]);
    for k in ["image", "sha256", "svg", "svg_sha256"] {
        rows[v][k] = rows[b][k].clone();
    }
    write_manifest(&dir, &rows);
    let out = run(bin().arg("gallery").arg(&dir));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("1 flagged"), "{err}");

    let text = |r: &Value, k: &str| r[k].as_str().unwrap_or("—").to_string();
    let audit: Vec<&str> = (0..rows.len())
        .map(|i| match (i, rows[i]["id"] == rows[i]["base_id"]) {
            (_, true) => "base image",
            (1, _) => "flagged",
            _ => "passed",
        })
        .collect();
    assert_eq!(column(&dir, "audit"), audit);
    for k in ["relation", "domain", "subset", "mode", "answer"] {
        let want: Vec<String> = rows.iter().map(|r| text(r, k)).collect();
        assert_eq!(column(&dir, k), want, "{k}");
    }
    let cbi: Vec<&str> = (rows.iter())
        .map(|r| match r["answer_text"] == "Cannot be inferred" {
            true => "yes",
            false => "no",
        })
        .collect();
    assert!(cbi.contains(&"yes") && cbi.contains(&"no"), "{cbi:?}");
    assert_eq!(column(&dir, "cbi"), cbi);
    assert!(column(&dir, "depth").iter().all(|d| d == "—"));
    // The index shows the filters that have something to choose from.
    let index = std::fs::read_to_string(dir.join("gallery/index.html")).unwrap();
    for f in ["audit", "relation", "domain", "answer", "cbi"] {
        assert!(index.contains(&format!("id=\"f-{f}\"")), "{f}");
    }
    assert!(!index.contains("id=\"f-depth\"") && !index.contains("id=\"f-mode\""));

    for (row, entry) in rows.iter().zip(index_rows(&dir)) {
        let facts = entry[6].as_str().unwrap();
        let words = format!(
            "{} · {} · {} · {}",
            text(row, "relation"),
            text(row, "domain"),
            text(row, "subset"),
            text(row, "mode")
        );
        assert!(
            facts.ends_with(&words) && !facts.contains("depth"),
            "{facts}"
        );
        let html = std::fs::read_to_string(page(&dir, row["base_id"].as_str().unwrap())).unwrap();
        assert!(!html.contains("Depth") && html.contains("<dt>Relation</dt>"));
        let card = card(&html, row["id"].as_str().unwrap());
        // The choices once: not in the question, in the list, the answer marked.
        assert!(!card.contains("Answer choices"), "{card}");
        let choices = row["choices"].as_array().unwrap();
        assert_eq!(card.matches("<li").count(), choices.len(), "{card}");
        let marked = format!(
            "<li class=\"answer\"><strong>{}</strong>",
            text(row, "answer_text")
        );
        assert_eq!(card.matches("class=\"answer\"><strong>").count(), 1);
        assert!(card.contains(&marked), "{card}");
        assert!(card.contains(&format!(
            "<dd class=\"answer\">{}. {}</dd>",
            text(row, "answer"),
            text(row, "answer_text")
        )));
        assert!(card.contains(&words), "{card}");
    }
}

/// Issue 44: `audit.md` links each variant value to its images on the index and
/// each flagged row to its card; the links resolve where audit.md is, also when it
/// is written elsewhere (`--out`), and without a gallery audit.md says so.
#[test]
fn audit_md_links_rows_to_their_base_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 3);
    let mut rows = manifest(&dir);
    for k in ["image", "sha256"] {
        rows[1][k] = rows[0][k].clone();
    }
    write_manifest(&dir, &rows);
    // Before the gallery is made again: audit.md links to it but says it is stale.
    std::fs::remove_dir_all(dir.join("gallery")).unwrap();
    let out = run(bin().arg("audit").arg(&dir));
    assert_eq!(out.status.code(), Some(1));
    let md = std::fs::read_to_string(dir.join("audit.md")).unwrap();
    assert!(
        md.contains("does not have yet: `geomrender gallery DIR` makes it"),
        "{md}"
    );
    let out = run(bin().arg("gallery").arg(&dir));
    assert!(out.status.success());
    let elsewhere = tmp.path().join("reports/audit");
    run(bin().arg("audit").arg(&dir).arg("--out").arg(&elsewhere));
    for at in [dir.clone(), elsewhere] {
        let md = std::fs::read_to_string(at.join("audit.md")).unwrap();
        assert!(!md.contains("does not have yet"), "{md}");
        let links: Vec<&str> = md
            .split("](")
            .skip(1)
            .map(|s| &s[..s.find(')').unwrap()])
            .collect();
        // A link per variant value and one per flagged row.
        assert_eq!(links.len(), 2 + 1, "{md}");
        for link in links {
            let (file, anchor) = link.split_once('#').unwrap();
            let path = at.join(file);
            let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{link}: {e}"));
            if file.ends_with("index.html") {
                assert!(
                    anchor.starts_with("axis=fontsize&value=fontsize%3D"),
                    "{link}"
                );
            } else {
                assert_eq!(anchor, rows[1]["id"].as_str().unwrap());
                assert!(html.contains(&format!("id=\"{anchor}\"")), "{link}");
                assert!(card(&html, anchor).contains("identical to the base"));
            }
        }
    }
}

/// Issue 44 (#13): a run of SVG files only (`--format svg`) has a gallery: every
/// row a thumbnail drawn from its SVG, and the audit reads the SVGs themselves.
#[test]
fn an_svg_only_run_has_thumbnails_and_an_audit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("svg");
    let r = run(bin()
        .args([
            "sweep", "--count", "3", "--seed", "2", "-q", "--format", "svg",
        ])
        .args([
            "--variants",
            "fontsize=8;opacity=0.25",
            "--gallery",
            "--out",
        ])
        .arg(&dir));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(
        err.contains("0 rows or images not shown") && err.contains("0 flagged"),
        "{err}"
    );
    let rows = manifest(&dir);
    assert!(
        rows.iter()
            .all(|r| r["image"].as_str().unwrap().ends_with(".svg"))
    );
    for (row, entry) in rows.iter().zip(index_rows(&dir)) {
        let thumb = dir.join(format!("gallery/thumbs/{}.png", entry[1].as_str().unwrap()));
        let img = image::open(&thumb).unwrap().to_rgba8();
        assert_eq!(img.dimensions(), (192, 192), "{}", row["id"]);
        // Drawn: the shapes' fills, lines and labels on the white background.
        let drawn = img
            .pixels()
            .filter(|p| p[0].min(p[1]).min(p[2]) < 230)
            .count();
        assert!(drawn > 1000, "{}: {drawn} pixels drawn", row["id"]);
    }
    let audited: Vec<Value> =
        manifest_lines(&std::fs::read_to_string(dir.join("audit.jsonl")).unwrap());
    assert_eq!(audited.len(), 6);
    assert!(audited.iter().all(|r| r["source"] == "svg"), "{audited:?}");
}

/// Issue 44 (#13): `--problems` naming a FIFO is refused at once with a message
/// that says so, for the gallery and the audit (bounded by `timeout`: the old
/// reader waited on the FIFO for ever).
#[test]
fn a_fifo_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 2);
    let fifo = tmp.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for cmd in ["gallery", "audit"] {
        let out = run(std::process::Command::new("timeout")
            .args(["-s", "KILL", "60", env!("CARGO_BIN_EXE_geomrender"), cmd])
            .arg(&dir)
            .arg("--problems")
            .arg(&fifo));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains("fifo: is a device, FIFO or socket, not a regular file"),
            "{err}"
        );
        assert!(!err.contains("--resume"), "{err}");
    }
}

/// Issue 44 (#9): a manifest over 1 GiB is read, not refused: 1.1 GiB whose middle
/// is one over-long line (a sparse stretch of NUL bytes, no disk used), between
/// real rows. The rows around it are shown and audited, the line named. The rows
/// after it include a variant whose base came before other bases, so its page and
/// audit read the base back from its offset.
#[test]
fn a_manifest_over_1_gib_is_streamed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 2);
    let rows = manifest(&dir);
    let line = |r: &Value| format!("{r}\n");
    // base A, its first variant, base B and its variants | hole | A's last variant
    let head: String = [0, 1, 3, 4, 5].iter().map(|&i| line(&rows[i])).collect();
    let tail = line(&rows[2]);
    let path = dir.join("manifest.jsonl");
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::File::create(&path).unwrap();
        f.write_all(head.as_bytes()).unwrap();
        f.seek(SeekFrom::Start(1_100 << 20)).unwrap();
        f.write_all(b"\n").unwrap();
        f.write_all(tail.as_bytes()).unwrap();
    }
    assert!(std::fs::metadata(&path).unwrap().len() > 1 << 30);
    let problems = tmp.path().join("p.jsonl");
    let out = run(bin()
        .arg("gallery")
        .arg(&dir)
        .arg("--problems")
        .arg(&problems));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("manifest.jsonl:6: line longer than"), "{err}");
    assert!(err.contains("gallery of 6 images of 2 bases"), "{err}");
    assert!(
        err.contains("audited 4 variant rows of 2 bases: 0 flagged, 1 lines not audited"),
        "{err}"
    );
    // A's page has its three images, base first, with the last one's note.
    let a = rows[0]["id"].as_str().unwrap();
    let html = std::fs::read_to_string(page(&dir, a)).unwrap();
    assert_eq!(html.matches("<article").count(), 3);
    assert!(
        html.find(&format!("id=\"{a}\""))
            < html.find(&format!("id=\"{}\"", rows[2]["id"].as_str().unwrap()))
    );
    assert!(card(&html, rows[2]["id"].as_str().unwrap()).contains("label size"));
    assert!(html.contains("<small>1 of 2</small>"), "{html}");
}

/// Issue 44 (#14): the peak memory of `gallery` and `audit` does not grow with the
/// rows: a run's 30 rows replicated (new ids, the same files) to 3,000 and to
/// 30,000 rows, each made into a gallery and audited; the larger peak stays within
/// 1.5× the smaller's (the old readers held every row, about 3 KB each: 90 MB more
/// here). A gallery killed mid-way says what it removed, not how to resume.
#[test]
fn memory_does_not_grow_with_the_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gallery_run(tmp.path(), 10);
    let rows = manifest(&dir);
    let mut peaks = Vec::new();
    for copies in [100, 1000] {
        let big = tmp.path().join(format!("x{copies}"));
        replicate(&dir, &rows, &big, copies);
        let mut peak = 0;
        for args in [&["gallery", "--no-audit"][..], &["audit"][..]] {
            let (code, kib) = run_bounded(bin().args(args).arg(&big), Duration::from_secs(600));
            assert_eq!(code, Some(0), "{args:?} on {copies} copies");
            peak = peak.max(kib);
        }
        peaks.push(peak);
    }
    eprintln!("peak RSS: {peaks:?} KiB for 3,000 and 30,000 rows");
    assert!(peaks[1] * 2 < peaks[0] * 3, "{peaks:?}");
    let big = tmp.path().join("x1000");
    let pages = big.join("gallery/bases");
    std::fs::remove_dir_all(big.join("gallery")).unwrap();
    let (status, err) = crate::support::process::signal_when(
        bin().args(["gallery", "--no-audit"]).arg(&big),
        || std::fs::read_dir(&pages).is_ok_and(|mut d| d.next().is_some()),
        libc::SIGTERM,
    );
    assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{err}");
    assert!(err.contains("interrupted by SIGTERM: removed"), "{err}");
    assert!(!err.contains("--resume"), "{err}");
}

/// `rows` of the run in `from` as `copies` runs' worth under new ids in `to`, the
/// images hard-linked (the same files, so every row is intact).
fn replicate(from: &Path, rows: &[Value], to: &Path, copies: usize) {
    std::fs::create_dir_all(to.join("images")).unwrap();
    for e in std::fs::read_dir(from.join("images")).unwrap() {
        let p = e.unwrap().path();
        std::fs::hard_link(&p, to.join("images").join(p.file_name().unwrap())).unwrap();
    }
    let mut text = String::new();
    for k in 0..copies {
        for r in rows {
            let mut r = r.clone();
            for f in ["id", "base_id"] {
                r[f] = format!("c{k}-{}", r[f].as_str().unwrap()).into();
            }
            text.push_str(&format!("{r}\n"));
        }
    }
    std::fs::write(to.join("manifest.jsonl"), text).unwrap();
}

/// Issue 44 (#9): `--gallery` that cannot make one says so before the run starts,
/// not after it: a `gallery` that is a link (to a victim left untouched).
#[test]
fn a_gallery_that_cannot_be_written_is_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let victim = tmp.path().join("victim");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&victim).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("gallery")).unwrap();
    let r = run(bin()
        .args([
            "sweep",
            "--count",
            "2",
            "-q",
            "--backend",
            "cpu",
            "--gallery",
            "--out",
        ])
        .arg(&out));
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--gallery") && err.contains("symbolic link"),
        "{err}"
    );
    assert!(!out.join("manifest.jsonl").exists() && !out.join("problems.jsonl").exists());
    assert!(std::fs::read_dir(&victim).unwrap().next().is_none());
}
