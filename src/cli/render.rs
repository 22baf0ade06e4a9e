//! `geomrender render INPUT --out DIR [--variants SPEC]`: Problem or Scene lines →
//! image files + manifest.

use super::progress::{Reporter, stage_line};
use super::shard::ShardArgs;
use crate::output::lock::OutputLock;
use crate::output::record::{Command, Format, ShardRecipe};
use crate::pipeline::shard;
use crate::pipeline::{
    self, Backend, Job, LineKind, Origin, Outputs, Previous, RunOptions, RunSummary, SkipCount,
    SkipReason, Variants,
};
use crate::render::Requested;
#[cfg(feature = "gpu")]
use crate::render::gpu::{GpuOptions, TargetSize};
use crate::render::{DEFAULT_TOLERANCE, MAX_TOLERANCE, MIN_TOLERANCE, TessellateOptions};
use crate::variants::Plan;
use anyhow::Context;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Input JSONL, one object per line: Problems (from `geomrender generate`) or
    /// Scene v1 draw lists (`geomrender schema scene`); `-` reads stdin.
    input: PathBuf,
    /// Output directory: images in DIR/images/, one row per image in
    /// DIR/manifest.jsonl, rejected lines in DIR/errors.jsonl.
    #[arg(long, short)]
    out: PathBuf,
    /// Variants to draw besides each base image: `;`-separated axes, each `name`
    /// (its default sweep) or `name=v1,v2,…`, e.g. `fontsize`,
    /// `fontsize=8,12,16,24,32`, `opacity;linewidth=1,2,4`. See `geomrender variants --list`.
    #[arg(long, value_name = "SPEC")]
    variants: Option<String>,
    /// Draw every combination of the SPEC's axis values instead of one axis at a time.
    #[arg(long, requires = "variants")]
    grid: bool,
    #[command(flatten)]
    resume: ResumeArg,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    sink: super::export::SinkArgs,
    /// Shards: the I-th of N contiguous slices of the input's non-blank lines, written
    /// under OUT/shards/I-of-N/ with a done.json last; `geomrender merge OUT` then
    /// writes the whole run's files. Needs an input file (not stdin).
    #[command(flatten)]
    shard: ShardArgs,
    /// No progress bar or periodic log lines (errors and the summary are still printed).
    #[arg(long, short)]
    quiet: bool,
    /// Also make the browsable gallery of the run when it ends (OUT/gallery/index.html;
    /// see `geomrender gallery`). Not with --shard: make it after `geomrender merge`.
    #[arg(long)]
    gallery: bool,
}

/// `--resume` and `--force`, shared by `render` and `sweep`: what to do with an
/// earlier run in the --out directory. Without either, a run renders over an
/// earlier one only when it is the same run (same options, every row from this
/// input) and refuses any other.
#[derive(clap::Args, Clone, Copy)]
pub(crate) struct ResumeArg {
    /// Carry on an interrupted run in the same --out directory with the same command:
    /// images whose manifest rows and files survived intact (checked by SHA-256) are
    /// kept, the rest are rendered, and the manifest ends as one run would write it.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// Replace an earlier run of other input or options in the --out directory:
    /// its manifest, images, problems, errors, contact sheets, gallery, audit and
    /// datasets are removed first (only files this tool writes; others are kept).
    #[arg(long)]
    pub force: bool,
}

impl ResumeArg {
    /// What the run does with an earlier run in its directory.
    pub(crate) fn previous(self) -> Previous {
        match (self.resume, self.force) {
            (true, _) => Previous::Resume,
            (false, true) => Previous::Replace,
            (false, false) => Previous::Refuse,
        }
    }
}

