//! Checks every value of a Scene against the limits of Scene v1.

use super::{Item, PathItem, Reason, Scene, SceneError, TextItem};

/// Hard limits of Scene v1.
pub mod limits {
    /// Largest width or height in pixels.
    pub const MAX_DIMENSION: u32 = 8192;
    /// Most items in one scene.
    pub(crate) const MAX_ITEMS: usize = 20_000;
    /// Most characters in one text item.
    pub(crate) const MAX_TEXT_CHARS: usize = 1_000;
    /// Most bytes of path data in one path item.
    pub(crate) const MAX_PATH_DATA_BYTES: usize = 1 << 20;
    /// Largest coordinate magnitude; keeps f32 geometry precise to well under 1/256 px.
    pub(crate) const MAX_COORDINATE: f64 = 1.0e6;
    /// Largest font size in pixels.
    pub(crate) const MAX_FONT_SIZE: f64 = 2048.0;
    /// Largest stroke width in pixels.
    pub(crate) const MAX_STROKE_WIDTH: f64 = 4096.0;
    /// Largest stroke width as a multiple of the scene's larger side: a wider
    /// stroke covers nothing more of the canvas, but costs more to tessellate and
    /// to fill (generated diagrams use at most 0.012 × the side: `linewidth=32`).
    pub(crate) const MAX_STROKE_WIDTH_PER_SIDE: f64 = 2.0;
    /// Most entries in a dash array.
    pub(crate) const MAX_DASH_ENTRIES: usize = 64;
    /// Most dashes the dashed strokes of one scene may be cut into, all paths
    /// together (generated diagrams use none; a dashed line across an 8192 px
    /// canvas with a 2 px on / 2 px off pattern makes 2,048). Each dash is
    /// tessellated and filled on its own, so with [`MAX_STROKE_WIDTH_PER_SIDE`]
    /// this bounds a dashed scene's fill work to 20,000 canvases.
    pub(crate) const MAX_DASHES: usize = 20_000;
    /// Most tessellated vertices of one scene (GPU backend), counted while
    /// tessellating, which stops as soon as it is exceeded.
    ///
    /// Measured on 120,000 scenes (`generate --count 2000 --depth 1..6`, default and
    /// with `--branch-prob 1 --distractors`, each drawn with every variant axis's sweep and
    /// `resolution` up to 4096): at most 2,450 vertices and 7,242 indices per scene
    /// (median 260–415 vertices, 99th percentile 866–1,252). The budgets leave a
    /// margin of 400× (a scene at the 20,000-item limit of 50-vertex paths fits)
    /// and hold one scene's geometry to 12 + 12 MB.
    pub(crate) const MAX_SCENE_VERTICES: usize = 1_000_000;
    /// Most tessellated indices of one scene (three per triangle); see
    /// [`MAX_SCENE_VERTICES`].
    pub(crate) const MAX_SCENE_INDICES: usize = 3_000_000;
    /// Longest id in bytes.
    pub(crate) const MAX_ID_BYTES: usize = 200;
}

/// Checks a Scene built in code or parsed from JSON; the first fault found is returned.
pub(crate) fn validate(scene: &Scene) -> Result<(), SceneError> {
    check_id(&scene.id)?;
    let dim = |v: u32, what: &str| {
        range(
            v as f64,
            1.0,
            limits::MAX_DIMENSION as f64,
            what.to_string(),
        )
    };
    dim(scene.width, "width")?;
    dim(scene.height, "height")?;
    if scene.items.len() > limits::MAX_ITEMS {
        return Err(SceneError::new(
            "items",
            Reason::TooLong {
                what: "items",
                max: limits::MAX_ITEMS,
                got: scene.items.len(),
            },
        ));
    }
    for (i, item) in scene.items.iter().enumerate() {
        match item {
            Item::Path(p) => check_path(i, p),
            Item::Text(t) => check_text(i, t),
        }
        .map_err(|e| e.with_id(Some(&scene.id)))?;
    }
    check_bounds(scene)
}

