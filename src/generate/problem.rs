//! The Problem: what `generate` emits, one JSON object per line (`schemas/problem.schema.json`).
//!
//! A Problem carries its semantic diagram (points with coordinates, shapes, sides, angles
//! and measures, each named in both annotation styles), the reasoning steps behind the
//! answer, and the question and solution texts. The texts are a pure function of the
//! diagram, the steps and `params.info` (see `text`), which is what lets `with_info` and
//! `relabel` rewrite a Problem without regenerating it.

use super::shapes::{Role, ShapeKind};
use serde::{Deserialize, Serialize};

/// The annotation style of a diagram and of the texts that refer to it (GeomVerse A.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Annotation {
    /// Upper-case letters on vertices; "the AB side", "the ABC angle", "the ABCD square".
    #[default]
    Coordinate,
    /// Sides by lower-case letters, angles by Greek letters, shapes by colour; the asked
    /// side is marked "?".
    Individual,
}

impl Annotation {
    pub const ALL: [Annotation; 2] = [Annotation::Coordinate, Annotation::Individual];
}

/// Where given side lengths and angle degrees are stated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Info {
    /// Drawn on the image next to their element (areas, perimeters, heights and
    /// variablized values are always in the text).
    #[default]
    Image,
    /// Stated in the question; the image then only names elements.
    Text,
}

/// How the question's information is split between its text and its image: a rung
/// of MathVerse's modality ladder (Zhang et al., ECCV 2024, §2.2). The text's facts
/// are of three kinds: descriptive information (DI: which shapes there are and how
/// they are joined), implicit properties (IP: shape kinds, right angles, angle
/// relations) and essential conditions (EC: the given values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Modality {
    /// GeomVerse's own split: non-standard shape kinds, and the givens not on the image.
    #[default]
    #[serde(skip)]
    Base,
    /// DI, every IP and every EC in the text; the base's image.
    TextDominant,
    /// Every IP and every EC in the text, no DI; the base's image.
    TextLite,
    /// `text-dominant`'s text, written in coordinate style (points named by their
    /// letters: no mark on an image names an element), and no image at all.
    TextOnly,
    /// Every EC in the text, and the IPs the image shows by no mark; the base's image.
    VisionIntensive,
    /// Only the IPs the image shows by no mark in the text; every given drawn on the
    /// image (`info` = image).
    VisionDominant,
    /// A fixed instruction in the text (MathVerse's "According to the question shown
    /// in the image, please directly answer the question."); the image is
    /// `vision-dominant`'s with its whole question drawn in a caption band below the
    /// diagram (`Problem::caption`).
    VisionOnly,
}

/// The whole text of a `vision-only` question: MathVerse's vision-only prompt for a
/// free-form answer, the question itself being in the image.
pub(crate) const VISION_ONLY_INSTRUCTION: &str =
    "According to the question shown in the image, please directly answer the question.";

impl Modality {
    /// Whether this is GeomVerse's own split (serde leaves it out of a Problem's JSON).
    pub(crate) fn is_base(&self) -> bool {
        *self == Modality::Base
    }

    /// Whether every given is drawn on the image, its value or `a·x + b`, and a
    /// shape's measures inside it (`vision-dominant`, `vision-only`).
    pub(crate) fn draws_every_given(self) -> bool {
        matches!(self, Modality::VisionDominant | Modality::VisionOnly)
    }

    /// Whether a row on this rung has an image (all but `text-only`).
    pub(crate) fn has_image(self) -> bool {
        self != Modality::TextOnly
    }
}

/// What the question asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum QuestionType {
    /// A length: a side, diagonal, diameter or height.
    Side,
    /// The degree of an angle.
    Angle,
    Area,
    /// A perimeter, circumference or arc length.
    Perimeter,
    /// Any of the four, drawn per problem.
    #[default]
    Any,
    /// A relation between elements, chosen among lettered options (a relation item,
    /// `generate --task relations`; never a GeomVerse problem's).
    #[cfg_attr(feature = "cli", value(skip))]
    Relation,
}

crate::words!(Info, "info", {
    Image => "image",
    Text => "text",
});

crate::words!(QuestionType, "question type", {
    Side => "side",
    Angle => "angle",
    Area => "area",
    Perimeter => "perimeter",
    Any => "any",
    Relation => "relation",
});

