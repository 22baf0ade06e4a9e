//! The helpers of the library's own tests: `cpu`, `drawn`, `frames`, `readme`,
//! `scenes` and `solutions` are theirs alone; the others are the integration tests' (`tests/it/support/`), the
//! same files included here so that each helper has one copy. Each test binary uses
//! a part of each shared file.
//!
//! - [`cpu`]: the shared resvg renderer (never skips).
//! - [`frames`]: scenes through the GPU renderer's frames, as a run draws them.
//! - [`drawn`]: what a job's texts may name, checked against what its Scene draws.
//! - [`readme`]: README tables the tests write and check.
//! - [`scenes`]: scene and problem builders shared by several test modules.
//! - [`solutions`]: the solution checker — every equation of a solution re-evaluated.
//! - [`gpu`], [`images`], [`oracle`], [`paths`], [`rows`], [`skip`]: as
//!   `tests/it/support/mod.rs` describes them.

pub(crate) mod cpu;
pub(crate) mod drawn;
pub(crate) mod frames;
#[allow(dead_code)]
#[path = "../../../tests/it/support/gpu.rs"]
pub(crate) mod gpu;
#[allow(dead_code)]
#[path = "../../../tests/it/support/images.rs"]
pub(crate) mod images;
#[allow(dead_code)]
#[path = "../../../tests/it/support/oracle.rs"]
pub(crate) mod oracle;
#[allow(dead_code)]
#[path = "../../../tests/it/support/paths.rs"]
pub(crate) mod paths;
pub(crate) mod readme;
#[path = "../../../tests/it/support/rows.rs"]
pub(crate) mod rows;
pub(crate) mod scenes;
#[allow(dead_code)]
#[path = "../../../tests/it/support/skip.rs"]
pub(crate) mod skip;
pub(crate) mod solutions;

pub(crate) use paths::{output_dir, readme_says, repo};
pub(crate) use readme::readme_table;