/// The per-scene work bounds, checked before any tessellation or rasterisation
/// (by [`validate`], and again by the renderers for scenes built in code):
/// every stroke at most `limits::MAX_STROKE_WIDTH_PER_SIDE` × the larger side,
/// and the dashed strokes cut into at most `limits::MAX_DASHES` dashes in all.
///
/// The dash count is estimated from the length of each path's control polygon,
/// which is never shorter than the path, so it is cheap (no flattening) and never
/// lower than what the renderer cuts. The tessellation budget
/// (`limits::MAX_SCENE_VERTICES`) is checked while tessellating.
pub(crate) fn check_bounds(scene: &Scene) -> Result<(), SceneError> {
    let side = scene.width.max(scene.height) as f64;
    let max_width = (side * limits::MAX_STROKE_WIDTH_PER_SIDE).min(limits::MAX_STROKE_WIDTH);
    let mut dashes = 0usize;
    for (i, item) in scene.items.iter().enumerate() {
        let Item::Path(p) = item else { continue };
        let at = |field: &str| format!("items[{i}].{field}");
        if p.stroke_width as f64 > max_width {
            return Err(SceneError::new(
                at("stroke_width"),
                Reason::StrokeTooWide {
                    max: max_width,
                    got: p.stroke_width as f64,
                },
            )
            .with_id(Some(&scene.id)));
        }
        let stroked = p.stroke.is_some() && p.stroke_opacity > 0.0 && p.stroke_width > 0.0;
        if !stroked || p.dash.is_empty() {
            continue;
        }
        let path = super::path_data::parse(&p.d).map_err(|r| SceneError::new(at("d"), r))?;
        dashes = dashes.saturating_add(dash_estimate(&path, &p.dash));
        if dashes > limits::MAX_DASHES {
            return Err(SceneError::new(
                at("dash"),
                Reason::TooManyDashes {
                    max: limits::MAX_DASHES,
                    got: dashes,
                },
            )
            .with_id(Some(&scene.id)));
        }
    }
    Ok(())
}

/// At least as many dashes as `pattern` cuts `path` into (see `render::dash`): per
/// subpath, one per "on" entry of every period begun, plus one.
pub(crate) fn dash_estimate(path: &lyon::path::Path, pattern: &[f32]) -> usize {
    use lyon::path::PathEvent;
    let period: f64 = pattern.iter().map(|&d| d as f64).sum::<f64>()
        * if pattern.len() % 2 == 1 { 2.0 } else { 1.0 };
    if pattern.is_empty() || period <= 0.0 {
        return 0; // solid
    }
    // "On" entries per period: an odd pattern is repeated, so all of it is "on" once.
    let on = if pattern.len() % 2 == 1 {
        pattern.len()
    } else {
        pattern.len() / 2
    } as f64;
    let mut total = 0.0f64;
    let mut length = 0.0f64;
    let d = |a: lyon::math::Point, b: lyon::math::Point| (b - a).length() as f64;
    for event in path.iter() {
        match event {
            PathEvent::Begin { .. } => length = 0.0,
            PathEvent::Line { from, to } => length += d(from, to),
            PathEvent::Quadratic { from, ctrl, to } => length += d(from, ctrl) + d(ctrl, to),
            PathEvent::Cubic {
                from,
                ctrl1,
                ctrl2,
                to,
            } => length += d(from, ctrl1) + d(ctrl1, ctrl2) + d(ctrl2, to),
            PathEvent::End { last, first, close } => {
                if close {
                    length += d(last, first);
                }
                total += ((length / period).ceil() + 1.0) * on;
            }
        }
    }
    if total >= usize::MAX as f64 {
        usize::MAX
    } else {
        total as usize
    }
}

/// Ids name output files: 1..=200 of `A-Z a-z 0-9 . _ -`, not starting with `.`.
pub(crate) fn check_id(id: &str) -> Result<(), SceneError> {
    let ok = !id.is_empty()
        && id.len() <= limits::MAX_ID_BYTES
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(SceneError::new("id", Reason::BadId(id.to_string())))
    }
}

