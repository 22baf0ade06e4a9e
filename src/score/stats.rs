//! Confidence intervals and paired tests, using only IEEE basic operations and `sqrt`
//! (correctly rounded everywhere), so reports are bit-identical across platforms.

/// z for a two-sided 95 % interval: Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

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
pub fn wilson(successes: u64, n: u64, z: f64) -> Option<Interval> {
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
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
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
