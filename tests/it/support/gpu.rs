//! The shared GPU renderer (rendering through its frames: `src/tests/support/frames.rs`).
//!
//! Tests ask for the renderer with [`gpu_or_skip`]: `None` means no adapter could be
//! opened outside CI, and the test returns after a visible `SKIPPED` line. Under
//! `CI=true` a missing adapter fails the test instead (see [`gpu`]).

use super::skip::{skipped, under_ci};
use geomrender::render::gpu::{GpuOptions, GpuRenderer, TargetSize};
use std::sync::{Mutex, MutexGuard, OnceLock};

static GPU: OnceLock<Option<Mutex<GpuRenderer>>> = OnceLock::new();

/// The shared renderer, or `None` when there is no adapter outside CI. Under
/// `CI=true` a missing adapter panics (the test fails) instead. Tests call
/// [`gpu_or_skip`], which also reports the skip.
pub fn gpu() -> Option<MutexGuard<'static, GpuRenderer>> {
    // 2048² frames, so that batches really tile (the software default is one 512² scene per frame).
    let options = GpuOptions {
        target_size: TargetSize::square(2048),
        ..GpuOptions::default()
    };
    let slot = GPU.get_or_init(|| match GpuRenderer::new(options) {
        Ok(r) => Some(Mutex::new(r)),
        Err(e) => {
            if under_ci() {
                panic!("GPU tests are required under CI=true but no renderer could start: {e}");
            }
            eprintln!("no GPU renderer: {e}");
            None
        }
    });
    slot.as_ref()
        .map(|m| m.lock().unwrap_or_else(|p| p.into_inner()))
}

/// [`gpu`], printing `SKIPPED <test>: no GPU adapter` (and counting it) when there is
/// none. Usage: `let Some(mut r) = gpu_or_skip() else { return };`.
pub fn gpu_or_skip() -> Option<MutexGuard<'static, GpuRenderer>> {
    gpu_or_skip_part("")
}

/// [`gpu_or_skip`] for a test whose GPU part is only a part of it: the skip line
/// names `part` (e.g. "the GPU half; the CPU half ran").
pub fn gpu_or_skip_part(part: &str) -> Option<MutexGuard<'static, GpuRenderer>> {
    let r = gpu();
    if r.is_none() {
        if part.is_empty() {
            skipped("no GPU adapter");
        } else {
            skipped(&format!("no GPU adapter ({part})"));
        }
    }
    r
}