/// Rendering settings shared by `render`, `sweep` and `bench`.
#[derive(clap::Args, Clone)]
pub(crate) struct EngineArgs {
    /// What draws: `gpu` (wgpu, any adapter incl. lavapipe; built with `--features
    /// gpu`), `cpu` (the direct rasteriser), `resvg` (the reference), or `auto`: a
    /// hardware GPU when there is one (and the `gpu` feature), else `cpu`.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: Requested,
    /// Files per image: `png` (rendered) and/or `svg` (the exact SVG equivalent),
    /// comma-separated. Variants of the `jpeg` axis write JPEG instead of PNG.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "png",
        value_name = "FORMATS"
    )]
    format: Vec<Format>,
    /// Embed the font in SVG files (self-contained, about 1 MB each) instead of naming "DejaVu Sans".
    #[arg(long)]
    embed_font: bool,
    /// Write each row's own Problem into the manifest (`problem`): the one drawn and
    /// asked, as its variant rewrote it (backward's asked given, unrelated's added
    /// shapes, aux's lines, phrasing's wording), with `geomrender schema problem`.
    /// Rows of Problem lines only; about 5 KB a row.
    #[arg(long)]
    emit_problems: bool,
    /// Add perception probes about every image of a Problem, in `probes.jsonl` (schema:
    /// `geomrender schema probe`): questions the image decides by eye, with exact
    /// answers from its geometry: does a point lie on a segment or an arc, is an
    /// angle acute, right or obtuse, which segment is longer, are two segments
    /// parallel, perpendicular or equal, how many points, triangles or
    /// quadrilaterals. Each names only labelled points (coordinate annotation) and
    /// shares its image's file and sha256; `score` joins them with the reasoning
    /// verdicts on the same image.
    #[arg(long)]
    probes: bool,
    /// With --probes: most probes per image (about this many where the image allows).
    #[arg(long, default_value_t = 6, value_name = "N", requires = "probes",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    probes_per_image: u32,
    /// With --probes: most probes of one kind per image; yes/no kinds are asked in
    /// pairs (one "Yes", one "No"), so they need 2 or more.
    #[arg(long, default_value_t = 2, value_name = "N", requires = "probes",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    probes_per_kind: u32,
    /// GPU: largest side of the square target scenes are tiled into per submission
    /// (clamped to the device limit). Default: 512 on software adapters such as
    /// lavapipe (one 512×512 diagram, or many smaller scenes), 4096 on hardware GPUs.
    #[cfg(feature = "gpu")]
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(64..=16384))]
    frame_size: Option<u32>,
    /// GPU: most scenes per submission; 1 renders one scene per submission.
    #[cfg(feature = "gpu")]
    #[arg(long, default_value_t = GpuOptions::DEFAULT_MAX_TILES as u32, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_tiles: u32,
    /// GPU: curve flattening tolerance in pixels, from 0.001 (finer changes nothing
    /// drawn: vertices sit on a 1/256 px grid) to 10. Checked for every backend.
    #[arg(long, default_value_t = crate::render::DEFAULT_TOLERANCE, value_name = "PX",
          value_parser = tolerance_arg, allow_negative_numbers = true)]
    tolerance: f32,
    /// Images prepared (or rendered, on the CPU) per parallel step: as many input
    /// lines as make about N images, at least one. Bounds memory; never the output.
    #[arg(long, default_value_t = RunOptions::DEFAULT_CHUNK_LINES as u32, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    chunk_lines: u32,
}

/// `--tolerance PX`: a number from [`MIN_TOLERANCE`] to [`MAX_TOLERANCE`].
fn tolerance_arg(s: &str) -> Result<f32, String> {
    let range = format!("use {MIN_TOLERANCE} to {MAX_TOLERANCE} px (default {DEFAULT_TOLERANCE})");
    let v: f32 = s
        .trim()
        .parse()
        .map_err(|_| format!("not a number of pixels; {range}"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!(
            "{s} px is not a positive number of pixels; {range}"
        ));
    }
    if v < MIN_TOLERANCE {
        return Err(format!(
            "{s} px is finer than the smallest sensible tolerance, {MIN_TOLERANCE} px: vertices \
             are snapped to a 1/256 px grid, so a finer one only multiplies triangles (past the \
             per-scene budget); {range}"
        ));
    }
    if v > MAX_TOLERANCE {
        return Err(format!(
            "{s} px is coarser than the largest tolerance, {MAX_TOLERANCE} px (curves would be \
             drawn as visible polygons); {range}"
        ));
    }
    Ok(v)
}

impl EngineArgs {
    /// Refuses axes that change only the raster file (the pixel stage, the JPEG
    /// encoding) in a run that writes no raster file: their variants would be the
    /// base's SVG under another name.
    pub(crate) fn check_plan(&self, plan: &Plan) -> anyhow::Result<()> {
        self.check_grounded(plan, &[])?;
        if self.format.contains(&Format::Png) {
            return Ok(());
        }
        if let Some(axis) = plan.raster_only_axes().first() {
            anyhow::bail!(
                "--variants {axis}: {axis} changes only the raster image ({}), and --format svg \
                 writes none; add --format png",
                axis.changes
            );
        }
        Ok(())
    }

