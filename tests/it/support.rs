//! Shared test helpers: one GPU and one CPU renderer per test binary, rendering
//! helpers and reference-image comparison.
//!
//! Reference images live in `tests/reference/<name>.png` (GPU backend) and
//! `tests/reference/cpu/<name>.png` (CPU backend). A mismatch writes
//! `target/test-output/<name>.actual.png` and `<name>.diff.png` (differing pixels
//! in red over a faded copy of the expected image). `GEOMRENDER_UPDATE_REFS=1`
//! rewrites the references from the current output.

use geomrender::render::CpuRenderer;
use geomrender::render::RenderedImage;
use geomrender::render::gpu::{FrameBuilder, GpuOptions, GpuRenderer, TargetSize};
use geomrender::render::prepare;
use geomrender::scene::Scene;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, OnceLock};

static GPU: OnceLock<Option<Mutex<GpuRenderer>>> = OnceLock::new();

/// The shared renderer, or `None` (test skipped) when there is no adapter outside CI.
/// Under `CI=true` a missing adapter fails the test instead.
pub fn gpu() -> Option<MutexGuard<'static, GpuRenderer>> {
    // 2048² frames, so that batches really tile (the software default is one 512² scene per frame).
    let options = GpuOptions {
        target_size: TargetSize::square(2048),
        ..GpuOptions::default()
    };
    let slot = GPU.get_or_init(|| match GpuRenderer::new(options) {
        Ok(r) => Some(Mutex::new(r)),
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                panic!("GPU tests are required under CI=true but no renderer could start: {e}");
            }
            eprintln!("skipping GPU test: {e}");
            None
        }
    });
    slot.as_ref()
        .map(|m| m.lock().unwrap_or_else(|p| p.into_inner()))
}

/// The shared CPU (resvg) renderer; it needs no device, so CPU tests never skip.
pub fn cpu() -> &'static CpuRenderer {
    static CPU: OnceLock<CpuRenderer> = OnceLock::new();
    CPU.get_or_init(CpuRenderer::new)
}

/// Renders `scenes` with resvg, in parallel, in input order.
pub fn render_cpu(scenes: &[Scene]) -> Vec<RenderedImage> {
    scenes
        .par_iter()
        .map(|s| {
            cpu()
                .render(s)
                .unwrap_or_else(|e| panic!("cpu render of {}: {e}", s.id))
        })
        .collect()
}

/// Renders `scenes` with up to `max_tiles` per frame (1 = each scene alone).
pub fn render_with(r: &mut GpuRenderer, scenes: &[Scene], max_tiles: usize) -> Vec<RenderedImage> {
    let prepared = scenes.iter().map(|s| {
        geomrender::scene::validate(s).expect("test scenes are valid");
        prepare(s, Default::default()).expect("prepare")
    });
    let frames = FrameBuilder::new(r.target_size(), max_tiles).frames(prepared);
    let mut out = Vec::new();
    r.render_frames(frames, |images: Vec<RenderedImage>| {
        out.extend(images);
        true
    })
    .expect("render");
    assert_eq!(out.len(), scenes.len());
    out
}

pub fn render_one(r: &mut GpuRenderer, scene: &Scene) -> RenderedImage {
    render_with(r, std::slice::from_ref(scene), 1)
        .pop()
        .expect("one image")
}

/// How far an image may stray from its reference.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// A pixel differs when any channel differs by more than this.
    pub channel: u8,
    /// Largest share of differing pixels.
    pub max_differing: f64,
    /// Largest mean absolute channel difference, in 0..=255 units.
    pub max_mean: f64,
}

impl Tolerance {
    /// For the adapter that made the references (lavapipe) output is byte-identical;
    /// other adapters may round MSAA coverage and blending differently by a step or
    /// two on edge pixels, which this admits, while a shifted edge, a wrong colour or
    /// a missing glyph exceeds it.
    pub const SAME_RENDERER: Tolerance = Tolerance {
        channel: 24,
        max_differing: 0.002,
        max_mean: 0.15,
    };
}

/// Comparison figures of two equally sized images.
#[derive(Clone, Copy, Debug)]
pub struct Diff {
    pub differing: f64,
    pub mean: f64,
}

