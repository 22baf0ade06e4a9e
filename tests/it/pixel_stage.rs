//! The pixel stage (issue 45), proven by `blur`: the same blur after the CPU and
//! the GPU backend, the image's mean kept and its gradients lowered, `audit`
//! passing the run and catching a variant that is not its base through the stage,
//! and runs that cannot show it refusing it.

use crate::support::cli::{bin, manifest, run};
use crate::support::gpu::gpu_or_skip;
use crate::support::images::load_png;
use crate::support::oracle::{Limits, compare};
use geomrender::render::RenderedImage;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// As `backends.rs` holds the GPU to resvg on diagrams; a blur only narrows it.
const LIMITS: Limits = Limits {
    over32: 0.01,
    blurred_over: 0.001,
    blurred_max: 48.0,
    blurred_mean: 0.25,
};

fn problems(tmp: &Path) -> PathBuf {
    let p = tmp.join("p.jsonl");
    let g = run(bin()
        .args(["generate", "--seed", "45", "--count", "4", "--out"])
        .arg(&p));
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    p
}

/// `render` of `problems` with `--variants blur=1,3` on `backend` into `tmp/<backend>`.
fn blur_run(tmp: &Path, problems: &Path, backend: &str) -> PathBuf {
    let dir = tmp.join(backend);
    let r = run(bin()
        .arg("render")
        .arg(problems)
        .args([
            "--variants",
            "blur=1,3",
            "--backend",
            backend,
            "-q",
            "--out",
        ])
        .arg(&dir));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    dir
}

fn image(dir: &Path, row: &Value) -> RenderedImage {
    let id = row["id"].as_str().unwrap();
    load_png(&dir.join(row["image"].as_str().unwrap()), id)
}

fn mean(img: &RenderedImage, channel: usize) -> f64 {
    let sum: u64 = img
        .rgba
        .chunks_exact(4)
        .map(|p| u64::from(p[channel]))
        .sum();
    sum as f64 / f64::from(img.width * img.height)
}

/// Sum of |difference| between horizontal and vertical neighbours, all channels.
fn gradient(img: &RenderedImage) -> u64 {
    let (w, h) = (img.width as usize, img.height as usize);
    let px = |x: usize, y: usize| &img.rgba[(y * w + x) * 4..(y * w + x) * 4 + 3];
    let mut total = 0u64;
    for y in 0..h - 1 {
        for x in 0..w - 1 {
            let (p, r, d) = (px(x, y), px(x + 1, y), px(x, y + 1));
            for c in 0..3 {
                total += u64::from(p[c].abs_diff(r[c])) + u64::from(p[c].abs_diff(d[c]));
            }
        }
    }
    total
}

/// Each problem's images by variant: base, blur=1, blur=3.
fn by_base(dir: &Path) -> Vec<[RenderedImage; 3]> {
    let rows = manifest(dir);
    assert_eq!(rows.len(), 4 * 3);
    rows.chunks(3)
        .map(|r| {
            assert_eq!(r[0]["variant"], serde_json::json!({}));
            assert_eq!(r[1]["variant"], serde_json::json!({"blur": 1}));
            assert_eq!(r[2]["variant"], serde_json::json!({"blur": 3}));
            [image(dir, &r[0]), image(dir, &r[1]), image(dir, &r[2])]
        })
        .collect()
}

