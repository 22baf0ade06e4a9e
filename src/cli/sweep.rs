//! `geomrender sweep --out DIR`: the main job on built-in defaults. Generates
//! problems (depths 1–3), renders each base image and the four GeomVerse axes, and
//! writes one captioned contact sheet per axis.

use super::generate::{RelationArgs, write_problems_unless_other};
use super::render::{EngineArgs, ResumeArg, execute, report};
use super::shard::ShardArgs;
use crate::generate::Task;
use crate::generate::relations::Stats;
use crate::generate::{GenerateOptions, Generator, Problem};
use crate::output::contact;
use crate::output::dir::{Dir, Kind};
use crate::output::lock::OutputLock;
use crate::output::record::{Command, ShardRecipe};
use crate::pipeline::shard::{self, Shard};
use crate::pipeline::{self, Backend, Previous, RunOptions, SceneRenderer, Variants};
use crate::variants::{AXES, AllAxes, GEOMVERSE_SWEEP, Plan, RELATION_SWEEP, VariantError};
use anyhow::Context;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Output directory: problems.jsonl, images/, manifest.jsonl and contact/<axis>.png.
    #[arg(long, short)]
    out: PathBuf,
    /// Problems to generate.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    count: u64,
    /// Run seed (same seed, same bytes).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// What to generate: GeomVerse problems (depths 1–3), or GeomRel relation items.
    #[arg(long, value_enum, default_value = "geomverse")]
    task: Task,
    #[command(flatten)]
    relations: RelationArgs,
    /// Variant axes (see `geomrender variants --list`); default
    /// "opacity;linewidth;fontsize;annotation", for relation items
    /// "opacity;linewidth;fontsize;relabel=1;unrelated=1,2". `all`: every axis at
    /// its default sweep (for relation items, every axis that applies to them).
    #[arg(long, value_name = "SPEC")]
    variants: Option<String>,
    /// Problem shown on the contact sheets (an id from problems.jsonl); default: the
    /// first depth-3 problem.
    #[arg(long, value_name = "ID")]
    sheet_problem: Option<String>,
    /// Shards: problems with indices in the I-th of N contiguous slices of 0..COUNT,
    /// written under OUT/shards/I-of-N/ with a done.json last; `geomrender merge OUT`
    /// then writes the whole run's files (no contact sheets per shard).
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    resume: ResumeArg,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    sink: super::export::SinkArgs,
    /// Also make the browsable gallery of the run when it ends (OUT/gallery/index.html;
    /// see `geomrender gallery`). Not with --shard: make it after `geomrender merge`.
    #[arg(long)]
    gallery: bool,
    /// No progress bar or periodic log lines.
    #[arg(long, short)]
    quiet: bool,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let variants = args.variants.clone().unwrap_or_else(|| {
        match args.task {
            Task::Geomverse => GEOMVERSE_SWEEP,
            Task::Relations => RELATION_SWEEP,
        }
        .to_string()
    });
    let plan = plan_for(args.task, &variants)?;
    args.engine.check_plan(&plan)?;
    let datasets = args.sink.options()?;
    args.engine.check_grounded(&plan, &datasets.sinks)?;
    let shard = args.shard.resolve()?;
    anyhow::ensure!(
        !(args.gallery && shard.is_some()),
        "--gallery makes the gallery of a whole run: run `geomrender gallery OUT` after `geomrender merge OUT`"
    );
    if args.gallery {
        // Said before the run starts, not after it.
        crate::gallery::check_writable(&args.out).context("--gallery")?;
    }
    let dir = match shard {
        Some(s) => s.dir(&args.out),
        None => args.out.clone(),
    };
    // Held from the problems file on: a second sweep into DIR fails at once.
    let lock = match shard {
        Some(s) => shard::begin(&args.out, s)?,
        None => OutputLock::acquire(
            Dir::create(&args.out).with_context(|| format!("opening {}", dir.display()))?,
        )?,
    };
    let problems_path = dir.join("problems.jsonl");
    let range = shard.unwrap_or(Shard::WHOLE).range(args.count);
    let count = range.end - range.start;
    let opts = generate_problems(&args, lock.dir(), range, &problems_path)?;

    let mut options = RunOptions {
        input_path: Some(problems_path.clone()),
        variants: Variants::of(&plan),
        datasets,
        ..args.engine.options(&dir, args.resume.previous())?
    };
    options.origin.generator = Some(opts.clone());
    options.origin.shard = shard.map(|s| s.of());
    let reader = BufReader::new(
        lock.dir()
            .open_file("problems.jsonl")
            .with_context(|| format!("reading {}", problems_path.display()))?,
    );
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
    let code = report(&summary, &dir, args.quiet);

    if let Some(s) = shard {
        // The plan as parsed (`all` expanded) is the run's, for `merge` to read back.
        let recipe = ShardRecipe {
            command: Command::Sweep {
                count: args.count,
                generator: opts.clone(),
                sheet_problem: args.sheet_problem.clone(),
            },
            backend_arg: args.engine.backend,
            run: summary.record.recipe.clone(),
        };
        shard::finish(&lock, s, recipe, &options.datasets, &summary)?;
        super::shard::finished(&args.out, s);
        return Ok(code);
    }
    contact_sheets(lock.dir(), &plan, &args, &options, count)?;
    drop(lock);
    super::gallery::after_run(args.gallery, &dir, None, code)
}

