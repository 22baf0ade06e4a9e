//! Scoring model predictions per variant (`geomrender score`).
//!
//! Reads the render manifest and one or more prediction files, extracts an answer
//! from every raw model output with an auditable rule cascade (`extract`), marks it
//! with GeomVerse's relaxed accuracy ([`Tolerance`]), and reports accuracy with
//! Wilson intervals per (model, axis, value) plus the paired exact McNemar comparison
//! of each variant with its base image ([`Report`]). Multiple-choice GeomRel relation
//! items (an option read by its letter or text) are also reported per relation,
//! domain, subset and mode, with the "Cannot be inferred" class's precision, recall
//! and F1 (`RelationItem`, `CannotInferRow`). Every row states how many base
//! problems it counts, within the report's `BaseSet` (all, or with `--matched`
//! only those with every variant), and blind baselines (`Baselines`) show what the
//! question text alone gets. [`write_report`] writes
//! `report.json`, `report.md` and the plots, [`write_items`] the per-image verdicts
//! (`items.jsonl`, [`ItemRow`]), each atomically.
//!
//! ```text
//! manifest     the manifest's items: id, base, variant, gold answer
//! relations    GeomRel relation rows: relation, domain, subset, mode
//! inputs       `--predictions` files, directories and globs, expanded
//! predictions  prediction files (JSONL, CSV, and the harnesses' via `harness`, `xlsx`)
//! harness      lmms-eval and VLMEvalKit result files
//! xlsx         VLMEvalKit .xlsx results, bounded
//! table        a VLMEvalKit result table's columns and rows, whatever its file type
//! normalize    text clean-up and number parsing
//! cascade      the cascade's vocabulary: Answer, Rule, Outcome, triggers, the answer clause
//! extract      the answer extraction cascade
//! letters      option letters as models write them, and hedges naming several
//! option_text  the cascade's rule for an option named by its text
//! accuracy     GeomVerse's relaxed accuracy (`Tolerance`)
//! join         predictions matched to items, answers extracted and marked
//! stats        Wilson intervals, exact McNemar, Holm
//! base_set     which base problems the rows count: all, or those with every variant (`--matched`)
//! tally        items counted into rows: Key, Layout, Tally, a Row from its tally
//! report       the report: per (model, axis, value) accuracy and paired flips
//! relation_report  relation items: accuracy per relation, domain, subset, mode;
//!              the "Cannot be inferred" class's precision, recall and F1
//! consistency  per (model, axis): base problems answered the same way on every variant
//! modality     per model: the blank control's gap and the vision gain, how much the score needs the diagram
//! perception   the probes (`probes.jsonl`) per type, joined with the reasoning verdict on the same image
//! blind        blind baselines: what the question text alone gets, cross-fitted by base
//! not_drawn    the run's variants not drawn (`skipped.jsonl`), per value and reason
//! items        per-image verdicts (`items.jsonl`)
//! flips        the items whose verdict flips against their base image, per model
//! markdown     `report.md`
//! html         `report.html`: the tables, the plots inline, the flips filterable
//! plot         accuracy plots (PNG and SVG)
//! trace        `--explain ID`: one prediction's extraction trace
//! write        the report directory, atomically
//! error        why scoring failed, or which input line was rejected
//! ```
//!
//! ```no_run
//! use geomrender::score::{LoadedFile, ScoreOptions, score, write_report};
//! # fn main() -> Result<(), geomrender::score::ScoreError> {
//! let manifest = LoadedFile::read("out/manifest.jsonl".as_ref())?;
//! let preds = vec![LoadedFile::read("gpt.jsonl".as_ref())?];
//! let report = score(&manifest, &preds, &ScoreOptions::default())?;
//! write_report(&report, "out/report".as_ref())?;
//! # Ok(()) }
//! ```

mod accuracy;
mod base_set;
mod blind;
mod cascade;
mod consistency;
mod error;
mod extract;
mod flips;
mod harness;
mod html;
mod inputs;
mod items;
mod join;
mod letters;
mod manifest;
mod markdown;
mod modality;
mod normalize;
mod not_drawn;
mod option_text;
mod perception;
mod plot;
mod predictions;
mod relation_report;
mod relations;
mod report;
mod stats;
mod table;
mod tally;
mod trace;
mod write;
mod xlsx;

