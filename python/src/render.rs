//! `render`: Problems, Variants, Scene dicts → images, in parallel on rayon with
//! the GIL released. Arrays own the Rust pixel buffer (no copy); PNG bytes are the
//! bytes a run writes.

use crate::convert;
use crate::errors::{Kind, error, line_error};
use crate::problem::PyProblem;
use crate::variant::PyVariant;
use geomrender::output::encode;
use geomrender::pipeline::Job;
#[cfg(feature = "gpu")]
use geomrender::pipeline::{Backend, SceneRenderer};
use geomrender::render::{BackendKind, CpuRenderer, RenderedImage, Requested, decide};
use geomrender::scene::Scene;
use geomrender::style::Encoding;
use geomrender::variants::Plan;
use numpy::PyArray3;
use numpy::ndarray::Array3;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// What to draw, as given from Python (turned into a Scene off the GIL).
pub enum Input {
    /// A Problem's JSON line: its base image.
    Problem(Arc<str>),
    /// A variant made by `variants`.
    Job(Arc<Job>),
    /// A Scene (or Problem) as a JSON line, from a dict or a string.
    Line(String),
}

impl Input {
    fn from_py(item: &Bound<'_, PyAny>) -> PyResult<Input> {
        if let Ok(p) = item.cast::<PyProblem>() {
            return Ok(Input::Problem(p.get().json.clone()));
        }
        if let Ok(v) = item.cast::<PyVariant>() {
            return Ok(Input::Job(v.get().job.clone()));
        }
        if let Ok(s) = item.extract::<String>() {
            return Ok(Input::Line(s));
        }
        if item.is_instance_of::<pyo3::types::PyDict>() {
            return Ok(Input::Line(convert::dumps(item)?));
        }
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "render takes Problems, Variants, Scene dicts or JSON lines, not {}",
            item.get_type().name()?
        )))
    }

    /// The Scene and storage a run would give it.
    pub fn job(&self) -> Result<(Scene, Encoding), PyErr> {
        match self {
            Input::Job(j) => Ok((j.scene.clone(), j.encoding)),
            Input::Problem(line) => base_job(line),
            Input::Line(line) => base_job(line),
        }
    }
}

fn base_job(line: &str) -> PyResult<(Scene, Encoding)> {
    let expanded = Job::expand(line, &Plan::base_only()).map_err(|e| line_error(&e))?;
    let job = expanded
        .jobs
        .into_iter()
        .next()
        .ok_or_else(|| error(Kind::Scene, "the line gave no image"))?;
    Ok((job.scene, job.encoding))
}

/// The output of one image.
pub enum Output {
    Pixels(RenderedImage),
    Bytes(Vec<u8>),
    Svg(String),
}

/// What `render` returns per image (`pil` is made from `array` in Python).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Array,
    Png,
    Svg,
}

impl Format {
    pub fn parse(name: &str) -> PyResult<Format> {
        match name {
            "array" | "pil" => Ok(Format::Array),
            "png" => Ok(Format::Png),
            "svg" => Ok(Format::Svg),
            other => Err(error(
                Kind::Render,
                format!("invalid value '{other}' for format: expected array, png, pil or svg"),
            )),
        }
    }
}

/// Who draws.
#[derive(Clone)]
pub enum Draw {
    Cpu(Arc<CpuRenderer>),
    #[cfg(feature = "gpu")]
    Gpu,
}

/// `auto` resolved once per process (it surveys the adapters).
fn auto() -> BackendKind {
    static AUTO: OnceLock<BackendKind> = OnceLock::new();
    *AUTO.get_or_init(|| decide(Requested::Auto).kind)
}

impl Draw {
    pub fn parse(name: &str) -> PyResult<Draw> {
        let kind = match name {
            "auto" => auto(),
            "cpu" => BackendKind::Cpu,
            "resvg" => BackendKind::Resvg,
            #[cfg(feature = "gpu")]
            "gpu" => BackendKind::Gpu,
            other => {
                return Err(error(
                    Kind::Render,
                    format!(
                        "invalid value '{other}' for backend: expected auto, gpu, cpu or resvg"
                    ),
                ));
            }
        };
        Ok(match kind {
            BackendKind::Cpu => Draw::Cpu(Arc::new(CpuRenderer::raster())),
            BackendKind::Resvg => Draw::Cpu(Arc::new(CpuRenderer::resvg())),
            #[cfg(feature = "gpu")]
            BackendKind::Gpu => Draw::Gpu,
        })
    }

