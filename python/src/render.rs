//! `render`: Problems, Variants, Scene dicts or JSON lines from Python, drawn by the
//! drawing core (`draw`).

use crate::convert;
use crate::draw::{Draw, Format, Input, draw_all, to_py};
use crate::problem::PyProblem;
use crate::variant::PyVariant;
use pyo3::prelude::*;

/// What to draw, as given from Python: a Problem, a Variant, a dict or a string.
fn input(item: &Bound<'_, PyAny>) -> PyResult<Input> {
    if let Ok(p) = item.cast::<PyProblem>() {
        return Ok(Input::Problem(p.get().problem.clone()));
    }
    if let Ok(v) = item.cast::<PyVariant>() {
        return Ok(Input::Job(v.get().job.clone()));
    }
    if let Ok(s) = item.extract::<String>() {
        return Ok(Input::Line(s));
    }
    if item.is_instance_of::<pyo3::types::PyDict>() {
        return Ok(Input::Line(convert::dumps(item)?));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "render takes Problems, Variants, Scene dicts or JSON lines, not {}",
        item.get_type().name()?
    )))
}

/// Renders `items` (Problems: their base image; Variants; Scene dicts or JSON
/// lines) into `format` on `backend`, `threads` at a time (default: all cores).
#[pyfunction]
#[pyo3(signature = (items, size=None, backend="auto", format="array", threads=None))]
pub fn render<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    size: Option<u32>,
    backend: &str,
    format: &str,
    threads: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let format = Format::parse(format)?;
    let draw = Draw::parse(backend)?;
    let inputs: Vec<Input> = items
        .try_iter()?
        .map(|x| input(&x?))
        .collect::<PyResult<_>>()?;
    let outputs = draw_all(py, inputs, size, format, &draw, threads)?;
    outputs.into_iter().map(|o| to_py(py, o)).collect()
}
