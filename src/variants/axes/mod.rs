//! The variant axes: one file per axis, each one [`AxisDef`], collected in [`AXES`].
//!
//! An axis's definition is everything the tool says and does about it: its name,
//! what it changes, the paper it comes from, its base value and default sweep, the
//! values it accepts (which also give its manifest JSON and its JSON-Schema
//! fragment), its plot title, and the hooks that apply it — to the look of the
//! image, to the Problem, and to a bare Scene. `variants --list`, the manifest
//! schema's `variant` block (`tests/it/manifest_row.rs` compares), the plots, the
//! contact sheets and the run's messages all read this table.
//!
//! Adding an axis is one new file here and one entry: its `mod` line, its line in
//! [`AXES`] and its line in the table below (plus its tests).
//!
//! ```text
//! opacity     fill opacity                     annotation  labels and texts, coordinate ↔ individual
//! linewidth   outline width                    info        givens on the image or in the text
//! fontsize    label size                       relabel     vertex letters permuted
//! resolution  canvas side                      phrasing    the question's wording
//! palette     fill colours                     backward    the backward question
//! rotation    diagram turned                   aux         auxiliary lines drawn
//! scale       diagram's drawn size             unrelated   unrelated shapes added
//! jpeg        stored as JPEG                   dots        point dots drawn or not
//! blur        pixels blurred (pixel stage)     values      the givens drawn again
//! corrupt     ImageNet-C corruptions (pixels)  choices     the options rotated
//! sketch      drawn as if by hand (paths)      modality    MathVerse's ladder, blank
//! photo       a phone photo of a print (pixels)
//! ```

mod annotation;
mod aux;
mod backward;
mod blur;
mod choices;
mod corrupt;
mod dots;
mod fontsize;
mod info;
mod jpeg;
mod linewidth;
mod modality;
mod opacity;
mod palette;
mod photo;
mod phrasing;
mod relabel;
mod resolution;
mod rotation;
mod scale;
mod sketch;
mod unrelated;
mod values;

use super::VariantError;
pub(super) use super::change::Change;
use super::pixels::PixelHook;
use crate::decimal::{fmt_shortest_f32 as decimal, shortest_f32_as_f64};
use crate::generate::{Annotation, Problem};
use crate::scene::Scene;
use crate::style::{Encoding, Style};
use serde_json::{Value, json};
use std::fmt;

/// Every axis, in the order `variants --list` shows them.
pub const AXES: &[Axis] = &[
    Axis(&opacity::DEF),
    Axis(&linewidth::DEF),
    Axis(&fontsize::DEF),
    Axis(&annotation::DEF),
    Axis(&info::DEF),
    Axis(&resolution::DEF),
    Axis(&palette::DEF),
    Axis(&relabel::DEF),
    Axis(&rotation::DEF),
    Axis(&jpeg::DEF),
    Axis(&phrasing::DEF),
    Axis(&backward::DEF),
    Axis(&aux::DEF),
    Axis(&unrelated::DEF),
    Axis(&scale::DEF),
    Axis(&dots::DEF),
    Axis(&blur::DEF),
    Axis(&corrupt::DEF),
    Axis(&sketch::DEF),
    Axis(&photo::DEF),
    Axis(&values::DEF),
    Axis(&choices::DEF),
    Axis(&modality::DEF),
];

/// The axes that code outside their own file names.
impl Axis {
    pub(crate) const BACKWARD: Axis = Axis(&backward::DEF);
    pub(crate) const AUX: Axis = Axis(&aux::DEF);
    pub(crate) const UNRELATED: Axis = Axis(&unrelated::DEF);
    pub(crate) const PALETTE: Axis = Axis(&palette::DEF);
    pub(crate) const VALUES: Axis = Axis(&values::DEF);
    pub(crate) const CHOICES: Axis = Axis(&choices::DEF);
    pub(crate) const MODALITY: Axis = Axis(&modality::DEF);
    pub(crate) const CORRUPT: Axis = Axis(&corrupt::DEF);
    pub(crate) const SKETCH: Axis = Axis(&sketch::DEF);
    pub(crate) const PHOTO: Axis = Axis(&photo::DEF);
}

