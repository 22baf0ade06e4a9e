//! The drawing core under `render`, `stream` and the Jupyter previews: what to draw
//! ([`Input`]) → images, in parallel on rayon with the GIL released. Arrays own the Rust pixel buffer (no copy); PNG bytes are the
//! bytes a run writes.

use crate::errors::{Kind, error, line_error};
use geomrender::generate::Problem;
use geomrender::output::encode;
use geomrender::pipeline::{Backend, Expanded, Job, JobError, SceneRenderer};
use geomrender::render::{CpuRenderer, RenderedImage, Requested};
use geomrender::scene::Scene;
use geomrender::style::Encoding;
use geomrender::variants::{Pixels, Plan};
use geomrender::words::UnknownWord;
use numpy::PyArray3;
use numpy::ndarray::Array3;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// What to draw, as given from Python (turned into a Scene off the GIL).
pub enum Input {
    /// A `Problem`: its base image.
    Problem(Arc<Problem>),
    /// A variant made by `variants`.
    Job(Arc<Job>),
    /// A Scene or Problem as a JSON line, from a dict or a string.
    Line(String),
}

impl Input {
    /// The canvas it is drawn on, as far as it is known without composing it: a
    /// Problem's base canvas, a Variant's Scene, a Scene line's `width` and
    /// `height` (a Problem line: the base canvas).
    fn dims(&self) -> (u32, u32) {
        let base = geomrender::style::Style::default().canvas;
        match self {
            Input::Job(j) => (j.scene.width, j.scene.height),
            Input::Problem(_) => (base, base),
            Input::Line(line) => {
                // Only the two numbers are read (the rest is skipped, not built).
                #[derive(serde::Deserialize, Default)]
                struct Canvas {
                    width: Option<serde_json::Value>,
                    height: Option<serde_json::Value>,
                }
                let c: Canvas = serde_json::from_str(line).unwrap_or_default();
                let side = |v: Option<serde_json::Value>| {
                    v.and_then(|x| x.as_u64())
                        .map_or(base, |x| x.min(u64::from(u32::MAX)) as u32)
                };
                (side(c.width), side(c.height))
            }
        }
    }

    /// The Scene and storage a run would give it.
    pub fn job(&self) -> Result<(Scene, Pixels, Encoding), PyErr> {
        match self {
            Input::Job(j) => Ok((j.scene.clone(), j.pixels.clone(), drawn(j)?)),
            Input::Problem(p) => base_job(Job::expand_problem(p, &Plan::base_only())),
            Input::Line(line) => base_job(Job::expand(line, &Plan::base_only())),
        }
    }
}

/// The base image of an expansion.
fn base_job(expanded: Result<Expanded, JobError>) -> PyResult<(Scene, Pixels, Encoding)> {
    let job = expanded
        .map_err(|e| line_error(&e))?
        .jobs
        .into_iter()
        .next()
        .ok_or_else(|| error(Kind::Scene, "the line gave no image"))?;
    let encoding = drawn(&job)?;
    Ok((job.scene, job.pixels, encoding))
}

