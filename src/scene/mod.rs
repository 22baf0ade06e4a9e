//! Scene v1: the renderer's input, a small subset of SVG as a draw list.
//!
//! Coordinates are pixels, origin top-left, y down; items are painted in order.
//! Every Scene has an exact SVG equivalent. The JSON form is documented by the
//! JSON Schema in `schemas/scene.schema.json` (`geomrender schema scene`), and
//! [`svg`] writes that SVG equivalent.
//!
//! ```text
//! color      `#rrggbb[aa]` colours
//! path_data  SVG path data → lyon paths
//! error      why a Scene was rejected, and where
//! validate   every value against Scene v1's limits
//! parse      JSON line → validated Scene
//! svg        a Scene's exact SVG equivalent
//! transform  whole-Scene transforms (scale, quarter turns) for variants of bare Scenes
//! sketch     items redrawn as if by hand (the `sketch` axis), and how far they may move
//! synthetic  diagram-like scenes from an index, for benchmarks and tests
//! ```

mod color;
mod error;
mod parse;
pub(crate) mod path_data;

pub(crate) mod sketch;
pub mod svg;
pub mod synthetic;
pub(crate) mod transform;
mod validate;

pub use color::{Color, ColorParseError};
pub use error::{Reason, SceneError};
pub use parse::{parse_scene, parse_scene_value};
use serde::{Deserialize, Serialize};
#[cfg(feature = "gpu")]
pub(crate) use validate::check_bounds;
pub(crate) use validate::check_id;
#[cfg(test)]
pub(crate) use validate::dash_estimate;
pub use validate::limits;
pub(crate) use validate::validate;

/// The JSON Schema of Scene v1 (`geomrender schema scene`).
pub(crate) const SCHEMA: &str = include_str!("../../schemas/scene.schema.json");

/// One image to draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Unique, file-name safe identifier (`[A-Za-z0-9_-][A-Za-z0-9._-]*`); the output file is `<id>.png`.
    pub id: String,
    /// Canvas width in pixels, 1..=8192.
    pub width: u32,
    /// Canvas height in pixels, 1..=8192.
    pub height: u32,
    /// Canvas colour; absent means transparent, as in SVG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Color>,
    /// Draw list, painted in order.
    #[serde(default)]
    pub items: Vec<Item>,
}

/// One entry of the draw list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Item {
    Path(PathItem),
    Text(TextItem),
}

/// A filled and/or stroked SVG path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathItem {
    /// SVG path data (M L H V C S Q T A Z, absolute and relative).
    pub d: String,
    /// Fill colour; absent = not filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Color>,
    /// Multiplies the fill colour's alpha, 0..=1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub fill_opacity: f32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub fill_rule: FillRule,
    /// Stroke colour; absent = not stroked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Color>,
    /// Stroke width in pixels (SVG default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub stroke_width: f32,
    /// Multiplies the stroke colour's alpha, 0..=1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub stroke_opacity: f32,
    /// Dash lengths, alternating on/off, as SVG `stroke-dasharray`; empty = solid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dash: Vec<f32>,
    /// Distance into the dash pattern at which each subpath starts (SVG `stroke-dashoffset`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dash_offset: f32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub line_join: LineJoin,
    #[serde(default, skip_serializing_if = "is_default")]
    pub line_cap: LineCap,
    /// A miter join whose length (tip to inner corner) exceeds this many stroke widths
    /// becomes a bevel, as SVG `stroke-miterlimit` (default 4).
    #[serde(default = "four", skip_serializing_if = "is_four")]
    pub miter_limit: f32,
}

/// A single line of text in the embedded font (DejaVu Sans).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextItem {
    /// The text: one line, 1..=1000 characters.
    pub text: String,
    /// Anchor point x, interpreted by `anchor`.
    pub x: f32,
    /// Anchor point y, interpreted by `baseline`.
    pub y: f32,
    /// Font size in pixels (the em size), as SVG `font-size`.
    pub size: f32,
    #[serde(default = "black")]
    pub color: Color,
    /// Multiplies the colour's alpha, 0..=1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub opacity: f32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub anchor: Anchor,
    #[serde(default, skip_serializing_if = "is_default")]
    pub baseline: Baseline,
}

/// SVG `fill-rule`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FillRule {
    #[default]
    Nonzero,
    Evenodd,
}

/// SVG `stroke-linejoin`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineJoin {
    #[default]
    Miter,
    Round,
    Bevel,
}

/// SVG `stroke-linecap`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineCap {
    #[default]
    Butt,
    Round,
    Square,
}

/// SVG `text-anchor`: which point of the text's advance `x` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Anchor {
    #[default]
    Start,
    Middle,
    End,
}

/// SVG `dominant-baseline`: which line of the text `y` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Baseline {
    /// The alphabetic baseline.
    #[default]
    Alphabetic,
    /// Halfway between the font's ascent and descent lines.
    Central,
}

impl PathItem {
    /// A path with no paint and SVG defaults, to be completed with struct update syntax.
    pub(crate) fn new(d: impl Into<String>) -> Self {
        PathItem {
            d: d.into(),
            fill: None,
            fill_opacity: 1.0,
            fill_rule: FillRule::Nonzero,
            stroke: None,
            stroke_width: 1.0,
            stroke_opacity: 1.0,
            dash: Vec::new(),
            dash_offset: 0.0,
            line_join: LineJoin::Miter,
            line_cap: LineCap::Butt,
            miter_limit: 4.0,
        }
    }
}

impl TextItem {
    /// Black, start-anchored text on the alphabetic baseline.
    pub(crate) fn new(text: impl Into<String>, x: f32, y: f32, size: f32) -> Self {
        TextItem {
            text: text.into(),
            x,
            y,
            size,
            color: Color::BLACK,
            opacity: 1.0,
            anchor: Anchor::Start,
            baseline: Baseline::Alphabetic,
        }
    }
}

fn one() -> f32 {
    1.0
}
fn four() -> f32 {
    4.0
}
fn black() -> Color {
    Color::BLACK
}
fn is_one(v: &f32) -> bool {
    *v == 1.0
}
fn is_four(v: &f32) -> bool {
    *v == 4.0
}
fn is_zero(v: &f32) -> bool {
    *v == 0.0
}
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
