//! Text items → glyph coverage masks blended onto the canvas.
//!
//! Layout follows usvg's, so text sits where resvg puts it: the run is shaped by
//! harfrust (the shaper usvg uses, default features, kerning on) on the embedded
//! DejaVu Sans; advances and offsets are scaled by size / units-per-em; `middle` and
//! `end` anchors move the run back by half or all of its advance; `central` puts the
//! baseline (ascent + descent) / 2 below `y`.
//!
//! Each glyph's coverage is rasterised once per (glyph, size, x and y phase in
//! eighths of a pixel) by tiny-skia from its unhinted outline, and kept in a cache
//! shared by all threads. A glyph is drawn at its position rounded to an eighth of a
//! pixel (at most 1/16 px from resvg's), by blending the cached mask with the text
//! colour.

use super::blend::{Source, mul255};
use crate::font::FONT_DATA;
use crate::scene::{Anchor, Baseline, Color, TextItem};
use resvg::tiny_skia::{FillRule, Mask, PathBuilder, Pixmap, Transform};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, LazyLock, RwLock};
use ttf_parser::{Face, GlyphId, OutlineBuilder};

/// Sub-pixel positions per pixel, horizontally and vertically. tiny-skia resolves
/// edges to a quarter pixel; glyph origins at the nearest eighth keep its rounding
/// where it falls at the exact position more often than a quarter-pixel grid did.
const PHASES: f32 = 8.0;

/// The font for outlines and metrics, and harfrust's tables for shaping, parsed once.
struct Font {
    face: Face<'static>,
    shaper: harfrust::ShaperData,
    units_per_em: f32,
}

static FONT: LazyLock<Font> = LazyLock::new(|| {
    let face = Face::parse(FONT_DATA, 0).expect("the embedded font parses");
    let hr = harfrust::FontRef::from_index(FONT_DATA, 0).expect("the embedded font parses");
    Font {
        units_per_em: face.units_per_em() as f32,
        shaper: harfrust::ShaperData::new(&hr),
        face,
    }
});

/// A glyph placed on the canvas: its id and origin in px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedGlyph {
    pub glyph: u16,
    pub x: f32,
    pub y: f32,
}

/// Shapes and places `t`'s glyphs (origin on the baseline, y down).
pub fn layout(t: &TextItem) -> Vec<PlacedGlyph> {
    let font = &*FONT;
    let run = shaped(&t.text);
    let scale = t.size / font.units_per_em;
    let advance: f32 = run.iter().map(|g| g.x_advance as f32 * scale).sum();
    let mut x = match t.anchor {
        Anchor::Start => t.x,
        Anchor::Middle => t.x - advance / 2.0,
        Anchor::End => t.x - advance,
    };
    let y = t.y
        + match t.baseline {
            Baseline::Alphabetic => 0.0,
            Baseline::Central => crate::font::metrics().central_shift(t.size),
        };
    let mut placed = Vec::with_capacity(run.len());
    for g in run.iter() {
        placed.push(PlacedGlyph {
            glyph: g.glyph,
            x: x + g.x_offset as f32 * scale,
            y: y - g.y_offset as f32 * scale,
        });
        x += g.x_advance as f32 * scale;
    }
    placed
}

/// A glyph as harfrust shaped it: its id, and its advance and offsets in font units.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ShapedGlyph {
    glyph: u16,
    x_advance: i32,
    x_offset: i32,
    y_offset: i32,
}

/// Texts a thread keeps shaped before it starts afresh.
const SHAPED_MAX: usize = 256;

thread_local! {
    /// The runs this thread shaped lately, by text. A run depends on its text alone
    /// (one font, default features), and the same labels and values come back in
    /// every variant of a problem: shaping each anew (harfrust builds a shape plan
    /// per call) was 5–6 % of a sweep's CPU time.
    static SHAPED: RefCell<HashMap<Box<str>, Rc<[ShapedGlyph]>>> = RefCell::new(HashMap::new());
}

