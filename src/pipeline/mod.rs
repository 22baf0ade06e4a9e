//! The streaming render run: input lines → jobs → images → files + manifest rows.
//!
//! Stages on their own threads, joined by bounded channels so memory stays flat
//! however long the input is:
//!
//! 1. the calling thread reads lines in chunks and expands, validates and prepares
//!    them in parallel on rayon (for the CPU backend it also renders them there),
//!    reporting bad lines as it goes;
//! 2. with the GPU backend, a GPU thread packs prepared scenes into frames and
//!    keeps `render::gpu::FRAMES_IN_FLIGHT` in flight;
//! 3. a sink thread encodes and writes files on rayon and appends manifest rows
//!    in input order.
//!
//! ```text
//! jobs       a line → its jobs: a Scene, or a Problem's variants (`Expanded`)
//! read       stage 1: read, expand, prepare (and render on the CPU) in chunks
//! gpu_stage  stage 2: frames to the GPU and back
//! sink       stage 3: encode, write, manifest rows, dataset sinks, in input order
//! error      typed line errors (`LineError`, `LineFault`)
//! errors     errors.jsonl: one row per failed line or image
//! skipped    skipped.jsonl: one row per variant not drawn (none such, or its base again)
//! previous   an earlier run in the directory: rendered over, refused or replaced
//! resume     `--resume`: which rows of an earlier run are kept
//! seen       the ids written so far (as fingerprints), to refuse a repeated one
//! stats      stage times (prepare, render, encode, write)
//! shard      `--shard I/N|auto`: a run's slice, and the begin/finish protocol
//! ```

mod error;
mod errors;
#[cfg(feature = "gpu")]
mod gpu_stage;
mod jobs;
mod previous;
mod read;
mod resume;
mod seen;
pub(crate) use seen::Seen;
pub(crate) mod shard;
mod sink;
mod skipped;
mod stats;

pub(crate) use crate::output::availability::Availability;
pub use error::{JobError, LineError, LineFault};
pub(crate) use jobs::draw_variant;
#[cfg(test)]
pub(crate) use jobs::expand_line;
pub use jobs::{Expanded, LineKind, SkipReason, Skipped, line_kind};
#[cfg(test)]
pub(crate) use previous::RUN_DIRS;
#[cfg(test)]
pub(crate) use previous::RUN_FILES;
pub use previous::{OccupiedError, Previous};
pub(crate) use previous::{clear, holds_run, occupied};
pub use skipped::SkipCount;
pub(crate) use skipped::{SKIPPED, SKIPPED_SCHEMA};

/// Where a run's probes go.
const PROBES: &str = crate::output::probes::FILE;
pub use stats::StageTimes;
pub(crate) use stats::Timer;

use crate::output::datasets::{DatasetError, DatasetOptions, DatasetWriter, Exported};
use crate::output::dir::Dir;
use crate::output::lock::OutputLock;
use crate::output::manifest::{Lineage, ManifestWriter, ProblemFields};
use crate::output::record::{Format, InputFile, Provenance, RunRecipe, RunRecord};
pub(crate) use crate::output::record::{Origin, Variants};
use crate::render::CpuRenderer;
use crate::render::RenderedImage;
use crate::render::TessellateOptions;
#[cfg(feature = "gpu")]
use crate::render::gpu::{GpuError, GpuOptions, GpuRenderer};
use crate::render::{BackendError, BackendKind, Decision, Requested, decide};
use crate::scene::{Scene, SceneError};
use crate::style::Encoding;
use crate::variants::Pixels;
pub use resume::ResumeError;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

/// One image to produce: a scene, how to store it, and what its manifest row says
/// besides the image record.
#[derive(Clone, Debug)]
pub struct Job {
    pub scene: Scene,
    /// What the pixel stage does to the rendered image, before it is encoded.
    pub pixels: Pixels,
    /// How the image is stored; `None`: the row has no image (a `text-only`
    /// Problem), and nothing is rendered.
    pub encoding: Option<Encoding>,
    /// The base image and variant (Problem lines, and Scene lines with `--variants`).
    pub source: Option<Lineage>,
    /// The texts and drawing facts of a Problem line.
    pub problem: Option<ProblemFields>,
    /// What compose placed for a Problem's image, for its probes and COCO
    /// annotations (`None` for a Scene line).
    pub drawn: Option<crate::compose::Drawn>,
}

