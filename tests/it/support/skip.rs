//! Visible skips. A test that cannot run here (no GPU adapter, no `xmllint`) still
//! reports ok to libtest, so it says so on stderr, past libtest's output capture:
//! `SKIPPED <test>: <reason> (<n> skipped so far)`. Under `CI=true` nothing skips:
//! [`crate::support::gpu::gpu`] and the tool checks fail instead.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

static SKIPPED: AtomicUsize = AtomicUsize::new(0);

/// Whether this run is CI (`CI=true` or `CI=1`), where skipping is an error.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The running test's name (libtest names each test's thread after the test).
pub fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("<unnamed test>")
        .to_string()
}

/// Records that the running test (or the part of it named in `reason`) was skipped,
/// and prints it to stderr. Written to the process's stderr directly, so that
/// libtest's capture does not hide it in a passing test.
pub fn skipped(reason: &str) {
    let n = SKIPPED.fetch_add(1, Ordering::Relaxed) + 1;
    let line = format!("SKIPPED {}: {reason} ({n} skipped so far)\n", test_name());
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
