//! JSON line → validated [`Scene`], with errors that name the offending value.
//!
//! Parsing goes through `serde_json::Value` first so that an error can always name
//! the scene id and the item index, then each item is deserialised on its own with
//! `serde_path_to_error` so that type errors name the field.

use super::{Color, Item, PathItem, Reason, Scene, SceneError, TextItem, validate};
use serde::Deserialize;
use serde_json::Value;

/// The scene fields other than the items, which are parsed one by one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScene {
    id: String,
    width: u32,
    height: u32,
    #[serde(default)]
    background: Option<Color>,
    #[serde(default)]
    items: Vec<Value>,
}

/// Parses and validates one Scene from a line of JSON.
pub fn parse_scene(line: &str) -> Result<Scene, SceneError> {
    let value: Value = crate::jsonl::parse_value(line)
        .map_err(|e| SceneError::new("", Reason::Json(strip_position(&e))))?;
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    scene_from_value(&value).map_err(|e| e.with_id(id.as_deref()))
}

/// Parses and validates one Scene from an already parsed JSON value.
pub fn parse_scene_value(value: &Value) -> Result<Scene, SceneError> {
    let id = value.get("id").and_then(Value::as_str);
    scene_from_value(value).map_err(|e| e.with_id(id))
}

fn scene_from_value(value: &Value) -> Result<Scene, SceneError> {
    if !value.is_object() {
        return Err(SceneError::new(
            "",
            Reason::Structure("a scene must be a JSON object".into()),
        ));
    }
    check_color(value, "background", "")?;
    let raw: RawScene = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        SceneError::new(
            if path == "." { "" } else { &path },
            Reason::Structure(e.into_inner().to_string()),
        )
    })?;
    super::check_id(&raw.id)?;
    if raw.items.len() > super::limits::MAX_ITEMS {
        return Err(SceneError::new(
            "items",
            Reason::TooLong {
                what: "items",
                max: super::limits::MAX_ITEMS,
                got: raw.items.len(),
            },
        ));
    }
    let items = raw
        .items
        .iter()
        .enumerate()
        .map(|(i, v)| item_from_value(i, v))
        .collect::<Result<Vec<_>, _>>()?;
    let scene = Scene {
        id: raw.id,
        width: raw.width,
        height: raw.height,
        background: raw.background,
        items,
    };
    validate(&scene)?;
    Ok(scene)
}

fn item_from_value(index: usize, value: &Value) -> Result<Item, SceneError> {
    let at = format!("items[{index}]");
    let structure = |path: String, msg: String| SceneError::new(path, Reason::Structure(msg));
    let Some(obj) = value.as_object() else {
        return Err(structure(at, "an item must be a JSON object".into()));
    };
    let kind = match obj.get("type") {
        None => return Err(structure(at, "missing field `type`".into())),
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(structure(format!("{at}.type"), "must be a string".into())),
    };
    // Deserialise without the tag so that unknown-field errors list the real fields.
    let mut fields = obj.clone();
    fields.remove("type");
    let fields = Value::Object(fields);
    let de_err = |e: serde_path_to_error::Error<serde_json::Error>| {
        let inner = e.path().to_string();
        let path = if inner == "." {
            at.clone()
        } else {
            format!("{at}.{inner}")
        };
        structure(path, e.into_inner().to_string())
    };
    match kind {
        "path" => {
            check_color(&fields, "fill", &at)?;
            check_color(&fields, "stroke", &at)?;
            let item: PathItem = serde_path_to_error::deserialize(&fields).map_err(de_err)?;
            Ok(Item::Path(item))
        }
        "text" => {
            check_color(&fields, "color", &at)?;
            let item: TextItem = serde_path_to_error::deserialize(&fields).map_err(de_err)?;
            Ok(Item::Text(item))
        }
        other => Err(SceneError::new(
            format!("{at}.type"),
            Reason::UnknownItemType(other.to_string()),
        )),
    }
}

