//! The random draws of the pixel stage: a xoshiro256++ stream (fast enough for a
//! draw per channel of every pixel) keyed by ChaCha8 from the image's seed and the
//! step's tag, so each image has its own stream whatever thread draws it.

use crate::generate::rng::Rng;

/// A xoshiro256++ stream.
pub(crate) struct Draws {
    s: [u64; 4],
}

impl Draws {
    /// The stream of the step tagged `tag` on the image seeded `seed`.
    pub(crate) fn new(seed: u64, tag: u64) -> Draws {
        let mut key = Rng::from_u64(seed, tag);
        let mut s = [0u64; 4];
        for w in &mut s {
            *w = key.next_u64();
        }
        if s == [0; 4] {
            s[0] = 1;
        }
        Draws { s }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = (s[0].wrapping_add(s[3])).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// Uniform in `[0, 1)`, 53 bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub(crate) fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `lo..hi` (numpy's `randint(lo, hi)`); `lo` when empty.
    pub(crate) fn int(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + ((self.next_u64() >> 11) % (hi - lo) as u64) as i64
    }

    /// A standard normal, fast: two per 64-bit draw, each from 32 bits through a
    /// piecewise-linear inverse CDF of 4,096 pieces (tails cut at ±3.67σ). For
    /// the per-pixel noise.
    pub(crate) fn normal_pair(&mut self) -> [f32; 2] {
        let table = inverse_cdf();
        let u = self.next_u64();
        let one = |bits: u32| -> f32 {
            let i = (bits >> 20) as usize;
            let t = (bits & 0xf_ffff) as f32 / (1u32 << 20) as f32;
            table[i] + t * (table[i + 1] - table[i])
        };
        [one(u as u32), one((u >> 32) as u32)]
    }
}

/// Pieces of the fast normal's inverse CDF.
const PIECES: usize = 4096;

/// `Φ⁻¹` at the ends of the pieces (the outermost ends at the half-piece
/// quantiles, so that no value is infinite).
fn inverse_cdf() -> &'static [f32; PIECES + 1] {
    static TABLE: std::sync::OnceLock<[f32; PIECES + 1]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0f32; PIECES + 1];
        for (i, v) in t.iter_mut().enumerate() {
            let p =
                (i as f64 / PIECES as f64).clamp(0.5 / PIECES as f64, 1.0 - 0.5 / PIECES as f64);
            *v = probit(p) as f32;
        }
        t
    })
}

/// `Φ⁻¹(p)` for `0 < p < 1` (Acklam's rational approximation, relative error
/// below 1.2·10⁻⁹).
fn probit(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_repeat_and_normals_are_standard() {
        // The same stream from the same seed and tag, another from another tag.
        let mut d = Draws::new(1, 2);
        let first = d.next_u64();
        assert_eq!(Draws::new(1, 2).next_u64(), first);
        assert_ne!(Draws::new(1, 3).next_u64(), first);
        let n = 200_000;
        let v: Vec<f64> = (0..n / 2)
            .flat_map(|_| d.normal_pair())
            .map(f64::from)
            .collect();
        let mean = v.iter().sum::<f64>() / n as f64;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.01,
            "fast: {mean} {var}"
        );
        assert!((probit(0.975) - 1.959_963_985).abs() < 1e-8);
        assert!((probit(0.001) + 3.090_232_306).abs() < 1e-8);
        let u: Vec<i64> = (0..10_000).map(|_| d.int(-2, 2)).collect();
        assert!(u.iter().all(|x| (-2..2).contains(x)));
        assert!((-2..2).all(|k| u.contains(&k)));
    }
}
