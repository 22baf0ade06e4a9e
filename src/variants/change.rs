//! What a variant may change about its base: the kinds of difference `geomrender
//! audit` finds between a variant's files and its base's, and that each axis
//! declares in its definition ([`super::AxisDef::may_change`]).

use serde::Serialize;

/// One kind of difference between a variant and its base, as seen in the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// The canvas size.
    Canvas,
    /// How the image is stored (PNG → JPEG): its bytes, not what is drawn.
    Encoding,
    /// The pixels differ while every drawn item is the same (only `Encoding` may).
    Pixels,
    /// Base paths redrawn elsewhere (turned, scaled, refitted): as many paths, other
    /// coordinates.
    PathsMoved,
    /// Paths the base does not draw (an auxiliary line, an unrelated shape, a leader).
    PathsAdded,
    /// Base paths no longer drawn.
    PathsRemoved,
    /// A leader line (from a label to what it labels) added, removed or moved.
    Leaders,
    /// A fill's colour or opacity, the path kept.
    Fills,
    /// A stroke's width, colour or dashes, the path kept.
    Strokes,
    /// A base label drawn elsewhere, its text kept.
    LabelsMoved,
    /// A label the base does not draw.
    LabelsAdded,
    /// A base label no longer drawn.
    LabelsRemoved,
    /// A label's text changed where it stands (a letter renamed, a value restated).
    LabelText,
    /// A label's numbers changed and nothing else of its text (`values`: a given
    /// redrawn); the label may stand elsewhere, as its element does.
    LabelValue,
    /// A label's font size or paint.
    LabelSize,
    /// Words drawn in a caption band below the diagram, the canvas grown down by it
    /// (`modality=vision-only`'s question).
    Caption,
    /// No image at all: the row is text only (`modality=text-only`), and its text
    /// must hold every value its base states or draws.
    NoImage,
    /// The question's text.
    Question,
    /// The solution's (CoT) text.
    Cot,
    /// The answer.
    Answer,
    /// A number the base states or draws that the variant neither states nor draws:
    /// a given lost on its way between text and image (checked where the variant
    /// draws anything, and on a row without an image, whose text must hold them
    /// all; only axes that change values or the asked given declare it).
    ValuesLost,
}

impl Change {
    /// Every kind, in the order reports show them.
    pub(crate) const ALL: [Change; 21] = [
        Change::Canvas,
        Change::Encoding,
        Change::Pixels,
        Change::PathsMoved,
        Change::PathsAdded,
        Change::PathsRemoved,
        Change::Leaders,
        Change::Fills,
        Change::Strokes,
        Change::LabelsMoved,
        Change::LabelsAdded,
        Change::LabelsRemoved,
        Change::LabelText,
        Change::LabelValue,
        Change::LabelSize,
        Change::Caption,
        Change::NoImage,
        Change::Question,
        Change::Cot,
        Change::Answer,
        Change::ValuesLost,
    ];

    /// The name in `audit.jsonl` and reports: `paths_moved`, `label_text`, ….
    pub fn name(self) -> &'static str {
        match self {
            Change::Canvas => "canvas",
            Change::Encoding => "encoding",
            Change::Pixels => "pixels",
            Change::PathsMoved => "paths_moved",
            Change::PathsAdded => "paths_added",
            Change::PathsRemoved => "paths_removed",
            Change::Leaders => "leaders",
            Change::Fills => "fills",
            Change::Strokes => "strokes",
            Change::LabelsMoved => "labels_moved",
            Change::LabelsAdded => "labels_added",
            Change::LabelsRemoved => "labels_removed",
            Change::LabelText => "label_text",
            Change::LabelValue => "label_value",
            Change::LabelSize => "label_size",
            Change::Caption => "caption",
            Change::NoImage => "no_image",
            Change::Question => "question",
            Change::Cot => "cot",
            Change::Answer => "answer",
            Change::ValuesLost => "values_lost",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_serde_names_and_all_is_complete() {
        for c in Change::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
        let mut names: Vec<&str> = Change::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Change::ALL.len());
    }
}
