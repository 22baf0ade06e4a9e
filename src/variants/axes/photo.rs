//! `photo=1..3`: the rendered image as a phone photo of its print (after
//! MathSight, 2025, whose photographed problems cost models accuracy): the page
//! tilted away from the camera (5°, 10°, 15°) about a random axis and turned a
//! little in the frame, shrunk so that the whole page stays in it, on a darker
//! table; lit unevenly (a gradient and a vignette); paper texture and sensor
//! noise; slightly out of focus; stored as JPEG at quality 85, 72, 60 and read
//! back. On the pixel stage, seeded by the image's id.

use super::super::pixels::Canvas;
use super::super::{REFERENCE_CANVAS, Setting};
use super::corrupt::filter::{self, Edge};
use super::corrupt::rgb::Rgb;
use super::corrupt::rng::Draws;
use super::corrupt::{digital, weather_plasma};
use super::{AxisDef, Change, OnScene, Values, integer};

pub(super) static DEF: AxisDef = AxisDef {
    name: "photo",
    changes: "the rendered image as a phone photo of its print: tilted 5°, 10° or 15°, \
              lit unevenly, on textured paper, with sensor noise and slight defocus, \
              stored at JPEG quality 85, 72 or 60 and read back; the whole page stays in \
              frame, and the drawing and its SVG stay the base's",
    from: "ours, after MathSight (2025)'s photographed problems (pixel stage)",
    base: "0 (the rendered image)",
    base_number: Some(0.0),
    sweep: &["1", "2", "3"],
    values: Values::Integer {
        lo: 1,
        hi: 3,
        only: &[],
    },
    numeric: true,
    plot_title: "photo level (tilt 5°, 10°, 15°)",
    look: None,
    rewrite: None,
    pixels: Some(photo),
    on_scene: OnScene::Apply {
        doc: "same (on the rendered pixels)",
        apply: |_, _, _| Ok(()),
    },
    may_change: &[Change::Pixels],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 7,
};

/// What one level does.
struct Level {
    /// Tilt of the page away from the camera, degrees.
    tilt: f64,
    /// Largest turn of the page in the frame, degrees.
    turn: f64,
    /// Light falling off across the page (share at the far side).
    gradient: f32,
    /// Darkening at the corners (share).
    vignette: f32,
    /// Paper texture, peak to peak, in levels / 255.
    paper: f32,
    /// Sensor noise σ, in levels / 255.
    noise: f64,
    /// Defocus σ in px at 512 px.
    defocus: f64,
    quality: u8,
}

const LEVELS: [Level; 3] = [
    Level {
        tilt: 5.0,
        turn: 1.0,
        gradient: 0.06,
        vignette: 0.08,
        paper: 0.03,
        noise: 0.010,
        defocus: 0.5,
        quality: 85,
    },
    Level {
        tilt: 10.0,
        turn: 2.0,
        gradient: 0.10,
        vignette: 0.12,
        paper: 0.045,
        noise: 0.016,
        defocus: 0.7,
        quality: 72,
    },
    Level {
        tilt: 15.0,
        turn: 3.0,
        gradient: 0.14,
        vignette: 0.16,
        paper: 0.06,
        noise: 0.022,
        defocus: 0.9,
        quality: 60,
    },
];

/// The table around the page.
const TABLE: [f32; 3] = [0.42, 0.37, 0.31];
/// Free space kept around the tilted page, as a share of the side.
const MARGIN: f64 = 0.03;
const TAG: u64 = 0x7068_6f74_6f00_0000; // "photo"

fn photo(s: Setting, canvas: &mut Canvas<'_>) {
    let Some(level) = integer(s).and_then(|l| LEVELS.get((l as usize).checked_sub(1)?)) else {
        return;
    };
    let (w, h) = (canvas.width() as usize, canvas.height() as usize);
    if w < 2 || h < 2 {
        return;
    }
    let mut draws = Draws::new(canvas.seed(), TAG);
    let page = Rgb::of(canvas);
    let to_page = page_homography(w as f64, h as f64, level, &mut draws);
    let mut img = warp(&page, &to_page);
    light(&mut img, level, &mut draws);
    let size = w.max(h).next_power_of_two();
    let texture = weather_plasma(size, 1.6, &mut draws);
    for (y, row) in img.px.chunks_exact_mut(w * 3).enumerate() {
        for (x, p) in row.chunks_exact_mut(3).enumerate() {
            let t = (texture[y * size + x] - 0.5) * level.paper;
            p.iter_mut().for_each(|v| *v += t);
        }
    }
    let sigma = level.defocus * w.max(h) as f64 / f64::from(REFERENCE_CANVAS);
    filter::gaussian(&mut img.px, w, h, 3, (sigma, sigma), 3.0, Edge::Nearest);
    for pair in img.px.chunks_mut(2) {
        for (v, n) in pair.iter_mut().zip(draws.normal_pair()) {
            *v += level.noise as f32 * n;
        }
    }
    match digital::jpeg_round_trip(&img.to_u8(), w, h, level.quality) {
        Some(levels) => Rgb::from_u8(w, h, &levels).round_into(canvas),
        None => img.round_into(canvas),
    }
}

