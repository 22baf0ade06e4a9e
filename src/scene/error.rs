//! Why a Scene was rejected, and where in it.

use std::fmt;

/// A rejected Scene: `path` locates the offending value (`items[3].stroke_width`),
/// empty when the whole line is at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct SceneError {
    /// The scene's id when it could be read.
    pub id: Option<String>,
    /// JSON path of the offending value, e.g. `items[3].stroke_width`.
    pub path: String,
    pub reason: Reason,
}

/// The specific fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Reason {
    /// The line is not valid JSON.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// A value has the wrong type, a required field is missing or an unknown field is present.
    #[error("{0}")]
    Structure(String),
    /// `items[i].type` is not `path` or `text`.
    #[error("unknown item type {0:?} (expected \"path\" or \"text\")")]
    UnknownItemType(String),
    /// A number is NaN or infinite.
    #[error("must be a finite number, got {0}")]
    NotFinite(f64),
    /// A number lies outside its allowed range.
    #[error("must be in {min}..={max}, got {got}")]
    OutOfRange { min: f64, max: f64, got: f64 },
    /// A number that must be strictly positive is not.
    #[error("must be greater than 0, got {0}")]
    NotPositive(f64),
    /// A colour string is not `#rrggbb` / `#rrggbbaa`.
    #[error("bad colour {0:?}: expected #rrggbb or #rrggbbaa")]
    BadColor(String),
    /// SVG path data that does not parse.
    #[error("bad path data: {0}")]
    BadPathData(String),
    /// Text must have at least one visible character.
    #[error("text is empty or only white space")]
    EmptyText,
    /// Text may not contain line breaks or other control characters.
    #[error("text contains control character {0:?}; a text item is a single line")]
    ControlCharacter(char),
    /// An id that cannot be used as a file name.
    #[error(
        "id {0:?} is not file-name safe: use 1..=200 of A-Z a-z 0-9 . _ - (not starting with '.')"
    )]
    BadId(String),
    /// A collection or string longer than the limit.
    #[error("too long: {got} > {max} {what}")]
    TooLong {
        what: &'static str,
        max: usize,
        got: usize,
    },
    /// The dash patterns would cut the scene's strokes into more pieces than the limit.
    #[error(
        "dash pattern too fine: the scene's dashed strokes make at least {got} dashes, more than the {max} allowed per scene"
    )]
    TooManyDashes { max: usize, got: usize },
    /// A stroke wider than twice the canvas's larger side (or the absolute limit).
    #[error(
        "stroke width {got} is too wide: at most {max} (twice the canvas's larger side, and at most 4096)"
    )]
    StrokeTooWide { max: f64, got: f64 },
    /// The scene tessellates into more triangles than a scene may have.
    #[error(
        "too much geometry: tessellating the scene's paths with curves flattened to \
         {tolerance} px (--tolerance) exceeds the budget of {max_vertices} vertices / \
         {max_indices} indices per scene; use a coarser --tolerance (default 0.05) or \
         fewer or smaller paths"
    )]
    TooMuchGeometry {
        max_vertices: usize,
        max_indices: usize,
        /// The curve flattening tolerance it was tessellated with, in pixels.
        tolerance: f32,
    },
}

impl SceneError {
    pub(crate) fn new(path: impl Into<String>, reason: Reason) -> Self {
        SceneError {
            id: None,
            path: path.into(),
            reason,
        }
    }

    pub(crate) fn with_id(mut self, id: Option<&str>) -> Self {
        if self.id.is_none() {
            self.id = id.map(str::to_string);
        }
        self
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = &self.id {
            write!(f, "scene {id:?}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.reason)
    }
}
