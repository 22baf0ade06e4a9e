//! The samples of a slice of problem indices, for `geomrender.Stream`: each
//! problem generated, varied, drawn (and encoded) in parallel with the GIL
//! released; sample k of problem i is the same whoever asks for it.

use crate::convert;
use crate::draw::{Draw, Format, Output, Renderer, draw_one, map_drawn, pool};
use crate::errors::{Kind, error, line_error};
use crate::problem::{PyGenerator, answer_py};
use crate::variant::labelled;
use geomrender::generate::{GenerateError, Problem};
use geomrender::output::manifest::ProblemFields;
use geomrender::pipeline::LineFault;
use geomrender::pipeline::{Job, JobError};
use geomrender::variants::{Plan, VariantError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One image of a stream, made off the GIL.
struct Made {
    index: u64,
    job: Job,
    label: String,
    /// `None` on a text-only row, which has no image.
    image: Option<Output>,
}

/// A problem's images and the variants that failed.
type Drawn = (Vec<Made>, Vec<JobError>);

/// The run seed of `epoch` for run seed `seed`: `seed` itself for epoch 0, then a
/// seed drawn from (seed, epoch) by the pinned per-problem derivation.
#[pyfunction]
pub fn epoch_seed(seed: u64, epoch: u64) -> u64 {
    match epoch {
        0 => seed,
        e => geomrender::generate::problem_seed(seed, e),
    }
}

/// The samples of problems `indices` of `generator` under `spec` (`""`: the base
/// image only), in index order and base first within a problem, each a dict (image, id, base_id, index,
/// variant, question, answer, cot, annotation, depth, question_type, task, and a
/// relation item's choices, answer_text, relation, domain, subset, mode); and the
/// errors of variants that could not be made (the rest are still made).
///
/// `values` k > 0 draws each problem's `values=k` redraw (the same problem with
/// other givens) in its place, id `<id>__values-k`, and varies that under `spec`;
/// a problem with no such redraw gives an error and no sample.
#[pyfunction]
#[pyo3(signature = (generator, spec, indices, format="array", backend="cpu", threads=None, size=None, values=0))]
#[allow(clippy::too_many_arguments)]
pub fn stream_batch<'py>(
    py: Python<'py>,
    generator: &PyGenerator,
    spec: &str,
    indices: Vec<u64>,
    format: &str,
    backend: &str,
    threads: Option<usize>,
    size: Option<u32>,
    values: u64,
) -> PyResult<(Vec<Bound<'py, PyDict>>, Vec<PyErr>)> {
    let plan = match spec {
        "" => Plan::base_only(),
        spec => Plan::parse(spec, false).map_err(|e| error(Kind::Variant, e))?,
    };
    let redraw = match values {
        0 => None,
        k if plan.axes.iter().any(|(a, _)| a.name() == "values") => {
            return Err(error(
                Kind::Option,
                format!(
                    "variants {spec:?} name the values axis, and values=k is what each epoch \
                     draws (epoch {k}): leave values out of variants"
                ),
            ));
        }
        k => Some((
            k,
            Plan::parse(&format!("values={k}"), false).map_err(|e| error(Kind::Variant, e))?,
        )),
    };
    let format = Format::parse(format)?;
    let draw = Draw::parse(backend)?;
    if indices.is_empty() {
        // The options checked (a Stream does this when made): no threads started.
        return Ok((Vec::new(), Vec::new()));
    }
    let one = |&index: &u64, renderer: &mut Renderer| -> PyResult<Drawn> {
        let problem = generator
            .generator
            .one(index)
            .map_err(|e| error(Kind::Generate, e))?;
        let problem = match &redraw {
            None => problem,
            Some((k, values)) => match redrawn(problem, *k, values) {
                Ok(p) => p,
                Err(e) => return Ok((Vec::new(), vec![e])),
            },
        };
        let expanded = Job::expand_problem(&problem, &plan).map_err(|e| line_error(&e))?;
        let mut made = Vec::with_capacity(expanded.jobs.len());
        for (job, label) in labelled(&plan, &problem.id, expanded.jobs) {
            let image = match job.encoding {
                Some(encoding) => Some(draw_one(
                    job.scene.clone(),
                    &job.pixels,
                    encoding,
                    size,
                    format,
                    renderer,
                )?),
                None => None,
            };
            made.push(Made {
                index,
                job,
                label,
                image,
            });
        }
        Ok((made, expanded.failed))
    };
    // In chunks of about 0.1 s (Ctrl-C is checked between them).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let first = threads.unwrap_or(cores);
    let pool = pool(threads)?;
    let results: Vec<PyResult<Drawn>> = crate::chunks::in_chunks(py, &indices, first, |c| {
        Ok(pool.install(|| map_drawn(&draw, c, one)))
    })?;
    let mut samples = Vec::new();
    let mut failed = Vec::new();
    for result in results {
        let (made, errors) = result?;
        failed.extend(errors.iter().map(line_error));
        for m in made {
            samples.push(sample(py, m)?);
        }
    }
    Ok((samples, failed))
}

