//! The new surfaces under hostile use (issue 23): `export` reads only the run's own
//! images, checked against their recorded SHA-256; no directory link planted under
//! `--out` (or swapped in) is followed, and clean-up never deletes outside it;
//! `merge` walks only what exists and refuses while a shard runs; a run leaves no
//! dataset of an earlier run beside its new manifest. Each test failed on main at
//! 3ba8814.

use crate::support::cli::{bin, files, run, run_ok};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Two generated problems (`generate --count 2 --seed 1`).
fn problems(dir: &Path) -> PathBuf {
    let p = dir.join("p2.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "2", "--seed", "1", "--out"])
            .arg(&p),
    );
    p
}

fn render(input: &Path, out: &Path, extra: &[&str]) -> Output {
    run(bin()
        .arg("render")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--backend", "cpu", "-q"])
        .args(extra))
}

fn rewrite_manifest(dir: &Path, edit: impl Fn(usize, &mut Value)) {
    let path = dir.join("manifest.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    for (k, line) in text.lines().enumerate() {
        let mut row: Value = serde_json::from_str(line).unwrap();
        edit(k, &mut row);
        out.push_str(&row.to_string());
        out.push('\n');
    }
    std::fs::write(&path, out).unwrap();
}

/// Every file under `dir` (recursively), relative and sorted, with its SHA-256:
/// what a refused command must leave as it was (lock files, which only say who
/// held the directory last, aside).
fn tree(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            if meta.is_dir() {
                stack.push(p);
            } else if rel.ends_with(".geomrender.lock") {
                continue;
            } else if meta.is_file() {
                out.push((rel, crate::support::sha256_hex(&std::fs::read(&p).unwrap())));
            } else {
                out.push((rel, "<link or special file>".to_string()));
            }
        }
    }
    out.sort();
    out
}

/// Whether any file under `dir` holds `needle`.
fn holds(dir: &Path, needle: &[u8]) -> Option<PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                stack.push(p);
            } else if meta.is_file()
                && std::fs::read(&p)
                    .unwrap()
                    .windows(needle.len())
                    .any(|w| w == needle)
            {
                return Some(p);
            }
        }
    }
    None
}

/// Defect 1: a manifest row naming `../secret.txt`, an absolute path, a link inside
/// `images/`, `/dev/zero`, a FIFO, or an image whose bytes changed: `export` names
/// the row and writes nothing (and never hangs or grows).
#[test]
fn export_reads_only_the_runs_own_images() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, b"SECRET").unwrap();
    let x = tmp.path().join("x");
    assert!(render(&input, &x, &[]).status.success());
    let first_image = |x: &Path| -> String {
        let row: Value = serde_json::from_str(
            std::fs::read_to_string(x.join("manifest.jsonl"))
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        row["image"].as_str().unwrap().to_string()
    };
    let fifo = tmp.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path the test owns.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let image = first_image(&x);
    type Plant<'a> = Box<dyn Fn(&Path) + 'a>;
    let cases: Vec<(&str, Plant)> = vec![
        (
            "a path outside the directory",
            Box::new(|d: &Path| {
                rewrite_manifest(d, |k, r| {
                    if k == 0 {
                        r["image"] = "../secret.txt".into();
                    }
                })
            }),
        ),
        (
            "an absolute path",
            Box::new(|d: &Path| {
                rewrite_manifest(d, |k, r| {
                    if k == 0 {
                        r["image"] = "/dev/zero".into();
                    }
                })
            }),
        ),
        (
            "a link to a secret",
            Box::new(|d: &Path| {
                let img = d.join(first_image(d));
                std::fs::remove_file(&img).unwrap();
                std::os::unix::fs::symlink(&secret, &img).unwrap();
            }),
        ),
        (
            "a link to a device",
            Box::new(|d: &Path| {
                let img = d.join(first_image(d));
                std::fs::remove_file(&img).unwrap();
                std::os::unix::fs::symlink("/dev/zero", &img).unwrap();
            }),
        ),
        (
            "a link to a FIFO",
            Box::new(|d: &Path| {
                let img = d.join(first_image(d));
                std::fs::remove_file(&img).unwrap();
                std::os::unix::fs::symlink(&fifo, &img).unwrap();
            }),
        ),
        (
            "a changed image",
            Box::new(|d: &Path| std::fs::write(d.join(first_image(d)), b"SECRET").unwrap()),
        ),
    ];
    for (what, plant) in cases {
        let d = tmp.path().join(format!("case-{}", what.replace(' ', "-")));
        run_ok(std::process::Command::new("cp").arg("-a").arg(&x).arg(&d));
        plant(&d);
        let before = tree(&d);
        let out = run(bin()
            .arg("export")
            .arg(&d)
            .args(["--to", "webdataset,parquet,vlmevalkit,lmms-eval"]));
        let err = stderr(&out);
        assert!(!out.status.success(), "{what}: exported\n{err}");
        assert!(err.contains("manifest.jsonl:1"), "{what}: {err}");
        assert!(err.contains("Nothing was written"), "{what}: {err}");
        assert_eq!(tree(&d), before, "{what}: export wrote something");
    }
    // The untouched run exports, and no file carries the secret.
    run_ok(
        bin()
            .arg("export")
            .arg(&x)
            .args(["--to", "webdataset,vlmevalkit"]),
    );
    assert_eq!(holds(&x, b"SECRET"), None);
    assert!(image.starts_with("images/"));
}

