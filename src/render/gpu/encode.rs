//! The steps of encoding one frame, in order: build its geometry, prepare its
//! text, encode its render pass, encode its readback.

use super::GpuError;
use super::frame::{Frame, Tile};
use super::pipelines::{self, BlendSpace, PathPipelines};
use super::target::Target;
use crate::render::prepare::DrawOp;
use crate::render::tessellate::Vertex;
use crate::scene::Color;
use glyphon::{
    Cache, FontSystem, Resolution, SwashCache, TextArea, TextAtlas, TextBounds, TextRenderer,
    Viewport,
};
use std::collections::HashMap;

/// A full-viewport quad, as four corners in clip space.
const QUAD: [[f32; 2]; 4] = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];

/// The vertices and indices of a frame and where each tile's part starts.
pub(super) struct Geometry {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
    /// The colour the frame is cleared to: the first tile's opaque background.
    pub clear: Option<Color>,
    /// Per tile: the first vertex of its background quad, when it needs one.
    pub backgrounds: Vec<Option<i32>>,
    /// Per tile: the first vertex and first index of its mesh.
    pub bases: Vec<(i32, u32)>,
}

/// Geometry of all tiles, after a full-viewport quad used to clear the stencil
/// (vertices 0..4, indices 0..6).
///
/// The frame is cleared to the first tile's opaque background; a tile with
/// another background gets a full-tile quad of it (premultiplied, no blending),
/// so its pixels are the same whichever frame it lands in.
pub(super) fn build_geometry(frame: &Frame) -> Geometry {
    let mut vertices: Vec<Vertex> = QUAD.map(|pos| Vertex { pos, color: [0; 4] }).to_vec();
    let mut indices: Vec<u32> = vec![0, 1, 2, 0, 2, 3];
    let clear = frame
        .tiles
        .first()
        .and_then(|t| t.scene.background)
        .filter(|c| c.a == 255);
    let mut backgrounds = Vec::with_capacity(frame.tiles.len());
    for tile in &frame.tiles {
        let bg = tile.scene.background.filter(|c| c.a > 0);
        if bg.is_some() && bg == clear {
            backgrounds.push(None);
            continue;
        }
        backgrounds.push(Some(vertices.len() as i32));
        let color = bg.map_or([0; 4], |c| {
            let p = |v: u8| ((v as u32 * c.a as u32 + 127) / 255) as u8;
            [p(c.r), p(c.g), p(c.b), c.a]
        });
        vertices.extend(QUAD.map(|pos| Vertex { pos, color }));
    }
    let mut bases = Vec::with_capacity(frame.tiles.len());
    for tile in &frame.tiles {
        bases.push((vertices.len() as i32, indices.len() as u32));
        vertices.extend_from_slice(&tile.scene.mesh.vertices);
        indices.extend_from_slice(&tile.scene.mesh.indices);
    }
    Geometry {
        vertices,
        indices,
        clear,
        backgrounds,
        bases,
    }
}

/// glyphon's state, shared by every frame.
pub(super) struct TextState {
    pub fonts: FontSystem,
    pub swash: SwashCache,
    pub cache: Cache,
    pub atlas: TextAtlas,
    /// One viewport per scene size: text is placed in tile coordinates.
    pub viewports: HashMap<(u32, u32), Viewport>,
}

impl TextState {
    /// Prepares every text run of `frame`, in paint order, into `renderers`
    /// (one glyphon renderer per run, created as needed and reused by later frames).
    pub(super) fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        renderers: &mut Vec<TextRenderer>,
        frame: &Frame,
    ) -> Result<(), GpuError> {
        let mut used = 0;
        for tile in &frame.tiles {
            let (w, h) = (tile.scene.width, tile.scene.height);
            self.viewports.entry((w, h)).or_insert_with(|| {
                let mut v = Viewport::new(device, &self.cache);
                let size = Resolution {
                    width: w,
                    height: h,
                };
                v.update(queue, size);
                v
            });
            for op in &tile.scene.ops {
                let DrawOp::Text(run) = op else { continue };
                if renderers.len() == used {
                    renderers.push(TextRenderer::new(
                        &mut self.atlas,
                        device,
                        pipelines::multisample(),
                        Some(pipelines::stencil_ignored()),
                    ));
                }
                let areas = run.iter().map(|s| TextArea {
                    buffer: &s.buffer,
                    left: s.left,
                    top: s.top,
                    scale: 1.0,
                    bounds: TextBounds {
                        left: 0,
                        top: 0,
                        right: w as i32,
                        bottom: h as i32,
                    },
                    default_color: glyphon::Color::rgba(
                        s.color[0], s.color[1], s.color[2], s.color[3],
                    ),
                    custom_glyphs: &[],
                });
                renderers[used].prepare(
                    device,
                    queue,
                    &mut self.fonts,
                    &mut self.atlas,
                    &self.viewports[&(w, h)],
                    areas,
                    &mut self.swash,
                )?;
                used += 1;
            }
        }
        Ok(())
    }
}

