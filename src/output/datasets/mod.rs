//! Datasets in the evaluation harnesses' own formats, beside a run's `images/` and
//! `manifest.jsonl`: Hugging Face Parquet, WebDataset tar shards, a VLMEvalKit TSV
//! and an lmms-eval task folder.
//!
//! `DatasetWriter` takes rows one by one in manifest order: `render --sink` pushes
//! them as images come out of the pipeline, `export` from a finished directory's
//! manifest and image files. Memory stays bounded by one Parquet row group, whatever
//! the run's size. Shards are cut at [`DatasetOptions::shard_rows`] rows or
//! [`DatasetOptions::shard_bytes`] bytes of images, whichever comes first, and reach
//! their final names (which carry their total, `-of-000NN`) when the dataset is
//! finished (see `shards`). Every file is completed atomically (temp file + rename).
//! The same rows give the same bytes, whatever the thread count, streamed or exported.
//!
//! A dataset is one benchmark of one `Layout`, set by its first row: GeomVerse's
//! open questions (a numeric `answer`) or GeomRel's relation items (multiple choice:
//! option columns and the answer's letter). VLMEvalKit tells the two apart by the
//! TSV's columns and Parquet gives `answer` one type, so a run that mixes them is
//! refused by the Parquet, VLMEvalKit and lmms-eval sinks at the first row of the
//! other kind ([`DatasetError::MixedLayouts`]); WebDataset keeps each manifest row
//! whole and takes both.
//!
//! ```text
//! row            the typed dataset row (image bytes, texts, variant) from a manifest row
//! shards         shard naming, cutting and the final `-of-000NN` renames
//! parquet        Hugging Face Parquet (`data/test-*.parquet`; the `parquet` feature)
//! card           its dataset card (README.md: the config, features and split sizes)
//! parquet_names  its file names and the card's signature, in every build
//! webdataset     WebDataset tar shards (`wds/*.tar`: png/json per sample)
//! tsv            VLMEvalKit's TSV (base64 images; open questions, or option columns A–E)
//! lmms_eval      an lmms-eval task folder (YAML per condition + utils.py)
//! coco           COCO grounding annotations of every drawn element (`coco/annotations.json`)
//! ```

#[cfg(feature = "parquet")]
mod card;
mod coco;
#[cfg(feature = "parquet")]
mod features;
mod lmms_eval;
#[cfg(feature = "parquet")]
mod parquet;
mod parquet_names;
mod row;
mod shards;
mod tsv;
mod webdataset;

#[cfg(test)]
pub(crate) use coco::POINT_BOX as COCO_POINT_BOX;
pub(crate) use row::{DatasetRow, variant_axis_value};
pub(crate) use tsv::NAME as VLMEVALKIT_NAME;

use crate::output::dir::{Dir, Kind};
use crate::output::manifest::{FileCheckError, ManifestRow};
pub use row::Layout;
use std::path::{Path, PathBuf};

/// A dataset format; as JSON (`done.json`), its name on the command line.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Sink {
    /// `data/test-00000-of-000NN.parquet` + a `README.md` dataset card (HF `datasets`).
    Parquet,
    /// `wds/geomrender-000000.tar`, … (one `KEY.png` + `KEY.json` per image).
    #[cfg_attr(feature = "cli", value(name = "webdataset"))]
    WebDataset,
    /// `vlmevalkit/GeomRender.tsv` (index, base64 image, question, answer, …).
    #[cfg_attr(feature = "cli", value(name = "vlmevalkit"))]
    VlmEvalKit,
    /// `lmms_eval/`: a group YAML, one task per (axis, value) and `utils.py`; reads
    /// the Parquet shards (so it writes them too).
    #[serde(rename = "lmms-eval")]
    LmmsEval,
    /// `coco/annotations.json`: COCO boxes and polygons of every point, segment,
    /// shape and label each image draws (written by a run, not by `export`).
    Coco,
}

