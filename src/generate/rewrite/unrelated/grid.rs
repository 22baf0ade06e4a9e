//! The free space of the square a base is fitted to the canvas by, as a grid of
//! cells, and where a convex shape fits in it.
//!
//! A cell is free when its centre is outside every shape's fill (inside its
//! outline, outside its holes) and at least the clearance plus half the cell's
//! diagonal from every drawn point and stroke (outlines with their arcs, inner
//! sides, rays, auxiliary lines), and the cell lies the inset inside the square's
//! edge. So every point of a free cell is at least the clearance from all of
//! them, and a shape whose every touched cell is free keeps that distance with
//! every point, not only its corners. Per row, a prefix count of free cells
//! answers "is this run of cells free" in one subtraction.

use super::Seg;
use crate::generate::ARC_SAMPLES_PER_TURN;
use crate::generate::problem::{Problem, Segment};

/// Cells per side of the grid.
pub(super) const CELLS: usize = 64;

/// The free cells of a square: per row, how many of the first `i` cells are free.
pub(super) struct Grid {
    lo: [f64; 2],
    cell: f64,
    /// `rows[j * (CELLS + 1) + i]`: free cells among row `j`'s first `i`.
    rows: Vec<u16>,
    /// For each width in cells, the greatest height in cells of a free block
    /// that wide (0 when none).
    tallest: Vec<usize>,
}

impl Grid {
    /// The grid of `square` over `p`'s drawing, keeping `clear` (diagram units)
    /// from what is drawn and `inset` from the square's edge.
    pub(super) fn new(p: &Problem, square: [[f64; 2]; 2], clear: f64, inset: f64) -> Grid {
        let [lo, hi] = square;
        let n = CELLS;
        let cell = (hi[0] - lo[0]) / n as f64;
        let centre = |i: usize, j: usize| {
            [
                lo[0] + (i as f64 + 0.5) * cell,
                lo[1] + (j as f64 + 0.5) * cell,
            ]
        };
        // Cells a box (diagram units) may touch, clamped to the grid.
        let span = |a: f64, b: f64, k: usize| {
            let first = ((a - lo[k]) / cell).floor().clamp(0.0, n as f64) as usize;
            let last = ((b - lo[k]) / cell).ceil().clamp(0.0, n as f64) as usize;
            first..last
        };
        let edge = (inset / cell).ceil() as usize;
        let mut blocked: Vec<bool> = (0..n * n)
            .map(|c| {
                let (i, j) = (c % n, c / n);
                i < edge || j < edge || i + edge >= n || j + edge >= n
            })
            .collect();
        let d = &p.diagram;
        // Arcs are measured by their chords, which stray inward from the arc by
        // at most r·(1 − cos(π / samples per turn)): that is added to the reach.
        let stray = (d.shapes.iter().flat_map(|s| &s.outline))
            .flat_map(|c| &c.segments)
            .filter_map(|seg| match seg {
                Segment::Arc { radius, .. } => Some(radius.abs()),
                Segment::Line { .. } => None,
            })
            .fold(0.0, f64::max)
            * (1.0 - (std::f64::consts::PI / ARC_SAMPLES_PER_TURN as f64).cos());
        let reach = clear + stray + cell * std::f64::consts::FRAC_1_SQRT_2;
        let strokes = d.drawn_segments(ARC_SAMPLES_PER_TURN).into_iter();
        let aux = d.aux.iter().map(|a| (a.from, a.to));
        let points = d.points.iter().map(|q| ([q.x, q.y], [q.x, q.y]));
        for seg @ (a, b) in strokes.chain(aux).chain(points) {
            for j in span(a[1].min(b[1]) - reach, a[1].max(b[1]) + reach, 1) {
                for i in span(a[0].min(b[0]) - reach, a[0].max(b[0]) + reach, 0) {
                    if dist2_point_seg(centre(i, j), seg) < reach * reach {
                        blocked[j * n + i] = true;
                    }
                }
            }
        }
        // What a shape fills (inside its outline, outside its holes: even-odd),
        // row by row: between each pair of crossings of the row's centre line.
        for shape in &d.shapes {
            let contours: Vec<Vec<[f64; 2]>> = (shape.outline.iter())
                .map(|c| c.polyline(ARC_SAMPLES_PER_TURN))
                .collect();
            let Some(outer) = contours.first() else {
                continue;
            };
            let [a, b] = extent(outer);
            for j in span(a[1], b[1], 1) {
                let y = centre(0, j)[1];
                let mut xs: Vec<f64> = contours.iter().flat_map(|c| crossings(c, y)).collect();
                xs.sort_by(f64::total_cmp);
                for pair in xs.chunks_exact(2) {
                    // Columns whose centre lies between the two crossings.
                    let first =
                        ((pair[0] - lo[0]) / cell - 0.5).ceil().clamp(0.0, n as f64) as usize;
                    let last = ((pair[1] - lo[0]) / cell - 0.5).floor() + 1.0;
                    for i in first..(last.clamp(0.0, n as f64) as usize) {
                        blocked[j * n + i] = true;
                    }
                }
            }
        }
        let mut rows = vec![0u16; n * (n + 1)];
        for j in 0..n {
            for i in 0..n {
                rows[j * (n + 1) + i + 1] = rows[j * (n + 1) + i] + u16::from(!blocked[j * n + i]);
            }
        }
        let mut grid = Grid {
            lo,
            cell,
            rows,
            tallest: Vec::new(),
        };
        grid.tallest = grid.tallest();
        grid
    }

