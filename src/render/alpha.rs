//! Premultiplied → straight alpha, shared by both backends so that their images
//! round translucent pixels identically.

use crate::render::RenderedImage;
use resvg::tiny_skia::Pixmap;

/// The image `id` of a premultiplied `pixmap`, in straight alpha; `opaque` says
/// every pixel is known to be opaque (nothing to un-premultiply).
pub(super) fn straight_image(id: &str, pixmap: Pixmap, opaque: bool) -> RenderedImage {
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut rgba = pixmap.take();
    if !opaque {
        unpremultiply(&mut rgba);
    }
    RenderedImage {
        id: id.to_owned(),
        width,
        height,
        rgba,
    }
}

/// Turns premultiplied RGBA8 into straight alpha in place (rounded to nearest).
/// Fully transparent pixels become `[0, 0, 0, 0]`, like PNG encoders expect.
pub(super) fn unpremultiply(rgba: &mut [u8]) {
    for px in rgba.chunks_exact_mut(4) {
        let a = px[3] as u32;
        if a == 255 {
            continue;
        }
        if a == 0 {
            px[..3].fill(0);
            continue;
        }
        for c in &mut px[..3] {
            *c = ((*c as u32 * 255 + a / 2) / a).min(255) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::unpremultiply;

    #[test]
    fn unpremultiply_restores_straight_alpha() {
        let mut px = [64, 32, 0, 128, 10, 20, 30, 255, 5, 5, 5, 0, 200, 9, 9, 100];
        unpremultiply(&mut px);
        // A colour above its alpha (impossible premultiplied) saturates rather than wraps.
        assert_eq!(
            px,
            [
                128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0, 255, 23, 23, 100
            ]
        );
    }
}
