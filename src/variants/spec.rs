//! `--variants SPEC`: which axes, which values, swept one at a time or as a grid.
//!
//! SPEC is `;`-separated axes, each `name` (its default sweep) or `name=v1,v2,…`:
//! `fontsize`, `fontsize=8,12,16,24,32`, `opacity;linewidth=1,2,4`; `all` stands
//! for every axis of the table not named elsewhere in SPEC, each at its default
//! sweep (`all`, `resolution=256;all`).

use super::{Axis, AxisValue, Change, VariantError};

/// The sweep `geomrender sweep` (and the Python package's `variants`) runs by
/// default: the GeomVerse study's four axes, each with its default values.
pub const GEOMVERSE_SWEEP: &str = "opacity;linewidth;fontsize;annotation";

/// The default sweep of relation items: GeomVerse's style axes (the individual
/// annotation does not apply to relation items) and GeomRel's own two operations,
/// as its §2.5 makes them: one relabelling (RP; more seeds would repeat the same
/// condition) and one or two unrelated points (UI).
pub const RELATION_SWEEP: &str = "opacity;linewidth;fontsize;relabel=1;unrelated=1,2";

/// The word of SPEC that stands for every axis (not named elsewhere in SPEC) at its
/// default sweep.
pub const ALL: &str = "all";

/// Which axes [`ALL`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllAxes {
    /// Every axis of the table (a run of GeomVerse problems, or of any input).
    Every,
    /// The axes that apply to relation items ([`super::AxisDef::relations`]); an
    /// axis named in SPEC that does not is refused ([`VariantError::NotForRelations`]).
    Relations,
}

impl AllAxes {
    fn includes(self, axis: Axis) -> bool {
        match self {
            AllAxes::Every => true,
            AllAxes::Relations => axis.relations,
        }
    }

    /// The values [`ALL`] sweeps `axis` at.
    fn sweep(self, axis: Axis) -> &'static [&'static str] {
        match (self, axis.relations_sweep) {
            (AllAxes::Relations, Some(values)) => values,
            _ => axis.sweep,
        }
    }
}

/// A parsed SPEC.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Axes in SPEC order, each with its values in SPEC order.
    pub axes: Vec<(Axis, Vec<AxisValue>)>,
    /// Full product of all axes instead of one axis at a time.
    pub grid: bool,
}

/// One drawing's settings: empty for the base image, one entry per varied axis.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variant {
    pub settings: Vec<AxisValue>,
}

impl Variant {
    pub(crate) fn is_base(&self) -> bool {
        self.settings.is_empty()
    }

    /// Made even where it draws and says what its base does: the base image
    /// itself, or a variant every axis of which is made so
    /// ([`super::AxisDef::made_when_same`]).
    pub(crate) fn made_when_same(&self) -> bool {
        self.is_base() || self.settings.iter().all(|s| s.axis().made_when_same)
    }

    /// `<base_id>__<axis>-<value>[__<axis>-<value>…]`, or `base_id` for the base.
    pub fn id(&self, base_id: &str) -> String {
        let mut id = base_id.to_string();
        for v in &self.settings {
            id.push_str("__");
            id.push_str(v.axis().name());
            id.push('-');
            id.push_str(&v.label());
        }
        id
    }

    /// `axis=value[;axis=value…]` as SPEC writes it (`base` for the base image).
    pub fn label(&self) -> String {
        if self.is_base() {
            return "base".to_string();
        }
        let parts: Vec<String> = self
            .settings
            .iter()
            .map(|v| format!("{}={}", v.axis().name(), v.label()))
            .collect();
        parts.join(";")
    }

    /// `{axis: value, …}` as written into manifest rows.
    pub(crate) fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.settings
            .iter()
            .map(|v| (v.axis().name().to_string(), v.json()))
            .collect()
    }

    #[cfg(test)]
    pub(crate) fn get(&self, axis: Axis) -> Option<AxisValue> {
        self.settings.iter().copied().find(|v| v.axis() == axis)
    }
}

impl Plan {
    /// No variants: the base image only.
    pub fn base_only() -> Self {
        Plan {
            axes: Vec::new(),
            grid: false,
        }
    }

    /// Parses SPEC; `grid` selects the full product; [`ALL`] stands for every axis.
    pub fn parse(spec: &str, grid: bool) -> Result<Plan, VariantError> {
        Self::parse_for(spec, grid, AllAxes::Every)
    }