impl Sink {
    /// The sink's name on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Sink::Parquet => "parquet",
            Sink::WebDataset => "webdataset",
            Sink::VlmEvalKit => "vlmevalkit",
            Sink::LmmsEval => "lmms-eval",
            Sink::Coco => "coco",
        }
    }

    /// Every sink, in the order they are written.
    pub(crate) const ALL: [Sink; 5] = [
        Sink::Parquet,
        Sink::WebDataset,
        Sink::VlmEvalKit,
        Sink::LmmsEval,
        Sink::Coco,
    ];

    /// The files the sink writes: its folder in the output directory, and whether
    /// a regular file's name there is one of them (the Parquet sink's dataset card,
    /// `README.md` beside the folders, is recognised by its content).
    fn owns(self) -> (&'static str, fn(&str) -> bool) {
        match self {
            Sink::Parquet => ("data", parquet_names::is_shard),
            Sink::WebDataset => ("wds", webdataset::is_shard),
            Sink::VlmEvalKit => ("vlmevalkit", tsv::is_table),
            Sink::LmmsEval => ("lmms_eval", lmms_eval::is_task_file),
            Sink::Coco => (coco::FOLDER, coco::is_file),
        }
    }

    /// Whether this build writes the sink: Arrow and Parquet (a quarter of a first
    /// build's CPU time) come with the `parquet` feature.
    pub(crate) fn built(self) -> bool {
        cfg!(feature = "parquet") || !matches!(self, Sink::Parquet | Sink::LmmsEval)
    }

    /// Whether the sink's dataset holds rows of one [`Layout`] only (all but
    /// WebDataset, whose samples are the manifest rows as they are, and COCO, which
    /// holds no questions).
    fn one_layout(self) -> bool {
        !matches!(self, Sink::WebDataset | Sink::Coco)
    }

    /// Whether `export` can write the sink from a finished directory: COCO needs
    /// each image's grounding, which only the run that draws it has.
    pub(crate) fn exportable(self) -> bool {
        self != Sink::Coco
    }
}

/// Removes the datasets of an earlier run in `dir` that this run does not write
/// (`keep`, the sinks written: [`DatasetOptions::written`]): they would no longer
/// match the new manifest. Only this tool's own
/// files are removed, by name inside the real sink folders (and the Parquet
/// sink's dataset card, recognised by its heading), and a folder left empty.
/// Returns what was removed, relative to `dir`. The caller holds `dir`'s lock.
pub(crate) fn remove_other_datasets(
    dir: &Dir,
    keep: &[Sink],
) -> Result<Vec<PathBuf>, DatasetError> {
    let mut removed = Vec::new();
    for sink in Sink::ALL {
        if keep.contains(&sink) {
            continue;
        }
        let (name, owned) = sink.owns();
        if sink == Sink::Parquet {
            for name in [CARD, CARD_BESIDE] {
                if is_card(dir, name) && dir.remove_file(name).map_err(io(&dir.join(name)))? {
                    removed.push(PathBuf::from(name));
                }
            }
        }
        let Some(sub) = dir.existing_sub(name).map_err(io(&dir.join(name)))? else {
            continue;
        };
        for (file, kind) in sub.entries().map_err(io(sub.path()))? {
            if kind == Kind::File
                && owned(&file)
                && sub.remove_file(&file).map_err(io(&sub.join(&file)))?
            {
                removed.push(Path::new(name).join(&file));
            }
        }
        // Left in place when something else is in it (the user's own files).
        let _ = dir.remove_empty_dir(name);
    }
    Ok(removed)
}

/// The Parquet sink's dataset card, in the output directory.
const CARD: &str = "README.md";

/// Where the card goes when `README.md` is the user's own.
const CARD_BESIDE: &str = "DATASET_CARD.md";

/// Whether `dir/name` is the card the Parquet sink writes (not a user's file).
/// (Missing, a link, a directory or an oversized file: not ours.)
fn is_card(dir: &Dir, name: &str) -> bool {
    dir.read(name, 1 << 20)
        .is_ok_and(|bytes| parquet_names::is_card(&bytes))
}

/// The name the card is written under: `README.md` (where Hugging Face reads it)
/// unless a file of the user's has that name, then [`CARD_BESIDE`].
#[cfg(feature = "parquet")]
fn card_name(dir: &Dir) -> &'static str {
    match dir.kind(CARD) {
        Ok(None) => CARD,
        _ if is_card(dir, CARD) => CARD,
        _ => CARD_BESIDE,
    }
}

