//! Perception probes: questions about what one image shows, asked about the very
//! image a reasoning question is asked with, each answered exactly from the image's
//! own geometry (its grounding: `compose`'s record of what it draws, in px) and
//! decidable by eye.
//!
//! The kinds follow Geoperception's tasks (Euclid, 2024: PointLiesOnLine,
//! PointLiesOnCircle, AngleClassification, LineComparison, Parallel, Perpendicular,
//! Equals) and the counting of "VLMs are blind" and MathGlance. A probe names only
//! points whose letters the image draws, and is asked only where the picture
//! decides it with a margin (each kind's file states its margins). Yes/no kinds are
//! asked in pairs, one "Yes" and one "No" from the same image with the same
//! signature (what the question's letters alone tell: shared points, one shape), so
//! that every run's answers are exactly half "Yes" and the names give nothing away;
//! a multiple-choice probe's options are in a uniformly drawn order; a count is
//! answered with a number.
//!
//! ```text
//! lines     parallel, perpendicular, line_comparison, equal: pairs of drawn lines
//! points    point_on_line, point_on_circle
//! angles    angle_classification
//! counting  labelled points, triangles, quadrilaterals
//! select    which probes an image gets: seeded, balanced, bounded per kind and image
//! ```

mod angles;
mod counting;
mod lines;
mod points;
mod select;

use crate::compose::Grounding;
use serde::{Deserialize, Serialize};

pub(crate) use select::probes;

/// What a probe asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ProbeKind {
    PointOnLine,
    PointOnCircle,
    AngleClassification,
    LineComparison,
    Parallel,
    Perpendicular,
    Equal,
    Counting,
}

/// How a kind is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answers {
    /// "Yes" or "No", asked in pairs of one each.
    YesNo,
    /// One of several options, the correct one at a drawn position.
    Options,
}

/// One kind of probe: its name and how its candidates are found. (`name` and
/// `asks` are read by the tests that write the README's table of kinds.)
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct KindDef {
    pub kind: ProbeKind,
    pub name: &'static str,
    /// What it asks, for `--help` and the README.
    pub asks: &'static str,
    pub answers: Answers,
    /// Every probe of this kind the image decides, in a fixed order: cheap records,
    /// worded by `texts` only when chosen.
    pub candidates: fn(&Grounding) -> Vec<Candidate>,
    /// A chosen candidate's words.
    pub texts: fn(&Grounding, &Candidate) -> Texts,
}

/// The probe kinds, in [`ProbeKind`] order: the one table every list reads.
pub(crate) static KINDS: [KindDef; 8] = [
    points::ON_LINE,
    points::ON_CIRCLE,
    angles::CLASSIFICATION,
    lines::COMPARISON,
    lines::PARALLEL,
    lines::PERPENDICULAR,
    lines::EQUAL,
    counting::COUNTING,
];

#[cfg_attr(not(test), allow(dead_code))]
impl ProbeKind {
    pub(crate) fn def(self) -> &'static KindDef {
        &KINDS[self as usize]
    }

    /// Its name in rows and reports (`point_on_line`).
    pub(crate) fn name(self) -> &'static str {
        self.def().name
    }
}

/// A question the image decides, as its kind records it (no text yet: an image
/// has many candidates and asks a few).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate {
    /// What it is about, in its kind's terms (indices of lines, points, shapes).
    pub about: [usize; 3],
    /// Index of the correct option in its texts' `options` (yes/no: 0 is "Yes").
    pub correct: usize,
    /// The measurements that decide it (px, degrees), for `why`.
    pub measure: [f64; 2],
    /// A count, answered as a number.
    pub count: Option<u32>,
    /// What a reader of the question alone could tell about it (whether the two
    /// segments share a point, whether they are sides of one shape, …): a "Yes" is
    /// paired only with a "No" of the same signature, so none of it tells the answer.
    pub sig: u32,
}

impl Candidate {
    /// A yes/no candidate about `about`, measured `measure`, of signature `sig`.
    pub(crate) fn yes_no(about: [usize; 3], yes: bool, measure: [f64; 2], sig: u32) -> Candidate {
        Candidate {
            about,
            correct: usize::from(!yes),
            measure,
            count: None,
            sig,
        }
    }
}

/// A candidate's words.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Texts {
    /// The point names it asks about: `["AB", "CD"]`, `["ABC"]` for an angle.
    pub elements: Vec<String>,
    pub question: String,
    /// The options in their natural order (`Yes`, `No`); none for a count.
    pub options: Vec<String>,
    /// How the answer follows from the image: the measurements, in px or degrees.
    pub why: String,
}

/// A probe of one image.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Probe {
    pub kind: ProbeKind,
    pub elements: Vec<String>,
    pub question: String,
    pub answer: ProbeAnswer,
    pub why: String,
}

/// How a probe is answered.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ProbeAnswer {
    /// One of `choices` (in the order asked): the one at `correct`.
    Choice {
        choices: Vec<String>,
        correct: usize,
    },
    /// A count, answered as a number (no options: a count's options would give
    /// small counts away by their position).
    Count(u32),
}

/// How many probes each image gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeOptions {
    /// Most probes per image (about this many where the image allows).
    pub per_image: usize,
    /// Most probes of one kind per image (a yes/no kind is asked in pairs, so 2
    /// or more for those to appear).
    pub per_kind: usize,
}

impl Default for ProbeOptions {
    /// About six probes per image, at most two of a kind: three kinds or more.
    fn default() -> Self {
        ProbeOptions {
            per_image: 6,
            per_kind: 2,
        }
    }
}

/// "Yes" and "No", in this order.
pub(crate) const YES_NO: [&str; 2] = ["Yes", "No"];

/// "Yes" and "No" as options.
pub(crate) fn yes_no_options() -> Vec<String> {
    YES_NO.iter().map(|s| s.to_string()).collect()
}

/// A number of px or degrees as the explanations write it (one decimal).
pub(crate) fn fmt1(v: f64) -> String {
    format!("{v:.1}")
}
