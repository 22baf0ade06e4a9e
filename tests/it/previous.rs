//! An earlier run in `--out`: the same command renders over it, another input or
//! other options are refused with nothing changed, `--force` replaces it and leaves
//! none of its files; `audit` reads a problems file only for the lines the run drew,
//! and only images that are there with their recorded hash.

use crate::support::cli::{bin, manifest, run, run_ok, run_with_stdin};
use std::path::{Path, PathBuf};
use std::process::Output;

/// `geomrender generate` of `count` problems with `seed` into `path`.
fn generate(path: &Path, count: u32, seed: u32) -> PathBuf {
    run_ok(
        bin()
            .args([
                "generate",
                "--count",
                &count.to_string(),
                "--seed",
                &seed.to_string(),
                "--out",
            ])
            .arg(path),
    );
    path.to_path_buf()
}

/// `geomrender render INPUT --out OUT --variants opacity=0.25 --backend cpu` + `extra`.
fn render(input: &Path, out: &Path, extra: &[&str]) -> Output {
    run(bin()
        .arg("render")
        .arg(input)
        .args([
            "--variants",
            "opacity=0.25",
            "--backend",
            "cpu",
            "-q",
            "--out",
        ])
        .arg(out)
        .args(extra))
}

/// `geomrender sweep --count 4 --seed SEED --out OUT --backend cpu` + `extra`.
fn sweep(out: &Path, seed: u32, extra: &[&str]) -> Output {
    run(bin()
        .args(["sweep", "--count", "4", "--backend", "cpu", "-q", "--seed"])
        .arg(seed.to_string())
        .arg("--out")
        .arg(out)
        .args(extra))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn image_count(out: &Path) -> usize {
    std::fs::read_dir(out.join("images")).unwrap().count()
}

#[test]
fn another_input_is_refused_and_nothing_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let first = generate(&tmp.path().join("a.jsonl"), 5, 1);
    let other = generate(&tmp.path().join("b.jsonl"), 3, 2);
    assert!(render(&first, &out, &[]).status.success());
    let before = std::fs::read(out.join("manifest.jsonl")).unwrap();
    let images = image_count(&out);

    let o = render(&other, &out, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    for says in ["other input", "--resume", "--force", "manifest.jsonl"] {
        assert!(
            err.contains(says),
            "the refusal does not say {says:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(out.join("manifest.jsonl")).unwrap(), before);
    assert_eq!(image_count(&out), images);

    // Other options: refused as well, naming what differs.
    let o = render(&first, &out, &["--format", "png,svg"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("other options"), "{}", stderr(&o));
    // A stream cannot be checked against the earlier rows.
    let o = run_with_stdin(
        bin()
            .args([
                "render",
                "-",
                "--variants",
                "opacity=0.25",
                "--backend",
                "cpu",
                "-q",
                "--out",
            ])
            .arg(&out),
        std::fs::read(&first).unwrap(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(out.join("manifest.jsonl")).unwrap(), before);

    // The same command again renders over it, to the same bytes.
    assert!(render(&first, &out, &[]).status.success());
    assert_eq!(std::fs::read(out.join("manifest.jsonl")).unwrap(), before);
}

#[test]
fn force_replaces_the_earlier_run_and_leaves_none_of_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    assert!(
        sweep(&out, 3, &["--variants", "opacity;fontsize"])
            .status
            .success()
    );
    run_ok(bin().arg("audit").arg(&out));
    assert!(out.join("audit.md").exists() && out.join("contact").exists());
    std::fs::write(out.join("contact").join("notes.txt"), "mine").unwrap();
    std::fs::write(out.join("mine.txt"), "mine").unwrap();

    let other = generate(&tmp.path().join("b.jsonl"), 3, 2);
    let o = render(&other, &out, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        out.join("problems.jsonl").exists(),
        "a refusal removed a file"
    );

    let o = render(&other, &out, &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = manifest(&out);
    assert_eq!(rows.len(), 6, "3 problems, each with one variant");
    assert_eq!(
        image_count(&out),
        rows.len(),
        "images not in the manifest stayed"
    );
    for stale in [
        "problems.jsonl",
        "audit.md",
        "audit.jsonl",
        "contact/opacity.png",
    ] {
        assert!(
            !out.join(stale).exists(),
            "{stale} of the earlier run stayed"
        );
    }
    // What is not ours stays.
    assert!(out.join("mine.txt").exists() && out.join("contact/notes.txt").exists());
    run_ok(bin().arg("audit").arg(&out).arg("--problems").arg(&other));

    // --resume and --force exclude each other.
    let o = render(&other, &out, &["--force", "--resume"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_sweep_of_other_problems_is_refused_before_its_problems_are_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    assert!(sweep(&out, 3, &[]).status.success());
    let problems = std::fs::read(out.join("problems.jsonl")).unwrap();
    let rows = std::fs::read(out.join("manifest.jsonl")).unwrap();

    let o = sweep(&out, 4, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("other problems"), "{}", stderr(&o));
    assert_eq!(std::fs::read(out.join("problems.jsonl")).unwrap(), problems);
    assert_eq!(std::fs::read(out.join("manifest.jsonl")).unwrap(), rows);

    // The same sweep again, and --resume, carry on; --force replaces.
    assert!(sweep(&out, 3, &[]).status.success());
    assert!(sweep(&out, 3, &["--resume"]).status.success());
    assert_eq!(std::fs::read(out.join("manifest.jsonl")).unwrap(), rows);
    let o = sweep(&out, 4, &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(std::fs::read(out.join("problems.jsonl")).unwrap(), problems);
    assert_eq!(image_count(&out), manifest(&out).len());
}

#[test]
fn audit_reads_only_the_problems_and_images_the_run_drew() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let input = generate(&tmp.path().join("a.jsonl"), 4, 5);
    assert!(render(&input, &out, &[]).status.success());
    run_ok(bin().arg("audit").arg(&out).arg("--problems").arg(&input));

    // The same ids, other problems: no row is audited against them.
    let text = std::fs::read_to_string(&input).unwrap();
    let other = generate(&tmp.path().join("b.jsonl"), 4, 6);
    let ids: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let renamed: String = std::fs::read_to_string(&other)
        .unwrap()
        .lines()
        .zip(&ids)
        .map(|(l, id)| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["id"] = id.clone().into();
            format!("{v}\n")
        })
        .collect();
    let forged = tmp.path().join("forged.jsonl");
    std::fs::write(&forged, renamed).unwrap();
    let o = run(bin().arg("audit").arg(&out).arg("--problems").arg(&forged));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let audit = std::fs::read_to_string(out.join("audit.md")).unwrap();
    assert!(stderr(&o).contains("input_sha256"), "{}", stderr(&o));
    assert!(
        audit.contains("not audited") || stderr(&o).contains("not audited"),
        "{audit}"
    );

    // An image deleted, another replaced by its base's bytes: both rows not audited.
    let rows = manifest(&out);
    let variants: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["variant"].as_object().is_some_and(|v| !v.is_empty()))
        .collect();
    let gone = variants[0]["image"].as_str().unwrap();
    std::fs::remove_file(out.join(gone)).unwrap();
    let swapped = variants[1];
    let base = rows.iter().find(|r| r["id"] == swapped["base_id"]).unwrap();
    std::fs::copy(
        out.join(base["image"].as_str().unwrap()),
        out.join(swapped["image"].as_str().unwrap()),
    )
    .unwrap();
    let o = run(bin().arg("audit").arg(&out));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(gone), "the deleted image is not named: {err}");
    assert!(
        err.contains(swapped["image"].as_str().unwrap()),
        "the replaced image is not named: {err}"
    );
}

/// `audit` and `gallery` wait for no run: while one holds the directory they are
/// refused, naming who holds it, and write nothing.
#[test]
fn audit_and_gallery_take_the_run_directorys_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    assert!(sweep(&out, 3, &[]).status.success());
    let lock = crate::support::hold_run_lock(&out);
    for cmd in ["audit", "gallery"] {
        let o = run(bin().arg(cmd).arg(&out));
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert!(stderr(&o).contains("in use"), "{cmd}: {}", stderr(&o));
    }
    assert!(!out.join("audit.md").exists() && !out.join("gallery").exists());
    drop(lock);
    run_ok(bin().arg("audit").arg(&out));
}
