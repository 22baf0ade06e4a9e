//! The GPU renderer: frames of tiled scenes → RGBA images.
//!
//! One render pass per frame draws every tile with its own viewport and scissor,
//! so a scene's pixels do not depend on where its tile lands: positions are in
//! the scene's own normalised coordinates (snapped to 1/256 px beforehand) and
//! glyphs are placed in whole pixels of the tile. Up to [`FRAMES_IN_FLIGHT`]
//! frames are in flight: the next frame is encoded and submitted while earlier
//! ones are read back (see [`GpuRenderer::render_frames`]).

use super::GpuError;
use super::context::{AdapterSummary, GpuContext};
use super::encode::{self, PassInputs, TextState};
use super::frame::Frame;
use super::options::GpuOptions;
use super::pipelines::{BlendSpace, PathPipelines};
use super::target::{self, GrowBuffer, Target};
use crate::render::RenderedImage;
use crate::render::alpha::unpremultiply;
use glyphon::{Cache, ColorMode, SwashCache, TextAtlas, TextRenderer};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Frames on the GPU at most: each has its own geometry, text and readback
/// buffers (a slot), so one can be encoded while another renders.
pub(crate) const FRAMES_IN_FLIGHT: usize = 2;

pub struct GpuRenderer {
    ctx: GpuContext,
    /// As given, with [`super::TargetSize::Auto`] resolved.
    options: GpuOptions,
    /// The resolved `options.target_size`.
    target_size: (u32, u32),
    paths: PathPipelines,
    text: TextState,
    target: Option<Target>,
    slots: [Slot; FRAMES_IN_FLIGHT],
    next_slot: usize,
    in_flight: VecDeque<InFlight>,
    /// Test hook: frames holding a scene with this id fail.
    #[cfg(test)]
    fail_frames_with: Option<(String, bool)>,
}

/// The buffers of one frame in flight.
struct Slot {
    vertices: GrowBuffer,
    indices: GrowBuffer,
    staging: Option<wgpu::Buffer>,
    /// Text renderers used by the frame (one per text run).
    text_renderers: Vec<TextRenderer>,
}

impl Slot {
    fn new() -> Self {
        Slot {
            vertices: GrowBuffer::new(wgpu::BufferUsages::VERTEX),
            indices: GrowBuffer::new(wgpu::BufferUsages::INDEX),
            staging: None,
            text_renderers: Vec::new(),
        }
    }
}

