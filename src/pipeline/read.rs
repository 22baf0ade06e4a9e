//! Stage 1: read lines in chunks; expand, prepare (or CPU-render) them on rayon;
//! report bad lines and duplicate ids in input order; pass the rest on.

use super::errors::ErrorLog;
use super::jobs::Skipped;
use super::resume::{Cursor, Kept};
use super::seen::Seen;
use super::skipped::SkipLog;
use super::{
    Availability, Done, Expand, JobError, LineError, LineFault, Meta, Progress, Raster, RunError,
    RunOptions, StageTimes, Timer,
};
use crate::digest::sha256_hex;
use crate::jsonl::Lines;
use crate::output::availability::{Bases, VariantOutcome};
use crate::render::CpuRenderer;
#[cfg(feature = "gpu")]
use crate::render::{PreparedScene, prepare};
use rayon::prelude::*;
use std::io::BufRead;
use std::sync::mpsc::SyncSender;

/// Where prepared work goes.
pub(super) enum Next<'a> {
    /// Prepared scenes, one by one, to the GPU thread; a row without an image
    /// (`None`) passes through it in its place, so the rows keep their order.
    #[cfg(feature = "gpu")]
    Gpu(&'a SyncSender<(Option<PreparedScene>, Meta)>),
    /// Finished jobs, a chunk at a time, straight to the sink (CPU or SVG only).
    Sink(&'a SyncSender<Vec<Done>>),
}

/// What one job became on a worker thread.
// Without the GPU stage the large variant has no small sibling to box for.
#[cfg_attr(not(feature = "gpu"), allow(clippy::large_enum_variant))]
enum Work {
    #[cfg(feature = "gpu")]
    Gpu(PreparedScene, Meta),
    Done(Done),
    /// A row without an image (text-only): nothing to draw.
    Imageless(Meta),
    /// Finished by the run being resumed: its row is already in the manifest. With
    /// the hash of its input line.
    Kept(String, String),
}

/// What one line became: its work, in plan order, and its images that cannot be
/// made, each failing alone (the line's other images are made).
struct Line {
    works: Vec<Work>,
    failed: Vec<JobError>,
    /// Variants not drawn, and not faults (`skipped.jsonl`).
    skipped: Vec<Skipped>,
    /// The line's kind of base and its variants' outcomes (`Availability`).
    bases: Option<Bases>,
    outcomes: Vec<(String, VariantOutcome)>,
}

impl Work {
    fn id(&self) -> &str {
        match self {
            #[cfg(feature = "gpu")]
            Work::Gpu(_, m) => &m.id,
            Work::Done(d) => &d.meta.id,
            Work::Imageless(m) => &m.id,
            Work::Kept(id, _) => id,
        }
    }
}

pub(super) struct Reader<'a> {
    pub file: &'a str,
    pub expand: &'a Expand<'a>,
    pub options: &'a RunOptions,
    pub progress: &'a dyn Progress,
    pub stats: &'a StageTimes,
    /// Renders on the worker threads when set (CPU backend).
    pub cpu: Option<std::sync::Arc<CpuRenderer>>,
    pub failed: &'a mut ErrorLog,
    pub skips: &'a mut SkipLog,
    pub availability: &'a mut Availability,
    pub lines_read: &'a mut u64,
    /// Ids a resumed run already has (empty otherwise).
    pub kept: &'a Kept,
}

