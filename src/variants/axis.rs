//! The variant axes: what each changes, its base value, its default sweep, and
//! parsing and naming of its values.

use super::VariantError;
use crate::generate::aids::Aids;
use crate::generate::{Annotation, Info};
use crate::style::{Palette, Rotation};
use serde_json::Value;
use std::fmt;

/// One dimension along which a drawing can vary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    Opacity,
    LineWidth,
    FontSize,
    Annotation,
    Info,
    Resolution,
    Palette,
    Relabel,
    Rotation,
    Jpeg,
    Phrasing,
    Backward,
    Aux,
    Unrelated,
}

/// Documentation of one axis, as `geomrender variants --list` prints it.
pub struct AxisInfo {
    pub axis: Axis,
    /// The name used in SPEC, ids and manifests.
    pub name: &'static str,
    /// What a value of this axis changes, and nothing else.
    pub changes: &'static str,
    /// The value of the base image.
    pub base: &'static str,
    /// The base value as a number, on axes whose values are numbers on a scale
    /// (contact sheets and plots place the base among the swept values).
    pub base_number: Option<f64>,
    /// Values swept when SPEC names the axis without values (the base excluded).
    pub sweep: &'static [&'static str],
    /// Accepted values, as documentation.
    pub accepts: &'static str,
    /// Accepted range of a numeric axis (the parser's limits; `accepts` says the same).
    pub range: Option<(f64, f64)>,
    /// Semantic axes need a Problem; style axes also work on bare Scenes.
    pub needs_problem: bool,
    /// How the axis applies to a bare Scene.
    pub on_scenes: &'static str,
}