/// Which datasets are written, and how they are cut into shards.
#[derive(Clone, Debug)]
pub struct DatasetOptions {
    /// The datasets besides `images/` + `manifest.jsonl` (none by default).
    pub sinks: Vec<Sink>,
    /// Most rows per shard.
    pub shard_rows: usize,
    /// Most bytes of images per shard (a shard holds at least one row).
    pub shard_bytes: u64,
    /// The Parquet shards' compression codec.
    pub parquet_compression: ParquetCompression,
}

/// The codec of every column of the Parquet shards.
///
/// Snappy (pyarrow's default, so `datasets`' own) halves this tool's PNGs, which
/// are fast fixed-Huffman deflate streams; `None` writes the files as they are,
/// about twice the bytes, for about 6 % less CPU time in a run with all four sinks
/// (README, Performance). Every Parquet reader reads either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ParquetCompression {
    #[default]
    Snappy,
    None,
}

impl ParquetCompression {
    /// The name `--parquet-compression` and `done.json` give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ParquetCompression::Snappy => "snappy",
            ParquetCompression::None => "none",
        }
    }
}

impl crate::words::Words for Sink {
    const WHAT: &'static str = "sink";
    const ALL: &'static [Sink] = &Sink::ALL;
    fn name(self) -> &'static str {
        Sink::name(self)
    }
}

crate::words!(Sink);

impl crate::words::Words for ParquetCompression {
    const WHAT: &'static str = "parquet compression";
    const ALL: &'static [ParquetCompression] =
        &[ParquetCompression::Snappy, ParquetCompression::None];
    fn name(self) -> &'static str {
        ParquetCompression::name(self)
    }
}

crate::words!(ParquetCompression);

impl DatasetOptions {
    /// The sinks actually written, in writing order: those asked for, each once,
    /// with Parquet added for lmms-eval (its tasks read the Parquet shards).
    pub(crate) fn written(&self) -> Vec<Sink> {
        let mut sinks = self.sinks.clone();
        if sinks.contains(&Sink::LmmsEval) {
            sinks.push(Sink::Parquet);
        }
        sinks.sort();
        sinks.dedup();
        sinks
    }

    /// Whether this build writes every dataset asked for: the Parquet sink (and
    /// lmms-eval, which reads its shards) needs the `parquet` feature.
    pub(crate) fn check_built(&self) -> Result<(), DatasetError> {
        match self.sinks.iter().find(|s| !s.built()) {
            Some(sink) => Err(DatasetError::NotBuilt(sink.name())),
            None => Ok(()),
        }
    }
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions {
            sinks: Vec::new(),
            shard_rows: 10_000,
            shard_bytes: 500 << 20,
            parquet_compression: ParquetCompression::default(),
        }
    }
}

/// Why a dataset could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    #[error(
        "datasets need PNG or JPEG images, and this run writes only SVG: render with --format png or png,svg"
    )]
    SvgOnly,
    #[error("{0}: no finished manifest.jsonl there (run `render` or `sweep` into it first)")]
    NoManifest(PathBuf),
    #[error(
        "{path}:{line}: {id:?}: its image {image:?} cannot be used: {why}. Nothing was \
         written: render the run again (--resume keeps the intact images)"
    )]
    Image {
        path: PathBuf,
        line: u64,
        id: String,
        image: String,
        why: Box<FileCheckError>,
    },
    #[error("parquet: {0}")]
    Parquet(String),
    /// A sink this binary was built without (the sink's name).
    #[error(
        "the {0} dataset needs the `parquet` feature, which this build was made without \
         (Arrow and Parquet are a quarter of a first build): `cargo build --release \
         --features parquet` (or `cargo run --release --features parquet -- …`) adds it"
    )]
    NotBuilt(&'static str),
    /// A sink only a run writes (the sink's name).
    #[error(
        "the {0} dataset is made from each image's drawing geometry, which only the run that \
         draws it has (the manifest does not keep it): render again with --sink {0} (into a \
         new --out, or with --force)"
    )]
    NotExportable(&'static str),
    /// The lmms-eval task folder cannot be written as asked (the message says why).
    #[error("lmms-eval: {0}")]
    LmmsEval(String),
    /// A row of the other `Layout` than the dataset's first row: a relation item
    /// among GeomVerse problems, or the other way round.
    #[error(
        "{path}:{line}: {id:?} is one of {found}, but the {sinks} dataset holds {expected} \
         (set by its first row, {first_id:?}): VLMEvalKit reads a TSV with option columns \
         as multiple choice and one without as open questions, and HF datasets gives \
         `answer` one type, so one dataset cannot hold both; render the two kinds into \
         separate directories (or write only --sink webdataset)"
    )]
    MixedLayouts {
        path: PathBuf,
        line: u64,
        id: String,
        found: Layout,
        expected: Layout,
        first_id: String,
        /// The sinks that need one layout, by name (`parquet, vlmevalkit`).
        sinks: String,
    },
    /// A relation item with more options than the VLMEvalKit TSV has columns for.
    #[error(
        "{path}:{line}: {id:?} has {count} choices, but the VLMEvalKit TSV has option \
         columns A to {last} only (as many as `generate --task relations` writes)"
    )]
    TooManyChoices {
        path: PathBuf,
        line: u64,
        id: String,
        count: usize,
        last: char,
    },
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

