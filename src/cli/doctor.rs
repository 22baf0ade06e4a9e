//! `geomrender doctor`: which adapters exist, which one would be used and why.

use geomrender::render::gpu::{self, FrameBuilder, GpuOptions, GpuRenderer};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Skip the test render on the chosen adapter.
    #[arg(long)]
    no_render: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
    let Some(chosen) = report.chosen else {
        println!("would use: nothing — {}", report.reason);
        return Ok(ExitCode::from(2));
    };
    println!(
        "would use: [{chosen}] {} because {}",
        report.adapters[chosen].label(),
        report.reason
    );
    println!(
        "font: DejaVu Sans (embedded, {} bytes); no system fonts are loaded",
        geomrender::render::text::FONT_DATA.len()
    );
    if args.no_render {
        return Ok(ExitCode::SUCCESS);
    }
    let start = Instant::now();
    let mut renderer = GpuRenderer::new(GpuOptions::default())?;
    let scene = geomrender::scene::synthetic::diagram_scene(0, 256);
    let prepared = geomrender::render::prepare::prepare(&scene, Default::default())?;
    let mut frames = FrameBuilder::new((256, 256), 1);
    let frame = frames
        .push(prepared)
        .into_iter()
        .chain(frames.finish())
        .next()
        .expect("one frame");
    let images = renderer.render_frame(frame)?;
    let ink = images[0]
        .rgba
        .chunks_exact(4)
        .filter(|p| p[..3] != [255, 255, 255])
        .count();
    anyhow::ensure!(ink > 0, "the test render came back blank");
    println!(
        "test render: ok, 256×256 diagram in {:.0} ms on {} ({ink} inked pixels)",
        start.elapsed().as_secs_f64() * 1e3,
        renderer.adapter().label()
    );
    Ok(ExitCode::SUCCESS)
}
