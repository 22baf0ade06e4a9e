//! GeomRel relation items through the binary: the same bytes for any threads and
//! shards. (The items themselves: `src/tests/relations.rs`.)

use super::support::cli::{bin, run, run_ok};

/// The file is the same bytes with 1 or 3 threads, and three shards concatenated
/// are the whole run.
#[test]
fn same_bytes_for_any_threads_and_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let gen_file = |extra: &[&str], name: &str| {
        let path = tmp.path().join(name);
        run_ok(
            bin()
                .args([
                    "generate",
                    "--task",
                    "relations",
                    "--count",
                    "301",
                    "--seed",
                    "4",
                ])
                .args(["--indeterminate", "0.2"])
                .args(extra)
                .arg("--out")
                .arg(&path),
        );
        std::fs::read(&path).unwrap()
    };
    let whole = gen_file(&["--threads", "1"], "one.jsonl");
    assert_eq!(whole, gen_file(&["--threads", "3"], "three.jsonl"));
    let mut joined = Vec::new();
    for s in ["0/3", "1/3", "2/3"] {
        joined.extend(gen_file(&["--shard", s], &format!("s{}.jsonl", &s[..1])));
    }
    assert_eq!(whole, joined);
    assert_eq!(whole.iter().filter(|b| **b == b'\n').count(), 301);
    // Bad options are errors that name the flag's value, not panics.
    let out = run(bin()
        .args([
            "generate",
            "--task",
            "relations",
            "--indeterminate",
            "1.5",
            "--out",
        ])
        .arg(tmp.path().join("bad.jsonl")));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1.5"));
}
