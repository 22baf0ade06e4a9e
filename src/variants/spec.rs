//! `--variants SPEC`: which axes, which values, swept one at a time or as a grid.
//!
//! SPEC is `;`-separated axes, each `name` (its default sweep) or `name=v1,v2,…`:
//! `fontsize`, `fontsize=8,12,16,24,32`, `opacity;linewidth=1,2,4`.

use super::{Axis, AxisValue, VariantError};

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
    pub fn is_base(&self) -> bool {
        self.settings.is_empty()
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

    /// `{axis: value, …}` as written into manifest rows.
    pub fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.settings
            .iter()
            .map(|v| (v.axis().name().to_string(), v.json()))
            .collect()
    }

    pub fn get(&self, axis: Axis) -> Option<AxisValue> {
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

    /// Parses SPEC; `grid` selects the full product.
    pub fn parse(spec: &str, grid: bool) -> Result<Plan, VariantError> {
        let mut axes: Vec<(Axis, Vec<AxisValue>)> = Vec::new();
        for part in spec.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, values) = match part.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v)),
                None => (part, None),
            };
            let axis = Axis::from_name(name)?;
            if axes.iter().any(|(a, _)| *a == axis) {
                return Err(VariantError::DuplicateAxis(axis.name()));
            }
            let texts: Vec<&str> = match values {
                Some(v) => v.split(',').map(str::trim).collect(),
                None => axis.info().sweep.to_vec(),
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
        if axes.is_empty() {
            return Err(VariantError::EmptySpec);
        }
        Ok(Plan { axes, grid })
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

    /// Axes that need a Problem (annotation, info, relabel).
    pub fn semantic_axes(&self) -> Vec<Axis> {
        self.axes
            .iter()
            .map(|(a, _)| *a)
            .filter(|a| a.info().needs_problem)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
