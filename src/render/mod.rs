//! Scene batches → pixels.
//!
//! Two backends share [`RenderedImage`]: `gpu` (the throughput path) draws many
//! prepared scenes per submission and reads them back, after `prepare` did the CPU
//! work (lyon tessellation in `tessellate`, text shaping in `text`); `cpu` renders
//! each Scene's SVG with resvg, the trusted reference the GPU output is checked against.

pub mod alpha;
pub mod backend;
pub mod cpu;
pub mod dash;
pub mod gpu;
pub mod prepare;
pub mod tessellate;
pub mod text;

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
