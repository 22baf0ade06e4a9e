//! Pixel checks against values computed independently of the renderer: blending
//! arithmetic, single coverage of translucent strokes, text placement from the
//! font's own metrics, paint order.

use crate::tests::support::frames::render_one;
use crate::tests::support::gpu::gpu_or_skip;
use crate::tests::support::images::{ink_box, pixel};
use crate::tests::support::scenes::scene;

#[test]
fn half_opacity_fill_blends_in_srgb_space_like_svg() {
    let Some(mut r) = gpu_or_skip() else { return };
    let img = render_one(
        &mut r,
        &scene(
            r##"{"id":"b","width":40,"height":40,"background":"#ffffff","items":[{"type":"path","d":"M 0 0 H 40 V 40 H 0 Z","fill":"#4d80e6","fill_opacity":0.5}]}"##,
        ),
    );
    // Alpha 0.5 → 128/255; sRGB-space blend over white: c·a + 255·(1−a).
    let a = 128.0 / 255.0;
    let expect = [0x4d, 0x80, 0xe6].map(|c: u8| c as f64 * a + 255.0 * (1.0 - a));
    let got = pixel(&img, 20, 20);
    for k in 0..3 {
        assert!(
            (got[k] as f64 - expect[k]).abs() <= 1.0,
            "channel {k}: {got:?} vs {expect:?}"
        );
    }
    // Blending in linear light would give about 193 for red; make sure we are far from it.
    assert!(got[0] < 180, "{got:?}");
    assert_eq!(got[3], 255);
}

#[test]
fn linear_blend_space_differs_as_expected() {
    // The opt-in linear-light mode exists to prove the resvg comparison catches it.
    if gpu_or_skip().is_none() {
        return;
    }
    use geomrender::render::gpu::{BlendSpace, GpuOptions, GpuRenderer};
    let mut r = GpuRenderer::new(GpuOptions {
        blend: BlendSpace::Linear,
        ..GpuOptions::default()
    })
    .unwrap();
    let img = render_one(
        &mut r,
        &scene(
            r##"{"id":"b","width":8,"height":8,"background":"#ffffff","items":[{"type":"path","d":"M 0 0 H 8 V 8 H 0 Z","fill":"#4d80e6","fill_opacity":0.5}]}"##,
        ),
    );
    // Linear light: ((77/255)^2.2-ish ≈ 0.074 · a + 1 · (1 − a)) → back to sRGB ≈ 193.
    let red = pixel(&img, 4, 4)[0] as i32;
    assert!((red - 193).abs() <= 2, "{red}");
}

#[test]
fn translucent_stroke_covers_its_own_overlaps_once() {
    let Some(mut r) = gpu_or_skip() else { return };
    let img = render_one(
        &mut r,
        &scene(
            r##"{"id":"x","width":100,"height":100,"background":"#ffffff","items":[
            {"type":"path","d":"M 10 10 L 90 90 L 90 10 L 10 90","stroke":"#000000","stroke_width":10,"stroke_opacity":0.5,"line_join":"round"},
            {"type":"path","d":"M 5 50 H 30 M 17 40 V 60","stroke":"#000000","stroke_width":6,"stroke_opacity":0.5}]}"##,
        ),
    );
    let single = pixel(&img, 30, 30); // on one diagonal only
    let crossing = pixel(&img, 50, 50); // where the diagonals cross
    let corner = pixel(&img, 90, 50); // on the right-hand vertical edge
    let cross2 = pixel(&img, 17, 50); // crossing of two subpaths of one path
    assert!(single[0] > 100 && single[0] < 160, "{single:?}");
    assert_eq!(crossing, single);
    assert_eq!(corner, single);
    assert_eq!(cross2, single);
}

#[test]
fn fill_and_stroke_are_separate_layers() {
    let Some(mut r) = gpu_or_skip() else { return };
    let img = render_one(
        &mut r,
        &scene(
            r##"{"id":"x","width":60,"height":60,"background":"#ffffff","items":[
            {"type":"path","d":"M 10 10 H 50 V 50 H 10 Z","fill":"#000000","fill_opacity":0.5,"stroke":"#000000","stroke_width":8,"stroke_opacity":0.5}]}"##,
        ),
    );
    let fill_only = pixel(&img, 30, 30)[0] as i32;
    let both = pixel(&img, 12, 30)[0] as i32; // inner half of the stroke lies over the fill
    let stroke_only = pixel(&img, 8, 30)[0] as i32;
    assert!(
        (fill_only - 127).abs() <= 1 && (stroke_only - 127).abs() <= 1,
        "{fill_only} {stroke_only}"
    );
    assert!((both - 64).abs() <= 2, "{both}");
}

