//! What a relation item records in its Problem (`relation`): the relation it asks
//! about, how it was made, the conditions it states and the elements it asks about,
//! all by point name, so that a reader can re-decide the answer from the diagram's
//! coordinates without the generator (`src/tests/relations_verify.rs` does).

use super::pool::Domain;
use crate::words::Words;
use serde::{Deserialize, Serialize};

/// GeomRel's two subsets (§2.2, §2.3).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Subset {
    /// From a relation's definition and the properties that imply it.
    #[default]
    Basic,
    /// Two or three conditions chained, the output element of one the input of the next.
    Advanced,
}

/// Where the item's conditions are given.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// GeomRel's own setting: every condition stated in words, so the question is
    /// answerable from the text alone; the diagram shows the configuration.
    #[default]
    Text,
    /// The conditions drawn instead of stated (right-angle marks, arrowheads on
    /// parallels, ticks on equal segments, letters on equal angles, given values on
    /// their elements): the relation is read from the picture, which the question
    /// says is not drawn to scale. An indeterminate item leaves one mark out: the
    /// relation looks true (within a degree or a percent) but nothing gives it.
    Visual,
}

impl Subset {
    /// Both subsets, in report order.
    pub const ALL: [Subset; 2] = [Subset::Basic, Subset::Advanced];

    /// Its name in Problems, rows and reports.
    pub fn name(self) -> &'static str {
        match self {
            Subset::Basic => "basic",
            Subset::Advanced => "advanced",
        }
    }
}

impl Mode {
    /// Both modes, in report order.
    pub const ALL: [Mode; 2] = [Mode::Text, Mode::Visual];

    /// Its name in Problems, rows and reports.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Text => "text",
            Mode::Visual => "visual",
        }
    }
}

impl Words for Subset {
    const WHAT: &'static str = "subset";
    const ALL: &'static [Subset] = &Subset::ALL;
    fn name(self) -> &'static str {
        Subset::name(self)
    }
}

crate::words!(Subset);

impl Words for Mode {
    const WHAT: &'static str = "mode";
    const ALL: &'static [Mode] = &Mode::ALL;
    fn name(self) -> &'static str {
        Mode::name(self)
    }
}

crate::words!(Mode);

/// A line (or segment) through two named points.
pub type LineRef = [String; 2];

/// An angle (arm point, vertex, arm point), "∠ABC".
pub type AngleRef = [String; 3];

/// A figure a point, line or segment is related to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FigureRef {
    /// A polygon by its vertices in order (a triangle, a quadrilateral, …).
    Polygon { vertices: Vec<String> },
    /// The circle with this centre and radius (diagram units).
    Circle { center: String, radius: f64 },
}

/// One stated condition, as the question states it; each is an equation or a strict
/// inequality on the points' coordinates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// The two lines are parallel (distinct).
    Parallel {
        a: LineRef,
        b: LineRef,
    },
    Perpendicular {
        a: LineRef,
        b: LineRef,
    },
    /// `point` lies on line `line`.
    OnLine {
        point: String,
        line: LineRef,
    },
    /// `point` lies on segment `ends`, strictly between its ends.
    Between {
        point: String,
        ends: LineRef,
    },
    /// `point` is the midpoint of segment `ends`.
    Midpoint {
        point: String,
        ends: LineRef,
    },
    /// Both points are on the same side of line `line` (neither on it).
    SameSide {
        points: LineRef,
        line: LineRef,
    },
    /// The points are on opposite sides of line `line` (neither on it).
    OppositeSides {
        points: LineRef,
        line: LineRef,
    },
    /// The angle measures `degrees` (0 < degrees < 180).
    AngleValue {
        angle: AngleRef,
        degrees: f64,
    },
    /// The two angles are equal.
    EqualAngles {
        a: AngleRef,
        b: AngleRef,
    },
    /// The segment has this length.
    Length {
        segment: LineRef,
        value: f64,
    },
    /// The two segments are equal.
    EqualLengths {
        a: LineRef,
        b: LineRef,
    },
    /// `point` lies on the circle with centre `center` and radius `radius`.
    OnCircle {
        point: String,
        center: String,
        radius: f64,
    },
    /// Line `line` is tangent to the circle with centre `center` and radius `radius`.
    Tangent {
        line: LineRef,
        center: String,
        radius: f64,
    },
}

/// The elements a question asks about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Asked {
    /// Three points: collinear or not.
    Points { points: [String; 3] },
    /// A point and a line.
    PointLine { point: String, line: LineRef },
    /// Two lines.
    Lines { a: LineRef, b: LineRef },
    /// Two angles, by their measures (complementary, supplementary, neither).
    AngleMeasures { a: AngleRef, b: AngleRef },
    /// Two angles, by their positions where lines meet.
    AnglePositions { a: AngleRef, b: AngleRef },
    /// Two angles of the quadrilateral `quad`, by their vertices.
    QuadrilateralAngles {
        quad: [String; 4],
        a: String,
        b: String,
    },
    /// A point and a figure.
    PointFigure { point: String, figure: FigureRef },
    /// A line and a circle.
    LineCircle { line: LineRef, circle: FigureRef },
    /// A segment and the figure it is drawn in.
    Segment { segment: LineRef, figure: FigureRef },
}

/// The `relation` part of a relation item's Problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelationItem {
    /// The relation the question is about ([`super::RELATIONS`]'s name): on an
    /// indeterminate item, the one its conditions no longer settle.
    pub relation: String,
    pub domain: Domain,
    pub subset: Subset,
    pub mode: Mode,
    /// The construction that made it, `relation/construction`
    /// (`perpendicular/thales`, `perpendicular/midline_then_perpendicular`).
    pub construction: String,
    /// The relations an advanced item's chain passes through, in order (the asked one
    /// last); one for a basic item.
    pub chain: Vec<String>,
    /// What the question states, in order.
    pub conditions: Vec<Condition>,
    /// What the question asks about.
    pub asked: Asked,
    /// The answer choices in letter order, "Cannot be inferred" among them.
    pub choices: Vec<String>,
    /// An indeterminate item's relation as its construction's full conditions
    /// would settle it (one of `choices`): what a reader who takes the figure at
    /// its word, or fills in the missing condition, would answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsettled: Option<String>,
    /// Whether the image alone, read as a textbook figure (its incidences, order
    /// and marks, nothing measured), settles the answer: in the visual mode always
    /// (the conditions are its marks, and a relation left unmarked is left open);
    /// in the text mode when the item is determinate and every condition its
    /// construction marks as needed is one a figure shows by itself (a point on a
    /// line, segment or circle, a side of a line).
    #[serde(default)]
    pub picture_decides: bool,
}

impl RelationItem {
    /// Whether the conditions do not settle the relation (the answer is
    /// [`super::CANNOT_BE_INFERRED`]).
    pub(crate) fn indeterminate(&self, answer: char) -> bool {
        self.answer_text(answer) == Some(super::CANNOT_BE_INFERRED)
    }

    /// The text of the choice `letter` ('A' is the first), if there is one.
    pub(crate) fn answer_text(&self, letter: char) -> Option<&str> {
        let i = (letter as u32).checked_sub('A' as u32)? as usize;
        self.choices.get(i).map(String::as_str)
    }
}
