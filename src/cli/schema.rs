//! `geomrender schema scene|problem|manifest|probe|skipped|report|score-items|audit|variants|run`: print a
//! published JSON Schema.

use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Which schema to print.
    #[arg(value_enum)]
    which: Which,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Which {
    /// Scene v1, the renderer's input (one JSON object per line).
    Scene,
    /// Problem, the generator's output (one JSON object per line).
    Problem,
    /// A row of DIR/manifest.jsonl, written by `render` and `sweep`.
    Manifest,
    /// A row of DIR/probes.jsonl (a perception probe), written by `render --probes`.
    Probe,
    /// A row of DIR/skipped.jsonl (a variant not drawn), written by `render` and `sweep`.
    Skipped,
    /// REPORT_DIR/report.json, written by `score`.
    Report,
    /// A row of REPORT_DIR/items.jsonl (per-image verdicts), written by `score`.
    ScoreItems,
    /// A row of DIR/audit.jsonl (a variant against its base), written by `audit`.
    Audit,
    /// The axis table, as `geomrender variants --list --json` prints it.
    Variants,
    /// DIR/.geomrender.run.json (a run's recipe and provenance), written by `render`
    /// and `sweep`; a shard's done.json holds its `shard_recipe` and provenance.
    Run,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = match args.which {
        Which::Scene => crate::scene::SCHEMA,
        Which::Problem => crate::generate::SCHEMA,
        Which::Manifest => crate::output::manifest::SCHEMA,
        Which::Probe => crate::output::probes::SCHEMA,
        Which::Skipped => crate::pipeline::SKIPPED_SCHEMA,
        Which::Report => crate::score::REPORT_SCHEMA,
        Which::ScoreItems => crate::score::ITEMS_SCHEMA,
        Which::Audit => crate::audit::SCHEMA,
        Which::Variants => crate::variants::LIST_SCHEMA,
        Which::Run => crate::output::record::SCHEMA,
    };
    // The file's own bytes (it ends with its newline).
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
