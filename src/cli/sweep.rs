//! `geomrender sweep --out DIR`: the main job on built-in defaults. Generates
//! problems (depths 1–3), renders each base image and the four GeomVerse axes, and
//! writes one captioned contact sheet per axis.

use super::generate::write_problems;
use super::render::{EngineArgs, ResumeArg, execute, report};
use super::shard::Shard;
use anyhow::Context;
use geomrender::generate::{GenerateOptions, Problem};
use geomrender::output::contact;
use geomrender::pipeline::{Backend, SceneRenderer};
use geomrender::render::RenderedImage;
use geomrender::variants::{Plan, Variant};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The GeomVerse sensitivity axes, each with its default sweep.
pub const GEOMVERSE_AXES: &str = "opacity;linewidth;fontsize;annotation";

#[derive(clap::Args)]
pub struct Args {
    /// Output directory: problems.jsonl, images/, manifest.jsonl and contact/<axis>.png.
    #[arg(long, short)]
    out: PathBuf,
    /// Problems to generate.
    #[arg(long, default_value_t = 200)]
    count: u64,
    /// Run seed (same seed, same bytes).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Variant axes (see `geomrender variants --list`).
    #[arg(long, default_value = GEOMVERSE_AXES, value_name = "SPEC")]
    variants: String,
    /// Problem shown on the contact sheets (an id from problems.jsonl); default: the
    /// first depth-3 problem.
    #[arg(long, value_name = "ID")]
    sheet_problem: Option<String>,
    /// Run only shard I of N (0-based): problems with indices in the I-th of N
    /// contiguous slices of 0..COUNT, with the ids and bytes the whole run would give
    /// them. Concatenating the shards' problems.jsonl and manifest.jsonl in shard order
    /// gives the whole run's files.
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    #[command(flatten)]
    resume: ResumeArg,
    #[command(flatten)]
    engine: EngineArgs,
    /// No progress bar or periodic log lines.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = Plan::parse(&args.variants, false).context("--variants")?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let problems_path = args.out.join("problems.jsonl");
    let opts = GenerateOptions {
        seed: args.seed,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let range = args.shard.range(args.count);
    let count = range.end - range.start;
    write_problems(&problems_path, &opts, range.clone())?;
    eprintln!(
        "generated {count} problems (depths 1–3, indices {}..{}) into {}",
        range.start,
        range.end,
        problems_path.display()
    );

    let mut options = args.engine.options(&args.out)?;
    options.resume = args.resume.resume;
    let reader = BufReader::new(std::fs::File::open(&problems_path)?);
    let total = count * plan.variants().len() as u64;
    let summary = execute(
        reader,
        &problems_path.display().to_string(),
        &plan,
        &options,
        Some(total),
        args.quiet,
    )?;
    let code = report(&summary, &args.out, args.quiet);

    if options.outputs.raster && count > 0 {
        let problem = pick_problem(&problems_path, args.sheet_problem.as_deref())?;
        let sheets = contact_sheets(&args.out, &problem, &plan, &options.backend)?;
        for s in &sheets {
            eprintln!("contact sheet: {}", s.display());
        }
    }
    Ok(code)
}

/// The requested problem, or the first of depth 3, or the first.
fn pick_problem(path: &Path, id: Option<&str>) -> anyhow::Result<Problem> {
    let mut first = None;
    for line in BufReader::new(std::fs::File::open(path)?).lines() {
        let p: Problem = serde_json::from_str(&line?)?;
        match id {
            Some(id) if p.id == id => return Ok(p),
            Some(_) => {}
            None if p.params.depth == 3 => return Ok(p),
            None => {}
        }
        first.get_or_insert(p);
    }
    match (id, first) {
        (Some(id), _) => anyhow::bail!(
            "--sheet-problem {id}: no such problem in {}",
            path.display()
        ),
        (None, Some(p)) => Ok(p),
        (None, None) => anyhow::bail!("{} is empty", path.display()),
    }
}

/// One sheet per axis: the base image, then the problem at each value of the axis.
fn contact_sheets(
    out: &Path,
    problem: &Problem,
    plan: &Plan,
    backend: &Backend,
) -> anyhow::Result<Vec<PathBuf>> {
    let dir = out.join("contact");
    std::fs::create_dir_all(&dir)?;
    let mut written = Vec::new();
    let mut renderer = SceneRenderer::new(backend.clone());
    for (axis, values) in &plan.axes {
        // In value order, the base where its value falls (numeric axes), else first.
        let base_value: Option<f64> = axis.info().base.parse().ok();
        let mut cells: Vec<(Option<f64>, String, Variant)> = vec![(
            base_value,
            format!("{} = {} (base)", axis.name(), axis.info().base),
            Variant::default(),
        )];
        for v in values {
            cells.push((
                v.label().parse().ok(),
                format!("{} = {}", axis.name(), v.label()),
                Variant { settings: vec![*v] },
            ));
        }
        if cells.iter().all(|c| c.0.is_some()) {
            cells.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("finite values"));
        }
        let cells: Vec<(String, Variant)> = cells
            .into_iter()
            .map(|(_, caption, v)| (caption, v))
            .collect();
        let images: Vec<RenderedImage> = cells
            .iter()
            .map(|(_, v)| load_variant_image(out, &v.id(&problem.id)))
            .collect::<anyhow::Result<_>>()?;
        let specs: Vec<(String, u32, u32)> = cells
            .iter()
            .zip(&images)
            .map(|((c, _), img)| (c.clone(), img.width, img.height))
            .collect();
        let title = format!(
            "{} — problem {} (depth {})",
            axis.name(),
            problem.id,
            problem.params.depth
        );
        let sheet = contact::layout(
            &format!("contact-{}", axis.name()),
            &title,
            axis.info().changes,
            &specs,
        );
        let mut canvas = renderer.render(&sheet.scene)?;
        for (img, &(x, y)) in images.iter().zip(&sheet.slots) {
            contact::paste(&mut canvas, img, x, y);
        }
        let path = dir.join(format!("{}.png", axis.name()));
        let bytes = geomrender::output::png::encode_png(&canvas)?;
        geomrender::output::atomic::write_atomic(&path, &bytes)
            .with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// Decodes the written image of `id` (PNG or JPEG).
fn load_variant_image(out: &Path, id: &str) -> anyhow::Result<RenderedImage> {
    let images = out.join("images");
    let path = ["png", "jpg"]
        .iter()
        .map(|ext| images.join(format!("{id}.{ext}")))
        .find(|p| p.exists())
        .with_context(|| format!("no image for {id} in {}", images.display()))?;
    let img = image::open(&path)
        .with_context(|| format!("reading {}", path.display()))?
        .to_rgba8();
    Ok(RenderedImage {
        id: id.to_string(),
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    })
}