/// Writes `problems.jsonl` in `dir` (the problems of `range`), unless an earlier run
/// there is kept (`--resume`): then it must hold the same problems. Returns the
/// generator.
fn generate_problems(
    args: &Args,
    dir: &Dir,
    range: std::ops::Range<u64>,
    problems_path: &Path,
) -> anyhow::Result<Generator> {
    let opts = match args.task {
        Task::Geomverse => Generator::GeomVerse(GenerateOptions {
            seed: args.seed,
            depth: 1..=3,
            ..GenerateOptions::default()
        }),
        Task::Relations => Generator::Relations(args.relations.options(args.seed)),
    };
    let count = range.end - range.start;
    // An earlier run here: replaced (--force), or kept only for the same problems
    // (decided before problems.jsonl changes; the run then compares options).
    let previous = args.resume.previous();
    let earlier = pipeline::holds_run(dir);
    if earlier && previous == Previous::Replace {
        pipeline::clear(dir, None)?;
    }
    let unless_other = earlier && previous != Previous::Replace;
    write_problems_unless_other(dir, "problems.jsonl", &opts, range.clone(), unless_other)?;
    eprintln!(
        "generated {count} {} (indices {}..{}) into {}",
        opts.noun(),
        range.start,
        range.end,
        problems_path.display()
    );
    Ok(opts)
}

/// The run's contact sheets (raster runs) and relation outputs, written into `dir`
/// and named unless `--quiet`.
fn contact_sheets(
    dir: &Dir,
    plan: &Plan,
    args: &Args,
    options: &RunOptions,
    count: u64,
) -> anyhow::Result<()> {
    let raster = options.outputs.raster() && count > 0;
    let mut sheets = Vec::new();
    if raster {
        sheets = write_sheets(
            dir,
            plan,
            args.sheet_problem.as_deref(),
            options.backend.clone(),
        )?;
    }
    if count > 0 {
        sheets.extend(relation_outputs(
            dir,
            raster.then(|| options.backend.clone()),
        )?);
    }
    if !args.quiet {
        for s in &sheets {
            eprintln!("contact sheet: {}", s.display());
        }
    }
    Ok(())
}

/// The plan of `--variants SPEC` for problems of `task`: for relation items `all`
/// stands for the axes that apply to them, and an axis that does not is refused,
/// naming the task (its variants would all be "not made").
pub(crate) fn plan_for(task: Task, spec: &str) -> anyhow::Result<Plan> {
    let all = match task {
        Task::Geomverse => AllAxes::Every,
        Task::Relations => AllAxes::Relations,
    };
    Plan::parse_for(spec, false, all).map_err(|e| match e {
        VariantError::NotForRelations(axis) => {
            let apply: Vec<&str> = (AXES.iter())
                .filter(|a| a.relations)
                .map(|a| a.name())
                .collect();
            anyhow::anyhow!(
                "--variants: {axis} does not apply to --task relations (a relation item has \
                 no such variant); the axes that apply to relation items: {} (`all` draws \
                 every one of them; see `geomrender variants --list`)",
                apply.join(", ")
            )
        }
        e => anyhow::Error::new(e).context("--variants"),
    })
}