/// `problem` with the givens of its `values=k` variant (the variant's own Problem),
/// as a problem of its own: id `<id>__values-k`. Why not, where it has none.
fn redrawn(problem: Problem, k: u64, values: &Plan) -> Result<Problem, JobError> {
    let expanded = Job::expand_problem(&problem, values)?;
    let variant = (expanded.jobs.into_iter())
        .find(|j| j.source.as_ref().is_some_and(|s| !s.variant.is_empty()));
    match variant.and_then(|j| j.problem).and_then(|f| f.problem) {
        Some(mut p) => {
            p.id = format!("{}__values-{k}", problem.id);
            Ok(*p)
        }
        // A problem with no such redraw is a skip of the run (`skipped.jsonl`).
        None => Err((expanded.skipped.into_iter().map(|s| s.error))
            .chain(expanded.failed)
            .next()
            .unwrap_or_else(|| {
                let none = GenerateError::NoValues {
                    id: problem.id.clone(),
                    k,
                    tries: 0,
                };
                LineFault::from(VariantError::NoValues(none)).into()
            })),
    }
}

/// The most images a problem gives under `plan`: its base image and each variant.
fn images_per_problem(plan: &Plan) -> usize {
    plan.variants().len() + 1
}

/// An `OptionError` when a batch of `batch` problems under `spec` (`""`: the base
/// image only) drawn as `format` at `size` cannot fit in memory (each batch's
/// samples are made at once).
#[pyfunction]
#[pyo3(signature = (spec, batch, format="array", size=None))]
pub fn check_stream(spec: &str, batch: u64, format: &str, size: Option<u32>) -> PyResult<()> {
    let plan = match spec {
        "" => Plan::base_only(),
        spec => Plan::parse(spec, false).map_err(|e| error(Kind::Variant, e))?,
    };
    let per_image = match Format::parse(format)? {
        Format::Array => 4,
        Format::Png => 1,
        Format::Svg => return Ok(()),
    };
    let side = u64::from(size.unwrap_or(geomrender::style::Style::default().canvas));
    let images = batch.saturating_mul(images_per_problem(&plan) as u64);
    crate::memory::check_fits(
        images.saturating_mul(side * side * per_image),
        || format!("a Stream batch of {batch} problems ({images} images of {side} px)"),
        "ask for a smaller batch= (it only sets how many problems are drawn at once)",
    )
}

fn sample<'py>(py: Python<'py>, m: Made) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let image = m.image.map(|i| crate::draw::to_py(py, i)).transpose()?;
    d.set_item("image", image)?;
    d.set_item("id", &m.job.scene.id)?;
    let base_id = m
        .job
        .source
        .map_or_else(|| m.job.scene.id.clone(), |s| s.base_id);
    d.set_item("base_id", base_id)?;
    d.set_item("index", m.index)?;
    d.set_item("variant", m.label)?;
    let Some(p) = m.job.problem else {
        return Ok(d);
    };
    let ProblemFields {
        annotation,
        question,
        cot,
        caption,
        answer,
        relation,
        params,
        ..
    } = p;
    d.set_item("question", question)?;
    if let Some(caption) = caption {
        d.set_item("caption", caption)?;
    }
    d.set_item("answer", answer_py(py, answer)?)?;
    d.set_item("cot", cot)?;
    d.set_item("annotation", convert::to_py(py, &annotation)?)?;
    d.set_item("depth", params.depth)?;
    d.set_item("question_type", convert::to_py(py, &params.question_type)?)?;
    match relation {
        None => d.set_item("task", "geomverse")?,
        Some(r) => {
            d.set_item("task", "relations")?;
            d.set_item("choices", r.choices)?;
            d.set_item("answer_text", r.answer_text)?;
            d.set_item("relation", r.relation)?;
            d.set_item("domain", r.domain.name())?;
            d.set_item("subset", r.subset.name())?;
            d.set_item("mode", r.mode.name())?;
        }
    }
    Ok(d)
}
