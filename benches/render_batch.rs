//! GPU rendering of 64 diagram-like 512×512 scenes (prepared beforehand, read
//! back to RGBA; no encoding): all in 2048² frames of 16 tiles versus one scene
//! per submission. On a machine without an adapter the bench says so and exits.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use geomrender::render::gpu::{FrameBuilder, GpuOptions, GpuRenderer};
use geomrender::render::prepare::prepare;
use geomrender::scene::synthetic::diagram_scene;
use std::hint::black_box;

fn render(r: &mut GpuRenderer, scenes: &[geomrender::scene::Scene], max_tiles: usize) -> usize {
    let mut builder = FrameBuilder::new(r.options().target_size, max_tiles);
    let mut n = 0;
    let mut frames = Vec::new();
    for s in scenes {
        frames.extend(builder.push(prepare(s, Default::default()).unwrap()));
    }
    frames.extend(builder.finish());
    for frame in frames {
        if r.in_flight() == 2 {
            n += r.collect().unwrap().unwrap().len();
        }
        r.submit(frame).unwrap();
    }
    while let Some(images) = r.collect() {
        n += black_box(images.unwrap()).len();
    }
    n
}

fn benches(c: &mut Criterion) {
    let mut r = match GpuRenderer::new(GpuOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("render_batch: no GPU renderer ({e}); nothing to measure");
            return;
        }
    };
    eprintln!("render_batch on {}", r.adapter().label());
    let scenes: Vec<_> = (0..64).map(|i| diagram_scene(i, 512)).collect();
    let mut group = c.benchmark_group("render_512");
    group.sample_size(10);
    group.throughput(Throughput::Elements(scenes.len() as u64));
    group.bench_function("batched_16_per_frame", |b| {
        b.iter(|| assert_eq!(render(&mut r, &scenes, 256), 64))
    });
    group.bench_function("one_per_submission", |b| {
        b.iter(|| assert_eq!(render(&mut r, &scenes, 1), 64))
    });
    group.finish();
}

criterion_group!(render_batch, benches);
criterion_main!(render_batch);
