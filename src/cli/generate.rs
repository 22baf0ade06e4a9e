//! `geomrender generate`: write GeomVerse-style problems, or GeomRel relation
//! items (`--task relations`), as JSON lines.

use super::shard::ShardArgs;
use super::words::{OrNone, or_none};
use crate::generate::relations::{self, Domain, Mode, RelationOptions, Stats, Subset};
use crate::generate::{self, GenerateOptions, Generator, Info, QuestionType, Task};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use crate::pipeline::{self, shard::Shard};
use anyhow::Context;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Problems generated per parallel batch (bounds memory, keeps output ordered).
const BATCH: u64 = 2048;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// What to generate: GeomVerse problems (a numeric answer), or GeomRel's
    /// relation identification items (multiple choice, "Cannot be inferred" among
    /// the options). --depth, --branch-prob, --distractors, --variablized, --info,
    /// --question and --standard-only shape GeomVerse problems; --subset, --domain,
    /// --indeterminate and --mode shape relation items (each is refused with the
    /// other task).
    #[arg(long, value_enum, default_value = "geomverse")]
    task: Task,
    #[command(flatten)]
    relations: RelationArgs,
    /// Number of problems to write; exactly this many lines (failed draws are re-drawn).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    count: u64,
    /// Run seed. The same seed and options give the same file, byte for byte, whatever
    /// the thread count; problem k's own seed is derived from (seed, k).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Hops of reasoning from the given values to the answer: a number (`2`) or an
    /// inclusive range (`1..3`) drawn from per problem; within 1..=6.
    #[arg(long, default_value = "1..3", value_parser = parse_depth)]
    depth: RangeInclusive<u8>,
    /// Probability (0..=1) that a formula gets a second input derived from another shape,
    /// which makes the reasoning a tree instead of a chain (GeomVerse's width).
    #[arg(long, default_value_t = 0.0)]
    branch_prob: f64,
    /// Add one more level of shapes whose derived value is also given, so they only
    /// distract (the reasoning depth stays as requested).
    #[arg(long)]
    distractors: bool,
    /// Probability ρ (0..=1) of stating a linear formula's elements as `a·x + b`, so that
    /// x must be found from a 1-d linear equation first.
    #[arg(long, default_value_t = 0.0)]
    variablized: f64,
    /// Where given side lengths and angles go: printed on the image, or stated in the
    /// question text (areas, perimeters and heights are always in the text).
    #[arg(long, value_enum, default_value = "image")]
    info: Info,
    /// What the question asks for; `any` draws one of the four per problem.
    #[arg(long, value_enum, default_value = "any")]
    question: QuestionType,
    /// Only standard shapes (no rectangle ± semi-circle / equilateral triangle, no
    /// square − circle).
    #[arg(long)]
    standard_only: bool,
    /// Output file (JSON lines); written to a temporary file and renamed when complete.
    /// `-` writes to stdout; a device or FIFO (e.g. /dev/stdout) is written directly.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default: one per core). Does not change the output.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Shards: the N files concatenated in shard order equal one run's file.
    #[command(flatten)]
    shard: ShardArgs,
}

/// The options of `--task relations`.
#[derive(clap::Args)]
pub(crate) struct RelationArgs {
    /// Relation items: basic (a relation from its definition or a property that
    /// implies it), advanced (two or three conditions chained across relations) or
    /// all (the relation drawn first, then one of its constructions).
    #[arg(long, default_value = "all", value_parser = or_none::<Subset>("all", "both"))]
    subset: OrNone<Subset>,
    /// Relation items: only relations of this domain (line, angle or shape).
    #[arg(long, default_value = "all", value_parser = or_none::<Domain>("all", "every domain"))]
    domain: OrNone<Domain>,
    /// Relation items: the share (0..=1) whose conditions do not settle the relation,
    /// answered "Cannot be inferred": a condition the answer needs is left out (in
    /// the text mode replaced by one of its kind about a new element) and the
    /// figure moved so that it no longer holds (text: clearly; visual: by under a
    /// degree or a percent, so that the relation still looks true).
    #[arg(long, default_value_t = relations::DEFAULT_INDETERMINATE, value_name = "RATIO")]
    indeterminate: f64,
    /// Relation items: `text` states every condition in words (GeomRel's setting;
    /// the question is answerable from the text alone), `visual` draws them instead
    /// (right-angle marks, arrowheads on parallels, ticks on equal segments, letters
    /// on equal angles, given values on their elements) on a figure the question
    /// says is not drawn to scale, and asks only the question.
    #[arg(long, value_enum, default_value = "text")]
    mode: Mode,
}

impl RelationArgs {
    /// The relation options for run seed `seed`.
    pub(crate) fn options(&self, seed: u64) -> RelationOptions {
        RelationOptions {
            seed,
            subset: self.subset,
            domain: self.domain,
            indeterminate: self.indeterminate,
            mode: self.mode,
        }
    }
}

fn parse_depth(s: &str) -> Result<RangeInclusive<u8>, String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u8>()
            .map_err(|_| format!("bad depth {s:?}: expected N or A..B"))
    };
    let range = match s.split_once("..") {
        Some((a, b)) => num(a)?..=num(b.trim_start_matches('='))?,
        None => {
            let d = num(s)?;
            d..=d
        }
    };
    let (lo, hi) = (*range.start(), *range.end());
    if lo > hi {
        return Err(format!(
            "depth {s:?} is an empty range: write it low to high, e.g. {hi}..{lo}"
        ));
    }
    if lo == 0 || hi > generate::MAX_DEPTH {
        return Err(format!(
            "depth {s:?} must lie within 1..={}",
            generate::MAX_DEPTH
        ));
    }
    Ok(range)
}

