//! The `geomrender` binary: one way to start it, run it and read what it writes.

pub use super::paths::files;
use super::repo;
pub use super::rows::{assert_manifest_row, manifest_validator};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A command for the `geomrender` binary built with this test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_geomrender"))
}

/// `assets/examples/scenes.jsonl`, the bundled example scenes.
pub fn examples() -> PathBuf {
    repo().join("assets/examples/scenes.jsonl")
}

/// Runs `cmd` to completion, asserting that it did not panic (whatever its status).
pub fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("run geomrender");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "geomrender panicked:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `cmd` with `input` on its stdin, as [`run`] does. The input is written from
/// another thread, so a child that fills its stdout or stderr pipe cannot deadlock it.
pub fn run_with_stdin(cmd: &mut Command, input: Vec<u8>) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start geomrender");
    let mut stdin = child.stdin.take().expect("piped stdin");
    // A child that exits early closes the pipe; its status tells the test why.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for geomrender");
    writer.join().expect("stdin writer");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "geomrender panicked:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `geomrender score --manifest M --predictions P… --out OUT`, run to completion.
pub fn run_score<P: AsRef<Path>>(manifest: &Path, predictions: &[P], out: &Path) -> Output {
    let mut cmd = bin();
    cmd.arg("score")
        .arg("--manifest")
        .arg(manifest)
        .arg("--out")
        .arg(out);
    for p in predictions {
        cmd.arg("--predictions").arg(p.as_ref());
    }
    run(&mut cmd)
}

/// Runs `cmd`, asserting that it succeeded (its stderr is the failure message).
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `dir/manifest.jsonl` as text.
pub fn manifest_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("manifest.jsonl")).expect("manifest.jsonl")
}

/// The rows of `dir/manifest.jsonl`, each parsed as JSON.
pub fn manifest(dir: &Path) -> Vec<Value> {
    manifest_text(dir)
        .lines()
        .map(|l| serde_json::from_str(l).expect("manifest row is JSON"))
        .collect()
}

/// `geomrender generate --count 2 --seed 1` into `dir/name`, with line 2's first
/// step edited to name a formula that does not exist: its base image draws, but
/// the `info` axis's rewrite of its texts fails. Returns the file and line 2's id.
pub fn problems_with_an_unknown_formula(dir: &Path, name: &str) -> (PathBuf, String) {
    let path = dir.join(name);
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--seed", "1", "--out"])
            .arg(&path),
    );
    let mut lines: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    lines[1]["steps"][0]["formula"] = Value::from("no-such-formula");
    let text: String = lines.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&path, text).unwrap();
    (path, lines[1]["id"].as_str().unwrap().to_string())
}
