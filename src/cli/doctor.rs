//! `geomrender doctor`: which adapters exist, which one the GPU backend would use,
//! which backend `--backend auto` picks, and why; then a test render on each.

use crate::pipeline::{Backend, render_scene};
use crate::render::CpuRenderer;
#[cfg(feature = "gpu")]
use crate::render::gpu::{self, GpuOptions};
use crate::render::{BackendKind, Requested, decide};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Skip the test renders.
    #[arg(long)]
    no_render: bool,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let gpu = gpu_section();
    let auto = decide(Requested::Auto)?;
    let auto_name = match auto.kind {
        #[cfg(feature = "gpu")]
        BackendKind::Gpu => "gpu",
        BackendKind::Cpu => "cpu (direct rasteriser)",
        BackendKind::Resvg => "resvg",
    };
    println!(
        "--backend auto (the default) would use: {auto_name}, because {}",
        auto.reason
    );
    println!(
        "font: DejaVu Sans (embedded, {} bytes); no system fonts are loaded",
        crate::font::FONT_DATA.len()
    );
    if args.no_render {
        return Ok(if gpu.ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        });
    }
    let scene = crate::scene::synthetic::diagram_scene(0, 256);
    let mut ok = true;
    let mut backends: Vec<(&str, Option<Backend>)> = Vec::new();
    if gpu.built {
        backends.push(("gpu", gpu.backend));
    }
    backends.push(("cpu", Some(Backend::Cpu(Arc::new(CpuRenderer::raster())))));
    backends.push(("resvg", Some(Backend::Cpu(Arc::new(CpuRenderer::resvg())))));
    for (name, backend) in backends {
        let Some(backend) = backend else {
            println!("test render ({name}): skipped, no adapter");
            ok = false;
            continue;
        };
        let start = Instant::now();
        match render_scene(&backend, &scene) {
            Ok(img) => {
                let ink = img
                    .rgba
                    .chunks_exact(4)
                    .filter(|p| p[..3] != [255, 255, 255])
                    .count();
                let verdict = if ink > 0 { "ok" } else { "came back blank" };
                ok &= ink > 0;
                println!(
                    "test render ({name}): {verdict}, 256×256 diagram in {:.0} ms ({ink} inked pixels)",
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
            Err(e) => {
                ok = false;
                println!("test render ({name}): failed: {e}");
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// What `doctor` found of the GPU backend.
struct GpuSection {
    /// The binary has the `gpu` feature.
    built: bool,
    /// An adapter was chosen, or the binary has no GPU backend to find one for.
    ok: bool,
    /// The backend to test-render with, when an adapter was chosen.
    backend: Option<Backend>,
}

/// Prints the `WGPU_*` settings, the adapters, and which one `--backend gpu` would use.
#[cfg(feature = "gpu")]
fn gpu_section() -> GpuSection {
    for var in ["WGPU_BACKEND", "WGPU_ADAPTER_NAME", "WGPU_POWER_PREF"] {
        if let Ok(v) = std::env::var(var) {
            println!("{var}={v}");
        }
    }
    let report = gpu::survey();
    if report.adapters.is_empty() {
        println!("adapters: none");
    } else {
        println!("adapters:");
        for (i, a) in report.adapters.iter().enumerate() {
            let mark = if Some(i) == report.chosen { "*" } else { " " };
            let kind = if a.hardware { "hardware" } else { "software" };
            println!(
                "  {mark} [{i}] {} — {}, {} ({kind}), driver: {}",
                a.name, a.api, a.device_type, a.driver
            );
        }
    }
    match report.chosen {
        Some(i) => println!(
            "--backend gpu would use: [{i}] {} because {}",
            report.adapters[i].label(),
            report.reason
        ),
        None => println!("--backend gpu would use: nothing — {}", report.reason),
    }
    GpuSection {
        built: true,
        ok: report.chosen.is_some(),
        backend: report.chosen.map(|_| Backend::Gpu(GpuOptions::default())),
    }
}

/// Says that this binary has no GPU backend, and how to build one that has.
#[cfg(not(feature = "gpu"))]
fn gpu_section() -> GpuSection {
    println!(
        "gpu: not in this binary (built without the `gpu` cargo feature); \
         `cargo build --release --features gpu` adds the wgpu backend"
    );
    GpuSection {
        built: false,
        ok: true,
        backend: None,
    }
}
