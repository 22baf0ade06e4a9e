//! Images: pixels, diffs, PNG files, reference-image comparison and triptychs.
//!
//! Reference images live in `tests/reference/<backend>/<name>.png`, one folder per
//! backend (`gpu`, `cpu`, `resvg`). A mismatch writes
//! `target/test-output/<backend>/<name>.actual.png` and `<name>.diff.png` (differing
//! pixels in red over a faded copy of the expected image).
//! `GEOMRENDER_UPDATE_REFS=1 cargo test --features gpu,parquet --lib tests::reference` rewrites the references
//! from the current output.

use super::{output_dir, repo};
use geomrender::render::RenderedImage;
use std::path::{Path, PathBuf};

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

pub fn save_png(img: &RenderedImage, path: &Path) {
    let bytes = geomrender::output::encode(geomrender::style::Encoding::Png, img).expect("encode");
    std::fs::write(path, bytes).expect("write png");
}

pub fn load_png(path: &Path, id: &str) -> RenderedImage {
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

/// Compares `actual` with `tests/reference/<name>.png` within `tol`; `name` starts
/// with the backend's folder (`gpu/strokes`, `cpu/strokes`).
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

/// Writes resvg | diff | GPU side by side to `target/test-output/backends/<id>.png`.
pub fn write_triptych(gpu_img: &RenderedImage, cpu_img: &RenderedImage) -> PathBuf {
    let d = diff_image(cpu_img, gpu_img, 32);
    let (w, h) = (gpu_img.width as usize, gpu_img.height as usize);
    let mut rgba = Vec::with_capacity(w * 3 * h * 4);
    for y in 0..h {
        for img in [cpu_img, &d, gpu_img] {
            rgba.extend_from_slice(&img.rgba[y * w * 4..(y + 1) * w * 4]);
        }
    }
    let dir = output_dir().join("backends");
    std::fs::create_dir_all(&dir).expect("create target/test-output/backends");
    let path = dir.join(format!("{}.png", gpu_img.id));
    let panel = RenderedImage {
        id: gpu_img.id.clone(),
        width: (w * 3) as u32,
        height: h as u32,
        rgba,
    };
    save_png(&panel, &path);
    path
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