#[test]
fn blur_keeps_the_mean_lowers_the_gradients_and_passes_the_audit() {
    let tmp = tempfile::tempdir().unwrap();
    let p = problems(tmp.path());
    let dir = blur_run(tmp.path(), &p, "cpu");
    for [base, one, three] in by_base(&dir) {
        for c in 0..3 {
            let (m0, m1, m3) = (mean(&base, c), mean(&one, c), mean(&three, c));
            assert!(
                (m0 - m1).abs() < 0.5 && (m0 - m3).abs() < 0.5,
                "{}: channel {c} mean {m0} → {m1}, {m3}",
                base.id
            );
        }
        let (g0, g1, g3) = (gradient(&base), gradient(&one), gradient(&three));
        assert!(
            g1 < g0 && g3 < g1,
            "{}: gradients {g0} → {g1} → {g3}",
            base.id
        );
    }
    let a = run(bin().arg("audit").arg(&dir).arg("--problems").arg(&p));
    let err = String::from_utf8_lossy(&a.stderr);
    assert!(a.status.success(), "{err}");
    assert!(err.contains("0 flagged, 0 lines not audited"), "{err}");
    let audited: Vec<Value> = std::fs::read_to_string(dir.join("audit.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(audited.len(), 8);
    for row in &audited {
        assert_eq!(row["changes"], serde_json::json!({"pixels": 1}), "{row}");
    }
}

/// The stage runs after any backend the same way: a blurred GPU image is the
/// blurred CPU image within the GPU-vs-reference limits.
#[test]
fn blur_agrees_between_the_cpu_and_the_gpu() {
    if gpu_or_skip().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let p = problems(tmp.path());
    let (cpu, gpu) = (
        blur_run(tmp.path(), &p, "cpu"),
        blur_run(tmp.path(), &p, "gpu"),
    );
    for (c, g) in by_base(&cpu).iter().zip(by_base(&gpu)) {
        for (a, b) in c.iter().zip(&g) {
            let f = compare(a, b);
            assert!(f.matches(&LIMITS), "{}: {f:?} beyond {LIMITS:?}", a.id);
        }
    }
    let a = run(bin().arg("audit").arg(&gpu).arg("--problems").arg(&p));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
}

/// A variant whose PNG is not its base's through the stage (here blur=3's image
/// under blur=1's row, its recorded hash updated to match) is not passed.
#[test]
fn the_audit_recomputes_the_stage_from_the_base() {
    let tmp = tempfile::tempdir().unwrap();
    let p = problems(tmp.path());
    let dir = blur_run(tmp.path(), &p, "cpu");
    let mut rows = manifest(&dir);
    let (one, three) = (rows[1].clone(), rows[2].clone());
    std::fs::copy(
        dir.join(three["image"].as_str().unwrap()),
        dir.join(one["image"].as_str().unwrap()),
    )
    .unwrap();
    rows[1]["sha256"] = three["sha256"].clone();
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join("manifest.jsonl"), text).unwrap();
    let a = run(bin().arg("audit").arg(&dir).arg("--problems").arg(&p));
    assert_eq!(a.status.code(), Some(1));
    let err = String::from_utf8_lossy(&a.stderr);
    assert!(
        err.contains("its pixels are not its base's through the pixel stage"),
        "{err}"
    );
    assert!(err.contains(one["id"].as_str().unwrap()), "{err}");
}

/// An SVG-only run has no pixels to change: `blur` (and `jpeg`) are refused there
/// before any work, and a bare Scene takes `blur` as a problem does.
#[test]
fn svg_only_runs_refuse_pixel_axes_and_scenes_take_them() {
    let tmp = tempfile::tempdir().unwrap();
    let p = problems(tmp.path());
    for spec in ["blur=2", "jpeg=50"] {
        let out = tmp.path().join("svg");
        let r = run(bin()
            .arg("render")
            .arg(&p)
            .args(["--variants", spec, "--format", "svg", "-q", "--out"])
            .arg(&out));
        assert!(!r.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains("add --format png"), "{spec}: {err}");
        assert!(!out.join("manifest.jsonl").exists());
    }
    let scenes = crate::support::cli::examples();
    let out = tmp.path().join("scenes");
    let r = run(bin()
        .arg("render")
        .arg(&scenes)
        .args(["--variants", "blur=2", "--backend", "cpu", "-q", "--out"])
        .arg(&out));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let rows = manifest(&out);
    let blurred: Vec<&Value> = rows
        .iter()
        .filter(|r| r["variant"] == serde_json::json!({"blur": 2}))
        .collect();
    assert!(!blurred.is_empty() && blurred.len() * 2 == rows.len());
}