fn check_path(i: usize, p: &PathItem) -> Result<(), SceneError> {
    let at = |field: &str| format!("items[{i}].{field}");
    if p.d.len() > limits::MAX_PATH_DATA_BYTES {
        return Err(SceneError::new(
            at("d"),
            Reason::TooLong {
                what: "bytes of path data",
                max: limits::MAX_PATH_DATA_BYTES,
                got: p.d.len(),
            },
        ));
    }
    super::path_data::parse(&p.d).map_err(|r| SceneError::new(at("d"), r))?;
    range(p.fill_opacity as f64, 0.0, 1.0, at("fill_opacity"))?;
    range(p.stroke_opacity as f64, 0.0, 1.0, at("stroke_opacity"))?;
    range(
        p.stroke_width as f64,
        0.0,
        limits::MAX_STROKE_WIDTH,
        at("stroke_width"),
    )?;
    range(p.miter_limit as f64, 1.0, 1.0e4, at("miter_limit"))?;
    range(
        p.dash_offset as f64,
        -limits::MAX_COORDINATE,
        limits::MAX_COORDINATE,
        at("dash_offset"),
    )?;
    if p.dash.len() > limits::MAX_DASH_ENTRIES {
        return Err(SceneError::new(
            at("dash"),
            Reason::TooLong {
                what: "dash entries",
                max: limits::MAX_DASH_ENTRIES,
                got: p.dash.len(),
            },
        ));
    }
    for (k, d) in p.dash.iter().enumerate() {
        range(
            *d as f64,
            0.0,
            limits::MAX_COORDINATE,
            format!("items[{i}].dash[{k}]"),
        )?;
    }
    Ok(())
}

fn check_text(i: usize, t: &TextItem) -> Result<(), SceneError> {
    let at = |field: &str| format!("items[{i}].{field}");
    if t.text.trim().is_empty() {
        return Err(SceneError::new(at("text"), Reason::EmptyText));
    }
    if let Some(c) = t.text.chars().find(|c| c.is_control()) {
        return Err(SceneError::new(at("text"), Reason::ControlCharacter(c)));
    }
    let n = t.text.chars().count();
    if n > limits::MAX_TEXT_CHARS {
        return Err(SceneError::new(
            at("text"),
            Reason::TooLong {
                what: "characters",
                max: limits::MAX_TEXT_CHARS,
                got: n,
            },
        ));
    }
    range(
        t.x as f64,
        -limits::MAX_COORDINATE,
        limits::MAX_COORDINATE,
        at("x"),
    )?;
    range(
        t.y as f64,
        -limits::MAX_COORDINATE,
        limits::MAX_COORDINATE,
        at("y"),
    )?;
    if t.size.is_nan() || t.size <= 0.0 || t.size.is_infinite() {
        let r = if t.size.is_finite() {
            Reason::NotPositive(t.size as f64)
        } else {
            Reason::NotFinite(t.size as f64)
        };
        return Err(SceneError::new(at("size"), r));
    }
    range(t.size as f64, 0.0, limits::MAX_FONT_SIZE, at("size"))?;
    range(t.opacity as f64, 0.0, 1.0, at("opacity"))?;
    Ok(())
}