pub use accuracy::Tolerance;
pub use base_set::{BaseSet, BaseSetKind};
pub use blind::{BaselineReport, Baselines, BlindBaseline, SummaryRow, folds::Fold};
pub use cascade::Rule;
#[cfg(test)]
pub(crate) use cascade::{Extracted, RuleOutcome};
pub use consistency::Consistency;
pub use error::{LineReason, RejectedLine, ScoreError};
#[cfg(test)]
pub(crate) use extract::{explain, extract};
pub(crate) use flips::flips;
pub use flips::{Flip, FlipDirection};
pub use harness::PredictionFormat;
pub(crate) use harness::{parse_lmms_eval, parse_vlmevalkit};
pub(crate) use html::write_html;
pub(crate) use inputs::expand_predictions;
pub(crate) use items::ITEMS_SCHEMA;
pub(crate) use items::item_rows;
pub use items::{ItemRow, RelationKeys, Scalar};
pub(crate) use join::score_predictions;
pub(crate) use manifest::{BASE_AXIS, ManifestItem, parse_manifest};
pub use modality::ModalityRow;
pub use not_drawn::NotDrawn;
pub(crate) use not_drawn::read_not_drawn;
pub(crate) use predictions::{Prediction, parse_predictions};
pub use relation_report::{CannotInferRow, PairedGroupRow};
pub use report::{
    Breakdowns, GroupRow, Inputs, ItemCounts, ModelSummary, Perception, Report, ReportAxis,
    ScoredFile,
};
use serde::Serialize;
pub use stats::Interval;
#[cfg(test)]
pub(crate) use stats::{Z_95, mcnemar_exact, wilson};
use std::path::{Path, PathBuf};
pub use tally::TallyRow;
pub(crate) use trace::explain_id;
pub use write::{ReportFiles, write_items, write_report};
#[cfg(test)]
pub(crate) use xlsx::MAX_XLSX_BYTES;

/// The JSON Schema of `report.json`.
pub(crate) const REPORT_SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// What a manifest item without a prediction from a model counts as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum MissingPolicy {
    /// Left out of `n` (accuracy over answered items); still counted in `missing`.
    #[default]
    Exclude,
    /// Counted in `n` as a wrong answer.
    Wrong,
}

crate::words!(MissingPolicy, "missing", {
    Exclude => "exclude",
    Wrong => "wrong",
});

/// Options of a scoring run; the CLI fills the same struct.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ScoreOptions {
    /// Relaxed-accuracy tolerance (default 3 %, absolute 0.005 for zero labels).
    pub tolerance: Tolerance,
    /// How missing predictions count (default: excluded, and reported).
    pub missing: MissingPolicy,
    /// The layout of every predictions file; `None` detects it per file
    /// (`PredictionFormat::detect`).
    pub format: Option<PredictionFormat>,
    /// Count only the matched bases (`BaseSet`): those with an image of every
    /// variant in the manifest and, under [`MissingPolicy::Exclude`], every model's
    /// prediction on each, so that every row describes the same problems. Off: every
    /// base, and each row states how many it counts.
    pub matched: bool,
}

impl ScoreOptions {
    /// Checks that the tolerances are finite and not negative.
    pub(crate) fn validate(&self) -> Result<(), ScoreError> {
        let check = |option, v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(ScoreError::BadOption {
                    option,
                    message: format!("must be a finite number ≥ 0, got {v}"),
                })
            }
        };
        check("tolerance", self.tolerance.relative)?;
        check("zero-tolerance", self.tolerance.absolute_at_zero)
    }
}

/// Most bytes `score` reads from one input file (the manifest, or one predictions
/// file of any layout): 1 GiB. A predictions file of 100,000 outputs of 2 KB each is
/// 200 MB; a larger one can be split, since `--predictions` may be repeated.
pub(crate) const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Longest line of a JSONL predictions file (geomrender or lmms-eval): 16 MiB. An
/// lmms-eval sample holds its output twice (`resps`, `filtered_resps`) beside the
/// dataset row, JSON-escaped; 16 MiB leaves room for that at
/// [`MAX_PREDICTION_BYTES`]. A longer line is a line error; the other lines are
/// scored. Manifest lines have the render input's bound,
/// `crate::jsonl::MAX_LINE_BYTES`.
pub(crate) const MAX_PREDICTION_LINE_BYTES: usize = 16 << 20;

/// Longest model output that is scored: 1 MiB of text (some 250,000 tokens, far
/// beyond any generation limit). A longer one is a line error naming its id, so that
/// answer extraction never runs on it.
pub(crate) const MAX_PREDICTION_BYTES: usize = 1 << 20;

