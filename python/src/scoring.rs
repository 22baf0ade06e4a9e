//! `score`: the CLI's scoring of a manifest and prediction files, returned as
//! JSON texts (the report, as report.json has it, and items.jsonl's rows) that
//! `geomrender.Report` turns into tables.

use crate::errors::{Kind, error};
use geomrender::score::{MissingPolicy, PredictionFormat, ScoreOptions, Tolerance, score_paths};
use geomrender::words::Words;
use pyo3::prelude::*;
use std::path::PathBuf;

/// Scores `predictions` (files, directories or globs, as `--predictions`) against
/// `manifest` (`matched`: only the base problems with every variant, as
/// `--matched`); returns (report JSON, items JSON array).
#[pyfunction]
#[pyo3(signature = (manifest, predictions, tolerance, zero_tolerance, missing, format, matched=false))]
#[allow(clippy::too_many_arguments)]
pub fn score(
    py: Python<'_>,
    manifest: PathBuf,
    predictions: Vec<PathBuf>,
    tolerance: f64,
    zero_tolerance: f64,
    missing: &str,
    format: &str,
    matched: bool,
) -> PyResult<(String, String)> {
    let mut opts = ScoreOptions::default();
    opts.matched = matched;
    opts.tolerance = Tolerance {
        relative: tolerance,
        absolute_at_zero: zero_tolerance,
    };
    opts.missing = word::<MissingPolicy>(missing, "missing", &[])?;
    opts.format = match format {
        "auto" => None,
        other => Some(word::<PredictionFormat>(other, "format", &["auto"])?),
    };
    let fail = |e: &dyn std::fmt::Display| error(Kind::Score, e);
    py.detach(|| {
        let scoring = score_paths(&manifest, &predictions, &opts).map_err(|e| fail(&e))?;
        let report = serde_json::to_string(&scoring.report).map_err(|e| fail(&e))?;
        let items = serde_json::to_string(&scoring.items).map_err(|e| fail(&e))?;
        Ok((report, items))
    })
}

/// The value of the option `option` named `text`, or the package's `OptionError`
/// naming the words it takes (`extra` before them).
fn word<T: Words>(text: &str, option: &str, extra: &[&str]) -> PyResult<T> {
    geomrender::words::parse(text).map_err(|_| {
        let expected = geomrender::words::expected::<T>(extra);
        error(
            Kind::Option,
            format!("invalid value '{text}' for {option}: expected {expected}"),
        )
    })
}
