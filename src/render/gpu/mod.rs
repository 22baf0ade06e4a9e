//! wgpu backend: headless device, batched tile rendering, readback.

mod context;
mod frame;
mod pack;
mod pipelines;
mod renderer;

pub use context::{AdapterReport, AdapterSummary, survey};
pub use frame::{Frame, FrameBuilder, Tile};
pub use pack::ShelfPacker;
pub use pipelines::{BlendSpace, PATH_SHADER};
pub use renderer::{GpuOptions, GpuRenderer};

/// Why the GPU backend failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter at all: neither a GPU driver nor a software one is installed.
    #[error(
        "no GPU adapter found. On a machine without a GPU install Mesa's software Vulkan driver \
         (Debian/Ubuntu: `apt-get install mesa-vulkan-drivers`), or use `--backend cpu`"
    )]
    NoAdapter,
    /// `WGPU_ADAPTER_NAME` matches no adapter.
    #[error("WGPU_ADAPTER_NAME={wanted:?} matches no adapter; available: {}", available.join(", "))]
    AdapterNotFound {
        wanted: String,
        available: Vec<String>,
    },
    /// The adapter refused to create a device.
    #[error("could not open the GPU device: {0}")]
    Device(String),
    /// wgpu reported a validation, out-of-memory or device-lost error.
    #[error("GPU error: {0}")]
    Wgpu(String),
    /// Text preparation failed (e.g. the glyph atlas is full).
    #[error("text rendering failed: {0}")]
    Text(String),
    /// `submit` was called with every frame slot in flight.
    #[error("two frames are already in flight; collect one first")]
    Busy,
}
