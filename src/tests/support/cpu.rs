//! The shared CPU renderers: resvg (the reference) and the direct rasteriser. They
//! need no device, so CPU tests never skip.

use geomrender::render::CpuRenderer;
use geomrender::render::RenderedImage;
use geomrender::scene::Scene;
use rayon::prelude::*;
use std::sync::OnceLock;

/// The shared CPU (resvg) renderer.
pub(crate) fn cpu() -> &'static CpuRenderer {
    static CPU: OnceLock<CpuRenderer> = OnceLock::new();
    CPU.get_or_init(CpuRenderer::resvg)
}

/// Renders `scenes` with resvg, in parallel, in input order.
pub(crate) fn render_cpu(scenes: &[Scene]) -> Vec<RenderedImage> {
    scenes
        .par_iter()
        .map(|s| {
            cpu()
                .render(s)
                .unwrap_or_else(|e| panic!("cpu render of {}: {e}", s.id))
        })
        .collect()
}

/// The shared direct CPU rasteriser (`--backend cpu`).
pub(crate) fn raster() -> &'static CpuRenderer {
    static RASTER: OnceLock<CpuRenderer> = OnceLock::new();
    RASTER.get_or_init(CpuRenderer::raster)
}

/// Renders `scenes` with the direct rasteriser, in parallel, in input order.
pub(crate) fn render_raster(scenes: &[Scene]) -> Vec<RenderedImage> {
    scenes
        .par_iter()
        .map(|s| {
            raster()
                .render(s)
                .unwrap_or_else(|e| panic!("raster render of {}: {e}", s.id))
        })
        .collect()
}
