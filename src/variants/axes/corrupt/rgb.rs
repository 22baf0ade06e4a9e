//! The image as the corruptions see it: straight RGB in `0..=1`, `f32`, row by
//! row, as `imagecorruptions` sees an RGB array divided by 255. Translucent pixels
//! are put over white first (as JPEG storage does) and the result is opaque.

use super::super::super::pixels::Canvas;

/// How far below a whole level a value still truncates to it, in levels.
const SNAP: f32 = 1e-3;

/// An RGB image, interleaved (`px[(y * w + x) * 3 + c]`), values in `0..=1`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rgb {
    pub w: usize,
    pub h: usize,
    pub px: Vec<f32>,
}

impl Rgb {
    /// A `w` × `h` image of one value.
    pub(crate) fn filled(w: usize, h: usize, v: f32) -> Rgb {
        Rgb {
            w,
            h,
            px: vec![v; w * h * 3],
        }
    }

    /// The canvas's pixels (translucent ones over white).
    pub(crate) fn of(canvas: &mut Canvas<'_>) -> Rgb {
        let (w, h) = (canvas.width() as usize, canvas.height() as usize);
        let mut px = Vec::with_capacity(w * h * 3);
        for p in canvas.rgba().chunks_exact(4) {
            let a = u32::from(p[3]);
            for &c in &p[..3] {
                let over_white = (u32::from(c) * a + 255 * (255 - a) + 127) / 255;
                px.push(over_white as f32 / 255.0);
            }
        }
        Rgb { w, h, px }
    }

    /// The levels as `imagecorruptions` returns them: clipped to `0..=1`, times
    /// 255, truncated (`np.uint8`); opaque. A value within [`SNAP`] below a level
    /// counts as that level: the sums of our `f32` filters, like the reference's
    /// own float sums, land a hair either side of a whole level (a white page
    /// blurred is 254.99999…), and a level lost to that is an artefact.
    pub(crate) fn truncate_into(&self, canvas: &mut Canvas<'_>) {
        self.write(canvas, SNAP);
    }

    /// As [`Self::truncate_into`], rounded to the nearest level instead.
    pub(crate) fn round_into(&self, canvas: &mut Canvas<'_>) {
        self.write(canvas, 0.5);
    }

    fn write(&self, canvas: &mut Canvas<'_>, bias: f32) {
        for (p, q) in canvas
            .rgba()
            .chunks_exact_mut(4)
            .zip(self.px.chunks_exact(3))
        {
            for (o, &v) in p[..3].iter_mut().zip(q) {
                *o = (v.clamp(0.0, 1.0) * 255.0 + bias).min(255.0) as u8;
            }
            p[3] = 255;
        }
    }

    /// The levels, rounded (for the JPEG round trip).
    pub(crate) fn to_u8(&self) -> Vec<u8> {
        (self.px.iter())
            .map(|&v| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8)
            .collect()
    }

    /// The image of `w` × `h` levels `rgb` (3 bytes a pixel).
    pub(crate) fn from_u8(w: usize, h: usize, rgb: &[u8]) -> Rgb {
        Rgb {
            w,
            h,
            px: rgb.iter().map(|&v| f32::from(v) / 255.0).collect(),
        }
    }

    /// The largest value over every channel.
    pub(crate) fn max(&self) -> f32 {
        self.px.iter().copied().fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_and_translucency_goes_over_white() {
        let mut rgba = vec![10, 20, 30, 255, 0, 0, 0, 0, 200, 100, 0, 128];
        let mut c = Canvas::new(3, 1, &mut rgba, 0).unwrap();
        let img = Rgb::of(&mut c);
        assert_eq!(img.to_u8(), vec![10, 20, 30, 255, 255, 255, 227, 177, 127]);
        img.round_into(&mut c);
        assert_eq!(
            rgba,
            vec![10, 20, 30, 255, 255, 255, 255, 255, 227, 177, 127, 255]
        );
    }
}
