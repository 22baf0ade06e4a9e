//! The `geomrender` command line: parsing and dispatch, one file per subcommand.
//! It is a module of the library (feature `cli`) so that what only the command line
//! needs stays crate-private; `main` is its one public item.
//!
//! ```text
//! generate   problems as JSON lines          render    problems or Scenes → images + manifest
//! sweep      generate → render → sheets      variants  the axis table (--list)
//! export     a finished run as datasets      merge     a sharded run's shards as one run
//! score      predictions → report            schema    the published JSON Schemas
//! doctor     adapters and a test render      bench     images/s of a whole run, stage shares
//! shard      --shard/--shards flags          progress  progress bar or periodic log lines
//! audit      variants against their bases      interrupt SIGINT/SIGTERM: a resumable run
//! gallery    a finished run as a static site   malloc    glibc's thresholds for a batch run
//! applies    options that do not apply to the task, mode, backend or outputs (one table)
//! words      library enums as flags, with the CLI's own word for "none" (all, auto, files)
//! ```

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

mod applies;
mod audit;
mod bench;
mod doctor;
mod export;
mod gallery;
mod generate;
mod interrupt;
mod malloc;
mod merge;
mod progress;
mod render;
mod schema;
mod score;
mod shard;
mod sweep;
mod variants;
mod words;

/// Generate GeomVerse-style geometry problems, render their diagrams in batch on
/// the GPU (wgpu), and emit controlled robustness variants of every image.
#[derive(Parser)]
#[command(name = "geomrender", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The main job on built-in defaults: generate problems, render them with the
    /// GeomVerse variant axes, write contact sheets.
    Sweep(sweep::Args),
    /// Generate GeomVerse-style problems (JSON lines).
    Generate(generate::Args),
    /// Render Problem or Scene lines (JSONL) to PNG/JPEG and/or SVG files and a manifest.
    Render(render::Args),
    /// List GPU adapters, say which backend would be used and why, and try test renders.
    Doctor(doctor::Args),
    /// Measure images/s of a whole render run, with the share of each stage.
    Bench(bench::Args),
    /// Document the variant axes (`--list`).
    Variants(variants::Args),
    /// Print a published JSON Schema (scene, problem, manifest, report, variants, …).
    Schema(schema::Args),
    /// Score model predictions against a rendered manifest, per variant.
    Score(score::Args),
    /// Compare every variant of a finished run with its base: what changed, and
    /// whether its axis declares it; flags undeclared changes and identical variants.
    Audit(audit::Args),
    /// A browsable static site of a finished run (DIR/gallery/index.html): images
    /// with filters and search, one page per base with all its variants.
    Gallery(gallery::Args),
    /// Write a finished output directory as datasets for evaluation harnesses
    /// (HF Parquet, WebDataset, VLMEvalKit, lmms-eval) without rendering again.
    Export(export::Args),
    /// Merge the finished shards of a run (OUT/shards/I-of-N from --shard) into OUT:
    /// the files one machine would have written, checked shard by shard first.
    Merge(merge::Args),
}

/// Parses the command line, runs the subcommand and maps errors to exit codes:
/// 0 success, 1 some input items failed, 2 the run could not proceed.
pub fn main() -> ExitCode {
    malloc::tune();
    die_quietly_on_closed_pipe();
    quiet_headless_vulkan();
    interrupt::install();
    let command = Cli::command();
    let matches = command.clone().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    applies::check(&command, &matches);
    interrupt::set_resumable(matches!(
        cli.command,
        Command::Render(_) | Command::Sweep(_)
    ));
    let result = match cli.command {
        Command::Sweep(args) => sweep::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Variants(args) => variants::run(args),
        Command::Render(args) => render::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Score(args) => score::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Gallery(args) => gallery::run(args),
        Command::Export(args) => export::run(args),
        Command::Merge(args) => merge::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", describe(&e));
            ExitCode::from(2)
        }
    }
}

/// An error and its causes, `: `-separated, leaving out a cause whose text the
/// message already holds (the library's errors name their source in their own
/// text, so `{:#}` would say "No space left on device" twice).
fn describe(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// `geomrender doctor | head` must end quietly when `head` stops reading, as other
/// command-line tools do, instead of panicking in `println!`: restore the default
/// SIGPIPE action that the Rust runtime replaces with "ignore".
fn die_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Mesa's device-select Vulkan layer tries to reach a Wayland compositor and prints
/// "XDG_RUNTIME_DIR is invalid" on headless machines; it has nothing to select
/// there, so it is switched off when no session is present.
fn quiet_headless_vulkan() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none()
        && std::env::var_os("NODEVICE_SELECT").is_none()
    {
        // SAFETY: called first thing in main, before any other thread exists.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}