/// The definition of one axis.
pub struct AxisDef {
    /// The name used in SPEC, ids and manifests.
    pub name: &'static str,
    /// What a value of this axis changes, and nothing else.
    pub changes: &'static str,
    /// Where the axis comes from (a paper of `shared/reference`, or ours).
    pub from: &'static str,
    /// The value of the base image.
    pub base: &'static str,
    /// The base value as a number, on axes whose values are on a scale (contact
    /// sheets and plots place the base among the swept values).
    pub base_number: Option<f64>,
    /// Values swept when SPEC names the axis without values (the base excluded).
    pub sweep: &'static [&'static str],
    /// The values it accepts; they also give its manifest JSON and schema.
    pub values: Values,
    /// Values are quantities on a scale (plots place them at their numbers and
    /// contact sheets sort them); otherwise they are categories.
    pub numeric: bool,
    /// The x axis title of its plots (what it measures, with the unit).
    pub plot_title: &'static str,
    /// How it sets the look of the image (style, annotation, encoding).
    pub look: Option<fn(Setting, &mut Look)>,
    /// How it rewrites the Problem (its question, givens, names or diagram).
    pub rewrite: Option<Rewrite>,
    /// How it changes the rendered pixels: the pixel stage, after the raster and
    /// before the encoder, on every backend ([`super::Pixels`]).
    pub pixels: Option<PixelHook>,
    /// How it applies to a bare Scene.
    pub on_scene: OnScene,
    /// What a value of it may change about the base, as `geomrender audit` sees the
    /// files; anything else the audit finds is an undeclared change.
    pub may_change: &'static [Change],
    /// Whether it applies to a relation item (`generate --task relations`): the
    /// style axes do, and GeomRel's own operations (relabel, unrelated) in their
    /// relation form; the axes that rewrite a GeomVerse problem's givens, question
    /// or solution (info, phrasing, backward, aux), and the individual annotation
    /// (whose image names no point the item's texts name), do not.
    pub relations: bool,
    /// The values `all` sweeps on relation items, when not the whole
    /// [`sweep`](Self::sweep): those a relation item has (`modality`: text-only and
    /// the blank control).
    pub relations_sweep: Option<&'static [&'static str]>,
    /// Whether a value that draws and says exactly what its base does is still
    /// made: a rung of a ladder is a condition of its own on every base, so a study
    /// compares the rungs on the same bases (`modality`: a base with no fact for a
    /// rung to move is its own vision-dominant version). Otherwise such a variant
    /// measures nothing and is skipped as `identical`; `audit` flags one made.
    pub made_when_same: bool,
    /// When its hooks run among the other axes' (lower first; equal ones in SPEC
    /// order): other values before all (drawn again from the seed), the backward question before the rewrites that keep it, the wording
    /// before the texts are regenerated in it, the canvas size last.
    pub order: u8,
}

/// An axis's rewrite of the Problem, knowing how the image is drawn (the look of
/// every axis of the variant, e.g. the fill opacity grey names depend on).
pub(super) type Rewrite = fn(Setting, Problem, &Look) -> Result<Problem, VariantError>;

/// The values an axis accepts.
pub enum Values {
    /// Decimal numbers in `lo..=hi`, named by their shortest decimal form.
    Number { lo: f32, hi: f32 },
    /// Whole numbers in `lo..=hi`; only those in `only` when it is not empty.
    Integer {
        lo: u64,
        hi: u64,
        only: &'static [u64],
    },
    /// One of these words.
    Choice(&'static [&'static str]),
}

/// How an axis applies to a bare Scene.
pub enum OnScene {
    /// It cannot: it rewrites texts or needs the geometry behind the drawing.
    NeedsProblem,
    /// It does, as documented.
    Apply {
        doc: &'static str,
        apply: fn(Setting, &mut Scene, &mut Encoding) -> Result<(), VariantError>,
    },
}

/// One parsed value, as its axis's [`Values`] describe it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setting {
    Number(f32),
    Integer(u64),
    /// The index of the word in [`Values::Choice`].
    Choice(usize),
}

/// Everything about an image that is not its Problem: what the look hooks set.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    pub style: Style,
    pub annotation: Annotation,
    pub encoding: Encoding,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            style: Style::default(),
            annotation: Annotation::Coordinate,
            encoding: Encoding::Png,
        }
    }
}

