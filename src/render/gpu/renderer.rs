//! The GPU renderer: frames of tiled scenes → RGBA images.
//!
//! One render pass per frame draws every tile with its own viewport and scissor,
//! so a scene's pixels do not depend on where its tile lands: positions are in
//! the scene's own normalised coordinates (snapped to 1/256 px beforehand) and
//! glyphs are placed in whole pixels of the tile. Up to two frames are in flight:
//! the next frame is encoded and submitted while the previous one is read back.

use super::GpuError;
use super::context::{AdapterSummary, GpuContext};
use super::frame::Frame;
use super::pipelines::{self, BlendSpace, PathPipelines, SAMPLE_COUNT, STENCIL_FORMAT};
use crate::render::RenderedImage;
use crate::render::alpha::unpremultiply;
use crate::render::prepare::Op;
use crate::render::tessellate::Vertex;
use glyphon::{
    Cache, ColorMode, FontSystem, Resolution, SwashCache, TextArea, TextAtlas, TextBounds,
    TextRenderer, Viewport,
};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Options of the GPU renderer.
#[derive(Clone, Copy, Debug)]
pub struct GpuOptions {
    /// Largest render target scenes are tiled into; [`GpuOptions::AUTO_TARGET`]
    /// picks by adapter. Targets are allocated to the frames' size up to this.
    pub target_size: (u32, u32),
    /// Most scenes per frame.
    pub max_tiles: usize,
    /// Where colours blend; SVG semantics (sRGB) unless a test says otherwise.
    pub blend: BlendSpace,
}

impl GpuOptions {
    /// Let the renderer choose: [`Self::SOFTWARE_TARGET`] on software adapters,
    /// [`Self::HARDWARE_TARGET`] on GPUs (clamped to the device limit).
    pub const AUTO_TARGET: (u32, u32) = (0, 0);
    /// 512²: on lavapipe a submission costs about 0.3 ms while a 512² 4×MSAA scene
    /// costs about 3 ms of rasterisation, and larger targets lose more to cache
    /// misses than batching saves (criterion `render_batch`: 310 images/s one per
    /// submission vs 249 in 1024² frames), so 512² scenes go one per frame and
    /// smaller ones are still batched (32² scenes: 2.1× faster batched).
    pub const SOFTWARE_TARGET: (u32, u32) = (512, 512);
    /// 4096² (sixty-four 512² scenes) amortises submission and readback on a GPU.
    pub const HARDWARE_TARGET: (u32, u32) = (4096, 4096);
    pub const DEFAULT_MAX_TILES: usize = 256;
    /// Frames up to this size share a cached target; larger ones (a single huge
    /// scene) get a target of their own that is freed afterwards.
    pub const MAX_CACHED_TARGET: u32 = 4096;
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            target_size: Self::AUTO_TARGET,
            max_tiles: Self::DEFAULT_MAX_TILES,
            blend: BlendSpace::Srgb,
        }
    }
}

/// Frames in flight at most.
const SLOTS: usize = 2;

pub struct GpuRenderer {
    ctx: GpuContext,
    options: GpuOptions,
    paths: PathPipelines,
    text: TextState,
    target: Option<Target>,
    vertices: [GrowBuffer; SLOTS],
    indices: [GrowBuffer; SLOTS],
    staging: [Option<wgpu::Buffer>; SLOTS],
    /// Text renderers used by the frame in each slot (one per text run).
    text_renderers: [Vec<TextRenderer>; SLOTS],
    next_slot: usize,
    in_flight: VecDeque<InFlight>,
}

struct TextState {
    fonts: FontSystem,
    swash: SwashCache,
    cache: Cache,
    atlas: TextAtlas,
    viewports: HashMap<(u32, u32), Viewport>,
}

/// Multisampled colour + stencil, and the resolved single-sample colour.
struct Target {
    size: (u32, u32),
    msaa: wgpu::TextureView,
    stencil: wgpu::TextureView,
    resolved: wgpu::Texture,
    resolved_view: wgpu::TextureView,
}

