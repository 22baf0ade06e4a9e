//! Reference-image tests, one scene per feature, on every backend.
//!
//! Each backend has its own references, in a folder named after it:
//! `tests/reference/gpu/<name>.png` (`--backend gpu`), `tests/reference/cpu/<name>.png`
//! (the direct CPU rasteriser, `--backend cpu`) and `tests/reference/resvg/<name>.png`
//! (`--backend resvg`), all held to `Tolerance::SAME_RENDERER`
//! (see `support/images.rs`), so that any change in either backend's output shows. One
//! shared reference would need a tolerance wide enough for the legitimate GPU/resvg
//! differences (edge anti-aliasing, whole-pixel glyph baselines: `over32` up to 1.5 %
//! here), and would then let either backend drift by a pixel unnoticed. Instead the
//! two renders of every scene are also compared with each other by the oracle
//! (`support/oracle.rs`, [`REFERENCE_LIMITS`]), so the two references cannot drift apart.
//! The rasteriser is compared with resvg by the same oracle, within the tighter
//! [`RASTER_REFERENCE_LIMITS`].
//! `GEOMRENDER_UPDATE_REFS=1 cargo test --features gpu,parquet --lib tests::reference` rewrites every set.

use crate::tests::support::cpu::{cpu, raster};
use crate::tests::support::frames::render_one;
use crate::tests::support::gpu::gpu_or_skip_part;
use crate::tests::support::images::{Tolerance, check_reference, write_triptych};
use crate::tests::support::oracle::{Limits, RASTER_REFERENCE_LIMITS, REFERENCE_LIMITS, compare};
use crate::tests::support::scenes::{fills_opacity, scene, text_sizes};
use geomrender::render::RenderedImage;
use geomrender::scene::Scene;

/// Compares `backend`'s render with resvg's by the oracle, within `limits`.
fn against_resvg(
    name: &str,
    backend: &str,
    img: &RenderedImage,
    resvg: &RenderedImage,
    limits: &Limits,
) {
    let f = compare(img, resvg);
    eprintln!("oracle {name} ({backend}): {f:?}");
    if !f.matches(limits) {
        let panel = write_triptych(img, resvg);
        panic!(
            "{name}: {backend} and resvg renders differ: {:?} beyond {limits:?} ({f:?}); resvg | diff | {backend} in {}",
            f.failures(limits),
            panel.display()
        );
    }
}

/// Checks every backend against its references, then against resvg.
fn check(name: &str, s: &Scene) {
    let cpu_img = cpu()
        .render(s)
        .unwrap_or_else(|e| panic!("{name}: cpu render: {e}"));
    check_reference(&format!("resvg/{name}"), &cpu_img, Tolerance::SAME_RENDERER);
    let raster_img = raster()
        .render(s)
        .unwrap_or_else(|e| panic!("{name}: raster render: {e}"));
    check_reference(
        &format!("cpu/{name}"),
        &raster_img,
        Tolerance::SAME_RENDERER,
    );
    against_resvg(
        name,
        "raster",
        &raster_img,
        &cpu_img,
        &RASTER_REFERENCE_LIMITS,
    );
    let Some(mut r) = gpu_or_skip_part("the GPU half; the CPU reference was checked") else {
        return;
    };
    let gpu_img = render_one(&mut r, s);
    drop(r);
    check_reference(&format!("gpu/{name}"), &gpu_img, Tolerance::SAME_RENDERER);
    against_resvg(name, "GPU", &gpu_img, &cpu_img, &REFERENCE_LIMITS);
}

#[test]
fn reference_fills_opacity() {
    check("fills_opacity", &fills_opacity());
}

#[test]
fn reference_evenodd_hole() {
    check(
        "evenodd_hole",
        &scene(
            r##"{"id":"evenodd_hole","width":260,"height":120,"background":"#ffffff","items":[
            {"type":"path","d":"M 10 10 H 110 V 110 H 10 Z M 35 35 H 85 V 85 H 35 Z","fill":"#4d80e6","fill_rule":"evenodd","stroke":"#000000","stroke_width":2},
            {"type":"path","d":"M 140 10 H 240 V 110 H 140 Z M 190 60 m -30 0 a 30 30 0 1 0 60 0 a 30 30 0 1 0 -60 0 Z","fill":"#e64d4d","fill_opacity":0.7,"fill_rule":"evenodd"}]}"##,
        ),
    );
}

