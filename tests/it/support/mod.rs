//! Shared test helpers. Test modules import from here and never from each other.
//! The library's own tests (`src/tests/`) include the ones they share (`gpu`,
//! `images`, `oracle`, `paths`, `rows`, `skip`) through `#[path]`: one copy of each
//! helper.
//!
//! - [`cli`]: the `geomrender` binary — `bin()`, running it, reading what it writes.
//! - [`gpu`]: the shared GPU renderer and [`gpu::gpu_or_skip`].
//! - [`images`]: pixels, image diffs and reference-image comparison
//!   (`tests/reference/{gpu,cpu,resvg}/<name>.png`, `GEOMRENDER_UPDATE_REFS=1`), triptychs.
//! - [`oracle`]: the GPU-vs-resvg comparison metric (figures, limits, distributions).
//! - [`paths`]: the repository root, the README's phrases, `target/test-output/`, a
//!   folder's names.
//! - [`process`]: the binary as a watched process — peak RSS, signals mid-run.
//! - [`rows`]: manifest rows against the published schema.
//! - [`skip`]: visible skips — a `SKIPPED <test>: <reason>` line on stderr, counted.
//! - [`tmpfs`]: a small tmpfs mounted for a test: a full disk on demand.

pub mod cli;
#[allow(dead_code)] // shared with src/tests/: each test binary uses a part
pub mod gpu;
#[allow(dead_code)] // shared with src/tests/: each test binary uses a part
pub mod images;
#[allow(dead_code)] // shared with src/tests/: each test binary uses a part
pub mod oracle;
#[allow(dead_code)] // shared with src/tests/: each test binary uses a part
pub mod paths;
pub mod process;
#[allow(dead_code)] // shared with src/tests/: each test binary uses a part
pub mod rows;
#[allow(dead_code)] // shared with src/tests/: each test binary uses a part
pub mod skip;
pub mod tmpfs;

pub use paths::{output_dir, readme_says, repo};

/// SHA-256 of `bytes` as lower-case hex, computed here (`sha2`) rather than by the
/// library whose files it checks.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The embedded font's bytes, read from `assets/fonts/` (the file the library
/// embeds).
pub fn font_bytes() -> Vec<u8> {
    std::fs::read(repo().join("assets/fonts/DejaVuSans.ttf")).expect("assets/fonts/DejaVuSans.ttf")
}

/// Holds `DIR/.geomrender.lock` as another run would (an exclusive `flock` through
/// this process's own descriptor) until the returned file is dropped.
pub fn hold_run_lock(dir: &std::path::Path) -> std::fs::File {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(".geomrender.lock"))
        .expect("open the lock file");
    rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
        .expect("lock the directory");
    file
}