    /// Refuses `--probes` (and `--sink coco` among `sinks`) with an axis whose
    /// images show the drawing's points elsewhere than its composition put them.
    pub(crate) fn check_grounded(
        &self,
        plan: &Plan,
        sinks: &[crate::output::datasets::Sink],
    ) -> anyhow::Result<()> {
        let coco = sinks.contains(&crate::output::datasets::Sink::Coco);
        let flag = match (self.probes, coco) {
            (true, _) => "--probes",
            (false, true) => "--sink coco",
            (false, false) => return Ok(()),
        };
        if let Some(axis) = plan.ungrounded_axes().first() {
            anyhow::bail!(
                "--variants {axis} with {flag}: {axis} draws the diagram's points elsewhere than \
                 its composition put them ({}), and {flag} gives each image's points where the \
                 composition put them; draw {axis} in a run without {flag}",
                axis.changes
            );
        }
        Ok(())
    }

    /// The run options these flags describe, writing into `out` (doing `previous`
    /// with an earlier run there).
    pub(crate) fn options(&self, out: &Path, previous: Previous) -> anyhow::Result<RunOptions> {
        let (backend, _) = Backend::open(self.backend)?;
        #[cfg(feature = "gpu")]
        let backend = match backend {
            Backend::Gpu(o) => Backend::Gpu(GpuOptions {
                target_size: self.frame_size.map_or(TargetSize::Auto, TargetSize::square),
                max_tiles: self.max_tiles as usize,
                ..o
            }),
            other => other,
        };
        Ok(RunOptions {
            out_dir: out.to_path_buf(),
            backend,
            outputs: match (
                self.format.contains(&Format::Png),
                self.format.contains(&Format::Svg),
            ) {
                (true, false) => Outputs::Raster,
                (false, true) => Outputs::Svg,
                (true, true) => Outputs::Both,
                (false, false) => anyhow::bail!("--format names no format (png, svg)"),
            },
            svg_embed_font: self.embed_font,
            emit_problems: self.emit_problems,
            probes: self
                .probes
                .then_some(probe_options(self.probes_per_image, self.probes_per_kind)),
            tessellate: TessellateOptions {
                tolerance: self.tolerance,
            },
            chunk_lines: self.chunk_lines as usize,
            previous,
            input_path: None,
            variants: Default::default(),
            origin: Origin::process(),
            lines: None,
            datasets: Default::default(),
        })
    }
}

