//! Rust errors as Python exceptions: the classes live in `geomrender/_errors.py`
//! (so that they can also subclass `ValueError`); the message is the error's
//! Display, the text the CLI prints.

use pyo3::prelude::*;

/// The exception classes of `geomrender._errors`.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A keyword argument out of range or of the wrong kind.
    Option,
    /// Generation options out of range, or a problem that cannot be drawn.
    Generate,
    /// A variant SPEC or axis value that is not valid, or a variant that cannot be made.
    Variant,
    /// A Scene or Problem (dict, JSON) that breaks its contract.
    Scene,
    /// A backend that could not draw or encode.
    Render,
    /// Scoring inputs that cannot be read or scored.
    Score,
}

impl Kind {
    fn class(self) -> &'static str {
        match self {
            Kind::Option => "OptionError",
            Kind::Generate => "GenerateError",
            Kind::Variant => "VariantError",
            Kind::Scene => "SceneError",
            Kind::Render => "RenderError",
            Kind::Score => "ScoreError",
        }
    }
}

/// A Python exception of `kind` with `message`.
pub fn error(kind: Kind, message: impl std::fmt::Display) -> PyErr {
    let message = message.to_string();
    Python::attach(|py| {
        let made = py
            .import("geomrender._errors")
            .and_then(|m| m.getattr(kind.class()))
            .and_then(|class| class.call1((message.clone(),)));
        match made {
            Ok(exc) => PyErr::from_value(exc),
            // The package's own module is missing (the extension imported alone).
            Err(_) => pyo3::exceptions::PyValueError::new_err(message),
        }
    })
}

/// A line's fault as the exception of its kind.
pub fn line_error(e: &geomrender::pipeline::JobError) -> PyErr {
    use geomrender::pipeline::LineFault as F;
    let kind = match &*e.fault {
        F::Variant(_) => Kind::Variant,
        F::Render(_) | F::Compose(_) => Kind::Render,
        #[cfg(feature = "gpu")]
        F::Gpu(_) => Kind::Render,
        _ => Kind::Scene,
    };
    error(kind, e)
}
