//! `geomrender generate` and `geomrender schema problem` end to end.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_geomrender"))
}

#[test]
fn generate_writes_exactly_n_lines_identically_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, name: &str| {
        let out = dir.path().join(name);
        let st = bin()
            .args([
                "generate",
                "--count",
                "120",
                "--seed",
                "5",
                "--depth",
                "1..3",
                "--branch-prob",
                "0.5",
            ])
            .args(["--threads", threads, "--out"])
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::read(out).unwrap()
    };
    let a = run("1", "a.jsonl");
    let b = run("4", "b.jsonl");
    assert_eq!(a, b);
    assert_eq!(a.iter().filter(|&&c| c == b'\n').count(), 120);
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    for line in String::from_utf8(a).unwrap().lines() {
        let p: geomrender::generate::Problem = serde_json::from_str(line).unwrap();
        assert!((1..=3).contains(&p.params.depth));
    }
}

#[test]
fn bad_options_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.jsonl");
    for args in [
        ["--depth", "0"],
        ["--depth", "2..9"],
        ["--branch-prob", "1.5"],
        ["--variablized", "-1"],
    ] {
        let o = bin()
            .args(["generate", "--count", "3", "--out"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
        assert!(!out.exists());
    }
}

#[test]
fn schema_problem_prints_the_schema() {
    let o = bin().args(["schema", "problem"]).output().unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["title"], "geomrender Problem");
}