/// A sink being written, row by row. `layout` is the dataset's (the same for every
/// call: set by the first row, [`Layout::Open`] for a dataset without rows); the
/// writer has checked that `row` fits it.
trait Writer: Send {
    fn push(&mut self, row: &DatasetRow, layout: Layout) -> Result<(), DatasetError>;
    /// Ends the current shard: the next row starts a new one (sharded sinks only).
    fn cut(&mut self) -> Result<(), DatasetError> {
        Ok(())
    }
    /// Completes the last files; returns every file written (relative to the dir).
    fn finish(self: Box<Self>, layout: Layout) -> Result<Vec<PathBuf>, DatasetError>;
}

fn check_raster(path: &Path, line: u64, row: &ManifestRow) -> Result<(), DatasetError> {
    if row.image.path().is_some_and(|p| p.ends_with(".svg")) {
        return Err(DatasetError::NoRaster {
            path: path.to_path_buf(),
            line,
            id: row.image.id.clone(),
        });
    }
    Ok(())
}

/// A manifest row as the run wrote it, on its way to the datasets.
pub(crate) struct WrittenRow {
    pub row: ManifestRow,
    /// The row's JSON as the manifest holds it (`row.to_json()`, no newline).
    pub line: String,
    /// The image file's bytes; `None` on a text-only row.
    pub image: Option<Vec<u8>>,
    /// What the image draws, in its pixels (for COCO), when the run made it.
    pub grounding: Option<std::sync::Arc<crate::compose::Grounding>>,
}

/// The datasets of one output directory, written row by row in manifest order:
/// by the render pipeline as images come out of it, and by [`export`] from a
/// finished directory. Rows pushed in the same order give the same bytes.
pub(crate) struct DatasetWriter {
    dir: Dir,
    sinks: Vec<Sink>,
    writers: Vec<Box<dyn Writer>>,
    cut: shards::ShardCut,
    rows: u64,
    layout: LayoutCheck,
}

/// The datasets' layout, set by the first row, and the check that each row fits it.
#[derive(Debug, Default)]
struct LayoutCheck {
    /// The layout and the id of the row that set it.
    first: Option<(Layout, String)>,
}

impl LayoutCheck {
    /// The layout, set by this row if it is the first (a row without a problem sets
    /// [`Layout::Open`]); an error naming `path` and `line` for a row of the other
    /// layout, when one of `sinks` holds one layout only.
    fn check(
        &mut self,
        sinks: &[Sink],
        path: &Path,
        line: u64,
        id: &str,
        row: Option<Layout>,
    ) -> Result<Layout, DatasetError> {
        let (layout, first_id) = self
            .first
            .get_or_insert_with(|| (row.unwrap_or(Layout::Open), id.to_string()));
        let sinks: Vec<&str> = (sinks.iter().filter(|s| s.one_layout()))
            .map(|s| s.name())
            .collect();
        match row {
            Some(found) if found != *layout && !sinks.is_empty() => {
                Err(DatasetError::MixedLayouts {
                    path: path.to_path_buf(),
                    line,
                    id: id.to_string(),
                    found,
                    expected: *layout,
                    first_id: first_id.clone(),
                    sinks: sinks.join(", "),
                })
            }
            _ => Ok(*layout),
        }
    }