/// Defect 2: a directory link planted at `data/`, `wds/`, `images/`, `lmms_eval/`,
/// `vlmevalkit/`, `contact/` or `shards/I-of-N` is refused, names itself, and nothing
/// is written or deleted in its target.
#[test]
fn planted_directory_links_are_refused_and_their_targets_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let victim = tmp.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    for name in [
        ".keep.tmp",
        "test-00000-of-00009.parquet",
        "geomrender-000000.tar",
        ".shard-00000.pending",
    ] {
        std::fs::write(victim.join(name), b"precious").unwrap();
    }
    let before = tree(&victim);
    for (k, link) in ["data", "wds", "images", "lmms_eval", "vlmevalkit"]
        .iter()
        .enumerate()
    {
        let out_dir = tmp.path().join(format!("x{k}"));
        std::fs::create_dir(&out_dir).unwrap();
        std::os::unix::fs::symlink(&victim, out_dir.join(link)).unwrap();
        let out = render(
            &input,
            &out_dir,
            &["--sink", "parquet,webdataset,vlmevalkit,lmms-eval"],
        );
        let err = stderr(&out);
        assert!(
            !out.status.success(),
            "{link}: the run went through the link"
        );
        assert!(
            err.contains(&format!("x{k}/{link}")) && err.contains("symbolic link"),
            "{link}: {err}"
        );
        assert_eq!(tree(&victim), before, "{link}: the victim changed");
    }
    // A shard's folders.
    for (k, link) in ["shards", "shards/0-of-2"].iter().enumerate() {
        let out_dir = tmp.path().join(format!("s{k}"));
        let at = out_dir.join(link);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&victim, &at).unwrap();
        let out = render(&input, &out_dir, &["--shard", "0/2", "--sink", "parquet"]);
        let err = stderr(&out);
        assert!(
            !out.status.success(),
            "{link}: the shard went through the link"
        );
        assert!(err.contains("symbolic link"), "{link}: {err}");
        assert_eq!(tree(&victim), before, "{link}: the victim changed");
    }
    // Links planted before `merge`.
    let m = tmp.path().join("m");
    for i in 0..2 {
        let out = render(
            &input,
            &m,
            &["--shard", &format!("{i}/2"), "--sink", "parquet"],
        );
        assert!(out.status.success(), "{}", stderr(&out));
    }
    for link in ["images", "data"] {
        std::os::unix::fs::symlink(&victim, m.join(link)).unwrap();
        let out = run(bin().arg("merge").arg(&m));
        let err = stderr(&out);
        assert!(!out.status.success(), "merge went through {link}");
        assert!(err.contains("symbolic link"), "{link}: {err}");
        assert_eq!(tree(&victim), before, "merge, {link}: the victim changed");
        std::fs::remove_file(m.join(link)).unwrap();
    }
    run_ok(bin().arg("merge").arg(&m));
}

