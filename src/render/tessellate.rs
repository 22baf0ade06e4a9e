//! Path items → coloured triangles with lyon.
//!
//! Each paint operation (a fill, a stroke) becomes one contiguous index range.
//! Positions are snapped to 1/256 px so that a scene rasterises identically
//! wherever it lands in a batch (see `render::gpu::renderer`).

use super::dash::dash;
use crate::scene::{Color, FillRule, LineCap, LineJoin, PathItem, Reason, limits, path_data};
use lyon::tessellation::geometry_builder::{
    FillGeometryBuilder, GeometryBuilder, GeometryBuilderError, StrokeGeometryBuilder,
};
use lyon::tessellation::{
    BuffersBuilder, FillOptions, FillTessellator, FillVertex, StrokeOptions, StrokeTessellator,
    StrokeVertex, TessellationError, VertexBuffers, VertexId,
};
use std::ops::Range;

/// Maximum distance between a curve and its flattened polyline, in pixels.
pub const DEFAULT_TOLERANCE: f32 = 0.05;

/// The finest tolerance worth asking for: a quarter of the 1/256 px grid vertices are
/// snapped to (`SNAP`), so a finer one changes nothing drawn, only the number of
/// triangles (a tolerance of 1e-30 would make millions and hit the scene budget).
pub(crate) const MIN_TOLERANCE: f32 = 0.001;

/// The coarsest tolerance accepted: already a visible polygon on a small circle.
pub(crate) const MAX_TOLERANCE: f32 = 10.0;

/// Sub-pixel grid that vertex positions are snapped to.
pub(super) const SNAP: f32 = 256.0;

/// A vertex in scene pixels with a non-premultiplied sRGB colour.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    pub pos: [f32; 2],
    pub color: [u8; 4],
}

/// Triangles of one scene; indices are relative to this mesh's vertices.
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
}

/// One paint operation's triangles.
#[derive(Clone, Debug, PartialEq)]
pub struct Paint {
    /// Index range in the scene's [`Mesh`].
    pub indices: Range<u32>,
    /// Translucent paint must cover each sample at most once (SVG paints a stroke
    /// as one layer even where it overlaps itself).
    pub translucent: bool,
}

/// Options for [`Tessellator::tessellate_path`].
#[derive(Clone, Copy, Debug)]
pub struct TessellateOptions {
    /// Curve flattening tolerance in pixels.
    pub tolerance: f32,
}

impl Default for TessellateOptions {
    fn default() -> Self {
        TessellateOptions {
            tolerance: DEFAULT_TOLERANCE,
        }
    }
}

/// Reusable lyon tessellators.
#[derive(Default)]
pub struct Tessellator {
    fill: FillTessellator,
    stroke: StrokeTessellator,
}

