//! `geomrender bench`: images/s of a whole render run (parse, compose, render,
//! encode, write), with the busy time of each stage.

use super::progress::stage_line;
use super::render::{BackendArg, EngineArgs, execute};
use geomrender::generate::{GenerateOptions, generate_range};
use geomrender::pipeline::RunSummary;
use geomrender::scene::synthetic::diagram_scene;
use geomrender::variants::Plan;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Images to render (input lines; more with --variants).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    count: u64,
    /// Input: generated `problems` (composed into 512² diagrams during the run) or
    /// ready-made `scenes` (synthetic diagram-like 512² Scenes).
    #[arg(long, value_enum, default_value = "problems")]
    input: Input,
    /// Variant axes per problem, as in `render --variants`.
    #[arg(long, value_name = "SPEC")]
    variants: Option<String>,
    /// Where to write the images (default: a temporary directory, removed afterwards).
    #[arg(long)]
    out: Option<PathBuf>,
    /// A second backend run on the same input in the same process, alternating with
    /// --backend round by round, e.g. `--backend cpu --against resvg`.
    #[arg(long, value_enum, value_name = "BACKEND")]
    against: Option<BackendArg>,
    /// Rounds of each backend (the best round of each is reported, and every round).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Input {
    Problems,
    Scenes,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = match &args.variants {
        Some(spec) => Plan::parse(spec, false)?,
        None => Plan::base_only(),
    };
    // The input is made before the clock starts.
    let mut input = String::new();
    match args.input {
        Input::Problems => {
            let opts = GenerateOptions {
                seed: 1,
                depth: 1..=3,
                ..GenerateOptions::default()
            };
            for p in generate_range(&opts, 0, args.count) {
                input.push_str(&serde_json::to_string(&p?)?);
                input.push('\n');
            }
        }
        Input::Scenes => {
            for i in 0..args.count {
                input.push_str(&serde_json::to_string(&diagram_scene(i, 512))?);
                input.push('\n');
            }
        }
    }
    let mut backends = vec![args.engine.backend];
    backends.extend(args.against);
    let mut best: Vec<Option<(f64, RunSummary)>> = backends.iter().map(|_| None).collect();
    for round in 1..=args.rounds {
        for (k, &backend) in backends.iter().enumerate() {
            let mut engine = args.engine.clone();
            engine.backend = backend;
            let summary = run_once(&input, &plan, &engine, args.out.as_deref(), args.count)?;
            let rate = summary.images as f64 / summary.elapsed.as_secs_f64();
            println!(
                "round {round}: {} images in {:.2} s = {rate:.1} images/s with {}",
                summary.images,
                summary.elapsed.as_secs_f64(),
                summary.backend
            );
            if best[k].as_ref().is_none_or(|(r, _)| rate > *r) {
                best[k] = Some((rate, summary));
            }
        }
    }
    println!("machine: {}", machine());
    for (rate, summary) in best.iter().flatten() {
        println!(
            "bench: {} images, best of {} = {rate:.1} images/s end to end; backend: {}",
            summary.images, args.rounds, summary.backend
        );
        println!("  {}", stage_line(&summary.stages, summary.elapsed));
    }
    if let [Some((a, sa)), Some((b, sb))] = best.as_slice() {
        println!("ratio: {} / {} = {:.2}×", sa.backend, sb.backend, a / b);
    }
    Ok(ExitCode::SUCCESS)
}

/// One timed run of `input` with `engine` into `out` (or a temporary directory).
fn run_once(
    input: &str,
    plan: &Plan,
    engine: &EngineArgs,
    out: Option<&std::path::Path>,
    count: u64,
) -> anyhow::Result<RunSummary> {
    let temp = tempfile_dir()?;
    let out = out.map_or_else(|| temp.clone(), |o| o.to_path_buf());
    let options = engine.options(&out, false)?;
    let total = count * plan.variants().len() as u64;
    let summary = execute(
        input.as_bytes(),
        "bench",
        plan,
        &options,
        Some(total),
        true,
        None,
    );
    let _ = std::fs::remove_dir_all(&temp);
    let summary = summary?;
    anyhow::ensure!(
        summary.failed == 0,
        "{} inputs failed, the first: {}",
        summary.failed,
        summary.first_failure.as_deref().unwrap_or_default()
    );
    Ok(summary)
}

/// A fresh directory under the system temp dir.
fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("geomrender-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
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
