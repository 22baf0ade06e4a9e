//! `geomrender bench`: images/s of a whole render run (parse, compose, render,
//! encode, write), with the busy time of each stage.

use super::generate::RelationArgs;
use super::progress::stage_line;
use super::render::{EngineArgs, execute};
use crate::generate::Task;
use crate::generate::{GenerateOptions, Generator};
use crate::pipeline::RunSummary;
use crate::render::Requested;
use crate::scene::synthetic::diagram_scene;
use crate::variants::Plan;
use crate::words::Words;
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Images to render (input lines; more with --variants).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    count: u64,
    /// Input: generated `problems` (composed into 512² diagrams during the run) or
    /// ready-made `scenes` (synthetic diagram-like 512² Scenes).
    #[arg(long, value_enum, default_value = "problems")]
    input: Input,
    /// The generated problems: GeomVerse problems (depths 1–3), or GeomRel relation
    /// items (shaped by --subset, --domain, --indeterminate and --mode, as in
    /// `generate`), the same ones every run (seed 1).
    #[arg(long, value_enum, default_value = "geomverse")]
    task: Task,
    #[command(flatten)]
    relations: RelationArgs,
    /// Variant axes per problem, as in `render --variants` (`all`: every axis that
    /// applies to the task).
    #[arg(long, value_name = "SPEC")]
    variants: Option<String>,
    /// The directory the runs write under (default: the system temp dir). Each run
    /// writes a fresh `round-R-BACKEND/` there, new files as a real run writes them;
    /// they are removed when the bench ends, unless --keep (not between runs: on
    /// some disks creating files is slow for a minute or more after thousands were
    /// deleted). The filesystem is synced before each run starts, so that no run
    /// pays for writing back the files of the one before.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Keep each run's images instead of removing them.
    #[arg(long)]
    keep: bool,
    /// A second backend run on the same input in the same process, alternating with
    /// --backend round by round, e.g. `--backend cpu --against resvg`.
    #[arg(long, value_enum, value_name = "BACKEND")]
    against: Option<Requested>,
    /// Rounds of each backend (the best round of each is reported, and every round).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// Also write the figures as JSON to FILE (atomically): the machine, every
    /// round, and per backend the best round's images/s, wall time and the busy
    /// time and share of each stage — for scripts (`scripts/gpu-check.sh`).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Input {
    Problems,
    Scenes,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = match &args.variants {
        Some(spec) => super::sweep::plan_for(args.task, spec)?,
        None => Plan::base_only(),
    };
    if let Some(out) = &args.out {
        check_out(out)?;
    }
    // The input is made before the clock starts.
    let input = make_input(&args)?;
    let mut backends = vec![args.engine.backend];
    backends.extend(args.against);
    let mut best: Vec<Option<(f64, RunSummary)>> = backends.iter().map(|_| None).collect();
    let root = match &args.out {
        Some(dir) => dir.clone(),
        None => std::env::temp_dir().join(format!("geomrender-bench-{}", std::process::id())),
    };
    let mut written = Vec::new();
    let mut rounds = Vec::new();
    let result = (|| -> anyhow::Result<()> {
        for round in 1..=args.rounds {
            for (k, &backend) in backends.iter().enumerate() {
                let mut engine = args.engine.clone();
                engine.backend = backend;
                let dir = root.join(format!("round-{round}-{}", backend.name()));
                // Never another's directory: only what this bench made is removed.
                anyhow::ensure!(
                    !dir.exists(),
                    "{} exists already: bench writes each run into a new directory",
                    dir.display()
                );
                written.push(dir.clone());
                let summary = run_once(&input, &plan, &engine, &dir, args.count)?;
                let rate = summary.images as f64 / summary.elapsed.as_secs_f64();
                println!(
                    "round {round}: {} images in {:.2} s = {rate:.1} images/s with {}",
                    summary.images,
                    summary.elapsed.as_secs_f64(),
                    summary.backend
                );
                rounds.push(serde_json::json!({
                    "round": round,
                    "backend": summary.backend,
                    "images": summary.images,
                    "seconds": summary.elapsed.as_secs_f64(),
                    "images_per_s": rate,
                }));
                if best[k].as_ref().is_none_or(|(r, _)| rate > *r) {
                    best[k] = Some((rate, summary));
                }
            }
        }
        Ok(())
    })();
    if !args.keep {
        for dir in &written {
            let _ = std::fs::remove_dir_all(dir);
        }
        if args.out.is_none() {
            let _ = std::fs::remove_dir(&root);
        }
    }
    result?;
    if args.keep {
        println!("runs kept under {}", root.display());
    }
    report(&args, &best, &rounds)?;
    Ok(ExitCode::SUCCESS)
}