struct InFlight {
    slot: usize,
    submission: wgpu::SubmissionIndex,
    row_pitch: u32,
    /// Bytes of the staging buffer this frame maps.
    size: u64,
    tiles: Vec<TileMeta>,
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

struct TileMeta {
    id: String,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

impl GpuRenderer {
    /// Opens the default adapter (see [`super::context`]) and builds the pipelines.
    pub fn new(options: GpuOptions) -> Result<Self, GpuError> {
        let ctx = GpuContext::new()?;
        let max = ctx.max_texture_size;
        let mut options = options;
        if options.target_size == GpuOptions::AUTO_TARGET {
            options.target_size = if ctx.adapter.hardware {
                GpuOptions::HARDWARE_TARGET
            } else {
                GpuOptions::SOFTWARE_TARGET
            };
        }
        let options = GpuOptions {
            target_size: (
                options.target_size.0.clamp(1, max),
                options.target_size.1.clamp(1, max),
            ),
            ..options
        };
        let paths = PathPipelines::new(&ctx.device, options.blend);
        let cache = Cache::new(&ctx.device);
        let atlas = TextAtlas::with_color_mode(
            &ctx.device,
            &ctx.queue,
            &cache,
            options.blend.format(),
            match options.blend {
                BlendSpace::Srgb => ColorMode::Web,
                BlendSpace::Linear => ColorMode::Accurate,
            },
        );
        let text = TextState {
            fonts: crate::render::text::font_system(),
            swash: SwashCache::new(),
            cache,
            atlas,
            viewports: HashMap::new(),
        };
        let grow = |usage| [GrowBuffer::new(usage), GrowBuffer::new(usage)];
        let renderer = GpuRenderer {
            options,
            paths,
            text,
            target: None,
            vertices: grow(wgpu::BufferUsages::VERTEX),
            indices: grow(wgpu::BufferUsages::INDEX),
            staging: [None, None],
            text_renderers: [Vec::new(), Vec::new()],
            next_slot: 0,
            in_flight: VecDeque::new(),
            ctx,
        };
        renderer.ctx.check()?;
        Ok(renderer)
    }

    pub fn adapter(&self) -> &AdapterSummary {
        &self.ctx.adapter
    }

    pub fn options(&self) -> GpuOptions {
        self.options
    }

    /// Largest texture side the device allows.
    pub fn max_texture_size(&self) -> u32 {
        self.ctx.max_texture_size
    }

    /// Frames submitted and not yet collected.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Renders one frame and waits for its images.
    pub fn render_frame(&mut self, frame: Frame) -> Result<Vec<RenderedImage>, GpuError> {
        self.submit(frame)?;
        self.collect().unwrap_or(Ok(Vec::new()))
    }