/// The probe counts the flags give.
fn probe_options(per_image: u32, per_kind: u32) -> crate::probe::ProbeOptions {
    crate::probe::ProbeOptions {
        per_image: per_image as usize,
        per_kind: per_kind as usize,
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = match &args.variants {
        Some(spec) => Plan::parse(spec, args.grid).context("--variants")?,
        None => Plan::base_only(),
    };
    args.engine.check_plan(&plan)?;
    let stdin = args.input.as_os_str() == "-";
    let shard = args.shard.resolve()?;
    anyhow::ensure!(
        !(args.gallery && shard.is_some()),
        "--gallery makes the gallery of a whole run: run `geomrender gallery OUT` after `geomrender merge OUT`"
    );
    if args.gallery {
        // Said before the run starts, not after it.
        crate::gallery::check_writable(&args.out).context("--gallery")?;
    }
    anyhow::ensure!(
        !(stdin && shard.is_some()),
        "--shard needs an input file: a stream cannot be cut into the same slices on every machine"
    );
    let dir = match shard {
        Some(s) => s.dir(&args.out),
        None => args.out.clone(),
    };
    let file = if stdin {
        "<stdin>".to_string()
    } else {
        args.input.display().to_string()
    };
    let datasets = args.sink.options()?;
    args.engine.check_grounded(&plan, &datasets.sinks)?;
    let mut options = RunOptions {
        input_path: (!stdin).then(|| args.input.clone()),
        variants: Variants::of(&plan),
        datasets,
        ..args.engine.options(&dir, args.resume.previous())?
    };
    let (reader, total): (Box<dyn BufRead>, Option<u64>) = if stdin {
        (Box::new(BufReader::new(std::io::stdin().lock())), None)
    } else {
        let f = std::fs::File::open(&args.input).with_context(|| format!("cannot open {file}"))?;
        check_first_line(&args.input, &plan)?;
        let per_line = plan.variants().len() as u64;
        let mut lines = count_lines(&args.input);
        if let Some(s) = shard {
            let all =
                lines.with_context(|| format!("--shard: cannot count the lines of {file}"))?;
            let range = s.range(all);
            lines = Some(range.end - range.start);
            options.lines = Some(range);
        }
        (
            Box::new(BufReader::with_capacity(1 << 20, f)),
            lines.map(|n| n.saturating_mul(per_line)),
        )
    };
    options.origin.shard = shard.map(|s| s.of());
    let Some(s) = shard else {
        let summary = execute(reader, &file, &plan, &options, total, args.quiet, None)?;
        let code = report(&summary, &args.out, args.quiet);
        let problems = (!stdin).then_some(args.input.as_path());
        return super::gallery::after_run(args.gallery, &args.out, problems, code);
    };
    let lock = shard::begin(&args.out, s)?;
    let summary = execute(
        reader,
        &file,
        &plan,
        &options,
        total,
        args.quiet,
        Some(&lock),
    )?;
    let code = report(&summary, &dir, args.quiet);
    let input_bytes = std::fs::metadata(&args.input).map(|m| m.len()).ok();
    let recipe = ShardRecipe {
        command: Command::Render {
            input: args.input.display().to_string(),
            input_bytes,
        },
        backend_arg: args.engine.backend,
        run: summary.record.recipe.clone(),
    };
    shard::finish(&lock, s, recipe, &options.datasets, &summary)?;
    super::shard::finished(&args.out, s);
    Ok(code)
}

/// Runs the pipeline with a progress reporter (under `lock` when the caller holds
/// the output directory's lock already).
pub(crate) fn execute(
    reader: impl BufRead,
    file: &str,
    plan: &Plan,
    options: &RunOptions,
    total: Option<u64>,
    quiet: bool,
    lock: Option<&OutputLock>,
) -> anyhow::Result<RunSummary> {
    let reporter = Reporter::new(total, quiet);
    let expand = |line: &str| Job::expand(line, plan);
    let result = match lock {
        Some(lock) => pipeline::run_locked(lock, reader, file, &expand, options, &reporter),
        None => pipeline::run(reader, file, &expand, options, &reporter),
    };
    reporter.finish();
    let summary = result.map_err(explain)?;
    for line in skipped_lines(&summary.skipped) {
        eprintln!("{line}");
    }
    for line in availability_lines(&summary.availability) {
        eprintln!("{line}");
    }
    Ok(summary)
}

/// "made for only some bases:" and a line per variant value that not every base
/// has (by kind of base: GeomVerse problems, relation items, "Cannot be inferred"
/// relation items), so that a comparison across axes can be kept to the bases
/// they share (`score --matched`); nothing when every base has every variant.
pub(crate) fn availability_lines(a: &crate::output::availability::Availability) -> Vec<String> {
    let partial = a.partial();
    if partial.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![
        "made for only some bases (compare across them with `score --matched`; done.json records every count):"
            .to_string(),
    ];
    lines.extend(partial.into_iter().map(|l| format!("  {l}")));
    lines
}

/// "N variants not made: …" and "N variants skipped as identical to their base: …",
/// per variant value (each listed in `skipped.jsonl`); nothing when every variant
/// asked for was drawn.
fn skipped_lines(counts: &[SkipCount]) -> Vec<String> {
    let mut lines = Vec::new();
    for (reason, what) in [
        (SkipReason::NotMade, "not made"),
        (SkipReason::Identical, "skipped as identical to their base"),
    ] {
        let these: Vec<&SkipCount> = counts.iter().filter(|c| c.reason == reason).collect();
        let total: u64 = these.iter().map(|c| c.count).sum();
        if total == 0 {
            continue;
        }
        let parts: Vec<String> = these
            .iter()
            .map(|c| format!("{} {}", c.variant, c.count))
            .collect();
        let mut line = format!("{total} variants {what}: {}", parts.join(", "));
        if reason == SkipReason::NotMade {
            let mut whens: Vec<&str> = these.iter().map(|c| c.when).collect();
            whens.sort_unstable();
            whens.dedup();
            line.push_str(&format!(
                " ({}; see `geomrender variants --list`)",
                whens.join("; ")
            ));
        }
        lines.push(line + "; each is a row of skipped.jsonl");
    }
    lines
}

/// A run stopped by a full disk can be carried on: say how.
fn explain(e: pipeline::RunError) -> anyhow::Error {
    use crate::output::datasets::DatasetError;
    let full = |source: &std::io::Error| source.kind() == std::io::ErrorKind::StorageFull;
    match &e {
        pipeline::RunError::Io { source, .. }
        | pipeline::RunError::Dataset(DatasetError::Io { source, .. })
            if full(source) =>
        {
            anyhow::anyhow!(
                "{e}\nthe disk is full: every image written so far is whole and kept; \
                 free some space and run the same command with --resume to carry on"
            )
        }
        _ => e.into(),
    }
}

/// Prints the summary; exit status 1 when some lines or images failed.
pub(crate) fn report(summary: &RunSummary, out: &Path, quiet: bool) -> ExitCode {
    let secs = summary.elapsed.as_secs_f64();
    let new = summary.images - summary.kept;
    let kept = match summary.kept {
        0 => String::new(),
        k => format!(" ({k} kept from the resumed run, {new} new)"),
    };
    eprintln!(
        "wrote {} images{kept} from {} lines in {:.2} s ({:.1} images/s) with {}; manifest: {}",
        summary.images,
        summary.lines,
        secs,
        new as f64 / secs.max(1e-9),
        summary.backend,
        summary.manifest.display()
    );
    super::export::removed(&summary.removed_datasets, out);
    super::export::describe(&summary.datasets, out);
    if !quiet {
        eprintln!("{}", stage_line(&summary.stages, summary.elapsed));
    }
    if summary.failed == 0 {
        return ExitCode::SUCCESS;
    }
    let images = summary.failed - summary.failed_lines;
    let what = match (summary.failed_lines, images) {
        (n, 0) => format!("{n} of {} lines failed", summary.lines),
        (0, i) => format!("{i} {} could not be made", plural(i, "image", "images")),
        (n, i) => format!(
            "{n} of {} lines failed, and {i} more {} could not be made",
            summary.lines,
            plural(i, "image", "images")
        ),
    };
    eprintln!(
        "{what}; every one is listed in {}",
        out.join("errors.jsonl").display()
    );
    ExitCode::from(1)
}

fn plural(n: u64, one: &'static str, more: &'static str) -> &'static str {
    if n == 1 { one } else { more }
}

