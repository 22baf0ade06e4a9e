//! Controlled variants of a drawing: change exactly one thing about how it is
//! drawn (or, for the semantic axes, how it is annotated and asked), keep the link
//! to the base.
//!
//! ```text
//! axes    one file per axis (its definition: docs, values, hooks) and the AXES table
//! spec    `--variants SPEC` → the list of variants to draw
//! apply   one variant applied to a Problem (all axes) or to a bare Scene (style axes)
//! change  the kinds of difference from the base an axis may make (audit's terms)
//! pixels  the pixel stage: an axis's hook on the rendered pixels, before the encoder
//! ```
//!
//! `list_json` is the table as `variants --list --json` prints it ([`LIST_SCHEMA`]).

mod apply;
mod axes;
mod change;
mod pixels;
mod spec;

pub use apply::{Drawing, draw_problem};
pub(crate) use apply::{REFERENCE_CANVAS, drawing_style, vary_scene};
pub use axes::{AXES, Axis, AxisDef, AxisValue, Look, OnScene, Setting, Values};
pub use change::Change;
pub use pixels::{Canvas, PixelHook, Pixels};
pub use spec::{ALL, AllAxes, GEOMVERSE_SWEEP, Plan, RELATION_SWEEP, Variant};

/// The JSON Schema of `geomrender variants --list --json`.
pub const LIST_SCHEMA: &str = include_str!("../../schemas/variants.schema.json");

/// The axis table as `geomrender variants --list --json` prints it
/// ([`LIST_SCHEMA`]): every axis (`Axis::describe`) in table order, and the
/// default sweeps of `sweep`.
pub(crate) fn list_json() -> serde_json::Value {
    let axes: Vec<serde_json::Value> = AXES.iter().map(|a| a.describe()).collect();
    serde_json::json!({
        "axes": axes,
        "default_sweeps": {
            "geomverse": GEOMVERSE_SWEEP,
            "relations": RELATION_SWEEP,
        },
        "all": ALL,
    })
}

impl VariantError {
    /// When the problem simply has no such variant (not a fault of the input): the
    /// axis, and when that happens, as a run's summary says it.
    pub(crate) fn not_made(&self) -> Option<(Axis, &'static str)> {
        match self {
            VariantError::NoBackward(_) => Some((
                Axis::BACKWARD,
                "backward=1 where no given value's inverted solution keeps the rounding \
                 and 3 % rules",
            )),
            VariantError::NoAux(_) => Some((Axis::AUX, "aux where the diagram has no such line")),
            VariantError::NoChoices => Some((
                Axis::CHOICES,
                "choices=k on problems with no more than k options (an item of n options \
                 has the rotations 1 to n − 1), or none (GeomVerse problems)",
            )),
            VariantError::NoValues(crate::generate::GenerateError::NoValues { .. }) => Some((
                Axis::VALUES,
                "values where no redraw of the problem with other givens keeps the \
                 generator's rules and the base's skeleton in 200 tries",
            )),
            VariantError::NoUnrelated(_) => Some((
                Axis::UNRELATED,
                "unrelated where neither a free side nor the free space of the base's frame \
                 has room, or no colour is left that is told apart from the diagram's (a \
                 relation item: no drawn segment)",
            )),
            VariantError::NoModality(_) => Some((
                Axis::MODALITY,
                "modality=vision-dominant or vision-only where a given has no label on the image (none \
                 should: every given is drawn there), and every rung but text-only on relation \
                 items (GeomRel states conditions, not descriptive information, properties and \
                 values apart)",
            )),
            VariantError::TooManyGrays { .. } => Some((
                Axis::PALETTE,
                "palette=grayscale where the fill opacity shows fewer nameable greys than \
                 the diagram has shapes (3 at 50 %)",
            )),
            VariantError::NotForRelations(axis) => Some((
                *axis,
                "on relation items (the style axes, relabel, unrelated, and modality's text-only and \
                 blank apply to them)",
            )),
            _ => None,
        }
    }
}