    pub fn name(&self) -> String {
        match self {
            Draw::Cpu(r) => r.label(),
            #[cfg(feature = "gpu")]
            Draw::Gpu => "gpu (wgpu)".to_string(),
        }
    }
}

/// The backend `render(backend=name)` draws with, e.g. for logs.
#[pyfunction]
#[pyo3(signature = (name="auto"))]
pub fn backend_name(name: &str) -> PyResult<String> {
    Ok(Draw::parse(name)?.name())
}

/// Renders one scene (scaled to `size` px wide when given) into `format`.
pub fn draw_one(
    scene: Scene,
    encoding: Encoding,
    size: Option<u32>,
    format: Format,
    renderer: &mut Renderer,
) -> Result<Output, PyErr> {
    let scene = match size {
        Some(w) if w != scene.width => {
            let k = w as f32 / scene.width as f32;
            geomrender::scene::transform::scale_scene(&scene, k)
                .map_err(|e| error(Kind::Scene, e))?
        }
        _ => scene,
    };
    if format == Format::Svg {
        return Ok(Output::Svg(geomrender::scene::svg::to_svg(&scene)));
    }
    let image = renderer.render(&scene)?;
    let fail = |e: image::ImageError| error(Kind::Render, format!("{}: {e}", scene.id));
    Ok(match (format, encoding) {
        (Format::Array, Encoding::Png) => Output::Pixels(image),
        // The array of a JPEG variant is what its file decodes to.
        (Format::Array, Encoding::Jpeg { .. }) => {
            let bytes = encode(encoding, &image).map_err(fail)?;
            let decoded = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg)
                .map_err(fail)?
                .to_rgba8();
            Output::Pixels(RenderedImage {
                id: image.id,
                width: decoded.width(),
                height: decoded.height(),
                rgba: decoded.into_raw(),
            })
        }
        _ => Output::Bytes(encode(encoding, &image).map_err(fail)?),
    })
}

/// A backend's per-thread state: the CPU renderers share one; the GPU is opened
/// once per call.
pub enum Renderer {
    Cpu(Arc<CpuRenderer>),
    #[cfg(feature = "gpu")]
    Gpu(Box<SceneRenderer>),
}

impl Renderer {
    pub fn new(draw: &Draw) -> Renderer {
        match draw {
            Draw::Cpu(r) => Renderer::Cpu(r.clone()),
            #[cfg(feature = "gpu")]
            Draw::Gpu => Renderer::Gpu(Box::new(SceneRenderer::new(Backend::Gpu(
                Default::default(),
            )))),
        }
    }

    fn render(&mut self, scene: &Scene) -> PyResult<RenderedImage> {
        match self {
            Renderer::Cpu(r) => r
                .render(scene)
                .map_err(|e| error(Kind::Render, format!("{}: {e}", scene.id))),
            #[cfg(feature = "gpu")]
            Renderer::Gpu(r) => r
                .render(scene)
                .map_err(|e| error(Kind::Render, format!("{}: {e}", scene.id))),
        }
    }
}

/// Runs `f` on this process's pool of `threads` threads (default: one per core).
///
/// Not rayon's global pool: a PyTorch DataLoader forks its workers, and a forked
/// child has none of its parent's threads, so a pool started before the fork would
/// wait forever for them. The pool is made again in a process whose id changed.
pub fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    type Pools = Vec<(u32, Option<usize>, Arc<rayon::ThreadPool>)>;
    static POOLS: std::sync::Mutex<Pools> = std::sync::Mutex::new(Vec::new());
    if threads == Some(0) {
        return Err(error(Kind::Render, "threads must be at least 1"));
    }
    let pid = std::process::id();
    let pool = {
        let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
        // A parent's pools: their threads are not in this process; never joined.
        for stale in pools.extract_if(.., |(p, _, _)| *p != pid) {
            std::mem::forget(stale);
        }
        match pools.iter().find(|(_, t, _)| *t == threads) {
            Some((_, _, pool)) => pool.clone(),
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads.unwrap_or(0))
                    .thread_name(|i| format!("geomrender-{i}"))
                    .build()
                    .map_err(|e| error(Kind::Render, e))?;
                let pool = Arc::new(pool);
                pools.push((pid, threads, pool.clone()));
                pool
            }
        }
    };
    Ok(pool.install(f))
}

