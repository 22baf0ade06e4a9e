//! Checks every value of a Scene against the limits of Scene v1.

use super::{Item, PathItem, Reason, Scene, SceneError, TextItem};

/// Hard limits of Scene v1.
pub mod limits {
    /// Largest width or height in pixels.
    pub const MAX_DIMENSION: u32 = 8192;
    /// Most items in one scene.
    pub const MAX_ITEMS: usize = 20_000;
    /// Most characters in one text item.
    pub const MAX_TEXT_CHARS: usize = 1_000;
    /// Most bytes of path data in one path item.
    pub const MAX_PATH_DATA_BYTES: usize = 1 << 20;
    /// Largest coordinate magnitude; keeps f32 geometry precise to well under 1/256 px.
    pub const MAX_COORDINATE: f64 = 1.0e6;
    /// Largest font size in pixels.
    pub const MAX_FONT_SIZE: f64 = 2048.0;
    /// Largest stroke width in pixels.
    pub const MAX_STROKE_WIDTH: f64 = 4096.0;
    /// Most entries in a dash array.
    pub const MAX_DASH_ENTRIES: usize = 64;
    /// Most dashes one path may be cut into.
    pub const MAX_DASHES: usize = 100_000;
    /// Longest id in bytes.
    pub const MAX_ID_BYTES: usize = 200;
}

/// Checks a Scene built in code or parsed from JSON; the first fault found is returned.
pub fn validate(scene: &Scene) -> Result<(), SceneError> {
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
    Ok(())
}

/// Ids name output files: 1..=200 of `A-Z a-z 0-9 . _ -`, not starting with `.`.
pub fn check_id(id: &str) -> Result<(), SceneError> {
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