/// Reports a malformed colour string as [`Reason::BadColor`] rather than a serde message.
fn check_color(obj: &Value, key: &str, at: &str) -> Result<(), SceneError> {
    if let Some(Value::String(s)) = obj.get(key) {
        if s.parse::<Color>().is_err() {
            let path = if at.is_empty() {
                key.to_string()
            } else {
                format!("{at}.{key}")
            };
            return Err(SceneError::new(path, Reason::BadColor(s.clone())));
        }
    }
    Ok(())
}

/// serde_json appends " at line 1 column N"; the caller reports the input line itself.
fn strip_position(e: &serde_json::Error) -> String {
    format!(
        "{} (column {})",
        e.to_string().split(" at line ").next().unwrap_or_default(),
        e.column()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: &str) -> SceneError {
        parse_scene(line).expect_err(line)
    }

    #[test]
    fn parses_the_architecture_example() {
        let line = r##"{"id": "demo-1", "width": 512, "height": 512, "background": "#ffffff",
 "items": [
   {"type": "path", "d": "M 120 340 L 300 340 L 300 200 L 120 200 Z",
    "fill": "#4d80e6", "fill_opacity": 0.5, "fill_rule": "nonzero",
    "stroke": "#000000", "stroke_width": 2.0},
   {"type": "path", "d": "M 300 200 A 70 70 0 0 1 300 340", "stroke": "#000000", "stroke_width": 2.0},
   {"type": "text", "text": "A", "x": 110, "y": 352, "size": 16, "color": "#000000",
    "anchor": "middle", "baseline": "central"}
 ]}"##
            .replace('\n', " ");
        let scene = parse_scene(&line).unwrap();
        assert_eq!(scene.items.len(), 3);
        let Item::Path(p) = &scene.items[0] else {
            panic!()
        };
        assert_eq!(p.fill_opacity, 0.5);
        assert_eq!(p.stroke_width, 2.0);
        let Item::Text(t) = &scene.items[2] else {
            panic!()
        };
        assert_eq!(t.anchor, crate::scene::Anchor::Middle);
        // Serialising and parsing again gives the same scene.
        let again = parse_scene(&serde_json::to_string(&scene).unwrap()).unwrap();
        assert_eq!(again, scene);
    }

    #[test]
    fn malformed_json() {
        let e = err(r#"{"id": "a", "width": 5"#);
        assert!(matches!(e.reason, Reason::Json(_)), "{e}");
        assert!(matches!(err("NaN").reason, Reason::Json(_)));
        assert!(matches!(
            err(r#"{"id":"a","width":1e999,"height":1}"#).reason,
            Reason::Json(_)
        ));
    }

    #[test]
    fn unknown_item_type_names_the_item() {
        let e = err(
            r#"{"id":"a","width":8,"height":8,"items":[{"type":"path","d":"M0 0"},{"type":"circle","r":3}]}"#,
        );
        assert_eq!(e.path, "items[1].type");
        assert_eq!(e.reason, Reason::UnknownItemType("circle".into()));
        assert_eq!(e.id.as_deref(), Some("a"));
    }

    #[test]
    fn type_errors_name_the_field() {
        let e = err(
            r#"{"id":"a","width":8,"height":8,"items":[{"type":"path","d":"M0 0","stroke_width":"wide"}]}"#,
        );
        assert_eq!(e.path, "items[0].stroke_width");
        assert!(matches!(e.reason, Reason::Structure(_)));
        let e = err(
            r##"{"id":"a","width":8,"height":8,"items":[{"type":"text","text":"x","x":1,"y":1,"size":9,"colour":"#000000"}]}"##,
        );
        assert_eq!(e.path, "items[0].colour");
        assert!(e.to_string().contains("unknown field `colour`"), "{e}");
        let e = err(r#"{"id":"a","width":-8,"height":8}"#);
        assert_eq!(e.path, "width");
    }

    #[test]
    fn bad_colour() {
        let e = err(
            r#"{"id":"a","width":8,"height":8,"items":[{"type":"path","d":"M0 0","fill":"blue"}]}"#,
        );
        assert_eq!(e.path, "items[0].fill");
        assert_eq!(e.reason, Reason::BadColor("blue".into()));
        let e = err(r##"{"id":"a","width":8,"height":8,"background":"#12"}"##);
        assert_eq!(e.path, "background");
    }
}