/// An input file: its name as given (used in errors and the report) and its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl LoadedFile {
    /// Reads a file whole, at most `MAX_INPUT_BYTES` (see `LoadedFile::read_at_most`).
    pub fn read(path: &Path) -> Result<LoadedFile, ScoreError> {
        LoadedFile::read_at_most(path, MAX_INPUT_BYTES)
    }

    /// Reads a file whole, refusing it ([`ScoreError::TooLarge`]) when it holds more
    /// than `max` bytes. The bytes are counted as they are read, so a FIFO, a device
    /// such as `/dev/zero` or a file that keeps growing stops at the bound; a regular
    /// file already larger is refused before a byte is read.
    pub(crate) fn read_at_most(path: &Path, max: u64) -> Result<LoadedFile, ScoreError> {
        use std::io::Read;
        let fail = |e| ScoreError::io(path.display(), e);
        let too_large = || ScoreError::TooLarge {
            path: path.display().to_string(),
            max,
        };
        let file = std::fs::File::open(path).map_err(fail)?;
        let meta = file.metadata().map_err(fail)?;
        if meta.is_file() && meta.len() > max {
            return Err(too_large());
        }
        let hint = if meta.is_file() { meta.len() } else { 0 };
        let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
        file.take(max.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(fail)?;
        if bytes.len() as u64 > max {
            return Err(too_large());
        }
        Ok(LoadedFile {
            name: path.display().to_string(),
            bytes,
        })
    }

    fn sha256(&self) -> String {
        crate::digest::sha256_hex(&self.bytes)
    }
}

/// Parsed inputs: valid items and predictions, rejected lines, file bookkeeping.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Loaded {
    pub items: Vec<ManifestItem>,
    pub predictions: Vec<Prediction>,
    pub errors: Vec<RejectedLine>,
    pub inputs: Inputs,
}

/// What a manifest with no valid row holds instead, judged by its first line.
fn why_empty(text: &[u8], errors: &[RejectedLine]) -> String {
    const READS: &str =
        "score reads the manifest.jsonl that `render` or `sweep` writes beside the images";
    let first = crate::jsonl::split(text, crate::jsonl::MAX_LINE_BYTES)
        .next()
        .and_then(|(_, raw)| serde_json::from_slice::<serde_json::Value>(raw.ok()?).ok());
    let has = |k: &str| first.as_ref().is_some_and(|v| v.get(k).is_some());
    if has("diagram") || (has("question") && !has("image")) {
        format!("it holds Problems (from `geomrender generate`), not rendered images; {READS}")
    } else if has("items") && !has("image") {
        format!("it holds Scenes (draw lists), not rendered images; {READS}")
    } else if let Some(e) = errors.first() {
        format!("all {} rows were rejected, the first: {e}", errors.len())
    } else {
        format!("the file is empty; {READS}")
    }
}

/// Parses the manifest and every prediction file (in `format`, or detected per file;
/// the model defaults to the file stem, see [`PredictionFormat::model_name`]).
pub(crate) fn load(
    manifest: &LoadedFile,
    predictions: &[LoadedFile],
    format: Option<PredictionFormat>,
) -> Result<Loaded, ScoreError> {
    let (items, mut errors) = parse_manifest(&manifest.bytes, &manifest.name);
    if items.is_empty() {
        return Err(ScoreError::EmptyManifest {
            file: manifest.name.clone(),
            why: why_empty(&manifest.bytes, &errors),
        });
    }
    let manifest_file = input_file(manifest, items.len());
    let mut all = Vec::new();
    let mut files = Vec::new();
    for src in predictions {
        let format = format.unwrap_or_else(|| PredictionFormat::detect(&src.name, &src.bytes));
        let model = format.model_name(&src.name);
        let (preds, errs) = match format {
            PredictionFormat::Geomrender => parse_predictions(&src.bytes, &src.name, &model),
            PredictionFormat::LmmsEval => parse_lmms_eval(&src.bytes, &src.name, &model),
            PredictionFormat::VlmEvalKit => {
                parse_vlmevalkit(&src.bytes, &src.name, &model, &items)?
            }
        };
        if preds.is_empty() && !errs.is_empty() {
            return Err(ScoreError::Predictions {
                file: src.name.clone(),
                message: format!(
                    "no line matches a known layout (expected {}); the first: {}",
                    error::EXPECTED,
                    errs[0]
                ),
            });
        }
        files.push(input_file(src, preds.len()));
        all.extend(preds);
        errors.extend(errs);
    }
    Ok(Loaded {
        items,
        predictions: all,
        errors,
        inputs: Inputs {
            manifest: manifest_file,
            predictions: files,
        },
    })
}

fn input_file(src: &LoadedFile, accepted: usize) -> ScoredFile {
    ScoredFile {
        path: src.name.clone(),
        sha256: src.sha256(),
        lines: crate::jsonl::split(&src.bytes, usize::MAX).count(),
        accepted,
    }
}