/// How `job`'s image is stored; an error for a text-only row, which has none.
fn drawn(job: &Job) -> PyResult<Encoding> {
    job.encoding.ok_or_else(|| {
        error(
            Kind::Scene,
            format!(
                "{}: a text-only row (modality=text-only) has no image to draw",
                job.scene.id
            ),
        )
    })
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
    fn name(self) -> &'static str {
        match self {
            Format::Array => "arrays",
            Format::Png => "PNG",
            Format::Svg => "SVG",
        }
    }

    pub fn parse(name: &str) -> PyResult<Format> {
        match name {
            "array" | "pil" => Ok(Format::Array),
            "png" => Ok(Format::Png),
            "svg" => Ok(Format::Svg),
            other => Err(error(
                Kind::Option,
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

/// `auto` resolved once per process (it surveys the adapters; `auto` always decides).
fn auto() -> Backend {
    static AUTO: OnceLock<Backend> = OnceLock::new();
    AUTO.get_or_init(|| match Backend::open(Requested::Auto) {
        Ok((backend, _)) => backend,
        Err(_) => Backend::Cpu(Arc::new(CpuRenderer::raster())),
    })
    .clone()
}

impl Draw {
    pub fn parse(name: &str) -> PyResult<Draw> {
        let requested: Requested = name.parse().map_err(|e: UnknownWord| {
            error(
                Kind::Option,
                format!(
                    "invalid value '{name}' for backend: expected {}",
                    e.expected
                ),
            )
        })?;
        let backend = match requested {
            Requested::Auto => auto(),
            other => {
                Backend::open(other)
                    .map_err(|_| {
                        error(
                            Kind::Option,
                            "backend='gpu': this package was built without the GPU backend; \
                             build it with: pip install ./python \
                             --config-settings=build-args='--features gpu'",
                        )
                    })?
                    .0
            }
        };
        Ok(match backend {
            Backend::Cpu(r) => Draw::Cpu(r),
            #[cfg(feature = "gpu")]
            Backend::Gpu(_) => Draw::Gpu,
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
    pixels: &Pixels,
    encoding: Encoding,
    size: Option<u32>,
    format: Format,
    renderer: &mut Renderer,
) -> Result<Output, PyErr> {
    let scene = match size {
        Some(w) => scene
            .scaled_to_width(w)
            .map_err(|e| error(Kind::Option, format!("size {w}: {e}")))?,
        None => scene,
    };
    if format == Format::Svg {
        return Ok(Output::Svg(geomrender::scene::svg::to_svg(&scene)));
    }
    if renderer.draws_into_spare_buffers() {
        give_a_canvas(&scene, format == Format::Array)?;
    }
    let image = renderer.render_one(&scene, pixels)?;
    let fail = |e: image::ImageError| error(Kind::Render, format!("{}: {e}", scene.id));
    Ok(match (format, encoding) {
        (Format::Array, Encoding::Png) => Output::Pixels(image),
        // The array of a JPEG variant is what its file decodes to.
        (Format::Array, Encoding::Jpeg { .. }) => {
            let bytes = encode(encoding, &image).map_err(fail)?;
            let id = image.id.clone();
            geomrender::render::recycle(image.rgba);
            let decoded = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg)
                .map_err(fail)?
                .to_rgba8();
            Output::Pixels(RenderedImage {
                id,
                width: decoded.width(),
                height: decoded.height(),
                rgba: decoded.into_raw(),
            })
        }
        _ => {
            let bytes = encode(encoding, &image).map_err(fail)?;
            // Encoded: the next image is drawn into the same buffer.
            geomrender::render::recycle(image.rgba);
            Output::Bytes(bytes)
        }
    })
}

/// A backend's per-thread state: the library's single-scene renderer (the CPU
/// renderers are shared; the GPU is opened on the first image of each call).
pub struct Renderer(SceneRenderer);

impl Renderer {
    pub fn new(draw: &Draw) -> Renderer {
        Renderer(SceneRenderer::new(match draw {
            Draw::Cpu(r) => Backend::Cpu(r.clone()),
            #[cfg(feature = "gpu")]
            Draw::Gpu => Backend::Gpu(Default::default()),
        }))
    }

    /// Whether it draws into this thread's spare buffers (the CPU renderers; the GPU
    /// reads its images back into buffers of its own).
    fn draws_into_spare_buffers(&self) -> bool {
        self.0.draws_on_cpu()
    }

    /// The image as a run makes it: rendered, then the variant's pixel stage.
    fn render_one(&mut self, scene: &Scene, pixels: &Pixels) -> PyResult<RenderedImage> {
        (self.0)
            .render_one(scene, pixels)
            .map_err(|e| error(Kind::Render, format!("{}: {e}", scene.id)))
    }
}

/// Most threads a call may ask for: the CLI's bound on `--threads`.
pub const MAX_THREADS: usize = 1024;

/// Runs `f` on [`pool`]`(threads)`.
pub fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    Ok(pool(threads)?.install(f))
}

/// A pool of `threads` threads of its own (made for this call, so that two Python
/// threads that ask for one thread each get one each), or this process's shared
/// pool of one thread per core (`None`).
///
/// Not rayon's global pool: a PyTorch DataLoader forks its workers, and a forked
/// child has none of its parent's threads, so a pool started before the fork would
/// wait forever for them. The shared pool is made again in a process whose id
/// changed.
pub fn pool(threads: Option<usize>) -> PyResult<Arc<rayon::ThreadPool>> {
    static SHARED: std::sync::Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> =
        std::sync::Mutex::new(None);
    let build = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("geomrender-{i}"))
            .build()
            .map(Arc::new)
            .map_err(|e| error(Kind::Render, e))
    };
    let pool = match threads {
        Some(n) if n == 0 || n > MAX_THREADS => {
            return Err(error(
                Kind::Option,
                format!(
                    "invalid value '{n}' for threads: expected a whole number in 1..={MAX_THREADS}"
                ),
            ));
        }
        Some(n) => build(n)?,
        None => {
            let pid = std::process::id();
            let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
            match &*shared {
                Some((p, pool)) if *p == pid => pool.clone(),
                _ => {
                    // A parent's pool: its threads are not in this process; never joined.
                    if let Some(stale) = shared.take() {
                        std::mem::forget(stale);
                    }
                    let pool = build(0)?;
                    *shared = Some((pid, pool.clone()));
                    pool
                }
            }
        }
    };
    Ok(pool)
}

/// `f` over `items`, in order, each with a renderer of `draw`: in parallel on the
/// current pool for the CPU backends, one after the other on the one GPU.
pub fn map_drawn<T: Sync, R: Send>(
    draw: &Draw,
    items: &[T],
    f: impl Fn(&T, &mut Renderer) -> R + Sync + Send,
) -> Vec<R> {
    match draw {
        Draw::Cpu(_) => items
            .par_iter()
            .map_init(|| Renderer::new(draw), |r, x| f(x, r))
            .collect(),
        #[cfg(feature = "gpu")]
        Draw::Gpu => {
            let mut r = Renderer::new(draw);
            items.iter().map(|x| f(x, &mut r)).collect()
        }
    }
}

/// Renders `inputs` in parallel (in order), with the GIL released, in chunks of
/// about 0.1 s (Ctrl-C stops between them); refused before any work when the
/// results cannot fit in memory.
pub fn draw_all(
    py: Python<'_>,
    inputs: Vec<Input>,
    size: Option<u32>,
    format: Format,
    draw: &Draw,
    threads: Option<usize>,
) -> PyResult<Vec<Output>> {
    let pool = pool(threads)?;
    let pixels: Vec<u64> = py.detach(|| {
        pool.install(|| {
            (inputs.par_iter())
                .map(|i| scaled_pixels(i.dims(), size))
                .collect()
        })
    });
    let total: u64 = pixels.iter().sum();
    // What is kept: every array's 4 bytes a pixel (PNG bytes are a few % of that:
    // half a byte is allowed); and what each thread works in at once: its canvas
    // (4), coverage mask (1) and encoder (about 1).
    let kept = match format {
        Format::Array => total * 4,
        Format::Png => total / 2,
        Format::Svg => 0,
    };
    let largest = pixels.iter().copied().max().unwrap_or(0);
    let cores = || std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = threads.unwrap_or_else(cores) as u64;
    crate::memory::check_fits(
        kept + workers * largest * 6,
        || {
            let (w, h) = inputs.first().map_or((0, 0), |i| scaled(i.dims(), size));
            format!(
                "render of {} images (the first {w}×{h}) as {}",
                inputs.len(),
                format.name()
            )
        },
        "render them in slices and keep what you need of each (format=\"png\" keeps a few % \
         of an array's bytes), or draw them as you go with geomrender.Stream",
    )?;
    let indexed: Vec<(usize, Input)> = inputs.into_iter().enumerate().collect();
    let one = |(i, input): &(usize, Input), renderer: &mut Renderer| {
        let (scene, pixels, encoding) = input.job().map_err(|e| at(*i, e))?;
        draw_one(scene, &pixels, encoding, size, format, renderer).map_err(|e| at(*i, e))
    };
    let results: Vec<PyResult<Output>> =
        crate::chunks::in_chunks(py, &indexed, workers as usize, |chunk| {
            Ok(pool.install(|| map_drawn(draw, chunk, one)))
        })?;
    results.into_iter().collect()
}

/// (width, height) scaled to `size` px wide, as [`draw_one`] scales a Scene.
fn scaled((w, h): (u32, u32), size: Option<u32>) -> (u32, u32) {
    match size {
        Some(s) if s != w && w > 0 => {
            let k = s as f32 / w as f32;
            (s, ((h as f32 * k).round() as u32).max(1))
        }
        _ => (w, h),
    }
}

fn scaled_pixels(dims: (u32, u32), size: Option<u32>) -> u64 {
    let (w, h) = scaled(dims, size);
    u64::from(w) * u64::from(h)
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
            "OptionError" => Kind::Option,
            "VariantError" => Kind::Variant,
            "SceneError" => Kind::Scene,
            "GenerateError" => Kind::Generate,
            "MemoryError" => return pyo3::exceptions::PyMemoryError::new_err(message),
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

/// The owner of an array's pixels: the Rust buffer the renderer drew into. When
/// the last array on it is freed, the buffer goes to [`SPARE_BUFFERS`], and the
/// next image is drawn into it instead of into a fresh megabyte.
#[pyclass(frozen, module = "geomrender._native", name = "PixelBuffer")]
pub struct PixelBuffer {
    array: Array3<u8>,
}

impl Drop for PixelBuffer {
    fn drop(&mut self) {
        let array = std::mem::replace(&mut self.array, Array3::zeros((0, 0, 0)));
        let (buf, _) = array.into_raw_vec_and_offset();
        let mut spare = SPARE_BUFFERS.lock().unwrap_or_else(|p| p.into_inner());
        if spare.len() < MAX_SPARE_BUFFERS {
            spare.push(buf);
        }
    }
}

/// Buffers of freed arrays, for the renderers' next images.
static SPARE_BUFFERS: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(Vec::new());

/// How many freed buffers are kept (64 MiB at 512²); the rest are freed.
const MAX_SPARE_BUFFERS: usize = 64;

/// Gives this thread's CPU renderer the buffer it draws `scene` into: a freed
/// array's (`reuse`: the result is an array), or one allocated here with
/// `try_reserve`, so that an allocation that fails is a `MemoryError`, not an abort.
fn give_a_canvas(scene: &Scene, reuse: bool) -> PyResult<()> {
    let need = scene.width as usize * scene.height as usize * 4;
    let freed = match reuse {
        true => SPARE_BUFFERS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop(),
        false => None,
    };
    let buf = match freed {
        Some(buf) if buf.capacity() >= need => buf,
        _ => crate::memory::reserve(need, || {
            format!("{}: {}×{} image", scene.id, scene.width, scene.height)
        })?,
    };
    geomrender::render::recycle(buf);
    Ok(())
}

/// The image as an H×W×4 `uint8` array on the Rust buffer (nothing is copied):
/// the buffer moves into a [`PixelBuffer`], the array's base object.
pub fn pixels<'py>(py: Python<'py>, img: RenderedImage) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let (w, h) = (img.width as usize, img.height as usize);
    let array = Array3::from_shape_vec((h, w, 4), img.rgba)
        .map_err(|e| error(Kind::Render, format!("{}: {e}", img.id)))?;
    let owner = Bound::new(py, PixelBuffer { array })?;
    let view = &owner.get().array;
    // SAFETY: the array's base is `owner`, which keeps `view`'s buffer alive and
    // never reallocates it (it is frozen; only its Drop takes the buffer).
    Ok(unsafe { PyArray3::borrow_from_array(view, owner.clone().into_any()) })
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
