//! `geomrender export DIR --to LIST`: a finished output directory as datasets for
//! the evaluation harnesses, without rendering again; and `--sink LIST` on `render`
//! and `sweep`, which writes the same files (the same bytes) as the images come out.

use super::words::{OrNone, or_none};
use crate::output::datasets::{DatasetOptions, Exported, ParquetCompression, Sink, export};
use crate::output::dir::Dir;
use crate::output::lock::OutputLock;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Shard sizes and the Parquet codec, shared by `export` and `--sink`.
#[derive(clap::Args, Clone, Copy)]
pub(crate) struct ShardSizeArgs {
    /// Most rows per Parquet or WebDataset shard.
    #[arg(long, default_value_t = 10_000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    shard_rows: u64,
    /// Most megabytes (MiB) of images per shard.
    #[arg(long, default_value_t = 500, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    shard_mib: u64,
    /// The Parquet shards' codec: snappy (pyarrow's and so HF datasets' default;
    /// about half the bytes of this tool's PNGs) or none (the image bytes as they
    /// are: about twice the file, for about 6 % less CPU time with all four sinks).
    #[arg(long, value_enum, default_value = "snappy", value_name = "CODEC")]
    parquet_compression: ParquetCompression,
}

/// `--sink` on `render` and `sweep`.
#[derive(clap::Args, Clone)]
pub(crate) struct SinkArgs {
    /// Datasets to write besides images/ and manifest.jsonl, row by row as the images
    /// come out, comma-separated: parquet, webdataset, vlmevalkit, lmms-eval, coco
    /// (files: only the default layout). Shards get their final names when the run
    /// ends; a resumed run rebuilds them from the kept rows. The same bytes as
    /// `geomrender export DIR --to LIST`, but coco: its boxes come from each image's
    /// drawing, so only a run writes it (and `--resume` refuses it).
    #[arg(long = "sink", value_delimiter = ',', value_name = "SINKS", value_parser = files_or_sink())]
    sinks: Vec<OrNone<Sink>>,
    #[command(flatten)]
    shards: ShardSizeArgs,
}

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A finished output directory of `render` or `sweep` (images/ + manifest.jsonl).
    dir: PathBuf,
    /// Datasets to write into DIR, comma-separated: parquet, webdataset, vlmevalkit, lmms-eval.
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        value_name = "SINKS",
        value_parser = files_or_sink()
    )]
    to: Vec<OrNone<Sink>>,
    #[command(flatten)]
    shards: ShardSizeArgs,
}

/// A sink's word, or `files` (the layout every run writes: no sink).
fn files_or_sink() -> impl clap::builder::TypedValueParser<Value = OrNone<Sink>> {
    or_none::<Sink>(
        "files",
        "images/ + manifest.jsonl, always written (accepted for completeness)",
    )
}

fn sinks(args: &[OrNone<Sink>]) -> Vec<Sink> {
    args.iter().flatten().copied().collect()
}

fn options(sinks: Vec<Sink>, s: ShardSizeArgs) -> DatasetOptions {
    DatasetOptions {
        sinks,
        shard_rows: s.shard_rows as usize,
        shard_bytes: s.shard_mib << 20,
        parquet_compression: s.parquet_compression,
    }
}

/// Says which datasets of an earlier run were removed (they would not have matched
/// the new manifest).
pub(crate) fn removed(files: &[PathBuf], dir: &Path) {
    if files.is_empty() {
        return;
    }
    let shown: Vec<String> = files
        .iter()
        .take(4)
        .map(|f| f.display().to_string())
        .collect();
    let more = match files.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(", … ({n} more)"),
    };
    eprintln!(
        "removed {} dataset file(s) of an earlier run under {} that this run does not write \
         (they would not match the new manifest; --sink writes them anew): {}{more}",
        files.len(),
        dir.display(),
        shown.join(", ")
    );
}

/// Says what was written: the row count and the first few files.
pub(crate) fn describe(done: &Exported, dir: &Path) {
    if done.files.is_empty() {
        return;
    }
    let shown: Vec<String> = done
        .files
        .iter()
        .take(4)
        .map(|f| f.display().to_string())
        .collect();
    let more = match done.files.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(", … ({n} more)"),
    };
    eprintln!(
        "datasets: {} rows in {} files under {}: {}{more}",
        done.rows,
        done.files.len(),
        dir.display(),
        shown.join(", ")
    );
    if done
        .files
        .iter()
        .any(|f| f.as_os_str() == "DATASET_CARD.md")
    {
        eprintln!(
            "the dataset card is {}: {} is not one geomrender wrote, so it was kept \
             (rename the card to README.md for Hugging Face to read it)",
            dir.join("DATASET_CARD.md").display(),
            dir.join("README.md").display()
        );
    }
}

/// Opens the output directory of a finished run (`export`, `merge`), saying so
/// when there is none (rather than naming the lock file inside it).
pub(crate) fn open_run_dir(path: &Path) -> anyhow::Result<Dir> {
    Dir::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => anyhow::anyhow!(
            "{}: no such directory (give the --out directory of a finished run)",
            path.display()
        ),
        std::io::ErrorKind::NotADirectory => anyhow::anyhow!(
            "{}: not a directory (give the --out directory of a finished run)",
            path.display()
        ),
        _ => anyhow::Error::new(e).context(path.display().to_string()),
    })
}

impl SinkArgs {
    /// The datasets for the run's [`RunOptions`](crate::pipeline::RunOptions);
    /// an error before any work when this binary cannot write one of them.
    pub(crate) fn options(&self) -> anyhow::Result<DatasetOptions> {
        let opts = options(sinks(&self.sinks), self.shards);
        opts.check_built()?;
        Ok(opts)
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = open_run_dir(&args.dir)?;
    let lock = OutputLock::acquire(dir)?;
    let start = std::time::Instant::now();
    let done = export(lock.dir(), &options(sinks(&args.to), args.shards))?;
    describe(&done, &args.dir);
    eprintln!("exported in {:.2} s", start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
