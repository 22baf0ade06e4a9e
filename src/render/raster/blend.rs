//! Source-over of a solid colour onto premultiplied RGBA8, with exact rounding.

/// `(a · b + 127) / 255` rounded to nearest, exact for 8-bit products.
pub(super) fn mul255(a: u32, b: u32) -> u32 {
    let t = a * b + 128;
    (t + (t >> 8)) >> 8
}

/// A colour at an alpha, premultiplied once for many pixels.
#[derive(Clone, Copy)]
pub(super) struct Source {
    premul: [u32; 4],
    inv: u32,
}

impl Source {
    /// Straight `rgb` at `alpha` (0..=255).
    pub(super) fn new(rgb: [u32; 3], alpha: u32) -> Source {
        Source {
            premul: [
                mul255(rgb[0], alpha),
                mul255(rgb[1], alpha),
                mul255(rgb[2], alpha),
                alpha,
            ],
            inv: 255 - alpha,
        }
    }

    /// `px = src + px · (1 − α)`.
    #[inline]
    pub(super) fn over(&self, px: &mut [u8]) {
        for (d, s) in px.iter_mut().zip(self.premul) {
            *d = (s + mul255(*d as u32, self.inv)) as u8;
        }
    }

    /// [`Self::over`] on every pixel of `run` (whole RGBA pixels), in 16-bit lanes
    /// the compiler vectorises: the large interiors of a diagram's shapes. With
    /// AVX2 (checked at run time) the same integer arithmetic in wider lanes, so
    /// the bytes are the same on every machine.
    #[inline]
    pub(super) fn over_run(&self, run: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2, checked just above.
            return unsafe { self.over_run_avx2(run) };
        }
        self.over_run_lanes(run)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn over_run_avx2(&self, run: &mut [u8]) {
        self.over_run_lanes(run)
    }

    #[inline(always)]
    fn over_run_lanes(&self, run: &mut [u8]) {
        let inv = self.inv as u16;
        let s = self.premul.map(|v| v as u16);
        for px in run.chunks_exact_mut(4) {
            for k in 0..4 {
                let t = px[k] as u16 * inv + 128;
                px[k] = (s[k] + ((t + (t >> 8)) >> 8)) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul255_is_rounded_division() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let want = ((a * b) as f64 / 255.0).round() as u32;
                assert_eq!(mul255(a, b), want, "{a}·{b}");
            }
        }
    }

    #[test]
    fn a_run_blends_as_each_pixel_does() {
        // Long enough for the wide lanes and a tail.
        let mut run: Vec<u8> = (0..4 * 301u32).map(|i| (i * 37 % 256) as u8).collect();
        let mut each = run.clone();
        let mut lanes = run.clone();
        let s = Source::new([200, 10, 99], 77);
        s.over_run(&mut run);
        s.over_run_lanes(&mut lanes);
        for px in each.chunks_exact_mut(4) {
            s.over(px);
        }
        assert_eq!(run, each);
        assert_eq!(lanes, each);
    }

    #[test]
    fn over_is_source_over() {
        let mut px = [255u8, 255, 255, 255];
        Source::new([0, 0, 255], 128).over(&mut px);
        assert_eq!(px, [127, 127, 255, 255]);
        let mut px = [0u8; 4];
        Source::new([10, 20, 30], 255).over(&mut px);
        assert_eq!(px, [10, 20, 30, 255]);
    }
}
