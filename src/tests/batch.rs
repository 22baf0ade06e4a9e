//! Batching must not change pixels: every scene of a large mixed batch equals its
//! render alone, byte for byte, whatever tile it lands on.

use crate::tests::support::frames::render_gpu;
use crate::tests::support::gpu::gpu_or_skip;
use crate::tests::support::images::diff;
use crate::tests::support::scenes::{fills_opacity, scene, text_sizes};
use geomrender::render::gpu::FrameBuilder;
use geomrender::render::prepare;
use geomrender::scene::Scene;
use geomrender::scene::synthetic::diagram_scene;

fn mixed_scenes() -> Vec<Scene> {
    let mut scenes: Vec<Scene> = (0..48).map(|i| diagram_scene(i, 512)).collect();
    for i in 0..12 {
        let mut s = diagram_scene(100 + i, 300);
        s.id = format!("small-{i}");
        s.height = 200;
        scenes.push(s);
    }
    for i in 0..6 {
        let mut s = diagram_scene(200 + i, 64);
        s.id = format!("tiny-{i}");
        scenes.push(s);
    }
    scenes.push(fills_opacity());
    scenes.push(text_sizes());
    scenes.push(scene(r##"{"id":"dot","width":1,"height":1,"background":"#ffffff","items":[{"type":"path","d":"M 0 0 H 1 V 1 H 0 Z","fill":"#4d80e6","fill_opacity":0.5}]}"##));
    // Paint and text far beyond the canvas must not reach neighbouring tiles.
    scenes.push(scene(r##"{"id":"spill","width":50,"height":50,"background":"#ffffff","items":[
        {"type":"path","d":"M -3000 -3000 H 3000 V 3000 H -3000 Z","fill":"#ff00ff","fill_opacity":0.5},
        {"type":"text","text":"WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW","x":-40,"y":45,"size":48}]}"##));
    // Transparent background (straight alpha after readback).
    scenes.push(scene(r##"{"id":"clear","width":40,"height":40,"items":[{"type":"path","d":"M 5 5 H 35 V 35 Z","fill":"#e64d4d","fill_opacity":0.4}]}"##));
    scenes
}

#[test]
fn every_image_of_a_batch_equals_its_render_alone() {
    let Some(mut r) = gpu_or_skip() else { return };
    let scenes = mixed_scenes();
    assert!(scenes.len() >= 64);
    let alone = render_gpu(&mut r, &scenes, 1);
    let batched = render_gpu(&mut r, &scenes, 256);
    for (a, b) in alone.iter().zip(&batched) {
        assert_eq!(a.id, b.id);
        if a != b {
            let d = diff(a, b, 0);
            panic!(
                "{}: batched image differs from its render alone: {d:?}",
                a.id
            );
        }
    }
}

#[test]
fn tile_positions_do_not_matter() {
    let Some(mut r) = gpu_or_skip() else { return };
    let scenes = mixed_scenes();
    let reference = render_gpu(&mut r, &scenes, 256);
    // Another frame size moves every tile; a reversed order moves them again.
    let prepared = scenes
        .iter()
        .rev()
        .map(|s| prepare(s, Default::default()).unwrap());
    let frames: Vec<_> = FrameBuilder::new((1024, 1536), 256)
        .frames(prepared)
        .collect();
    assert!(frames.len() > 2, "the test needs several frames");
    // Frames in flight overlap as in the pipeline.
    let mut images = Vec::new();
    r.render_frames(frames, |batch: Vec<_>| {
        images.extend(batch);
        true
    })
    .unwrap();
    images.reverse();
    assert_eq!(images.len(), reference.len());
    for (a, b) in reference.iter().zip(&images) {
        assert_eq!(a.id, b.id);
        assert!(
            a == b,
            "{}: image depends on its tile position: {:?}",
            a.id,
            diff(a, b, 0)
        );
    }
}