fn range(v: f64, min: f64, max: f64, path: String) -> Result<(), SceneError> {
    if !v.is_finite() {
        Err(SceneError::new(path, Reason::NotFinite(v)))
    } else if v < min || v > max {
        Err(SceneError::new(
            path,
            Reason::OutOfRange { min, max, got: v },
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Color, parse_scene};

    fn scene(items: Vec<Item>) -> Scene {
        Scene {
            id: "t".into(),
            width: 64,
            height: 64,
            background: Some(Color::WHITE),
            items,
        }
    }

    #[test]
    fn non_finite_and_negative_numbers() {
        let s = scene(vec![Item::Text(TextItem::new("A", f32::NAN, 3.0, 12.0))]);
        let e = validate(&s).unwrap_err();
        assert_eq!(e.path, "items[0].x");
        assert!(matches!(e.reason, Reason::NotFinite(v) if v.is_nan()));
        let s = scene(vec![Item::Text(TextItem::new("A", 1.0, 3.0, -12.0))]);
        assert_eq!(validate(&s).unwrap_err().path, "items[0].size");
        let s = scene(vec![Item::Path(PathItem {
            stroke_width: f32::INFINITY,
            ..PathItem::new("M0 0L1 1")
        })]);
        assert_eq!(
            validate(&s).unwrap_err().reason,
            Reason::NotFinite(f64::INFINITY)
        );
        let s = scene(vec![Item::Path(PathItem {
            dash: vec![2.0, -1.0],
            ..PathItem::new("M0 0L1 1")
        })]);
        assert_eq!(validate(&s).unwrap_err().path, "items[0].dash[1]");
    }

    #[test]
    fn huge_json_numbers_become_infinite_and_are_rejected() {
        let e = parse_scene(r#"{"id":"a","width":8,"height":8,"items":[{"type":"text","text":"A","x":1e300,"y":0,"size":9}]}"#)
            .unwrap_err();
        assert_eq!(e.path, "items[0].x");
        assert!(matches!(e.reason, Reason::NotFinite(_)));
    }

    #[test]
    fn canvas_limits() {
        let mut s = scene(vec![]);
        s.width = 8193;
        assert_eq!(
            validate(&s).unwrap_err().reason,
            Reason::OutOfRange {
                min: 1.0,
                max: 8192.0,
                got: 8193.0
            }
        );
        s.width = 0;
        assert_eq!(validate(&s).unwrap_err().path, "width");
        s.width = 8192;
        s.height = 1;
        assert!(validate(&s).is_ok());
    }

    #[test]
    fn text_rules() {
        for (text, reason) in [
            ("", Reason::EmptyText),
            ("   ", Reason::EmptyText),
            ("a\nb", Reason::ControlCharacter('\n')),
        ] {
            let e =
                validate(&scene(vec![Item::Text(TextItem::new(text, 1.0, 1.0, 9.0))])).unwrap_err();
            assert_eq!(e.reason, reason);
        }
        assert!(
            validate(&scene(vec![Item::Text(TextItem::new(
                "αβγ ABC",
                1.0,
                1.0,
                9.0
            ))]))
            .is_ok()
        );
    }

    #[test]
    fn bad_path_data() {
        for d in ["M 0 0 L x 3", "L 1 1", "M 0 0 Q 1", "M 0 0 A 5 5 0 2 0 9 9"] {
            let e = validate(&scene(vec![Item::Path(PathItem::new(d))])).unwrap_err();
            assert_eq!(e.path, "items[0].d", "{d}");
            assert!(matches!(e.reason, Reason::BadPathData(_)), "{d}: {e}");
        }
    }

    #[test]
    fn work_bounds_stroke_width_and_dashes() {
        // Stroke width: at most twice the larger side (64 → 128).
        let wide = |w: f32| {
            scene(vec![Item::Path(PathItem {
                stroke: Some(Color::BLACK),
                stroke_width: w,
                ..PathItem::new("M 0 0 L 64 64")
            })])
        };
        assert!(validate(&wide(128.0)).is_ok());
        let e = validate(&wide(4096.0)).unwrap_err();
        assert_eq!(e.path, "items[0].stroke_width");
        assert_eq!(
            e.reason,
            Reason::StrokeTooWide {
                max: 128.0,
                got: 4096.0
            }
        );
        assert_eq!(e.id.as_deref(), Some("t"));
        // The issue's scene: a 90.5 px line in 0.01 dashes (and too wide).
        let line = r##"{"id":"h1","width":64,"height":64,"items":[{"type":"path","d":"M 0 0 L 64 64","stroke":"#000000","stroke_width":4096,"dash":[0.01,0.01]}]}"##;
        assert!(matches!(
            parse_scene(line).unwrap_err().reason,
            Reason::StrokeTooWide { .. }
        ));
        // Dashes count over all paths: 3 paths of 8,000 dashes each pass alone, not together.
        let dashed = |n: usize| {
            scene(
                (0..n)
                    .map(|_| {
                        Item::Path(PathItem {
                            stroke: Some(Color::BLACK),
                            dash: vec![0.005, 0.005],
                            ..PathItem::new("M 0 0 L 80 0")
                        })
                    })
                    .collect(),
            )
        };
        assert!(validate(&dashed(2)).is_ok());
        let e = validate(&dashed(3)).unwrap_err();
        assert_eq!(e.path, "items[2].dash");
        assert!(
            matches!(e.reason, Reason::TooManyDashes { max: 20_000, got } if got > 20_000),
            "{e}"
        );
        // Unstroked paths are not dashed, so their patterns cost nothing.
        let mut s = dashed(3);
        for item in &mut s.items {
            let Item::Path(p) = item else { unreachable!() };
            p.stroke = None;
        }
        assert!(validate(&s).is_ok());
    }

    #[test]
    fn ids() {
        for ok in ["a", "demo-1", "x_y.z", "A9"] {
            assert!(check_id(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".hidden", "a/b", "a b", "ü", "..", &"x".repeat(201)] {
            assert_eq!(
                check_id(bad).unwrap_err().reason,
                Reason::BadId(bad.to_string())
            );
        }
    }
}