    /// The diagram point of cell `(i, j)`'s top left corner.
    pub(super) fn corner(&self, i: usize, j: usize) -> [f64; 2] {
        [
            self.lo[0] + i as f64 * self.cell,
            self.lo[1] + j as f64 * self.cell,
        ]
    }

    /// Whether some free block holds a `w`×`h` box (diagram units) placed on a
    /// cell's corner: one look-up.
    pub(super) fn holds_box(&self, w: f64, h: f64) -> bool {
        let (cw, ch) = (self.cells(w), self.cells(h));
        cw <= CELLS && self.tallest[cw] >= ch
    }

    /// Cells a length covers from a cell boundary (at least one).
    fn cells(&self, length: f64) -> usize {
        (length / self.cell - 1e-9).ceil().max(1.0) as usize
    }

    /// The cells a polygon at the origin covers, per row from the first: the
    /// columns `c0..c1` its part in that row's strip spans.
    pub(super) fn cover(&self, poly: &[[f64; 2]]) -> Vec<(usize, usize)> {
        let [_, b] = extent(poly);
        let rows = self.cells(b[1]);
        (0..rows)
            .map(|r| {
                let (y0, y1) = (r as f64 * self.cell, (r + 1) as f64 * self.cell);
                let [x0, x1] = strip(poly, y0, y1);
                let c0 = (x0 / self.cell + 1e-9).floor().max(0.0) as usize;
                let c1 = (x1 / self.cell - 1e-9).ceil().max(c0 as f64 + 1.0) as usize;
                (c0, c1)
            })
            .collect()
    }

    /// Whether every cell of `cover` is free with its first row `j` and columns
    /// shifted by `i`.
    fn free(&self, cover: &[(usize, usize)], i: usize, j: usize) -> bool {
        cover.iter().enumerate().all(|(r, &(c0, c1))| {
            let row = j + r;
            if row >= CELLS || i + c1 > CELLS {
                return false;
            }
            let at = |c: usize| self.rows[row * (CELLS + 1) + c];
            usize::from(at(i + c1) - at(i + c0)) == c1 - c0
        })
    }

    /// The cells (column, row) where a shape of `cover` may have its box's top left.
    pub(super) fn places<'a>(
        &'a self,
        cover: &'a [(usize, usize)],
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        (0..CELLS)
            .flat_map(|j| (0..CELLS).map(move |i| (i, j)))
            .filter(move |&(i, j)| self.free(cover, i, j))
    }

    /// For each width in cells, the greatest height in cells of a free block that
    /// wide (0 when none).
    fn tallest(&self) -> Vec<usize> {
        let n = CELLS;
        let free = |i: usize, j: usize| self.rows[j * (n + 1) + i + 1] > self.rows[j * (n + 1) + i];
        // Free cells from each cell of the row up, unbroken.
        let mut up = vec![0usize; n];
        let mut best = vec![0usize; n + 1];
        for j in 0..n {
            for (i, u) in up.iter_mut().enumerate() {
                *u = if free(i, j) { *u + 1 } else { 0 };
            }
            for i in 0..n {
                let mut h = usize::MAX;
                for k in i..n {
                    h = h.min(up[k]);
                    if h == 0 {
                        break;
                    }
                    best[k - i + 1] = best[k - i + 1].max(h);
                }
            }
        }
        best
    }
}

/// The box `[min, max]` of some points.
fn extent(pts: &[[f64; 2]]) -> [[f64; 2]; 2] {
    let (mut a, mut b) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for q in pts {
        for k in 0..2 {
            a[k] = a[k].min(q[k]);
            b[k] = b[k].max(q[k]);
        }
    }
    [a, b]
}

/// The squared distance from `q` to segment `s` (no square root: the grid asks
/// it for thousands of cells).
fn dist2_point_seg(q: [f64; 2], (a, b): Seg) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = (dx * dx + dy * dy).max(1e-12);
    let t = (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2).clamp(0.0, 1.0);
    let (ex, ey) = (q[0] - a[0] - t * dx, q[1] - a[1] - t * dy);
    ex * ex + ey * ey
}

