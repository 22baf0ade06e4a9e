//! Scenes through the GPU renderer's frames (tiles, batches) as a run draws them:
//! the renderer's crate-private frame builder, for the tests of batching and pixels.

use geomrender::render::RenderedImage;
use geomrender::render::gpu::{FrameBuilder, GpuRenderer};
use geomrender::render::prepare;
use geomrender::scene::Scene;

/// Renders `scenes` on `r` with up to `max_tiles` per frame (1 = each scene alone),
/// in input order.
pub(crate) fn render_gpu(
    r: &mut GpuRenderer,
    scenes: &[Scene],
    max_tiles: usize,
) -> Vec<RenderedImage> {
    let prepared = scenes.iter().map(|s| {
        geomrender::scene::validate(s).expect("test scenes are valid");
        prepare(s, Default::default()).expect("prepare")
    });
    let frames = FrameBuilder::new(r.target_size(), max_tiles).frames(prepared);
    let mut out = Vec::new();
    r.render_frames(frames, |images: Vec<RenderedImage>| {
        out.extend(images);
        true
    })
    .expect("render");
    assert_eq!(out.len(), scenes.len());
    out
}

/// Renders one scene alone on `r`.
pub(crate) fn render_one(r: &mut GpuRenderer, scene: &Scene) -> RenderedImage {
    render_gpu(r, std::slice::from_ref(scene), 1)
        .pop()
        .expect("one image")
}
