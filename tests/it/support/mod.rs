//! Shared test helpers. Test modules import from here and never from each other.
//!
//! - [`cli`]: the `geomrender` binary — `bin()`, running it, reading what it writes.
//! - [`cpu`]: the shared resvg renderer (never skips).
//! - [`drawn`]: what a job's texts may name, checked against what its Scene draws.
//! - [`gpu`]: the shared GPU renderer, [`gpu::gpu_or_skip`], and GPU rendering helpers.
//! - [`images`]: pixels, image diffs and reference-image comparison
//!   (`tests/reference/{gpu,cpu,resvg}/<name>.png`, `GEOMRENDER_UPDATE_REFS=1`), triptychs.
//! - [`oracle`]: the GPU-vs-resvg comparison metric (figures, limits, distributions).
//! - [`process`]: the binary as a watched process — peak RSS, signals mid-run.
//! - [`scenes`]: scene and problem builders shared by several test modules.
//! - [`skip`]: visible skips — a `SKIPPED <test>: <reason>` line on stderr, counted.
//! - [`solutions`]: the solution checker — every equation of a solution re-evaluated.
//! - [`tmpfs`]: a small tmpfs mounted for a test: a full disk on demand.

pub mod cli;
pub mod cpu;
pub mod drawn;
pub mod gpu;
pub mod images;
pub mod oracle;
pub mod process;
pub mod scenes;
pub mod skip;
pub mod solutions;
pub mod tmpfs;

use std::path::PathBuf;

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Panics unless the README says `phrase` (whitespace and line breaks aside):
/// how a test keeps the README's figures its own.
pub fn readme_says(phrase: &str) {
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let phrase = squeeze(phrase);
    assert!(
        squeeze(&readme).contains(&phrase),
        "README.md does not say (update it to the test's figures): {phrase}"
    );
}

/// `target/test-output/`, created: where tests leave files for a look (actual and
/// diff images of failed reference checks, triptychs, SVG files).
pub fn output_dir() -> PathBuf {
    let dir = repo().join("target").join("test-output");
    std::fs::create_dir_all(&dir).expect("create target/test-output");
    dir
}
