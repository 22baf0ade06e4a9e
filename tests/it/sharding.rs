//! Issue 13: a run cut into shards (`--shard I/N` or `auto`) and merged equals one
//! machine's run byte for byte; a shard re-runs alone; `merge` refuses missing,
//! unfinished, mismatched and tampered shards and then writes nothing. The engines
//! themselves (Slurm, Ray) are driven by `tests/cluster/slurm_test.sh` and
//! `tests/python/test_cluster_ray.py`.

use crate::support::cli::{bin, run, run_ok};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const SHARD_VARS: [&str; 7] = [
    "GEOMRENDER_SHARD",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
];

/// `sweep` with the test's options and no shard variables from the test's own
/// environment.
fn sweep(out: &Path) -> Command {
    sweep_seed(out, "4")
}

fn sweep_seed(out: &Path, seed: &str) -> Command {
    let mut cmd = bin();
    for v in SHARD_VARS {
        cmd.env_remove(v);
    }
    cmd.args([
        "sweep",
        "--count",
        "9",
        "--seed",
        seed,
        "--backend",
        "cpu",
        "-q",
    ])
    .args(["--variants", "opacity=0.25;fontsize=8,24"])
    .args([
        "--sink",
        "parquet,webdataset,vlmevalkit",
        "--shard-rows",
        "10",
    ])
    .arg("--out")
    .arg(out);
    cmd
}

/// Every file under `dir` but `shards/` and lock/state files, by relative path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let rel = e.path().strip_prefix(root).unwrap().display().to_string();
            if name.starts_with('.') || rel == "shards" || rel == "lmms_eval" {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                walk(root, &e.path(), out);
            } else {
                out.insert(rel, std::fs::read(e.path()).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn assert_same(single: &BTreeMap<String, Vec<u8>>, merged: &Path) {
    let got = files(merged);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        single.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in single {
        assert!(&got[name] == bytes, "{name} differs from the single run's");
    }
}

/// Some image file of a shard.
fn first_image(shard: &Path) -> std::path::PathBuf {
    std::fs::read_dir(shard.join("images"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

#[test]
fn a_sharded_sweep_merges_to_the_single_run_and_a_shard_reruns_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let single = tmp.path().join("single");
    run_ok(&mut sweep(&single));
    let want = files(&single);
    assert!(
        want.contains_key("data/test-00003-of-00004.parquet"),
        "{:?}",
        want.keys()
    );
    assert!(want.contains_key("contact/opacity.png"));

    // Each shard finds itself from another engine's variables.
    let out = tmp.path().join("sharded");
    run_ok(
        sweep(&out)
            .args(["--shard", "auto"])
            .env("GEOMRENDER_SHARD", "0/3"),
    );
    run_ok(
        sweep(&out)
            .args(["--shard", "auto"])
            .env("SLURM_ARRAY_TASK_ID", "2")
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_MAX", "3"),
    );
    let o = run_ok(
        sweep(&out)
            .args(["--shard", "auto", "--shards", "3"])
            .env("JOB_COMPLETION_INDEX", "2"),
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("shard 2/3 (--shard auto: Kubernetes JOB_COMPLETION_INDEX=2"),
        "{stderr}"
    );
    for i in 0..3 {
        assert!(out.join(format!("shards/{i}-of-3/done.json")).is_file());
    }
    assert!(
        !out.join("manifest.jsonl").exists(),
        "shards write only under shards/"
    );
    run_ok(bin().arg("merge").arg(&out));
    assert_same(&want, &out);

    // Shard 1 failed half way: no done.json, an image gone. Re-run alone, merge again.
    let shard = out.join("shards/1-of-3");
    std::fs::remove_file(shard.join("done.json")).unwrap();
    let image = first_image(&shard);
    std::fs::remove_file(&image).unwrap();
    let o = run(bin().arg("merge").arg(&out));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1-of-3: not finished (no done.json)"));
    run_ok(sweep(&out).args(["--shard", "1/3", "--resume"]));
    run_ok(bin().arg("merge").arg(&out));
    assert_same(&want, &out);
    // Merging over a merged run leaves no temporary files behind.
    let hidden: Vec<_> = std::fs::read_dir(out.join("images"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
}

#[test]
fn a_sharded_render_keeps_the_line_numbers_of_the_whole_input() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "5", "--seed", "8", "--out"])
            .arg(&input),
    );
    let mut text = std::fs::read_to_string(&input).unwrap();
    text.push_str("\n{\"not\": \"a problem\"}\n");
    std::fs::write(&input, text).unwrap();
    let render = |out: &Path, shard: Option<&str>| {
        let mut cmd = bin();
        cmd.arg("render")
            .arg(&input)
            .args(["--backend", "cpu", "-q", "--variants", "fontsize=8"]);
        if let Some(s) = shard {
            cmd.args(["--shard", s]);
        }
        cmd.arg("--out").arg(out);
        run(&mut cmd)
    };
    let single = tmp.path().join("single");
    assert_eq!(render(&single, None).status.code(), Some(1));
    let out = tmp.path().join("sharded");
    for s in ["0/2", "1/2"] {
        render(&out, Some(s));
    }
    let o = run(bin().arg("merge").arg(&out));
    assert_eq!(o.status.code(), Some(1), "one line failed");
    assert_same(&files(&single), &out);
    let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
    assert!(errors.contains("\"line\":7"), "{errors}");
}

#[test]
fn merge_refuses_what_is_not_one_finished_run_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let refused = |out: &Path, want: &str| {
        let o = run(bin().arg("merge").arg(out));
        assert_eq!(o.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(want), "expected {want:?} in: {stderr}");
        for name in [
            "manifest.jsonl",
            "problems.jsonl",
            "images",
            "data",
            "contact",
        ] {
            assert!(!out.join(name).exists(), "a refused merge wrote {name}");
        }
    };
    let out = tmp.path().join("run");
    std::fs::create_dir_all(&out).unwrap();
    refused(&out, "no shards/ folder");
    run_ok(sweep(&out).args(["--shard", "0/3"]));
    run_ok(sweep(&out).args(["--shard", "2/3"]));
    refused(&out, "shard(s) 1 of 3 missing");
    // Shard 1 made with another seed.
    run_ok(sweep_seed(&out, "5").args(["--shard", "1/3"]));
    refused(&out, "in `command.generator.seed`: 5 vs 4");
    // Shard 1's Parquet written uncompressed.
    // (Redone with the run's seed: --force replaces the shard of other problems.)
    run_ok(sweep(&out).args(["--shard", "1/3", "--parquet-compression", "none", "--force"]));
    refused(&out, "--parquet-compression snappy vs none");
    run_ok(sweep(&out).args(["--shard", "1/3"]));
    // A byte of an image changed after the shard finished.
    let shard = out.join("shards/2-of-3");
    let image = first_image(&shard);
    let mut bytes = std::fs::read(&image).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&image, &bytes).unwrap();
    refused(&out, "the manifest recorded");
    bytes[last] ^= 1;
    std::fs::write(&image, &bytes).unwrap();
    // The manifest edited.
    let manifest = shard.join("manifest.jsonl");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("\"width\":512", "\"width\":513", 1),
    )
    .unwrap();
    refused(&out, "done.json recorded");
    std::fs::write(&manifest, text).unwrap();
    // A shard of another split.
    std::fs::create_dir_all(out.join("shards/0-of-2")).unwrap();
    refused(&out, "shards of different runs");
    std::fs::remove_dir(out.join("shards/0-of-2")).unwrap();
    run_ok(bin().arg("merge").arg(&out));
}

