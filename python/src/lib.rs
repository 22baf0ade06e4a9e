//! `geomrender._native`: the Rust side of the Python package (python/geomrender/).
//!
//! Thin bindings over the library: every byte a function returns is made by the
//! same code the CLI runs, and the GIL is released for all the Rust work.
//!
//! ```text
//! errors    Rust errors → the Python GeomrenderError hierarchy (geomrender/_errors.py)
//! convert   JSON text ↔ Python objects
//! memory    what may still be allocated: refuse what cannot fit, MemoryError, never an abort
//! chunks    long work in chunks with the GIL released, Ctrl-C checked between them
//! draw      the drawing core: inputs → arrays (zero copy), PNG, SVG; the thread pool
//! problem   Problem (frozen), Generator, generate
//! variant   Variant (frozen), variants, axes
//! render    render: Problems, Variants, Scene dicts → images (through draw)
//! stream    stream_batch: the samples of a slice of indices, for geomrender.Stream
//! score     score: manifest + predictions → the report and per-item verdicts, as JSON
//! ```

mod chunks;
mod convert;
mod draw;
mod errors;
mod memory;
mod problem;
mod render;
mod scoring;
mod stream;
mod variant;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The defaults the CLI uses, from the library (one definition each).
    m.add("GEOMVERSE_SWEEP", geomrender::variants::GEOMVERSE_SWEEP)?;
    m.add("RELATION_SWEEP", geomrender::variants::RELATION_SWEEP)?;
    m.add(
        "DEFAULT_INDETERMINATE",
        geomrender::generate::relations::DEFAULT_INDETERMINATE,
    )?;
    m.add("MAX_DEPTH", geomrender::generate::MAX_DEPTH)?;
    m.add("MAX_THREADS", draw::MAX_THREADS)?;
    // Whether backend="gpu" is built in (`--features gpu`).
    m.add("GPU", cfg!(feature = "gpu"))?;
    m.add("MAX_SIZE", geomrender::scene::limits::MAX_DIMENSION)?;
    let tolerance = geomrender::score::Tolerance::default();
    m.add("DEFAULT_TOLERANCE", tolerance.relative)?;
    m.add("DEFAULT_ZERO_TOLERANCE", tolerance.absolute_at_zero)?;
    m.add_class::<problem::PyProblem>()?;
    m.add_class::<problem::PyGenerator>()?;
    m.add_class::<variant::PyVariant>()?;
    m.add_class::<draw::PixelBuffer>()?;
    m.add_function(wrap_pyfunction!(problem::generate, m)?)?;
    m.add_function(wrap_pyfunction!(variant::variants, m)?)?;
    m.add_function(wrap_pyfunction!(variant::axes, m)?)?;
    m.add_function(wrap_pyfunction!(render::render, m)?)?;
    m.add_function(wrap_pyfunction!(draw::backend_name, m)?)?;
    m.add_function(wrap_pyfunction!(problem::problem_from_pickle, m)?)?;
    m.add_function(wrap_pyfunction!(variant::variant_from_pickle, m)?)?;
    m.add_function(wrap_pyfunction!(stream::stream_batch, m)?)?;
    m.add_function(wrap_pyfunction!(stream::check_stream, m)?)?;
    m.add_function(wrap_pyfunction!(stream::epoch_seed, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::score, m)?)?;
    Ok(())
}
