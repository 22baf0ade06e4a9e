//! `geomrender score --explain ID`: the extraction trace of one prediction, as text.

use super::accuracy::is_correct;
use super::cascade::{Extracted, RuleOutcome, option_letter};
use super::error::ScoreError;
use super::extract::explain;
use super::manifest::{Label, ManifestItem};
use super::predictions::ModelOutput;
use super::{LoadedFile, ScoreOptions, load};
use std::fmt::Write;

/// Explains every prediction for `id` (of `model` only, when given): label, raw and
/// normalised text, what each rule of the cascade read, and the verdict.
pub(crate) fn explain_id(
    manifest: &LoadedFile,
    predictions: &[LoadedFile],
    id: &str,
    model: Option<&str>,
    opts: &ScoreOptions,
) -> Result<String, ScoreError> {
    opts.validate()?;
    let loaded = load(manifest, predictions, opts.format)?;
    let item = loaded
        .items
        .iter()
        .find(|i| i.id == id)
        .ok_or_else(|| ScoreError::Explain(format!("id {id:?} is not in {}", manifest.name)))?;
    let mut out = String::new();
    let mut shown = 0;
    for p in loaded
        .predictions
        .iter()
        .filter(|p| p.id == id && model.is_none_or(|m| m == p.model))
    {
        if shown > 0 {
            out.push('\n');
        }
        shown += 1;
        let _ = writeln!(out, "id {id}  model {}  ({}:{})", p.model, p.file, p.line);
        match &p.output {
            ModelOutput::Text(text) => write_one(&mut out, item, text, opts),
            ModelOutput::Null => {
                let _ = writeln!(out, "raw         null: no output, counted as missing");
            }
            ModelOutput::TooLong { bytes } => {
                let _ = writeln!(
                    out,
                    "raw         {bytes} bytes, over the {}-byte bound: not read, unparsed (counted, not correct)",
                    super::MAX_PREDICTION_BYTES
                );
            }
        }
    }
    if shown == 0 {
        let who = model.map_or(String::new(), |m| format!(" from model {m:?}"));
        return Err(ScoreError::Explain(format!(
            "no prediction for id {id:?}{who}"
        )));
    }
    Ok(out)
}

fn write_one(out: &mut String, item: &ManifestItem, raw: &str, opts: &ScoreOptions) {
    let tol = &opts.tolerance;
    let _ = match &item.label {
        Label::Number(l) => {
            let allowed = if *l == 0.0 {
                tol.absolute_at_zero
            } else {
                tol.relative * l.abs()
            };
            writeln!(
                out,
                "label       {l} (correct within ±{}: {} to {})",
                display(allowed),
                display(l - allowed),
                display(l + allowed)
            )
        }
        Label::Choice { index, choices } => writeln!(
            out,
            "label       option {} = {:?} of {:?}",
            option_letter(*index),
            choices.get(*index).map_or("?", String::as_str),
            choices
        ),
    };
    let e = explain(raw, item.choices());
    let _ = writeln!(out, "raw         {raw:?}");
    let _ = writeln!(out, "normalized  {:?}", e.normalized);
    let mut decided = false;
    for a in &e.trace {
        let status = match &a.outcome {
            RuleOutcome::NotApplicable => "n/a (item has no choices)".to_string(),
            RuleOutcome::NoMatch => "no match".to_string(),
            RuleOutcome::NoValue { count, evidence } => {
                format!("{count} match(es), no value; last: {evidence:?}")
            }
            RuleOutcome::Fired { evidence, answer } => {
                let mark = if decided { "would read" } else { "FIRED" };
                decided = true;
                format!("{mark} {evidence:?} → {}", show(answer))
            }
            RuleOutcome::Hedged { evidence, options } => {
                let mark = if decided { "would read" } else { "FIRED" };
                decided = true;
                let named: Vec<String> = options.iter().map(|&i| option_letter(i).into()).collect();
                format!(
                    "{mark} {evidence:?} → options {} at once: unparsed",
                    named.join(", ")
                )
            }
        };
        let _ = writeln!(out, "  {:<27} {status}", a.rule.name());
    }
    let verdict = match e.answer {
        None => "no answer → unparsed (counted, not correct)".to_string(),
        Some(a) if is_correct(a, &item.label, tol) => format!("{} → correct", show(&Some(a))),
        Some(a) => format!("{} → wrong", show(&Some(a))),
    };
    let _ = writeln!(out, "extracted   by {}: {verdict}", e.rule);
}

/// A number for reading: rounded to 9 decimals so binary noise (1.3199999999999998)
/// does not show; the verdict itself uses the exact values.
fn display(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

fn show(answer: &Option<Extracted>) -> String {
    match answer {
        None => "no answer".to_string(),
        Some(a) => a.to_string(),
    }
}
