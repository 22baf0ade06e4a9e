//! Problem + Style + Annotation → Scene: the diagram fitted to the canvas, fills and
//! outlines, right-angle marks and angle arcs, and labels placed clear of each other,
//! of the strokes and of the canvas edge.
//!
//! Only what `Style` names changes between two styles of one problem: label positions
//! depend on the canvas, font size and rotation, never on line width, fill opacity or
//! palette (clearances are measured from a fixed reference stroke width,
//! `REFERENCE_LINE_WIDTH`), so a line-width variant leaves every label pixel in place
//! and an opacity variant changes only fill alpha.
//!
//! ```
//! use geomrender::compose::compose;
//! use geomrender::generate::Annotation;
//! use geomrender::style::Style;
//! use geomrender::generate::{generate_one, GenerateOptions};
//! let p = generate_one(&GenerateOptions::default(), 3).unwrap();
//! let c = compose(&p, &Style::default(), Annotation::Coordinate).unwrap();
//! assert_eq!(c.layout.overlaps, 0);
//! assert_eq!(c.scene.width, 512);
//! ```
//!
//! ```text
//! frame   diagram units → canvas px: rotation, scale and centring (`Fit`)
//! draw    fills and outlines, in the shapes' order
//! dots    a dot on every point that is not a corner of an outline
//! marks   right-angle marks and angle arcs
//! labels  label requests, placement clear of strokes and each other, leader lines
//! caption words in a band below the diagram (the canvas grows by it)
//! grounding what an image draws, element by element, in its pixels (probes, COCO)
//! ```

mod caption;
mod dots;
mod draw;
mod frame;
mod grounding;
mod labels;
mod marks;

use crate::generate::Annotation;
use crate::style::{Palette, Style};

use crate::generate::Problem;
use crate::scene::{Color, Scene, SceneError};
pub use frame::DiagramError;
#[cfg(test)]
pub(crate) use grounding::{GArc, GPoint, GShape};
pub(crate) use grounding::{GLine, Grounding, LineKind};
use serde::{Deserialize, Serialize};

/// Stroke width (px) that label clearances are measured from, whatever the style's.
pub(crate) const REFERENCE_LINE_WIDTH: f32 = 2.0;

/// Colour of leader lines (from an element to its label placed away from it): the
/// only paths that may differ between style variants of one problem.
pub(crate) const LEADER_COLOR: Color = Color::rgb(0x55, 0x55, 0x55);

/// Fill of the point dots (one path of circles, drawn after the strokes): no shape
/// is filled with it.
pub(crate) const DOT_COLOR: Color = Color::BLACK;

/// How well the labels fit, measured on label boxes (glyph advances × font ascent −
/// descent, centred on the anchor as drawn).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayoutStats {
    /// Labels drawn.
    pub labels: usize,
    /// Smallest distance from a label box to another label box or to a stroke's edge
    /// (centre line minus half the reference width), in px; the canvas size when no
    /// label has anything near.
    pub min_clearance_px: f32,
    /// Pairs of label boxes that intersect.
    pub overlaps: usize,
    /// Label boxes not entirely inside the canvas.
    pub off_canvas: usize,
    /// px per diagram unit: the diagram's one fit for this problem, canvas and
    /// rotation (no style axis changes it; `resolution` scales it with the canvas).
    pub scale: f64,
    /// Labels drawn away from their element with a leader line back to it.
    pub leaders: usize,
    /// Over every label: the smallest ratio of the distance from its centre to the
    /// nearest other element a reader could take it for (another point, for a vertex
    /// letter or an angle value; another side or ray, for a side value) over the
    /// distance to its own (1000 when none has another). The layout prefers at least
    /// `ATTACH_RATIO`.
    pub min_attachment_ratio: f32,
}

/// A composed image.
#[derive(Clone, Debug, PartialEq)]
pub struct Composed {
    pub scene: Scene,
    pub layout: LayoutStats,
    /// Its labels and strokes, for a variant composed against it ([`compose_variant`]).
    keep: labels::Keep,
    /// The diagram's fit to the canvas.
    fit: frame::Fit,
    /// The diagram is drawn (every style but the `blank` control).
    diagram: bool,
}

/// What compose placed for one image, kept for its grounding (the fit and the
/// labels): moved out of the composition, so it costs nothing when unused.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    pub(crate) fit: frame::Fit,
    pub(crate) placed: Vec<labels::Placed>,
    /// The diagram is drawn (not the `blank` control).
    pub(crate) diagram: bool,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

impl Composed {
    /// What its grounding needs (`Grounding::of`), moved out: the labels a
    /// variant composed against it would keep are gone after this.
    pub(crate) fn take_drawn(&mut self) -> Drawn {
        Drawn {
            fit: self.fit,
            placed: std::mem::take(&mut self.keep.placed),
            diagram: self.diagram,
            width: self.scene.width,
            height: self.scene.height,
        }
    }
}