/// Where the closed polyline `poly` crosses the line at height `y` (each edge
/// counted half-open, as [`crate::vec2::inside`] counts them).
fn crossings(poly: &[[f64; 2]], y: f64) -> Vec<f64> {
    let n = poly.len();
    (0..n)
        .filter_map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % n]);
            ((a[1] > y) != (b[1] > y)).then(|| a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]))
        })
        .collect()
}

/// The x extent of a convex polygon's part between `y0` and `y1`: its corners in
/// the strip and its edges' crossings of the strip's two lines.
fn strip(poly: &[[f64; 2]], y0: f64, y1: f64) -> [f64; 2] {
    let mut xs: Vec<f64> = poly
        .iter()
        .filter(|q| (y0..=y1).contains(&q[1]))
        .map(|q| q[0])
        .collect();
    for (k, a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        for y in [y0, y1] {
            if (a[1] - y) * (b[1] - y) < 0.0 {
                xs.push(a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]));
            }
        }
    }
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    [lo, hi]
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::generate::problem::{Contour, Diagram, Point, Shape};
    use crate::generate::shapes::ShapeKind;
    use crate::generate::{GenerateOptions, generate_one};

    /// A closed outline through `pts`.
    pub(in super::super) fn contour(pts: &[[f64; 2]]) -> Contour {
        Contour {
            start: pts[0],
            segments: (pts[1..].iter().chain(&pts[..1]))
                .map(|&to| Segment::Line { to })
                .collect(),
        }
    }

    /// A full circle as two half arcs.
    pub(in super::super) fn circle(c: [f64; 2], r: f64) -> Contour {
        let arc = |to: [f64; 2]| Segment::Arc {
            to,
            center: c,
            radius: r,
            large_arc: false,
            sweep: true,
        };
        Contour {
            start: [c[0] + r, c[1]],
            segments: vec![arc([c[0] - r, c[1]]), arc([c[0] + r, c[1]])],
        }
    }

    /// A generated problem whose drawing is these shapes (each given by its
    /// contours, the first its outline), their line corners its points.
    pub(in super::super) fn drawing(shapes: Vec<Vec<Contour>>) -> Problem {
        let mut p = generate_one(&GenerateOptions::default(), 0).unwrap();
        let mut d = Diagram::default();
        for outline in shapes {
            let corners: Vec<[f64; 2]> = std::iter::once(outline[0].start)
                .chain(outline[0].segments.iter().filter_map(|s| match s {
                    Segment::Line { to } => Some(*to),
                    Segment::Arc { .. } => None,
                }))
                .collect();
            let first = d.points.len();
            for q in &corners[..corners.len() - 1] {
                d.points.push(Point {
                    name: String::new(),
                    x: q[0],
                    y: q[1],
                });
            }
            d.shapes.push(Shape {
                kind: ShapeKind::Rectangle,
                name: Default::default(),
                colour: "blue".into(),
                vertices: (first..d.points.len()).collect(),
                outline,
            });
        }
        p.diagram = d;
        p
    }

    fn is_free(g: &Grid, i: usize, j: usize) -> bool {
        g.free(&[(0, 1)], i, j)
    }

    fn dist(q: [f64; 2], s: Seg) -> f64 {
        dist2_point_seg(q, s).sqrt()
    }

    #[test]
    fn a_cell_is_free_exactly_when_all_of_it_keeps_the_clearance() {
        // A 10×10 square in the middle of a 20-unit square frame.
        let p = drawing(vec![vec![contour(&[
            [0.0, 0.0],
            [10.0, 0.0],
            [10.0, 10.0],
            [0.0, 10.0],
        ])]]);
        let square = [[-5.0, -5.0], [15.0, 15.0]];
        let (clear, inset) = (2.0, 1.0);
        let g = Grid::new(&p, square, clear, inset);
        let edges = p.diagram.drawn_segments(ARC_SAMPLES_PER_TURN);
        let cell = 20.0 / CELLS as f64;
        let half_diagonal = cell * std::f64::consts::FRAC_1_SQRT_2;
        let (mut free, mut blocked) = (0, 0);
        for j in 0..CELLS {
            for i in 0..CELLS {
                let c = g.corner(i, j);
                let samples = [
                    c,
                    [c[0] + cell, c[1]],
                    [c[0], c[1] + cell],
                    [c[0] + cell, c[1] + cell],
                    [c[0] + cell / 2.0, c[1] + cell / 2.0],
                ];
                let near = |q: [f64; 2]| edges.iter().map(|&s| dist(q, s)).fold(f64::MAX, f64::min);
                let inside =
                    |q: [f64; 2]| (0.0..=10.0).contains(&q[0]) && (0.0..=10.0).contains(&q[1]);
                let in_frame =
                    |q: [f64; 2]| (0..2).all(|k| q[k] >= -5.0 + inset && q[k] <= 15.0 - inset);
                if is_free(&g, i, j) {
                    free += 1;
                    for q in samples {
                        assert!(
                            near(q) >= clear && !inside(q) && in_frame(q),
                            "cell {i},{j}"
                        );
                    }
                } else {
                    blocked += 1;
                    // Blocked only for a reason: the centre too near, inside, or
                    // the cell at the frame's edge.
                    let centre = samples[4];
                    let edge_cell = samples.iter().any(|&q| !in_frame(q));
                    assert!(
                        near(centre) < clear + half_diagonal + 1e-9 || inside(centre) || edge_cell,
                        "cell {i},{j} blocked for nothing"
                    );
                }
            }
        }
        assert!(
            free > 1000 && blocked > 1000,
            "{free} free, {blocked} blocked"
        );
    }

    #[test]
    fn a_hole_is_free_space_and_the_fill_around_it_is_not() {
        // A 20×20 square with a circle of radius 8 removed from its middle.
        let p = drawing(vec![vec![
            contour(&[[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]]),
            circle([10.0, 10.0], 8.0),
        ]]);
        let g = Grid::new(&p, [[0.0, 0.0], [20.0, 20.0]], 1.0, 0.5);
        let at =
            |x: f64, y: f64| is_free(&g, (x / 20.0 * 64.0) as usize, (y / 20.0 * 64.0) as usize);
        assert!(at(10.0, 10.0) && at(7.0, 12.0), "the hole's middle is free");
        assert!(!at(1.5, 1.5) && !at(18.5, 1.5), "the corners are filled");
        assert!(!at(10.0, 2.5), "near the circle is not free");
        assert!(g.holds_box(8.0, 8.0) && !g.holds_box(12.0, 12.0));
    }

    #[test]
    fn a_cover_holds_every_cell_its_shape_touches_and_is_tight() {
        let g = Grid::new(&drawing(vec![]), [[0.0, 0.0], [64.0, 64.0]], 0.0, 0.0);
        let shapes: [&[[f64; 2]]; 3] = [
            &[[0.0, 0.0], [7.5, 0.0], [7.5, 3.2], [0.0, 3.2]],
            &[[0.0, 9.0], [0.0, 0.0], [5.5, 0.0]],
            &[[6.0, 0.0], [6.0, 11.0], [0.0, 11.0]],
        ];
        for poly in shapes {
            let cover = g.cover(poly);
            let cells: usize = cover.iter().map(|(a, b)| b - a).sum();
            // Points inside the shape (corners pulled in a hair), each in a covered cell.
            let n = 40;
            for a in 0..=n {
                for b in 0..=n - a {
                    let (u, v) = (a as f64 / n as f64, b as f64 / n as f64);
                    let w = 1.0 - u - v;
                    let mut q = [0.0; 2];
                    for k in 0..2 {
                        let centre = poly.iter().map(|p| p[k]).sum::<f64>() / poly.len() as f64;
                        let corner = |i: usize| poly[i][k] * 0.999 + centre * 0.001;
                        q[k] = u * corner(0) + v * corner(1) + w * corner(2);
                    }
                    let (i, j) = (q[0].floor() as usize, q[1].floor() as usize);
                    assert!(cover[j].0 <= i && i < cover[j].1, "{q:?} not covered");
                }
            }
            let [_, hi] = extent(poly);
            let boxed = (hi[0].ceil() * hi[1].ceil()) as usize;
            if poly.len() == 3 {
                assert!(cells < boxed, "{cells} of the box's {boxed}");
            } else {
                assert_eq!(cells, boxed);
            }
        }
    }

    #[test]
    fn tallest_is_the_tallest_free_block_of_each_width() {
        for index in 0..6 {
            let p = generate_one(&GenerateOptions::default(), index).unwrap();
            let frame = p.diagram.bounds(ARC_SAMPLES_PER_TURN).unwrap();
            let side = (frame[1][0] - frame[0][0]).max(frame[1][1] - frame[0][1]);
            let square = [frame[0], [frame[0][0] + side, frame[0][1] + side]];
            let g = Grid::new(&p, square, 0.05 * side, 0.02 * side);
            for w in [1, 2, 3, 5, 8, 13, 21, 34] {
                let block = |h: usize| vec![(0, w); h];
                let h = g.tallest[w];
                assert!(h == 0 || g.places(&block(h)).next().is_some(), "{w}×{h}");
                assert!(g.places(&block(h + 1)).next().is_none(), "{w}×{}", h + 1);
            }
        }
    }
}
