//! Datasets in the evaluation harnesses' own formats, written from a finished output
//! directory (`images/` + `manifest.jsonl`): Hugging Face Parquet, WebDataset tar
//! shards, a VLMEvalKit TSV and an lmms-eval task folder.
//!
//! Every sink reads the manifest line by line and each image file once, so memory
//! stays bounded by one shard's row group, whatever the run's size. Shards are cut
//! at [`ExportOptions::shard_rows`] rows or [`ExportOptions::shard_bytes`] bytes of
//! images, whichever comes first, planned from the manifest and file sizes before
//! anything is written, so shard names can carry their total (`-of-000NN`). Each file
//! is completed atomically (temp file + rename). The same directory gives the same
//! bytes, whatever the thread count: `render --sink` and `export` share this code.

mod lmms_eval;
mod parquet;
mod row;
mod tsv;
mod webdataset;

pub use row::{DatasetRow, axis_and_value};
pub use tsv::NAME as VLMEVALKIT_NAME;

use crate::output::manifest::ManifestRow;
use std::path::{Path, PathBuf};

/// A dataset format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sink {
    /// `data/test-00000-of-000NN.parquet` + a `README.md` dataset card (HF `datasets`).
    Parquet,
    /// `wds/geomrender-000000.tar`, … (one `KEY.png` + `KEY.json` per image).
    WebDataset,
    /// `vlmevalkit/GeomRender.tsv` (index, base64 image, question, answer, …).
    VlmEvalKit,
    /// `lmms_eval/`: a group YAML, one task per (axis, value) and `utils.py`; reads
    /// the Parquet shards (so it writes them too).
    LmmsEval,
}

impl Sink {
    /// The sink's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Sink::Parquet => "parquet",
            Sink::WebDataset => "webdataset",
            Sink::VlmEvalKit => "vlmevalkit",
            Sink::LmmsEval => "lmms-eval",
        }
    }

    /// Every sink, in the order they are written.
    pub const ALL: [Sink; 4] = [
        Sink::Parquet,
        Sink::WebDataset,
        Sink::VlmEvalKit,
        Sink::LmmsEval,
    ];
}

/// How datasets are written.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// Most rows per shard.
    pub shard_rows: usize,
    /// Most bytes of images per shard (a shard holds at least one row).
    pub shard_bytes: u64,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            shard_rows: 10_000,
            shard_bytes: 500 << 20,
        }
    }
}

/// Why a dataset could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a manifest row: {message}")]
    Manifest {
        path: PathBuf,
        line: u64,
        message: String,
    },
    #[error(
        "{path}:{line}: {id:?} has no raster image (the run wrote only SVG); \
         datasets need PNG or JPEG images: render with --format png"
    )]
    NoRaster {
        path: PathBuf,
        line: u64,
        id: String,
    },
    #[error("{0}: no finished manifest.jsonl there (run `render` or `sweep` into it first)")]
    NoManifest(PathBuf),
    #[error("parquet: {0}")]
    Parquet(String),
}

/// What was written.
#[derive(Clone, Debug, Default)]
pub struct Exported {
    pub rows: u64,
    /// Every file written, relative to the output directory.
    pub files: Vec<PathBuf>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DatasetError + '_ {
    move |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A sink being written, row by row.
trait Writer {
    fn push(&mut self, row: &DatasetRow) -> Result<(), DatasetError>;
    /// Completes the last files; returns every file written (relative to the dir).
    fn finish(self: Box<Self>) -> Result<Vec<PathBuf>, DatasetError>;
}

/// Where the rows being written fall in the planned shards (shared by the sharded
/// sinks, so Parquet and WebDataset cut at the same rows).
pub(super) struct ShardCursor {
    plan: Vec<usize>,
    shard: usize,
    in_shard: usize,
}

impl ShardCursor {
    fn new(plan: &[usize]) -> ShardCursor {
        ShardCursor {
            plan: plan.to_vec(),
            shard: 0,
            in_shard: 0,
        }
    }

    /// The shard the current rows go to (0-based).
    fn shard(&self) -> usize {
        self.shard
    }

    /// How many shards there are.
    fn shards(&self) -> usize {
        self.plan.len()
    }

    /// Rows in all shards.
    fn rows(&self) -> usize {
        self.plan.iter().sum()
    }