impl Tessellator {
    /// Appends the fill and then the stroke of `item` to `mesh` (SVG paint order).
    pub fn tessellate_path(
        &mut self,
        item: &PathItem,
        options: TessellateOptions,
        mesh: &mut Mesh,
    ) -> Result<Vec<Paint>, Reason> {
        let mut paints = Vec::with_capacity(2);
        let fill = item.fill.filter(|_| item.fill_opacity > 0.0);
        let stroke = item
            .stroke
            .filter(|_| item.stroke_opacity > 0.0 && item.stroke_width > 0.0);
        if fill.is_none() && stroke.is_none() {
            return Ok(paints);
        }
        let path = path_data::parse(&item.d)?;
        if let Some(color) = fill {
            let (rgba, translucent) = vertex_color(color, item.fill_opacity);
            let rule = match item.fill_rule {
                FillRule::Nonzero => lyon::tessellation::FillRule::NonZero,
                FillRule::Evenodd => lyon::tessellation::FillRule::EvenOdd,
            };
            let opts = FillOptions::tolerance(options.tolerance).with_fill_rule(rule);
            let start = mesh.indices.len() as u32;
            let mut buffers = Buffers::new(mesh);
            let budget = Budget::of(&buffers.0);
            let result = self.fill.tessellate_path(
                &path,
                &opts,
                &mut budget.wrap(BuffersBuilder::new(&mut buffers.0, |v: FillVertex| {
                    vertex(v.position(), rgba)
                })),
            );
            buffers.finish(mesh);
            result.map_err(|e| tessellation_error("fill", e, options.tolerance))?;
            push(&mut paints, start, mesh, translucent);
        }
        if let Some(color) = stroke {
            let (width, opacity) = hairline(item.stroke_width, item.stroke_opacity);
            let (rgba, translucent) = vertex_color(color, opacity);
            let path = if item.dash.is_empty() {
                path
            } else {
                dash(&path, &item.dash, item.dash_offset, options.tolerance)?
            };
            let mut opts = StrokeOptions::tolerance(options.tolerance)
                .with_line_width(width)
                .with_line_join(match item.line_join {
                    LineJoin::Miter => lyon::tessellation::LineJoin::Miter,
                    LineJoin::Round => lyon::tessellation::LineJoin::Round,
                    LineJoin::Bevel => lyon::tessellation::LineJoin::Bevel,
                })
                .with_line_cap(match item.line_cap {
                    LineCap::Butt => lyon::tessellation::LineCap::Butt,
                    LineCap::Round => lyon::tessellation::LineCap::Round,
                    LineCap::Square => lyon::tessellation::LineCap::Square,
                });
            opts.miter_limit = lyon_miter_limit(item.miter_limit);
            let start = mesh.indices.len() as u32;
            let mut buffers = Buffers::new(mesh);
            let budget = Budget::of(&buffers.0);
            let result = self.stroke.tessellate_path(
                &path,
                &opts,
                &mut budget.wrap(BuffersBuilder::new(&mut buffers.0, |v: StrokeVertex| {
                    vertex(v.position(), rgba)
                })),
            );
            buffers.finish(mesh);
            result.map_err(|e| tessellation_error("stroke", e, options.tolerance))?;
            push(&mut paints, start, mesh, translucent);
        }
        Ok(paints)
    }
}

/// What a failed fill or stroke means for the scene.
fn tessellation_error(what: &str, e: TessellationError, tolerance: f32) -> Reason {
    match e {
        TessellationError::GeometryBuilder(GeometryBuilderError::TooManyVertices) => {
            Reason::TooMuchGeometry {
                max_vertices: limits::MAX_SCENE_VERTICES,
                max_indices: limits::MAX_SCENE_INDICES,
                tolerance,
            }
        }
        e => Reason::BadPathData(format!("cannot {what}: {e:?}")),
    }
}

/// The room a scene's mesh has left under [`limits::MAX_SCENE_VERTICES`] and
/// [`limits::MAX_SCENE_INDICES`].
#[derive(Clone, Copy)]
struct Budget {
    vertices: usize,
    indices: usize,
}

impl Budget {
    fn of(buffers: &VertexBuffers<Vertex, u32>) -> Self {
        Budget {
            vertices: limits::MAX_SCENE_VERTICES.saturating_sub(buffers.vertices.len()),
            indices: limits::MAX_SCENE_INDICES.saturating_sub(buffers.indices.len()),
        }
    }

    fn wrap<B>(self, inner: B) -> Budgeted<B> {
        Budgeted { inner, left: self }
    }
}

/// A geometry builder that refuses vertices once the scene's budget is spent, so
/// that lyon stops at once (`TooManyVertices`) instead of finishing a huge mesh.
struct Budgeted<B> {
    inner: B,
    left: Budget,
}

impl<B> Budgeted<B> {
    fn take_vertex(&mut self) -> Result<(), GeometryBuilderError> {
        // Checked per vertex: a triangle's indices are charged when it is added,
        // so the index budget is overshot by at most a few triangles.
        if self.left.vertices == 0 || self.left.indices == 0 {
            return Err(GeometryBuilderError::TooManyVertices);
        }
        self.left.vertices -= 1;
        Ok(())
    }
}

