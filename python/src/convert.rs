//! JSON text ↔ Python objects, through Python's own `json` (the exact values, and
//! dicts in key order).

use pyo3::prelude::*;

/// `json.loads(text)`.
pub fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// `json.dumps(value)`: a dict given as a Scene or Problem (a `SceneError` when it
/// is not JSON data: NaN, an object that is not a number, string, list or dict).
pub fn dumps(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = value.py();
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("allow_nan", false)?;
    py.import("json")?
        .call_method("dumps", (value,), Some(&kwargs))
        .map_err(|e| {
            let why = e.value(py).to_string();
            crate::errors::error(crate::errors::Kind::Scene, format!("not JSON data: {why}"))
        })?
        .extract()
}

/// A serde value as a Python object.
pub fn to_py<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    loads(py, &text)
}
