//! CPU backends, one scene per call on rayon workers:
//! - `cpu` ([`CpuRenderer::raster`]): the direct rasteriser (`render::raster`),
//!   Scene → pixels with tiny-skia and cached glyph masks, the fast path on machines
//!   without a hardware GPU;
//! - `resvg` ([`CpuRenderer::resvg`]): the Scene's exact SVG equivalent
//!   ([`crate::scene::svg::to_svg`]) rendered by resvg, the trusted reference that
//!   the other backends are checked against and the proof of our SVG export. Only
//!   the embedded DejaVu Sans is loaded (no system fonts), anti-aliasing is on and
//!   text is unhinted, as SVG intends.
//!
//! One [`CpuRenderer`] is shared by all rayon workers: rendering takes `&self`.

use crate::font::{FONT_DATA, FONT_FAMILY};
use crate::render::RenderedImage;
use crate::render::alpha::straight_image;
use crate::render::raster::{RasterError, Rasterizer};
use crate::scene::svg::to_svg;
use crate::scene::{Scene, SceneError, validate};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use std::sync::Arc;

/// The resvg release this backend is built with (checked against Cargo.lock by a test).
pub(super) const RESVG_VERSION: &str = "0.49.0";

/// The tiny-skia release the direct rasteriser draws with (resvg's own).
pub(super) const TINY_SKIA_VERSION: &str = "0.12.0";

/// Why the CPU backend could not render a scene.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CpuError {
    /// The scene breaks a Scene v1 rule; nothing was drawn.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// usvg rejected the SVG written for the scene (a bug in the SVG writer).
    #[error("scene {id:?}: resvg could not parse its SVG: {reason}")]
    Svg { id: String, reason: String },
    /// The canvas could not be allocated.
    #[error("scene {id:?}: cannot allocate a {width}x{height} canvas")]
    Canvas { id: String, width: u32, height: u32 },
}

/// Renders Scenes on the CPU; cheap to share across threads (`Send + Sync`).
pub struct CpuRenderer {
    engine: Engine,
}

enum Engine {
    Raster(Rasterizer),
    /// resvg with a font database holding only the embedded font, which is also
    /// the default and the `sans-serif` family.
    Resvg(usvg::Options<'static>),
}

impl CpuRenderer {
    /// The direct rasteriser (`--backend cpu`).
    pub fn raster() -> Self {
        CpuRenderer {
            engine: Engine::Raster(Rasterizer::default()),
        }
    }

    /// resvg on the Scene's SVG (`--backend resvg`), the reference.
    pub fn resvg() -> Self {
        CpuRenderer {
            engine: Engine::Resvg(svg_options()),
        }
    }

    /// Its `--backend` word: `cpu` or `resvg`.
    pub(crate) fn name(&self) -> &'static str {
        match self.engine {
            Engine::Raster(_) => "cpu",
            Engine::Resvg(_) => "resvg",
        }
    }

    /// What produced the images, for the manifest's `backend` column.
    pub fn label(&self) -> String {
        match self.engine {
            Engine::Raster(_) => format!("geomrender raster, tiny-skia {TINY_SKIA_VERSION} (cpu)"),
            Engine::Resvg(_) => format!("resvg {RESVG_VERSION} (cpu)"),
        }
    }

    /// Renders one scene into straight-alpha sRGB RGBA8, validating it first.
    pub fn render(&self, scene: &Scene) -> Result<RenderedImage, CpuError> {
        validate(scene)?;
        match &self.engine {
            Engine::Raster(r) => r.render(scene).map_err(|e| match e {
                RasterError::Scene(e) => CpuError::Scene(e),
                RasterError::Canvas { id, width, height } => CpuError::Canvas { id, width, height },
            }),
            Engine::Resvg(options) => render_resvg(options, scene),
        }
    }
}

