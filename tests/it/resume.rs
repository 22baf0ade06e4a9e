//! `--resume`: an interrupted run, carried on, ends with the files and manifest of
//! an uninterrupted one; damaged images are redrawn; a different input or backend
//! is refused without losing the previous rows.

use crate::support::cli::{bin, run};
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

#[test]
fn a_different_input_or_backend_is_refused_and_nothing_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let dir = tmp.path().join("run");
    assert!(render_cli(&input, &dir, false).status.success());
    let manifest = read(&dir.join("manifest.jsonl"));

    // Another backend: refused before anything is moved.
    let mut cmd = bin();
    let out = cmd
        .arg("render")
        .arg(&input)
        .args([
            "--variants",
            "opacity=0.3,0.7",
            "--backend",
            "gpu",
            "-q",
            "--resume",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if gpu_or_skip_part("the --backend gpu refusal; the rest ran").is_some() {
        assert!(!out.status.success());
        assert!(stderr.contains("same --backend"), "{stderr}");
        assert_eq!(read(&dir.join("manifest.jsonl")), manifest);
    }

    // Fewer lines than the run being resumed: an error naming the first missing
    // image; the final manifest is not replaced by a short one, and the previous
    // rows survive in the partial manifest, so the original command still finishes.
    let text = String::from_utf8(read(&input)).unwrap();
    let fewer = tmp.path().join("fewer.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&fewer, lines[..10].join("\n")).unwrap();
    let out = render_cli(&fewer, &dir, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("differ from the resumed run"), "{stderr}");
    assert!(!dir.join("manifest.jsonl").exists());
    assert_eq!(read(&dir.join(".manifest.jsonl.partial")), manifest);

    let out = render_cli(&input, &dir, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read(&dir.join("manifest.jsonl")), manifest);

    // Lines in another order: refused where the order first differs.
    let mut shuffled = lines.clone();
    shuffled.swap(0, 1);
    let reordered = tmp.path().join("reordered.jsonl");
    std::fs::write(&reordered, shuffled.join("\n")).unwrap();
    let out = render_cli(&reordered, &dir, true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("where the previous manifest has"),
        "{stderr}"
    );
    assert_eq!(read(&dir.join(".manifest.jsonl.partial")), manifest);

    // A new image drawn before a kept one: refused, and the rows drawn in between
    // are taken back out of the partial manifest.
    let part = tmp.path().join("part");
    copy_images(&dir, &part);
    let six: String = String::from_utf8(manifest.clone())
        .unwrap()
        .lines()
        .take(6)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(part.join(".manifest.jsonl.partial"), &six).unwrap();
    let mut shuffled = lines.clone();
    shuffled.swap(0, 2);
    std::fs::write(&reordered, shuffled.join("\n")).unwrap();
    // One line per step, so the new line's rows reach the manifest before the
    // reader meets the kept one.
    let out = render_cli_with(
        &reordered,
        &part,
        true,
        &["--backend", "cpu", "--chunk-lines", "1"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("after a new image"), "{stderr}");
    assert_eq!(read(&part.join(".manifest.jsonl.partial")), six.as_bytes());
}