/// Semantic axes need Problems: a Scene file with them fails before any work.
fn check_first_line(path: &Path, plan: &Plan) -> anyhow::Result<()> {
    let semantic = plan.semantic_axes();
    if semantic.is_empty() {
        return Ok(());
    }
    // Bounded like every input line: a file without newlines is not read whole.
    let mut lines = crate::jsonl::Lines::new(BufReader::new(std::fs::File::open(path)?));
    let Some(Ok(first)) = lines.next_chunk(1)?.pop().map(|l| l.text) else {
        return Ok(());
    };
    if let Ok(value) = crate::jsonl::parse_value(&first) {
        if pipeline::line_kind(&value) == LineKind::Scene {
            let names: Vec<&str> = semantic.iter().map(|a| a.name()).collect();
            let need = match names.len() {
                1 => "needs",
                _ => "need",
            };
            let on_scenes: Vec<&str> = crate::variants::AXES
                .iter()
                .filter(|a| !a.needs_problem())
                .map(|a| a.name())
                .collect();
            anyhow::bail!(
                "{} holds Scenes, but {} {need} Problems (from `geomrender generate`): they rewrite \
                 the texts or re-place the labels; the axes that work on Scenes: {}",
                path.display(),
                names.join(", "),
                on_scenes.join(", ")
            );
        }
    }
    Ok(())
}

/// Non-blank lines of a regular file, for the progress bar's total, counted in
/// bounded memory; `None` for devices and FIFOs (which may never end, or can be read
/// only once) and on any error.
fn count_lines(path: &Path) -> Option<u64> {
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    crate::jsonl::count(BufReader::with_capacity(1 << 20, file)).ok()
}
