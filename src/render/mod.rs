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

pub use backend::{BackendKind, Decision, Requested, decide};
pub use cpu::{CpuError, CpuRenderer};
#[cfg(feature = "gpu")]
pub use prepare::{PreparedScene, prepare};
pub use raster::{PlacedGlyph, layout_glyphs};
pub use tessellate::{
    DEFAULT_TOLERANCE, MAX_TOLERANCE, MIN_TOLERANCE, Mesh, TessellateOptions, Tessellator,
};
#[cfg(feature = "gpu")]
pub use text::{font_system, shape};

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
    pub fn is_opaque(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| p[3] == 255)
    }
}