/// Renders `inputs` in parallel (in order), with the GIL released.
pub fn draw_all(
    py: Python<'_>,
    inputs: Vec<Input>,
    size: Option<u32>,
    format: Format,
    draw: &Draw,
    threads: Option<usize>,
) -> PyResult<Vec<Output>> {
    let one = |(i, input): (usize, &Input), renderer: &mut Renderer| {
        let (scene, encoding) = input.job().map_err(|e| at(i, e))?;
        draw_one(scene, encoding, size, format, renderer).map_err(|e| at(i, e))
    };
    let results: Vec<PyResult<Output>> = py.detach(|| {
        on_pool(threads, || match draw {
            Draw::Cpu(_) => inputs
                .par_iter()
                .enumerate()
                .map_init(|| Renderer::new(draw), |r, x| one(x, r))
                .collect(),
            #[cfg(feature = "gpu")]
            Draw::Gpu => {
                let mut r = Renderer::new(draw);
                inputs.iter().enumerate().map(|x| one(x, &mut r)).collect()
            }
        })
    })?;
    results.into_iter().collect()
}

/// `e` with the item's position in front.
fn at(i: usize, e: PyErr) -> PyErr {
    Python::attach(|py| {
        let message = format!("item {i}: {}", e.value(py));
        let kind = e
            .get_type(py)
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        let kind = match kind.as_str() {
            "VariantError" => Kind::Variant,
            "SceneError" => Kind::Scene,
            "GenerateError" => Kind::Generate,
            _ => Kind::Render,
        };
        error(kind, message)
    })
}

/// An output as the Python object it is returned as.
pub fn to_py<'py>(py: Python<'py>, out: Output) -> PyResult<Bound<'py, PyAny>> {
    Ok(match out {
        Output::Pixels(img) => pixels(py, img)?.into_any(),
        Output::Bytes(b) => PyBytes::new(py, &b).into_any(),
        Output::Svg(s) => s.into_pyobject(py)?.into_any(),
    })
}

/// The image as an H×W×4 `uint8` array that owns the Rust buffer: the Vec moves
/// into the array's base object, nothing is copied.
pub fn pixels<'py>(py: Python<'py>, img: RenderedImage) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let (w, h) = (img.width as usize, img.height as usize);
    let array = Array3::from_shape_vec((h, w, 4), img.rgba)
        .map_err(|e| error(Kind::Render, format!("{}: {e}", img.id)))?;
    Ok(PyArray3::from_owned_array(py, array))
}

/// Renders `items` (Problems: their base image; Variants; Scene dicts or JSON
/// lines) into `format` on `backend`, `threads` at a time (default: all cores).
#[pyfunction]
#[pyo3(signature = (items, size=None, backend="auto", format="array", threads=None))]
pub fn render<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    size: Option<u32>,
    backend: &str,
    format: &str,
    threads: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let format = Format::parse(format)?;
    let draw = Draw::parse(backend)?;
    if size == Some(0) {
        return Err(error(Kind::Render, "size must be at least 1 pixel"));
    }
    let inputs: Vec<Input> = items
        .try_iter()?
        .map(|x| Input::from_py(&x?))
        .collect::<PyResult<_>>()?;
    let outputs = draw_all(py, inputs, size, format, &draw, threads)?;
    outputs.into_iter().map(|o| to_py(py, o)).collect()
}

/// PNG bytes of one input, drawn on the CPU (`_repr_png_`).
pub fn repr_png<'py>(py: Python<'py>, input: Input) -> PyResult<Bound<'py, PyBytes>> {
    let draw = Draw::Cpu(Arc::new(CpuRenderer::raster()));
    let mut out = draw_all(py, vec![input], None, Format::Array, &draw, None)?;
    let Some(Output::Pixels(img)) = out.pop() else {
        return Err(error(Kind::Render, "no image"));
    };
    let png = encode(Encoding::Png, &img).map_err(|e| error(Kind::Render, e))?;
    Ok(PyBytes::new(py, &png))
}
