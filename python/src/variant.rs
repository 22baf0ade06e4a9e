//! `Variant` (one image of a problem: its Scene, encoding and texts, exactly as a
//! run makes it), `variants` and the axis table as data.

use crate::convert;
use crate::errors::{Kind, error, line_error};
use crate::problem::{PyProblem, answer_py};
use geomrender::pipeline::Job;
use geomrender::style::Encoding;
use geomrender::variants::{AXES, Plan};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// One image of a problem under a variant (the base image is the variant `base`):
/// the Scene, storage and texts `geomrender render --variants` makes for it.
#[pyclass(frozen, module = "geomrender", name = "Variant")]
pub struct PyVariant {
    pub job: Arc<Job>,
    /// `axis=value;…` as SPEC writes it, `base` for the base image.
    pub label: String,
}

/// Each job of `plan` for the base id `base` with its label (`fontsize=8`, `base`),
/// matched by id: a run's jobs are the plan's variants less those not made.
pub fn labelled(plan: &Plan, base: &str, jobs: Vec<Job>) -> Vec<(Job, String)> {
    let labels: std::collections::HashMap<String, String> = plan
        .variants()
        .iter()
        .map(|v| (v.id(base), v.label()))
        .collect();
    jobs.into_iter()
        .map(|job| {
            let label = labels
                .get(&job.scene.id)
                .cloned()
                .unwrap_or_else(|| "base".into());
            (job, label)
        })
        .collect()
}

impl PyVariant {
    fn values(&self) -> serde_json::Map<String, serde_json::Value> {
        self.job
            .source
            .as_ref()
            .map(|s| s.variant.clone())
            .unwrap_or_default()
    }
}

#[pymethods]
impl PyVariant {
    /// The image id: `<base_id>__<axis>-<value>…` (the base id for the base image).
    #[getter]
    fn id(&self) -> &str {
        &self.job.scene.id
    }

    /// The id of the problem's base image.
    #[getter]
    fn base_id(&self) -> &str {
        match &self.job.source {
            Some(s) => &s.base_id,
            None => &self.job.scene.id,
        }
    }

    /// `{axis: value}` as in manifest rows (`{}` for the base image).
    #[getter]
    fn variant<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, &self.values())
    }

    /// `axis=value` as SPEC writes it, `base` for the base image.
    #[getter]
    fn label(&self) -> &str {
        &self.label
    }

    /// The question as this image asks it (None for a bare Scene).
    #[getter]
    fn question(&self) -> Option<&str> {
        self.job.problem.as_ref().map(|p| p.question.as_str())
    }

    /// The chain-of-thought solution (None for a bare Scene).
    #[getter]
    fn cot(&self) -> Option<&str> {
        self.job.problem.as_ref().map(|p| p.cot.as_str())
    }

    /// The answer (a float, or a letter on a relation item; None for a bare Scene).
    #[getter]
    fn answer(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.job
            .problem
            .as_ref()
            .map(|p| answer_py(py, p.answer))
            .transpose()
    }

    /// Canvas width in pixels.
    #[getter]
    fn width(&self) -> u32 {
        self.job.scene.width
    }

    /// Canvas height in pixels.
    #[getter]
    fn height(&self) -> u32 {
        self.job.scene.height
    }

    /// How a run stores it: `png`, `jpeg` (a `jpeg=Q` variant), or `None` for a
    /// text-only row (`modality=text-only`), which has no image.
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        match self.job.encoding? {
            Encoding::Png => Some("png"),
            Encoding::Jpeg { .. } => Some("jpeg"),
        }
    }

    /// The Scene v1 the renderer draws, as a dict (`render` takes it back).
    #[getter]
    fn scene<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, &self.job.scene)
    }

    /// The fields a manifest row has besides the image record: id, base_id,
    /// variant, and for a Problem's image its annotation, question, cot, answer,
    /// (relation fields), params, style and layout.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut row = serde_json::Map::new();
        row.insert("id".into(), self.job.scene.id.clone().into());
        if let Some(s) = &self.job.source {
            row.insert("base_id".into(), s.base_id.clone().into());
            row.insert("variant".into(), s.variant.clone().into());
        }
        if let Some(p) = &self.job.problem {
            let mut fields = serde_json::to_value(p).map_err(|e| error(Kind::Render, e))?;
            if let Some(map) = fields.as_object_mut() {
                map.remove("problem");
                row.extend(std::mem::take(map));
            }
        }
        convert::to_py(py, &row)
    }

    /// Pickling (multiprocessing, `Pool.map(gr.render, variants)`): the Scene,
    /// storage, source and texts as JSON, read back exactly
    /// (`geomrender._variant_from_pickle`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let f = py.import("geomrender")?.getattr("_variant_from_pickle")?;
        let state = pickled(&self.job).map_err(|e| error(Kind::Render, e))?;
        Ok((f, (state, self.label.clone())))
    }

    fn __repr__(&self) -> String {
        format!(
            "Variant(id={:?}, variant={:?})",
            self.job.scene.id, self.label
        )
    }

    /// Jupyter: the image as PNG (drawn on the CPU).
    fn _repr_png_<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        crate::draw::repr_png(py, crate::draw::Input::Job(self.job.clone()))
    }
}

