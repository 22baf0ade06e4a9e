//! Command-line parsing and dispatch; each subcommand lives in its own file.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod generate;
mod schema;

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
    /// Generate GeomVerse-style problems (JSON lines).
    Generate(generate::Args),
    /// Print a JSON Schema (scene or problem).
    Schema(schema::Args),
}

/// Parses the command line, runs the subcommand and maps errors to exit codes:
/// 0 success, 1 some input items failed, 2 the run could not proceed.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Schema(args) => schema::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
