//! `geomrender merge OUT`: the finished shards under OUT/shards/ as one run's files
//! in OUT (see `crate::output::merge`), plus a sweep's contact sheets.

use crate::output::lock::OutputLock;
use crate::output::merge::merge;
use crate::output::record::Command;
use crate::pipeline::Backend;
use crate::render::Requested;
use crate::variants::Plan;
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The --out of the sharded run: its shards are OUT/shards/I-of-N/.
    out: PathBuf,
    /// What draws a sweep's contact sheets (default: the sweep's own --backend, so the
    /// sheets equal a single machine's).
    #[arg(long, value_enum)]
    backend: Option<Requested>,
    /// No contact sheets.
    #[arg(long)]
    no_sheets: bool,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = std::time::Instant::now();
    let dir = super::export::open_run_dir(&args.out)?;
    let lock = OutputLock::acquire(dir)?;
    let merged = merge(lock.dir())?;
    eprintln!(
        "merged {} shards into {}: {} lines, {} images, {} failed ({:.2} s)",
        merged.shards,
        args.out.display(),
        merged.counts.lines,
        merged.counts.images,
        merged.counts.failed,
        start.elapsed().as_secs_f64()
    );
    for line in super::render::availability_lines(&merged.availability) {
        eprintln!("{line}");
    }
    super::export::removed(&merged.removed, &args.out);
    super::export::describe(&merged.datasets, &args.out);
    let recipe = &merged.first.recipe;
    let sheet = match &recipe.command {
        Command::Sweep { sheet_problem, .. } => Some(sheet_problem.as_deref()),
        Command::Render { .. } => None,
    };
    let sweep = sheet.is_some();
    let raster = recipe.run.raster();
    if let (Some(sheet), true, true, false) =
        (sheet, raster, merged.counts.lines > 0, args.no_sheets)
    {
        let variants = &recipe.run.variants;
        let plan =
            Plan::parse(&variants.spec(), variants.grid).context("the shards' --variants")?;
        let backend = args.backend.unwrap_or(recipe.backend_arg);
        let (backend, _) = Backend::open(backend)?;
        let mut sheets = super::sweep::write_sheets(lock.dir(), &plan, sheet, backend.clone())?;
        sheets.extend(super::sweep::relation_outputs(lock.dir(), Some(backend))?);
        for s in sheets {
            eprintln!("contact sheet: {}", s.display());
        }
    } else if sweep && merged.counts.lines > 0 {
        // No sheets, but a relation run's table all the same.
        super::sweep::relation_outputs(lock.dir(), None)?;
    }
    if merged.counts.failed > 0 {
        eprintln!(
            "{} lines or images failed in the shards; every one is listed in {}",
            merged.counts.failed,
            args.out.join("errors.jsonl").display()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
