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
    // The same images through the `png` crate at its fastest setting (fdeflate,
    // fixed Huffman codes, zero runs only) with the `Up` filter, from RGB
    // buffers made beforehand: the encoder this crate used before its own.
    let rgb: Vec<Vec<u8>> = images
        .iter()
        .map(|img| {
            img.rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect()
        })
        .collect();
    let png_crate = |img: &geomrender::render::RenderedImage, rgb: &[u8]| {
        use image::ImageEncoder;
        use image::codecs::png::{CompressionType, FilterType, PngEncoder};
        let mut out = Vec::new();
        PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Up)
            .write_image(rgb, img.width, img.height, image::ExtendedColorType::Rgb8)
            .unwrap();
        out
    };
    let ours: usize = images
        .iter()
        .map(|img| {
            geomrender::output::encode(geomrender::style::Encoding::Png, img)
                .unwrap()
                .len()
        })
        .sum();
    let theirs: usize = images
        .iter()
        .zip(&rgb)
        .map(|(i, r)| png_crate(i, r).len())
        .sum();
    eprintln!(
        "png_50_diagrams: encode_png {ours} bytes, png_crate_fast_up {theirs} bytes ({:.3})",
        ours as f64 / theirs as f64
    );
    let mut group = c.benchmark_group("png_50_diagrams");
    group.throughput(Throughput::Elements(images.len() as u64));
    group.bench_function("encode_png", |b| {
        b.iter(|| {
            for img in &images {
                black_box(
                    geomrender::output::encode(geomrender::style::Encoding::Png, img).unwrap(),
                );
            }
        })
    });
    group.bench_function("png_crate_fast_up", |b| {
        b.iter(|| {
            for (img, rgb) in images.iter().zip(&rgb) {
                black_box(png_crate(img, rgb));
            }
        })
    });
    group.finish();
}

criterion_group!(benches_group, benches);
criterion_main!(benches_group);