impl Job {
    /// A Scene drawn as it is, stored as PNG, with nothing but the image record.
    pub(crate) fn new(scene: Scene) -> Self {
        Job {
            scene,
            pixels: Pixels::default(),
            encoding: Some(Encoding::Png),
            source: None,
            problem: None,
            drawn: None,
        }
    }
}

/// Turns one input line into jobs (a Scene line gives one; a Problem line with
/// variants gives several), as [`Job::expand`] does: an `Err` fails the whole line,
/// each of [`Expanded::failed`] fails alone (its own row of `errors.jsonl`) while
/// the line's other jobs are made, and [`Expanded::skipped`] is not an error.
pub(crate) type Expand<'a> = dyn Fn(&str) -> Result<Expanded, JobError> + Sync + 'a;

/// What draws the pixels.
#[derive(Clone)]
pub enum Backend {
    /// wgpu, many scenes per submission.
    #[cfg(feature = "gpu")]
    Gpu(GpuOptions),
    /// A per-scene renderer run on rayon: the direct rasteriser (`cpu`) or resvg.
    Cpu(Arc<CpuRenderer>),
}

impl Backend {
    /// The one door to a backend: what `requested` decides on (with the GPU's
    /// default settings, which a caller may then tune), and why. Runs, `bench`,
    /// `merge`'s contact sheets and the Python package open theirs here.
    pub fn open(requested: Requested) -> Result<(Backend, Decision), BackendError> {
        let decision = decide(requested)?;
        let backend = match decision.kind {
            #[cfg(feature = "gpu")]
            BackendKind::Gpu => Backend::Gpu(GpuOptions::default()),
            BackendKind::Cpu => Backend::Cpu(Arc::new(CpuRenderer::raster())),
            BackendKind::Resvg => Backend::Cpu(Arc::new(CpuRenderer::resvg())),
        };
        Ok((backend, decision))
    }
}

/// Which files each job produces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outputs {
    /// The rendered image, encoded as the job says (PNG unless a variant asks for JPEG).
    #[default]
    Raster,
    /// Only the scene's exact SVG equivalent (nothing is rendered).
    Svg,
    /// Both; the manifest's `image` is the raster file, `svg` the SVG.
    Both,
}

impl Outputs {
    /// Whether a raster image is rendered.
    pub(crate) fn raster(self) -> bool {
        matches!(self, Outputs::Raster | Outputs::Both)
    }

    /// Whether the SVG is written.
    pub(crate) fn svg(self) -> bool {
        matches!(self, Outputs::Svg | Outputs::Both)
    }
}

/// Options of a render run.
#[derive(Clone)]
pub struct RunOptions {
    /// Output directory: files go to `images/`, rows to `manifest.jsonl`,
    /// rejected lines to `errors.jsonl`.
    pub out_dir: PathBuf,
    pub backend: Backend,
    pub outputs: Outputs,
    /// Embed the font in SVG files (self-contained, ~1 MB each) instead of naming it.
    pub svg_embed_font: bool,
    pub tessellate: TessellateOptions,
    /// Images (jobs) per parallel step: the reader takes as many lines as make about
    /// this many images (at least one line), which bounds the images held at once.
    pub chunk_lines: usize,
    /// What to do with an earlier run in `out_dir`: render over it only when it is
    /// this run again (default), keep what it finished and render the rest
    /// (`--resume`, see `pipeline::resume`), or remove its files first (`--force`).
    pub previous: Previous,
    /// The input file, when the input is one: an earlier run's rows are checked
    /// against it before any work (a stream cannot be read twice, so a run into a
    /// directory with rows of an earlier one cannot check them).
    pub input_path: Option<PathBuf>,
    /// The variant plan the jobs are expanded with (`Variants::of`): part of the
    /// recipe whose fingerprint `resume` compares.
    pub variants: Variants,
    /// What the run record's provenance says besides what the library knows: the
    /// command line (the process's, by default), a sweep's generator, the shard.
    /// Never part of the fingerprint.
    pub origin: Origin,
    /// Only these non-blank input lines, counted from 0 (a shard of the input); the
    /// others are read past. Error rows keep the lines' numbers in the whole file.
    pub lines: Option<std::ops::Range<u64>>,
    /// Datasets written row by row as images come out (none by default). Not part
    /// of the fingerprint: a resumed run rebuilds them from the kept rows.
    pub datasets: DatasetOptions,
    /// Each Problem row carries the Problem it draws (`problem`, as its variant
    /// rewrote it). Off by default: rows stay small.
    pub emit_problems: bool,
    /// Perception probes on every image of a Problem (`probes.jsonl`), this many
    /// per image; none by default.
    pub probes: Option<crate::probe::ProbeOptions>,
}