    /// The layout set, [`Layout::Open`] when no row came.
    fn layout(&self) -> Layout {
        self.first.as_ref().map_or(Layout::Open, |(l, _)| *l)
    }
}

impl DatasetWriter {
    /// Starts the datasets `opts` asks for in `dir` (`None` when it asks for none),
    /// removing what a killed run left. The caller holds `dir`'s lock.
    pub(crate) fn create(
        dir: &Dir,
        opts: &DatasetOptions,
    ) -> Result<Option<DatasetWriter>, DatasetError> {
        let sinks = opts.written();
        if sinks.is_empty() {
            return Ok(None);
        }
        opts.check_built()?;
        let mut writers: Vec<Box<dyn Writer>> = Vec::new();
        for sink in &sinks {
            writers.push(match sink {
                #[cfg(feature = "parquet")]
                Sink::Parquet => {
                    Box::new(self::parquet::Shards::new(dir, opts.parquet_compression)?)
                }
                #[cfg(not(feature = "parquet"))]
                Sink::Parquet => return Err(DatasetError::NotBuilt(sink.name())),
                Sink::WebDataset => Box::new(webdataset::Shards::new(dir)?),
                Sink::VlmEvalKit => Box::new(tsv::Tsv::new(dir)?),
                Sink::LmmsEval => Box::new(lmms_eval::Tasks::new(dir)?),
                Sink::Coco => Box::new(coco::Coco::new(dir)?),
            });
        }
        Ok(Some(DatasetWriter {
            dir: dir.clone(),
            sinks,
            writers,
            cut: shards::ShardCut::new(opts.shard_rows, opts.shard_bytes),
            rows: 0,
            layout: LayoutCheck::default(),
        }))
    }

    /// Adds the next manifest row, with its image file's bytes (`None` on a
    /// text-only row). A row of the other layout than the first row's is refused
    /// (when a sink needs one layout) before anything of it is written.
    pub(crate) fn push(
        &mut self,
        row: &ManifestRow,
        image: Option<Vec<u8>>,
    ) -> Result<(), DatasetError> {
        let data = DatasetRow::new(self.rows, row, image);
        let layout = self.layout.check(
            &self.sinks,
            &self.dir.join("manifest.jsonl"),
            self.rows + 1,
            &data.id,
            data.layout,
        )?;
        if self.cut.starts_new(data.image_bytes()) {
            self.writers.iter_mut().try_for_each(|w| w.cut())?;
        }
        self.rows += 1;
        self.writers
            .iter_mut()
            .try_for_each(|w| w.push(&data, layout))
    }

    /// Adds the next rows, in order, with their image files' bytes: as many
    /// [`push`](Self::push)es, the same bytes, but each sink takes the whole batch on
    /// a rayon worker of its own, so that the sinks run side by side and no single
    /// thread carries all of them. Rows up to one of the wrong layout are written
    /// and that row's error returned; of the sinks' errors, the first sink's.
    pub(crate) fn push_batch(&mut self, rows: Vec<WrittenRow>) -> Result<(), DatasetError> {
        use rayon::prelude::*;
        let mut planned = Vec::with_capacity(rows.len());
        let mut refused = None;
        for WrittenRow {
            row,
            line,
            image,
            grounding,
        } in rows
        {
            let mut data = DatasetRow::with_line(self.rows, &row, line, image);
            data.grounding = grounding;
            let layout = match self.layout.check(
                &self.sinks,
                &self.dir.join("manifest.jsonl"),
                self.rows + 1,
                &data.id,
                data.layout,
            ) {
                Ok(l) => l,
                Err(e) => {
                    refused = Some(e);
                    break;
                }
            };
            let cut = self.cut.starts_new(data.image_bytes());
            self.rows += 1;
            planned.push((data, layout, cut));
        }
        let results: Vec<Result<(), DatasetError>> = (self.writers.par_iter_mut())
            .map(|w| {
                planned.iter().try_for_each(|(data, layout, cut)| {
                    if *cut {
                        w.cut()?;
                    }
                    w.push(data, *layout)
                })
            })
            .collect();
        results.into_iter().collect::<Result<(), _>>()?;
        refused.map_or(Ok(()), Err)
    }