/// `text` shaped, from this thread's cache or by harfrust.
fn shaped(text: &str) -> Rc<[ShapedGlyph]> {
    SHAPED.with(|cache| {
        if let Some(run) = cache.borrow().get(text) {
            return run.clone();
        }
        let run: Rc<[ShapedGlyph]> = shape(text).into();
        let mut cache = cache.borrow_mut();
        if cache.len() >= SHAPED_MAX {
            cache.clear();
        }
        cache.insert(text.into(), run.clone());
        run
    })
}

/// `text` shaped by harfrust on the embedded font.
fn shape(text: &str) -> Vec<ShapedGlyph> {
    let hr = harfrust::FontRef::from_index(FONT_DATA, 0).expect("the embedded font parses");
    let shaper = FONT.shaper.shaper(&hr).build();
    let mut buffer = harfrust::UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    let output = shaper.shape(buffer, harfrust::ShapeOptions::new());
    output
        .glyph_infos()
        .iter()
        .zip(output.glyph_positions())
        .map(|(info, pos)| ShapedGlyph {
            glyph: info.glyph_id as u16,
            x_advance: pos.x_advance,
            x_offset: pos.x_offset,
            y_offset: pos.y_offset,
        })
        .collect()
}

/// A glyph's coverage at one size and phase: `width × height` bytes whose top-left
/// pixel goes at (origin's whole pixel + `left`, + `top`).
struct GlyphMask {
    left: i32,
    top: i32,
    width: u32,
    height: u32,
    coverage: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    glyph: u16,
    size_bits: u32,
    phase_x: u8,
    phase_y: u8,
}

/// Glyph masks by (glyph, size, phase), shared by every thread that renders.
#[derive(Default)]
pub(super) struct GlyphCache {
    masks: RwLock<HashMap<Key, Option<Arc<GlyphMask>>>>,
}

/// Collects an outline into a tiny-skia path (font units, y up).
struct Outline(PathBuilder);

impl OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

/// Rasterises a glyph at `size` with its origin at (`phase_x`, `phase_y`) / PHASES
/// px inside the pixel; `None` for a glyph without ink (a space).
fn rasterise(key: Key) -> Option<GlyphMask> {
    let font = &*FONT;
    let mut outline = Outline(PathBuilder::new());
    font.face.outline_glyph(GlyphId(key.glyph), &mut outline)?;
    let path = outline.0.finish()?;
    let scale = f32::from_bits(key.size_bits) / font.units_per_em;
    let (fx, fy) = (key.phase_x as f32 / PHASES, key.phase_y as f32 / PHASES);
    // The glyph's box in px around the origin, one pixel of margin for anti-aliasing.
    let b = path.bounds();
    let left = (b.left() * scale + fx).floor() as i32 - 1;
    let right = (b.right() * scale + fx).ceil() as i32 + 1;
    let top = (-b.bottom() * scale + fy).floor() as i32 - 1;
    let bottom = (-b.top() * scale + fy).ceil() as i32 + 1;
    let (width, height) = ((right - left) as u32, (bottom - top) as u32);
    let mut mask = Mask::new(width, height)?;
    let transform = Transform::from_row(scale, 0.0, 0.0, -scale, fx - left as f32, fy - top as f32);
    mask.fill_path(&path, FillRule::Winding, true, transform);
    Some(GlyphMask {
        left,
        top,
        width,
        height,
        coverage: mask.data().to_vec(),
    })
}

impl GlyphCache {
    fn mask(&self, key: Key) -> Option<Arc<GlyphMask>> {
        let read = self.masks.read().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = read.get(&key) {
            return m.clone();
        }
        drop(read);
        // Built outside the lock; a racing thread builds the same bytes.
        let mask = rasterise(key).map(Arc::new);
        let mut write = self.masks.write().unwrap_or_else(|p| p.into_inner());
        write.entry(key).or_insert(mask).clone()
    }

