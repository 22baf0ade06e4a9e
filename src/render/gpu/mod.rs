//! wgpu backend: headless device, batched tile rendering, readback.
//!
//! ```text
//! context    headless adapter and device selection (wgpu's environment variables honoured)
//! options    the renderer's options (tiles, MSAA, target size)
//! pack       shelf packing of scene tiles into one render target, in input order
//! frame      a frame: packed tiles drawn in one pass
//! encode     the steps of encoding one frame: geometry, glyphs, draw calls
//! pipelines  render pipelines for paths, and the formats a pass shares
//! target     render target, resolve and readback buffers
//! ring       frames submitted while earlier ones are read back
//! renderer   the renderer: frames of tiled scenes → RGBA images
//! ```

mod context;
mod encode;
mod frame;
mod options;
mod pack;
mod pipelines;
mod renderer;
mod ring;
mod target;

pub use context::AdapterSummary;
pub(crate) use context::survey;
#[cfg(test)]
pub(crate) use frame::FrameBuilder;
pub use options::{GpuOptions, TargetSize};
pub use pipelines::BlendSpace;
#[cfg(test)]
pub(crate) use pipelines::PATH_SHADER;
pub(crate) use renderer::FRAMES_IN_FLIGHT;
pub use renderer::GpuRenderer;
pub use ring::{ImageSink, RingPhase};

/// Why the GPU backend failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter at all: neither a GPU driver nor a software one is installed.
    #[error(
        "no GPU adapter found. On a machine without a GPU install Mesa's software Vulkan driver \
         (Debian/Ubuntu: `apt-get install mesa-vulkan-drivers`), or use `--backend cpu`"
    )]
    NoAdapter,
    /// `WGPU_BACKEND` is set and selects no adapter.
    #[error(
        "WGPU_BACKEND={wanted:?} selects no GPU adapter: set it to backends this machine has \
         (vulkan, gl, metal, dx12; comma-separated) or unset it; without a GPU, Mesa's software \
         Vulkan driver (`apt-get install mesa-vulkan-drivers`) with WGPU_BACKEND=vulkan, or \
         `--backend cpu`"
    )]
    NoAdapterForBackend { wanted: String },
    /// `WGPU_ADAPTER_NAME` matches no adapter.
    #[error("WGPU_ADAPTER_NAME={wanted:?} matches no adapter; available: {}", available.join(", "))]
    AdapterNotFound {
        wanted: String,
        available: Vec<String>,
    },
    /// The adapter refused to create a device.
    #[error("could not open the GPU device: {0}")]
    Device(#[from] wgpu::RequestDeviceError),
    /// Waiting for a submission failed (device lost, timeout).
    #[error("waiting for the GPU: {0}")]
    Poll(#[from] wgpu::PollError),
    /// A readback buffer could not be mapped.
    #[error("reading back a frame: {0}")]
    Map(#[from] wgpu::BufferAsyncError),
    /// wgpu reported a validation, out-of-memory or device-lost error.
    /// Kept as its description: `wgpu::Error` is not `Sync`, and run errors cross
    /// threads and end in `anyhow`.
    #[error("GPU error: {0}")]
    Wgpu(String),
    /// Text preparation failed (e.g. the glyph atlas is full).
    #[error("text rendering failed: {0}")]
    Text(#[from] glyphon::PrepareError),
    /// Recording the text draws failed (glyphs evicted from the atlas).
    #[error("text rendering failed: {0}")]
    TextRender(#[from] glyphon::RenderError),
    /// A frame was submitted with `FRAMES_IN_FLIGHT` frames already in flight
    /// (the render loop collects one first, so this is a bug).
    #[error(
        "a frame was submitted with all {} frame slots in flight",
        FRAMES_IN_FLIGHT
    )]
    Busy,
}

impl GpuError {
    /// Whether the error belongs to the frame being drawn (its buffers, textures or
    /// glyphs), so that the same scenes in smaller frames may well succeed; false
    /// when the device itself failed and nothing more can be drawn.
    pub(crate) fn is_frame_local(&self) -> bool {
        match self {
            GpuError::Wgpu(message) => !message.to_lowercase().contains("lost"),
            GpuError::Text(_) | GpuError::TextRender(_) => true,
            GpuError::NoAdapter
            | GpuError::NoAdapterForBackend { .. }
            | GpuError::AdapterNotFound { .. }
            | GpuError::Device(_)
            | GpuError::Poll(_)
            | GpuError::Map(_)
            | GpuError::Busy => false,
        }
    }
}