/// Why a problem could not be composed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ComposeError {
    /// A style value out of range.
    #[error(transparent)]
    BadStyle(#[from] crate::style::StyleError),
    /// The diagram has nothing to draw, or a coordinate that is not finite.
    #[error("problem {id}: {reason}")]
    BadDiagram { id: String, reason: DiagramError },
    /// A label (a vertex letter, a side's or an angle's) larger than the canvas at this
    /// font size, so that no layout can place it.
    #[error(
        "problem {id}: label {label:?} is {width:.0}×{height:.0} px at font size {font_size}, \
         larger than the {canvas}×{canvas} px canvas"
    )]
    LabelTooLarge {
        id: String,
        /// The label's text (its first 40 characters).
        label: String,
        width: f32,
        height: f32,
        font_size: f32,
        canvas: u32,
    },
    /// The caption band makes the image taller than a Scene may be.
    #[error(
        "problem {id}: the caption band ({band} px) below the {canvas} px canvas makes the \
         image taller than {max} px; use a smaller canvas or font size",
        max = crate::scene::limits::MAX_DIMENSION
    )]
    CaptionTooTall { id: String, band: u32, canvas: u32 },
    /// The composed scene broke a Scene v1 rule: every drawn Problem field is
    /// checked at parse time, so this is a bug to report, with the scene item.
    #[error(
        "the composed diagram breaks a Scene rule at {}: {} (please report this)",
        .0.path,
        .0.reason
    )]
    Scene(#[from] SceneError),
}

// `Style` is a plain value (`crate::style`); its limits are compose's, as the error is.
/// The colour a palette gives a named shape colour drawn at fill `opacity` (unknown
/// names are gray; under `grayscale`, a grey name is the fill that shows as its
/// shade over white at that opacity, see [`crate::generate::colours::gray_fill`]).
pub(crate) fn fill_colour(name: &str, palette: Palette, opacity: f32) -> Color {
    let ([r, g, b], [vr, vg, vb]) =
        crate::generate::colours::rgb(name).unwrap_or(([0x9e, 0x9e, 0x9e], [0x80, 0x80, 0x80]));
    let (c, vivid) = (Color::rgb(r, g, b), Color::rgb(vr, vg, vb));
    match palette {
        Palette::Color => c,
        Palette::HighContrast => vivid,
        Palette::Grayscale => {
            // Shapes of a grayscale drawing carry grey names (`variants`).
            if let Some(v) = crate::generate::colours::gray_fill(name, opacity) {
                return Color::rgb(v, v, v);
            }
            let l = 0.2126 * c.r as f32 + 0.7152 * c.g as f32 + 0.0722 * c.b as f32;
            let v = l.round().clamp(0.0, 255.0) as u8;
            Color::rgb(v, v, v)
        }
    }
}

/// Draws `problem` in `style` with `annotation`'s labels.
pub fn compose(
    problem: &Problem,
    style: &Style,
    annotation: Annotation,
) -> Result<Composed, ComposeError> {
    compose_keeping(problem, style, annotation, None)
}

/// Draws a variant of the problem `base` draws, keeping every label of `base` that
/// the variant still has (same text, element and size) where it was, unless a stroke
/// the variant adds comes too near it or it no longer holds to its element: an
/// auxiliary line or unrelated shapes re-place only the labels they crowd. With
/// another fit or font size nothing matches, and this is [`compose`].
pub(crate) fn compose_variant(
    problem: &Problem,
    style: &Style,
    annotation: Annotation,
    base: &Composed,
) -> Result<Composed, ComposeError> {
    compose_keeping(problem, style, annotation, Some(&base.keep))
}

fn compose_keeping(
    problem: &Problem,
    style: &Style,
    annotation: Annotation,
    keep: Option<&labels::Keep>,
) -> Result<Composed, ComposeError> {
    style.validate()?;
    let geo = frame::Geometry::of(problem).map_err(|reason| ComposeError::BadDiagram {
        id: problem.id.clone(),
        reason,
    })?;
    let layout = labels::layout(problem, &geo, style, annotation, keep).map_err(|e| {
        ComposeError::LabelTooLarge {
            id: problem.id.clone(),
            label: e.text.chars().take(40).collect(),
            width: e.width,
            height: e.height,
            font_size: style.font_size,
            canvas: style.canvas,
        }
    })?;
    let mut items = draw::shapes(problem, &layout.fit, &layout.marks, style);
    if style.point_dots {
        let r = dots::radius(style.canvas);
        items.extend(draw::dots(&layout.dots, r, style.rotation));
    }
    items.extend(draw::leaders(&layout.placed, style));
    items.extend(draw::labels(&layout.placed, style));
    if style.sketch > 0 {
        let seed = crate::digest::fnv1a64(&problem.id);
        crate::scene::sketch::hand_drawn(&mut items, style.sketch, seed, style.canvas as f32)
            .map_err(|reason| SceneError::new("items", reason))?;
    }
    if !style.diagram {
        // The blank control: the same canvas, nothing on it.
        items.clear();
    }
    let mut height = style.canvas;
    if let Some(words) = &problem.caption {
        let band = caption::band(words.get(annotation), style);
        height = (style.canvas.checked_add(band.height))
            .filter(|h| *h <= crate::scene::limits::MAX_DIMENSION)
            .ok_or_else(|| ComposeError::CaptionTooTall {
                id: problem.id.clone(),
                band: band.height,
                canvas: style.canvas,
            })?;
        items.extend(band.items);
    }
    let scene = Scene {
        id: problem.id.clone(),
        width: style.canvas,
        height,
        background: Some(Color::WHITE),
        items,
    };
    crate::scene::validate(&scene)?;
    Ok(Composed {
        scene,
        layout: layout.stats,
        keep: layout.keep,
        fit: layout.fit,
        diagram: style.diagram,
    })
}