/// Defect 3: a shard folder whose name claims 99,999,999,999 shards is refused
/// without allocating for them (it used to abort on a 3 GB allocation); a run
/// missing most of its shards is told a few of them, not all.
#[test]
fn merge_walks_what_exists_and_bounds_the_shard_count() {
    let tmp = tempfile::tempdir().unwrap();
    let mm = tmp.path().join("mm");
    std::fs::create_dir_all(mm.join("shards/0-of-99999999999")).unwrap();
    let out = run(bin().arg("merge").arg(&mm));
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("0-of-99999999999") && err.contains("100000"),
        "{err}"
    );
    // Beyond u64: the same refusal, no parse panic.
    std::fs::remove_dir(mm.join("shards/0-of-99999999999")).unwrap();
    std::fs::create_dir_all(mm.join("shards/0-of-99999999999999999999999")).unwrap();
    let out = run(bin().arg("merge").arg(&mm));
    assert!(
        stderr(&out).contains("more than 100000 shards"),
        "{}",
        stderr(&out)
    );
    // Many missing shards: the message lists a few, not all.
    std::fs::remove_dir(mm.join("shards/0-of-99999999999999999999999")).unwrap();
    std::fs::create_dir_all(mm.join("shards/5-of-100000")).unwrap();
    let out = run(bin().arg("merge").arg(&mm));
    let err = stderr(&out);
    assert!(err.contains("and 99979 more"), "{err}");
    assert!(err.len() < 2000, "{} bytes of message", err.len());
}

