//! `score`: the CLI's scoring of a manifest and prediction files, returned as
//! JSON texts (the report, as report.json has it, and items.jsonl's rows) that
//! `geomrender.Report` turns into tables.

use crate::errors::{Kind, error};
use geomrender::score::{MissingPolicy, PredictionFormat, ScoreOptions, Tolerance, score_paths};
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
    opts.missing = match missing {
        "exclude" => MissingPolicy::Exclude,
        "wrong" => MissingPolicy::Wrong,
        other => {
            return Err(error(
                Kind::Option,
                format!("invalid value '{other}' for missing: expected exclude or wrong"),
            ));
        }
    };
    opts.format = match format {
        "auto" => None,
        "geomrender" => Some(PredictionFormat::Geomrender),
        "lmms-eval" => Some(PredictionFormat::LmmsEval),
        "vlmevalkit" => Some(PredictionFormat::VlmEvalKit),
        other => {
            return Err(error(
                Kind::Option,
                format!(
                    "invalid value '{other}' for format: expected auto, geomrender, lmms-eval or vlmevalkit"
                ),
            ));
        }
    };
    let fail = |e: &dyn std::fmt::Display| error(Kind::Score, e);
    py.detach(|| {
        let scoring = score_paths(&manifest, &predictions, &opts).map_err(|e| fail(&e))?;
        let report = serde_json::to_string(&scoring.report).map_err(|e| fail(&e))?;
        let items = serde_json::to_string(&scoring.items).map_err(|e| fail(&e))?;
        Ok((report, items))
    })
}
