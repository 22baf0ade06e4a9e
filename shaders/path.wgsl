// Solid-colour triangles. Positions arrive in normalised device coordinates of
// the scene's own viewport; colours are sRGB, non-premultiplied, and blending
// happens on the sRGB values (like SVG and browsers).

struct VertexInput {
    @location(0) position: vec2<f32>,
    @location(1) color: vec4<f32>,
};

struct VertexOutput {
    @invariant @builtin(position) position: vec4<f32>,
    @location(0) @interpolate(flat) color: vec4<f32>,
};

@vertex
fn vs_main(input: VertexInput) -> VertexOutput {
    var out: VertexOutput;
    out.position = vec4<f32>(input.position, 0.0, 1.0);
    out.color = input.color;
    return out;
}

@fragment
fn fs_main(input: VertexOutput) -> @location(0) vec4<f32> {
    return input.color;
}

fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        return c / 12.92;
    }
    return pow((c + 0.055) / 1.055, 2.4);
}

// For an sRGB target (linear-light blending, `BlendSpace::Linear`): the target
// expects linear values and encodes them back to sRGB on store.
@fragment
fn fs_linear(input: VertexOutput) -> @location(0) vec4<f32> {
    let c = input.color;
    return vec4<f32>(srgb_to_linear(c.r), srgb_to_linear(c.g), srgb_to_linear(c.b), c.a);
}