/// `merge` while a shard still runs (holds its lock, as a `--resume` does) is
/// refused before anything is written, and says why.
#[test]
fn merge_refuses_while_a_shard_runs_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let m = tmp.path().join("m");
    for i in 0..2 {
        let out = render(&input, &m, &["--shard", &format!("{i}/2")]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    // A lock held by another process: the test's own process stands for the shard.
    let held = crate::support::hold_run_lock(&m.join("shards/1-of-2"));
    let before = tree(&m);
    let out = run(bin().arg("merge").arg(&m));
    let err = stderr(&out);
    assert!(!out.status.success(), "merged while a shard ran");
    assert!(err.contains("1-of-2") && err.contains("in use"), "{err}");
    assert!(err.contains("Nothing was written"), "{err}");
    assert_eq!(tree(&m), before, "a refused merge wrote something");
    drop(held);
    run_ok(bin().arg("merge").arg(&m));
    assert!(m.join("manifest.jsonl").is_file());
}

/// Defect 7: a run without `--sink` (or with fewer sinks) into a directory holding
/// an earlier run's datasets removes them, and says so; the user's own files in
/// those folders stay.
#[test]
fn a_run_leaves_no_earlier_datasets_beside_its_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let x4 = tmp.path().join("x4");
    let out = render(
        &input,
        &x4,
        &["--sink", "parquet,webdataset,vlmevalkit,lmms-eval"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(x4.join("README.md").is_file());
    std::fs::write(x4.join("data/my-notes.txt"), b"mine").unwrap();
    // Another input into the same directory (--force: it replaces the earlier
    // run), without --sink.
    let other = tmp.path().join("p1.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "1", "--seed", "9", "--out"])
            .arg(&other),
    );
    let out = render(&other, &x4, &["--force"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("removed") && err.contains("earlier run"),
        "{err}"
    );
    assert!(!x4.join("README.md").exists());
    assert_eq!(files(&x4.join("data")), ["my-notes.txt"]);
    for gone in ["wds", "vlmevalkit", "lmms_eval"] {
        assert!(!x4.join(gone).exists(), "{gone} is still there");
    }
    // With one sink: only the others go.
    let out = render(&input, &x4, &["--sink", "webdataset,vlmevalkit", "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = render(&input, &x4, &["--sink", "vlmevalkit"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!x4.join("wds").exists());
    assert!(x4.join("vlmevalkit/GeomRender.tsv").is_file());
    // A README.md of the user's own is never removed.
    std::fs::write(x4.join("README.md"), b"# my notes\n").unwrap();
    let out = render(&input, &x4, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(x4.join("README.md")).unwrap(),
        b"# my notes\n"
    );
}

/// `export` on a directory that does not exist says so (it used to name the lock
/// file inside it), and so does `merge`.
#[test]
fn export_and_merge_on_a_missing_directory_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope");
    for cmd in [&["export", "--to", "parquet"][..], &["merge"][..]] {
        let out = run(bin().arg(cmd[0]).arg(&missing).args(&cmd[1..]));
        let err = stderr(&out);
        assert!(!out.status.success());
        assert!(err.contains("no such directory"), "{cmd:?}: {err}");
        assert!(!err.contains(".geomrender.lock"), "{cmd:?}: {err}");
        assert!(!missing.exists(), "{cmd:?} created it");
    }
}

/// A manifest row whose id holds a NUL byte (or anything an id of ours cannot
/// hold) is refused by `export` naming the file, line and id (it used to surface
/// as the tar library's message with neither).
#[test]
fn export_names_a_row_whose_id_is_not_an_id() {
    let tmp = tempfile::tempdir().unwrap();
    let input = problems(tmp.path());
    let x = tmp.path().join("x");
    assert!(render(&input, &x, &[]).status.success());
    rewrite_manifest(&x, |k, r| {
        if k == 1 {
            r["id"] = "a\u{0}b".into();
        }
    });
    let before = tree(&x);
    let out = run(bin().arg("export").arg(&x).args(["--to", "webdataset"]));
    let err = stderr(&out);
    assert!(!out.status.success());
    assert!(
        err.contains("manifest.jsonl:2") && err.contains(r#""a\0b""#),
        "{err}"
    );
    assert_eq!(tree(&x), before);
}

/// A full disk while `--sink parquet,webdataset` writes: one message naming the
/// file, saying the disk is full and how to carry on (`--resume`), and the
/// resumed run's datasets equal an uninterrupted run's.
#[test]
fn a_full_disk_under_sinks_says_how_to_carry_on() {
    use crate::support::skip::{skipped, under_ci};
    use crate::support::tmpfs::Tmpfs;
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "30", "--seed", "3", "--out"])
            .arg(&input),
    );
    let sinks = ["--sink", "parquet,webdataset", "--variants", "opacity"];
    let reference = tmp.path().join("reference");
    assert!(render(&input, &reference, &sinks).status.success());
    let Some(disk) = Tmpfs::mount(&tmp.path().join("small"), "1m") else {
        let why = "cannot mount a tmpfs (needs root)";
        assert!(!under_ci(), "{why}, and CI=true forbids skipping");
        skipped(why);
        return;
    };
    let out_dir = disk.0.join("out");
    let out = render(&input, &out_dir, &sinks);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert_eq!(err.matches("No space left on device").count(), 1, "{err}");
    assert!(
        err.contains("--resume") && err.contains("disk is full"),
        "{err}"
    );
    disk.resize("64m");
    let mut resumed = sinks.to_vec();
    resumed.push("--resume");
    let out = render(&input, &out_dir, &resumed);
    assert!(out.status.success(), "{}", stderr(&out));
    for rel in ["data", "wds"] {
        assert_eq!(
            tree(&reference.join(rel)),
            tree(&out_dir.join(rel)),
            "{rel}: resumed ≠ uninterrupted"
        );
    }
    assert_eq!(
        std::fs::read(reference.join("manifest.jsonl")).unwrap(),
        std::fs::read(out_dir.join("manifest.jsonl")).unwrap()
    );
}

/// Defect 2, end to end: `images/` moved away and replaced by a link to another
/// directory while a run writes: every later image still goes into the directory
/// the run opened, nothing into the link's target.
#[test]
fn images_swapped_for_a_link_mid_run_writes_nothing_through_it() {
    use crate::support::process::signal_when;
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "40", "--seed", "5", "--out"])
            .arg(&input),
    );
    let victim = tmp.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    let out = tmp.path().join("out");
    let images = out.join("images");
    let moved = tmp.path().join("moved");
    let swapped = std::cell::Cell::new(false);
    let (status, err) = signal_when(
        bin()
            .arg("render")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args(["--backend", "cpu", "-q", "--variants", "opacity"]),
        || {
            let n = std::fs::read_dir(&images).map_or(0, |d| d.count());
            if n >= 3 && !swapped.get() {
                std::fs::rename(&images, &moved).unwrap();
                std::os::unix::fs::symlink(&victim, &images).unwrap();
                swapped.set(true);
            }
            swapped.get()
        },
        0, // no signal: the run goes on after the swap
    );
    assert!(status.success(), "{err}");
    assert!(
        files(&victim).is_empty(),
        "written through the link: {:?}",
        files(&victim)
    );
    // Every image of the run is in the directory it opened.
    assert_eq!(files(&moved).len(), 200, "{err}");
}
