//! Scene batches → pixels.
//!
//! Three backends share [`RenderedImage`]: `gpu` (the throughput path on a hardware
//! GPU) draws many prepared scenes per submission and reads them back, after
//! `prepare` did the CPU work (lyon tessellation in `tessellate`, text shaping in
//! `text`); `cpu` draws each Scene directly with tiny-skia and cached glyph masks
//! (`raster`); `resvg` renders each Scene's SVG with resvg, the trusted reference
//! the others are checked against (both CPU ones in `cpu`).
//!
//! ```text
//! backend     which backend draws (`auto` → hardware GPU, else the CPU rasteriser)
//! tessellate  lyon fills and strokes → meshes (GPU)
//! dash        SVG dashing, shared by the GPU and CPU paths
//! text        glyphon text shaping for the GPU path
//! prepare     a Scene → its meshes and glyph runs, ready for a GPU batch
//! gpu         the wgpu renderer (the `gpu` cargo feature, with `prepare` and `text`)
//! raster      the direct CPU rasteriser (the `cpu` backend)
//! cpu         the CPU backends: `cpu` (raster) and `resvg` (the reference)
//! spare       per-thread spare pixel buffers
//! alpha       premultiplied → straight alpha, shared by every backend
//! ```

mod alpha;
mod backend;
mod cpu;
mod dash;
#[cfg(feature = "gpu")]
pub mod gpu;
#[cfg(feature = "gpu")]
mod prepare;
mod raster;
pub(crate) mod spare;
mod tessellate;
#[cfg(feature = "gpu")]
mod text;

pub(crate) use backend::decide;
pub use backend::{BackendError, BackendKind, Decision, Requested};
pub(crate) use cpu::svg_options;
pub use cpu::{CpuError, CpuRenderer};
#[cfg(feature = "gpu")]
pub use prepare::{DrawOp, PreparedScene, prepare};
pub use raster::glyphs::{PlacedGlyph, layout as layout_glyphs};
pub use tessellate::{DEFAULT_TOLERANCE, Mesh, Paint, TessellateOptions, Tessellator, Vertex};
pub(crate) use tessellate::{MAX_TOLERANCE, MIN_TOLERANCE};
#[cfg(feature = "gpu")]
pub use text::ShapedText;
#[cfg(feature = "gpu")]
pub(crate) use text::font_system;
#[cfg(all(test, feature = "gpu"))]
pub(crate) use text::shape;

/// Gives `buf` (an image's pixels, no longer needed) to this thread's CPU
/// renderer, which draws its next image into it instead of a fresh megabyte: a run
/// does so with each image once it is encoded (`recycle(image.rgba)`), and the
/// Python package with its arrays' buffers when they are freed.
pub fn recycle(buf: Vec<u8>) {
    spare::give(buf);
}

/// A rendered image: straight-alpha sRGB RGBA8, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedImage {
    pub id: String,
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl RenderedImage {
    /// Whether every pixel is opaque (the image can be stored without alpha).
    #[cfg(test)]
    pub(crate) fn is_opaque(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| p[3] == 255)
    }
}
