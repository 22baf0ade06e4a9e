//! The direct CPU rasteriser: Scene → pixels with no SVG round trip.
//!
//! The background is one fill of the buffer; paths are filled and stroked by
//! tiny-skia (analytic anti-aliasing, the rasteriser resvg itself uses, so paths
//! come out as resvg draws the Scene's SVG); text is blended from glyph coverage
//! masks cached per (glyph, size, eighth-pixel phase) and shared by all threads
//! (`glyphs`). Blending is source-over in sRGB on premultiplied pixels, as resvg;
//! an opaque background skips the un-premultiply pass (every pixel stays opaque).
//!
//! ```text
//! paths     fills and strokes: their coverage, blended in the item's colours
//! coverage  a path's coverage from tiny-skia's scan converter, as runs
//! reuse     coverage kept per thread for the next images of the same geometry
//! glyphs    glyph coverage masks, shaped with harfrust, cached and shared
//! blend     source-over blending of masks on premultiplied pixels
//! ```

mod blend;
mod coverage;
pub(super) mod glyphs;
mod paths;
mod reuse;

use crate::render::RenderedImage;
use crate::render::alpha::straight_image;
use crate::scene::{Item, Scene, SceneError};
use resvg::tiny_skia::{Color, IntSize, Pixmap};

/// Why the direct rasteriser could not draw a scene.
#[derive(Debug, thiserror::Error)]
pub(super) enum RasterError {
    #[error(transparent)]
    Scene(#[from] SceneError),
    #[error("scene {id:?}: cannot allocate a {width}x{height} canvas")]
    Canvas { id: String, width: u32, height: u32 },
}

/// Draws validated Scenes; shared by all rayon workers (`&self`, glyph cache inside).
#[derive(Default)]
pub(super) struct Rasterizer {
    glyphs: glyphs::GlyphCache,
}

impl Rasterizer {
    /// Renders a scene that passed [`crate::scene::validate`] into straight-alpha RGBA8.
    pub(super) fn render(&self, scene: &Scene) -> Result<RenderedImage, RasterError> {
        let canvas = || RasterError::Canvas {
            id: scene.id.clone(),
            width: scene.width,
            height: scene.height,
        };
        let opaque = scene.background.is_some_and(|c| c.a == 255);
        // The background written once, as the buffer is made.
        let mut pixmap = match scene.background {
            Some(bg) => {
                let c = Color::from_rgba8(bg.r, bg.g, bg.b, bg.a)
                    .premultiply()
                    .to_color_u8();
                let px = [c.red(), c.green(), c.blue(), c.alpha()];
                let n = scene.width as usize * scene.height as usize;
                let size = IntSize::from_wh(scene.width, scene.height).ok_or_else(canvas)?;
                let mut buf = super::spare::take();
                if px.iter().all(|&b| b == px[0]) {
                    // White (or any grey at full alpha): one memset.
                    buf.resize(n * 4, px[0]);
                } else {
                    buf.resize(n * 4, 0);
                    for p in buf.chunks_exact_mut(4) {
                        p.copy_from_slice(&px);
                    }
                }
                Pixmap::from_vec(buf, size).ok_or_else(canvas)?
            }
            None => Pixmap::new(scene.width, scene.height).ok_or_else(canvas)?,
        };
        for (k, item) in scene.items.iter().enumerate() {
            match item {
                Item::Path(p) => paths::draw(&mut pixmap, p).map_err(|reason| {
                    SceneError::new(format!("items[{k}].d"), reason).with_id(Some(&scene.id))
                })?,
                Item::Text(t) => self.glyphs.draw(&mut pixmap, t),
            }
        }
        Ok(straight_image(&scene.id, pixmap, opaque))
    }
}