impl Reader<'_> {
    /// Runs until the input ends or a later stage hangs up.
    pub(super) fn run(&mut self, input: impl BufRead, next: Next<'_>) -> Result<(), RunError> {
        #[cfg(feature = "gpu")]
        let gpu = matches!(next, Next::Gpu(_)) && self.options.outputs.raster();
        #[cfg(not(feature = "gpu"))]
        let gpu = false;
        let mut lines = Lines::new(input);
        // Every id written so far: the only state that grows with the input.
        let mut seen = Seen::default();
        let mut cursor = Cursor::default();
        // Lines per step: `chunk_lines` images' worth, judged from the lines before
        // (a line with 14 variants renders 14 images, and a step's images are all in
        // memory at once); the first step reads one line to learn.
        let budget = self.options.chunk_lines.max(1);
        let mut step = 1;
        // Non-blank lines read so far, to keep only `options.lines` (a shard).
        let mut ordinal = 0u64;
        loop {
            let mut chunk = lines.next_chunk(step).map_err(|source| RunError::Read {
                file: self.file.to_string(),
                source,
            })?;
            let mut done = chunk.is_empty();
            if let Some(range) = &self.options.lines {
                chunk.retain(|_| {
                    ordinal += 1;
                    range.contains(&(ordinal - 1))
                });
                done |= chunk.is_empty() && ordinal >= range.end;
                if chunk.is_empty() && !done {
                    continue;
                }
            }
            if done {
                cursor.finish(self.kept)?;
                return Ok(());
            }
            *self.lines_read += chunk.len() as u64;
            let worked: Vec<(u64, Result<Line, JobError>)> = chunk
                .into_par_iter()
                .map(|line| {
                    let result = line
                        .text
                        .map_err(JobError::from)
                        .and_then(|text| self.work_line(&text, line.number, gpu));
                    (line.number, result)
                })
                .collect();
            let jobs: usize = worked
                .iter()
                .map(|(_, r)| r.as_ref().map_or(1, |l| l.works.len()))
                .sum();
            step = (budget * worked.len() / jobs.max(1)).clamp(1, budget);
            let mut ready = Vec::new();
            for (number, result) in worked {
                if !self.pass_line(number, result, &mut seen, &mut cursor, &next, &mut ready)? {
                    return Ok(()); // the GPU stage failed; the caller reports why
                }
            }
            #[cfg_attr(not(feature = "gpu"), allow(irrefutable_let_patterns))]
            if let Next::Sink(tx) = &next {
                if !ready.is_empty() && tx.send(ready).is_err() {
                    return Ok(()); // the sink failed; the caller reports why
                }
            }
        }
    }

    /// Hands one worked line on: its failure reported, or its jobs checked for
    /// duplicate ids, recorded for `--resume`, and sent to the GPU stage or added to
    /// `ready` for the sink (in order); its failed variants reported. `false` when
    /// the GPU stage hung up.
    fn pass_line(
        &mut self,
        number: u64,
        result: Result<Line, JobError>,
        seen: &mut Seen,
        cursor: &mut Cursor,
        next: &Next<'_>,
        ready: &mut Vec<Done>,
    ) -> Result<bool, RunError> {
        let fail = |e: JobError| LineError {
            file: self.file.to_string(),
            line: number,
            id: e.id,
            fault: e.fault,
        };
        let Line {
            works,
            failed,
            skipped,
            bases,
            outcomes,
        } = match result {
            Ok(l) => l,
            Err(e) => {
                self.reject(fail(e), false)?;
                return Ok(true);
            }
        };
        // A duplicate id rejects the whole line, before any of its images is written.
        let ids: Vec<&str> = works.iter().map(Work::id).collect();
        if let Some(dup) = seen.first_repeat(&ids) {
            let id = dup.to_string();
            self.reject(
                fail(JobError::of(&id, LineFault::DuplicateId { id: id.clone() })),
                false,
            )?;
            return Ok(true);
        }
        seen.insert_line(&ids);
        for w in works {
            match &w {
                Work::Kept(id, input) => cursor.skipped(self.kept, id, input)?,
                other => cursor.rendered(self.kept, other.id())?,
            }
            match (w, next) {
                (Work::Kept(..), _) => {}
                #[cfg(feature = "gpu")]
                (Work::Gpu(p, meta), Next::Gpu(tx)) => {
                    if tx.send((Some(p), meta)).is_err() {
                        return Ok(false);
                    }
                }
                #[cfg(feature = "gpu")]
                (Work::Imageless(meta), Next::Gpu(tx)) => {
                    if tx.send((None, meta)).is_err() {
                        return Ok(false);
                    }
                }
                (Work::Imageless(meta), _) => ready.push(Done { meta, image: None }),
                (Work::Done(d), _) => ready.push(d),
                #[cfg(feature = "gpu")]
                (Work::Gpu(..), Next::Sink(_)) => {
                    unreachable!("GPU work only exists with a GPU stage")
                }
            }
        }
        // Like a variant the problem has none of, a failed one has no row, so a
        // resumed run meets it again (and reports it again) where it was.
        for e in failed {
            self.reject(fail(e), true)?;
        }
        self.skips
            .push(number, &skipped)
            .map_err(|source| RunError::Io {
                path: self.options.out_dir.join(super::SKIPPED),
                source,
            })?;
        if let Some(bases) = bases {
            self.availability.add(bases, &outcomes);
        }
        Ok(true)
    }

    /// Reports a failure: of the whole line, or of one image that failed `alone`.
    fn reject(&mut self, e: LineError, alone: bool) -> Result<(), RunError> {
        self.progress.line_failed(&e);
        self.failed.push(e, alone).map_err(|source| RunError::Io {
            path: self.options.out_dir.join("errors.jsonl"),
            source,
        })
    }

    /// Expands one line and does the per-job CPU work. The line fails when it cannot
    /// be expanded or its base image cannot be prepared or rendered; a variant that
    /// cannot be fails alone.
    fn work_line(&self, text: &str, line: u64, gpu: bool) -> Result<Line, JobError> {
        let (expanded, input_sha256) = {
            let _t = Timer::new(&self.stats.prepare);
            ((self.expand)(text)?, sha256_hex(text.as_bytes()))
        };
        let mut failed = expanded.failed;
        let mut works = Vec::with_capacity(expanded.jobs.len());
        for job in expanded.jobs {
            let base = job.source.as_ref().is_none_or(|s| s.variant.is_empty());
            match self.work_job(job, line, &input_sha256, gpu) {
                Ok(w) => works.push(w),
                Err(e) if base => return Err(e),
                Err(e) => failed.push(e),
            }
        }
        Ok(Line {
            works,
            failed,
            skipped: expanded.skipped,
            bases: expanded.bases,
            outcomes: expanded.outcomes,
        })
    }

    /// One job's CPU work: prepared for the GPU, or rendered and encoded here.
    #[cfg_attr(not(feature = "gpu"), allow(unused_variables))]
    fn work_job(
        &self,
        job: super::Job,
        line: u64,
        input_sha256: &str,
        gpu: bool,
    ) -> Result<Work, JobError> {
        if self.kept.set.contains(job.scene.id.as_str()) {
            return Ok(Work::Kept(job.scene.id, input_sha256.to_string()));
        }
        let prepare_timer = Timer::new(&self.stats.prepare);
        // A row without an image (text-only) has no SVG either: nothing is drawn.
        let drawn_image = job.encoding.is_some();
        let svg = (drawn_image && self.options.outputs.svg()).then(|| {
            crate::scene::svg::to_svg_with(
                &job.scene,
                crate::scene::svg::SvgOptions::default().embed_font(self.options.svg_embed_font),
            )
        });
        let grounded = match (&job.drawn, &job.problem) {
            (Some(drawn), Some(fields)) if drawn_image && self.options.grounds() => {
                ground(fields.problem.as_deref(), drawn, self.options.probes)
            }
            _ => None,
        };
        let mut problem = job.problem;
        if !self.options.emit_problems {
            if let Some(fields) = &mut problem {
                fields.problem = None;
            }
        }
        let meta = Meta {
            id: job.scene.id.clone(),
            line,
            width: job.scene.width,
            height: job.scene.height,
            source: job.source,
            problem,
            input_sha256: input_sha256.to_string(),
            pixels: job.pixels,
            encoding: job.encoding,
            svg,
            grounded,
        };
        let Some(encoding) = job.encoding else {
            return Ok(Work::Imageless(meta));
        };
        #[cfg(feature = "gpu")]
        if gpu {
            let p = prepare(&job.scene, self.options.tessellate)?;
            return Ok(Work::Gpu(p, meta));
        }
        drop(prepare_timer);
        let image = match (self.cpu.as_deref(), self.options.outputs.raster()) {
            (Some(cpu), true) => {
                let _t = Timer::new(&self.stats.render_cpu);
                let img = cpu
                    .render(&job.scene)
                    .map_err(|e| JobError::of(&meta.id, e))?;
                drop(_t);
                Some(Raster::Encoded(meta.finish(encoding, img, self.stats)))
            }
            _ => None,
        };
        Ok(Work::Done(Done { meta, image }))
    }
}

/// The grounding of the drawn `problem` and its probes (`probes`: how many), `None`
/// for an image that draws no diagram.
fn ground(
    problem: Option<&crate::generate::Problem>,
    drawn: &crate::compose::Drawn,
    probes: Option<crate::probe::ProbeOptions>,
) -> Option<Box<super::Grounded>> {
    let problem = problem?;
    let grounding = crate::compose::Grounding::of(problem, drawn)?;
    let probes = probes.map_or_else(Vec::new, |o| {
        crate::probe::probes(&grounding, problem.seed, &o)
    });
    Some(Box::new(super::Grounded {
        grounding: std::sync::Arc::new(grounding),
        probes,
    }))
}
