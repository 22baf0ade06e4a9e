//! The pixel stage: what a variant does to the rendered pixels, after the raster
//! and before the encoder, the same way on every backend (the GPU's image is read
//! back first). An axis joins it with a [`super::AxisDef::pixels`] hook.
//!
//! The stage runs on the RGBA image in memory; the drawing (the Scene, and so the
//! SVG file) is the base's. Its random steps (noise, `photo`'s tilt) draw from the
//! image's own seed, [`pixel_seed`] of its id, so an image has the same bytes
//! whatever the thread, batch or shard, and `audit` can redo the stage from the files. `geomrender audit` sees such a variant as "the drawing
//! is equal, the pixels differ" ([`super::Change::Pixels`]).

use super::{AxisValue, Setting, Variant};

/// A mutable view of a rendered image: straight (not premultiplied) RGBA, row by
/// row, exactly `width * height * 4` bytes.
pub struct Canvas<'a> {
    width: u32,
    height: u32,
    rgba: &'a mut [u8],
    seed: u64,
}

impl<'a> Canvas<'a> {
    /// The view of `rgba` as a `width` × `height` image whose random steps draw
    /// from `seed`, or `None` when it is not `width * height * 4` bytes.
    pub(crate) fn new(
        width: u32,
        height: u32,
        rgba: &'a mut [u8],
        seed: u64,
    ) -> Option<Canvas<'a>> {
        let len = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?;
        (rgba.len() == len).then_some(Canvas {
            width,
            height,
            rgba,
            seed,
        })
    }

    pub(crate) fn width(&self) -> u32 {
        self.width
    }

    pub(crate) fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, `width * height * 4` bytes.
    pub(crate) fn rgba(&mut self) -> &mut [u8] {
        self.rgba
    }

    /// The image's seed ([`pixel_seed`] of its id); a step mixes in its own.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }
}

/// The seed of an image's random pixel steps: FNV-1a (64 bit) of its id, so that
/// it follows from the manifest row alone.
pub(crate) fn pixel_seed(id: &str) -> u64 {
    crate::digest::fnv1a64(id)
}

/// A pixel-stage hook: changes the pixels of `canvas` as the axis's value says.
pub type PixelHook = fn(Setting, &mut Canvas<'_>);

/// The pixel-stage steps of one variant, in the order its axes' hooks run
/// (empty for every image that is only drawn).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pixels(Vec<AxisValue>);

impl Pixels {
    /// The steps `variant` asks for: its settings of axes with a pixel hook.
    pub fn of(variant: &Variant) -> Pixels {
        // In hook order (stable: equal orders keep SPEC order), as every hook runs.
        let mut steps: Vec<AxisValue> = (variant.settings.iter().copied())
            .filter(|v| v.axis().pixels.is_some())
            .collect();
        steps.sort_by_key(|v| v.axis().order);
        Pixels(steps)
    }

    /// No step: the pixels are the raster's.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the steps leave every image of `scene` as the raster drew it
    /// (none, or only steps that keep this drawing's pixels).
    pub(crate) fn keep(&self, scene: &crate::scene::Scene) -> bool {
        self.0.iter().all(|v| v.keeps_pixels_of(scene))
    }

    /// Runs every step on the `width` × `height` RGBA buffer of image `id`, in
    /// order; a buffer of another length (no renderer makes one) is left as it is.
    pub(crate) fn apply_rgba(&self, id: &str, width: u32, height: u32, rgba: &mut [u8]) {
        if self.is_empty() {
            return;
        }
        if let Some(mut canvas) = Canvas::new(width, height, rgba, pixel_seed(id)) {
            self.apply(&mut canvas);
        }
    }

    /// Runs every step on `canvas`, in order.
    pub(crate) fn apply(&self, canvas: &mut Canvas<'_>) {
        for step in &self.0 {
            if let Some(hook) = step.axis().pixels {
                hook(step.setting(), canvas);
            }
        }
    }
}
