//! Running the binary as a process to be watched: peak memory, signals mid-run.

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The peak RSS of a running process in KiB (`VmHWM`), or 0 once it is gone.
fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Runs `geomrender` with a wall-clock limit; returns its exit code and the peak
/// RSS in KiB seen while it ran (`VmHWM`, polled every 5 ms: `ru_maxrss` would count
/// the test process's own pages, kept across `exec`).
pub fn run_bounded(cmd: &mut Command, limit: Duration) -> (Option<i32>, u64) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut peak = 0;
    loop {
        peak = peak.max(peak_rss_kib(child.id()));
        if let Some(exit) = child.try_wait().unwrap() {
            return (exit.code(), peak);
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("geomrender ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Non-blank lines of a file, 0 when it does not exist.
pub fn line_count(path: &Path) -> usize {
    std::fs::read(path)
        .map(|b| b.split(|c| *c == b'\n').filter(|l| !l.is_empty()).count())
        .unwrap_or(0)
}

/// Starts `cmd` (stderr piped, stdout discarded), waits until `ready` holds, sends
/// `signal` and returns the exit status and stderr. Panics when the process ends
/// before `ready` (the test then proves nothing) or `ready` takes over 5 minutes.
pub fn signal_when(
    cmd: &mut Command,
    ready: impl Fn() -> bool,
    signal: libc::c_int,
) -> (ExitStatus, String) {
    let mut child: Child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "the run ended ({status}) before the moment to signal it:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(start.elapsed() < Duration::from_secs(300), "never ready");
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: kill(2) on the pid of our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
