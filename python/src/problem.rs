//! `Problem` (a frozen wrapper of one generated problem and its JSON line),
//! `Generator` (a run's options) and `generate`.

use crate::errors::{Kind, error};
use crate::{convert, memory};
use geomrender::generate::relations::{Domain, Mode, RelationOptions, Subset};
use geomrender::generate::{
    Annotation, Answer, GenerateOptions, Generator, Info, Problem, QuestionType,
};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::Arc;

/// One generated problem: its JSON line is the line `geomrender generate` writes
/// for it, byte for byte (`to_json()`).
#[pyclass(frozen, module = "geomrender", name = "Problem")]
pub struct PyProblem {
    pub problem: Arc<Problem>,
    pub json: Arc<str>,
}

impl PyProblem {
    pub fn new(problem: Problem) -> PyResult<Self> {
        let json = serde_json::to_string(&problem).map_err(|e| error(Kind::Generate, e))?;
        Ok(PyProblem {
            problem: Arc::new(problem),
            json: json.into(),
        })
    }
}

/// A Python answer: a float, or a choice's letter.
pub fn answer_py(py: Python<'_>, answer: Answer) -> PyResult<Py<PyAny>> {
    Ok(match answer {
        Answer::Number(x) => x.into_pyobject(py)?.into_any().unbind(),
        Answer::Choice(c) => c.to_string().into_pyobject(py)?.into_any().unbind(),
    })
}

#[pymethods]
impl PyProblem {
    /// The problem id (`s<seed>-<index>`, or `r<seed>-<index>` for a relation item).
    #[getter]
    fn id(&self) -> &str {
        &self.problem.id
    }

    /// The problem's own seed, derived from (run seed, index).
    #[getter]
    fn seed(&self) -> u64 {
        self.problem.seed
    }

    /// The question of the base image (coordinate annotation).
    #[getter]
    fn question(&self) -> &str {
        self.problem.question(Annotation::Coordinate)
    }

    /// The chain-of-thought solution of the base image.
    #[getter]
    fn cot(&self) -> &str {
        self.problem.cot(Annotation::Coordinate)
    }

    /// The answer: a float, or the correct choice's letter on a relation item.
    #[getter]
    fn answer(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        answer_py(py, self.problem.answer)
    }

    /// Hops of reasoning (a relation item: the length of its condition chain).
    #[getter]
    fn depth(&self) -> u8 {
        self.problem.params.depth
    }

    /// side, angle, area, perimeter, or relation.
    #[getter]
    fn question_type(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(convert::to_py(py, &self.problem.params.question_type)?.unbind())
    }

    /// `geomverse` or `relations`.
    #[getter]
    fn task(&self) -> &'static str {
        match self.problem.relation {
            Some(_) => "relations",
            None => "geomverse",
        }
    }

    /// The lettered options of a relation item (None on a GeomVerse problem).
    #[getter]
    fn choices(&self) -> Option<Vec<String>> {
        self.problem.relation.as_ref().map(|r| r.choices.clone())
    }

    /// A Problem from its JSON line (as `geomrender generate` writes it), checked
    /// as a run checks a Problem line: schema, limits, and its base image composes.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyProblem> {
        problem_from_json(text)
    }

    /// A Problem from its dict (`to_dict()`), checked as `from_json` checks it.
    #[staticmethod]
    fn from_dict(value: &Bound<'_, PyAny>) -> PyResult<PyProblem> {
        problem_from_json(&convert::dumps(value)?)
    }

    /// The JSON line `geomrender generate` writes for this problem.
    fn to_json(&self) -> &str {
        &self.json
    }

    /// The problem as plain Python data (`json.loads(to_json())`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::loads(py, &self.json)
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem(id={:?}, depth={}, question={:?})",
            self.problem.id,
            self.problem.params.depth,
            self.problem.question(Annotation::Coordinate)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyProblem>()
            .is_ok_and(|o| o.get().json == self.json)
    }

    /// Pickling (multiprocessing, `Pool.map(gr.render, problems)`): the JSON line,
    /// read back exactly (`geomrender._problem_from_pickle`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let f = py.import("geomrender")?.getattr("_problem_from_pickle")?;
        Ok((f, (self.json.to_string(),)))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.json.hash(&mut h);
        h.finish()
    }

    /// Jupyter: the base image as PNG (drawn on the CPU).
    fn _repr_png_<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        let input = crate::draw::Input::Problem(self.problem.clone());
        crate::draw::repr_png(py, input)
    }
}

/// The options of a run: what `geomrender generate` takes (GeomVerse's, or a
/// relation item's with `task="relations"`), checked when made.
#[pyclass(frozen, module = "geomrender._native", name = "Generator")]
pub struct PyGenerator {
    pub generator: Generator,
}

fn choose<T: Copy>(what: &str, value: &str, all: &[(T, &str)]) -> PyResult<T> {
    all.iter()
        .find(|(_, n)| *n == value)
        .map(|(t, _)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|(_, n)| *n).collect();
            error(
                Kind::Generate,
                format!(
                    "invalid value '{value}' for {what}: expected one of {}",
                    names.join(", ")
                ),
            )
        })
}