/// One axis: a handle on its [`AxisDef`] (equal when the definition is the same).
#[derive(Clone, Copy)]
pub struct Axis(&'static AxisDef);

impl std::ops::Deref for Axis {
    type Target = AxisDef;
    fn deref(&self) -> &AxisDef {
        self.0
    }
}

impl PartialEq for Axis {
    fn eq(&self, other: &Axis) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Axis {}

impl std::hash::Hash for Axis {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.name.hash(h)
    }
}

/// In table order.
impl Ord for Axis {
    fn cmp(&self, other: &Axis) -> std::cmp::Ordering {
        self.position().cmp(&other.position())
    }
}

impl PartialOrd for Axis {
    fn partial_cmp(&self, other: &Axis) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl Axis {
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Its place in [`AXES`].
    fn position(self) -> usize {
        AXES.iter().position(|a| *a == self).unwrap_or(usize::MAX)
    }

    pub(crate) fn from_name(name: &str) -> Result<Axis, VariantError> {
        AXES.iter()
            .copied()
            .find(|a| a.name == name)
            .ok_or_else(|| VariantError::UnknownAxis(name.to_string()))
    }

    /// Semantic axes need a Problem; style axes also work on bare Scenes.
    pub(crate) fn needs_problem(self) -> bool {
        matches!(self.on_scene, OnScene::NeedsProblem)
    }

    /// What `--list` says of bare Scenes.
    pub fn on_scenes(self) -> &'static str {
        match self.on_scene {
            OnScene::NeedsProblem => "needs a Problem",
            OnScene::Apply { doc, .. } => doc,
        }
    }

    /// The accepted values, as documentation.
    pub fn accepts(self) -> String {
        match self.values {
            Values::Number { lo, hi } => format!("{}..={}", decimal(lo), decimal(hi)),
            Values::Integer { only: [], lo, hi } if hi == u64::MAX => format!("≥ {lo}"),
            Values::Integer { only: [], lo, hi } if lo == hi => lo.to_string(),
            Values::Integer { only: [], lo, hi } => format!("{lo}..={hi}"),
            Values::Integer { only, .. } => join(only.iter().map(u64::to_string)),
            Values::Choice(words) => join(words.iter().map(|w| w.to_string())),
        }
    }

    /// The JSON-Schema fragment of its manifest value (`variant.<name>`), as
    /// `schemas/manifest.schema.json` has it (`tests/it/manifest_row.rs` compares).
    pub fn schema(self) -> Value {
        let mut fragment = match self.values {
            Values::Number { lo, hi } => json!({
                "type": "number",
                "minimum": schema_number(lo),
                "maximum": schema_number(hi),
            }),
            Values::Integer { only: [], lo, hi } if lo == hi => json!({ "enum": [lo] }),
            Values::Integer { only: [], lo, hi } if hi == u64::MAX => json!({
                "type": "integer",
                "minimum": lo,
            }),
            Values::Integer { only: [], lo, hi } => json!({
                "type": "integer",
                "minimum": lo,
                "maximum": hi,
            }),
            Values::Integer { only, .. } => json!({ "enum": only }),
            Values::Choice(words) => json!({ "enum": words }),
        };
        fragment["description"] = Value::from(self.plot_title);
        fragment
    }

    /// The axis as `geomrender variants --list --json` gives it
    /// (`schemas/variants.schema.json`): everything its definition says, and which
    /// bases it applies to.
    pub(crate) fn describe(self) -> Value {
        let values = match self.values {
            Values::Number { lo, hi } => json!({
                "kind": "number",
                "minimum": schema_number(lo),
                "maximum": schema_number(hi),
            }),
            Values::Integer { only: [], lo, hi } => {
                let mut v = json!({ "kind": "integer", "minimum": lo });
                // Unbounded (relabel's seeds): no maximum.
                if hi != u64::MAX {
                    v["maximum"] = Value::from(hi);
                }
                v
            }
            Values::Integer { only, .. } => json!({ "kind": "integer", "only": only }),
            Values::Choice(words) => json!({ "kind": "choice", "only": words }),
        };
        let sweep: Vec<Value> = (self.sweep.iter())
            .map(|v| match self.parse(v) {
                Ok(v) => json!({ "label": v.label(), "value": v.json() }),
                // Never: every sweep parses (the table's tests).
                Err(_) => json!({ "label": v, "value": v }),
            })
            .collect();
        let may: Vec<&str> = self.may_change.iter().map(|c| c.name()).collect();
        json!({
            "name": self.name,
            "changes": self.changes,
            "source": self.from,
            "base": self.base,
            "base_number": self.base_number,
            "sweep": sweep,
            "accepts": self.accepts(),
            "values": values,
            "manifest_schema": self.schema(),
            "numeric": self.numeric,
            "plot_title": self.plot_title,
            "applies_to": {
                "geomverse": true,
                "relations": self.relations,
                "scenes": !self.needs_problem(),
            },
            "scenes": self.on_scenes(),
            "may_change": may,
        })
    }

    /// Parses one value of this axis.
    pub(crate) fn parse(self, text: &str) -> Result<AxisValue, VariantError> {
        let bad = || VariantError::BadValue {
            axis: self.name,
            value: text.to_string(),
            accepts: self.accepts(),
        };
        let setting = match self.values {
            Values::Number { lo, hi } => {
                let v: f64 = text.parse().map_err(|_| bad())?;
                // The bounds as written (0.1, not 0.1f32's 0.100000001…).
                let (lo, hi) = (shortest_f32_as_f64(lo), shortest_f32_as_f64(hi));
                if !(v.is_finite() && (lo..=hi).contains(&v)) {
                    return Err(bad());
                }
                Setting::Number(v as f32)
            }
            Values::Integer { lo, hi, only } => {
                let v: u64 = text.parse().map_err(|_| bad())?;
                let allowed = match only {
                    [] => (lo..=hi).contains(&v),
                    _ => only.contains(&v) && v.to_string() == text,
                };
                if !allowed {
                    return Err(bad());
                }
                Setting::Integer(v)
            }
            Values::Choice(words) => {
                Setting::Choice(words.iter().position(|w| *w == text).ok_or_else(bad)?)
            }
        };
        Ok(AxisValue {
            axis: self,
            setting,
        })
    }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(" | ")
}

/// A value of one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisValue {
    axis: Axis,
    setting: Setting,
}