    /// Adds the next manifest row, reading its image from the output directory
    /// (checked as [`read_image`] does); `manifest` and `line` name the row in errors.
    pub(crate) fn push_stored(
        &mut self,
        manifest: &Path,
        line: u64,
        row: &ManifestRow,
    ) -> Result<(), DatasetError> {
        let bytes = read_image(&self.dir, manifest, line, row)?;
        self.push(row, bytes)
    }

    /// Completes every file and gives the shards their final names.
    pub(crate) fn finish(self) -> Result<Exported, DatasetError> {
        let layout = self.layout.layout();
        let mut files = Vec::new();
        for w in self.writers {
            files.extend(w.finish(layout)?);
        }
        Ok(Exported {
            rows: self.rows,
            files,
        })
    }
}

/// The raster image a manifest row names, read from `dir`: a regular file inside
/// it (through real directories, never a link, a device or a FIFO), of at most
/// `MAX_FILE_BYTES`, whose SHA-256 is the one the row recorded; `None` for a
/// text-only row, which names none.
pub(crate) fn read_image(
    dir: &Dir,
    manifest: &Path,
    line: u64,
    row: &ManifestRow,
) -> Result<Option<Vec<u8>>, DatasetError> {
    check_raster(manifest, line, row)?;
    let Some(file) = &row.image.file else {
        return Ok(None);
    };
    crate::output::manifest::read_checked(dir, &file.image, &file.sha256)
        .map(Some)
        .map_err(|why| DatasetError::Image {
            path: manifest.to_path_buf(),
            line,
            id: row.image.id.clone(),
            image: file.image.clone(),
            why: Box::new(why),
        })
}

/// A row's variant as a run writes it: every key an axis of the table, every value
/// one the axis takes. The datasets name files and tasks after them, so a
/// hand-edited key is refused here, naming its line, before anything is written.
fn check_variant(path: &Path, line: u64, row: &ManifestRow) -> Result<(), DatasetError> {
    use crate::variants::Axis;
    let bad = |message: String| DatasetError::Manifest {
        path: path.to_path_buf(),
        line,
        message,
    };
    let variant = row.source.iter().flat_map(|s| &s.variant);
    for (key, value) in variant {
        let axis = Axis::from_name(key).map_err(|e| bad(format!("variant: {e}")))?;
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            other => {
                return Err(bad(format!(
                    "variant {key:?}: {other} is not a value of it"
                )));
            }
        };
        axis.parse(&text)
            .map_err(|e| bad(format!("variant: {e}")))?;
    }
    Ok(())
}

/// Calls `f` with every row of `dir/manifest.jsonl`, in order, reading it in bounded
/// memory (see [`crate::output::rows::each_row`]).
fn for_each_row(
    dir: &Dir,
    mut f: impl FnMut(&Path, u64, &ManifestRow) -> Result<(), DatasetError>,
) -> Result<(), DatasetError> {
    use crate::output::rows::{RowsError, each_row};
    let path = dir.join("manifest.jsonl");
    each_row(dir, "manifest.jsonl", |line, row| f(&path, line, &row)).map_err(|e| match e {
        RowsError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            DatasetError::NoManifest(dir.path().to_path_buf())
        }
        RowsError::Io(source) => DatasetError::Io {
            path: path.clone(),
            source,
        },
        RowsError::Bad { line, why } => DatasetError::Manifest {
            path: path.clone(),
            line,
            message: why,
        },
        RowsError::Stopped(e) => e,
    })
}