impl RunOptions {
    pub(crate) const DEFAULT_CHUNK_LINES: usize = 64;

    /// Whether each image's grounding is made: for its probes, or for COCO.
    pub(crate) fn grounds(&self) -> bool {
        self.probes.is_some()
            || self
                .datasets
                .sinks
                .contains(&crate::output::datasets::Sink::Coco)
    }

    /// Rendering to PNG with default settings: on the GPU (with the `gpu` feature),
    /// else with the CPU rasteriser.
    pub fn new(out_dir: impl Into<PathBuf>) -> Self {
        #[cfg(feature = "gpu")]
        let backend = Backend::Gpu(GpuOptions::default());
        #[cfg(not(feature = "gpu"))]
        let backend = Backend::Cpu(Arc::new(CpuRenderer::raster()));
        RunOptions {
            out_dir: out_dir.into(),
            backend,
            outputs: Outputs::default(),
            svg_embed_font: false,
            tessellate: TessellateOptions::default(),
            chunk_lines: Self::DEFAULT_CHUNK_LINES,
            previous: Previous::Refuse,
            input_path: None,
            variants: Variants::default(),
            origin: Origin::process(),
            lines: None,
            datasets: DatasetOptions::default(),
            emit_problems: false,
            probes: None,
        }
    }
}

/// Hears about the run as it goes (progress bars, logs).
pub trait Progress: Sync {
    /// An image and its manifest row were written.
    fn image_written(&self, _id: &str) {}
    /// A line was rejected; the run goes on.
    fn line_failed(&self, _error: &LineError) {}
}

/// What a run did.
#[derive(Debug)]
pub struct RunSummary {
    /// Non-blank input lines read.
    pub lines: u64,
    pub images: u64,
    /// Of `images`, those kept from the previous run (`--resume`).
    pub kept: u64,
    /// Images or whole lines that failed (each is a row of `errors.jsonl`).
    pub failed: u64,
    /// Of `failed`, whole lines; the others are single images that failed alone (a
    /// variant that could not be made, a scene the GPU could not render).
    pub failed_lines: u64,
    /// The first of them in line order, as the terminal shows it.
    pub first_failure: Option<String>,
    /// Variants of the plan not drawn (each a row of `skipped.jsonl`), counted by
    /// reason, then variant value.
    pub skipped: Vec<SkipCount>,
    /// Per variant value and kind of base: how many bases had it made.
    pub availability: Availability,
    /// What rendered, as in the manifest's `backend` column.
    pub backend: String,
    /// The run's record (`.geomrender.run.json`): its recipe, which decides the
    /// output bytes and whose fingerprint `--resume` compares, and its provenance.
    pub record: RunRecord,
    pub manifest: PathBuf,
    /// `probes.jsonl`, when the run asked for probes.
    pub probes: Option<PathBuf>,
    /// The datasets written besides the manifest (`RunOptions::datasets`).
    pub datasets: Exported,
    /// Datasets of an earlier run in the directory that this run does not write,
    /// removed when its manifest replaced theirs (relative to the directory).
    pub removed_datasets: Vec<PathBuf>,
    pub elapsed: Duration,
    pub stages: StageTimes,
}