impl<B: GeometryBuilder> GeometryBuilder for Budgeted<B> {
    fn begin_geometry(&mut self) {
        self.inner.begin_geometry();
    }

    fn end_geometry(&mut self) {
        self.inner.end_geometry();
    }

    fn add_triangle(&mut self, a: VertexId, b: VertexId, c: VertexId) {
        self.left.indices = self.left.indices.saturating_sub(3);
        self.inner.add_triangle(a, b, c);
    }

    fn abort_geometry(&mut self) {
        self.inner.abort_geometry();
    }
}

impl<B: FillGeometryBuilder> FillGeometryBuilder for Budgeted<B> {
    fn add_fill_vertex(&mut self, v: FillVertex) -> Result<VertexId, GeometryBuilderError> {
        self.take_vertex()?;
        self.inner.add_fill_vertex(v)
    }
}

impl<B: StrokeGeometryBuilder> StrokeGeometryBuilder for Budgeted<B> {
    fn add_stroke_vertex(&mut self, v: StrokeVertex) -> Result<VertexId, GeometryBuilderError> {
        self.take_vertex()?;
        self.inner.add_stroke_vertex(v)
    }
}

/// lyon writes indices relative to its own buffer; this moves them onto the mesh.
struct Buffers(VertexBuffers<Vertex, u32>);

impl Buffers {
    fn new(mesh: &mut Mesh) -> Self {
        Buffers(VertexBuffers {
            vertices: std::mem::take(&mut mesh.vertices),
            indices: std::mem::take(&mut mesh.indices),
        })
    }

    fn finish(self, mesh: &mut Mesh) {
        mesh.vertices = self.0.vertices;
        mesh.indices = self.0.indices;
    }
}

fn push(paints: &mut Vec<Paint>, start: u32, mesh: &Mesh, translucent: bool) {
    let end = mesh.indices.len() as u32;
    if end > start {
        paints.push(Paint {
            indices: start..end,
            translucent,
        });
    }
}

fn vertex(p: lyon::math::Point, color: [u8; 4]) -> Vertex {
    Vertex {
        pos: [(p.x * SNAP).round() / SNAP, (p.y * SNAP).round() / SNAP],
        color,
    }
}

/// SVG's `stroke-miterlimit` in lyon's terms. SVG bevels a join when the miter
/// length (outer tip to inner corner) exceeds `limit` stroke widths, i.e. when
/// 1/sin(θ/2) > limit; lyon 1.0 bevels when its miter normal, of length 1/sin(θ/2),
/// exceeds twice its limit. Set directly: lyon's builder refuses limits below 1.
fn lyon_miter_limit(svg_limit: f32) -> f32 {
    svg_limit / 2.0
}

/// Stroke width and opacity to draw with. Strokes thinner than a pixel are drawn
/// 1 px wide with their opacity scaled by the width, as resvg (Skia's modulated
/// hairline) does: 4× MSAA cannot cover a thinner line evenly, so it would break up
/// into dots and dashes.
fn hairline(width: f32, opacity: f32) -> (f32, f32) {
    if width < 1.0 {
        (1.0, opacity * width)
    } else {
        (width, opacity)
    }
}

