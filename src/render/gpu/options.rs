//! Options of the GPU renderer.

use super::pipelines::BlendSpace;

/// Options of the GPU renderer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuOptions {
    /// Largest render target scenes are tiled into. Targets are allocated to the
    /// frames' size up to this.
    pub target_size: TargetSize,
    /// Most scenes per frame.
    pub max_tiles: usize,
    /// Where colours blend; SVG semantics (sRGB) unless a test says otherwise.
    pub blend: BlendSpace,
}

impl GpuOptions {
    pub(crate) const DEFAULT_MAX_TILES: usize = 256;
    /// Frames up to this size share a cached target; larger ones (a single huge
    /// scene) get a target of their own that is freed afterwards.
    pub(crate) const MAX_CACHED_TARGET: u32 = 4096;
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            target_size: TargetSize::Auto,
            max_tiles: Self::DEFAULT_MAX_TILES,
            blend: BlendSpace::Srgb,
        }
    }
}

/// The largest frame scenes are tiled into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TargetSize {
    /// Let the renderer choose: `TargetSize::SOFTWARE` on software adapters,
    /// `TargetSize::HARDWARE` on GPUs.
    #[default]
    Auto,
    /// This many pixels (clamped to 1..=the device limit).
    Fixed { width: u32, height: u32 },
}

impl TargetSize {
    /// 512²: on lavapipe a submission costs about 0.3 ms while a 512² 4×MSAA scene
    /// costs about 3 ms of rasterisation, and larger targets lose more to cache
    /// misses than batching saves, so 512² scenes go one per frame and smaller
    /// ones are still batched (32² scenes: 2.1× faster batched). The criterion
    /// bench `render_batch` measures both sizes, one scene per submission against
    /// 2048² frames.
    pub(crate) const SOFTWARE: (u32, u32) = (512, 512);
    /// 4096² (sixty-four 512² scenes) amortises submission and readback on a GPU.
    pub(crate) const HARDWARE: (u32, u32) = (4096, 4096);

    /// A fixed `side`×`side` target.
    pub const fn square(side: u32) -> Self {
        TargetSize::Fixed {
            width: side,
            height: side,
        }
    }

    /// The size in pixels on an adapter that is `hardware` or not, whose
    /// textures are at most `max`×`max`.
    pub(super) fn resolve(self, hardware: bool, max: u32) -> (u32, u32) {
        let (width, height) = match (self, hardware) {
            (TargetSize::Fixed { width, height }, _) => (width, height),
            (TargetSize::Auto, true) => Self::HARDWARE,
            (TargetSize::Auto, false) => Self::SOFTWARE,
        };
        (width.clamp(1, max), height.clamp(1, max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_by_adapter_and_sizes_are_clamped() {
        assert_eq!(TargetSize::Auto.resolve(false, 8192), (512, 512));
        assert_eq!(TargetSize::Auto.resolve(true, 8192), (4096, 4096));
        assert_eq!(TargetSize::Auto.resolve(true, 2048), (2048, 2048));
        let odd = TargetSize::Fixed {
            width: 0,
            height: 9000,
        };
        assert_eq!(odd.resolve(false, 8192), (1, 8192));
    }
}