#[test]
fn more_translucent_paints_than_stencil_values() {
    // 300 half-transparent paints, each two columns wide and overlapping the next by
    // one: every inner column must show exactly two layers, also after the 8-bit
    // stencil reference wraps around.
    let Some(mut r) = gpu_or_skip() else { return };
    let items: Vec<String> = (0..300)
        .map(|i| format!(r##"{{"type":"path","d":"M {i} 0 h 2 v 4 h -2 Z","fill":"#000000","fill_opacity":0.5}}"##))
        .collect();
    let json = format!(
        r##"{{"id":"many","width":301,"height":4,"background":"#ffffff","items":[{}]}}"##,
        items.join(",")
    );
    let img = render_one(&mut r, &scene(&json));
    let one = pixel(&img, 0, 2)[0];
    let two = pixel(&img, 1, 2)[0];
    assert!(
        (one as i32 - 127).abs() <= 1 && (two as i32 - 63).abs() <= 2,
        "{one} {two}"
    );
    for x in 1..300 {
        assert_eq!(
            pixel(&img, x, 2)[0],
            two,
            "column {x}: a paint is missing or doubled"
        );
    }
    assert_eq!(pixel(&img, 300, 2)[0], one);
}

#[test]
fn later_items_cover_earlier_text() {
    let Some(mut r) = gpu_or_skip() else { return };
    let img = render_one(
        &mut r,
        &scene(
            r##"{"id":"x","width":80,"height":40,"background":"#ffffff","items":[
            {"type":"text","text":"HIDE","x":4,"y":30,"size":24,"color":"#ff0000"},
            {"type":"path","d":"M 0 0 H 80 V 40 H 0 Z","fill":"#00ff00"},
            {"type":"text","text":"A","x":40,"y":20,"size":20,"anchor":"middle","baseline":"central"}]}"##,
        ),
    );
    assert!(
        img.rgba.chunks_exact(4).all(|p| p[0] < 128 || p[1] > 128),
        "red text shows through"
    );
    assert!(
        ink_box(&img, |p| p[1] < 100).is_some(),
        "the black A on top is missing"
    );
}

/// Glyph 'H' metrics read straight from the font file: (advance, x_min, x_max, y_max) in px.
fn glyph_h(size: f32) -> (f32, f32, f32, f32) {
    let face = ttf_parser::Face::parse(geomrender::font::FONT_DATA, 0).unwrap();
    let id = face.glyph_index('H').unwrap();
    let s = size / face.units_per_em() as f32;
    let bb = face.glyph_bounding_box(id).unwrap();
    (
        face.glyph_hor_advance(id).unwrap() as f32 * s,
        bb.x_min as f32 * s,
        bb.x_max as f32 * s,
        bb.y_max as f32 * s,
    )
}

#[test]
fn text_lands_where_anchor_and_baseline_say() {
    let Some(mut r) = gpu_or_skip() else { return };
    let size = 40.0;
    let (adv, x_min, x_max, cap) = glyph_h(size);
    let face = ttf_parser::Face::parse(geomrender::font::FONT_DATA, 0).unwrap();
    let central =
        (face.ascender() + face.descender()) as f32 / 2.0 * size / face.units_per_em() as f32;
    for (anchor, shift) in [("start", 0.0), ("middle", adv / 2.0), ("end", adv)] {
        for (baseline, down) in [("alphabetic", 0.0), ("central", central)] {
            let (x, y) = (100.0, 60.0);
            let s = scene(&format!(
                r##"{{"id":"t","width":200,"height":120,"background":"#ffffff","items":[{{"type":"text","text":"H","x":{x},"y":{y},"size":{size},"anchor":"{anchor}","baseline":"{baseline}"}}]}}"##
            ));
            let img = render_one(&mut r, &s);
            let (x0, y0, x1, y1) = ink_box(&img, |p| p[0] < 128).expect("ink");
            let left = x - shift + x_min;
            let right = x - shift + x_max;
            let base = y + down;
            let ctx = format!(
                "{anchor}/{baseline}: ink ({x0},{y0})-({x1},{y1}), expected x {left:.1}..{right:.1}, y {:.1}..{base:.1}",
                base - cap
            );
            assert!((x0 as f32 - left).abs() <= 1.0, "{ctx}");
            assert!((x1 as f32 + 1.0 - right).abs() <= 1.0, "{ctx}");
            assert!((y0 as f32 - (base - cap)).abs() <= 1.0, "{ctx}");
            assert!((y1 as f32 + 1.0 - base).abs() <= 1.0, "{ctx}");
        }
    }
}

#[test]
fn geometry_outside_the_canvas_is_clipped_to_it() {
    let Some(mut r) = gpu_or_skip() else { return };
    let img = render_one(
        &mut r,
        &scene(
            r##"{"id":"x","width":30,"height":20,"background":"#ffffff","items":[
            {"type":"path","d":"M -500 -500 H 500 V 500 H -500 Z","fill":"#102030"},
            {"type":"text","text":"WWWWWWWWWWWWW","x":-20,"y":15,"size":30,"color":"#ff0000"}]}"##,
        ),
    );
    assert_eq!((img.width, img.height), (30, 20));
    assert!(img.rgba.chunks_exact(4).all(|p| p[3] == 255));
}