/// The colour with `opacity` folded into alpha, and whether the result is translucent.
fn vertex_color(c: Color, opacity: f32) -> ([u8; 4], bool) {
    let a = (c.a as f32 * opacity).round().clamp(0.0, 255.0) as u8;
    ([c.r, c.g, c.b, a], a < 255)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(mesh: &Mesh, range: Range<u32>) -> f32 {
        mesh.indices[range.start as usize..range.end as usize]
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].pos);
                ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs() / 2.0
            })
            .sum()
    }

    fn tess(item: PathItem) -> (Mesh, Vec<Paint>) {
        let mut mesh = Mesh::default();
        let paints = Tessellator::default()
            .tessellate_path(&item, TessellateOptions::default(), &mut mesh)
            .unwrap();
        (mesh, paints)
    }

    #[test]
    fn fill_area_matches_geometry() {
        let (mesh, paints) = tess(PathItem {
            fill: Some(Color::BLACK),
            ..PathItem::new("M 10 10 H 30 V 20 H 10 Z")
        });
        assert_eq!(paints.len(), 1);
        assert!((area(&mesh, paints[0].indices.clone()) - 200.0).abs() < 1e-3);
        assert!(!paints[0].translucent);
    }

    #[test]
    fn evenodd_leaves_a_hole() {
        let d = "M 0 0 H 100 V 100 H 0 Z M 25 25 H 75 V 75 H 25 Z";
        let (mesh, p) = tess(PathItem {
            fill: Some(Color::BLACK),
            fill_rule: FillRule::Evenodd,
            ..PathItem::new(d)
        });
        assert!((area(&mesh, p[0].indices.clone()) - 7500.0).abs() < 1e-2);
        // Same winding on both squares: nonzero fills the hole.
        let (mesh, p) = tess(PathItem {
            fill: Some(Color::BLACK),
            ..PathItem::new(d)
        });
        assert!((area(&mesh, p[0].indices.clone()) - 10000.0).abs() < 1e-2);
    }

    #[test]
    fn circle_area_within_tolerance() {
        let d = "M 50 100 A 50 50 0 1 0 150 100 A 50 50 0 1 0 50 100 Z";
        let (mesh, p) = tess(PathItem {
            fill: Some(Color::BLACK),
            ..PathItem::new(d)
        });
        let exact = std::f32::consts::PI * 2500.0;
        let got = area(&mesh, p[0].indices.clone());
        // Flattening moves the outline by at most the tolerance: area error ≤ perimeter × tolerance.
        assert!(
            (exact - got).abs() < 2.0 * std::f32::consts::PI * 50.0 * DEFAULT_TOLERANCE,
            "{got}"
        );
    }

    #[test]
    fn stroke_area_is_length_times_width() {
        let (mesh, p) = tess(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 4.0,
            ..PathItem::new("M 0 0 L 100 0")
        });
        assert!((area(&mesh, p[0].indices.clone()) - 400.0).abs() < 1e-2);
        let (mesh, p) = tess(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 4.0,
            line_cap: LineCap::Square,
            ..PathItem::new("M 0 0 L 100 0")
        });
        assert!((area(&mesh, p[0].indices.clone()) - 416.0).abs() < 1e-2);
    }

    /// Area of a 10-wide stroke over a 60° corner (SVG miter ratio 1/sin 30° = 2).
    fn corner_area(miter_limit: f32) -> f32 {
        let (mesh, p) = tess(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 10.0,
            miter_limit,
            ..PathItem::new("M 0 0 L 100 0 L 50 86.60254")
        });
        area(&mesh, p[0].indices.clone())
    }

    #[test]
    fn miter_limit_has_svg_meaning() {
        // Ratio 2: mitered at limit 2.1, bevelled at 1.9. The miter adds the kite
        // vertex–side–tip–side (2 · ½ · 5 · 5/tan 30° = 43.30) less the bevel triangle
        // (½ · 5 · 5 · sin 120° = 10.83): 32.48 px².
        let (mitered, bevelled) = (corner_area(2.1), corner_area(1.9));
        assert!(
            (mitered - bevelled - 32.48).abs() < 0.2,
            "{mitered} vs {bevelled}"
        );
        assert_eq!(corner_area(1.0), bevelled);
        assert_eq!(corner_area(4.0), mitered);
    }

    #[test]
    fn sub_pixel_strokes_are_one_pixel_wide_and_fainter() {
        let (mesh, p) = tess(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 0.5,
            ..PathItem::new("M 0 0 L 100 0")
        });
        assert!((area(&mesh, p[0].indices.clone()) - 100.0).abs() < 1e-2);
        assert!(p[0].translucent);
        assert_eq!(mesh.vertices[0].color, [0, 0, 0, 128]);
    }

    #[test]
    fn dashed_stroke_covers_the_on_parts() {
        let (mesh, p) = tess(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 2.0,
            dash: vec![6.0, 4.0],
            ..PathItem::new("M 0 0 L 100 0")
        });
        assert!((area(&mesh, p[0].indices.clone()) - 120.0).abs() < 1e-2);
    }

    #[test]
    fn fill_then_stroke_and_opacity() {
        let (_, p) = tess(PathItem {
            fill: Some(Color::BLACK),
            fill_opacity: 0.5,
            stroke: Some(Color::rgba(0, 0, 0, 128)),
            ..PathItem::new("M 0 0 H 10 V 10 Z")
        });
        assert_eq!(p.len(), 2);
        assert!(p[0].translucent && p[1].translucent);
        assert!(p[0].indices.end <= p[1].indices.start);
    }

    #[test]
    fn invisible_paint_is_skipped() {
        let (_, p) = tess(PathItem {
            fill: Some(Color::BLACK),
            fill_opacity: 0.0,
            ..PathItem::new("M 0 0 H 10 V 10 Z")
        });
        assert!(p.is_empty());
        let (_, p) = tess(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 0.0,
            ..PathItem::new("M 0 0 H 10")
        });
        assert!(p.is_empty());
    }

    #[test]
    fn tessellation_stops_at_the_scene_budget() {
        // Forty 100,000 px circles at a 0.0001 px tolerance would take several
        // million vertices; the budget stops them at a million.
        let circle = "M 0 0 A 100000 100000 0 1 0 200000 0 A 100000 100000 0 1 0 0 0 Z ";
        let item = PathItem {
            fill: Some(Color::BLACK),
            stroke: Some(Color::BLACK),
            ..PathItem::new(circle.repeat(40))
        };
        let mut mesh = Mesh::default();
        let start = std::time::Instant::now();
        let e = Tessellator::default()
            .tessellate_path(&item, TessellateOptions { tolerance: 1e-4 }, &mut mesh)
            .unwrap_err();
        assert!(matches!(e, Reason::TooMuchGeometry { .. }), "{e}");
        // The message names the flag and the tolerance that made so much.
        assert!(e.to_string().contains("0.0001 px (--tolerance)"), "{e}");
        assert!(mesh.vertices.len() <= limits::MAX_SCENE_VERTICES);
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        // The budget is per scene: a mesh already near it leaves little room.
        let mut mesh = Mesh {
            vertices: vec![
                Vertex {
                    pos: [0.0; 2],
                    color: [0; 4]
                };
                limits::MAX_SCENE_VERTICES - 2
            ],
            indices: Vec::new(),
        };
        let small = PathItem {
            fill: Some(Color::BLACK),
            ..PathItem::new("M 0 0 H 10 V 10 H 0 Z")
        };
        let e = Tessellator::default()
            .tessellate_path(&small, TessellateOptions::default(), &mut mesh)
            .unwrap_err();
        assert!(matches!(e, Reason::TooMuchGeometry { .. }), "{e}");
    }

    #[test]
    fn positions_are_snapped() {
        let (mesh, _) = tess(PathItem {
            fill: Some(Color::BLACK),
            ..PathItem::new("M 0.001 0 H 10.3 V 10.7 Z")
        });
        for v in &mesh.vertices {
            assert_eq!(v.pos[0] * SNAP, (v.pos[0] * SNAP).round());
            assert_eq!(v.pos[1] * SNAP, (v.pos[1] * SNAP).round());
        }
    }
}
