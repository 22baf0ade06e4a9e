//! CPU preparation of diagram-like 512×512 scenes: lyon tessellation alone, and
//! the whole prepare step (tessellation + text shaping + NDC conversion).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use geomrender::render::prepare;
use geomrender::render::{Mesh, TessellateOptions, Tessellator};
use geomrender::scene::Item;
use geomrender::scene::synthetic::diagram_scene;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let scenes: Vec<_> = (0..64).map(|i| diagram_scene(i, 512)).collect();
    let mut group = c.benchmark_group("prepare");
    group.throughput(Throughput::Elements(scenes.len() as u64));
    group.bench_function("tessellate_paths_64_scenes", |b| {
        let mut tess = Tessellator::default();
        b.iter(|| {
            for s in &scenes {
                let mut mesh = Mesh::default();
                for item in &s.items {
                    if let Item::Path(p) = item {
                        black_box(
                            tess.tessellate_path(p, TessellateOptions::default(), &mut mesh)
                                .unwrap(),
                        );
                    }
                }
                black_box(&mesh);
            }
        })
    });
    group.bench_function("prepare_64_scenes", |b| {
        b.iter(|| {
            for s in &scenes {
                black_box(prepare(s, TessellateOptions::default()).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(tessellate, benches);
criterion_main!(tessellate);
