//! Long work in chunks: each chunk runs with the GIL released, and between chunks
//! Python's signal handlers run (`Python::check_signals`), so Ctrl-C stops a long
//! `generate`, `render` or Stream batch within about a tenth of a second (as
//! `KeyboardInterrupt`) instead of when the whole call returns. Chunks are sized
//! by how long the last one took, whatever the build, machine or image size.

use pyo3::prelude::*;
use std::time::{Duration, Instant};

/// How long a chunk should take.
const TARGET: Duration = Duration::from_millis(100);

/// The length of the next chunk, from how long the last one took.
pub struct Pacer {
    len: usize,
    started: Instant,
}

impl Pacer {
    /// A first chunk of `first` items.
    pub fn new(first: usize) -> Pacer {
        Pacer {
            len: first.max(1),
            started: Instant::now(),
        }
    }

    /// The next chunk's length; its clock starts now.
    pub fn next_len(&mut self) -> usize {
        self.started = Instant::now();
        self.len
    }

    /// `done` items took the time since [`Pacer::next_len`]: the next chunk is
    /// sized to take [`TARGET`] at that pace (at most four times longer).
    pub fn done(&mut self, done: usize) {
        let took = self.started.elapsed().as_secs_f64();
        let pace = done.max(1) as f64 * TARGET.as_secs_f64() / took.max(1e-6);
        self.len = (pace as usize).clamp(1, self.len.saturating_mul(4));
    }
}

/// `f` over `items`, a chunk at a time (the first `first` long), off the GIL; the
/// results in order. Stops at the first error, or at a signal handler's
/// exception (Ctrl-C: `KeyboardInterrupt`) between chunks.
pub fn in_chunks<T: Sync, R: Send>(
    py: Python<'_>,
    items: &[T],
    first: usize,
    mut f: impl FnMut(&[T]) -> PyResult<Vec<R>> + Send,
) -> PyResult<Vec<R>> {
    let mut out = Vec::new();
    out.try_reserve_exact(items.len())
        .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(e.to_string()))?;
    let mut pacer = Pacer::new(first);
    let mut at = 0;
    while at < items.len() {
        py.check_signals()?;
        let chunk = &items[at..items.len().min(at + pacer.next_len())];
        out.extend(py.detach(|| f(chunk))?);
        pacer.done(chunk.len());
        at += chunk.len();
    }
    Ok(out)
}