/// The generation parameters of one problem (the resolved question type, never `any`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Hops of reasoning from the given values to the answer.
    pub depth: u8,
    /// Probability of expanding a second input of a formula (reasoning width).
    pub branch_prob: f64,
    /// One more level of shapes whose derived value is also given, so they distract.
    pub distractors: bool,
    /// Probability ρ of stating a linear formula's elements as `a·x + b`.
    pub variablized: f64,
    pub info: Info,
    pub question_type: QuestionType,
    /// Only standard shapes (no composites).
    pub standard_only: bool,
    /// Which hand-written wording frames the question (0: GeomVerse's own; see
    /// `super::rewrite::phrasing`). Absent from a Problem's JSON when 0.
    #[serde(default, skip_serializing_if = "super::rewrite::phrasing::is_original")]
    pub phrasing: u8,
    /// A backward question (GeoEval): the forward answer is given and a given value
    /// is asked, so the answer differs from the forward problem's (`super::rewrite::backward`).
    /// Absent from a Problem's JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub backward: bool,
    /// How the information is split between text and image (the `modality` axis).
    /// Absent from a Problem's JSON when GeomVerse's own.
    #[serde(default, skip_serializing_if = "Modality::is_base")]
    pub modality: Modality,
}

/// A text in both annotation styles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    pub coordinate: String,
    pub individual: String,
}

impl Texts {
    pub(crate) fn get(&self, a: Annotation) -> &str {
        match a {
            Annotation::Coordinate => &self.coordinate,
            Annotation::Individual => &self.individual,
        }
    }
}

/// A label to draw in each style (absent = nothing drawn in that style).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labels {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinate: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub individual: Option<String>,
}

impl Labels {
    /// Nothing drawn in either style.
    pub(crate) fn is_empty(&self) -> bool {
        self.coordinate.is_none() && self.individual.is_none()
    }

    pub(crate) fn get(&self, a: Annotation) -> Option<&str> {
        match a {
            Annotation::Coordinate => self.coordinate.as_deref(),
            Annotation::Individual => self.individual.as_deref(),
        }
    }
}

/// The part an element plays in the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Its value is given (on the image or in the question).
    Given,
    /// Computed on the way to the answer.
    Derived,
    /// What the question asks for.
    Asked,
    /// Drawn but not part of the reasoning.
    Unused,
}

/// A named point, in diagram units (the problem's own lengths), y pointing down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub name: String,
    pub x: f64,
    pub y: f64,
}

/// One piece of a closed outline, in diagram units (y down).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Segment {
    Line {
        to: [f64; 2],
    },
    /// A circular arc, with SVG's flags: `sweep` = clockwise on screen.
    Arc {
        to: [f64; 2],
        center: [f64; 2],
        radius: f64,
        large_arc: bool,
        sweep: bool,
    },
}

/// A closed outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contour {
    pub start: [f64; 2],
    pub segments: Vec<Segment>,
}

impl Contour {
    /// The contour as a polyline from its start; arcs sampled at about `per_turn`
    /// points a full turn, their ends exact.
    pub(crate) fn polyline(&self, per_turn: usize) -> Vec<[f64; 2]> {
        let mut pts = vec![self.start];
        let mut cur = self.start;
        for seg in &self.segments {
            match *seg {
                Segment::Line { to } => {
                    pts.push(to);
                    cur = to;
                }
                Segment::Arc {
                    to, center, sweep, ..
                } => {
                    pts.extend(crate::vec2::arc_points(
                        cur, to, center, sweep, per_turn, 1e-9,
                    ));
                    cur = to;
                }
            }
        }
        pts
    }
}

/// A drawn shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub kind: ShapeKind,
    /// "ABCD" / "blue rectangle" (coordinate names of round shapes use the colour too).
    pub name: Texts,
    /// Colour name, distinct per shape ("blue"); `compose` maps it to a palette.
    pub colour: String,
    /// Points, in outline order.
    pub vertices: Vec<usize>,
    /// Outer outline first; further contours are holes (filled even-odd).
    pub outline: Vec<Contour>,
}

/// What a side element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideKind {
    /// An outline edge.
    Edge,
    /// A diagonal drawn inside (square, rectangle).
    Diagonal,
    /// A diameter drawn inside a circle.
    Diameter,
}

