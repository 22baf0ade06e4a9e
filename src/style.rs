//! How an image looks and is stored: [`Style`] (canvas, fills, lines, font size,
//! palette, rotation, scale) and [`Encoding`] (PNG or JPEG).
//!
//! These are plain values that several stages share: `variants` sets them, `compose`
//! draws with a `Style` (and checks its limits, `Style::validate`), `output` encodes
//! with an `Encoding`. This module depends on no stage, so none has to reach into a
//! later one for them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a diagram is drawn. Sizes are in px of the output canvas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Style {
    /// Square canvas side in px (default 512).
    pub canvas: u32,
    /// Opacity of the shape fills, 0..=1 (default 0.5: GeomVerse-like pastel fills).
    pub fill_opacity: f32,
    /// Outline width in px (default 2).
    pub line_width: f32,
    /// Label font size in px (default 16; labels stay readable on a 512 px canvas).
    pub font_size: f32,
    pub palette: Palette,
    pub rotation: Rotation,
    /// The diagram's drawn size as a share of its fitted size, about the canvas
    /// centre (default 1; written only when not 1, so older rows keep their bytes).
    #[serde(skip_serializing_if = "is_one")]
    pub scale: f32,
    /// A dot on every point that is not a corner of a drawn outline (default on;
    /// written only when off, so older rows keep their bytes). Labels keep clear of
    /// where the dots are either way.
    #[serde(skip_serializing_if = "is_true")]
    pub point_dots: bool,
    /// The diagram drawn (default on; written only when off). Off leaves a white
    /// canvas of the same size: the `modality=blank` control, which keeps the texts.
    #[serde(skip_serializing_if = "is_true")]
    pub diagram: bool,
    /// Drawn as if by hand, level 1..=3 (default 0: ruled; written only when not
    /// 0): every path and label moved within the level's bound, seeded by the
    /// problem's id (`variant.sketch`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sketch: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

fn is_one(v: &f32) -> bool {
    *v == 1.0
}

fn is_true(v: &bool) -> bool {
    *v
}

impl Default for Style {
    fn default() -> Self {
        Style {
            canvas: 512,
            fill_opacity: 0.5,
            line_width: 2.0,
            font_size: 16.0,
            palette: Palette::Color,
            rotation: Rotation::R0,
            scale: 1.0,
            point_dots: true,
            diagram: true,
            sketch: 0,
        }
    }
}

/// The range of every `Style` value: the one table of limits. `compose` refuses a
/// style outside it ([`Style::validate`]) and `variants` checks every variant of a
/// plan against it before any work, so an accepted `--variants` never fails a line.
pub(crate) mod limits {
    use std::ops::RangeInclusive;

    /// Canvas side in px.
    pub(crate) const CANVAS: RangeInclusive<u32> = 64..=8192;
    /// Fill opacity.
    pub(crate) const FILL_OPACITY: RangeInclusive<f32> = 0.0..=1.0;
    /// Outline width in px.
    pub(crate) const LINE_WIDTH: RangeInclusive<f32> = 0.0..=64.0;
    /// Label font size in px (below 4 px no glyph is legible; above 256 labels
    /// cannot be placed on any canvas).
    pub(crate) const FONT_SIZE: RangeInclusive<f32> = 4.0..=256.0;
    /// The diagram's drawn size as a share of its fitted size (below a tenth its
    /// labels crowd a few px).
    pub(crate) const SCALE: RangeInclusive<f32> = 0.1..=1.0;
}

/// A style value outside `limits`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("style: {field} must be within {min}..={max}, got {got}")]
pub struct StyleError {
    pub field: &'static str,
    pub min: f64,
    pub max: f64,
    pub got: f64,
}

