//! `--resume`: an interrupted run, carried on, ends with the files and manifest of
//! an uninterrupted one; damaged images are redrawn; a different input, options or
//! backend is refused before any work, and a refusal changes nothing on disk.

use crate::support::cli::{bin, problems_with_an_unknown_formula, run, run_with_stdin};
use crate::support::gpu::gpu_or_skip_part;
use std::path::Path;
use std::process::Output;

/// 12 problems with two opacity variants each: 36 images, 12 lines.
fn problems(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("problems.jsonl");
    let st = bin()
        .args(["generate", "--count", "12", "--seed", "21", "--out"])
        .arg(&path)
        .status()
        .unwrap();
    assert!(st.success());
    path
}

/// `geomrender render` of `input` into `out` on the CPU backend.
fn render_cli(input: &Path, out: &Path, resume: bool) -> Output {
    render_cli_with(input, out, resume, &["--backend", "cpu"])
}

/// `geomrender render` of `input` into `out` with `extra` arguments, which must name
/// the backend.
fn render_cli_with(input: &Path, out: &Path, resume: bool, extra: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.arg("render")
        .arg(input)
        .args(["--variants", "opacity=0.3,0.7", "-q", "--out"])
        .arg(out)
        .args(extra);
    if resume {
        cmd.arg("--resume");
    }
    run(&mut cmd)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `images/`, by name.
fn images(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir.join("images"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                read(&e.path()),
            )
        })
        .collect();
    v.sort();
    v
}

fn copy_images(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.join("images")).unwrap();
    for (name, bytes) in images(from) {
        std::fs::write(to.join("images").join(name), bytes).unwrap();
    }
}

#[test]
fn an_interrupted_run_resumes_to_the_same_bytes() {
    interrupted_run_resumes("cpu");
    if gpu_or_skip_part("the --backend gpu run; the cpu run passed").is_some() {
        interrupted_run_resumes("gpu");
    }
}

fn interrupted_run_resumes(backend: &str) {
    let render = |input: &Path, out: &Path, resume: bool| {
        render_cli_with(input, out, resume, &["--backend", backend])
    };
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let whole = tmp.path().join("whole");
    assert!(render(&input, &whole, false).status.success());
    let manifest = String::from_utf8(read(&whole.join("manifest.jsonl"))).unwrap();
    let rows: Vec<&str> = manifest.lines().collect();
    assert_eq!(rows.len(), 36);

    // What a kill leaves: images on disk, a partial manifest of 20 rows and a torn
    // 21st. The 15th image was damaged since, so 14 rows can be kept.
    let cut = tmp.path().join("cut");
    copy_images(&whole, &cut);
    // The torn row ends inside a multi-byte character (the first byte of "π").
    let mut partial = rows[..20].join("\n").into_bytes();
    partial.push(b'\n');
    partial.extend_from_slice(&rows[20].as_bytes()[..rows[20].len() / 2]);
    partial.push(0xCF);
    std::fs::write(cut.join(".manifest.jsonl.partial"), partial).unwrap();
    // A killed run has already written its options fingerprint.
    std::fs::copy(
        whole.join(".geomrender.run.json"),
        cut.join(".geomrender.run.json"),
    )
    .unwrap();
    let damaged: serde_json::Value = serde_json::from_str(rows[14]).unwrap();
    let damaged = cut.join(damaged["image"].as_str().unwrap());
    std::fs::write(&damaged, b"not a png").unwrap();

    let out = render(&input, &cut, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("14 kept from the resumed run, 22 new"),
        "{stderr}"
    );
    assert_eq!(read(&cut.join("manifest.jsonl")), manifest.as_bytes());
    assert_eq!(images(&cut), images(&whole));
    assert!(!cut.join(".manifest.jsonl.partial").exists());

    // Resuming a finished run renders nothing and changes nothing.
    let out = render(&input, &cut, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("36 kept from the resumed run, 0 new"),
        "{stderr}"
    );
    assert_eq!(read(&cut.join("manifest.jsonl")), manifest.as_bytes());
}

