//! GPU memory a frame renders into and reads back from: the render target, the
//! geometry buffers and the readback buffer.

use super::frame::Frame;
use super::options::GpuOptions;
use super::pipelines::{SAMPLE_COUNT, STENCIL_FORMAT};
use std::ops::Deref;

/// Multisampled colour + stencil, and the resolved single-sample colour.
pub(super) struct Target {
    size: (u32, u32),
    pub msaa: wgpu::TextureView,
    pub stencil: wgpu::TextureView,
    pub resolved: wgpu::Texture,
    pub resolved_view: wgpu::TextureView,
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

/// The target of one frame: the cached one, or one of its own.
pub(super) enum FrameTarget<'a> {
    Cached(&'a Target),
    OneOff(Box<Target>),
}

impl Deref for FrameTarget<'_> {
    type Target = Target;

    fn deref(&self) -> &Target {
        match self {
            FrameTarget::Cached(t) => t,
            FrameTarget::OneOff(t) => t,
        }
    }
}

/// The target to draw `frame` into. The `cached` target grows to the largest
/// frame seen, so a run of small frames clears and resolves only their own
/// pixels; a frame beyond [`GpuOptions::MAX_CACHED_TARGET`] (one huge scene)
/// gets a target of its own.
pub(super) fn target_for<'a>(
    cached: &'a mut Option<Target>,
    device: &wgpu::Device,
    frame: &Frame,
    format: wgpu::TextureFormat,
) -> FrameTarget<'a> {
    if frame.width.max(frame.height) > GpuOptions::MAX_CACHED_TARGET {
        return FrameTarget::OneOff(Box::new(Target::new(
            device,
            (frame.width, frame.height),
            format,
        )));
    }
    let fits = |t: &Target| t.size.0 >= frame.width && t.size.1 >= frame.height;
    if !cached.as_ref().is_some_and(fits) {
        let grown = cached.as_ref().map_or((0, 0), |t| t.size);
        let size = (grown.0.max(frame.width), grown.1.max(frame.height));
        *cached = Some(Target::new(device, size, format));
    }
    FrameTarget::Cached(cached.as_ref().expect("just ensured"))
}

/// Bytes per row of a frame's readback (the copy alignment), and bytes in all.
pub(super) fn readback_layout(frame: &Frame) -> (u32, u64) {
    let row_pitch = (frame.width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
        * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    (row_pitch, row_pitch as u64 * frame.height as u64)
}

/// A readback buffer of at least `size` bytes in `staging`, replaced when too
/// small or much larger than needed (over 64 MiB and beyond `size`).
pub(super) fn staging_for<'a>(
    staging: &'a mut Option<wgpu::Buffer>,
    device: &wgpu::Device,
    size: u64,
) -> &'a wgpu::Buffer {
    if staging
        .as_ref()
        .is_none_or(|b| b.size() < size || b.size() > size.max(64 << 20))
    {
        *staging = Some(device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        }));
    }
    staging.as_ref().expect("just created")
}

/// A GPU buffer that grows to fit what is written to it.
pub(super) struct GrowBuffer {
    usage: wgpu::BufferUsages,
    buffer: Option<wgpu::Buffer>,
}

impl GrowBuffer {
    pub(super) fn new(usage: wgpu::BufferUsages) -> Self {
        GrowBuffer {
            usage: usage | wgpu::BufferUsages::COPY_DST,
            buffer: None,
        }
    }

    pub(super) fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        data: &[u8],
    ) -> wgpu::Buffer {
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
