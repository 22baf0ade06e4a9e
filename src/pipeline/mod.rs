//! The streaming render run: input lines → jobs → prepared scenes → GPU frames →
//! encoded files + manifest rows.
//!
//! Three stages on their own threads, joined by bounded channels so memory stays
//! flat however long the input is:
//!
//! 1. the calling thread reads lines in chunks and expands/validates/prepares
//!    them in parallel on rayon, reporting bad lines as it goes;
//! 2. a GPU thread packs prepared scenes into frames and keeps two in flight;
//! 3. a sink thread encodes and writes images on rayon and appends manifest rows
//!    in input order.

mod input;
mod sink;
mod stats;

pub use input::{Line, Lines, MAX_LINE_BYTES};
pub use stats::{StageTimes, Timer};

use crate::output::manifest::ManifestWriter;
use crate::render::RenderedImage;
use crate::render::gpu::{FrameBuilder, GpuError, GpuOptions, GpuRenderer};
use crate::render::prepare::{PreparedScene, prepare};
use crate::render::tessellate::TessellateOptions;
use crate::scene::{Scene, SceneError};
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// One image to produce: a scene and the fields its manifest row carries besides
/// the image record (question, answer, variant, ...).
pub struct Job {
    pub scene: Scene,
    pub extra: Map<String, Value>,
}

/// Why an input line produced no images.
#[derive(Clone, Debug, PartialEq)]
pub struct JobError {
    pub id: Option<String>,
    pub message: String,
}

impl From<SceneError> for JobError {
    fn from(e: SceneError) -> Self {
        let id = e.id.clone();
        let message = match &e.path {
            p if p.is_empty() => e.reason.to_string(),
            p => format!("{p}: {}", e.reason),
        };
        JobError { id, message }
    }
}

