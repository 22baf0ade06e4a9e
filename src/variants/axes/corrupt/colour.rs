//! The colour corruptions, through scikit-image's HSV as the package uses it:
//! brightness (V raised), contrast (towards each channel's mean) and saturate
//! (S scaled and raised).

use super::rgb::Rgb;
use super::rng::Draws;

/// scikit-image's `rgb2hsv` of one pixel.
fn hsv(p: [f64; 3]) -> [f64; 3] {
    let v = p[0].max(p[1]).max(p[2]);
    let delta = v - p[0].min(p[1]).min(p[2]);
    if delta == 0.0 {
        return [0.0, 0.0, v];
    }
    let s = delta / v;
    // Later matches win, as its successive masked assignments do.
    let mut h = 0.0;
    if p[0] == v {
        h = (p[1] - p[2]) / delta;
    }
    if p[1] == v {
        h = 2.0 + (p[2] - p[0]) / delta;
    }
    if p[2] == v {
        h = 4.0 + (p[0] - p[1]) / delta;
    }
    [(h / 6.0).rem_euclid(1.0), s, v]
}

/// scikit-image's `hsv2rgb` of one pixel.
fn rgb([h, s, v]: [f64; 3]) -> [f64; 3] {
    let hi = (h * 6.0).floor();
    let f = h * 6.0 - hi;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    match (hi as i64).rem_euclid(6) {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

fn through_hsv(img: &mut Rgb, f: impl Fn([f64; 3]) -> [f64; 3]) {
    for p in img.px.chunks_exact_mut(3) {
        let out = rgb(f(hsv([f64::from(p[0]), f64::from(p[1]), f64::from(p[2])])));
        for (v, o) in p.iter_mut().zip(out) {
            *v = o as f32;
        }
    }
}

pub(super) fn brightness(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let c = [0.1, 0.2, 0.3, 0.4, 0.5][severity - 1];
    through_hsv(img, |[h, s, v]| [h, s, (v + c).clamp(0.0, 1.0)]);
}

pub(super) fn saturate(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let (k, add) = [(0.3, 0.0), (0.1, 0.0), (2.0, 0.0), (5.0, 0.1), (20.0, 0.2)][severity - 1];
    through_hsv(img, |[h, s, v]| [h, (s * k + add).clamp(0.0, 1.0), v]);
}

pub(super) fn contrast(img: &mut Rgb, severity: usize, _: &mut Draws) {
    let c = [0.4, 0.3, 0.2, 0.1, 0.05][severity - 1];
    let mut mean = [0f64; 3];
    for p in img.px.chunks_exact(3) {
        for (m, &v) in mean.iter_mut().zip(p) {
            *m += f64::from(v);
        }
    }
    let n = (img.px.len() / 3).max(1) as f64;
    let mean = mean.map(|m| (m / n) as f32);
    for p in img.px.chunks_exact_mut(3) {
        for (v, m) in p.iter_mut().zip(mean) {
            *v = (*v - m) * c as f32 + m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsv_round_trips_and_names_known_colours() {
        assert_eq!(hsv([1.0, 0.0, 0.0]), [0.0, 1.0, 1.0]);
        assert_eq!(hsv([0.0, 0.0, 1.0]), [4.0 / 6.0, 1.0, 1.0]);
        for p in [
            [0.2, 0.5, 0.9],
            [0.9, 0.1, 0.4],
            [0.3, 0.3, 0.3],
            [0.0, 0.7, 0.7],
        ] {
            let back = rgb(hsv(p));
            for (a, b) in back.iter().zip(p) {
                assert!((a - b).abs() < 1e-12, "{p:?} {back:?}");
            }
        }
        // A grey's hue is 0 (red), so raising its saturation tints it red, as in
        // the package: white becomes (1, 0.8, 0.8) at S = 0.2.
        assert_eq!(rgb([0.0, 0.2, 1.0]), [1.0, 0.8, 0.8]);
    }
}