/// Relation items read to fill the domains' contact sheets (the first ones of the run).
const SHEET_ITEMS_READ: usize = 2_000;

/// For a run of relation items (a sweep's, or a merged one's): `relations.md`, the
/// items per relation as GeomRel's Table 3 counts them, and, when `backend` draws
/// the run's raster images, one contact sheet per domain from its first items;
/// nothing for GeomVerse problems. Returns the sheets written.
pub(crate) fn relation_outputs(
    out: &Dir,
    backend: Option<Backend>,
) -> anyhow::Result<Vec<PathBuf>> {
    let path = out.join("problems.jsonl");
    let file =
        (out.open_file("problems.jsonl")).with_context(|| format!("reading {}", path.display()))?;
    let mut stats = Stats::default();
    let mut first = Vec::new();
    for line in BufReader::new(file).lines() {
        let p: Problem =
            serde_json::from_str(&line.with_context(|| format!("reading {}", path.display()))?)
                .with_context(|| format!("reading {}", path.display()))?;
        stats.add(&p);
        if first.len() < SHEET_ITEMS_READ && p.is_relation() {
            first.push(p);
        }
    }
    if stats.total() == 0 {
        return Ok(Vec::new());
    }
    let table = format!("# Relation items per relation\n\n{}", stats.markdown());
    out.write_atomic("relations.md", table.as_bytes())
        .with_context(|| format!("writing {}", out.join("relations.md").display()))?;
    let Some(backend) = backend else {
        return Ok(Vec::new());
    };
    let mut renderer = SceneRenderer::new(backend);
    let mut render = |scene: &_| renderer.render(scene);
    Ok(contact::write_relation_sheets(out, &first, &mut render)?)
}

/// Writes one contact sheet per axis of `plan` into `out/contact/`, for a problem
/// of `out/problems.jsonl` (a sweep's, or a merged one's).
pub(crate) fn write_sheets(
    out: &Dir,
    plan: &Plan,
    sheet_problem: Option<&str>,
    backend: Backend,
) -> anyhow::Result<Vec<PathBuf>> {
    let images = out
        .existing_sub("images")
        .with_context(|| format!("reading {}", out.join("images").display()))?;
    // A problem with every variant drawn (a backward question is not made for all).
    let complete = |p: &Problem| {
        plan.variants().iter().all(|v| {
            let id = v.id(&p.id);
            ["png", "jpg"].iter().any(|ext| {
                images.as_ref().is_some_and(|d| {
                    d.kind(&format!("{id}.{ext}")).ok().flatten() == Some(Kind::File)
                })
            })
        })
    };
    let problem = pick_problem(out, sheet_problem, complete)?;
    let mut renderer = SceneRenderer::new(backend);
    let mut render = |scene: &_| renderer.render(scene);
    Ok(contact::write_axis_sheets(
        out,
        &problem,
        plan,
        &mut render,
    )?)
}

/// The requested problem, or else the first of depth 3 with every variant drawn,
/// the first with every variant drawn, or the first.
fn pick_problem(
    out: &Dir,
    id: Option<&str>,
    complete: impl Fn(&Problem) -> bool,
) -> anyhow::Result<Problem> {
    let path = out.join("problems.jsonl");
    let path = path.as_path();
    let (mut first, mut first_complete) = (None, None);
    let file = out
        .open_file("problems.jsonl")
        .with_context(|| format!("reading {}", path.display()))?;
    for line in BufReader::new(file).lines() {
        let p: Problem = serde_json::from_str(&line?)?;
        match id {
            Some(id) if p.id == id => return Ok(p),
            Some(_) => continue,
            None => {}
        }
        if complete(&p) {
            if p.params.depth == 3 {
                return Ok(p);
            }
            first_complete.get_or_insert_with(|| p.clone());
        }
        first.get_or_insert(p);
    }
    match (id, first_complete.or(first)) {
        (Some(id), _) => anyhow::bail!(
            "--sheet-problem {id}: no such problem in {}",
            path.display()
        ),
        (None, Some(p)) => Ok(p),
        (None, None) => anyhow::bail!("{} is empty", path.display()),
    }
}