/// A Job as the JSON a pickle holds: every field as it is (the variant's values
/// unspelled, the problem's fields as a manifest row has them).
fn pickled(job: &Job) -> Result<String, serde_json::Error> {
    let encoding = match job.encoding {
        Some(Encoding::Png) | None => serde_json::Value::Null,
        Some(Encoding::Jpeg { quality }) => quality.into(),
    };
    let source = job
        .source
        .as_ref()
        .map(|s| serde_json::json!({"base_id": s.base_id, "variant": s.variant}));
    serde_json::to_string(&serde_json::json!({
        "scene": job.scene,
        "jpeg": encoding,
        "imageless": job.encoding.is_none(),
        "source": source,
        "problem": job.problem,
    }))
}

/// The Variant a pickle holds ([`pickled`] and its label).
#[pyfunction]
pub fn variant_from_pickle(state: &str, label: String) -> PyResult<PyVariant> {
    #[derive(serde::Deserialize)]
    struct State {
        scene: serde_json::Value,
        jpeg: Option<u8>,
        /// A text-only row (pickles from before it are all drawn).
        #[serde(default)]
        imageless: bool,
        source: Option<SourceState>,
        problem: Option<geomrender::output::manifest::ProblemFields>,
    }
    #[derive(serde::Deserialize)]
    struct SourceState {
        base_id: String,
        variant: serde_json::Map<String, serde_json::Value>,
    }
    let fail = |e: &dyn std::fmt::Display| error(Kind::Scene, format!("pickled Variant: {e}"));
    let s: State = serde_json::from_str(state).map_err(|e| fail(&e))?;
    let scene = geomrender::scene::parse_scene_value(&s.scene).map_err(|e| fail(&e))?;
    // The pixel stage follows from the variant's values, as a run derives it.
    let pixels = match &s.source {
        Some(source) => {
            let (variant, _) =
                geomrender::audit::parse_variant(&source.variant).map_err(|e| fail(&e))?;
            geomrender::variants::Pixels::of(&variant)
        }
        None => Default::default(),
    };
    let job = Job {
        scene,
        pixels,
        encoding: (!s.imageless).then(|| {
            s.jpeg
                .map_or(Encoding::Png, |quality| Encoding::Jpeg { quality })
        }),
        source: s.source.map(|s| geomrender::output::manifest::Lineage {
            base_id: s.base_id,
            variant: s.variant,
        }),
        problem: s.problem,
        drawn: None,
    };
    Ok(PyVariant {
        job: Arc::new(job),
        label,
    })
}

/// What `variants` returns: the images made; the variants left out as (label,
/// reason, message); the errors of those that could not be made.
type Expanded = (Vec<PyVariant>, Vec<(String, String, String)>, Vec<PyErr>);

/// The images of `item` (a Problem, a Problem or Scene dict, or a JSON line) under
/// `spec`, base first, as a run makes them: a variant the problem has none of, or
/// one equal to its base, is left out (`skipped` lists them, with the reason); one
/// that cannot be made raises, unless `errors="skip"` (then it is in `failed`).
#[pyfunction]
#[pyo3(signature = (item, spec, grid=false))]
pub fn variants<'py>(
    py: Python<'py>,
    item: &Bound<'py, PyAny>,
    spec: &str,
    grid: bool,
) -> PyResult<Expanded> {
    let plan = Plan::parse(spec, grid).map_err(|e| error(Kind::Variant, e))?;
    let expanded = match item.cast::<PyProblem>() {
        Ok(p) => {
            let problem = &p.get().problem;
            py.detach(|| Job::expand_problem(problem, &plan))
        }
        Err(_) => {
            let line = match item.extract::<String>() {
                Ok(s) => s,
                Err(_) => convert::dumps(item)?,
            };
            py.detach(|| Job::expand(&line, &plan))
        }
    }
    .map_err(|e| line_error(&e))?;
    let base = expanded
        .jobs
        .first()
        .map(|j| {
            j.source
                .as_ref()
                .map_or(j.scene.id.clone(), |s| s.base_id.clone())
        })
        .unwrap_or_default();
    let made = labelled(&plan, &base, expanded.jobs)
        .into_iter()
        .map(|(job, label)| PyVariant {
            job: Arc::new(job),
            label,
        })
        .collect();
    let skipped = expanded
        .skipped
        .iter()
        .map(|s| {
            let reason = match s.reason() {
                geomrender::pipeline::SkipReason::Identical => "identical",
                geomrender::pipeline::SkipReason::NotMade => "not made",
            };
            (s.variant.clone(), reason.to_string(), s.error.to_string())
        })
        .collect();
    let failed = expanded.failed.iter().map(line_error).collect();
    Ok((made, skipped, failed))
}

/// The axis table (`geomrender variants --list`) as a list of dicts: name,
/// changes, source, base, sweep, accepts, scenes, may_change, relations.
#[pyfunction]
pub fn axes<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for a in AXES {
        let d = PyDict::new(py);
        d.set_item("name", a.name)?;
        d.set_item("changes", a.changes)?;
        d.set_item("source", a.from)?;
        d.set_item("base", a.base)?;
        d.set_item("sweep", a.sweep.to_vec())?;
        d.set_item("accepts", a.accepts())?;
        d.set_item("numeric", a.numeric)?;
        d.set_item("scenes", a.on_scenes())?;
        let may: Vec<&str> = a.may_change.iter().map(|c| c.name()).collect();
        d.set_item("may_change", may)?;
        d.set_item("relations", a.relations)?;
        list.append(d)?;
    }
    Ok(list)
}