/// A failure that stops the whole run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    #[cfg(feature = "gpu")]
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Cpu(#[from] crate::render::CpuError),
    #[error(transparent)]
    Scene(#[from] SceneError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("reading {file}: {source}")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error("encoding {id}: {source}")]
    Encode {
        id: String,
        source: image::ImageError,
    },
    /// A job reached the sink with no file to write (a bug: every job renders or exports).
    #[error("{id}: the job produced neither an image nor an SVG")]
    NothingToWrite { id: String },
    /// The dataset thread stopped taking rows; its own error is reported instead.
    #[error("the dataset writer stopped")]
    DatasetsStopped,
    /// `--resume` with probes or COCO annotations, which are made from each image's
    /// drawing as it is drawn: a kept image is not drawn again.
    #[error(
        "--resume cannot keep the probes or COCO annotations of the images it keeps (they \
         are made while an image is drawn): run again without --resume (with --force over \
         the same directory)"
    )]
    NotResumable,
    #[error(transparent)]
    Resume(#[from] ResumeError),
    #[error(transparent)]
    Occupied(#[from] OccupiedError),
    #[error(transparent)]
    Lock(#[from] crate::output::lock::LockError),
    #[error(transparent)]
    Dataset(#[from] DatasetError),
}

/// A job on its way to the sink: identity, row fields, encoding, SVG text if wanted.
pub(crate) struct Meta {
    id: String,
    /// The input line it came from (1-based), to name it if rendering fails later.
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    line: u64,
    width: u32,
    height: u32,
    source: Option<Lineage>,
    problem: Option<ProblemFields>,
    /// Hex SHA-256 of the input line.
    input_sha256: String,
    pixels: Pixels,
    /// `None`: the row has no image (and no SVG).
    encoding: Option<Encoding>,
    svg: Option<String>,
    /// The image's grounding and probes (`--probes`, `--sink coco`).
    grounded: Option<Box<Grounded>>,
}

/// What an image draws, in its pixels, and the probes asked about it.
pub(crate) struct Grounded {
    grounding: Arc<crate::compose::Grounding>,
    probes: Vec<crate::probe::Probe>,
}

impl Meta {
    /// The job's image file: `img` through the pixel stage, then stored as
    /// `encoding` (the job's own; its buffer handed back to this thread's renderer).
    fn finish(
        &self,
        encoding: Encoding,
        mut img: RenderedImage,
        stats: &StageTimes,
    ) -> Result<Vec<u8>, image::ImageError> {
        if !self.pixels.is_empty() {
            let _t = Timer::new(&stats.pixels);
            self.pixels
                .apply_rgba(&self.id, img.width, img.height, &mut img.rgba);
        }
        let _t = Timer::new(&stats.encode);
        let encoded = crate::output::encode(encoding, &img);
        crate::render::recycle(img.rgba);
        encoded
    }
}

/// A job ready to be written: its image unless only SVG was asked for.
pub(crate) struct Done {
    meta: Meta,
    image: Option<Raster>,
}

/// A job's raster image on its way to the sink.
pub(crate) enum Raster {
    /// Pixels the sink still has to encode (the GPU stage hands over whole batches).
    #[cfg(feature = "gpu")]
    Pixels(RenderedImage),
    /// Encoded where it was rendered (CPU backends), so that what waits in the
    /// channels is a PNG of tens of KB, not a megabyte of pixels; the sink reports
    /// a failure as it does its own.
    Encoded(Result<Vec<u8>, image::ImageError>),
}

/// Renders every job of every line of `input` into `options.out_dir`, holding the
/// directory's lock (see `OutputLock`) for the whole run.
pub fn run(
    input: impl BufRead,
    file: &str,
    expand: &Expand<'_>,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<RunSummary, RunError> {
    let lock = OutputLock::create(&options.out_dir)?;
    run_locked(&lock, input, file, expand, options, progress)
}

/// [`run`] for a caller that already holds `options.out_dir`'s lock (a sweep holds it
/// from generating its problems on).
pub(crate) fn run_locked(
    lock: &OutputLock,
    input: impl BufRead,
    file: &str,
    expand: &Expand<'_>,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<RunSummary, RunError> {
    let start = Instant::now();
    if !options.datasets.sinks.is_empty() && !options.outputs.raster() {
        return Err(DatasetError::SvgOnly.into());
    }
    if options.previous == Previous::Resume && options.grounds() {
        return Err(RunError::NotResumable);
    }
    let out = lock.dir();
    let images = out.sub("images").map_err(io(&out.join("images")))?;
    // Temp files of a run that was killed (we hold the lock: nobody else writes here).
    for dir in [out, &images] {
        crate::output::atomic::remove_stale_temps(dir, None).map_err(io(dir.path()))?;
    }
    let renderer = Renderer::open(options)?;
    let backend = renderer.label();
    let record = record(options, &renderer)?;
    // Rows go to the partial file until the run ends: errors name that one.
    let partial = ManifestWriter::partial_path(out, "manifest.jsonl");
    let (mut manifest, datasets, kept) = open_outputs(out, options, &backend, &record, &partial)?;
    for id in &kept.ids {
        progress.image_written(id);
    }
    // A resume refused half way leaves only the kept rows, so the original
    // command can still finish the run.
    let kept_mark = manifest.position().map_err(io(&partial))?;
    let stats = StageTimes::default();
    let mut failed = errors::ErrorLog::new(out);
    let mut skips = skipped::SkipLog::new(out);
    let mut availability = Availability::default();
    let mut lines_read = 0;
    let reader = read::Reader {
        file,
        expand,
        options,
        progress,
        stats: &stats,
        cpu: renderer.cpu(),
        failed: &mut failed,
        skips: &mut skips,
        availability: &mut availability,
        lines_read: &mut lines_read,
        kept: &kept,
    };
    let sink = sink::Sink {
        out_dir: out,
        images: &images,
        backend: &backend,
        progress,
        stats: &stats,
    };
    let probes = match options.probes {
        Some(_) => Some(ManifestWriter::create(out, PROBES).map_err(io(&out.join(PROBES)))?),
        None => None,
    };
    let outputs = sink::Outputs {
        manifest,
        datasets,
        probes,
    };
    let (outputs, read_result, gpu_failed) = run_stages(input, reader, sink, renderer, outputs)?;
    let sink::Outputs {
        mut manifest,
        datasets,
        probes,
    } = outputs;
    if let Err(RunError::Resume(_)) = &read_result {
        manifest
            .rewind(kept_mark, kept.ids.len() as u64)
            .map_err(io(&partial))?;
    }
    read_result?;
    let images = manifest.rows();
    let manifest = manifest.finish().map_err(io(&partial))?;
    // The probes of this run, or none: an earlier run's would not match its images.
    let probes = match probes {
        Some(p) => Some(p.finish().map_err(io(&out.join(PROBES)))?),
        None => {
            out.remove_file(PROBES).map_err(io(&out.join(PROBES)))?;
            None
        }
    };
    // Published after the manifest: a dataset never has rows the manifest lacks,
    // and none of an earlier run stays beside the new manifest.
    let removed_datasets =
        crate::output::datasets::remove_other_datasets(out, &options.datasets.written())?;
    let datasets = match datasets {
        Some(d) => {
            let _t = Timer::new(&stats.datasets);
            d.finish()?
        }
        None => Exported::default(),
    };
    let errors_path = out.join("errors.jsonl");
    let failed = failed.finish(gpu_failed).map_err(io(&errors_path))?;
    let skipped = skips.finish().map_err(io(&out.join(SKIPPED)))?;
    Ok(RunSummary {
        lines: lines_read,
        images,
        kept: kept.ids.len() as u64,
        failed: failed.count,
        failed_lines: failed.lines,
        first_failure: failed.first,
        skipped,
        availability,
        backend,
        record,
        manifest,
        probes,
        datasets,
        removed_datasets,
        elapsed: start.elapsed(),
        stages: stats,
    })
}

/// An I/O error at `path`, as the run reports it.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> RunError + use<> {
    let path = path.to_path_buf();
    move |source| RunError::Io { path, source }
}

/// The run's manifest and datasets, opened, with the rows a resumed run keeps
/// already written: the resume is planned (or refused) before anything on disk
/// changes.
fn open_outputs(
    out: &Dir,
    options: &RunOptions,
    backend: &str,
    record: &RunRecord,
    partial: &Path,
) -> Result<(ManifestWriter, Option<DatasetWriter>, resume::Kept), RunError> {
    let input = options.input_path.as_deref();
    let plan = match options.previous {
        Previous::Resume => resume::plan(out, backend, options.outputs, &record.recipe, input)?,
        Previous::Refuse => {
            previous::check(out, &record.recipe, input)?;
            None
        }
        Previous::Replace => {
            previous::clear(out, input)?;
            None
        }
    };
    let staged = match &plan {
        Some(plan) => Some(resume::stage(out, plan)?),
        None => None,
    };
    let mut manifest = ManifestWriter::create(out, "manifest.jsonl").map_err(io(partial))?;
    resume::write_state(out, record)?;
    let mut datasets = DatasetWriter::create(out, &options.datasets)?;
    let kept = match (plan, staged) {
        (Some(plan), Some(name)) => {
            resume::keep(
                out,
                name,
                plan.kept.ids.len(),
                &mut manifest,
                datasets.as_mut(),
            )?;
            plan.kept
        }
        _ => resume::Kept::default(),
    };
    Ok((manifest, datasets, kept))
}

/// The run's record: what decides its output bytes (batching and chunking do not
/// change bytes and are left out), whose fingerprint `--resume` compares, and where
/// it came from (the input file is read here for its SHA-256).
fn record(options: &RunOptions, renderer: &Renderer) -> Result<RunRecord, RunError> {
    let formats = match options.outputs {
        Outputs::Raster => vec![Format::Png],
        Outputs::Svg => vec![Format::Svg],
        Outputs::Both => vec![Format::Png, Format::Svg],
    };
    let adapter = renderer.label();
    let recipe = RunRecipe {
        geomrender: env!("CARGO_PKG_VERSION").to_string(),
        backend: adapter.clone(),
        formats,
        svg_embed_font: options.svg_embed_font,
        tolerance: options.tessellate.tolerance,
        emit_problems: options.emit_problems,
        variants: options.variants.clone(),
        probes: options.probes,
    };
    let input = match &options.input_path {
        Some(path) => InputFile::read(path).map_err(io(path))?,
        None => None,
    };
    let provenance = Provenance::now(renderer.name(), &adapter, input, &options.origin);
    Ok(RunRecord::new(recipe, provenance))
}

/// What draws a run's pixels, opened before any line is read.
enum Renderer {
    #[cfg(feature = "gpu")]
    Gpu(Box<GpuRenderer>),
    Cpu(Arc<CpuRenderer>),
    /// SVG only: nothing is rasterised.
    None,
}

impl Renderer {
    fn open(options: &RunOptions) -> Result<Renderer, RunError> {
        Ok(match (&options.backend, options.outputs.raster()) {
            (_, false) => Renderer::None,
            #[cfg(feature = "gpu")]
            (Backend::Gpu(o), true) => Renderer::Gpu(Box::new(GpuRenderer::new(*o)?)),
            (Backend::Cpu(r), true) => Renderer::Cpu(r.clone()),
        })
    }

    /// Its `--backend` word (`none` when nothing is rasterised).
    fn name(&self) -> &'static str {
        match self {
            #[cfg(feature = "gpu")]
            Renderer::Gpu(_) => "gpu",
            Renderer::Cpu(r) => r.name(),
            Renderer::None => "none",
        }
    }

    /// The manifest's `backend` column.
    fn label(&self) -> String {
        match self {
            #[cfg(feature = "gpu")]
            Renderer::Gpu(r) => r.adapter().label(),
            Renderer::Cpu(r) => r.label(),
            Renderer::None => "svg export (no rasterisation)".to_string(),
        }
    }

    fn cpu(&self) -> Option<Arc<CpuRenderer>> {
        match self {
            Renderer::Cpu(r) => Some(r.clone()),
            _ => None,
        }
    }
}

/// What the stages leave: the sink's manifest and datasets (not yet finished), how
/// the reader ended, and the jobs the GPU stage could not render.
type Staged = (sink::Outputs, Result<(), RunError>, Vec<LineError>);

/// Runs the reader on this thread and the GPU and sink stages on their own, joined
/// by bounded channels. Returns the sink's manifest (not yet finished), how the
/// reader ended and the jobs the GPU stage could not render (line errors); a GPU
/// or sink failure is returned first, as it explains the others (closed channels).
fn run_stages(
    input: impl BufRead,
    mut reader: read::Reader<'_>,
    sink: sink::Sink<'_>,
    renderer: Renderer,
    outputs: sink::Outputs,
) -> Result<Staged, RunError> {
    // What the GPU stage reports with, taken before the reader is lent out.
    #[cfg(feature = "gpu")]
    let (stats, file, progress) = (reader.stats, reader.file, reader.progress);
    #[cfg(feature = "gpu")]
    let chunk_lines = reader.options.chunk_lines.max(1);
    let (to_sink, sink_in) = sync_channel::<Vec<Done>>(2);
    let (gpu_result, sink_result, read_result) = std::thread::scope(|s| {
        let sink = s.spawn(move || sink.run(sink_in, outputs));
        // The GPU stage's thread, when the renderer is the GPU.
        type GpuStage<'s> = std::thread::ScopedJoinHandle<'s, Result<Vec<LineError>, RunError>>;
        let (gpu, read): (Option<GpuStage<'_>>, _) = match renderer {
            #[cfg(feature = "gpu")]
            Renderer::Gpu(renderer) => {
                let (to_gpu, gpu_in) = sync_channel(chunk_lines * 2);
                let gpu = s.spawn(move || {
                    let report = gpu_stage::Report { file, progress };
                    gpu_stage::run(*renderer, gpu_in, to_sink, stats, report)
                        .map_err(RunError::from)
                });
                let read = reader.run(input, read::Next::Gpu(&to_gpu));
                drop(to_gpu);
                (Some(gpu), read)
            }
            Renderer::Cpu(_) | Renderer::None => {
                let read = reader.run(input, read::Next::Sink(&to_sink));
                drop(to_sink);
                (None, read)
            }
        };
        (gpu.map(|g| g.join()), sink.join(), read)
    });
    let gpu_failed = match gpu_result {
        Some(r) => r.unwrap_or_else(|p| std::panic::resume_unwind(p))?,
        None => Vec::new(),
    };
    let outputs = sink_result.unwrap_or_else(|p| std::panic::resume_unwind(p))?;
    Ok((outputs, read_result, gpu_failed))
}

/// Renders a single scene outside a run (contact sheets, smoke tests) with `backend`.
/// To render several, use one [`SceneRenderer`]: this opens the GPU each call.
pub(crate) fn render_scene(backend: &Backend, scene: &Scene) -> Result<RenderedImage, RunError> {
    SceneRenderer::new(backend.clone()).render(scene)
}

/// Renders single scenes outside a run with a backend, opening the GPU (if the
/// backend is one) on the first scene and keeping it for the rest.
pub struct SceneRenderer {
    backend: Backend,
    #[cfg(feature = "gpu")]
    gpu: Option<GpuRenderer>,
}

impl SceneRenderer {
    pub fn new(backend: Backend) -> Self {
        SceneRenderer {
            backend,
            #[cfg(feature = "gpu")]
            gpu: None,
        }
    }

    /// Whether it draws on the CPU, into this thread's spare buffers (a caller that
    /// keeps images elsewhere returns their buffers with [`crate::render::recycle`]).
    pub fn draws_on_cpu(&self) -> bool {
        matches!(self.backend, Backend::Cpu(_))
    }

    /// One image as a run makes it before encoding: the scene rendered, then the
    /// variant's pixel stage (`blur`) applied.
    pub fn render_one(
        &mut self,
        scene: &Scene,
        pixels: &Pixels,
    ) -> Result<RenderedImage, RunError> {
        let mut image = self.render(scene)?;
        pixels.apply_rgba(&scene.id, image.width, image.height, &mut image.rgba);
        Ok(image)
    }

    /// Renders one scene, without a variant's pixel stage (see [`Self::render_one`]).
    pub(crate) fn render(&mut self, scene: &Scene) -> Result<RenderedImage, RunError> {
        match &self.backend {
            Backend::Cpu(r) => Ok(r.render(scene)?),
            #[cfg(feature = "gpu")]
            Backend::Gpu(o) => {
                let options = GpuOptions { max_tiles: 1, ..*o };
                crate::scene::validate(scene)?;
                let renderer = match &mut self.gpu {
                    Some(r) => r,
                    None => self.gpu.insert(GpuRenderer::new(options)?),
                };
                let prepared = crate::render::prepare(scene, TessellateOptions::default())?;
                let mut images = renderer.render_all([prepared])?;
                Ok(images.pop().expect("one scene, one image"))
            }
        }
    }
}