impl AxisValue {
    pub(crate) fn axis(&self) -> Axis {
        self.axis
    }

    pub(crate) fn setting(&self) -> Setting {
        self.setting
    }

    /// Whether the value's pixel step leaves every image of `scene` as it is
    /// (`corrupt=saturate-1..3` on a drawing of greys).
    pub(crate) fn keeps_pixels_of(&self, scene: &Scene) -> bool {
        self.axis == Axis::CORRUPT && corrupt::keeps(self.setting, scene)
    }

    /// The contact sheet this value goes on when its axis has several: `corrupt`
    /// has one per ImageNet-C family (noise, blur, weather, digital).
    pub(crate) fn sheet(&self) -> Option<&'static str> {
        if self.axis != Axis::CORRUPT {
            return None;
        }
        corrupt::of(self.setting).map(|(c, _)| c.family.name())
    }

    /// The value as it appears in ids: `0.25`, `24`, `individual`, `high-contrast`.
    pub(crate) fn label(&self) -> String {
        match (self.setting, &self.axis.values) {
            (Setting::Number(v), _) => decimal(v),
            (Setting::Integer(v), _) => v.to_string(),
            (Setting::Choice(i), Values::Choice(words)) => words[i].to_string(),
            (Setting::Choice(i), _) => i.to_string(),
        }
    }

    /// The value on a numeric scale (as its label reads), or `None` for categories.
    pub(crate) fn number(&self) -> Option<f64> {
        match self.setting {
            Setting::Number(_) | Setting::Integer(_) if self.axis.numeric => {
                self.label().parse().ok()
            }
            _ => None,
        }
    }

    /// The value in manifests: a number for numbers, else a string.
    pub(crate) fn json(&self) -> Value {
        match self.setting {
            Setting::Number(v) => decimal_json(v),
            Setting::Integer(v) => Value::from(v),
            Setting::Choice(_) => Value::from(self.label()),
        }
    }
}

/// The number as JSON through its shortest decimal form, so 0.1 is written 0.1.
fn decimal_json(v: f32) -> Value {
    Value::from(shortest_f32_as_f64(v))
}

/// A bound in a schema: whole numbers as integers (`1`, not `1.0`).
fn schema_number(v: f32) -> Value {
    match v.fract() == 0.0 {
        true => Value::from(v as i64),
        false => decimal_json(v),
    }
}