    /// Draws `t` onto `pixmap` (premultiplied RGBA).
    pub(super) fn draw(&self, pixmap: &mut Pixmap, t: &TextItem) {
        let color = t.color;
        let alpha = (color.a as f32 / 255.0 * t.opacity).clamp(0.0, 1.0);
        let alpha = (alpha * 255.0).round() as u32;
        if alpha == 0 {
            return;
        }
        let size_bits = t.size.to_bits();
        for g in layout(t) {
            let (ix, px) = split(g.x);
            let (iy, py) = split(g.y);
            let key = Key {
                glyph: g.glyph,
                size_bits,
                phase_x: px,
                phase_y: py,
            };
            if let Some(mask) = self.mask(key) {
                blend(pixmap, &mask, ix, iy, color, alpha);
            }
        }
    }
}

/// A coordinate as its whole pixel and phase in eighths (rounded to nearest).
fn split(v: f32) -> (i32, u8) {
    let q = (v * PHASES).round();
    let whole = (q / PHASES).floor();
    (whole as i32, (q - whole * PHASES) as u8)
}

/// Source-over of `color` at `alpha` × the mask's coverage, premultiplied.
fn blend(pixmap: &mut Pixmap, mask: &GlyphMask, ix: i32, iy: i32, color: Color, alpha: u32) {
    let (pw, ph) = (pixmap.width() as i32, pixmap.height() as i32);
    let x0 = ix + mask.left;
    let y0 = iy + mask.top;
    let rgb = [color.r as u32, color.g as u32, color.b as u32];
    let data = pixmap.data_mut();
    for my in 0..mask.height as i32 {
        let y = y0 + my;
        if y < 0 || y >= ph {
            continue;
        }
        for mx in 0..mask.width as i32 {
            let x = x0 + mx;
            if x < 0 || x >= pw {
                continue;
            }
            let cov = mask.coverage[(my as u32 * mask.width + mx as u32) as usize] as u32;
            if cov == 0 {
                continue;
            }
            let i = ((y * pw + x) * 4) as usize;
            Source::new(rgb, mul255(cov, alpha)).over(&mut data[i..i + 4]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_split_into_pixel_and_eighth() {
        assert_eq!(split(3.0), (3, 0));
        assert_eq!(split(3.26), (3, 2));
        assert_eq!(split(3.97), (4, 0));
        assert_eq!(split(-0.3), (-1, 6));
    }

    #[test]
    fn anchors_move_the_run_by_its_advance() {
        let mut t = TextItem::new("AB 12", 100.0, 50.0, 20.0);
        let start = layout(&t);
        t.anchor = Anchor::End;
        let end = layout(&t);
        let shift = start[0].x - end[0].x;
        t.anchor = Anchor::Middle;
        let middle = layout(&t);
        assert!((start[0].x - middle[0].x - shift / 2.0).abs() < 1e-3);
        assert!(shift > 40.0 && shift < 80.0, "{shift}");
        assert_eq!(start.len(), 5);
    }

    #[test]
    fn a_cached_run_is_the_run_harfrust_shapes() {
        for text in ["AB 12", "x = 3.5", "∠ABC", "", "AV To"] {
            let fresh = shape(text);
            assert_eq!(&*shaped(text), &fresh[..], "{text:?}");
            assert_eq!(&*shaped(text), &fresh[..], "{text:?} from the cache");
        }
        // Kerning reaches the cached run: "AV" is narrower than "A" and "V" apart.
        let width = |t: &str| shaped(t).iter().map(|g| g.x_advance).sum::<i32>();
        assert!(width("AV") < width("A") + width("V"));
    }

    #[test]
    fn the_cache_stays_bounded_and_right() {
        for k in 0..SHAPED_MAX * 3 {
            let text = format!("x = {k} cm");
            assert_eq!(&*shaped(&text), &shape(&text)[..], "{text:?}");
            assert!(SHAPED.with(|c| c.borrow().len()) <= SHAPED_MAX);
        }
    }
}
