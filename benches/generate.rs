//! Problems per second: generation alone, and generation plus composing both annotation
//! styles (what `render` does before rasterising). Single-threaded, so the figures are
//! per core; `generate` scales with rayon across cores.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use geomrender::compose::compose;
use geomrender::generate::Annotation;
use geomrender::generate::{GenerateOptions, generate_one};
use geomrender::style::Style;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("generate");
    g.throughput(Throughput::Elements(1));
    for (name, opts) in [
        (
            "depth 1..3",
            GenerateOptions {
                depth: 1..=3,
                ..Default::default()
            },
        ),
        (
            "depth 4..6 branch 0.5",
            GenerateOptions {
                depth: 4..=6,
                branch_prob: 0.5,
                ..Default::default()
            },
        ),
    ] {
        let mut i = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                black_box(generate_one(&opts, i).ok())
            })
        });
    }
    let opts = GenerateOptions::default();
    let problems: Vec<_> = (0..256)
        .filter_map(|i| generate_one(&opts, i).ok())
        .collect();
    let style = Style::default();
    let mut k = 0usize;
    g.bench_function("compose both styles", |b| {
        b.iter(|| {
            k = (k + 1) % problems.len();
            for a in Annotation::ALL {
                black_box(compose(&problems[k], &style, a).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