/// A variant that cannot be made has no manifest row, like one that is not made: a
/// run interrupted anywhere around it resumes to the uninterrupted run's manifest,
/// images and errors.jsonl (the failure reported again), and exits 1 as it did.
#[test]
fn a_run_with_a_failing_variant_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, _) = problems_with_an_unknown_formula(tmp.path(), "p.jsonl");
    let render = |out: &Path, resume: bool| {
        let mut cmd = bin();
        cmd.arg("render")
            .arg(&input)
            .args(["--variants", "info;opacity=0.25", "--backend", "cpu", "-q"])
            .arg("--out")
            .arg(out);
        if resume {
            cmd.arg("--resume");
        }
        let o = run(&mut cmd);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let whole = tmp.path().join("whole");
    render(&whole, false);
    let manifest = String::from_utf8(read(&whole.join("manifest.jsonl"))).unwrap();
    let errors = read(&whole.join("errors.jsonl"));
    let rows: Vec<&str> = manifest.lines().collect();
    // Line 1: base, info-text, opacity (info-image, its base again, is skipped);
    // line 2: base, opacity (its info variants, between the two, failed).
    assert_eq!(rows.len(), 5);
    let skipped = read(&whole.join("skipped.jsonl"));
    for cut in [0, 3, 4, 5] {
        let dir = tmp.path().join(format!("cut-{cut}"));
        copy_images(&whole, &dir);
        let partial: String = rows[..cut].iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(dir.join(".manifest.jsonl.partial"), partial).unwrap();
        std::fs::copy(
            whole.join(".geomrender.run.json"),
            dir.join(".geomrender.run.json"),
        )
        .unwrap();
        render(&dir, true);
        assert_eq!(
            read(&dir.join("manifest.jsonl")),
            manifest.as_bytes(),
            "cut {cut}"
        );
        assert_eq!(read(&dir.join("errors.jsonl")), errors, "cut {cut}");
        assert_eq!(read(&dir.join("skipped.jsonl")), skipped, "cut {cut}");
        assert_eq!(images(&dir), images(&whole), "cut {cut}");
    }
}

/// Every file of a directory (hidden ones included) with its bytes, recursively; the
/// lock file is left out (it holds the pid of its last holder).
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if !p.ends_with(".geomrender.lock") {
                out.push((p.strip_prefix(dir).unwrap().display().to_string(), read(&p)));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_different_input_options_or_backend_is_refused_and_nothing_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let dir = tmp.path().join("run");
    assert!(render_cli(&input, &dir, false).status.success());
    let before = snapshot(&dir);
    let refused = |out: Output, expect: &str| {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expect), "expected {expect:?} in {stderr}");
        assert!(stderr.contains("Nothing was changed"), "{stderr}");
        assert!(
            snapshot(&dir) == before,
            "the refusal changed files in --out"
        );
    };

    // Another backend.
    if gpu_or_skip_part("the --backend gpu refusal; the rest ran").is_some() {
        refused(
            render_cli_with(&input, &dir, true, &["--backend", "gpu"]),
            "backend: \"geomrender raster",
        );
    }
    // The same ids from other problems (seed 21 at depth 4 instead of 1..3).
    let other = tmp.path().join("depth4.jsonl");
    let st = bin()
        .args([
            "generate", "--count", "12", "--seed", "21", "--depth", "4", "--out",
        ])
        .arg(&other)
        .status()
        .unwrap();
    assert!(st.success());
    refused(render_cli(&other, &dir, true), "comes from no line");
    // Fewer lines, and lines in another order.
    let text = String::from_utf8(read(&input)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let fewer = tmp.path().join("fewer.jsonl");
    std::fs::write(&fewer, lines[..10].join("\n")).unwrap();
    refused(render_cli(&fewer, &dir, true), "comes from no line");
    let mut shuffled = lines.clone();
    shuffled.swap(0, 1);
    let reordered = tmp.path().join("reordered.jsonl");
    std::fs::write(&reordered, shuffled.join("\n")).unwrap();
    refused(render_cli(&reordered, &dir, true), "comes from no line");
    // Other options: variants, format, tolerance.
    let other_options: [&[&str]; 3] = [
        &["--backend", "cpu", "--variants", "opacity=0.3"],
        &["--backend", "cpu", "--format", "png,svg"],
        &["--backend", "cpu", "--tolerance", "0.2"],
    ];
    for extra in other_options {
        let mut cmd = bin();
        cmd.arg("render")
            .arg(&input)
            .args(["-q", "--resume", "--out"])
            .arg(&dir)
            .args(extra);
        if !extra.contains(&"--variants") {
            cmd.args(["--variants", "opacity=0.3,0.7"]);
        }
        refused(run(&mut cmd), "other options");
    }
    // A stream cannot be checked against the previous rows.
    let stream = run_with_stdin(
        bin()
            .args(["render", "-", "--backend", "cpu", "-q", "--resume"])
            .args(["--variants", "opacity=0.3,0.7", "--out"])
            .arg(&dir),
        read(&input),
    );
    refused(stream, "not a stream");

    // The original command still resumes: everything kept, nothing new.
    let out = render_cli(&input, &dir, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("36 kept from the resumed run, 0 new"),
        "{stderr}"
    );
    assert_eq!(
        read(&dir.join("manifest.jsonl")),
        before
            .iter()
            .find(|(n, _)| n == "manifest.jsonl")
            .unwrap()
            .1
    );
}
