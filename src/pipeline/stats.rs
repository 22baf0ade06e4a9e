//! Busy time per pipeline stage, summed over threads, for `bench` and logs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Nanoseconds spent in each stage, summed over every thread that worked on it.
#[derive(Debug, Default)]
pub struct StageTimes {
    /// Parsing, validation, tessellation and text shaping (rayon workers).
    pub prepare: AtomicU64,
    /// Encoding and submitting frames, including glyph rasterisation (GPU thread).
    pub gpu_submit: AtomicU64,
    /// Waiting for frames to finish and copying tiles out (GPU thread).
    pub gpu_wait: AtomicU64,
    /// Rendering scenes with the CPU backend (rayon workers).
    pub render_cpu: AtomicU64,
    /// The pixel stage: variants' hooks on the rendered pixels (rayon workers, or
    /// the sink for GPU images).
    pub pixels: AtomicU64,
    /// Image encoding and hashing (rayon workers).
    pub encode: AtomicU64,
    /// Writing image files and manifest rows.
    pub write: AtomicU64,
    /// Writing the `--sink` datasets (sink thread, and finishing them).
    pub datasets: AtomicU64,
}

impl StageTimes {
    /// `(stage name, busy time)` in pipeline order.
    pub(crate) fn list(&self) -> [(&'static str, Duration); 8] {
        let d = |a: &AtomicU64| Duration::from_nanos(a.load(Ordering::Relaxed));
        [
            ("prepare", d(&self.prepare)),
            ("gpu submit", d(&self.gpu_submit)),
            ("gpu wait + readback", d(&self.gpu_wait)),
            ("cpu render", d(&self.render_cpu)),
            ("pixels", d(&self.pixels)),
            ("encode", d(&self.encode)),
            ("write", d(&self.write)),
            ("datasets", d(&self.datasets)),
        ]
    }
}

impl Clone for StageTimes {
    fn clone(&self) -> Self {
        let c = |a: &AtomicU64| AtomicU64::new(a.load(Ordering::Relaxed));
        StageTimes {
            prepare: c(&self.prepare),
            gpu_submit: c(&self.gpu_submit),
            gpu_wait: c(&self.gpu_wait),
            render_cpu: c(&self.render_cpu),
            pixels: c(&self.pixels),
            encode: c(&self.encode),
            write: c(&self.write),
            datasets: c(&self.datasets),
        }
    }
}

/// Adds the time until it is dropped to a stage counter.
pub(crate) struct Timer<'a> {
    start: Instant,
    into: &'a AtomicU64,
}

impl<'a> Timer<'a> {
    pub(crate) fn new(into: &'a AtomicU64) -> Self {
        Timer {
            start: Instant::now(),
            into,
        }
    }
}

impl Drop for Timer<'_> {
    fn drop(&mut self) {
        self.into
            .fetch_add(self.start.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }
}