    /// Parses SPEC for the bases `all` describes: [`ALL`] stands for the axes
    /// that apply to them, and (for relation items) an axis named that does not
    /// is refused.
    pub(crate) fn parse_for(spec: &str, grid: bool, all: AllAxes) -> Result<Plan, VariantError> {
        let parts: Vec<&str> = spec.split(';').map(str::trim).collect();
        let parts: Vec<&str> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        let mut axes: Vec<(Axis, Vec<AxisValue>)> = Vec::new();
        // Where `all` stands in SPEC (its axes go there, in table order).
        let mut all_at = None;
        for part in parts {
            if part == ALL {
                if all_at.is_some() {
                    return Err(VariantError::DuplicateAxis(ALL));
                }
                all_at = Some(axes.len());
                continue;
            }
            let (name, values) = match part.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v)),
                None => (part, None),
            };
            if name == ALL {
                return Err(VariantError::AllWithValues(part.to_string()));
            }
            let axis = Axis::from_name(name)?;
            if axes.iter().any(|(a, _)| *a == axis) {
                return Err(VariantError::DuplicateAxis(axis.name()));
            }
            if !all.includes(axis) {
                return Err(VariantError::NotForRelations(axis));
            }
            let texts: Vec<&str> = match values {
                Some(v) => v.split(',').map(str::trim).collect(),
                None => all.sweep(axis).to_vec(),
            };
            if texts.iter().any(|t| t.is_empty()) {
                return Err(VariantError::EmptyValue(axis.name()));
            }
            let mut parsed: Vec<AxisValue> = Vec::new();
            for t in texts {
                let v = axis.parse(t)?;
                if !parsed.contains(&v) {
                    parsed.push(v);
                }
            }
            axes.push((axis, parsed));
        }
        if let Some(at) = all_at {
            let rest: Vec<(Axis, Vec<AxisValue>)> = (super::AXES.iter().copied())
                .filter(|a| all.includes(*a) && !axes.iter().any(|(b, _)| b == a))
                .map(|a| {
                    let values: Result<Vec<AxisValue>, _> =
                        all.sweep(a).iter().map(|v| a.parse(v)).collect();
                    values.map(|v| (a, v))
                })
                .collect::<Result<_, _>>()?;
            axes.splice(at..at, rest);
        }
        if axes.is_empty() {
            return Err(VariantError::EmptySpec);
        }
        let plan = Plan { axes, grid };
        plan.check()?;
        Ok(plan)
    }

    /// Most variants one line may expand to (the base included).
    pub(crate) const MAX_VARIANTS: usize = 10_000;

    /// Checks the plan before any work: not too many variants, and every variant's
    /// style within [`crate::style::limits`] (e.g. `fontsize=32` with
    /// `resolution=8192` in a grid scales labels to 512 px).
    fn check(&self) -> Result<(), VariantError> {
        let count: u128 = match self.grid {
            true => self
                .axes
                .iter()
                .map(|(_, v)| v.len() as u128)
                .fold(1u128, |a, b| a.saturating_mul(b)),
            false => self.axes.iter().map(|(_, v)| v.len() as u128).sum(),
        } + 1;
        if count > Self::MAX_VARIANTS as u128 {
            return Err(VariantError::TooManyVariants {
                count,
                max: Self::MAX_VARIANTS,
            });
        }
        for variant in self.variants() {
            let (style, _, _) = super::drawing_style(&variant);
            style
                .validate()
                .map_err(|limit| VariantError::OutOfLimits {
                    variant: variant.id(""),
                    limit,
                })?;
        }
        Ok(())
    }

    /// The base first, then each axis value alone (in SPEC order), or every
    /// combination of one value per axis with `grid`.
    pub fn variants(&self) -> Vec<Variant> {
        let mut out = vec![Variant::default()];
        if self.grid {
            let mut combos: Vec<Vec<AxisValue>> = vec![Vec::new()];
            for (_, values) in &self.axes {
                combos = combos
                    .into_iter()
                    .flat_map(|c| {
                        values.iter().map(move |v| {
                            let mut c = c.clone();
                            c.push(*v);
                            c
                        })
                    })
                    .collect();
            }
            out.extend(combos.into_iter().map(|settings| Variant { settings }));
        } else {
            for (_, values) in &self.axes {
                out.extend(values.iter().map(|v| Variant { settings: vec![*v] }));
            }
        }
        out
    }

    /// The plan as SPEC, every axis with its values (`opacity=0.1,0.25;relabel=1`),
    /// with no `all`: what [`Plan::parse`] reads back as this plan (with `grid`).
    #[cfg(test)]
    pub(crate) fn spec(&self) -> String {
        let parts: Vec<String> = (self.axes.iter())
            .map(|(a, values)| {
                let labels: Vec<String> = values.iter().map(|v| v.label()).collect();
                format!("{}={}", a.name(), labels.join(","))
            })
            .collect();
        parts.join(";")
    }

    /// Axes whose values change only the raster file, not the drawing: the pixel
    /// stage's and the encoding's (an SVG-only run cannot show them).
    /// Axes whose images do not show the drawing's points where its composition
    /// put them (`sketch` moves them by hand, `photo` through a perspective), so
    /// a grounding of those points (probes, COCO) would not sit on the image.
    pub(crate) fn ungrounded_axes(&self) -> Vec<Axis> {
        (self.axes.iter().map(|(a, _)| *a))
            .filter(|a| *a == Axis::SKETCH || *a == Axis::PHOTO)
            .collect()
    }

    pub(crate) fn raster_only_axes(&self) -> Vec<Axis> {
        self.axes
            .iter()
            .map(|(a, _)| *a)
            .filter(|a| {
                a.may_change
                    .iter()
                    .all(|c| matches!(c, Change::Pixels | Change::Encoding))
            })
            .collect()
    }

    /// Axes that need a Problem (annotation, info, relabel).
    pub(crate) fn semantic_axes(&self) -> Vec<Axis> {
        self.axes
            .iter()
            .map(|(a, _)| *a)
            .filter(|a| a.needs_problem())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_that_would_break_the_style_limits_are_refused_up_front() {
        // 32 px at 512 → 512 px at 8192: above the 256 px font-size limit.
        let e = Plan::parse("fontsize=32;resolution=8192", true).unwrap_err();
        assert!(
            matches!(&e, VariantError::OutOfLimits { variant, limit }
                if variant == "__fontsize-32__resolution-8192" && limit.field == "font_size"),
            "{e}"
        );
        // One at a time the same values are fine.
        assert!(Plan::parse("fontsize=32;resolution=8192", false).is_ok());
        // 4 px at 512 → 1 px at 128.
        assert!(matches!(
            Plan::parse("fontsize=4;resolution=128", true),
            Err(VariantError::OutOfLimits { .. })
        ));
        // Every axis's default sweep, one at a time, is within the limits.
        let all: Vec<&str> = crate::variants::AXES.iter().map(|a| a.name).collect();
        assert!(Plan::parse(&all.join(";"), false).is_ok());
        // Every axis's whole advertised numeric range is within the limits alone.
        for a in crate::variants::AXES {
            let ends: Vec<String> = match a.values {
                crate::variants::Values::Number { lo, hi } => vec![lo.to_string(), hi.to_string()],
                crate::variants::Values::Integer { lo, hi, only: [] } => {
                    vec![lo.to_string(), hi.min(1_000_000).to_string()]
                }
                crate::variants::Values::Integer { only, .. } => {
                    only.iter().map(u64::to_string).collect()
                }
                crate::variants::Values::Choice(words) => {
                    words.iter().map(|w| w.to_string()).collect()
                }
            };
            for v in ends {
                let spec = format!("{}={}", a.name, v);
                assert!(Plan::parse(&spec, false).is_ok(), "{spec}");
            }
        }
    }

    #[test]
    fn a_grid_too_large_is_refused_before_it_is_built() {
        let axes = "opacity=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1;linewidth=1,2,3,4,5,6,7,8,9,10;\
                    fontsize=5,6,7,8,9,10,11,12,13,14;jpeg=1,2,3,4,5,6,7,8,9,10;relabel";
        assert!(matches!(
            Plan::parse(axes, true),
            Err(VariantError::TooManyVariants { count: 30_001, .. })
        ));
        assert!(Plan::parse(axes, false).is_ok());
    }

    #[test]
    fn default_sweeps_and_explicit_values() {
        let p = Plan::parse("fontsize", false).unwrap();
        let ids: Vec<String> = p.variants().iter().map(|v| v.id("p1")).collect();
        assert_eq!(
            ids,
            [
                "p1",
                "p1__fontsize-8",
                "p1__fontsize-12",
                "p1__fontsize-24",
                "p1__fontsize-32"
            ]
        );
        let p = Plan::parse(" opacity = 0.25 ; linewidth=1,2,4 ", false).unwrap();
        let ids: Vec<String> = p.variants().iter().map(|v| v.id("p")).collect();
        assert_eq!(
            ids,
            [
                "p",
                "p__opacity-0.25",
                "p__linewidth-1",
                "p__linewidth-2",
                "p__linewidth-4"
            ]
        );
    }

    #[test]
    fn grid_is_the_full_product() {
        let p = Plan::parse("opacity=0.25,1;fontsize=8,32;annotation", true).unwrap();
        let v = p.variants();
        // base + opacity(2) × fontsize(2) × annotation(1)
        assert_eq!(v.len(), 5);
        assert_eq!(
            v[1].id("p"),
            "p__opacity-0.25__fontsize-8__annotation-individual"
        );
        assert_eq!(
            serde_json::Value::Object(v[4].json()),
            serde_json::json!({"opacity": 1.0, "fontsize": 32.0, "annotation": "individual"})
        );
    }

    #[test]
    fn all_is_every_axis_at_its_default_sweep() {
        use crate::variants::AXES;
        let every: Vec<(&str, Vec<String>)> = (AXES.iter())
            .map(|a| (a.name(), a.sweep.iter().map(|v| v.to_string()).collect()))
            .collect();
        let axes = |p: &Plan| -> Vec<(&'static str, Vec<String>)> {
            (p.axes.iter())
                .map(|(a, v)| (a.name(), v.iter().map(|v| v.label()).collect()))
                .collect()
        };
        assert_eq!(axes(&Plan::parse("all", false).unwrap()), every);
        assert_eq!(axes(&Plan::parse(" all ; ", false).unwrap()), every);
        // An axis named beside it keeps its own values, where SPEC names it.
        let p = Plan::parse("resolution=256;all", false).unwrap();
        assert_eq!(axes(&p)[0], ("resolution", vec!["256".to_string()]));
        assert_eq!(p.axes.len(), AXES.len());
        let p = Plan::parse("all;fontsize=40", false).unwrap();
        assert_eq!(
            axes(&p).last().unwrap(),
            &("fontsize", vec!["40".to_string()])
        );
        assert_eq!(p.axes.len(), AXES.len());
        // The spec it writes reads back as the same plan.
        let p = Plan::parse("all", false).unwrap();
        assert_eq!(Plan::parse(&p.spec(), false).unwrap(), p);
        assert!(!p.spec().contains("all"));
        // For relation items: the axes that apply to them, and no other.
        let r = Plan::parse_for("all", false, AllAxes::Relations).unwrap();
        let names: Vec<&str> = r.axes.iter().map(|(a, _)| a.name()).collect();
        let apply: Vec<&str> = (AXES.iter())
            .filter(|a| a.relations)
            .map(|a| a.name())
            .collect();
        assert_eq!(names, apply);
        assert!(names.contains(&"relabel") && names.contains(&"unrelated"));
        assert_eq!(
            Plan::parse_for("all;info", false, AllAxes::Relations),
            Err(VariantError::NotForRelations(
                Axis::from_name("info").unwrap()
            ))
        );
        // The default sweeps parse for their bases.
        assert!(Plan::parse_for(RELATION_SWEEP, false, AllAxes::Relations).is_ok());
        assert!(Plan::parse(GEOMVERSE_SWEEP, false).is_ok());
        // Refused: twice, with values, and as a grid (too many variants).
        assert_eq!(
            Plan::parse("all;all", false),
            Err(VariantError::DuplicateAxis("all"))
        );
        assert!(matches!(
            Plan::parse("all=1", false),
            Err(VariantError::AllWithValues(_))
        ));
        assert!(matches!(
            Plan::parse("all", true),
            Err(VariantError::TooManyVariants { .. })
        ));
    }

    #[test]
    fn bad_specs_say_why() {
        assert_eq!(Plan::parse("", false), Err(VariantError::EmptySpec));
        assert_eq!(
            Plan::parse("size=3", false),
            Err(VariantError::UnknownAxis("size".into()))
        );
        assert_eq!(
            Plan::parse("jpeg;jpeg=5", false),
            Err(VariantError::DuplicateAxis("jpeg"))
        );
        assert_eq!(
            Plan::parse("fontsize=8,,9", false),
            Err(VariantError::EmptyValue("fontsize"))
        );
        assert!(matches!(
            Plan::parse("opacity=2", false),
            Err(VariantError::BadValue {
                axis: "opacity",
                ..
            })
        ));
        // Repeated values collapse.
        assert_eq!(
            Plan::parse("jpeg=50,50", false).unwrap().variants().len(),
            2
        );
    }
}