    /// Counts a row; true when it is its shard's last (close the shard, then [`Self::next`]).
    fn row(&mut self) -> bool {
        self.in_shard += 1;
        self.in_shard == self.plan[self.shard]
    }

    /// Moves on to the next shard.
    fn next(&mut self) {
        self.shard += 1;
        self.in_shard = 0;
    }
}

/// Rows per shard, planned from the manifest and the image sizes.
fn plan_shards(dir: &Path, opts: &ExportOptions) -> Result<(Vec<usize>, u64), DatasetError> {
    let mut shards = Vec::new();
    let (mut rows, mut bytes, mut total) = (0usize, 0u64, 0u64);
    for_each_row(dir, |line, row| {
        let size = std::fs::metadata(dir.join(&row.image.image))
            .map_err(io(&dir.join(&row.image.image)))?
            .len();
        check_raster(dir, line, row)?;
        if rows > 0 && (rows >= opts.shard_rows.max(1) || bytes + size > opts.shard_bytes) {
            shards.push(rows);
            (rows, bytes) = (0, 0);
        }
        rows += 1;
        bytes += size;
        total += 1;
        Ok(())
    })?;
    if rows > 0 {
        shards.push(rows);
    }
    Ok((shards, total))
}

fn check_raster(dir: &Path, line: u64, row: &ManifestRow) -> Result<(), DatasetError> {
    if row.image.image.ends_with(".svg") {
        return Err(DatasetError::NoRaster {
            path: dir.join("manifest.jsonl"),
            line,
            id: row.image.id.clone(),
        });
    }
    Ok(())
}

/// Calls `f` with every row of `dir/manifest.jsonl`, in order, reading it in bounded memory.
fn for_each_row(
    dir: &Path,
    mut f: impl FnMut(u64, &ManifestRow) -> Result<(), DatasetError>,
) -> Result<(), DatasetError> {
    let path = dir.join("manifest.jsonl");
    let file = std::fs::File::open(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => DatasetError::NoManifest(dir.to_path_buf()),
        _ => DatasetError::Io {
            path: path.clone(),
            source: e,
        },
    })?;
    let mut lines = crate::jsonl::Lines::new(std::io::BufReader::new(file));
    loop {
        let chunk = lines.next_chunk(256).map_err(io(&path))?;
        if chunk.is_empty() {
            return Ok(());
        }
        for line in chunk {
            let bad = |message: String| DatasetError::Manifest {
                path: path.clone(),
                line: line.number,
                message,
            };
            let text = line.text.map_err(|e| bad(e.to_string()))?;
            let row: ManifestRow = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            f(line.number, &row)?;
        }
    }
}

/// Writes `sinks` for the finished run in `dir`.
pub fn export(dir: &Path, sinks: &[Sink], opts: &ExportOptions) -> Result<Exported, DatasetError> {
    let mut sinks = sinks.to_vec();
    sinks.sort();
    sinks.dedup();
    // lmms-eval tasks read the Parquet shards.
    if sinks.contains(&Sink::LmmsEval) && !sinks.contains(&Sink::Parquet) {
        sinks.insert(0, Sink::Parquet);
    }
    let (shards, total) = plan_shards(dir, opts)?;
    let mut writers: Vec<Box<dyn Writer>> = Vec::new();
    for sink in &sinks {
        writers.push(match sink {
            Sink::Parquet => Box::new(parquet::Shards::new(dir, &shards)?),
            Sink::WebDataset => Box::new(webdataset::Shards::new(dir, &shards)?),
            Sink::VlmEvalKit => Box::new(tsv::Tsv::new(dir)?),
            Sink::LmmsEval => Box::new(lmms_eval::Tasks::new(dir)),
        });
    }
    let mut index = 0u64;
    for_each_row(dir, |_, row| {
        let image_path = dir.join(&row.image.image);
        let bytes = std::fs::read(&image_path).map_err(io(&image_path))?;
        let data = DatasetRow::new(index, row, bytes);
        index += 1;
        writers.iter_mut().try_for_each(|w| w.push(&data))
    })?;
    let mut files = Vec::new();
    for w in writers {
        files.extend(w.finish()?);
    }
    Ok(Exported { rows: total, files })
}
