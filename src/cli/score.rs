//! `geomrender score`: score model predictions per variant and write the report.

use super::words::{OrNone, or_none};
use crate::score::{self, MissingPolicy, ScoreOptions, Tolerance};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

/// How many rejected lines are printed to stderr (all are in report.json).
const SHOWN_ERRORS: usize = 20;

/// Score model predictions per variant: accuracy, intervals, flips, plots.
///
/// Extracts an answer from each raw model output (an auditable rule cascade, see
/// --explain), marks it with relaxed accuracy, and reports accuracy per variant axis and
/// value with 95 % Wilson intervals, plus the paired flips of each variant against the
/// base image of the same problem (exact McNemar test). Every row states how many base
/// problems it counts (--matched: only those with every variant), and blind baselines
/// (the question text alone, cross-fitted by base) stand beside the models.
///
/// Writes OUT/report.json (schema: schemas/report.schema.json), OUT/report.md and
/// OUT/accuracy.{png,svg}, OUT/flips.{png,svg}. Exit status: 0 all lines valid; 1 some
/// lines were rejected (duplicate or unknown prediction ids, malformed lines: the
/// report is still written and lists them); 2 the run could not proceed.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The manifest written by `geomrender render` or `sweep` (DIR/manifest.jsonl): one
    /// JSON object per image with id, base_id, variant, answer and params. A
    /// multiple-choice item has a `choices` array and a letter `answer`: GeomRel
    /// relation rows ("task": "relations", with relation, domain, subset and mode) are
    /// reported also per relation, domain, subset and mode, with precision, recall and
    /// F1 of "Cannot be inferred"; GeomVerse rows are numeric.
    #[arg(long, value_name = "MANIFEST.jsonl")]
    manifest: PathBuf,

    /// A predictions file, one JSON object per line: {"id": ..., "prediction": "<raw
    /// model output>", "model": "<name>"}; model defaults to the file name without its
    /// extension. "prediction": null means no output for that image: it counts as
    /// missing (see --missing), as does null in an lmms-eval sample. lmms-eval
    /// --log_samples files and VLMEvalKit result tables are read too (see
    /// --predictions-format). Also a directory (its .jsonl, .xlsx, .tsv and .csv
    /// files) or a glob such as 'logs/*/*_samples_*.jsonl' (quoted; `*`, `?`, `[…]`
    /// per path component); one that gives no file is an error. Repeat the flag to
    /// compare several models. Each file is read up to 1 GiB, a line up to 16 MiB, a
    /// model output up to 1 MiB; a longer line or output is a line error and the rest
    /// is scored.
    #[arg(long = "predictions", value_name = "FILE|DIR|GLOB", required = true)]
    predictions: Vec<PathBuf>,

    /// Relative tolerance of relaxed accuracy: correct when
    /// |prediction − label| ≤ TOLERANCE · |label| (GeomVerse uses 0.03).
    #[arg(long, value_name = "FRACTION", default_value_t = Tolerance::DEFAULT_RELATIVE, allow_negative_numbers = true)]
    tolerance: f64,

    /// Absolute tolerance used only for labels equal to 0, where a relative one is
    /// meaningless: correct when |prediction| ≤ this. The default is half a unit of
    /// the 2 decimals GeomVerse rounds answers to.
    #[arg(long, value_name = "ABS", default_value_t = Tolerance::DEFAULT_ABSOLUTE_AT_ZERO, allow_negative_numbers = true)]
    zero_tolerance: f64,

    /// How an image without a prediction (no line, or "prediction": null) counts:
    /// `exclude` leaves it out of n (it is still counted and listed as missing),
    /// `wrong` scores it as a wrong answer.
    #[arg(long, value_enum, default_value = "exclude")]
    missing: MissingPolicy,

    /// Count only the matched base problems: those with an image of every variant
    /// (axis and value) in the manifest, the base image included, and, under
    /// --missing exclude, a prediction from every model for each. Every row,
    /// paired comparison, consistency figure, breakdown and blind baseline then
    /// describes the same problems. A variant not made for every base (`opacity`
    /// where it would equal the base, `unrelated`, `aux`) otherwise makes its rows
    /// count a subset. Either way the report states the base set (`base_set`) and
    /// each row's number of bases.
    #[arg(long)]
    matched: bool,

    /// Directory for the report files (created if needed; files are replaced
    /// atomically).
    #[arg(long, value_name = "DIR", required_unless_present = "explain")]
    out: Option<PathBuf>,

    /// Instead of writing a report, print the extraction trace of the prediction(s)
    /// for this id: the label, raw and normalised text, what every rule of the
    /// cascade read, and the verdict. Reads --manifest and --predictions; writes
    /// nothing.
    #[arg(long, value_name = "ID")]
    explain: Option<String>,

    /// Also write OUT/report.html: the tables, the plots inline, and every item
    /// whose verdict flips against its base image (image, question, raw output,
    /// extracted and gold answer), filterable by model, axis, variant and
    /// verdict. Opens from file:// without a server; images are linked from the
    /// manifest's directory, not copied.
    #[arg(long, conflicts_with = "explain")]
    html: bool,

    /// The layout of the --predictions files: `auto` tells per file (by extension, and
    /// for JSONL by its first line); `geomrender` ({"id","prediction"} lines),
    /// `lmms-eval` (--log_samples JSONL; the model is the folder it is in) or
    /// `vlmevalkit` (a result .xlsx/.tsv/.csv with index and prediction; the model is
    /// the file name without _GeomRender).
    #[arg(long, default_value = "auto", value_name = "FORMAT",
          value_parser = or_none::<score::PredictionFormat>("auto", "from the file: its extension, then its first line"))]
    predictions_format: OrNone<score::PredictionFormat>,

    /// With --explain: only this model's prediction.
    #[arg(long, value_name = "NAME", requires = "explain")]
    model: Option<String>,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = ScoreOptions {
        tolerance: Tolerance {
            relative: args.tolerance,
            absolute_at_zero: args.zero_tolerance,
        },
        format: args.predictions_format,
        missing: args.missing,
        matched: args.matched,
        ..ScoreOptions::default()
    };
    if let Some(id) = &args.explain {
        let (manifest, predictions) = score::read_sources(&args.manifest, &args.predictions)?;
        let text = score::explain_id(&manifest, &predictions, id, args.model.as_deref(), &opts)?;
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    let out = args.out.context("--out is required")?;
    let scoring = score::score_paths(&args.manifest, &args.predictions, &opts)?;
    let files = score::write_report(&scoring.report, &out)?;
    score::write_items(&scoring.items, &out)?;
    if args.html {
        let manifest_dir = match args.manifest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let page = score::write_html(&scoring, &manifest_dir, &out)?;
        eprintln!(
            "{} flips; report page: {}",
            scoring.flips.len(),
            page.display()
        );
    }
    let report = scoring.report;

    for e in report.errors.iter().take(SHOWN_ERRORS) {
        eprintln!("error: {e}");
    }
    if report.errors.len() > SHOWN_ERRORS {
        eprintln!(
            "error: … and {} more (see report.json)",
            report.errors.len() - SHOWN_ERRORS
        );
    }
    let c = &report.counts;
    eprintln!(
        "scored {} predictions from {} model(s) on {} items; {} missing, {} unknown ids, \
         {} duplicate ids, {} malformed lines; report: {}",
        c.predictions,
        report.models.len(),
        c.items,
        c.missing,
        c.unknown_ids,
        c.duplicate_ids,
        c.malformed_lines,
        files.json.display()
    );
    if args.matched {
        let b = &report.base_set;
        eprintln!(
            "matched: {} of {} base problems have an image of every one of the {} conditions \
             and every prediction they need; {} left out ({} lacking a variant, {} lacking a \
             prediction)",
            b.bases,
            b.bases + b.left_out,
            b.conditions,
            b.left_out,
            b.lacking_variant,
            b.lacking_prediction
        );
    }
    Ok(if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
