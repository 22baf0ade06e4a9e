//! GPU rendering of 64 diagram-like scenes (prepared and read back to RGBA; no
//! encoding): tiled into 2048² frames (up to 256 tiles a submission) versus one
//! scene per submission on a renderer whose target is the scene's size (so it
//! clears and resolves only its own pixels). At 512² the pixel work dominates on a
//! software adapter; at 32² what remains is the per-submission cost. (The CLI's
//! default frame is 512² on software adapters and 4096² on GPUs, see TargetSize.)
//! On a machine without an adapter the bench says so and exits.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use geomrender::render::RenderedImage;
use geomrender::render::gpu::{GpuOptions, GpuRenderer, TargetSize};
use geomrender::render::prepare;
use geomrender::scene::synthetic::diagram_scene;
use std::hint::black_box;

/// Prepares every scene, then renders them packed by the renderer's options.
fn render(r: &mut GpuRenderer, scenes: &[geomrender::scene::Scene]) -> usize {
    let prepared: Vec<_> = scenes
        .iter()
        .map(|s| prepare(s, Default::default()).unwrap())
        .collect();
    let mut n = 0;
    r.render_scenes(prepared, |images: Vec<RenderedImage>| {
        n += black_box(images).len();
        true
    })
    .unwrap();
    n
}

fn benches(c: &mut Criterion) {
    for size in [512, 32] {
        let batched = GpuOptions {
            target_size: TargetSize::square(2048),
            ..GpuOptions::default()
        };
        let mut batched = match GpuRenderer::new(batched) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("render_batch: no GPU renderer ({e}); nothing to measure");
                return;
            }
        };
        let single = GpuOptions {
            target_size: TargetSize::square(size),
            max_tiles: 1,
            ..GpuOptions::default()
        };
        let mut single = GpuRenderer::new(single).expect("a second renderer on the same adapter");
        eprintln!(
            "render_batch on {}, frames of {:?}",
            batched.adapter().label(),
            batched.target_size()
        );
        let scenes: Vec<_> = (0..64).map(|i| diagram_scene(i, size)).collect();
        let mut group = c.benchmark_group(format!("render_{size}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(scenes.len() as u64));
        group.bench_function("batched", |b| {
            b.iter(|| assert_eq!(render(&mut batched, &scenes), 64))
        });
        group.bench_function("one_per_submission", |b| {
            b.iter(|| assert_eq!(render(&mut single, &scenes), 64))
        });
        group.finish();
    }
}

criterion_group!(render_batch, benches);
criterion_main!(render_batch);
