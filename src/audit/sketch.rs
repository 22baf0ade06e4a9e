//! The `sketch` axis checked from the files: every point of every path the
//! variant draws lies within the level's bound of a path its base draws, and
//! every label stands within its bound of a base label of the same text
//! ([`crate::scene::sketch::bounds`]). Checked only where sketch is the variant's
//! only drawing axis; pixel-stage axes beside it leave the drawing alone.

use crate::audit::items::Drawn;
use crate::scene::sketch::{bounds, sampled_points};
use std::collections::HashMap;

/// Samples per px along the base's paths (the check's own resolution).
const BASE_STEP: f32 = 0.5;
/// Samples along the variant's paths.
const VARIANT_STEP: f32 = 2.0;

/// Whether `variant` keeps within the bounds of `sketch=level` of `base`;
/// `Err` names the first point or label that does not.
pub(super) fn check(base: &Drawn, variant: &Drawn, level: u8) -> Result<(), String> {
    let side = |d: &Drawn| -> f32 {
        let n = |s: &str| s.trim_end_matches("px").parse::<f32>().unwrap_or(0.0);
        n(&d.width).max(n(&d.height))
    };
    let Some(b) = bounds(level, side(base)) else {
        return Err(format!("sketch={level} is not a level (1–3)"));
    };
    let cell = b.paths.max(1.0);
    let mut grid: HashMap<(i32, i32), Vec<[f32; 2]>> = HashMap::new();
    for piece in &base.paths {
        let pts = sampled_points(&piece.d, BASE_STEP)
            .map_err(|e| format!("its base's path {:?}: {e}", piece.d))?;
        for p in pts {
            let key = ((p[0] / cell).floor() as i32, (p[1] / cell).floor() as i32);
            grid.entry(key).or_default().push(p);
        }
    }
    for piece in &variant.paths {
        let pts = sampled_points(&piece.d, VARIANT_STEP)
            .map_err(|e| format!("its path {:?}: {e}", piece.d))?;
        for p in pts {
            let (cx, cy) = ((p[0] / cell).floor() as i32, (p[1] / cell).floor() as i32);
            let near = (-1..=1)
                .flat_map(|dy| (-1..=1).map(move |dx| (cx + dx, cy + dy)))
                .filter_map(|k| grid.get(&k))
                .flatten()
                .map(|q| (p[0] - q[0]).hypot(p[1] - q[1]))
                .fold(f32::INFINITY, f32::min);
            if near > b.paths {
                return Err(format!(
                    "sketch={level} moves its path point ({:.1}, {:.1}) {} px from its base's \
                     drawing; the level allows {:.2} px",
                    p[0],
                    p[1],
                    if near.is_finite() {
                        format!("{near:.2}")
                    } else {
                        "far".into()
                    },
                    b.paths
                ));
            }
        }
    }
    for label in &variant.labels {
        let moved = (base.labels.iter())
            .filter(|l| l.text == label.text)
            .map(|l| (l.x - label.x).hypot(l.y - label.y))
            .fold(f64::INFINITY, f64::min);
        if moved > f64::from(b.labels) {
            return Err(format!(
                "sketch={level} moves the label {:?} {moved:.2} px from where its base's \
                 stands; the level allows {:.2} px",
                label.text, b.labels
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::items::read_svg;

    fn svg(d: &str, label: (f64, f64)) -> Drawn {
        read_svg(&format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><path d="{d}" stroke="black"/><text x="{}" y="{}" font-size="16">A</text></svg>"#,
            label.0, label.1
        ))
        .unwrap()
    }

    #[test]
    fn points_and_labels_past_the_bound_are_named() {
        let base = svg("M 100 100 L 300 100", (90.0, 95.0));
        let b = bounds(1, 512.0).unwrap();
        // Within: a stroke shifted by 2 px and overshooting by 1.
        let near = svg("M 99 102 L 301 102", (91.0, 96.0));
        assert_eq!(check(&base, &near, 1), Ok(()));
        // A point moved past the bound.
        let far = svg(
            &format!("M 100 100 L 300 {}", 100.0 + b.paths + 1.0),
            (90.0, 95.0),
        );
        let e = check(&base, &far, 1).unwrap_err();
        assert!(e.contains("path point") && e.contains("allows"), "{e}");
        // A label moved past its bound.
        let label = svg(
            "M 100 100 L 300 100",
            (90.0 + f64::from(b.labels) + 0.5, 95.0),
        );
        let e = check(&base, &label, 1).unwrap_err();
        assert!(e.contains("label \"A\""), "{e}");
    }
}
