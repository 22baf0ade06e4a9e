//! A path's anti-aliased coverage as runs, and its source-over onto the canvas.
//!
//! The coverage comes from tiny-skia's own scan converter (a [`Mask`] filled with
//! the path, the converter `Pixmap::fill_path` uses), so it is exact to resvg's;
//! it is kept as runs (zero coverage dropped, full coverage as one run) so that it
//! can be blended again in any colour without scanning the path again (`reuse`).

use super::blend;
use resvg::tiny_skia::{self, FillRule, Mask, Transform};

/// One run of pixels on one row: `len` pixels from pixel index `at` (row-major on
/// the canvas), all at coverage `cov` (255 runs are long; edge pixels have a run
/// each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    at: u32,
    len: u32,
    cov: u8,
}

/// A path's coverage of a `width`-pixel-wide canvas, as runs in row order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Coverage {
    runs: Vec<Run>,
}

impl Coverage {
    /// Scans `path` with `rule` on a `width`×`height` canvas: tiny-skia's coverage
    /// of the path's box (plus a pixel each side), clipped to the canvas.
    pub(super) fn scan(path: &tiny_skia::Path, rule: FillRule, width: u32, height: u32) -> Self {
        let b = path.bounds();
        let (w, h) = (width as i32, height as i32);
        let x0 = (b.left().floor() as i32 - 1).clamp(0, w);
        let y0 = (b.top().floor() as i32 - 1).clamp(0, h);
        let x1 = (b.right().ceil() as i32 + 1).clamp(0, w);
        let y1 = (b.bottom().ceil() as i32 + 1).clamp(0, h);
        if x1 <= x0 || y1 <= y0 {
            return Coverage::default();
        }
        let (mw, mh) = ((x1 - x0) as u32, (y1 - y0) as u32);
        // The mask buffer is this thread's, reused from scan to scan (a fresh one is
        // a large zeroed allocation per shape).
        thread_local! {
            static MASK: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut data = MASK.take();
        data.clear();
        data.resize(mw as usize * mh as usize, 0);
        let Some(mut mask) =
            tiny_skia::IntSize::from_wh(mw, mh).and_then(|size| Mask::from_vec(data, size))
        else {
            return Coverage::default();
        };
        mask.fill_path(
            path,
            rule,
            true,
            Transform::from_translate(-x0 as f32, -y0 as f32),
        );
        let mut runs = Vec::new();
        for (my, row) in mask.data().chunks_exact(mw as usize).enumerate() {
            let start = (y0 as u32 + my as u32) * width + x0 as u32;
            let mut i = 0;
            while i < row.len() {
                match row[i] {
                    0 => i = run_end(row, i, 0),
                    255 => {
                        let end = run_end(row, i, 255);
                        runs.push(Run {
                            at: start + i as u32,
                            len: (end - i) as u32,
                            cov: 255,
                        });
                        i = end;
                    }
                    cov => {
                        runs.push(Run {
                            at: start + i as u32,
                            len: 1,
                            cov,
                        });
                        i += 1;
                    }
                }
            }
        }
        MASK.set(mask.take());
        Coverage { runs }
    }

    /// Source-over of straight `rgb` at `alpha` (0..=255) times the coverage onto
    /// premultiplied RGBA8 `data` (the canvas the coverage was scanned for).
    pub(super) fn blend(&self, data: &mut [u8], rgb: [u8; 3], alpha: u32) {
        if alpha == 0 {
            return;
        }
        let rgb = rgb.map(u32::from);
        let full = blend::Source::new(rgb, alpha);
        for r in &self.runs {
            let px = &mut data[r.at as usize * 4..(r.at + r.len) as usize * 4];
            match r.cov {
                255 => full.over_run(px),
                c => blend::Source::new(rgb, blend::mul255(c as u32, alpha)).over(px),
            }
        }
    }

    /// Heap bytes held (for the reuse cache's bound).
    pub(super) fn bytes(&self) -> usize {
        self.runs.capacity() * std::mem::size_of::<Run>()
    }
}

/// Where the run of `byte` starting at `from` ends: eight bytes at a time, then one
/// by one (most of a mask's row is one long run of 0 or 255).
fn run_end(cov: &[u8], from: usize, byte: u8) -> usize {
    let word = u64::from_ne_bytes([byte; 8]);
    let mut i = from;
    while let Some(chunk) = cov.get(i..i + 8) {
        if u64::from_ne_bytes(chunk.try_into().expect("8 bytes")) != word {
            break;
        }
        i += 8;
    }
    i + cov[i..]
        .iter()
        .position(|&c| c != byte)
        .unwrap_or(cov.len() - i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::{Paint, PathBuilder, Pixmap};

    /// Against a byte-by-byte scan, at every start of rows of mixed runs.
    #[test]
    fn run_end_finds_where_a_run_stops() {
        let mut row = vec![0u8; 5];
        row.extend([255; 19]);
        row.extend([7, 0, 0]);
        row.extend([0; 17]);
        row.extend([255; 8]);
        for from in 0..row.len() {
            let byte = row[from];
            let want = row[from..]
                .iter()
                .position(|&c| c != byte)
                .map_or(row.len(), |n| from + n);
            assert_eq!(run_end(&row, from, byte), want, "from {from}");
        }
        assert_eq!(run_end(&[], 0, 0), 0);
    }

    /// The runs blended on white agree with tiny-skia's own fill of the path to
    /// one rounding step (so they cover the same pixels), with the path running
    /// past the canvas's left and right edges (clipped, not wrapped onto a row).
    #[test]
    fn blended_runs_match_tiny_skias_fill() {
        let mut b = PathBuilder::new();
        b.move_to(-20.3, 10.2);
        b.line_to(70.7, 3.4);
        b.quad_to(90.0, 40.0, 50.5, 61.9);
        b.close();
        let path = b.finish().expect("a path");
        let (w, h) = (64, 48);
        let mut ours = Pixmap::new(w, h).expect("canvas");
        ours.fill(tiny_skia::Color::WHITE);
        let mut theirs = ours.clone();
        Coverage::scan(&path, FillRule::Winding, w, h).blend(ours.data_mut(), [30, 60, 200], 180);
        let mut paint = Paint::default();
        paint.set_color_rgba8(30, 60, 200, 180);
        paint.anti_alias = true;
        theirs.fill_path(
            &path,
            &paint,
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        let mut touched = 0;
        for (a, b) in ours.data().iter().zip(theirs.data()) {
            assert!(a.abs_diff(*b) <= 1, "{a} vs {b}");
            touched += usize::from(*b != 255);
        }
        assert!(touched > 1000, "the path covers part of the canvas");
    }
}