#[pymethods]
impl PyGenerator {
    #[new]
    #[pyo3(signature = (task, seed, depth, branch_prob, distractors, variablized, info,
        question, standard_only, subset, domain, mode, indeterminate))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        task: &str,
        seed: u64,
        depth: (u8, u8),
        branch_prob: f64,
        distractors: bool,
        variablized: f64,
        info: &str,
        question: &str,
        standard_only: bool,
        subset: &str,
        domain: &str,
        mode: &str,
        indeterminate: f64,
    ) -> PyResult<Self> {
        let generator = match task {
            "geomverse" => Generator::GeomVerse(GenerateOptions {
                seed,
                depth: depth.0..=depth.1,
                branch_prob,
                distractors,
                variablized,
                info: choose(
                    "info",
                    info,
                    &[(Info::Image, "image"), (Info::Text, "text")],
                )?,
                question: choose(
                    "question",
                    question,
                    &[
                        (QuestionType::Side, "side"),
                        (QuestionType::Angle, "angle"),
                        (QuestionType::Area, "area"),
                        (QuestionType::Perimeter, "perimeter"),
                        (QuestionType::Any, "any"),
                    ],
                )?,
                standard_only,
            }),
            "relations" => {
                let subsets: Vec<(Option<Subset>, &str)> = Subset::ALL
                    .iter()
                    .map(|s| (Some(*s), s.name()))
                    .chain([(None, "all")])
                    .collect();
                let domains: Vec<(Option<Domain>, &str)> = Domain::ALL
                    .iter()
                    .map(|d| (Some(*d), d.name()))
                    .chain([(None, "all")])
                    .collect();
                let modes: Vec<(Mode, &str)> = Mode::ALL.iter().map(|m| (*m, m.name())).collect();
                Generator::Relations(RelationOptions {
                    seed,
                    subset: choose("subset", subset, &subsets)?,
                    domain: choose("domain", domain, &domains)?,
                    mode: choose("mode", mode, &modes)?,
                    indeterminate,
                })
            }
            other => {
                return Err(error(
                    Kind::Generate,
                    format!("invalid value '{other}' for task: expected geomverse or relations"),
                ));
            }
        };
        generator.validate().map_err(|e| error(Kind::Generate, e))?;
        Ok(PyGenerator { generator })
    }

    /// `problems` or `relation items`.
    #[getter]
    fn noun(&self) -> &'static str {
        self.generator.noun()
    }
}

/// About what one problem of `generator` takes in memory while `generate` holds
/// it (its Rust value, JSON line and Python object). Measured (RSS over 20,000):
/// GeomVerse 7.6 KB at depth 1, 15.4 KB at 3, 27.9 KB at 6; relation items 7.7 KB.
fn problem_bytes(generator: &Generator) -> u64 {
    match generator {
        Generator::GeomVerse(o) => {
            let mean_depth = (u64::from(*o.depth.start()) + u64::from(*o.depth.end())) / 2;
            (4 << 10) + (4 << 10) * mean_depth.max(1)
        }
        Generator::Relations(_) => 8 << 10,
    }
}

/// Problems `start..start + count` of `generator`, made in parallel with the GIL
/// released, in chunks of about 0.1 s (Ctrl-C stops between them); refused up
/// front when they cannot fit in memory, `MemoryError` when a chunk's memory
/// cannot be had.
#[pyfunction]
pub fn generate(
    py: Python<'_>,
    generator: &PyGenerator,
    start: u64,
    count: u64,
) -> PyResult<Vec<PyProblem>> {
    let end = start.checked_add(count).ok_or_else(|| {
        error(
            Kind::Generate,
            "start + count is past the last index (2^64 - 1)",
        )
    })?;
    let each = problem_bytes(&generator.generator);
    memory::check_fits(
        count.saturating_mul(each),
        || format!("generate({count}) (every problem held at once)"),
        "draw them as they are needed with geomrender.Stream, or generate slices of them \
         (start=, count=) and keep what each slice is for",
    )?;
    let mut out: Vec<PyProblem> = Vec::new();
    out.try_reserve_exact(usize::try_from(count).unwrap_or(usize::MAX))
        .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(format!("generate({count}): {e}")))?;
    let mut next = start;
    let mut pacer = crate::chunks::Pacer::new(256);
    while next < end {
        py.check_signals()?;
        let n = (pacer.next_len() as u64).min(end - next);
        memory::probe((2 * n * each) as usize, || {
            format!("generate({count}): problems {next}..{}", next + n)
        })?;
        let made = py.detach(|| {
            crate::draw::on_pool(None, || {
                generator
                    .generator
                    .batch(next, n)
                    .map(|ps| ps.into_par_iter().map(PyProblem::new).collect::<Vec<_>>())
            })
        })?;
        for p in made.map_err(|e| error(Kind::Generate, e))? {
            out.push(p?);
        }
        pacer.done(n as usize);
        next += n;
    }
    Ok(out)
}

/// The Problem a pickle holds: its JSON line, read back as it was written (the
/// line came from `to_json()`, so it is kept as it is: the round trip is exact).
#[pyfunction]
pub fn problem_from_pickle(text: &str) -> PyResult<PyProblem> {
    let problem: Problem = serde_json::from_str(text)
        .map_err(|e| error(Kind::Scene, format!("pickled Problem: {e}")))?;
    Ok(PyProblem {
        problem: Arc::new(problem),
        json: text.into(),
    })
}

/// A Problem from its JSON line (as `generate` writes, or `Problem.to_json()`),
/// checked as a run checks a Problem line (schema, limits, its base image composes).
pub fn problem_from_json(text: &str) -> PyResult<PyProblem> {
    use geomrender::pipeline::{Job, LineKind, line_kind};
    let value = geomrender::jsonl::parse_value(text)
        .map_err(|e| error(Kind::Scene, format!("malformed JSON: {e}")))?;
    if line_kind(&value) != LineKind::Problem {
        return Err(error(
            Kind::Scene,
            "not a Problem: a Scene (it has \"items\")",
        ));
    }
    Job::expand(text, &geomrender::variants::Plan::base_only())
        .map_err(|e| crate::errors::line_error(&e))?;
    let problem: Problem = serde_json::from_value(value).map_err(|e| error(Kind::Scene, e))?;
    PyProblem::new(problem)
}