/// A bad input line, located.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LineError {
    /// Input file name, or `<stdin>`.
    pub file: String,
    /// 1-based line number.
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(id) = &self.id {
            write!(f, "{id:?}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Turns one input line into jobs (a Scene line gives one; a Problem line with
/// variants gives several).
pub type Expand<'a> = dyn Fn(&str) -> Result<Vec<Job>, JobError> + Sync + 'a;

/// Expands a Scene v1 line into its single job.
pub fn expand_scene_line(line: &str) -> Result<Vec<Job>, JobError> {
    let scene = crate::scene::parse_scene(line)?;
    Ok(vec![Job {
        scene,
        extra: Map::new(),
    }])
}

/// Options of a render run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Output directory: images go to `images/`, rows to `manifest.jsonl`.
    pub out_dir: PathBuf,
    pub gpu: GpuOptions,
    pub tessellate: TessellateOptions,
    /// Lines read and prepared per parallel step.
    pub chunk_lines: usize,
}

impl RunOptions {
    pub const DEFAULT_CHUNK_LINES: usize = 64;

    pub fn new(out_dir: impl Into<PathBuf>) -> Self {
        RunOptions {
            out_dir: out_dir.into(),
            gpu: GpuOptions::default(),
            tessellate: TessellateOptions::default(),
            chunk_lines: Self::DEFAULT_CHUNK_LINES,
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

/// A progress listener that ignores everything.
pub struct Silent;
impl Progress for Silent {}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Non-blank input lines read.
    pub lines: u64,
    pub images: u64,
    /// Lines that failed, in order.
    pub failed: Vec<LineError>,
    /// The adapter that rendered, as in the manifest.
    pub backend: String,
    pub manifest: PathBuf,
    pub elapsed: Duration,
    pub stages: StageTimes,
}

/// A failure that stops the whole run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Gpu(#[from] GpuError),
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
    #[error("encoding {id}: {message}")]
    Encode { id: String, message: String },
}

/// A line's prepared scenes, or why it has none.
type PreparedLine = Result<Vec<(PreparedScene, Meta)>, JobError>;

/// Where an image of a job came from in the input.
struct Meta {
    id: String,
    extra: Map<String, Value>,
}

/// Renders every job of every line of `input` into `options.out_dir`.
pub fn run(
    input: impl BufRead,
    file: &str,
    expand: &Expand<'_>,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<RunSummary, RunError> {
    let start = Instant::now();
    let images_dir = options.out_dir.join("images");
    std::fs::create_dir_all(&images_dir).map_err(|source| RunError::Io {
        path: images_dir.clone(),
        source,
    })?;
    let manifest_path = options.out_dir.join("manifest.jsonl");
    let manifest = ManifestWriter::create(&manifest_path).map_err(|source| RunError::Io {
        path: manifest_path.clone(),
        source,
    })?;
    let renderer = GpuRenderer::new(options.gpu)?;
    let backend = renderer.adapter().label();
    let stats = StageTimes::default();

    let (to_gpu, gpu_in) = sync_channel::<(PreparedScene, Meta)>(options.chunk_lines.max(1) * 2);
    let (to_sink, sink_in) = sync_channel::<Vec<(RenderedImage, Meta)>>(2);
    let mut failed = Vec::new();
    let mut lines_read = 0;
    let (gpu_result, sink_result, read_result) = std::thread::scope(|s| {
        let stats = &stats;
        let gpu = s.spawn(move || gpu_stage(renderer, options.gpu, gpu_in, to_sink, stats));
        let sink_ctx = sink::Sink {
            out_dir: &options.out_dir,
            backend: &backend,
            progress,
            stats,
        };
        let sink = s.spawn(move || sink_ctx.run(sink_in, manifest));
        let read = read_stage(
            input,
            file,
            expand,
            options,
            &to_gpu,
            progress,
            stats,
            &mut failed,
            &mut lines_read,
        );
        drop(to_gpu);
        (gpu.join(), sink.join(), read)
    });
    // The first failure in pipeline order explains the others (closed channels).
    let gpu_result = gpu_result.unwrap_or_else(|p| std::panic::resume_unwind(p));
    let sink_result = sink_result.unwrap_or_else(|p| std::panic::resume_unwind(p));
    gpu_result?;
    let (images, manifest) = sink_result?;
    read_result?;
    write_errors(&options.out_dir, &failed)?;
    Ok(RunSummary {
        lines: lines_read,
        images,
        failed,
        backend,
        manifest,
        elapsed: start.elapsed(),
        stages: stats,
    })
}

#[allow(clippy::too_many_arguments)]
fn read_stage(
    input: impl BufRead,
    file: &str,
    expand: &Expand<'_>,
    options: &RunOptions,
    to_gpu: &SyncSender<(PreparedScene, Meta)>,
    progress: &dyn Progress,
    stats: &StageTimes,
    failed: &mut Vec<LineError>,
    lines_read: &mut u64,
) -> Result<(), RunError> {
    let mut lines = Lines::new(input);
    let mut seen: HashSet<Box<str>> = HashSet::new();
    loop {
        let chunk = lines
            .next_chunk(options.chunk_lines.max(1))
            .map_err(|source| RunError::Read {
                file: file.to_string(),
                source,
            })?;
        if chunk.is_empty() {
            return Ok(());
        }
        *lines_read += chunk.len() as u64;
        let prepared: Vec<(u64, PreparedLine)> = chunk
            .into_par_iter()
            .map(|line| {
                let _t = Timer::new(&stats.prepare);
                let result = line
                    .text
                    .map_err(|message| JobError { id: None, message })
                    .and_then(|text| {
                        expand(&text)?
                            .into_iter()
                            .map(|job| {
                                let p = prepare(&job.scene, options.tessellate)?;
                                Ok((
                                    p,
                                    Meta {
                                        id: job.scene.id,
                                        extra: job.extra,
                                    },
                                ))
                            })
                            .collect()
                    });
                (line.number, result)
            })
            .collect();
        for (number, result) in prepared {
            let fail = |e: JobError| LineError {
                file: file.to_string(),
                line: number,
                id: e.id,
                message: e.message,
            };
            let jobs = match result {
                Ok(jobs) => jobs,
                Err(e) => {
                    let e = fail(e);
                    progress.line_failed(&e);
                    failed.push(e);
                    continue;
                }
            };
            // A duplicate id rejects the whole line, before any of its images is sent.
            let mut ids = HashSet::new();
            if let Some(dup) = jobs
                .iter()
                .find(|(_, m)| seen.contains(m.id.as_str()) || !ids.insert(m.id.as_str()))
            {
                let e = fail(JobError {
                    id: Some(dup.1.id.clone()),
                    message: format!(
                        "duplicate id {:?}: an earlier item has the same id",
                        dup.1.id
                    ),
                });
                progress.line_failed(&e);
                failed.push(e);
                continue;
            }
            for (p, meta) in jobs {
                seen.insert(meta.id.clone().into_boxed_str());
                if to_gpu.send((p, meta)).is_err() {
                    // A later stage failed; its error is reported by the caller.
                    return Ok(());
                }
            }
        }
    }
}

fn gpu_stage(
    mut renderer: GpuRenderer,
    options: GpuOptions,
    input: Receiver<(PreparedScene, Meta)>,
    to_sink: SyncSender<Vec<(RenderedImage, Meta)>>,
    stats: &StageTimes,
) -> Result<(), GpuError> {
    let options = GpuOptions {
        target_size: renderer.options().target_size,
        ..options
    };
    let mut frames = FrameBuilder::new(options.target_size, options.max_tiles);
    let mut metas: VecDeque<Meta> = VecDeque::new();
    // Collects the oldest frame and hands it on; false when the sink has gone.
    let collect =
        |renderer: &mut GpuRenderer, metas: &mut VecDeque<Meta>| -> Result<bool, GpuError> {
            let images = {
                let _t = Timer::new(&stats.gpu_wait);
                match renderer.collect() {
                    Some(r) => r?,
                    None => return Ok(true),
                }
            };
            let batch: Vec<(RenderedImage, Meta)> = images
                .into_iter()
                .map(|img| {
                    let meta = metas.pop_front().expect("one meta per image");
                    debug_assert_eq!(img.id, meta.id);
                    (img, meta)
                })
                .collect();
            Ok(to_sink.send(batch).is_ok())
        };
    let submit =
        |renderer: &mut GpuRenderer, metas: &mut VecDeque<Meta>, frame| -> Result<bool, GpuError> {
            if renderer.in_flight() >= 2 && !collect(renderer, metas)? {
                return Ok(false);
            }
            let _t = Timer::new(&stats.gpu_submit);
            renderer.submit(frame)?;
            Ok(true)
        };
    for (prepared, meta) in input {
        metas.push_back(meta);
        for frame in frames.push(prepared) {
            if !submit(&mut renderer, &mut metas, frame)? {
                return Ok(());
            }
        }
    }
    if let Some(frame) = frames.finish() {
        if !submit(&mut renderer, &mut metas, frame)? {
            return Ok(());
        }
    }
    while renderer.in_flight() > 0 {
        if !collect(&mut renderer, &mut metas)? {
            return Ok(());
        }
    }
    Ok(())
}

/// `errors.jsonl` lists the failed lines, one JSON object each; a clean run removes
/// the file a previous run may have left.
fn write_errors(dir: &Path, failed: &[LineError]) -> Result<(), RunError> {
    let path = dir.join("errors.jsonl");
    if failed.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(RunError::Io { path, source: e })
            }
            _ => Ok(()),
        };
    }
    let mut text = String::new();
    for e in failed {
        text.push_str(&serde_json::to_string(e).expect("serialisable"));
        text.push('\n');
    }
    crate::output::atomic::write_atomic(&path, text.as_bytes())
        .map_err(|source| RunError::Io { path, source })
}