/// What the render pass of a frame draws with.
pub(super) struct PassInputs<'a> {
    pub paths: &'a PathPipelines,
    pub blend: BlendSpace,
    pub text: &'a TextState,
    /// The frame's prepared text runs, in paint order.
    pub text_renderers: &'a [TextRenderer],
    pub geometry: &'a Geometry,
    pub vertices: &'a wgpu::Buffer,
    pub indices: &'a wgpu::Buffer,
}

impl PassInputs<'_> {
    /// One render pass drawing every tile of `frame` into `target`, each in its
    /// own viewport and scissor.
    pub(super) fn encode_pass(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &Target,
        frame: &Frame,
    ) -> Result<(), GpuError> {
        let clear = self
            .geometry
            .clear
            .map_or(wgpu::Color::TRANSPARENT, |c| clear_color(c, self.blend));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("tiles"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target.msaa,
                depth_slice: None,
                resolve_target: Some(&target.resolved_view),
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(clear),
                    store: wgpu::StoreOp::Discard,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &target.stencil,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(0),
                    store: wgpu::StoreOp::Discard,
                }),
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let mut text_runs = self.text_renderers.iter();
        for (i, tile) in frame.tiles.iter().enumerate() {
            self.draw_tile(&mut pass, tile, i, &mut text_runs)?;
        }
        Ok(())
    }

    /// Draws tile `i`: its background quad if any, then its ops in paint order.
    fn draw_tile<'r>(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        tile: &Tile,
        i: usize,
        text_runs: &mut impl Iterator<Item = &'r TextRenderer>,
    ) -> Result<(), GpuError> {
        let (w, h) = (tile.scene.width, tile.scene.height);
        let (vertex_base, index_base) = self.geometry.bases[i];
        pass.set_viewport(tile.x as f32, tile.y as f32, w as f32, h as f32, 0.0, 1.0);
        pass.set_scissor_rect(tile.x, tile.y, w, h);
        // Text rendering binds its own buffers; paths rebind the frame's after it.
        let mut geometry_bound = false;
        if let Some(quad) = self.geometry.backgrounds[i] {
            self.bind_geometry(pass, &mut geometry_bound);
            pass.set_pipeline(&self.paths.replace);
            pass.draw_indexed(0..6, quad, 0..1);
        }
        let mut stencil_ref = 0u32;
        for op in &tile.scene.ops {
            match op {
                DrawOp::Paint(paint) => {
                    self.bind_geometry(pass, &mut geometry_bound);
                    if paint.translucent {
                        if stencil_ref == 255 {
                            pass.set_pipeline(&self.paths.stencil_clear);
                            pass.draw_indexed(0..6, 0, 0..1);
                            stencil_ref = 0;
                        }
                        stencil_ref += 1;
                        pass.set_pipeline(&self.paths.once);
                        pass.set_stencil_reference(stencil_ref);
                    } else {
                        pass.set_pipeline(&self.paths.opaque);
                    }
                    let range = index_base + paint.indices.start..index_base + paint.indices.end;
                    pass.draw_indexed(range, vertex_base, 0..1);
                }
                DrawOp::Text(_) => {
                    text_runs
                        .next()
                        .expect("one prepared renderer per text run")
                        .render(&self.text.atlas, &self.text.viewports[&(w, h)], pass)?;
                    geometry_bound = false;
                }
            }
        }
        Ok(())
    }

    /// Binds the frame's vertex and index buffers unless `bound` says they are.
    fn bind_geometry(&self, pass: &mut wgpu::RenderPass<'_>, bound: &mut bool) {
        if !*bound {
            pass.set_vertex_buffer(0, self.vertices.slice(..));
            pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
            *bound = true;
        }
    }
}

/// Copies the resolved `target`'s rows in use by `frame` into `staging`, rows
/// `row_pitch` bytes apart.
pub(super) fn encode_readback(
    encoder: &mut wgpu::CommandEncoder,
    target: &Target,
    frame: &Frame,
    staging: &wgpu::Buffer,
    row_pitch: u32,
) {
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &target.resolved,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row_pitch),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d {
            width: frame.width,
            height: frame.height,
            depth_or_array_layers: 1,
        },
    );
}

/// A render-pass clear value that stores exactly the colour `c` (opaque).
fn clear_color(c: Color, blend: BlendSpace) -> wgpu::Color {
    let f = |v: u8| {
        let s = v as f64 / 255.0;
        match blend {
            BlendSpace::Srgb => s,
            // An sRGB target encodes the clear value: give it linear light.
            BlendSpace::Linear if s <= 0.04045 => s / 12.92,
            BlendSpace::Linear => ((s + 0.055) / 1.055).powf(2.4),
        }
    };
    wgpu::Color {
        r: f(c.r),
        g: f(c.g),
        b: f(c.b),
        a: 1.0,
    }
}