/// A straight segment between two points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub points: [usize; 2],
    pub kind: SideKind,
    /// Shapes it belongs to (two when shared).
    pub shapes: Vec<usize>,
    /// Length (the rounded value used by the texts).
    pub value: f64,
    pub name: Texts,
    pub status: Status,
    /// Its value is printed on the image.
    pub shown: bool,
    /// Given as `a·x + b` (variablized), e.g. "2x + 3".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<String>,
    pub label: Labels,
}

/// An angle (a, vertex, b), measured inside the shape or connector it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Angle {
    pub points: [usize; 3],
    /// The shape whose angle it is (absent for a connector's new angle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<usize>,
    /// Degrees.
    pub value: f64,
    pub name: Texts,
    pub status: Status,
    pub shown: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<String>,
    pub label: Labels,
}

/// What a measure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeasureKind {
    Area,
    Perimeter,
    ArcLength,
    Height,
}

/// A value of a whole shape: stated in the text, or, given on
/// `modality=vision-dominant`, drawn inside its shape ("Area = 50").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measure {
    pub shape: usize,
    pub kind: MeasureKind,
    pub value: f64,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<String>,
    /// Drawn inside the shape; absent (nothing drawn) but on `vision-dominant`.
    #[serde(default, skip_serializing_if = "Labels::is_empty")]
    pub label: Labels,
}

/// What an auxiliary line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AidKind {
    /// From a vertex perpendicular onto the edge `on`.
    Height,
    /// From the centre of the diameter `on` out to the arc.
    Radius,
    /// Between the non-adjacent vertices `on`, inside the shape.
    Diagonal,
    /// From a triangle's vertex to the middle of the opposite side `on`.
    Median,
    /// Between the two ends `on` of a sector's arc.
    Chord,
}

/// A dashed auxiliary line of one shape, in diagram units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuxLine {
    pub shape: usize,
    pub kind: AidKind,
    pub from: [f64; 2],
    pub to: [f64; 2],
    /// The points of the edge (height, median), diameter (radius), corners
    /// (diagonal) or arc ends (chord) it belongs to.
    pub on: [usize; 2],
}

/// An extra straight line of an angle connector (a side extended through a vertex).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ray {
    pub points: [usize; 2],
}

/// What a [`SegmentMark`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkKind {
    /// Short strokes across the segment: segments with as many ticks are equal.
    Tick,
    /// Arrowheads along the segment: lines with as many arrowheads are parallel.
    Arrow,
}

/// `count` marks of one kind at the middle of the segment between two points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SegmentMark {
    pub kind: MarkKind,
    pub points: [usize; 2],
    /// 1 to 3.
    pub count: u8,
}

/// Points a full turn of an outline arc is sampled with when a drawing is fitted to
/// its canvas ([`Diagram::bounds`], and compose's fit).
pub(crate) const ARC_SAMPLES_PER_TURN: usize = 72;

/// The semantic diagram `compose` draws.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Diagram {
    pub points: Vec<Point>,
    pub shapes: Vec<Shape>,
    pub sides: Vec<Side>,
    pub angles: Vec<Angle>,
    pub measures: Vec<Measure>,
    pub rays: Vec<Ray>,
    /// Auxiliary lines drawn dashed (the `aux` variants; `super::rewrite::aux`). Absent
    /// from a Problem's JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aux: Vec<AuxLine>,
    /// Corners (a, vertex, b) that get a right-angle mark.
    pub right_angles: Vec<[usize; 3]>,
    /// Tick marks (equal segments) and arrowheads (parallel lines) across segments:
    /// a relation item's conditions drawn in its visual mode. Absent from a
    /// Problem's JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<SegmentMark>,
    /// The box (diagram units, `[min, max]` corners) the drawing is fitted to the
    /// canvas by, when it is not the diagram's own bounds: a variant that adds
    /// shapes (`unrelated`) keeps its base's, so the base is drawn at the same
    /// scale and place. Absent from a Problem's JSON when not set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<[[f64; 2]; 2]>,
}

impl Diagram {
    /// The box the diagram's drawing spans (diagram units, `[min, max]`): every
    /// point, and every outline with its arcs sampled `per_turn` a full turn; `None`
    /// for a diagram with nothing to draw.
    pub(crate) fn bounds(&self, per_turn: usize) -> Option<[[f64; 2]; 2]> {
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        let outlines = self.shapes.iter().flat_map(|s| &s.outline);
        let samples = self
            .points
            .iter()
            .map(|q| [q.x, q.y])
            .chain(outlines.flat_map(|c| c.polyline(per_turn)));
        for q in samples {
            for i in 0..2 {
                lo[i] = lo[i].min(q[i]);
                hi[i] = hi[i].max(q[i]);
            }
        }
        (lo[0] <= hi[0] && lo[1] <= hi[1]).then_some([lo, hi])
    }