impl Style {
    /// Checks every value against [`limits`].
    pub(crate) fn validate(&self) -> Result<(), StyleError> {
        fn check<T: PartialOrd + Into<f64> + Copy>(
            field: &'static str,
            range: std::ops::RangeInclusive<T>,
            got: T,
        ) -> Result<(), StyleError> {
            match range.contains(&got) {
                true => Ok(()),
                false => Err(StyleError {
                    field,
                    min: (*range.start()).into(),
                    max: (*range.end()).into(),
                    got: got.into(),
                }),
            }
        }
        check("canvas", limits::CANVAS, self.canvas)?;
        check("fill_opacity", limits::FILL_OPACITY, self.fill_opacity)?;
        check("line_width", limits::LINE_WIDTH, self.line_width)?;
        check("font_size", limits::FONT_SIZE, self.font_size)?;
        check("scale", limits::SCALE, self.scale)
    }
}

/// The colours shapes are filled with (outlines and labels are always black).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Palette {
    /// Each shape's named colour (the colour the individual-style texts name).
    #[default]
    Color,
    /// The named colours' luminance as gray.
    Grayscale,
    /// Fully saturated versions of the named colours.
    HighContrast,
}

/// Rotation of the diagram, clockwise; labels stay upright and are placed afresh.
///
/// Serialised as its degrees, an integer (`90`) as in a variant's `rotation`; the
/// string form (`"90"`) of manifests written before is still read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rotation {
    #[default]
    R0,
    R90,
    R180,
    R270,
}

impl Rotation {
    /// Every rotation, in increasing degrees.
    pub(crate) const ALL: [Rotation; 4] =
        [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// Clockwise degrees: 0, 90, 180 or 270.
    pub(crate) fn degrees(self) -> u32 {
        match self {
            Rotation::R0 => 0,
            Rotation::R90 => 90,
            Rotation::R180 => 180,
            Rotation::R270 => 270,
        }
    }

    /// The rotation of `degrees` clockwise, if it is one of 0, 90, 180, 270.
    pub(crate) fn from_degrees(degrees: u32) -> Option<Self> {
        Rotation::ALL.into_iter().find(|r| r.degrees() == degrees)
    }

    /// Clockwise quarter turns: 0..=3.
    pub(crate) fn quarter_turns(self) -> u8 {
        (self.degrees() / 90) as u8
    }
}

impl Serialize for Rotation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.degrees())
    }
}

impl<'de> Deserialize<'de> for Rotation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Degrees {
            Number(f64),
            Text(String),
            Other(serde::de::IgnoredAny),
        }
        let degrees = match Degrees::deserialize(d)? {
            Degrees::Number(n) if n.fract() == 0.0 && (0.0..=360.0).contains(&n) => Some(n as u32),
            Degrees::Text(t) => t.parse().ok(),
            _ => None,
        };
        degrees.and_then(Rotation::from_degrees).ok_or_else(|| {
            serde::de::Error::custom("rotation must be 0, 90, 180 or 270 (degrees clockwise)")
        })
    }
}

/// How a rendered image is stored (`crate::output::encode` writes the bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Lossless PNG (RGB when opaque, RGBA otherwise).
    #[default]
    Png,
    /// Baseline JPEG at the given quality (1..=100), composited over white.
    Jpeg { quality: u8 },
}

impl Encoding {
    /// The file extension, without the dot.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Encoding::Png => "png",
            Encoding::Jpeg { .. } => "jpg",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_round_trip_through_degrees_and_serde() {
        for r in Rotation::ALL {
            assert_eq!(Rotation::from_degrees(r.degrees()), Some(r));
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, r.degrees().to_string());
            assert_eq!(serde_json::from_str::<Rotation>(&json).unwrap(), r);
            // The string form of older manifests is still read.
            let old = format!("\"{}\"", r.degrees());
            assert_eq!(serde_json::from_str::<Rotation>(&old).unwrap(), r);
            assert_eq!(r.quarter_turns() as u32 * 90, r.degrees());
        }
        assert_eq!(Rotation::from_degrees(45), None);
        for bad in ["\"45\"", "45", "\"ninety\"", "-90"] {
            let err = serde_json::from_str::<Rotation>(bad).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with("rotation must be 0, 90, 180 or 270"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn default_style_round_trips() {
        let s = Style::default();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["rotation"], 0);
        assert_eq!(json["palette"], "color");
        assert_eq!(serde_json::from_value::<Style>(json).unwrap(), s);
    }
}