struct InFlight {
    slot: usize,
    submission: wgpu::SubmissionIndex,
    row_pitch: u32,
    /// Bytes of the staging buffer this frame maps.
    size: u64,
    /// The frame's scenes, kept until its images are read back, so that a frame
    /// that fails can be split and tried again.
    frame: Option<Frame>,
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

impl InFlight {
    /// The result of mapping the staging buffer, once the frame is complete.
    fn mapped(&self) -> Option<Result<(), wgpu::BufferAsyncError>> {
        self.mapped.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl GpuRenderer {
    /// Opens the adapter `survey` would choose and builds the pipelines.
    pub fn new(options: GpuOptions) -> Result<Self, GpuError> {
        let ctx = GpuContext::new()?;
        let target_size = options
            .target_size
            .resolve(ctx.adapter.hardware, ctx.max_texture_size);
        let options = GpuOptions {
            target_size: super::TargetSize::Fixed {
                width: target_size.0,
                height: target_size.1,
            },
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
            fonts: crate::render::font_system(),
            swash: SwashCache::new(),
            cache,
            atlas,
            viewports: HashMap::new(),
        };
        let renderer = GpuRenderer {
            options,
            target_size,
            paths,
            text,
            target: None,
            slots: std::array::from_fn(|_| Slot::new()),
            next_slot: 0,
            in_flight: VecDeque::new(),
            #[cfg(test)]
            fail_frames_with: None,
            ctx,
        };
        renderer.ctx.check()?;
        Ok(renderer)
    }

    pub fn adapter(&self) -> &AdapterSummary {
        &self.ctx.adapter
    }

    /// The options, with the target size resolved ([`super::TargetSize::Fixed`]).
    pub(crate) fn options(&self) -> GpuOptions {
        self.options
    }

    /// Largest frame, in pixels, that scenes are tiled into.
    pub fn target_size(&self) -> (u32, u32) {
        self.target_size
    }

    /// Frames submitted and not yet collected.
    pub(super) fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Encodes and submits a frame: geometry, text, render pass, readback.
    /// With [`FRAMES_IN_FLIGHT`] frames in flight, collect one first. A frame that
    /// fails comes back with the error, and leaves the renderer ready for the next.
    pub(super) fn submit(&mut self, frame: Frame) -> Result<(), Failed> {
        if self.in_flight.len() >= FRAMES_IN_FLIGHT {
            return Err(Failed {
                frame,
                error: GpuError::Busy,
            });
        }
        let index = self.next_slot;
        self.next_slot = (index + 1) % FRAMES_IN_FLIGHT;
        match self.encode_and_submit(index, &frame) {
            Ok(mut in_flight) => {
                in_flight.frame = Some(frame);
                self.in_flight.push_back(in_flight);
                Ok(())
            }
            Err(error) => {
                self.forget_slot(index);
                Err(Failed { frame, error })
            }
        }
    }

    /// Drops what a failed frame left in slot `index` and the cached target: a
    /// buffer or texture that could not be created is invalid, and would fail
    /// every later frame that reused it.
    fn forget_slot(&mut self, index: usize) {
        self.slots[index] = Slot::new();
        self.target = None;
        let _ = self.ctx.check();
    }

    fn encode_and_submit(&mut self, index: usize, frame: &Frame) -> Result<InFlight, GpuError> {
        #[cfg(test)]
        self.injected_failure(frame, false)?;
        let (device, queue) = (&self.ctx.device, &self.ctx.queue);
        let slot = &mut self.slots[index];

        let geometry = encode::build_geometry(frame);
        let vertices =
            slot.vertices
                .upload(device, queue, bytemuck::cast_slice(&geometry.vertices));
        let indices = slot
            .indices
            .upload(device, queue, bytemuck::cast_slice(&geometry.indices));
        self.text
            .prepare(device, queue, &mut slot.text_renderers, frame)?;
        let format = self.options.blend.format();
        let target = target::target_for(&mut self.target, device, frame, format);

        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
        let inputs = PassInputs {
            paths: &self.paths,
            blend: self.options.blend,
            text: &self.text,
            text_renderers: &slot.text_renderers,
            geometry: &geometry,
            vertices: &vertices,
            indices: &indices,
        };
        inputs.encode_pass(&mut encoder, &target, frame)?;
        // Read back only the rows in use.
        let (row_pitch, size) = target::readback_layout(frame);
        let staging = target::staging_for(&mut slot.staging, device, size);
        encode::encode_readback(&mut encoder, &target, frame, staging, row_pitch);
        // Errors so far (a buffer too large, out of memory) are this frame's:
        // do not submit work that refers to invalid objects.
        self.ctx.check()?;

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
        Ok(InFlight {
            slot: index,
            submission,
            row_pitch,
            size,
            frame: None,
            mapped,
        })
    }

    /// Waits for the oldest frame in flight and returns its images in tile order,
    /// or the frame and why it failed.
    pub(super) fn collect(&mut self) -> Option<Result<Vec<RenderedImage>, Failed>> {
        let mut in_flight = self.in_flight.pop_front()?;
        let frame = in_flight
            .frame
            .take()
            .expect("an in-flight frame keeps its scenes");
        let slot = in_flight.slot;
        let result = self.read_back(in_flight, &frame);
        #[cfg(test)]
        let result = result.and_then(|images| self.injected_failure(&frame, true).map(|_| images));
        Some(match result {
            Ok(images) => Ok(images),
            Err(error) => {
                self.forget_slot(slot);
                Err(Failed { frame, error })
            }
        })
    }

    fn read_back(
        &mut self,
        in_flight: InFlight,
        frame: &Frame,
    ) -> Result<Vec<RenderedImage>, GpuError> {
        self.ctx.device.poll(wgpu::PollType::Wait {
            submission_index: Some(in_flight.submission.clone()),
            timeout: None,
        })?;
        match in_flight.mapped() {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(e.into()),
            None => {
                return Err(GpuError::Wgpu(
                    "readback buffer was not mapped after the frame completed".into(),
                ));
            }
        }
        let staging = self.slots[in_flight.slot]
            .staging
            .as_ref()
            .expect("staging buffer of an in-flight frame");
        let images = {
            let data = staging
                .slice(..in_flight.size)
                .get_mapped_range()
                .map_err(|e| GpuError::Wgpu(e.to_string()))?;
            frame
                .tiles
                .iter()
                .map(|t| {
                    let (width, height) = (t.scene.width, t.scene.height);
                    let mut rgba = Vec::with_capacity((width * height * 4) as usize);
                    for row in t.y..t.y + height {
                        let start = (row * in_flight.row_pitch + t.x * 4) as usize;
                        rgba.extend_from_slice(&data[start..start + (width * 4) as usize]);
                    }
                    // The target holds premultiplied colour; images are straight alpha.
                    unpremultiply(&mut rgba);
                    RenderedImage {
                        id: t.scene.id.clone(),
                        width,
                        height,
                        rgba,
                    }
                })
                .collect()
        };
        staging.unmap();
        self.ctx.check()?;
        Ok(images)
    }

    /// Waits for every frame in flight and returns them unread, oldest first, so
    /// that the next frame finds its slot free and unmapped. Errors are the
    /// caller's to report (or were reported already), so they are ignored here.
    pub(super) fn take_back_in_flight(&mut self) -> Vec<Frame> {
        let mut frames = Vec::new();
        if self.in_flight.is_empty() {
            return frames;
        }
        while let Some(mut in_flight) = self.in_flight.pop_front() {
            let done = self.ctx.device.poll(wgpu::PollType::Wait {
                submission_index: Some(in_flight.submission.clone()),
                timeout: None,
            });
            let staging = self.slots[in_flight.slot].staging.as_ref();
            if let (Ok(_), Some(Ok(())), Some(staging)) = (done, in_flight.mapped(), staging) {
                staging.unmap();
            }
            frames.extend(in_flight.frame.take());
        }
        let _ = self.ctx.check();
        frames
    }

    /// [`Self::take_back_in_flight`], dropping the frames.
    pub(super) fn discard_in_flight(&mut self) {
        self.take_back_in_flight();
    }

    /// Makes every frame holding a scene with this id fail (tests of the recovery
    /// from failed frames), when submitted or, with `at_collect`, when read back.
    #[cfg(test)]
    pub(crate) fn fail_frames_with(&mut self, id: Option<String>, at_collect: bool) {
        self.fail_frames_with = id.map(|id| (id, at_collect));
    }

    #[cfg(test)]
    fn injected_failure(&self, frame: &Frame, collecting: bool) -> Result<(), GpuError> {
        match &self.fail_frames_with {
            Some((id, at))
                if *at == collecting && frame.tiles.iter().any(|t| &t.scene.id == id) =>
            {
                Err(GpuError::Wgpu(format!("injected failure for {id:?}")))
            }
            _ => Ok(()),
        }
    }
}

/// A frame that could not be rendered, given back with the reason.
pub(super) struct Failed {
    pub frame: Frame,
    pub error: GpuError,
}
