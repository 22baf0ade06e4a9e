//! Confidence intervals and paired tests, using only IEEE basic operations and `sqrt`
//! (correctly rounded everywhere), so reports are bit-identical across platforms.

/// z for a two-sided 95 % interval: Φ⁻¹(0.975).
pub(crate) const Z_95: f64 = 1.959_963_984_540_054;

/// A closed interval `[low, high]` within `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Wilson score interval for `successes` out of `n` trials at normal quantile `z`
/// (use [`Z_95`]); `None` when `n == 0`. Unlike the Wald interval it stays inside
/// [0, 1] and keeps its coverage at accuracies near 0 or 1 and small n.
///
/// `(x + z²/2 ± z·√(x(n−x)/n + z²/4)) / (n + z²)`, with the bound at 0 (x = 0) or
/// 1 (x = n) set exactly.
pub(crate) fn wilson(successes: u64, n: u64, z: f64) -> Option<Interval> {
    if n == 0 || successes > n {
        return None;
    }
    let (x, nf) = (successes as f64, n as f64);
    let z2 = z * z;
    let center = x + z2 / 2.0;
    let half = z * (x * (nf - x) / nf + z2 / 4.0).sqrt();
    let denom = nf + z2;
    let low = if successes == 0 {
        0.0
    } else {
        ((center - half) / denom).clamp(0.0, 1.0)
    };
    let high = if successes == n {
        1.0
    } else {
        ((center + half) / denom).clamp(0.0, 1.0)
    };
    Some(Interval { low, high })
}

/// Exact (binomial) McNemar test, two-sided: with `b` and `c` the discordant pairs
/// (right→wrong, wrong→right), p = min(1, 2·P(X ≤ min(b, c))) for X ~ Bin(b + c, ½).
/// No discordant pairs gives p = 1.
pub(crate) fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    // Σ_{i ≤ k} C(n, i), kept as mantissa · 2^exp so large n neither overflows nor
    // underflows; every step is an exact power-of-two rescale or one IEEE operation.
    let (mut term, mut sum, mut exp) = (1.0f64, 1.0f64, 0i64);
    for i in 0..k {
        term = term * (n - i) as f64 / (i + 1) as f64;
        sum += term;
        if sum > 1e280 {
            term *= 2f64.powi(-900);
            sum *= 2f64.powi(-900);
            exp += 900;
        }
    }
    // p = 2 · sum · 2^(exp − n)
    let mut shift = exp + 1 - n as i64;
    let mut p = sum;
    while shift < -1000 {
        p *= 2f64.powi(-1000);
        shift += 1000;
    }
    while shift > 1000 {
        p *= 2f64.powi(1000);
        shift -= 1000;
    }
    (p * 2f64.powi(shift as i32)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_edges() {
        assert_eq!(wilson(0, 0, Z_95), None);
        assert_eq!(wilson(3, 2, Z_95), None);
        let all = wilson(5, 5, Z_95).unwrap();
        assert_eq!(all.high, 1.0);
        let none = wilson(0, 5, Z_95).unwrap();
        assert_eq!(none.low, 0.0);
    }

    #[test]
    fn mcnemar_symmetry_and_bounds() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(3, 7), mcnemar_exact(7, 3));
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // Huge n: tail underflows cleanly to 0, no NaN.
        let p = mcnemar_exact(0, 5000);
        assert!(p == 0.0 || p.is_normal() || p.is_subnormal());
        let p = mcnemar_exact(2400, 2600);
        assert!(p > 0.0 && p < 1.0, "{p}");
    }
}

/// Resamples of [`paired_bootstrap`].
pub(super) const BOOTSTRAP_RESAMPLES: u32 = 1000;

/// Paired bootstrap 95 % percentile interval of the accuracy change vs base:
/// `paired` problems, of which `to_wrong` went from right to wrong and `to_right`
/// from wrong to right; each resample draws `paired` problems with replacement
/// (a pinned ChaCha8 stream seeded with `seed`) and takes (right − wrong) / n.
/// Bounds are the nearest-rank 2.5 % and 97.5 % quantiles of
/// [`BOOTSTRAP_RESAMPLES`] resamples; `None` when nothing is paired.
pub(super) fn paired_bootstrap(
    to_wrong: u64,
    to_right: u64,
    paired: u64,
    seed: u64,
) -> Option<(f64, f64)> {
    if paired == 0 || to_wrong + to_right > paired {
        return None;
    }
    let mut rng = crate::generate::rng::Rng::from_u64(seed, 0x626f_6f74_7374_7270);
    let mut deltas: Vec<i64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let mut d = 0i64;
            for _ in 0..paired {
                let u = rng.below(paired);
                if u < to_wrong {
                    d -= 1;
                } else if u < to_wrong + to_right {
                    d += 1;
                }
            }
            d
        })
        .collect();
    deltas.sort_unstable();
    let rank = |q: f64| {
        let k = (q * BOOTSTRAP_RESAMPLES as f64).ceil() as usize;
        deltas[k.clamp(1, deltas.len()) - 1] as f64 / paired as f64
    };
    Some((rank(0.025), rank(0.975)))
}

/// Holm's step-down adjustment of `p` (family-wise error), in the input order:
/// the i-th smallest becomes max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎).
pub(super) fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut out = vec![1.0; m];
    let mut running = 0.0f64;
    for (j, &i) in order.iter().enumerate() {
        running = running.max(((m - j) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

#[cfg(test)]
mod resampling_tests {
    use super::*;

    #[test]
    fn holm_matches_hand_computation() {
        // p = .01, .04, .03 → sorted .01×3 = .03, .03×2 = .06, .04×1 = .04 → max so far .06.
        let got = holm(&[0.01, 0.04, 0.03]);
        let want = [0.03, 0.06, 0.06];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{got:?}");
        }
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.02, 0.5]), vec![0.04, 0.5]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn bootstrap_interval_covers_the_observed_change_and_is_seeded() {
        let (lo, hi) = paired_bootstrap(10, 30, 200, 7).unwrap();
        assert!(lo < 0.1 && 0.1 < hi, "{lo} {hi}");
        // The normal approximation of the paired difference: sd of d/n ≈ √((b+c)/n² − δ²/n).
        let sd = ((40.0 / 200.0f64.powi(2)) - 0.01 / 200.0).sqrt();
        assert!(
            (hi - lo - 2.0 * 1.96 * sd).abs() < 0.02,
            "{lo} {hi} vs ±{}",
            1.96 * sd
        );
        assert_eq!(paired_bootstrap(10, 30, 200, 7), Some((lo, hi)));
        assert_ne!(paired_bootstrap(10, 30, 200, 8), Some((lo, hi)));
        assert_eq!(paired_bootstrap(0, 0, 50, 1), Some((0.0, 0.0)));
        assert_eq!(paired_bootstrap(1, 1, 0, 1), None);
    }
}