    /// Point `i`'s coordinates (diagram units, y down).
    pub(crate) fn xy(&self, i: usize) -> [f64; 2] {
        [self.points[i].x, self.points[i].y]
    }

    /// Every straight piece the diagram draws, in diagram units: the shapes'
    /// outlines (arcs as chords, about `per_turn` a full turn), then inner sides
    /// and rays.
    pub(crate) fn drawn_segments(&self, per_turn: usize) -> Vec<([f64; 2], [f64; 2])> {
        let mut out = Vec::new();
        for c in self.shapes.iter().flat_map(|s| &s.outline) {
            out.extend(c.polyline(per_turn).windows(2).map(|w| (w[0], w[1])));
        }
        for s in self.sides.iter().filter(|s| s.kind != SideKind::Edge) {
            out.push((self.xy(s.points[0]), self.xy(s.points[1])));
        }
        for r in &self.rays {
            out.push((self.xy(r.points[0]), self.xy(r.points[1])));
        }
        out
    }
}

/// An element of the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "index", rename_all = "lowercase")]
pub enum ElementRef {
    Side(usize),
    Angle(usize),
    Measure(usize),
}

/// A formula's role bound to a diagram element and its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    pub role: Role,
    pub element: ElementRef,
    pub value: f64,
}

/// An element stated as `a·x + b`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VarTerm {
    pub element: ElementRef,
    pub a: i64,
    pub b: i64,
}

/// The variable of a variablized step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variable {
    /// The value of x.
    pub x: f64,
    pub terms: Vec<VarTerm>,
}

/// One application of a formula; `steps` are in solution order (inputs before use).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Formula id (`formulas::FORMULAS`).
    pub formula: String,
    pub kind: ShapeKind,
    /// The shape it applies to (absent for angle connectors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<usize>,
    pub inputs: Vec<Binding>,
    pub output: Binding,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variable: Option<Variable>,
    /// Not needed: its output is also given, so this step's shape only distracts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub distractor: bool,
}

/// A generated problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Problem {
    /// File-name safe identifier, unique within a run (`s<seed>-<index>`).
    pub id: String,
    /// Per-problem seed; `generate::generate_one` with it and `params` reproduces the problem.
    pub seed: u64,
    pub params: Params,
    pub question: Texts,
    /// The solution (chain of thought), ending "Therefore the final answer is N."
    pub cot: Texts,
    pub answer: Answer,
    pub diagram: Diagram,
    pub steps: Vec<Step>,
    /// A relation-identification item's relation, conditions, asked elements and
    /// choices (`generate --task relations`); absent on a GeomVerse problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation: Option<Box<super::relations::RelationItem>>,
    /// The words drawn in a caption band below the diagram: on `modality` =
    /// `vision-only`, the question the image asks (its text then being only an
    /// instruction to answer it); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<Texts>,
}

/// A problem's answer: a number (GeomVerse), or the letter of the correct choice
/// of a relation item (`"B"`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Answer {
    Number(f64),
    Choice(char),
}

impl Answer {
    /// The number, on a GeomVerse problem.
    pub fn number(self) -> Option<f64> {
        match self {
            Answer::Number(v) => Some(v),
            Answer::Choice(_) => None,
        }
    }
}

impl std::fmt::Display for Answer {
    /// The answer as texts and dataset columns write it: GeomVerse's number format,
    /// or the letter.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Number(v) => f.write_str(&super::expr::fmt_num(*v)),
            Answer::Choice(c) => write!(f, "{c}"),
        }
    }
}

impl Problem {
    /// The question in one annotation style.
    pub fn question(&self, a: Annotation) -> &str {
        self.question.get(a)
    }

    /// The solution in one annotation style.
    pub fn cot(&self, a: Annotation) -> &str {
        self.cot.get(a)
    }

    /// Whether it is a relation-identification item (`generate --task relations`).
    pub(crate) fn is_relation(&self) -> bool {
        self.relation.is_some()
    }
}
