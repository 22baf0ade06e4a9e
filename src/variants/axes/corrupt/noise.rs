//! The noise corruptions: Gaussian, shot (Poisson), impulse (salt and pepper) and
//! speckle noise, per channel, at `imagecorruptions`' constants.

use super::rgb::Rgb;
use super::rng::Draws;

/// `x + N(0, c)`.
pub(super) fn gaussian_noise(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let c = [0.08, 0.12, 0.18, 0.26, 0.38][severity - 1];
    for pair in img.px.chunks_mut(2) {
        for (v, n) in pair.iter_mut().zip(draws.normal_pair()) {
            *v += c * n;
        }
    }
}

/// `Poisson(x·c) / c`, drawn by the inverse of each level's exact CDF (as 32-bit
/// thresholds, two draws per 64 random bits).
pub(super) fn shot_noise(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let c = [60.0, 25.0, 12.0, 5.0, 3.0][severity - 1];
    let mut tables: Vec<Option<Vec<u32>>> = vec![None; 256];
    let mut spare: Option<u32> = None;
    for v in &mut img.px {
        let level = (v.clamp(0.0, 1.0) * 255.0).round() as usize;
        let cdf = tables[level].get_or_insert_with(|| {
            (poisson_cdf(level as f64 / 255.0 * c).iter())
                .map(|p| (p * 4_294_967_296.0).min(u32::MAX as f64) as u32)
                .collect()
        });
        let u = match spare.take() {
            Some(u) => u,
            None => {
                let w = draws.next_u64();
                spare = Some((w >> 32) as u32);
                w as u32
            }
        };
        let k = cdf.partition_point(|&p| p <= u);
        *v = (k as f64 / c) as f32;
    }
}

/// The CDF of Poisson(λ) up to where what is left is below 1e-15.
fn poisson_cdf(lambda: f64) -> Vec<f64> {
    let mut cdf = Vec::new();
    let (mut p, mut total) = ((-lambda).exp(), 0.0);
    let mut k = 0u32;
    loop {
        total += p;
        cdf.push(total);
        if 1.0 - total < 1e-15 || k > 10_000 {
            break;
        }
        k += 1;
        p *= lambda / f64::from(k);
    }
    cdf
}

/// Each channel value, with probability `c`, set to 0 or 1 (even odds), as
/// scikit-image's `random_noise(mode="s&p")`.
pub(super) fn impulse_noise(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let c = [0.03, 0.06, 0.09, 0.17, 0.27][severity - 1];
    for v in &mut img.px {
        let u = draws.unit();
        if u < c {
            *v = if u < c / 2.0 { 1.0 } else { 0.0 };
        }
    }
}

/// `x + x·N(0, c)`.
pub(super) fn speckle_noise(img: &mut Rgb, severity: usize, draws: &mut Draws) {
    let c = [0.15, 0.2, 0.35, 0.45, 0.6][severity - 1];
    for pair in img.px.chunks_mut(2) {
        for (v, n) in pair.iter_mut().zip(draws.normal_pair()) {
            *v += *v * c * n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_poisson_cdf_has_its_mean() {
        for lambda in [0.0, 0.5, 12.0, 60.0] {
            let cdf = poisson_cdf(lambda);
            let mean: f64 = (0..cdf.len()).map(|k| 1.0 - cdf[k]).sum();
            assert!((mean - lambda).abs() < 1e-9, "{lambda}: {mean}");
        }
    }

    #[test]
    fn shot_noise_keeps_the_mean_and_has_the_poisson_spread() {
        let mut img = Rgb::filled(200, 100, 0.5);
        shot_noise(&mut img, 3, &mut Draws::new(5, 1));
        let n = img.px.len() as f64;
        let mean = img.px.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
        let var = img
            .px
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / n;
        // λ = 0.5·12 (level 128/255 ≈ 0.502): sd of k/12 is √λ / 12.
        let lambda = 128.0 / 255.0 * 12.0;
        assert!((mean - lambda / 12.0).abs() < 0.005, "{mean}");
        assert!(
            (var.sqrt() - f64::sqrt(lambda) / 12.0).abs() < 0.003,
            "{}",
            var.sqrt()
        );
    }
}
