//! Scene → PreparedScene: all CPU work before the GPU (tessellation, text shaping),
//! meant to run on rayon ahead of the GPU thread.

use super::tessellate::{Mesh, Paint, TessellateOptions, Tessellator};
use super::text::{self, ShapedText};
use crate::scene::{Color, Item, Reason, Scene, SceneError, check_bounds};
use glyphon::FontSystem;
use std::cell::RefCell;

/// A scene ready for the GPU: triangles in normalised device coordinates of its
/// own canvas, and draw operations in paint order.
pub struct PreparedScene {
    pub id: String,
    pub width: u32,
    pub height: u32,
    /// Canvas colour (None = transparent); the GPU clears the tile to it rather than
    /// painting it, which saves a full-tile pass per scene.
    pub background: Option<Color>,
    pub mesh: Mesh,
    pub ops: Vec<DrawOp>,
}

/// One draw operation, in paint order.
pub enum DrawOp {
    /// Triangles of the mesh; consecutive opaque paints are merged into one.
    Paint(Paint),
    /// A run of consecutive text items, drawn together.
    Text(Vec<ShapedText>),
}

thread_local! {
    static WORKER: RefCell<(FontSystem, Tessellator)> =
        RefCell::new((text::font_system(), Tessellator::default()));
}

/// Prepares a validated scene, using this thread's font system and tessellators.
pub fn prepare(scene: &Scene, options: TessellateOptions) -> Result<PreparedScene, SceneError> {
    WORKER.with(|w| {
        let (fonts, tess) = &mut *w.borrow_mut();
        prepare_with(scene, options, fonts, tess)
    })
}

/// [`prepare`] with explicit font system and tessellators.
///
/// The scene's work bounds ([`check_bounds`]: stroke width, dash count) are
/// checked first, and tessellation stops as soon as the scene's mesh exceeds its
/// budget ([`crate::scene::limits::MAX_SCENE_VERTICES`]), so that no scene costs
/// more than a bounded amount of time and memory.
pub(super) fn prepare_with(
    scene: &Scene,
    options: TessellateOptions,
    fonts: &mut FontSystem,
    tess: &mut Tessellator,
) -> Result<PreparedScene, SceneError> {
    check_bounds(scene)?;
    let mut mesh = Mesh::default();
    let mut ops: Vec<DrawOp> = Vec::new();
    for (i, item) in scene.items.iter().enumerate() {
        match item {
            Item::Path(p) => {
                let paints = tess.tessellate_path(p, options, &mut mesh).map_err(|r| {
                    let at = match r {
                        Reason::TooMuchGeometry { .. } => format!("items[{i}]"),
                        _ => format!("items[{i}].d"),
                    };
                    SceneError::new(at, r).with_id(Some(&scene.id))
                })?;
                for paint in paints {
                    push_paint(&mut ops, paint);
                }
            }
            Item::Text(t) => {
                let shaped = text::shape(fonts, t);
                match ops.last_mut() {
                    Some(DrawOp::Text(run)) => run.push(shaped),
                    _ => ops.push(DrawOp::Text(vec![shaped])),
                }
            }
        }
    }
    to_ndc(&mut mesh, scene.width, scene.height);
    Ok(PreparedScene {
        id: scene.id.clone(),
        width: scene.width,
        height: scene.height,
        background: scene.background,
        mesh,
        ops,
    })
}

/// Appends a paint, merging it into the previous one when both are opaque and adjacent.
fn push_paint(ops: &mut Vec<DrawOp>, paint: Paint) {
    if let Some(DrawOp::Paint(last)) = ops.last_mut() {
        if !last.translucent && !paint.translucent && last.indices.end == paint.indices.start {
            last.indices.end = paint.indices.end;
            return;
        }
    }
    ops.push(DrawOp::Paint(paint));
}

/// Pixels → normalised device coordinates of a `width`×`height` viewport (y up).
fn to_ndc(mesh: &mut Mesh, width: u32, height: u32) {
    let (sx, sy) = (2.0 / width as f32, 2.0 / height as f32);
    for v in &mut mesh.vertices {
        v.pos = [v.pos[0] * sx - 1.0, 1.0 - v.pos[1] * sy];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{PathItem, TextItem};

    #[test]
    fn ops_follow_paint_order_and_merge_opaque_paints() {
        let scene = Scene {
            id: "s".into(),
            width: 100,
            height: 50,
            background: Some(Color::WHITE),
            items: vec![
                Item::Path(PathItem {
                    fill: Some(Color::BLACK),
                    ..PathItem::new("M 0 0 H 10 V 10 Z")
                }),
                Item::Path(PathItem {
                    fill: Some(Color::BLACK),
                    fill_opacity: 0.5,
                    ..PathItem::new("M 0 0 H 10 V 10 Z")
                }),
                Item::Text(TextItem::new("A", 1.0, 20.0, 12.0)),
                Item::Text(TextItem::new("B", 1.0, 40.0, 12.0)),
                Item::Path(PathItem {
                    stroke: Some(Color::BLACK),
                    ..PathItem::new("M 0 0 H 10")
                }),
            ],
        };
        let p = prepare(&scene, TessellateOptions::default()).unwrap();
        let kinds: Vec<&str> = p
            .ops
            .iter()
            .map(|op| match op {
                DrawOp::Paint(p) if p.translucent => "translucent",
                DrawOp::Paint(_) => "opaque",
                DrawOp::Text(_) => "text",
            })
            .collect();
        assert_eq!(kinds, ["opaque", "translucent", "text", "opaque"]);
        let DrawOp::Text(run) = &p.ops[2] else {
            panic!()
        };
        assert_eq!(run.len(), 2);
        assert_eq!(p.background, Some(Color::WHITE));
        // The first square's corners (0,0) and (10,10) in NDC of a 100×50 canvas.
        let xs: Vec<[f32; 2]> = p.mesh.vertices.iter().map(|v| v.pos).collect();
        assert!(
            xs.contains(&[-1.0, 1.0]) && xs.contains(&[-0.8, 0.6]),
            "{xs:?}"
        );
    }
}
