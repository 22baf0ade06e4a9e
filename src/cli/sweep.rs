//! `geomrender sweep --out DIR`: the main job on built-in defaults. Generates
//! problems (depths 1–3), renders each base image and the four GeomVerse axes, and
//! writes one captioned contact sheet per axis.

use super::generate::write_problems;
use super::render::{EngineArgs, ResumeArg, execute, report};
use super::shard::Shard;
use anyhow::Context;
use geomrender::generate::{GenerateOptions, Problem};
use geomrender::output::contact;
use geomrender::output::lock::OutputLock;
use geomrender::pipeline::{RunOptions, SceneRenderer};
use geomrender::variants::Plan;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The GeomVerse sensitivity axes, each with its default sweep.
pub const GEOMVERSE_AXES: &str = "opacity;linewidth;fontsize;annotation";

#[derive(clap::Args)]
pub struct Args {
    /// Output directory: problems.jsonl, images/, manifest.jsonl and contact/<axis>.png.
    #[arg(long, short)]
    out: PathBuf,
    /// Problems to generate.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    count: u64,
    /// Run seed (same seed, same bytes).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Variant axes (see `geomrender variants --list`).
    #[arg(long, default_value = GEOMVERSE_AXES, value_name = "SPEC")]
    variants: String,
    /// Problem shown on the contact sheets (an id from problems.jsonl); default: the
    /// first depth-3 problem.
    #[arg(long, value_name = "ID")]
    sheet_problem: Option<String>,
    /// Run only shard I of N (0-based): problems with indices in the I-th of N
    /// contiguous slices of 0..COUNT, with the ids and bytes the whole run would give
    /// them. Concatenating the shards' problems.jsonl and manifest.jsonl in shard order
    /// gives the whole run's files.
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    #[command(flatten)]
    resume: ResumeArg,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    sink: super::export::SinkArgs,
    /// No progress bar or periodic log lines.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = Plan::parse(&args.variants, false).context("--variants")?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    // Held from the problems file on: a second sweep into DIR fails at once.
    let lock = OutputLock::acquire(&args.out)?;
    let problems_path = args.out.join("problems.jsonl");
    let opts = GenerateOptions {
        seed: args.seed,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let range = args.shard.range(args.count);
    let count = range.end - range.start;
    write_problems(&problems_path, &opts, range.clone())?;
    eprintln!(
        "generated {count} problems (depths 1–3, indices {}..{}) into {}",
        range.start,
        range.end,
        problems_path.display()
    );

    let options = RunOptions {
        input_path: Some(problems_path.clone()),
        recipe: plan.recipe(),
        datasets: args.sink.options(),
        ..args.engine.options(&args.out, args.resume.resume)?
    };
    let reader = BufReader::new(std::fs::File::open(&problems_path)?);
    let total = count * plan.variants().len() as u64;
    let summary = execute(
        reader,
        &problems_path.display().to_string(),
        &plan,
        &options,
        Some(total),
        args.quiet,
        Some(&lock),
    )?;
    let code = report(&summary, &args.out, args.quiet);

    if options.outputs.raster() && count > 0 {
        let problem = pick_problem(&problems_path, args.sheet_problem.as_deref())?;
        let mut renderer = SceneRenderer::new(options.backend.clone());
        let mut render = |scene: &_| renderer.render(scene);
        let sheets = contact::write_axis_sheets(&args.out, &problem, &plan, &mut render)?;
        if !args.quiet {
            for s in &sheets {
                eprintln!("contact sheet: {}", s.display());
            }
        }
    }
    Ok(code)
}

/// The requested problem, or the first of depth 3, or the first.
fn pick_problem(path: &Path, id: Option<&str>) -> anyhow::Result<Problem> {
    let mut first = None;
    for line in BufReader::new(std::fs::File::open(path)?).lines() {
        let p: Problem = serde_json::from_str(&line?)?;
        match id {
            Some(id) if p.id == id => return Ok(p),
            Some(_) => {}
            None if p.params.depth == 3 => return Ok(p),
            None => {}
        }
        first.get_or_insert(p);
    }
    match (id, first) {
        (Some(id), _) => anyhow::bail!(
            "--sheet-problem {id}: no such problem in {}",
            path.display()
        ),
        (None, Some(p)) => Ok(p),
        (None, None) => anyhow::bail!("{} is empty", path.display()),
    }
}