/// Writes the datasets `opts` asks for from the finished run in `dir` (whose lock
/// the caller holds): the same bytes as the run's streamed `--sink` datasets.
///
/// Every image is checked first (a regular file inside `dir`, with the SHA-256 its
/// row recorded), every row's variant (axes of the table, values they take), and
/// every row's layout against the first row's: a row that fails is named and
/// nothing is written.
pub(crate) fn export(dir: &Dir, opts: &DatasetOptions) -> Result<Exported, DatasetError> {
    // A directory without a finished manifest is refused before anything is made.
    if dir.kind("manifest.jsonl").ok().flatten() != Some(Kind::File) {
        return Err(DatasetError::NoManifest(dir.path().to_path_buf()));
    }
    if opts.sinks.is_empty() {
        return Ok(Exported::default());
    }
    opts.check_built()?;
    if let Some(sink) = opts.sinks.iter().find(|s| !s.exportable()) {
        return Err(DatasetError::NotExportable(sink.name()));
    }
    let sinks = opts.written();
    let mut layouts = LayoutCheck::default();
    for_each_row(dir, |path, line, row| {
        check_variant(path, line, row)?;
        read_image(dir, path, line, row)?;
        layouts
            .check(&sinks, path, line, &row.image.id, Layout::of(row))
            .map(drop)
    })?;
    let Some(mut writer) = DatasetWriter::create(dir, opts)? else {
        return Ok(Exported::default());
    };
    for_each_row(dir, |path, line, row| writer.push_stored(path, line, row))?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(
        layouts: &mut LayoutCheck,
        sinks: &[Sink],
        line: u64,
        row: Option<Layout>,
    ) -> Result<Layout, String> {
        let id = format!("p{line}");
        (layouts.check(sinks, Path::new("m.jsonl"), line, &id, row)).map_err(|e| e.to_string())
    }

    #[test]
    fn the_first_row_sets_the_layout_and_rows_without_a_problem_fit_either() {
        let all = Sink::ALL;
        let mut layouts = LayoutCheck::default();
        assert_eq!(layouts.layout(), Layout::Open);
        assert_eq!(
            check(&mut layouts, &all, 1, Some(Layout::Choice)),
            Ok(Layout::Choice)
        );
        assert_eq!(check(&mut layouts, &all, 2, None), Ok(Layout::Choice));
        let e = check(&mut layouts, &all, 3, Some(Layout::Open)).unwrap_err();
        assert!(
            e.starts_with(
                "m.jsonl:3: \"p3\" is one of GeomVerse's problems (numeric answers), but the \
                 parquet, vlmevalkit, lmms-eval dataset holds GeomRel's relation items (multiple \
                 choice) (set by its first row, \"p1\"): "
            ),
            "{e}"
        );
        // A plain scene first: the open layout.
        let mut layouts = LayoutCheck::default();
        assert_eq!(check(&mut layouts, &all, 1, None), Ok(Layout::Open));
        assert!(check(&mut layouts, &all, 2, Some(Layout::Choice)).is_err());
    }

    #[test]
    fn a_codec_has_one_name_in_done_json_and_on_the_command_line() {
        for c in [ParquetCompression::Snappy, ParquetCompression::None] {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
    }

    #[test]
    fn a_build_without_parquet_refuses_its_sinks_before_any_work() {
        let asked = |sinks: Vec<Sink>| {
            DatasetOptions {
                sinks,
                ..DatasetOptions::default()
            }
            .check_built()
            .map_err(|e| e.to_string())
        };
        assert_eq!(asked(vec![Sink::WebDataset, Sink::VlmEvalKit]), Ok(()));
        for sink in [Sink::Parquet, Sink::LmmsEval] {
            let got = asked(vec![Sink::WebDataset, sink]);
            if cfg!(feature = "parquet") {
                assert_eq!(got, Ok(()));
            } else {
                let e = got.unwrap_err();
                assert!(
                    e.starts_with(&format!(
                        "the {} dataset needs the `parquet` feature",
                        sink.name()
                    )) && e.contains("`cargo build --release --features parquet`"),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn webdataset_alone_takes_both_layouts() {
        let mut layouts = LayoutCheck::default();
        let wds = [Sink::WebDataset];
        assert_eq!(
            check(&mut layouts, &wds, 1, Some(Layout::Open)),
            Ok(Layout::Open)
        );
        assert_eq!(
            check(&mut layouts, &wds, 2, Some(Layout::Choice)),
            Ok(Layout::Open)
        );
    }
}