/// The bench's input as JSON lines: `count` problems of the task (in batches, as
/// `generate` writes them) or synthetic diagram Scenes.
fn make_input(args: &Args) -> anyhow::Result<String> {
    let mut input = String::new();
    match args.input {
        Input::Problems => {
            let opts = match args.task {
                Task::Geomverse => Generator::GeomVerse(GenerateOptions {
                    seed: 1,
                    depth: 1..=3,
                    ..GenerateOptions::default()
                }),
                Task::Relations => Generator::Relations(args.relations.options(1)),
            };
            opts.validate()?;
            // In batches, as `generate` writes them: a million problems are never
            // held twice.
            let mut start = 0;
            while start < args.count {
                let n = 2048.min(args.count - start);
                for p in opts.batch(start, n)? {
                    input.push_str(&serde_json::to_string(&p)?);
                    input.push('\n');
                }
                start += n;
            }
        }
        Input::Scenes => {
            for i in 0..args.count {
                input.push_str(&serde_json::to_string(&diagram_scene(i, 512))?);
                input.push('\n');
            }
        }
    }
    Ok(input)
}

/// Prints the best round of each backend, their ratio, and writes `--json`.
fn report(
    args: &Args,
    best: &[Option<(f64, RunSummary)>],
    rounds: &[serde_json::Value],
) -> anyhow::Result<()> {
    println!("machine: {}", machine());
    for (rate, summary) in best.iter().flatten() {
        println!(
            "bench: {} images, best of {} = {rate:.1} images/s end to end; backend: {}",
            summary.images, args.rounds, summary.backend
        );
        println!("  {}", stage_line(&summary.stages, summary.elapsed));
    }
    let ratio = match best {
        [Some((a, sa)), Some((b, sb))] => {
            println!("ratio: {} / {} = {:.2}×", sa.backend, sb.backend, a / b);
            Some(a / b)
        }
        _ => None,
    };
    if let Some(path) = &args.json {
        let figures = serde_json::json!({
            "machine": machine(),
            "images_per_round": best.iter().flatten().map(|(_, s)| s.images).next(),
            "rounds": rounds,
            "best": best.iter().flatten().map(|(rate, s)| best_json(*rate, s)).collect::<Vec<_>>(),
            "ratio": ratio,
        });
        let mut text = serde_json::to_string_pretty(&figures)?;
        text.push('\n');
        crate::output::atomic::write_atomic(path, text.as_bytes())
            .with_context(|| format!("--json: writing {}", path.display()))?;
        println!("figures: {}", path.display());
    }
    Ok(())
}

/// A backend's best round: images/s, wall time, each stage's busy time and share.
fn best_json(rate: f64, s: &RunSummary) -> serde_json::Value {
    let list = s.stages.list();
    let total: f64 = list.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let stages: serde_json::Map<String, serde_json::Value> = (list.iter())
        .map(|(name, d)| {
            let v = serde_json::json!({
                "busy_s": d.as_secs_f64(),
                "share": d.as_secs_f64() / total.max(1e-9),
            });
            (name.to_string(), v)
        })
        .collect();
    serde_json::json!({
        "backend": s.backend,
        "images": s.images,
        "seconds": s.elapsed.as_secs_f64(),
        "images_per_s": rate,
        "stages": stages,
    })
}

/// One timed run of `input` with `engine` into the fresh directory `dir`.
fn run_once(
    input: &str,
    plan: &Plan,
    engine: &EngineArgs,
    dir: &std::path::Path,
    count: u64,
) -> anyhow::Result<RunSummary> {
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "--out: cannot create {}: --out must be a directory",
            dir.display()
        )
    })?;
    settle(dir);
    let options = engine.options(dir, crate::pipeline::Previous::Refuse)?;
    let total = count * plan.variants().len() as u64;
    let summary = execute(
        input.as_bytes(),
        "bench",
        plan,
        &options,
        Some(total),
        true,
        None,
    )?;
    anyhow::ensure!(
        summary.failed == 0,
        "{} inputs failed, the first: {}",
        summary.failed,
        summary.first_failure.as_deref().unwrap_or_default()
    );
    Ok(summary)
}

/// `--out` names a directory, or nothing yet (it is created): a file there, or a file
/// where a folder above it should be, is refused before any work.
fn check_out(out: &std::path::Path) -> anyhow::Result<()> {
    // The nearest part of the path that exists must be a directory.
    let existing = out
        .ancestors()
        .find(|p| !p.as_os_str().is_empty() && std::fs::metadata(p).is_ok());
    if let Some(p) = existing.filter(|p| !p.is_dir()) {
        let what = if p == out {
            "is not a directory".to_string()
        } else {
            format!("is inside {}, which is not a directory", p.display())
        };
        anyhow::bail!(
            "--out {} {what}: --out must be a directory (bench writes a round-R-BACKEND/ \
             folder per run under it); give a directory, or leave --out out to use the \
             system temp dir",
            out.display()
        );
    }
    Ok(())
}

/// Waits until the filesystem holding `dir` has written back everything pending
/// (the files of the runs before), so that a run is not charged for it.
fn settle(dir: &std::path::Path) {
    #[cfg(target_os = "linux")]
    if let Ok(f) = std::fs::File::open(dir) {
        let _ = rustix::fs::syncfs(&f);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dir;
}

/// "<cpu model>, N threads".
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{model}, {threads} threads")
}
