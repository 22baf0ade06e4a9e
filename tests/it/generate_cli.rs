//! `geomrender generate` and `geomrender schema problem` end to end.

use crate::support::cli::bin;

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

#[test]
fn shards_concatenate_to_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    // generate: three shards of 23 problems.
    let gen_file = |shard: &str, name: &str| {
        let out = dir.path().join(name);
        let st = bin()
            .args(["generate", "--count", "23", "--seed", "9", "--shard", shard])
            .arg("--out")
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success(), "generate --shard {shard}");
        std::fs::read(out).unwrap()
    };
    let whole = gen_file("0/1", "all.jsonl");
    let parts: Vec<u8> = ["0/3", "1/3", "2/3"]
        .iter()
        .enumerate()
        .flat_map(|(i, s)| gen_file(s, &format!("part{i}.jsonl")))
        .collect();
    assert_eq!(parts, whole);

    // sweep: two shards of 5 problems, rendered on the CPU with one variant axis.
    let sweep = |shard: Option<&str>, name: &str| {
        let out = dir.path().join(name);
        let mut cmd = bin();
        cmd.args([
            "sweep",
            "--count",
            "5",
            "--seed",
            "9",
            "-q",
            "--backend",
            "cpu",
        ])
        .args(["--variants", "opacity=0.25", "--out"])
        .arg(&out);
        if let Some(s) = shard {
            cmd.args(["--shard", s]);
        }
        let st = cmd.status().unwrap();
        assert!(st.success(), "sweep --shard {shard:?}");
        // A shard writes under OUT/shards/I-of-N/.
        let at = match shard {
            Some(s) => out.join("shards").join(s.replace('/', "-of-")),
            None => out,
        };
        let read = |f: &str| std::fs::read(at.join(f)).unwrap();
        (read("problems.jsonl"), read("manifest.jsonl"))
    };
    let (problems, manifest) = sweep(None, "sweep-all");
    let (p0, m0) = sweep(Some("0/2"), "sweep");
    let (p1, m1) = sweep(Some("1/2"), "sweep");
    assert_eq!([p0, p1].concat(), problems);
    assert_eq!([m0, m1].concat(), manifest);
    assert_eq!(manifest.iter().filter(|&&c| c == b'\n').count(), 10);

    let st = bin()
        .args(["generate", "--count", "3", "--shard", "3/3", "--out"])
        .arg(dir.path().join("bad.jsonl"))
        .output()
        .unwrap();
    assert!(!st.status.success());
    assert!(String::from_utf8_lossy(&st.stderr).contains("expected I/N"));
}
