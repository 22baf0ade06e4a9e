//! `modality`: MathVerse's modality ladder (Zhang et al., ECCV 2024, §2.2) — the
//! same problem with its information moved between the text and the image — and a
//! blank-image control.
//!
//! The question's facts are descriptive information (DI: the shapes, their points,
//! the sides they share), implicit properties (IP: shape kinds, angle relations) and
//! essential conditions (EC: the given values); `generate::text` writes each rung's
//! text from the Problem's own diagram and steps.

use super::{AxisDef, Change, OnScene, Values, chosen, words};
use crate::generate::{Annotation, Modality, ModalityError, with_modality};
use crate::variants::VariantError;

/// A value of the axis: a rung of the ladder, or the blank control.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Level {
    Rung(Modality),
    /// A white canvas of the same size; the base's texts.
    Blank,
}

/// In MathVerse's order, from the most text to the most image.
const CHOICES: [(&str, Level); 7] = [
    ("text-dominant", Level::Rung(Modality::TextDominant)),
    ("text-lite", Level::Rung(Modality::TextLite)),
    ("text-only", Level::Rung(Modality::TextOnly)),
    ("vision-intensive", Level::Rung(Modality::VisionIntensive)),
    ("vision-dominant", Level::Rung(Modality::VisionDominant)),
    ("vision-only", Level::Rung(Modality::VisionOnly)),
    ("blank", Level::Blank),
];
static WORDS: [&str; 7] = words(&CHOICES);

pub(super) static DEF: AxisDef = AxisDef {
    name: "modality",
    changes: "how the question's information is split between text and image (MathVerse's ladder): text-dominant states the descriptive information (points, shapes, shared sides), every implicit property (shape kinds, angle relations) and every given value, with the base's image; text-lite drops the descriptive sentences; text-only has text-dominant's text (in coordinate style, the shapes named by colour elsewhere named \"the first circle\", …: neither a mark nor a colour names anything without an image) and no image at all — its row's image is null, and every sink takes it (a null Parquet image, a WebDataset sample of its JSON alone, an empty VLMEvalKit image cell, no lmms-eval visual); vision-intensive also drops the properties the image shows (a right triangle by its right-angle mark, two angles vertical, supplementary or complementary by their lines); vision-dominant states no given and none of those properties, and draws every given on the image — a side or angle by its value (or its a·x + b), a shape's area, perimeter, arc length or height inside the shape (\"Area = 50\"); vision-only draws vision-dominant's image and its whole question in a caption band below the diagram (the canvas grows down by it; the diagram above is drawn as without it), and its text is only MathVerse's instruction \"According to the question shown in the image, please directly answer the question.\"; blank is a white canvas of the same size with the base's texts, the control for whether a score needs the diagram at all. Every value is made for every GeomVerse problem, even where it draws and says what the base does (a base with no fact for the rung to move), so the rungs are compared on the same bases. A relation item has text-only (every condition stated as GeomRel's text mode states it — a visual item's drawn ones too — and its solution's sentence on a key no mark gives restated for words) and blank; the other rungs are not made for it",
    from: "MathVerse (ECCV 2024) §2.2: text-dominant, text-lite, text-only, vision-intensive, vision-dominant, vision-only; blank: ours",
    base: "GeomVerse's own split",
    base_number: None,
    sweep: &WORDS,
    values: Values::Choice(&WORDS),
    numeric: false,
    plot_title: "modality (MathVerse's ladder, most text first)",
    look: Some(|s, look| match chosen(&CHOICES, s) {
        Some(Level::Blank) => look.style.diagram = false,
        // Individual style names a side by the mark on an image this row lacks.
        Some(Level::Rung(Modality::TextOnly)) => look.annotation = Annotation::Coordinate,
        _ => {}
    }),
    rewrite: Some(|s, p, _| match chosen(&CHOICES, s) {
        Some(Level::Rung(m)) => with_modality(&p, m).map_err(|e| match e {
            ModalityError::Text(error) => VariantError::Problem {
                axis: "modality",
                error,
            },
            e => VariantError::NoModality(e),
        }),
        _ => Ok(p),
    }),
    pixels: None,
    on_scene: OnScene::NeedsProblem,
    may_change: &[
        Change::Question,
        Change::Cot,
        Change::LabelsAdded,
        Change::LabelsRemoved,
        Change::LabelsMoved,
        Change::Leaders,
        Change::PathsRemoved,
        Change::Caption,
        Change::NoImage,
    ],
    made_when_same: true,
    relations: true,
    relations_sweep: Some(&["text-only", "blank"]),
    order: 5,
};
