//! Hostile-but-realistic use (issue 11): planted symlinks, device-node outputs,
//! concurrent runs into one directory, absurd numeric flags and values. Each test
//! is CLI-level and failed on main at e0a4486.

use crate::support::cli::{bin, examples, files, run};
use std::path::Path;
use std::process::Stdio;

fn victim(dir: &Path) -> std::path::PathBuf {
    let v = dir.join("victim.txt");
    std::fs::write(&v, b"precious").unwrap();
    v
}

/// Defect 1: links planted at the partial manifest and at every file a run creates
/// are never written through; the victim keeps its bytes and `manifest.jsonl` is a
/// regular file.
#[test]
fn planted_symlinks_are_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = victim(tmp.path());
    let out = tmp.path().join("out");
    std::fs::create_dir_all(out.join("images")).unwrap();
    let link = |name: &str| std::os::unix::fs::symlink(&victim, out.join(name)).unwrap();
    link(".manifest.jsonl.partial");
    link("manifest.jsonl");
    link("errors.jsonl");
    link("images/sector-angle.png");
    // The old predictable temp names, for every image id of the examples.
    for id in ["right-triangle-square", "sector-angle", "text-styles"] {
        for pid in [std::process::id() + 1, std::process::id() + 2] {
            let _ = std::os::unix::fs::symlink(
                &victim,
                out.join(format!("images/.{id}.png.{pid}.tmp")),
            );
        }
    }
    let o = run(bin()
        .arg("render")
        .arg(examples())
        .args(["--backend", "cpu", "-q", "--out"])
        .arg(&out));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    for name in ["manifest.jsonl", "images/sector-angle.png"] {
        let meta = std::fs::symlink_metadata(out.join(name)).unwrap();
        assert!(meta.is_file(), "{name} is not a regular file");
    }
    // A link at the lock file is refused, not followed.
    let out2 = tmp.path().join("out2");
    std::fs::create_dir_all(&out2).unwrap();
    std::os::unix::fs::symlink(&victim, out2.join(".geomrender.lock")).unwrap();
    let o = run(bin()
        .arg("render")
        .arg(examples())
        .args(["--backend", "cpu", "-q", "--out"])
        .arg(&out2));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
}

/// Defect 2: `generate --out -` writes to stdout, a device is written directly and
/// never replaced, and a directory is refused.
#[test]
fn generate_writes_stdout_and_devices_directly() {
    let o = run(bin().args(["generate", "--count", "3", "--seed", "1", "--out", "-"]));
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 3);
    for l in text.lines() {
        serde_json::from_str::<serde_json::Value>(l).unwrap();
    }
    // /dev/null stays a character device.
    use std::os::unix::fs::FileTypeExt;
    let o = run(bin().args(["generate", "--count", "2", "--out", "/dev/null"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // A FIFO is written to, not renamed over.
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = run(bin().args(["generate", "--count", "2", "--out"]).arg(&fifo));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(reader.join().unwrap().lines().count(), 2);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // A directory is refused with a message naming it.
    let o = run(bin()
        .args(["generate", "--count", "2", "--out"])
        .arg(tmp.path()));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a regular file"));
}

/// Defect 4: a second run into a directory in use fails at once, naming the
/// process, and the first run's output is whole.
#[test]
fn a_second_run_into_the_same_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let problems = tmp.path().join("p.jsonl");
    assert!(
        run(bin()
            .args(["generate", "--count", "60", "--seed", "4", "--out"])
            .arg(&problems))
        .status
        .success()
    );
    let out = tmp.path().join("out");
    let first = bin()
        .arg("render")
        .arg(&problems)
        .args(["--backend", "cpu", "-q", "--variants", "fontsize", "--out"])
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the first run holds the lock (its pid is in the lock file).
    let lock = out.join(".geomrender.lock");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_to_string(&lock)
        .map(|s| s.trim().is_empty())
        .unwrap_or(true)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the first run never locked"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let holder = std::fs::read_to_string(&lock).unwrap().trim().to_string();
    let mut first = first;
    let still_running = first.try_wait().unwrap().is_none();
    let second = run(bin()
        .arg("render")
        .arg(&problems)
        .args(["--backend", "cpu", "-q", "--variants", "fontsize", "--out"])
        .arg(&out));
    let first = first.wait_with_output().unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let stderr = String::from_utf8_lossy(&second.stderr);
    if still_running {
        assert_eq!(second.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("is in use by process {holder}")),
            "{stderr}"
        );
    }
    // The first run's manifest is whole: 60 problems × (base + 4 font sizes).
    let rows = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
    assert_eq!(rows.lines().count(), 60 * 5);
    for l in rows.lines() {
        serde_json::from_str::<serde_json::Value>(l).unwrap();
    }
}

/// Defects 10 and 11: values and flags that could never work are refused before any
/// work, with a message naming the flag; nothing is created.
#[test]
fn impossible_values_and_flags_are_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("never");
    let cases: &[(&[&str], &str)] = &[
        (&["--variants", "resolution=64"], "128..=8192"),
        (
            &["--grid", "--variants", "fontsize=32;resolution=8192"],
            "font_size must be within",
        ),
        (&["--chunk-lines", "18446744073709551615"], "--chunk-lines"),
        (&["--chunk-lines", "0"], "--chunk-lines"),
        (&["--max-tiles", "1000000000000"], "--max-tiles"),
        (&["--frame-size", "0"], "--frame-size"),
    ];
    for (args, expect) in cases {
        let o = run(bin()
            .arg("render")
            .arg(examples())
            .args(*args)
            .arg("--out")
            .arg(&out));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} created --out");
    }
    let o = run(bin().args(["bench", "--count", "100000000000"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--count"));
}

/// Defect 8: the progress total never reads a device whole (`render /dev/zero` used
/// to abort on a 4 GB allocation); the run reports the over-long line and ends.
#[test]
fn a_device_input_is_not_counted_and_long_lines_are_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("no-newline.jsonl");
    // 70 MB without a newline: one line over the 64 MiB cap.
    std::fs::write(&big, vec![b'x'; 70 << 20]).unwrap();
    let o = run(bin()
        .arg("render")
        .arg(&big)
        .args(["--backend", "cpu", "-q", "--out"])
        .arg(tmp.path().join("out")));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line longer than"));
    assert_eq!(files(&tmp.path().join("out/images")), Vec::<String>::new());
}
