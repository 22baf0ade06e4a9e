//! Memory the package may still take, so that nothing aborts the interpreter.
//!
//! Rust aborts the process when an allocation fails. So a call whose result cannot
//! fit (`generate(100_000_000)`, 2,000 arrays at 1024 px under a 3 GB limit) is
//! refused before any work with an `OptionError` that says what fits, and the large
//! allocations made while it runs (each image's pixel buffer, the problems of each
//! chunk) are tried first with `try_reserve`, a failure being a `MemoryError`.
//! What is left is read from the process's address-space and data limits
//! (`RLIMIT_AS`, `RLIMIT_DATA`, against `/proc/self/status`), the system's
//! `MemAvailable` + `SwapFree` and the cgroup's `memory.max`: each where the
//! platform has it (or `GEOMRENDER_MEMORY_BUDGET`, in bytes, when it is set).

use crate::errors::{Kind, error};
use pyo3::prelude::*;

const GIB: f64 = (1u64 << 30) as f64;

/// Overrides [`available`] with a number of bytes: for a user who knows better
/// than the limits say, and for the tests of the `MemoryError` path.
pub const BUDGET_VAR: &str = "GEOMRENDER_MEMORY_BUDGET";

/// Bytes this process can still allocate, from whichever limits are known (the
/// least of them), or `None` when none is; [`BUDGET_VAR`] when it is set.
pub fn available() -> Option<u64> {
    if let Some(budget) = std::env::var(BUDGET_VAR)
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return Some(budget);
    }
    [
        rlimit_left(libc::RLIMIT_AS as _, "VmSize:"),
        rlimit_left(libc::RLIMIT_DATA as _, "VmData:"),
        system_available(),
        cgroup_left(),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// `limit`'s soft value less this process's use (`field` of /proc/self/status, in
/// kB), when the limit is set and the use can be read.
fn rlimit_left(resource: i32, field: &str) -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given, nothing else.
    if unsafe { libc::getrlimit(resource as _, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let used = kib_field(&std::fs::read_to_string("/proc/self/status").ok()?, field)?;
    #[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux, not on every Unix
    Some((lim.rlim_cur as u64).saturating_sub(used))
}

/// `MemAvailable` + `SwapFree` of /proc/meminfo.
fn system_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let swap = kib_field(&info, "SwapFree:").unwrap_or(0);
    Some(kib_field(&info, "MemAvailable:")? + swap)
}

/// The cgroup (v2) `memory.max` less `memory.current`, when a limit is set.
fn cgroup_left() -> Option<u64> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = cgroup.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let current: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

/// A `Name:   123 kB` line's value in bytes.
fn kib_field(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib.saturating_mul(1024))
}

/// An `OptionError` when `need` bytes (what `what` makes: "2000 arrays of
/// 1024×1024") cannot fit in what this process may still allocate; `instead` says
/// how to do it in bounded memory.
pub fn check_fits(need: u64, what: impl FnOnce() -> String, instead: &str) -> PyResult<()> {
    match available() {
        Some(left) if need > left => Err(error(
            Kind::Option,
            format!(
                "{} would take about {:.1} GiB, more than the {:.1} GiB this process can still \
                 allocate (its address-space limit, the memory available, or its cgroup's; \
                 {BUDGET_VAR} overrides it): {instead}",
                what(),
                need as f64 / GIB,
                left as f64 / GIB,
            ),
        )),
        _ => Ok(()),
    }
}

/// A buffer of `bytes` capacity, or `MemoryError` when it cannot be allocated
/// (instead of the abort an infallible allocation would be).
pub fn reserve(bytes: usize, what: impl FnOnce() -> String) -> PyResult<Vec<u8>> {
    let mut buf = Vec::new();
    match buf.try_reserve_exact(bytes) {
        Ok(()) => Ok(buf),
        Err(e) => Err(pyo3::exceptions::PyMemoryError::new_err(format!(
            "{}: cannot allocate {:.1} MiB ({e})",
            what(),
            bytes as f64 / (1u64 << 20) as f64
        ))),
    }
}

/// `MemoryError` unless `bytes` could be allocated now (tried, then freed): the
/// room a chunk of work about to allocate that much needs.
pub fn probe(bytes: usize, what: impl FnOnce() -> String) -> PyResult<()> {
    reserve(bytes, what).map(drop)
}
