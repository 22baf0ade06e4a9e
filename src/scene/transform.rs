//! Geometric transforms of whole Scenes (for variants of bare Scenes): uniform
//! scaling and quarter-turn rotation. Path data is rewritten through the parser, so
//! arcs come out as the cubic pieces they are drawn with; text stays upright.

use super::{Item, Reason, Scene, SceneError, path_data};
use crate::decimal::fmt_decimal;
use lyon::path::PathEvent;
use std::fmt::Write;

/// `x' = a·x + c·y + e`, `y' = b·x + d·y + f`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Affine {
    pub a: f32,
    pub b: f32,
    pub c: f32,
    pub d: f32,
    pub e: f32,
    pub f: f32,
}

impl Affine {
    pub(crate) fn scale(k: f32) -> Self {
        Affine {
            a: k,
            b: 0.0,
            c: 0.0,
            d: k,
            e: 0.0,
            f: 0.0,
        }
    }

    pub(crate) fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        (
            self.a * x + self.c * y + self.e,
            self.b * x + self.d * y + self.f,
        )
    }
}

/// `d` rewritten with every point transformed (absolute M L Q C Z commands).
pub(crate) fn transform_path_data(d: &str, t: Affine) -> Result<String, Reason> {
    let path = path_data::parse(d)?;
    let mut out = String::with_capacity(d.len() + 16);
    let mut put = |cmd: char, pts: &[lyon::math::Point]| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push(cmd);
        for p in pts {
            let (x, y) = t.apply(p.x, p.y);
            let _ = write!(out, " {} {}", num(x), num(y));
        }
    };
    for e in path.iter() {
        match e {
            PathEvent::Begin { at } => put('M', &[at]),
            PathEvent::Line { to, .. } => put('L', &[to]),
            PathEvent::Quadratic { ctrl, to, .. } => put('Q', &[ctrl, to]),
            PathEvent::Cubic {
                ctrl1, ctrl2, to, ..
            } => put('C', &[ctrl1, ctrl2, to]),
            PathEvent::End { close: true, .. } => put('Z', &[]),
            PathEvent::End { close: false, .. } => {}
        }
    }
    Ok(out)
}

impl Scene {
    /// The scene drawn `width` px wide (height in proportion, rounded), checked as
    /// a Scene line is: the same drawing at another size, as
    /// `scale_scene` makes it. A scene already `width` wide is returned as is.
    ///
    /// ```
    /// use geomrender::scene::synthetic::diagram_scene;
    /// let scene = diagram_scene(0, 512);
    /// let small = scene.scaled_to_width(256)?;
    /// assert_eq!((small.width, small.height), (256, 256));
    /// # Ok::<(), geomrender::scene::SceneError>(())
    /// ```
    pub fn scaled_to_width(self, width: u32) -> Result<Scene, SceneError> {
        if width == self.width {
            return Ok(self);
        }
        let scaled = scale_scene(&self, width as f32 / self.width as f32)?;
        super::validate(&scaled)?;
        Ok(scaled)
    }
}

/// Everything scaled by `k`: canvas (rounded, at least 1 px), coordinates, stroke
/// widths, dashes and font sizes.
pub(crate) fn scale_scene(scene: &Scene, k: f32) -> Result<Scene, SceneError> {
    let mut s = map_points(scene, Affine::scale(k))?;
    s.width = ((scene.width as f32 * k).round() as u32).max(1);
    s.height = ((scene.height as f32 * k).round() as u32).max(1);
    for item in &mut s.items {
        match item {
            Item::Path(p) => {
                p.stroke_width *= k;
                p.dash.iter_mut().for_each(|d| *d *= k);
                p.dash_offset *= k;
            }
            Item::Text(t) => t.size *= k,
        }
    }
    Ok(s)
}

/// The scene turned clockwise by `quarter_turns` × 90° on its canvas; a quarter
/// turn swaps width and height. Text anchors move, glyphs stay upright.
pub(crate) fn rotate_scene(scene: &Scene, quarter_turns: u8) -> Result<Scene, SceneError> {
    let (w, h) = (scene.width as f32, scene.height as f32);
    let t = match quarter_turns % 4 {
        0 => return Ok(scene.clone()),
        // (x, y) → (h − y, x): clockwise in y-down coordinates.
        1 => Affine {
            a: 0.0,
            b: 1.0,
            c: -1.0,
            d: 0.0,
            e: h,
            f: 0.0,
        },
        2 => Affine {
            a: -1.0,
            b: 0.0,
            c: 0.0,
            d: -1.0,
            e: w,
            f: h,
        },
        _ => Affine {
            a: 0.0,
            b: -1.0,
            c: 1.0,
            d: 0.0,
            e: 0.0,
            f: w,
        },
    };
    let mut s = map_points(scene, t)?;
    if quarter_turns % 2 == 1 {
        std::mem::swap(&mut s.width, &mut s.height);
    }
    Ok(s)
}

fn map_points(scene: &Scene, t: Affine) -> Result<Scene, SceneError> {
    let mut s = scene.clone();
    for (i, item) in s.items.iter_mut().enumerate() {
        match item {
            Item::Path(p) => {
                p.d = transform_path_data(&p.d, t).map_err(|r| {
                    SceneError::new(format!("items[{i}].d"), r).with_id(Some(&scene.id))
                })?;
            }
            Item::Text(text) => (text.x, text.y) = t.apply(text.x, text.y),
        }
    }
    Ok(s)
}

/// A coordinate in transformed path data: up to 3 decimals.
fn num(v: f32) -> String {
    fmt_decimal(f64::from(v), 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Color, PathItem, TextItem, validate};

    fn scene() -> Scene {
        Scene {
            id: "s".into(),
            width: 200,
            height: 100,
            background: Some(Color::WHITE),
            items: vec![
                Item::Path(PathItem {
                    stroke: Some(Color::BLACK),
                    stroke_width: 2.0,
                    dash: vec![4.0, 2.0],
                    ..PathItem::new("M 10 20 L 50 20 A 10 10 0 0 1 70 20 Z")
                }),
                Item::Text(TextItem::new("A", 10.0, 90.0, 16.0)),
            ],
        }
    }

    #[test]
    fn rotation_moves_points_clockwise_and_swaps_the_canvas() {
        let r = rotate_scene(&scene(), 1).unwrap();
        assert_eq!((r.width, r.height), (100, 200));
        let Item::Path(p) = &r.items[0] else { panic!() };
        assert!(p.d.starts_with("M 80 10 L 80 50"), "{}", p.d);
        let Item::Text(t) = &r.items[1] else { panic!() };
        assert_eq!((t.x, t.y), (10.0, 10.0));
        validate(&r).unwrap();
        // Four quarter turns come back to the start (up to path-data rewriting).
        let back = (0..4)
            .try_fold(scene(), |s, _| rotate_scene(&s, 1))
            .unwrap();
        let Item::Text(t) = &back.items[1] else {
            panic!()
        };
        assert_eq!((back.width, back.height, t.x, t.y), (200, 100, 10.0, 90.0));
    }

    #[test]
    fn scaling_scales_everything() {
        let s = scale_scene(&scene(), 2.0).unwrap();
        assert_eq!((s.width, s.height), (400, 200));
        let Item::Path(p) = &s.items[0] else { panic!() };
        assert_eq!((p.stroke_width, p.dash.clone()), (4.0, vec![8.0, 4.0]));
        assert!(p.d.starts_with("M 20 40 L 100 40"), "{}", p.d);
        let Item::Text(t) = &s.items[1] else { panic!() };
        assert_eq!((t.x, t.y, t.size), (20.0, 180.0, 32.0));
    }
}