#[test]
fn reference_strokes() {
    let mut items = Vec::new();
    let widths = [0.5, 1.0, 2.0, 4.0, 8.0];
    let joins = ["miter", "round", "bevel"];
    for (row, w) in widths.iter().enumerate() {
        for (col, j) in joins.iter().enumerate() {
            let (x, y) = (15 + col * 95, 20 + row * 45);
            items.push(format!(
                r##"{{"type":"path","d":"M {x} {} l 20 -25 l 20 25 l 20 -25","stroke":"#000000","stroke_width":{w},"line_join":"{j}"}}"##,
                y + 25
            ));
        }
    }
    let caps = ["butt", "round", "square"];
    for (k, c) in caps.iter().enumerate() {
        let y = 30 + k * 30;
        items.push(format!(
            r##"{{"type":"path","d":"M 310 {y} H 380","stroke":"#2050a0","stroke_width":8,"line_cap":"{c}"}}"##
        ));
    }
    items.push(r##"{"type":"path","d":"M 300 140 H 440","stroke":"#000000","stroke_width":2,"dash":[6,4]}"##.into());
    items.push(r##"{"type":"path","d":"M 300 160 H 440","stroke":"#000000","stroke_width":3,"dash":[0,6],"line_cap":"round"}"##.into());
    items.push(r##"{"type":"path","d":"M 300 180 H 440","stroke":"#c03030","stroke_width":2,"dash":[10,3,2,3],"dash_offset":5}"##.into());
    items.push(r##"{"type":"path","d":"M 300 200 L 360 230 L 440 200","stroke":"#000000","stroke_width":4,"dash":[12,6],"line_join":"round"}"##.into());
    let json = format!(
        r##"{{"id":"strokes","width":460,"height":250,"background":"#ffffff","items":[{}]}}"##,
        items.join(",")
    );
    check("strokes", &scene(&json));
}

#[test]
fn reference_arcs_and_circles() {
    check(
        "arcs",
        &scene(
            r##"{"id":"arcs","width":420,"height":140,"background":"#ffffff","items":[
            {"type":"path","d":"M 10 100 A 50 50 0 0 1 110 100 Z","fill":"#4db34d","fill_opacity":0.6,"stroke":"#000000","stroke_width":2},
            {"type":"path","d":"M 170 100 L 230 100 A 60 60 0 0 0 200 48.04 Z","fill":"#e6b333","stroke":"#000000","stroke_width":2,"line_join":"round"},
            {"type":"path","d":"M 250 70 a 40 40 0 1 0 80 0 a 40 40 0 1 0 -80 0 Z","fill":"#9966cc","fill_opacity":0.5,"stroke":"#000000","stroke_width":1.5},
            {"type":"path","d":"M 350 40 A 30 15 30 1 1 400 90","stroke":"#c03030","stroke_width":3,"line_cap":"round"},
            {"type":"path","d":"M 10 135 A 300 300 0 0 1 410 135","stroke":"#2050a0","stroke_width":1,"dash":[4,2]}]}"##,
        ),
    );
}

#[test]
fn reference_text_sizes() {
    check("text_sizes", &text_sizes());
}

#[test]
fn reference_text_anchors_and_baselines() {
    let mut items = Vec::new();
    for (col, anchor) in ["start", "middle", "end"].iter().enumerate() {
        for (row, baseline) in ["alphabetic", "central"].iter().enumerate() {
            let (x, y) = (90 + col * 150, 40 + row * 60);
            items.push(format!(
                r##"{{"type":"path","d":"M {} {y} h 20 M {x} {} v 20","stroke":"#e64d4d","stroke_width":1}}"##,
                x - 10,
                y - 10
            ));
            items.push(format!(
                r##"{{"type":"text","text":"Hxg 7","x":{x},"y":{y},"size":20,"anchor":"{anchor}","baseline":"{baseline}"}}"##
            ));
        }
    }
    let json = format!(
        r##"{{"id":"text_anchors","width":460,"height":140,"background":"#ffffff","items":[{}]}}"##,
        items.join(",")
    );
    check("text_anchors", &scene(&json));
}

#[test]
fn reference_greek_letters() {
    check(
        "greek",
        &scene(
            r##"{"id":"greek","width":420,"height":70,"background":"#ffffff","items":[
            {"type":"text","text":"αβγδεζηθικλμνξοπρστυφχψω","x":10,"y":28,"size":18},
            {"type":"text","text":"ΑΒΓΔΘΛΞΠΣΦΨΩ ∠ABC = 35° π ≈ 3.14","x":10,"y":58,"size":18,"color":"#2050a0"}]}"##,
        ),
    );
}

#[test]
fn reference_one_pixel_canvas() {
    check(
        "one_pixel",
        &scene(
            r##"{"id":"one_pixel","width":1,"height":1,"background":"#ffffff","items":[{"type":"path","d":"M 0 0 H 1 V 1 H 0 Z","fill":"#4d80e6","fill_opacity":0.5}]}"##,
        ),
    );
}

#[test]
fn reference_wide_canvas() {
    let mut items =
        vec![r##"{"type":"path","d":"M 0 0 H 8192 V 24 H 0 Z","fill":"#e6e6f0"}"##.to_string()];
    for k in 0..16 {
        let x = k * 512 + 8;
        items.push(format!(
            r##"{{"type":"path","d":"M {x} 4 h 480 v 16 h -480 Z","fill":"#4d80e6","fill_opacity":{},"stroke":"#000000"}}"##,
            (k + 1) as f32 / 16.0
        ));
        items.push(format!(r##"{{"type":"text","text":"tile {k}","x":{},"y":12,"size":12,"anchor":"middle","baseline":"central"}}"##, x + 240));
    }
    let json = format!(
        r##"{{"id":"wide_8192","width":8192,"height":24,"background":"#ffffff","items":[{}]}}"##,
        items.join(",")
    );
    check("wide_8192", &scene(&json));
}

#[test]
fn reference_transparent_background() {
    // No background: translucent paint keeps its alpha, written as RGBA.
    check(
        "transparent",
        &scene(
            r##"{"id":"transparent","width":120,"height":60,"items":[
            {"type":"path","d":"M 10 10 H 70 V 50 H 10 Z","fill":"#e64d4d","fill_opacity":0.5},
            {"type":"path","d":"M 50 10 H 110 V 50 H 50 Z","fill":"#4d80e680"},
            {"type":"text","text":"α","x":60,"y":30,"size":24,"anchor":"middle","baseline":"central","opacity":0.75}]}"##,
        ),
    );
}