/// The words of a choice table `[(word, value)]`, for [`Values::Choice`].
const fn words<T: Copy, const N: usize>(choices: &[(&'static str, T); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = choices[i].0;
        i += 1;
    }
    out
}

/// The typed value of a choice, by the index its axis parsed.
fn chosen<T: Copy>(choices: &[(&'static str, T)], setting: Setting) -> Option<T> {
    match setting {
        Setting::Choice(i) => choices.get(i).map(|c| c.1),
        _ => None,
    }
}

/// A number setting (opacity, line width, font size, scale).
fn number(setting: Setting) -> Option<f32> {
    match setting {
        Setting::Number(v) => Some(v),
        _ => None,
    }
}

/// A whole-number setting.
fn integer(setting: Setting) -> Option<u64> {
    match setting {
        Setting::Integer(v) => Some(v),
        _ => None,
    }
}

/// Every path of a scene.
fn each_path(s: &mut Scene, mut f: impl FnMut(&mut crate::scene::PathItem)) {
    for item in &mut s.items {
        if let crate::scene::Item::Path(p) = item {
            f(p);
        }
    }
}

/// A failed rewrite of the texts, blamed on `axis`.
fn rewrite_error(axis: &'static str) -> impl Fn(crate::generate::TextError) -> VariantError {
    move |error| VariantError::Problem { axis, error }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(name: &str) -> Axis {
        Axis::from_name(name).unwrap()
    }

    #[test]
    fn every_axis_parses_its_sweep_and_names_values_stably() {
        for a in AXES {
            assert!(!a.sweep.is_empty(), "{a}");
            for v in a.sweep {
                let parsed = a.parse(v).unwrap_or_else(|e| panic!("{a}: {e}"));
                assert_eq!(parsed.label(), *v, "{a}");
                assert_eq!(parsed.axis(), *a);
            }
            assert_eq!(Axis::from_name(a.name).unwrap(), *a);
            assert!(
                a.numeric || a.base_number.is_none(),
                "{a}: a base number off a scale"
            );
            assert!(
                a.look.is_some() || a.rewrite.is_some() || a.pixels.is_some(),
                "{a} does nothing"
            );
        }
    }

    #[test]
    fn names_are_unique_and_ordered_by_the_table() {
        for (i, a) in AXES.iter().enumerate() {
            for b in &AXES[i + 1..] {
                assert_ne!(a.name, b.name);
                assert!(a < b);
            }
        }
    }

    #[test]
    fn values_are_checked() {
        for (axis, bad) in [
            (axis("opacity"), "1.5"),
            (axis("opacity"), "nan"),
            (axis("fontsize"), "0"),
            (axis("fontsize"), "big"),
            (axis("jpeg"), "0"),
            (axis("jpeg"), "101"),
            (axis("rotation"), "45"),
            (axis("rotation"), "090"),
            (axis("relabel"), "0"),
            (axis("phrasing"), "0"),
            (axis("phrasing"), "4"),
            (Axis::BACKWARD, "0"),
            (Axis::BACKWARD, "2"),
            (Axis::AUX, "height"),
            (Axis::UNRELATED, "0"),
            (Axis::UNRELATED, "4"),
            (axis("palette"), "sepia"),
            (axis("resolution"), "32"),
            (axis("resolution"), "64"),
            (axis("scale"), "0"),
            (axis("scale"), "1.5"),
            (axis("linewidth"), "0.09999"),
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
        let json = |a: Axis, v: &str| a.parse(v).unwrap().json();
        assert_eq!(json(axis("opacity"), "0.1"), json!(0.1));
        assert_eq!(json(axis("linewidth"), "0.1"), json!(0.1));
        assert_eq!(json(axis("fontsize"), "24"), json!(24.0));
        assert_eq!(json(axis("rotation"), "90"), json!(90));
        assert_eq!(json(Axis::BACKWARD, "1"), json!(1));
        assert_eq!(
            json(axis("palette"), "high-contrast"),
            json!("high-contrast")
        );
    }

    #[test]
    fn accepts_reads_the_values() {
        assert_eq!(axis("opacity").accepts(), "0..=1");
        assert_eq!(axis("rotation").accepts(), "0 | 90 | 180 | 270");
        assert_eq!(axis("relabel").accepts(), "≥ 1");
        assert_eq!(Axis::BACKWARD.accepts(), "1");
        assert_eq!(
            axis("palette").accepts(),
            "color | grayscale | high-contrast"
        );
    }
}
