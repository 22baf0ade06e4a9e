//! Hostile-but-realistic use (issue 11): planted symlinks, device-node outputs,
//! concurrent runs into one directory, absurd numeric flags and values, and inputs
//! that used to take unbounded memory (peak RSS measured). Each test is CLI-level
//! and failed on main at e0a4486. Signals and a full disk: `interrupts`.

use crate::support::cli::{bin, examples, files, run, run_ok};
use crate::support::process::{line_count, run_bounded};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

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

/// Peak RSS allowed where an input tries to make the run hold it all: the binary
/// itself peaks at about 60 MB on small inputs, a 64 MiB line buffer adds its size.
const BOUNDED_RSS_KIB: u64 = 256 << 10;

/// Peak RSS allowed while a 53 MB line of a million items is refused: the line is
/// held once (no longer copied) with the values parsed up to the refusal (about
/// 80 MB). 136 MB measured on the 2-core VM; one CI run, before the line stopped
/// being copied, peaked at 391 MB where the same binary took 181 MB by hand, so the
/// bound leaves that allocator variance room and still fails at a third of the
/// 1.4 GB this guards against.
const MILLION_ITEMS_RSS_KIB: u64 = 448 << 10;

/// Defect 8: the progress total never reads a device whole (`render /dev/zero` used
/// to abort on a 4 GB allocation, a 3 GB file without newlines reached 3.2 GB); the
/// run reports the over-long line and ends, in bounded memory, also with semantic
/// variants (whose first-line check reads the file once more).
#[test]
fn a_device_input_is_not_counted_and_long_lines_are_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("no-newline.jsonl");
    // 70 MB without a newline: one line over the 64 MiB cap.
    std::fs::write(&big, vec![b'x'; 70 << 20]).unwrap();
    for (i, variants) in [None, Some("annotation")].into_iter().enumerate() {
        let out = tmp.path().join(format!("out{i}"));
        let mut cmd = bin();
        cmd.arg("render")
            .arg(&big)
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&out);
        if let Some(v) = variants {
            cmd.args(["--variants", v]);
        }
        let (code, peak) = run_bounded(&mut cmd, Duration::from_secs(120));
        assert_eq!(code, Some(1), "{variants:?}");
        assert!(peak < BOUNDED_RSS_KIB, "{variants:?}: peak RSS {peak} KiB");
        let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
        assert!(errors.contains("line longer than"), "{errors}");
        assert_eq!(files(&out.join("images")), Vec::<String>::new());
    }
}

/// Defect 13: a 53 MB line with a million items took 1.4 GB before the 20,000-item
/// limit rejected it; it is now refused while it is parsed (at 100,000 elements).
#[test]
fn a_line_with_a_million_items_is_refused_while_parsing() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("million.jsonl");
    let item = r##"{"type":"path","d":"M 0 0 L 9 9","stroke":"#000000"},"##;
    let mut line = String::from(r#"{"id":"huge","width":64,"height":64,"items":["#);
    line.push_str(&item.repeat(1_000_000));
    line.pop();
    line.push_str("]}\n");
    assert!(line.len() > 53_000_000);
    let good = serde_json::to_string(&geomrender::scene::synthetic::diagram_scene(1, 64)).unwrap();
    std::fs::write(&input, line + &good + "\n").unwrap();
    let out = tmp.path().join("out");
    let (code, peak) = run_bounded(
        bin()
            .arg("render")
            .arg(&input)
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&out),
        Duration::from_secs(120),
    );
    assert_eq!(code, Some(1));
    assert!(peak < MILLION_ITEMS_RSS_KIB, "peak RSS {peak} KiB");
    let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
    assert!(
        errors.contains("an array longer than 100000 elements"),
        "{errors}"
    );
    assert_eq!(line_count(&out.join("manifest.jsonl")), 1);
}

/// Defect 13: a million bad lines printed a million stderr lines despite `-q` and held
/// 305 MB of errors in memory; they now stream to `errors.jsonl` (all of them, in
/// line order) and the terminal shows the first 20 and a count.
#[test]
fn a_million_bad_lines_stream_to_errors_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("bad.jsonl");
    std::fs::write(&input, "{\n".repeat(1_000_000)).unwrap();
    let out = tmp.path().join("out");
    let mut cmd = bin();
    cmd.arg("render")
        .arg(&input)
        .args(["--backend", "cpu", "-q", "--out"])
        .arg(&out);
    let (code, peak) = run_bounded(&mut cmd, Duration::from_secs(300));
    assert_eq!(code, Some(1));
    assert!(peak < 128 << 10, "peak RSS {peak} KiB");
    let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
    let lines: Vec<u64> = errors
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["line"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(lines, (1..=1_000_000).collect::<Vec<u64>>());
    // The terminal: 20 errors, the "more" notice and the summary.
    let small = tmp.path().join("small.jsonl");
    std::fs::write(&small, "{\n".repeat(500)).unwrap();
    let o = run(bin()
        .arg("render")
        .arg(&small)
        .args(["--backend", "cpu", "-q", "--out"])
        .arg(tmp.path().join("out-small")));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("error: ")).count(),
        21,
        "{stderr}"
    );
    assert!(stderr.contains("500 of 500 lines failed"), "{stderr}");
}

/// Defect 9: `--grid` streams its variants: hundreds of variants per problem take no
/// more memory than a few (it used to build every variant of a line before writing).
#[test]
fn a_large_grid_runs_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "4", "--seed", "3", "--out"])
            .arg(&input),
    );
    let out = tmp.path().join("out");
    let (code, peak) = run_bounded(
        bin()
            .arg("render")
            .arg(&input)
            .args(["--grid", "--variants", "fontsize;linewidth;opacity;palette"])
            .args(["--format", "svg", "-q", "--out"])
            .arg(&out),
        Duration::from_secs(300),
    );
    assert_eq!(code, Some(0));
    let rows = line_count(&out.join("manifest.jsonl"));
    // 4 × (1 + 4 · 4 · 4 · 2 grid cells), less the greys too few at low opacity.
    assert!(rows > 400, "{rows} rows");
    assert!(
        peak < BOUNDED_RSS_KIB,
        "peak RSS {peak} KiB for {rows} images"
    );
}

/// A step holds about `--chunk-lines` images, not lines: with 14 images a line the
/// default sweep's render peaked at 1.97 GB (64 lines × 14 images of 1 MB held at
/// once, twice over in the channel); now a few steps of 64 images are in flight.
#[test]
fn many_variants_per_line_do_not_multiply_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("p.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "40", "--seed", "2", "--out"])
            .arg(&input),
    );
    let (code, peak) = run_bounded(
        bin()
            .arg("render")
            .arg(&input)
            .args(["--backend", "cpu", "-q", "--variants"])
            .arg("opacity;linewidth;fontsize;annotation")
            .arg("--out")
            .arg(tmp.path().join("out")),
        Duration::from_secs(300),
    );
    assert_eq!(code, Some(0));
    assert_eq!(line_count(&tmp.path().join("out/manifest.jsonl")), 40 * 14);
    // At most about 4 steps of 64 images of 1 MB in flight (the reader's, two in the
    // channel, the sink's) on top of the binary: measured 250–300 MB, was 1.97 GB.
    assert!(peak < 400 << 10, "peak RSS {peak} KiB");
}