/// The homography from a photo pixel (its centre) to the page pixel it shows.
fn page_homography(w: f64, h: f64, level: &Level, draws: &mut Draws) -> [f64; 9] {
    let axis = draws.uniform(0.0, std::f64::consts::TAU);
    let turn = draws.uniform(-level.turn, level.turn).to_radians();
    let tilt = level.tilt.to_radians();
    // The page's corners about its centre, turned about the in-plane axis `axis`
    // by `tilt` (Rodrigues), seen by a pinhole camera 1.2 page sides away whose
    // focal length shows the untilted page at its size.
    let (ax, ay) = (axis.cos(), axis.sin());
    let dist = 1.2 * w.max(h);
    let project = |x: f64, y: f64| -> (f64, f64) {
        let along = x * ax + y * ay;
        let (c, s) = (tilt.cos(), tilt.sin());
        // v·cos + (k × v)·sin + k (k·v)(1 − cos), k = (ax, ay, 0), v = (x, y, 0).
        let px = x * c + along * ax * (1.0 - c);
        let py = y * c + along * ay * (1.0 - c);
        let pz = (ax * y - ay * x) * s;
        let k = dist / (dist + pz);
        let (qx, qy) = (px * k, py * k);
        let (tc, ts) = (turn.cos(), turn.sin());
        (qx * tc - qy * ts, qx * ts + qy * tc)
    };
    let src = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let seen: Vec<(f64, f64)> = src
        .iter()
        .map(|&(x, y)| project(x - w / 2.0, y - h / 2.0))
        .collect();
    let (lo_x, hi_x) = seen
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (lo_y, hi_y) = seen
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let fit = ((w * (1.0 - 2.0 * MARGIN)) / (hi_x - lo_x))
        .min((h * (1.0 - 2.0 * MARGIN)) / (hi_y - lo_y));
    let dst: Vec<(f64, f64)> = (seen.iter())
        .map(|p| {
            (
                w / 2.0 + (p.0 - (lo_x + hi_x) / 2.0) * fit,
                h / 2.0 + (p.1 - (lo_y + hi_y) / 2.0) * fit,
            )
        })
        .collect();
    homography(&dst, &src)
}

/// The homography taking the four points `from` to `to` (exact for four points
/// in general position; the identity when they are degenerate).
fn homography(from: &[(f64, f64)], to: &[(f64, f64)]) -> [f64; 9] {
    let mut a = [[0f64; 9]; 8];
    for (i, (&(x, y), &(u, v))) in from.iter().zip(to).enumerate() {
        a[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u];
        a[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v];
    }
    // Gauss–Jordan with partial pivoting on the 8 × 8 system (last column: b).
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()));
        let Some(pivot) = pivot.filter(|&p| a[p][col].abs() > 1e-12) else {
            return [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        };
        a.swap(col, pivot);
        let lead = a[col][col];
        a[col].iter_mut().for_each(|v| *v /= lead);
        for row in 0..8 {
            if row != col {
                let f = a[row][col];
                let pivot_row = a[col];
                a[row]
                    .iter_mut()
                    .zip(pivot_row)
                    .for_each(|(v, p)| *v -= f * p);
            }
        }
    }
    let h: Vec<f64> = a.iter().map(|r| r[8]).collect();
    [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0]
}

