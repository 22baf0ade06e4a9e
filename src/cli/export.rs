//! `geomrender export DIR --to LIST`: a finished output directory as datasets for
//! the evaluation harnesses, without rendering again; and `--sink LIST` on `render`
//! and `sweep`, which writes the same files (the same bytes) when the run ends.

use anyhow::Context;
use geomrender::output::datasets::{ExportOptions, Sink, export};
use geomrender::output::lock::OutputLock;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A dataset format on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SinkArg {
    /// images/ + manifest.jsonl, always written (accepted for completeness).
    Files,
    /// Hugging Face Parquet: DIR/data/test-00000-of-000NN.parquet + DIR/README.md card.
    Parquet,
    /// WebDataset tar shards: DIR/wds/geomrender-000000.tar (KEY.png + KEY.json).
    Webdataset,
    /// VLMEvalKit TSV: DIR/vlmevalkit/GeomRender.tsv (base64 images).
    Vlmevalkit,
    /// lmms-eval task folder: DIR/lmms_eval/ (reads the Parquet shards, so writes them too).
    #[value(name = "lmms-eval")]
    LmmsEval,
}

/// Shard sizes, shared by `export` and `--sink`.
#[derive(clap::Args, Clone, Copy)]
pub struct ShardArgs {
    /// Most rows per Parquet or WebDataset shard.
    #[arg(long, default_value_t = 10_000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    shard_rows: u64,
    /// Most megabytes (MiB) of images per shard.
    #[arg(long, default_value_t = 500, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    shard_mib: u64,
}

/// `--sink` on `render` and `sweep`.
#[derive(clap::Args, Clone)]
pub struct SinkArgs {
    /// Datasets to write besides images/ and manifest.jsonl when the run ends,
    /// comma-separated: parquet, webdataset, vlmevalkit, lmms-eval (files: only the
    /// default layout). The same bytes as `geomrender export DIR --to LIST`.
    #[arg(long = "sink", value_enum, value_delimiter = ',', value_name = "SINKS")]
    sinks: Vec<SinkArg>,
    #[command(flatten)]
    shards: ShardArgs,
}

#[derive(clap::Args)]
pub struct Args {
    /// A finished output directory of `render` or `sweep` (images/ + manifest.jsonl).
    dir: PathBuf,
    /// Datasets to write into DIR, comma-separated: parquet, webdataset, vlmevalkit, lmms-eval.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        required = true,
        value_name = "SINKS"
    )]
    to: Vec<SinkArg>,
    #[command(flatten)]
    shards: ShardArgs,
}

fn sinks(args: &[SinkArg]) -> Vec<Sink> {
    args.iter()
        .filter_map(|s| match s {
            SinkArg::Files => None,
            SinkArg::Parquet => Some(Sink::Parquet),
            SinkArg::Webdataset => Some(Sink::WebDataset),
            SinkArg::Vlmevalkit => Some(Sink::VlmEvalKit),
            SinkArg::LmmsEval => Some(Sink::LmmsEval),
        })
        .collect()
}

fn options(s: ShardArgs) -> ExportOptions {
    ExportOptions {
        shard_rows: s.shard_rows as usize,
        shard_bytes: s.shard_mib << 20,
    }
}

/// Writes `sinks` into `dir` (whose lock the caller holds) and says what was written.
fn write(dir: &Path, sinks: &[Sink], opts: &ExportOptions) -> anyhow::Result<()> {
    if sinks.is_empty() {
        return Ok(());
    }
    let start = std::time::Instant::now();
    let done = export(dir, sinks, opts)?;
    let names: Vec<&str> = sinks.iter().map(|s| s.name()).collect();
    eprintln!(
        "exported {} rows as {} in {:.2} s: {} files under {}",
        done.rows,
        names.join(", "),
        start.elapsed().as_secs_f64(),
        done.files.len(),
        dir.display()
    );
    Ok(())
}

impl SinkArgs {
    /// Writes the requested sinks for the finished run in `dir`, under `lock`.
    pub fn write(&self, dir: &Path, _lock: &OutputLock) -> anyhow::Result<()> {
        write(dir, &sinks(&self.sinks), &options(self.shards))
            .context("writing the --sink datasets (the images and manifest are complete)")
    }

    /// Whether any dataset besides the default files is asked for.
    pub fn any(&self) -> bool {
        !sinks(&self.sinks).is_empty()
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let _lock = OutputLock::acquire(&args.dir)?;
    write(&args.dir, &sinks(&args.to), &options(args.shards))?;
    Ok(ExitCode::SUCCESS)
}
