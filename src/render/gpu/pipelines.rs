//! Render pipelines for paths, and the formats every pipeline of a pass shares.
//!
//! Translucent paints use the stencil buffer so that each sample is covered at
//! most once per paint: every such paint gets its own stencil reference, and a
//! sample passes only while its stencil differs from that reference (then takes
//! it). Opaque paints ignore the stencil, so overlap inside them is harmless.

use crate::render::tessellate::Vertex;

/// Where colours are blended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlendSpace {
    /// On sRGB-encoded values, like SVG, resvg and browsers (the Scene v1 contract).
    #[default]
    Srgb,
    /// On linear-light values (an sRGB target). Not what SVG does: it exists to show
    /// that the GPU-vs-resvg comparison notices the difference.
    Linear,
}

impl BlendSpace {
    /// Colour target format: non-sRGB holding sRGB values, or an sRGB format.
    pub(crate) fn format(self) -> wgpu::TextureFormat {
        match self {
            BlendSpace::Srgb => wgpu::TextureFormat::Rgba8Unorm,
            BlendSpace::Linear => wgpu::TextureFormat::Rgba8UnormSrgb,
        }
    }

    fn fragment_entry(self) -> &'static str {
        match self {
            BlendSpace::Srgb => "fs_main",
            BlendSpace::Linear => "fs_linear",
        }
    }
}
/// Depth is unused; Depth24PlusStencil8 is the stencil format every adapter supports with MSAA.
pub(super) const STENCIL_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24PlusStencil8;
/// Samples per pixel.
pub(super) const SAMPLE_COUNT: u32 = 4;

/// WGSL source of the path pipelines.
pub(crate) const PATH_SHADER: &str = include_str!("../../../shaders/path.wgsl");

/// The three path pipelines.
pub(super) struct PathPipelines {
    /// Opaque paint: no stencil test.
    pub opaque: wgpu::RenderPipeline,
    /// Translucent paint: each sample at most once per stencil reference.
    pub once: wgpu::RenderPipeline,
    /// Writes zero to the stencil of the viewport and nothing to colour.
    pub stencil_clear: wgpu::RenderPipeline,
    /// Writes its (premultiplied) colour without blending: a tile's own background.
    pub replace: wgpu::RenderPipeline,
}

/// Colour blending for sources with non-premultiplied alpha onto a premultiplied target.
pub(super) const BLEND: wgpu::BlendState = wgpu::BlendState::ALPHA_BLENDING;

pub(super) fn multisample() -> wgpu::MultisampleState {
    wgpu::MultisampleState {
        count: SAMPLE_COUNT,
        mask: !0,
        alpha_to_coverage_enabled: false,
    }
}

/// Depth-stencil state with the same test on both faces (triangles are not culled).
pub(super) fn stencil_state(
    compare: wgpu::CompareFunction,
    pass_op: wgpu::StencilOperation,
    write: bool,
) -> wgpu::DepthStencilState {
    let face = wgpu::StencilFaceState {
        compare,
        fail_op: wgpu::StencilOperation::Keep,
        depth_fail_op: wgpu::StencilOperation::Keep,
        pass_op,
    };
    wgpu::DepthStencilState {
        format: STENCIL_FORMAT,
        depth_write_enabled: Some(false),
        depth_compare: Some(wgpu::CompareFunction::Always),
        stencil: wgpu::StencilState {
            front: face,
            back: face,
            read_mask: 0xff,
            write_mask: if write { 0xff } else { 0 },
        },
        bias: wgpu::DepthBiasState::default(),
    }
}

/// The state for pipelines that neither test nor write the stencil (text).
pub(super) fn stencil_ignored() -> wgpu::DepthStencilState {
    stencil_state(
        wgpu::CompareFunction::Always,
        wgpu::StencilOperation::Keep,
        false,
    )
}

impl PathPipelines {
    pub(super) fn new(device: &wgpu::Device, blend: BlendSpace) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("path.wgsl"),
            source: wgpu::ShaderSource::Wgsl(PATH_SHADER.into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("path"),
            bind_group_layouts: &[],
            immediate_size: 0,
        });
        let attributes = wgpu::vertex_attr_array![0 => Float32x2, 1 => Unorm8x4];
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        })];
        let make = |label: &str,
                    depth_stencil: wgpu::DepthStencilState,
                    write_mask: wgpu::ColorWrites,
                    colour_blend: Option<wgpu::BlendState>| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(depth_stencil),
                multisample: multisample(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(blend.fragment_entry()),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: blend.format(),
                        blend: colour_blend,
                        write_mask,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        use wgpu::{ColorWrites, CompareFunction as C, StencilOperation as S};
        PathPipelines {
            opaque: make(
                "path opaque",
                stencil_ignored(),
                ColorWrites::ALL,
                Some(BLEND),
            ),
            once: make(
                "path once",
                stencil_state(C::NotEqual, S::Replace, true),
                ColorWrites::ALL,
                Some(BLEND),
            ),
            stencil_clear: make(
                "stencil clear",
                stencil_state(C::Always, S::Zero, true),
                ColorWrites::empty(),
                Some(BLEND),
            ),
            replace: make("tile background", stencil_ignored(), ColorWrites::ALL, None),
        }
    }
}
