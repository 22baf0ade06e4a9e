//! Per-scene CPU raster time: the direct rasteriser (`--backend cpu`) against resvg
//! (`--backend resvg`) on the default sweep's diagrams (generated problems composed
//! in the base style), one thread, no encoding; and PNG encoding of the result.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use geomrender::compose::compose;
use geomrender::generate::{Annotation, GenerateOptions, generate_range};
use geomrender::render::CpuRenderer;
use geomrender::scene::Scene;
use std::hint::black_box;

fn diagrams(n: u64) -> Vec<Scene> {
    let opts = GenerateOptions {
        seed: 1,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    generate_range(&opts, 0, n)
        .into_iter()
        .map(|p| {
            let p = p.unwrap();
            compose(&p, &Default::default(), Annotation::Coordinate)
                .unwrap()
                .scene
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let scenes = diagrams(50);
    let mut group = c.benchmark_group("raster_50_diagrams");
    group.throughput(Throughput::Elements(scenes.len() as u64));
    for (name, r) in [
        ("cpu", CpuRenderer::raster()),
        ("resvg", CpuRenderer::resvg()),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for s in &scenes {
                    black_box(r.render(s).unwrap());
                }
            })
        });
    }
    group.finish();
    let images: Vec<_> = scenes
        .iter()
        .map(|s| CpuRenderer::raster().render(s).unwrap())
        .collect();
    let mut group = c.benchmark_group("png_50_diagrams");
    group.throughput(Throughput::Elements(images.len() as u64));
    group.bench_function("encode_png", |b| {
        b.iter(|| {
            for img in &images {
                black_box(geomrender::output::encode_png(img).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches_group, benches);
criterion_main!(benches_group);