/// Every axis, in the order `variants --list` shows them.
pub const AXES: &[AxisInfo] = &[
    AxisInfo {
        axis: Axis::Opacity,
        name: "opacity",
        changes: "fill opacity of the shapes (outlines, marks and labels untouched)",
        base: "0.5",
        base_number: Some(0.5),
        sweep: &["0.1", "0.25", "0.75", "1"],
        accepts: "0..=1",
        range: Some((0.0, 1.0)),
        needs_problem: false,
        on_scenes: "sets fill_opacity of every filled path",
    },
    AxisInfo {
        axis: Axis::LineWidth,
        name: "linewidth",
        changes: "outline width in px at 512 px (label positions stay put)",
        base: "2",
        base_number: Some(2.0),
        sweep: &["0.5", "1", "4", "6"],
        accepts: "0.1..=32",
        range: Some((0.1, 32.0)),
        needs_problem: false,
        on_scenes: "scales every stroke width by value/2",
    },
    AxisInfo {
        axis: Axis::FontSize,
        name: "fontsize",
        changes: "size of all labels in px at 512 px; labels are re-placed, the diagram stays (a label with no room nearby gets a leader line)",
        base: "16",
        base_number: Some(16.0),
        sweep: &["8", "12", "24", "32"],
        accepts: "4..=96",
        range: Some((4.0, 96.0)),
        needs_problem: false,
        on_scenes: "scales every text size by value/16 (no re-layout)",
    },
    AxisInfo {
        axis: Axis::Annotation,
        name: "annotation",
        changes: "labels on the image and the question and solution texts together",
        base: "coordinate",
        base_number: None,
        sweep: &["individual"],
        accepts: "coordinate | individual",
        range: None,
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
    AxisInfo {
        axis: Axis::Info,
        name: "info",
        changes: "given values printed on the diagram (image) or stated in the question (text)",
        base: "the problem's own",
        base_number: None,
        sweep: &["text", "image"],
        accepts: "text | image",
        range: None,
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
    AxisInfo {
        axis: Axis::Resolution,
        name: "resolution",
        changes: "canvas side in px, with line widths and font sizes scaled along",
        base: "512",
        base_number: Some(512.0),
        sweep: &["256", "384", "768", "1024"],
        accepts: "128..=8192 (smaller canvases cannot fit a legible label)",
        range: Some((128.0, 8192.0)),
        needs_problem: false,
        on_scenes: "scales the scene so its longer side is the value",
    },
    AxisInfo {
        axis: Axis::Palette,
        name: "palette",
        changes: "shape fill colours; grayscale renames shapes to the greys drawn (black, dark gray, gray, light gray; darker colours darker; up to 4 shapes) and rewrites the texts to match; high-contrast fills keep their names' hues",
        base: "color",
        base_number: None,
        sweep: &["grayscale", "high-contrast"],
        accepts: "color | grayscale | high-contrast",
        range: None,
        needs_problem: false,
        on_scenes: "grayscale: every colour to its luma; high-contrast: fills fully saturated",
    },
    AxisInfo {
        axis: Axis::Relabel,
        name: "relabel",
        changes: "vertex letters permuted (every vertex renamed) in image and texts alike",
        base: "0 (original letters)",
        base_number: None,
        sweep: &["1", "2", "3"],
        accepts: "a permutation seed ≥ 1",
        range: Some((1.0, u64::MAX as f64)),
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
    AxisInfo {
        axis: Axis::Rotation,
        name: "rotation",
        changes: "diagram rotated clockwise by the value in degrees, labels kept upright and re-placed",
        base: "0",
        base_number: Some(0.0),
        sweep: &["90", "180", "270"],
        accepts: "0 | 90 | 180 | 270",
        range: None,
        needs_problem: false,
        on_scenes: "rotates geometry and text anchors about the centre (a 90° turn swaps width and height)",
    },
    AxisInfo {
        axis: Axis::Jpeg,
        name: "jpeg",
        changes: "stored as JPEG at the given quality instead of PNG",
        base: "none (PNG)",
        base_number: None,
        sweep: &["95", "75", "50", "25", "10"],
        accepts: "1..=100",
        range: Some((1.0, 100.0)),
        needs_problem: false,
        on_scenes: "same",
    },
    AxisInfo {
        axis: Axis::Phrasing,
        name: "phrasing",
        changes: "the question's framing sentences in another hand-written wording (GeoEval's rephrased questions, §3.1.3, without a language model); facts, names, numbers, solution and answer unchanged, image identical",
        base: "0 (GeomVerse's wording)",
        base_number: None,
        sweep: &["1", "2", "3"],
        accepts: "1 | 2 | 3",
        range: Some((1.0, crate::generate::phrasing::MAX as f64)),
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
    AxisInfo {
        axis: Axis::Backward,
        name: "backward",
        changes: "the backward question (GeoEval §3.1.2): the forward answer becomes a given and a given value of the reasoning's deepest leaf is asked, with a complete solution and a new answer (params.backward marks it); a problem with no given value that inverts within the rounding and 3 % rules gets no such variant, and the run says how many",
        base: "0 (the forward question)",
        base_number: None,
        sweep: &["1"],
        accepts: "1",
        range: Some((1.0, 1.0)),
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
    AxisInfo {
        axis: Axis::Aux,
        name: "aux",
        changes: "auxiliary lines drawn dashed (VisAidMath's visual aids): solution = the heights and semicircle radii the solution uses but the diagram does not show; unrelated = heights, radii and diagonals it does not use; texts and answer unchanged; a problem with no such line gets no such variant",
        base: "none",
        base_number: None,
        sweep: &["solution", "unrelated"],
        accepts: "solution | unrelated",
        range: None,
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
    AxisInfo {
        axis: Axis::Unrelated,
        name: "unrelated",
        changes: "that many rectangles attached to free sides (GeomRel's unrelated information, §2.5): each with one given value, its new side's length, on the image or in the question as the problem states its givens; solution and answer unchanged, no overlaps; a problem with no room gets no such variant",
        base: "0",
        base_number: Some(0.0),
        sweep: &["1", "2"],
        accepts: "1 | 2 | 3",
        range: Some((1.0, 3.0)),
        needs_problem: true,
        on_scenes: "needs a Problem",
    },
];

impl Axis {
    pub fn info(self) -> &'static AxisInfo {
        AXES.iter()
            .find(|a| a.axis == self)
            .expect("every axis is documented")
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn from_name(name: &str) -> Result<Axis, VariantError> {
        AXES.iter()
            .find(|a| a.name == name)
            .map(|a| a.axis)
            .ok_or_else(|| VariantError::UnknownAxis(name.to_string()))
    }

    /// Parses one value of this axis.
    pub fn parse(self, text: &str) -> Result<AxisValue, VariantError> {
        let bad = || VariantError::BadValue {
            axis: self.name(),
            value: text.to_string(),
            accepts: self.info().accepts,
        };
        let (lo, hi) = self.info().range.unwrap_or((f64::NAN, f64::NAN));
        let num = || -> Result<f64, VariantError> {
            let v: f64 = text.parse().map_err(|_| bad())?;
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        let int = || -> Result<u64, VariantError> {
            let v: u64 = text.parse().map_err(|_| bad())?;
            if (lo..=hi).contains(&(v as f64)) {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        Ok(match self {
            Axis::Opacity => AxisValue::Opacity(num()? as f32),
            Axis::LineWidth => AxisValue::LineWidth(num()? as f32),
            Axis::FontSize => AxisValue::FontSize(num()? as f32),
            Axis::Annotation => AxisValue::Annotation(match text {
                "coordinate" => Annotation::Coordinate,
                "individual" => Annotation::Individual,
                _ => return Err(bad()),
            }),
            Axis::Info => AxisValue::Info(match text {
                "text" => Info::Text,
                "image" => Info::Image,
                _ => return Err(bad()),
            }),
            Axis::Resolution => AxisValue::Resolution(int()? as u32),
            Axis::Palette => AxisValue::Palette(match text {
                "color" => Palette::Color,
                "grayscale" => Palette::Grayscale,
                "high-contrast" => Palette::HighContrast,
                _ => return Err(bad()),
            }),
            Axis::Relabel => AxisValue::Relabel(int()?),
            Axis::Rotation => AxisValue::Rotation(
                Rotation::ALL
                    .into_iter()
                    .find(|r| r.degrees().to_string() == text)
                    .ok_or_else(bad)?,
            ),
            Axis::Jpeg => AxisValue::Jpeg(int()? as u8),
            Axis::Phrasing => AxisValue::Phrasing(int()? as u8),
            Axis::Backward => {
                int()?;
                AxisValue::Backward
            }
            Axis::Unrelated => AxisValue::Unrelated(int()? as u8),
            Axis::Aux => AxisValue::Aux(match text {
                "solution" => Aids::Solution,
                "unrelated" => Aids::Unrelated,
                _ => return Err(bad()),
            }),
        })
    }
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value of one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AxisValue {
    Opacity(f32),
    LineWidth(f32),
    FontSize(f32),
    Annotation(Annotation),
    Info(Info),
    Resolution(u32),
    Palette(Palette),
    Relabel(u64),
    Rotation(Rotation),
    Jpeg(u8),
    /// A wording of the question, 1..=[`crate::generate::phrasing::MAX`].
    Phrasing(u8),
    /// The backward question (the only value, `1`).
    Backward,
    Aux(Aids),
    /// Unrelated shapes added, 1..=3.
    Unrelated(u8),
}

impl AxisValue {
    pub fn axis(&self) -> Axis {
        match self {
            AxisValue::Opacity(_) => Axis::Opacity,
            AxisValue::LineWidth(_) => Axis::LineWidth,
            AxisValue::FontSize(_) => Axis::FontSize,
            AxisValue::Annotation(_) => Axis::Annotation,
            AxisValue::Info(_) => Axis::Info,
            AxisValue::Resolution(_) => Axis::Resolution,
            AxisValue::Palette(_) => Axis::Palette,
            AxisValue::Relabel(_) => Axis::Relabel,
            AxisValue::Rotation(_) => Axis::Rotation,
            AxisValue::Jpeg(_) => Axis::Jpeg,
            AxisValue::Phrasing(_) => Axis::Phrasing,
            AxisValue::Backward => Axis::Backward,
            AxisValue::Aux(_) => Axis::Aux,
            AxisValue::Unrelated(_) => Axis::Unrelated,
        }
    }

    /// The value as it appears in ids: `0.25`, `24`, `individual`, `high-contrast`.
    pub fn label(&self) -> String {
        match self {
            AxisValue::Opacity(v) | AxisValue::LineWidth(v) | AxisValue::FontSize(v) => {
                number(*v as f64)
            }
            AxisValue::Annotation(a) => annotation_name(*a).to_string(),
            AxisValue::Info(Info::Text) => "text".into(),
            AxisValue::Info(Info::Image) => "image".into(),
            AxisValue::Resolution(v) => v.to_string(),
            AxisValue::Palette(Palette::Color) => "color".into(),
            AxisValue::Palette(Palette::Grayscale) => "grayscale".into(),
            AxisValue::Palette(Palette::HighContrast) => "high-contrast".into(),
            AxisValue::Relabel(v) => v.to_string(),
            AxisValue::Rotation(r) => rotation_degrees(*r).to_string(),
            AxisValue::Jpeg(q) => q.to_string(),
            AxisValue::Phrasing(k) => k.to_string(),
            AxisValue::Backward => "1".into(),
            AxisValue::Aux(Aids::Solution) => "solution".into(),
            AxisValue::Aux(Aids::Unrelated) => "unrelated".into(),
            AxisValue::Unrelated(k) => k.to_string(),
        }
    }

    /// The value on a numeric scale (as its label reads), or `None` for words.
    pub fn number(&self) -> Option<f64> {
        match self {
            AxisValue::Annotation(_)
            | AxisValue::Info(_)
            | AxisValue::Palette(_)
            | AxisValue::Phrasing(_)
            | AxisValue::Backward
            | AxisValue::Aux(_) => None,
            _ => self.label().parse().ok(),
        }
    }

    /// The value in manifests: a number for numeric axes, else a string.
    pub fn json(&self) -> Value {
        match self {
            AxisValue::Opacity(v) | AxisValue::LineWidth(v) | AxisValue::FontSize(v) => {
                // Through the shortest decimal form, so 0.1 is written 0.1, not 0.10000000149.
                Value::from(number(*v as f64).parse::<f64>().unwrap_or(*v as f64))
            }
            AxisValue::Resolution(v) => Value::from(*v),
            AxisValue::Relabel(v) => Value::from(*v),
            AxisValue::Rotation(r) => Value::from(rotation_degrees(*r)),
            AxisValue::Jpeg(q) | AxisValue::Phrasing(q) | AxisValue::Unrelated(q) => {
                Value::from(*q)
            }
            AxisValue::Backward => Value::from(1),
            _ => Value::from(self.label()),
        }
    }
}

pub fn annotation_name(a: Annotation) -> &'static str {
    match a {
        Annotation::Coordinate => "coordinate",
        Annotation::Individual => "individual",
    }
}

pub fn rotation_degrees(r: Rotation) -> u32 {
    r.degrees()
}

/// Shortest decimal text of an f32-sized value: 0.25, 24, 0.1.
fn number(v: f64) -> String {
    let s = format!("{}", v as f32);
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_axis_parses_its_sweep_and_base_and_names_values_stably() {
        for a in AXES {
            for v in a.sweep {
                let parsed = a
                    .axis
                    .parse(v)
                    .unwrap_or_else(|e| panic!("{}: {e}", a.name));
                assert_eq!(parsed.label(), *v, "{}", a.name);
                assert_eq!(parsed.axis(), a.axis);
            }
            assert_eq!(Axis::from_name(a.name).unwrap(), a.axis);
        }
    }

    #[test]
    fn values_are_checked() {
        for (axis, bad) in [
            (Axis::Opacity, "1.5"),
            (Axis::Opacity, "nan"),
            (Axis::FontSize, "0"),
            (Axis::FontSize, "big"),
            (Axis::Jpeg, "0"),
            (Axis::Jpeg, "101"),
            (Axis::Rotation, "45"),
            (Axis::Relabel, "0"),
            (Axis::Phrasing, "0"),
            (Axis::Phrasing, "4"),
            (Axis::Backward, "0"),
            (Axis::Backward, "2"),
            (Axis::Aux, "height"),
            (Axis::Unrelated, "0"),
            (Axis::Unrelated, "4"),
            (Axis::Palette, "sepia"),
            (Axis::Resolution, "32"),
            (Axis::Resolution, "64"),
        ] {
            assert!(
                matches!(axis.parse(bad), Err(VariantError::BadValue { .. })),
                "{axis}={bad}"
            );
        }
        assert_eq!(
            Axis::from_name("fontsze"),
            Err(VariantError::UnknownAxis("fontsze".into()))
        );
    }

    #[test]
    fn json_values_are_numbers_or_words() {
        assert_eq!(
            Axis::Opacity.parse("0.1").unwrap().json(),
            serde_json::json!(0.1)
        );
        assert_eq!(
            Axis::FontSize.parse("24").unwrap().json(),
            serde_json::json!(24.0)
        );
        assert_eq!(
            Axis::Rotation.parse("90").unwrap().json(),
            serde_json::json!(90)
        );
        assert_eq!(
            Axis::Palette.parse("high-contrast").unwrap().json(),
            serde_json::json!("high-contrast")
        );
    }
}