pub fn diff(a: &RenderedImage, b: &RenderedImage, channel: u8) -> Diff {
    assert_eq!(
        (a.width, a.height),
        (b.width, b.height),
        "image sizes differ"
    );
    let mut differing = 0usize;
    let mut sum = 0u64;
    for (p, q) in a.rgba.chunks_exact(4).zip(b.rgba.chunks_exact(4)) {
        let d = (0..4).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0);
        sum += (0..4).map(|k| p[k].abs_diff(q[k]) as u64).sum::<u64>();
        if d > channel {
            differing += 1;
        }
    }
    let n = (a.width * a.height) as f64;
    Diff {
        differing: differing as f64 / n,
        mean: sum as f64 / (n * 4.0),
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn output_dir() -> PathBuf {
    let dir = repo().join("target").join("test-output");
    std::fs::create_dir_all(&dir).expect("create target/test-output");
    dir
}

pub fn save_png(img: &RenderedImage, path: &std::path::Path) {
    let bytes = geomrender::output::encode_png(img).expect("encode");
    std::fs::write(path, bytes).expect("write png");
}

pub fn load_png(path: &std::path::Path, id: &str) -> RenderedImage {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    RenderedImage {
        id: id.to_string(),
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    }
}

/// Compares `actual` with `tests/reference/<name>.png` within `tol`; `name` may
/// contain a folder (`cpu/strokes`).
pub fn check_reference(name: &str, actual: &RenderedImage, tol: Tolerance) {
    let path = repo()
        .join("tests")
        .join("reference")
        .join(format!("{name}.png"));
    if std::env::var_os("GEOMRENDER_UPDATE_REFS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        save_png(actual, &path);
        eprintln!("updated {}", path.display());
        return;
    }
    assert!(
        path.exists(),
        "missing reference {}; run with GEOMRENDER_UPDATE_REFS=1 to create it",
        path.display()
    );
    let expected = load_png(&path, name);
    let sizes_match = (expected.width, expected.height) == (actual.width, actual.height);
    let d = sizes_match.then(|| diff(&expected, actual, tol.channel));
    let ok = d.is_some_and(|d| d.differing <= tol.max_differing && d.mean <= tol.max_mean);
    if !ok {
        let out = output_dir();
        let actual_path = out.join(format!("{name}.actual.png"));
        std::fs::create_dir_all(actual_path.parent().expect("a file path"))
            .expect("create the output folder");
        save_png(actual, &actual_path);
        if sizes_match {
            save_png(
                &diff_image(&expected, actual, tol.channel),
                &out.join(format!("{name}.diff.png")),
            );
        }
        panic!(
            "{name}: differs from its reference beyond {tol:?}: {d:?} (sizes {}x{} vs {}x{}); actual and diff written to {}",
            actual.width,
            actual.height,
            expected.width,
            expected.height,
            out.display()
        );
    }
}

/// Red where pixels differ by more than `channel`, a faded expected image elsewhere.
pub fn diff_image(expected: &RenderedImage, actual: &RenderedImage, channel: u8) -> RenderedImage {
    let rgba = expected
        .rgba
        .chunks_exact(4)
        .zip(actual.rgba.chunks_exact(4))
        .flat_map(|(p, q)| {
            let d = (0..4).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0);
            if d > channel {
                [255, 0, 0, 255]
            } else {
                let fade = |c: u8| 192 + c / 4;
                [fade(p[0]), fade(p[1]), fade(p[2]), 255]
            }
        })
        .collect();
    RenderedImage {
        id: "diff".into(),
        width: expected.width,
        height: expected.height,
        rgba,
    }
}

/// The pixel at (x, y).
pub fn pixel(img: &RenderedImage, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.width + x) * 4) as usize;
    [
        img.rgba[i],
        img.rgba[i + 1],
        img.rgba[i + 2],
        img.rgba[i + 3],
    ]
}

/// Bounding box (x0, y0, x1, y1), inclusive, of pixels for which `ink` holds.
pub fn ink_box(img: &RenderedImage, ink: impl Fn([u8; 4]) -> bool) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for y in 0..img.height {
        for x in 0..img.width {
            if ink(pixel(img, x, y)) {
                b = Some(match b {
                    None => (x, y, x, y),
                    Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                });
            }
        }
    }
    b
}

/// `n` generated problems (depths 1..=3, branch probability 0.3) for seed `seed`.
pub fn problems(n: u64, seed: u64) -> Vec<geomrender::generate::Problem> {
    let opts = geomrender::generate::GenerateOptions {
        seed,
        depth: 1..=3,
        branch_prob: 0.3,
        ..Default::default()
    };
    geomrender::generate::generate_range(&opts, 0, n)
        .into_iter()
        .map(|p| p.unwrap())
        .collect()
}