/// The photo: each pixel's centre mapped onto the page and read bilinearly, the
/// table where it falls off the page (blended over the last pixel, so the page's
/// edge is smooth).
fn warp(page: &Rgb, m: &[f64; 9]) -> Rgb {
    let (w, h) = (page.w, page.h);
    let mut out = Rgb::filled(w, h, 0.0);
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
            let d = m[6] * px + m[7] * py + m[8];
            let (sx, sy) = (
                (m[0] * px + m[1] * py + m[2]) / d,
                (m[3] * px + m[4] * py + m[5]) / d,
            );
            // How far inside the page, in its px (0.5 at the edge's pixel centre).
            let inside = sx.min(w as f64 - sx).min(sy).min(h as f64 - sy);
            let cover = (inside + 0.5).clamp(0.0, 1.0) as f32;
            let o = &mut out.px[(y * w + x) * 3..(y * w + x) * 3 + 3];
            if cover <= 0.0 {
                o.copy_from_slice(&TABLE);
                continue;
            }
            let fx = (sx - 0.5).clamp(0.0, (w - 1) as f64);
            let fy = (sy - 0.5).clamp(0.0, (h - 1) as f64);
            let (x0, y0) = (fx as usize, fy as usize);
            let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
            let (tx, ty) = ((fx - x0 as f64) as f32, (fy - y0 as f64) as f32);
            for c in 0..3 {
                let at = |yy: usize, xx: usize| page.px[(yy * w + xx) * 3 + c];
                let top = at(y0, x0) + tx * (at(y0, x1) - at(y0, x0));
                let bottom = at(y1, x0) + tx * (at(y1, x1) - at(y1, x0));
                let v = top + ty * (bottom - top);
                o[c] = cover * v + (1.0 - cover) * TABLE[c];
            }
        }
    }
    out
}

/// Uneven light: a linear fall-off towards a random side and a vignette.
fn light(img: &mut Rgb, level: &Level, draws: &mut Draws) {
    let angle = draws.uniform(0.0, std::f64::consts::TAU);
    let (dx, dy) = (angle.cos() as f32, angle.sin() as f32);
    let (w, h) = (img.w as f32, img.h as f32);
    let r = (w * w + h * h).sqrt() / 2.0;
    for (i, p) in img.px.chunks_exact_mut(3).enumerate() {
        let x = (i % img.w) as f32 + 0.5 - w / 2.0;
        let y = (i / img.w) as f32 + 0.5 - h / 2.0;
        let along = (x * dx + y * dy) / r; // −1..1
        let k = (1.0 - level.gradient * 0.5 * (1.0 + along))
            * (1.0 - level.vignette * (x * x + y * y) / (r * r));
        p.iter_mut().for_each(|v| *v *= k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_homography_maps_its_four_points() {
        let from = [(3.0, 4.0), (100.0, 10.0), (90.0, 80.0), (5.0, 70.0)];
        let to = [(0.0, 0.0), (512.0, 0.0), (512.0, 512.0), (0.0, 512.0)];
        let m = homography(&from, &to);
        for (&(x, y), &(u, v)) in from.iter().zip(&to) {
            let d = m[6] * x + m[7] * y + m[8];
            let (a, b) = (
                (m[0] * x + m[1] * y + m[2]) / d,
                (m[3] * x + m[4] * y + m[5]) / d,
            );
            assert!((a - u).abs() < 1e-6 && (b - v).abs() < 1e-6, "{a} {b}");
        }
    }

    /// The whole page stays in frame: no pixel on the photo's border shows the
    /// page, at any level, for any seed.
    #[test]
    fn the_page_stays_in_frame_at_every_level() {
        for (l, level) in LEVELS.iter().enumerate() {
            for seed in 0..20 {
                let m = page_homography(512.0, 512.0, level, &mut Draws::new(seed, l as u64));
                // Scan the photo's border: it shows the table, not the page.
                let on_page = |x: f64, y: f64| {
                    let d = m[6] * x + m[7] * y + m[8];
                    let (sx, sy) = (
                        (m[0] * x + m[1] * y + m[2]) / d,
                        (m[3] * x + m[4] * y + m[5]) / d,
                    );
                    (0.0..=512.0).contains(&sx) && (0.0..=512.0).contains(&sy)
                };
                for t in 0..512 {
                    let t = t as f64 + 0.5;
                    for (x, y) in [(t, 0.5), (t, 511.5), (0.5, t), (511.5, t)] {
                        assert!(!on_page(x, y), "level {} seed {seed}: ({x}, {y})", l + 1);
                    }
                }
                // The page's centre is in the photo's centre region.
                assert!(on_page(256.0, 256.0));
            }
        }
    }
}