impl Args {
    fn generator(&self) -> Generator {
        match self.task {
            Task::Geomverse => Generator::GeomVerse(self.options()),
            Task::Relations => Generator::Relations(self.relations.options(self.seed)),
        }
    }

    fn options(&self) -> GenerateOptions {
        GenerateOptions {
            seed: self.seed,
            depth: self.depth.clone(),
            branch_prob: self.branch_prob,
            distractors: self.distractors,
            variablized: self.variablized,
            info: self.info,
            question: self.question,
            standard_only: self.standard_only,
        }
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = args.generator();
    opts.validate()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .context("starting worker threads")?;
    let start = std::time::Instant::now();
    let shard = args.shard.resolve()?.unwrap_or(Shard::WHOLE);
    let range = shard.range(args.count);
    let n = range.end - range.start;
    let stats = pool.install(|| write_problems(&args.out, &opts, range.clone()))?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "wrote {n} {noun} (indices {}..{}) to {} in {secs:.2} s ({:.0} {noun}/s)",
        range.start,
        range.end,
        args.out.display(),
        n as f64 / secs.max(1e-9),
        noun = opts.noun(),
    );
    if stats.total() > 0 {
        eprintln!(
            "relation items per relation (GeomRel's Table 3):\n{}",
            stats.markdown()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the problems with indices in `range` to `out` as JSON lines: through a
/// hidden temporary file in the same directory that is renamed into place when
/// complete, or straight to stdout (`-`) or a device/FIFO, which are never replaced.
/// Returns the relation items' counts (empty for GeomVerse problems).
pub(crate) fn write_problems(
    out: &Path,
    opts: &Generator,
    range: Range<u64>,
) -> anyhow::Result<Stats> {
    let shown = out.display();
    if out.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut w = std::io::BufWriter::new(stdout.lock());
        let stats = write_all(&mut w, opts, range).context("writing to stdout")?;
        w.flush().context("writing to stdout")?;
        return Ok(stats);
    }
    // metadata follows links: /dev/stdout is a link to a device or pipe.
    let special = std::fs::metadata(out).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if special {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .with_context(|| format!("opening {shown}"))?;
        let mut w = std::io::BufWriter::new(f);
        let stats = write_all(&mut w, opts, range).with_context(|| format!("writing {shown}"))?;
        w.flush().with_context(|| format!("writing {shown}"))?;
        return Ok(stats);
    }
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = out
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{shown}: not a file name"))?;
    let dir = Dir::open(dir).with_context(|| format!("creating {shown}"))?;
    write_problems_in(&dir, name, opts, range)
}

/// Writes the problems with indices in `range` to `name` in `dir`, through a hidden
/// temporary file there that is renamed into place when complete.
pub(crate) fn write_problems_in(
    dir: &Dir,
    name: &str,
    opts: &Generator,
    range: Range<u64>,
) -> anyhow::Result<Stats> {
    write_problems_unless_other(dir, name, opts, range, false)
}

/// [`write_problems_in`]; with `unless_other`, the file is replaced only by the same
/// bytes: other problems (or none there) are refused, the file left as it was, and
/// the error is the run's [`pipeline::OccupiedError`] (a sweep into a directory
/// holding another run).
pub(crate) fn write_problems_unless_other(
    dir: &Dir,
    name: &str,
    opts: &Generator,
    range: Range<u64>,
    unless_other: bool,
) -> anyhow::Result<Stats> {
    let path = dir.join(name);
    let shown = path.display();
    // Temp files of an earlier generate into the same file that was killed.
    let _ = crate::output::atomic::remove_stale_temps(dir, Some(name));
    let file = AtomicFile::create_in(dir, name).with_context(|| format!("creating {shown}"))?;
    let mut hashed = Hashed {
        inner: file,
        hash: Sha256::new(),
    };
    let stats = write_all(&mut hashed, opts, range).with_context(|| format!("writing {shown}"))?;
    if unless_other {
        let before = dir.open_file(name).ok().and_then(|mut f| {
            let mut h = Sha256::new();
            std::io::copy(&mut f, &mut h).ok().map(|_| h.finalize())
        });
        if before != Some(hashed.hash.finalize()) {
            let what = match before {
                Some(_) => {
                    format!("other problems (its {name} is not what this command generates)")
                }
                None => format!("another input (it has no {name})"),
            };
            return Err(pipeline::occupied(dir, what).into());
        }
    }
    hashed
        .inner
        .commit(true)
        .with_context(|| format!("writing {shown}"))?;
    Ok(stats)
}

/// A writer that hashes what it passes on.
struct Hashed<W> {
    inner: W,
    hash: Sha256,
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn write_all(w: &mut impl Write, opts: &Generator, range: Range<u64>) -> anyhow::Result<Stats> {
    let mut stats = Stats::default();
    let mut start = range.start;
    while start < range.end {
        let n = BATCH.min(range.end - start);
        for problem in opts.batch(start, n)? {
            stats.add(&problem);
            serde_json::to_writer(&mut *w, &problem)?;
            w.write_all(b"\n")?;
        }
        start += n;
    }
    Ok(stats)
}
