//! `geomrender render INPUT --out DIR`: Scene lines → PNG files + manifest.

use super::progress::Reporter;
use anyhow::Context;
use geomrender::pipeline::{self, Backend, Outputs, RunOptions};
use geomrender::render::gpu::GpuOptions;
use geomrender::render::tessellate::TessellateOptions;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Input JSONL: one Scene v1 object per line (`geomrender schema scene`); `-` reads stdin.
    input: PathBuf,
    /// Output directory; images go to DIR/images/<id>.png, rows to DIR/manifest.jsonl,
    /// rejected lines to DIR/errors.jsonl.
    #[arg(long, short)]
    out: PathBuf,
    /// Side of the square GPU target that scenes are tiled into per submission
    /// (clamped to the device limit). 2048 holds sixteen 512×512 scenes.
    #[arg(long, default_value_t = GpuOptions::DEFAULT_TARGET_SIZE.0, value_name = "PX")]
    frame_size: u32,
    /// Most scenes per GPU submission; 1 renders one scene per submission.
    #[arg(long, default_value_t = GpuOptions::DEFAULT_MAX_TILES, value_name = "N")]
    max_tiles: usize,
    /// Curve flattening tolerance in pixels.
    #[arg(long, default_value_t = geomrender::render::tessellate::DEFAULT_TOLERANCE, value_name = "PX")]
    tolerance: f32,
    /// Files to write per image: `png` (the rendered image) and/or `svg` (its exact
    /// SVG equivalent), comma-separated. Variants with a `jpeg` axis write JPEG
    /// instead of PNG.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "png",
        value_name = "FORMATS"
    )]
    format: Vec<Format>,
    /// Embed the font in SVG files (self-contained files of about 1 MB) instead of
    /// naming "DejaVu Sans".
    #[arg(long)]
    embed_font: bool,
    /// Input lines read and prepared per parallel step.
    #[arg(long, default_value_t = RunOptions::DEFAULT_CHUNK_LINES, value_name = "N")]
    chunk_lines: usize,
    /// No progress bar or periodic log lines (errors and the summary are still printed).
    #[arg(long, short)]
    quiet: bool,
}

/// Output file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// PNG files rendered on the GPU.
    Png,
    /// SVG files (no rendering needed).
    Svg,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.tolerance > 0.0 && args.tolerance.is_finite(),
        "--tolerance must be a positive number"
    );
    anyhow::ensure!(args.frame_size >= 1, "--frame-size must be at least 1");
    let stdin = args.input.as_os_str() == "-";
    let file = if stdin {
        "<stdin>".to_string()
    } else {
        args.input.display().to_string()
    };
    let (reader, total): (Box<dyn BufRead>, Option<u64>) = if stdin {
        (Box::new(BufReader::new(std::io::stdin().lock())), None)
    } else {
        let f = std::fs::File::open(&args.input).with_context(|| format!("cannot open {file}"))?;
        (
            Box::new(BufReader::with_capacity(1 << 20, f)),
            count_lines(&args.input).ok(),
        )
    };
    let options = RunOptions {
        out_dir: args.out.clone(),
        backend: Backend::Gpu(GpuOptions {
            target_size: (args.frame_size, args.frame_size),
            max_tiles: args.max_tiles.max(1),
            ..GpuOptions::default()
        }),
        outputs: Outputs {
            raster: args.format.contains(&Format::Png),
            svg: args.format.contains(&Format::Svg),
        },
        svg_embed_font: args.embed_font,
        tessellate: TessellateOptions {
            tolerance: args.tolerance,
        },
        chunk_lines: args.chunk_lines.max(1),
    };
    let reporter = Reporter::new(total, args.quiet);
    let result = pipeline::run(
        reader,
        &file,
        &pipeline::expand_scene_line,
        &options,
        &reporter,
    );
    reporter.finish();
    let summary = result?;
    let secs = summary.elapsed.as_secs_f64();
    eprintln!(
        "rendered {} images from {} lines in {:.2} s ({:.1} images/s) on {}; manifest: {}",
        summary.images,
        summary.lines,
        secs,
        summary.images as f64 / secs.max(1e-9),
        summary.backend,
        summary.manifest.display()
    );
    if !args.quiet {
        eprintln!(
            "{}",
            super::progress::stage_line(&summary.stages, summary.elapsed)
        );
    }
    if summary.failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "{} of {} lines failed; details above and in {}",
            summary.failed.len(),
            summary.lines,
            args.out.join("errors.jsonl").display()
        );
        Ok(ExitCode::from(1))
    }
}

/// Non-blank lines of a file, for the progress bar's total.
fn count_lines(path: &std::path::Path) -> std::io::Result<u64> {
    let reader = BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
    let mut n = 0;
    for line in reader.split(b'\n') {
        if !line?.iter().all(u8::is_ascii_whitespace) {
            n += 1;
        }
    }
    Ok(n)
}