#[test]
fn shard_auto_without_an_engine_or_with_disagreeing_ones_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = run(sweep(&out).args(["--shard", "auto"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no shard in the environment"));
    let o = run(sweep(&out)
        .args(["--shard", "auto"])
        .env("GEOMRENDER_SHARD", "1/4")
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "3"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the sources disagree"));
    let o = run(sweep(&out)
        .args(["--shard", "auto"])
        .env("JOB_COMPLETION_INDEX", "0"));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs --shards N"));
    assert!(!out.join("shards").exists());
}

/// A shard count above `MAX_SHARDS`, from the flags or any engine's variables, is
/// refused naming where it came from, before anything is created.
#[test]
fn shard_counts_above_the_maximum_are_refused_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let refused = |cmd: &mut Command, said: &str| {
        let o = run(cmd);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(said), "{said}: {stderr}");
        assert!(stderr.contains("most a run may have (100000)"), "{stderr}");
        assert!(!out.exists(), "{said}: created {}", out.display());
    };
    refused(
        sweep(&out).args(["--shard", "0/100000000000"]),
        "'--shard <I/N|auto>': 100000000000 shards",
    );
    refused(
        sweep(&out).args(["--shard", "auto", "--shards", "100001"]),
        "'--shards <N>': 100001 shards",
    );
    refused(
        sweep(&out)
            .args(["--shard", "auto"])
            .env("SLURM_ARRAY_TASK_ID", "0")
            .env("SLURM_ARRAY_TASK_COUNT", u64::MAX.to_string()),
        "SLURM_ARRAY_TASK_COUNT=18446744073709551615 asks for 18446744073709551615 shards",
    );
    refused(
        sweep(&out)
            .args(["--shard", "auto"])
            .env("GEOMRENDER_SHARD", "3/100001"),
        "GEOMRENDER_SHARD=3/100001 asks for 100001 shards",
    );
}