    /// Encodes and submits a frame. With two frames in flight, collect one first.
    pub fn submit(&mut self, frame: Frame) -> Result<(), GpuError> {
        if self.in_flight.len() >= SLOTS {
            return Err(GpuError::Busy);
        }
        let slot = self.next_slot;
        self.next_slot = (slot + 1) % SLOTS;
        let device = self.ctx.device.clone();
        let queue = self.ctx.queue.clone();

        // Geometry of all tiles, after a full-viewport quad used to clear the stencil.
        let mut vertices: Vec<Vertex> = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
            .map(|pos| Vertex { pos, color: [0; 4] })
            .to_vec();
        let mut indices: Vec<u32> = vec![0, 1, 2, 0, 2, 3];
        // The frame is cleared to the first tile's opaque background; a tile with
        // another background gets a full-tile quad of it (premultiplied, no blending),
        // so its pixels are the same whichever frame it lands in.
        let clear = frame
            .tiles
            .first()
            .and_then(|t| t.scene.background)
            .filter(|c| c.a == 255);
        let mut backgrounds: Vec<Option<i32>> = Vec::with_capacity(frame.tiles.len());
        for tile in &frame.tiles {
            let bg = tile.scene.background.filter(|c| c.a > 0);
            if bg.is_some() && bg == clear {
                backgrounds.push(None);
                continue;
            }
            backgrounds.push(Some(vertices.len() as i32));
            let c = bg.map_or([0; 4], |c| {
                let p = |v: u8| ((v as u32 * c.a as u32 + 127) / 255) as u8;
                [p(c.r), p(c.g), p(c.b), c.a]
            });
            vertices.extend(
                [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
                    .map(|pos| Vertex { pos, color: c }),
            );
        }
        let mut bases = Vec::with_capacity(frame.tiles.len());
        for tile in &frame.tiles {
            bases.push((vertices.len() as i32, indices.len() as u32));
            vertices.extend_from_slice(&tile.scene.mesh.vertices);
            indices.extend_from_slice(&tile.scene.mesh.indices);
        }
        let vbuf = self.vertices[slot].upload(&device, &queue, bytemuck::cast_slice(&vertices));
        let ibuf = self.indices[slot].upload(&device, &queue, bytemuck::cast_slice(&indices));

        // Text: one glyphon renderer per text run, prepared in tile coordinates.
        let renderers = &mut self.text_renderers[slot];
        let mut used = 0;
        for tile in &frame.tiles {
            let (w, h) = (tile.scene.width, tile.scene.height);
            let text = &mut self.text;
            if !text.viewports.contains_key(&(w, h)) {
                let mut v = Viewport::new(&device, &text.cache);
                v.update(
                    &queue,
                    Resolution {
                        width: w,
                        height: h,
                    },
                );
                text.viewports.insert((w, h), v);
            }
            for op in &tile.scene.ops {
                let Op::Text(run) = op else { continue };
                if renderers.len() == used {
                    renderers.push(TextRenderer::new(
                        &mut text.atlas,
                        &device,
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
                renderers[used]
                    .prepare(
                        &device,
                        &queue,
                        &mut text.fonts,
                        &mut text.atlas,
                        &text.viewports[&(w, h)],
                        areas,
                        &mut text.swash,
                    )
                    .map_err(|e| GpuError::Text(e.to_string()))?;
                used += 1;
            }
        }

        // The cached target grows to the largest frame seen, so a run of small
        // frames clears and resolves only their own pixels; a frame beyond
        // MAX_CACHED_TARGET (one huge scene) gets a target of its own.
        let huge = frame.width.max(frame.height) > GpuOptions::MAX_CACHED_TARGET;
        let one_off;
        let target = if huge {
            one_off = Target::new(
                &device,
                (frame.width, frame.height),
                self.options.blend.format(),
            );
            &one_off
        } else {
            let fits = |t: &Target| t.size.0 >= frame.width && t.size.1 >= frame.height;
            if !self.target.as_ref().is_some_and(fits) {
                let grown = self.target.as_ref().map_or((0, 0), |t| t.size);
                let size = (grown.0.max(frame.width), grown.1.max(frame.height));
                self.target = Some(Target::new(&device, size, self.options.blend.format()));
            }
            self.target.as_ref().expect("just ensured")
        };
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("tiles"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target.msaa,
                    depth_slice: None,
                    resolve_target: Some(&target.resolved_view),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(clear.map_or(wgpu::Color::TRANSPARENT, |c| {
                            clear_color(c, self.options.blend)
                        })),
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
            let mut text_index = 0;
            for ((tile, &(vertex_base, index_base)), background) in
                frame.tiles.iter().zip(&bases).zip(&backgrounds)
            {
                let (w, h) = (tile.scene.width, tile.scene.height);
                pass.set_viewport(tile.x as f32, tile.y as f32, w as f32, h as f32, 0.0, 1.0);
                pass.set_scissor_rect(tile.x, tile.y, w, h);
                let mut geometry_bound = false;
                if let Some(quad) = background {
                    pass.set_vertex_buffer(0, vbuf.slice(..));
                    pass.set_index_buffer(ibuf.slice(..), wgpu::IndexFormat::Uint32);
                    geometry_bound = true;
                    pass.set_pipeline(&self.paths.replace);
                    pass.draw_indexed(0..6, *quad, 0..1);
                }
                let mut stencil_ref = 0u32;
                for op in &tile.scene.ops {
                    match op {
                        Op::Paint(paint) => {
                            if !geometry_bound {
                                pass.set_vertex_buffer(0, vbuf.slice(..));
                                pass.set_index_buffer(ibuf.slice(..), wgpu::IndexFormat::Uint32);
                                geometry_bound = true;
                            }
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
                            let range =
                                index_base + paint.indices.start..index_base + paint.indices.end;
                            pass.draw_indexed(range, vertex_base, 0..1);
                        }
                        Op::Text(_) => {
                            self.text_renderers[slot][text_index]
                                .render(&self.text.atlas, &self.text.viewports[&(w, h)], &mut pass)
                                .map_err(|e| GpuError::Text(e.to_string()))?;
                            text_index += 1;
                            geometry_bound = false;
                        }
                    }
                }
            }
        }

        // Read back only the rows in use.
        let row_pitch = (frame.width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let size = row_pitch as u64 * frame.height as u64;
        if self.staging[slot]
            .as_ref()
            .is_none_or(|b| b.size() < size || b.size() > size.max(64 << 20))
        {
            self.staging[slot] = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            }));
        }
        let staging = self.staging[slot].as_ref().expect("just created");
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
        let submission = queue.submit([encoder.finish()]);
        let mapped = Arc::new(Mutex::new(None));
        let sink = mapped.clone();
        staging
            .slice(..size)
            .map_async(wgpu::MapMode::Read, move |r| {
                *sink.lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
            });
        self.text.atlas.trim();
        self.ctx.check()?;
        let tiles = frame
            .tiles
            .into_iter()
            .map(|t| TileMeta {
                id: t.scene.id,
                x: t.x,
                y: t.y,
                width: t.scene.width,
                height: t.scene.height,
            })
            .collect();
        self.in_flight.push_back(InFlight {
            slot,
            submission,
            row_pitch,
            size,
            tiles,
            mapped,
        });
        Ok(())
    }

    /// Waits for the oldest frame in flight and returns its images in tile order.
    pub fn collect(&mut self) -> Option<Result<Vec<RenderedImage>, GpuError>> {
        let frame = self.in_flight.pop_front()?;
        Some(self.read_back(frame))
    }

    fn read_back(&mut self, frame: InFlight) -> Result<Vec<RenderedImage>, GpuError> {
        self.ctx
            .device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(frame.submission),
                timeout: None,
            })
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        let status = frame
            .mapped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        match status {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(GpuError::Wgpu(e.to_string())),
            None => {
                return Err(GpuError::Wgpu(
                    "readback buffer was not mapped after the frame completed".into(),
                ));
            }
        }
        let staging = self.staging[frame.slot]
            .as_ref()
            .expect("staging buffer of an in-flight frame");
        let images = {
            let data = staging
                .slice(..frame.size)
                .get_mapped_range()
                .map_err(|e| GpuError::Wgpu(e.to_string()))?;
            frame
                .tiles
                .into_iter()
                .map(|t| {
                    let mut rgba = Vec::with_capacity((t.width * t.height * 4) as usize);
                    for row in t.y..t.y + t.height {
                        let start = (row * frame.row_pitch + t.x * 4) as usize;
                        rgba.extend_from_slice(&data[start..start + (t.width * 4) as usize]);
                    }
                    // The target holds premultiplied colour; images are straight alpha.
                    unpremultiply(&mut rgba);
                    RenderedImage {
                        id: t.id,
                        width: t.width,
                        height: t.height,
                        rgba,
                    }
                })
                .collect()
        };
        staging.unmap();
        self.ctx.check()?;
        Ok(images)
    }
}

impl Target {
    fn new(device: &wgpu::Device, size: (u32, u32), format: wgpu::TextureFormat) -> Self {
        let extent = wgpu::Extent3d {
            width: size.0,
            height: size.1,
            depth_or_array_layers: 1,
        };
        let texture = |label, format, samples, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let rt = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let msaa = texture("msaa colour", format, SAMPLE_COUNT, rt);
        let stencil = texture("stencil", STENCIL_FORMAT, SAMPLE_COUNT, rt);
        let resolved = texture("resolved", format, 1, rt | wgpu::TextureUsages::COPY_SRC);
        Target {
            size,
            msaa: msaa.create_view(&Default::default()),
            stencil: stencil.create_view(&Default::default()),
            resolved_view: resolved.create_view(&Default::default()),
            resolved,
        }
    }
}

/// A render-pass clear value that stores exactly the colour `c` (opaque).
fn clear_color(c: crate::scene::Color, blend: BlendSpace) -> wgpu::Color {
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

/// A GPU buffer that grows to fit what is written to it.
struct GrowBuffer {
    usage: wgpu::BufferUsages,
    buffer: Option<wgpu::Buffer>,
}

impl GrowBuffer {
    fn new(usage: wgpu::BufferUsages) -> Self {
        GrowBuffer {
            usage: usage | wgpu::BufferUsages::COPY_DST,
            buffer: None,
        }
    }

    fn upload(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[u8]) -> wgpu::Buffer {
        let len =
            (data.len() as u64).div_ceil(wgpu::COPY_BUFFER_ALIGNMENT) * wgpu::COPY_BUFFER_ALIGNMENT;
        if self.buffer.as_ref().is_none_or(|b| b.size() < len) {
            self.buffer = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("geometry"),
                size: len.next_power_of_two().max(1 << 16),
                usage: self.usage,
                mapped_at_creation: false,
            }));
        }
        let buffer = self.buffer.clone().expect("just created");
        if data.len() as u64 == len {
            queue.write_buffer(&buffer, 0, data);
        } else {
            let mut padded = data.to_vec();
            padded.resize(len as usize, 0);
            queue.write_buffer(&buffer, 0, &padded);
        }
        buffer
    }
}