/// Loads, extracts, scores and aggregates: the whole report, written nowhere.
/// Rejected lines are listed in [`Report::errors`]; they do not stop the run.
pub fn score(
    manifest: &LoadedFile,
    predictions: &[LoadedFile],
    opts: &ScoreOptions,
) -> Result<Report, ScoreError> {
    Ok(score_with_items(manifest, None, predictions, opts)?.report)
}

/// A scoring run's results: the report, every model's verdict on every image
/// ([`ItemRow`], `items.jsonl`), and the verdicts that flip against the base
/// (`Flip`, `report.html`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scoring {
    pub report: Report,
    pub items: Vec<ItemRow>,
    pub flips: Vec<Flip>,
}

/// `manifest`, and `predictions` as files, directories or globs
/// (`expand_predictions`), read whole ([`LoadedFile::read`]).
pub(crate) fn read_sources(
    manifest: &Path,
    predictions: &[PathBuf],
) -> Result<(LoadedFile, Vec<LoadedFile>), ScoreError> {
    let source = LoadedFile::read(manifest)?;
    let predictions = expand_predictions(predictions)?
        .iter()
        .map(|p| LoadedFile::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((source, predictions))
}

/// What `geomrender score` computes from paths: `manifest`, and `predictions` as
/// files, directories or globs (`expand_predictions`); the report carries the
/// run's variants not drawn (`skipped.jsonl` beside the manifest) and its rejected
/// lines sorted by file and line. The CLI and the Python package both call it.
pub fn score_paths(
    manifest: &Path,
    predictions: &[PathBuf],
    opts: &ScoreOptions,
) -> Result<Scoring, ScoreError> {
    let (source, predictions) = read_sources(manifest, predictions)?;
    let probes_path = manifest.with_file_name(crate::output::probes::FILE);
    let probes = match probes_path.is_file() {
        true => Some(LoadedFile::read(&probes_path)?),
        false => None,
    };
    let mut scoring = score_with_items(&source, probes.as_ref(), &predictions, opts)?;
    let report = &mut scoring.report;
    let (not_drawn, bad) = read_not_drawn(manifest)
        .map_err(|e| ScoreError::io(manifest.with_file_name("skipped.jsonl").display(), e))?;
    report.not_drawn = not_drawn;
    report.run = crate::output::record::provenance_beside(manifest);
    report.errors.extend(bad);
    report
        .errors
        .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    Ok(scoring)
}

/// [`score`], with the per-image verdicts of every model ([`ItemRow`]) and the flips;
/// with the run's `probes.jsonl`, the probes' predictions are scored apart and
/// joined with the reasoning verdicts ([`Perception`]).
pub(crate) fn score_with_items(
    manifest: &LoadedFile,
    probes: Option<&LoadedFile>,
    predictions: &[LoadedFile],
    opts: &ScoreOptions,
) -> Result<Scoring, ScoreError> {
    opts.validate()?;
    let mut loaded = load(manifest, predictions, opts.format)?;
    let (probe_items, probe_errors) = match probes {
        Some(f) => perception::parse_probes(&f.bytes, &f.name),
        None => Default::default(),
    };
    loaded.errors.extend(probe_errors);
    // Predictions on probes are scored apart: the report's rows are the images'.
    let probe_ids: std::collections::HashSet<&str> =
        probe_items.iter().map(|p| p.item.id.as_str()).collect();
    let (on_probes, on_images): (Vec<Prediction>, Vec<Prediction>) = (loaded.predictions)
        .into_iter()
        .partition(|p| probe_ids.contains(p.id.as_str()));
    loaded.predictions = on_images;
    let scored = score_predictions(&loaded.items, &loaded.predictions, &opts.tolerance);
    let probe_list: Vec<ManifestItem> = probe_items.iter().map(|p| p.item.clone()).collect();
    let probe_scored = score_predictions(&probe_list, &on_probes, &opts.tolerance);
    let perception = perception::perception(&loaded.items, &scored, &probe_items, &probe_scored);
    let rows = item_rows(&loaded.items, &scored);
    let flips = flips(&loaded.items, &rows, &loaded.predictions);
    let mut errors = loaded.errors;
    errors.extend(scored.errors.iter().cloned());
    let report = report::build_report(
        report::BuildInput {
            items: &loaded.items,
            scored: &scored,
            inputs: loaded.inputs,
            errors,
            predictions: loaded.predictions.len(),
        },
        opts,
    );
    let mut report = report;
    report.perception = perception;
    let mut flips = flips;
    perception::annotate_flips(&mut flips, &probe_items, &probe_scored);
    Ok(Scoring {
        report,
        items: rows,
        flips,
    })
}