/// How resvg reads an SVG of ours: a font database holding only the embedded
/// font, which is also the default and the `sans-serif` family; an `<image>`
/// element loads nothing (no file, no data URL), since an SVG read back from a run
/// directory is not trusted to name files.
pub(crate) fn svg_options() -> usvg::Options<'static> {
    let mut db = fontdb::Database::new();
    db.load_font_source(fontdb::Source::Binary(Arc::new(FONT_DATA)));
    db.set_sans_serif_family(FONT_FAMILY);
    usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: Arc::new(db),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// resvg on the scene's SVG.
fn render_resvg(
    options: &usvg::Options<'static>,
    scene: &Scene,
) -> Result<RenderedImage, CpuError> {
    {
        let svg = to_svg(scene);
        let tree = usvg::Tree::from_str(&svg, options).map_err(|e| CpuError::Svg {
            id: scene.id.clone(),
            reason: e.to_string(),
        })?;
        let mut pixmap =
            Pixmap::new(scene.width, scene.height).ok_or_else(|| CpuError::Canvas {
                id: scene.id.clone(),
                width: scene.width,
                height: scene.height,
            })?;
        resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
        Ok(straight_image(&scene.id, pixmap, false))
    }
}

impl std::fmt::Debug for CpuRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuRenderer")
            .field("backend", &self.label())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Color, Item, PathItem, TextItem};

    fn square(fill: Color, opacity: f32, background: Option<Color>) -> Scene {
        Scene {
            id: "sq".into(),
            width: 8,
            height: 8,
            background,
            items: vec![Item::Path(PathItem {
                fill: Some(fill),
                fill_opacity: opacity,
                ..PathItem::new("M 0 0 H 8 V 8 H 0 Z")
            })],
        }
    }

    fn px(img: &RenderedImage, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * img.width + x) * 4) as usize;
        img.rgba[i..i + 4].try_into().unwrap()
    }

    #[test]
    fn renderer_is_shareable_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<CpuRenderer>();
    }

    #[test]
    fn half_opacity_blends_in_srgb_over_white() {
        let blue = Color::rgb(0x4d, 0x80, 0xe6);
        let img = CpuRenderer::resvg()
            .render(&square(blue, 0.5, Some(Color::WHITE)))
            .unwrap();
        // c·a + 255·(1 − a) with a = 0.5: the SVG (sRGB-space) result.
        let got = px(&img, 4, 4);
        for (k, c) in [0x4d, 0x80, 0xe6].into_iter().enumerate() {
            let want = c as f64 * 0.5 + 127.5;
            assert!((got[k] as f64 - want).abs() <= 1.0, "{got:?}");
        }
        assert_eq!(got[3], 255);
    }

    #[test]
    fn translucent_paint_on_no_background_is_straight_alpha() {
        let img = CpuRenderer::resvg()
            .render(&square(Color::rgb(200, 100, 50), 0.5, None))
            .unwrap();
        let [r, g, b, a] = px(&img, 4, 4);
        assert!((a as i32 - 128).abs() <= 1, "{a}");
        assert!(
            (r as i32 - 200).abs() <= 2
                && (g as i32 - 100).abs() <= 2
                && (b as i32 - 50).abs() <= 2
        );
        assert!(!img.is_opaque());
    }

    #[test]
    fn text_uses_the_embedded_font() {
        let scene = Scene {
            id: "t".into(),
            width: 60,
            height: 30,
            background: Some(Color::WHITE),
            items: vec![Item::Text(TextItem::new("Aβ", 4.0, 22.0, 20.0))],
        };
        let img = CpuRenderer::resvg().render(&scene).unwrap();
        let inked = img.rgba.chunks_exact(4).filter(|p| p[0] < 128).count();
        assert!(inked > 40, "no glyphs drawn ({inked} dark pixels)");
    }

    #[test]
    fn invalid_scenes_are_errors() {
        let mut s = square(Color::BLACK, 1.0, None);
        s.width = 0;
        assert!(matches!(
            CpuRenderer::resvg().render(&s),
            Err(CpuError::Scene(_))
        ));
        let mut s = square(Color::BLACK, 1.0, None);
        s.items = vec![Item::Path(PathItem::new("L 1 1"))];
        let e = CpuRenderer::resvg().render(&s).unwrap_err();
        assert!(e.to_string().contains("items[0].d"), "{e}");
    }

    #[test]
    fn extreme_valid_scenes_render_without_panicking() {
        let path = |d: &str, width: f32| {
            Item::Path(PathItem {
                fill: Some(Color::rgba(10, 20, 30, 128)),
                stroke: Some(Color::BLACK),
                stroke_width: width,
                // ~19,000 dashes over the ±10⁶ triangle: just within the scene's bound.
                dash: vec![400.0, 400.0],
                line_cap: crate::scene::LineCap::Round,
                miter_limit: 10_000.0,
                ..PathItem::new(d)
            })
        };
        let text = |t: &str, size: f32| Item::Text(TextItem::new(t, -1.0e6, 1.0e6, size));
        let scenes = [
            vec![
                // The widest stroke a 64² canvas allows.
                path(
                    "M -1000000 -1000000 L 1000000 1000000 L -1000000 1000000 Z",
                    128.0,
                ),
                path("M 0 0 Z M 5 5 M 6 6 l 0 0", 3.0),
                path("M 10 10 A 0 0 0 1 1 20 20 A 1e6 1 45 0 0 30 30", 0.001),
                path("M 1 1 L 1 1 L 1 1", 2.0),
                text("汉字 ☃ 𝔸 a\u{0301}", 2048.0),
                Item::Text(TextItem::new("W".repeat(1000), 0.0, 30.0, 0.01)),
                Item::Text(TextItem::new("  x  ", 5.0, 5.0, 12.0)),
            ],
            vec![path("M 0 0 H 8192 V 64 H 0 Z", 0.0)],
        ];
        for (k, items) in scenes.into_iter().enumerate() {
            let scene = Scene {
                id: format!("extreme-{k}"),
                width: if k == 1 { 8192 } else { 64 },
                height: 64,
                background: None,
                items,
            };
            validate(&scene).expect("the scene is valid");
            let img = CpuRenderer::resvg().render(&scene).unwrap();
            assert_eq!(img.rgba.len(), (scene.width * scene.height * 4) as usize);
        }
    }

    #[test]
    fn scenes_past_the_work_bounds_are_refused_before_rendering() {
        let scene = |width: f32, dash: Vec<f32>| Scene {
            id: "heavy".into(),
            width: 64,
            height: 64,
            background: None,
            items: vec![Item::Path(PathItem {
                stroke: Some(Color::BLACK),
                stroke_width: width,
                dash,
                ..PathItem::new("M 0 0 L 64 64")
            })],
        };
        let reason = |s: &Scene| match CpuRenderer::resvg().render(s) {
            Err(CpuError::Scene(e)) => e.reason,
            other => panic!("{other:?}"),
        };
        assert!(matches!(
            reason(&scene(4096.0, vec![0.01, 0.01])),
            crate::scene::Reason::StrokeTooWide { .. }
        ));
        assert!(matches!(
            reason(&scene(100.0, vec![0.001, 0.001])),
            crate::scene::Reason::TooManyDashes { .. }
        ));
    }

    #[test]
    fn label_names_the_resvg_release_in_cargo_lock() {
        let lock = include_str!("../../Cargo.lock");
        let entry = format!("name = \"resvg\"\nversion = \"{RESVG_VERSION}\"");
        assert!(
            lock.contains(&entry),
            "Cargo.lock has another resvg than {RESVG_VERSION}"
        );
        assert_eq!(
            CpuRenderer::resvg().label(),
            format!("resvg {RESVG_VERSION} (cpu)")
        );
    }
}