/// Why a variant could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantError {
    #[error("unknown axis {0:?}; known axes: {known}", known = AXES.iter().map(|a| a.name).collect::<Vec<_>>().join(", "))]
    UnknownAxis(String),
    #[error("bad value {value:?} for {axis}: expected {accepts}")]
    BadValue {
        axis: &'static str,
        value: String,
        accepts: String,
    },
    #[error("axis {0} is given twice")]
    DuplicateAxis(&'static str),
    #[error("axis {0} has an empty value")]
    EmptyValue(&'static str),
    #[error("the variant spec names no axis")]
    EmptySpec,
    /// `all=…`: `all` stands for every axis at its default sweep; values go with
    /// an axis's own name.
    #[error(
        "{0:?}: `all` takes no values (it is every axis at its default sweep); give an \
         axis its own values by its name beside it, e.g. `all;fontsize=8,40`"
    )]
    AllWithValues(String),
    #[error(
        "axis {0} needs a Problem (it rewrites the question and labels); this line is a bare Scene"
    )]
    NeedsProblem(&'static str),
    #[error(
        "variant {variant} draws outside the style limits: {limit}; choose other values \
         (`geomrender variants --list` gives each axis's range)"
    )]
    OutOfLimits {
        /// The variant's id suffix, e.g. `__fontsize-32__resolution-8192`.
        variant: String,
        /// The limit it breaks (shown in the message, so not a `source` too).
        limit: crate::style::StyleError,
    },
    #[error(
        "--grid would draw {count} variants of each line, more than {max}; sweep fewer \
         values or axes, or drop --grid"
    )]
    TooManyVariants { count: u128, max: usize },
    /// The axis's rewrite of the question and labels failed (a Problem whose parts
    /// do not fit together, say one edited by hand; its base image needs no rewrite).
    #[error("{axis}: the problem cannot be rewritten: {error}")]
    Problem {
        axis: &'static str,
        error: crate::generate::TextError,
    },
    #[error(
        "variant id {id:?} is {} characters, more than the {max} an id may have, because of \
         the variant suffixes added to the base id {base:?} ({} characters); use a shorter \
         base id, or fewer axes in --variants (with --grid each axis adds a suffix)",
        id.len(),
        base.len()
    )]
    IdTooLong {
        id: String,
        base: String,
        max: usize,
    },
    #[error(
        "palette=grayscale: this diagram has {shapes} shapes, more than the greys fills at \
         opacity {opacity} show and its texts can tell apart by name"
    )]
    TooManyGrays { shapes: usize, opacity: f32 },
    #[error("no backward question: {0}")]
    NoBackward(crate::generate::BackwardError),
    #[error("no auxiliary line: {0}")]
    NoAux(crate::generate::rewrite::aux::AidsError),
    /// `choices=k` on a problem with no more than k options, or none.
    #[error(
        "no rotation of the options by this many places: the problem has fewer options, or none"
    )]
    NoChoices,
    /// `values=k`: no redraw, or a problem its seed does not generate again.
    #[error("no values variant: {0}")]
    NoValues(crate::generate::GenerateError),
    /// `modality=vision-dominant` or `vision-only` on a problem with a given that
    /// has no label on the image.
    #[error("no modality variant: {0}")]
    NoModality(crate::generate::ModalityError),
    #[error("no unrelated shape: {0}")]
    NoUnrelated(crate::generate::rewrite::unrelated::UnrelatedError),
    /// Its image and texts equal its base's (`info=image` for a problem whose
    /// givens are on the image already, `palette=high-contrast` of a lone teal
    /// shape): not drawn, since a condition equal to the base measures nothing.
    #[error("the variant draws and says exactly what its base does")]
    SameAsBase,
    #[error("the scene cannot be transformed: {0}")]
    Scene(crate::scene::SceneError),
    /// The axis does not apply to a relation item ([`AxisDef::relations`]).
    #[error("{} does not apply to a relation item", .0.name())]
    NotForRelations(Axis),
}
