//! Where no edge has room: a free-standing shape in the free space of the square
//! the base is fitted to the canvas by, with new points and one given value, one
//! of its sides' lengths (a whole number the texts do not already use).
//!
//! It goes only where every point of it keeps [`CLEARANCE`] of the square's side
//! from every drawn point and stroke, outside every shape's fill, and [`INSET`]
//! inside the square's edge ([`super::grid`] finds such room): room for the
//! base's labels and its own, no overlap, and the base drawn as it was. A hole
//! (the circle removed from a square) is free space like any other.
//!
//! Rectangles (squares when their sides are equal) are tried first, right
//! triangles with their legs along the axes where no rectangle fits (the slanted
//! room beside a parallelogram or under a triangle). Their sides are whole numbers
//! from [`MIN_SIDE`] to [`MAX_SIDE`] of the square, so that they read as shapes
//! like the base's, not specks.

use super::grid::Grid;
use super::{Used, push_points, push_shape, push_side};
use crate::generate::expr::round2;
use crate::generate::problem::{Problem, Status};
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

/// Distance kept from every drawn point and stroke, as a share of the fitted
/// square's side (0.08 of the 408 px a 512 px canvas gives it: about 33 px, a
/// label's room at the default font size).
pub(super) const CLEARANCE: f64 = 0.08;
/// Distance kept from the fitted square's edge, as a share of its side.
pub(super) const INSET: f64 = 0.03;
/// Shortest side, as a share of the fitted square's side.
pub(super) const MIN_SIDE: f64 = 0.1;
/// Longest side, as a share of the fitted square's side (exceeded, by up to 20,
/// while fewer than three whole numbers up to it are ones the texts lack).
pub(super) const MAX_SIDE: f64 = 0.4;
/// Longest side over shortest.
const MAX_ASPECT: f64 = 2.5;
/// Whole-number lengths a right triangle's legs are tried with, at most (evenly
/// spread), from those the texts lack and from all.
const LENGTHS: usize = 10;

/// What a free-standing shape is. A rectangle is tried first; a right triangle,
/// its legs along the axes, fits the slanted room a rectangle does not (beside a
/// parallelogram, under a triangle).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    Rectangle,
    /// Its right angle at this corner of its box (0 top left, then clockwise).
    RightTriangle(usize),
}

impl Form {
    const ALL: [Form; 5] = [
        Form::Rectangle,
        Form::RightTriangle(0),
        Form::RightTriangle(1),
        Form::RightTriangle(2),
        Form::RightTriangle(3),
    ];

    /// Its corners in a `w`×`h` box at the origin, in outline order (clockwise on
    /// screen); a right triangle's right angle is the middle one.
    fn corners(self, w: f64, h: f64) -> Vec<[f64; 2]> {
        let boxed = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
        match self {
            Form::Rectangle => boxed.to_vec(),
            Form::RightTriangle(k) => (3..6).map(|i| boxed[(k + i) % 4]).collect(),
        }
    }

    /// Its kind at size `w`×`h`: a rectangle of equal sides is a square.
    fn kind(self, w: f64, h: f64) -> ShapeKind {
        match self {
            Form::Rectangle if w == h => ShapeKind::Square,
            Form::Rectangle => ShapeKind::Rectangle,
            Form::RightTriangle(_) => ShapeKind::RightTriangle,
        }
    }
}

/// A free-standing shape: its corners in outline order and which side (from
/// corner `given` to the next) is given.
pub(super) struct Free {
    form: Form,
    kind: ShapeKind,
    corners: Vec<[f64; 2]>,
    /// Each side's length, from corner `k` to the next: whole numbers but a right
    /// triangle's hypotenuse (rounded to 2 places, as the generator's values).
    lengths: Vec<f64>,
    given: usize,
}

impl Free {
    /// The given value: the given side's length.
    pub(super) fn value(&self) -> f64 {
        self.lengths[self.given]
    }
}

/// At most [`LENGTHS`] of `values`, evenly spread.
fn spread(values: &[i64]) -> Vec<i64> {
    let step = values.len().div_ceil(LENGTHS).max(1);
    values.iter().copied().step_by(step).collect()
}

/// A form and its box.
struct Candidate {
    form: Form,
    size: [i64; 2],
}

/// A free-standing shape in the free space of `square`. Rectangles (squares when
/// their sides are equal) first, right triangles where none fits; among the
/// sizes that fit (a side or leg a number `used` lacks), one at least half as
/// large as the largest, at random; then a place for it, at random.
pub(super) fn find(p: &Problem, square: [[f64; 2]; 2], rng: &mut Rng, used: &Used) -> Option<Free> {
    let side = square[1][0] - square[0][0];
    if !(side.is_finite() && side > 0.0) {
        return None;
    }
    let grid = Grid::new(p, square, CLEARANCE * side, INSET * side);
    // Whole numbers from MIN_SIDE to MAX_SIDE of the square, and on until three of
    // them are numbers the texts lack, however small the diagram's own lengths.
    let shortest = (MIN_SIDE * side).ceil().max(1.0) as i64;
    let mut longest = ((MAX_SIDE * side).floor() as i64).max(shortest);
    let lacking = |hi: i64| (shortest..=hi).filter(|&v| !used.has(v)).count();
    while lacking(longest) < 3 && longest < shortest + 20 {
        longest += 1;
    }
    let all: Vec<i64> = (shortest..=longest).collect();
    let fine = |w: i64, h: i64| {
        let aspect = w.max(h) as f64 / w.min(h) as f64;
        aspect <= MAX_ASPECT && (!used.has(w) || !used.has(h))
    };
    let area = |c: &Candidate| c.size[0] * c.size[1];
    let mut fits: Vec<Candidate> = Vec::new();
    for &w in &all {
        for &h in all.iter().filter(|&&h| fine(w, h)) {
            if grid.holds_box(w as f64, h as f64) {
                fits.push(Candidate {
                    form: Form::Rectangle,
                    size: [w, h],
                });
            }
        }
    }
    if fits.is_empty() {
        // Fewer sizes: each try scans the grid. A triangle holds the box of half
        // its legs at its right angle, so that box must fit first.
        let free: Vec<i64> = all.iter().copied().filter(|&v| !used.has(v)).collect();
        let mut values = spread(&free);
        values.extend(spread(&all));
        values.sort_unstable();
        values.dedup();
        for form in Form::ALL.into_iter().skip(1) {
            for &w in &values {
                for &h in values.iter().filter(|&&h| fine(w, h)) {
                    let (wf, hf) = (w as f64, h as f64);
                    if !grid.holds_box(wf / 2.0, hf / 2.0) {
                        continue;
                    }
                    let cover = grid.cover(&form.corners(wf, hf));
                    if grid.places(&cover).next().is_some() {
                        fits.push(Candidate { form, size: [w, h] });
                    }
                }
            }
        }
    }
    let best = fits.iter().map(area).max()?;
    fits.retain(|c| 2 * area(c) >= best);
    let c = &fits[rng.index(fits.len())];
    let (w, h) = (c.size[0] as f64, c.size[1] as f64);
    let cover = grid.cover(&c.form.corners(w, h));
    let places: Vec<(usize, usize)> = grid.places(&cover).collect();
    let (i, j) = places[rng.index(places.len())];
    let origin = grid.corner(i, j);
    let corners: Vec<[f64; 2]> = (c.form.corners(w, h).into_iter())
        .map(|q| [origin[0] + q[0], origin[1] + q[1]])
        .collect();
    let lengths: Vec<f64> = (0..corners.len())
        .map(|k| {
            let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
            round2((b[0] - a[0]).hypot(b[1] - a[1]))
        })
        .collect();
    // A side of the box (a rectangle's side or a leg), its length not yet used.
    let givens: Vec<usize> = (0..lengths.len())
        .filter(|&k| lengths[k].fract() == 0.0 && !used.has(lengths[k] as i64))
        .collect();
    Some(Free {
        form: c.form,
        kind: c.form.kind(w, h),
        corners,
        lengths,
        given: givens[rng.index(givens.len())],
    })
}

/// Adds the shape: its points, the shape, its sides (one given), and a right
/// triangle's right-angle mark.
pub(super) fn add(p: &mut Problem, r: &Free, colour: &str) {
    let d = &mut p.diagram;
    let v: Vec<usize> = r.corners.iter().map(|&q| push_points(d, [q])[0]).collect();
    let s = push_shape(d, r.kind, &v, colour);
    for k in 0..v.len() {
        let status = if k == r.given {
            Status::Given
        } else {
            Status::Unused
        };
        push_side(d, [v[k], v[(k + 1) % v.len()]], s, r.lengths[k], status);
    }
    if r.form != Form::Rectangle {
        d.right_angles.push([v[0], v[1], v[2]]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::grid::tests::{circle, contour, drawing};
    use super::*;
    use crate::generate::problem::Texts;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<crate::generate::problem::Contour> {
        vec![contour(&[[x0, y0], [x1, y0], [x1, y1], [x0, y1]])]
    }

    fn used(text: &str) -> Used {
        Used::of(&[&Texts {
            coordinate: text.into(),
            individual: String::new(),
        }])
    }

    fn dist(q: [f64; 2], (a, b): ([f64; 2], [f64; 2])) -> f64 {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let t = (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / (dx * dx + dy * dy).max(1e-12))
            .clamp(0.0, 1.0);
        (q[0] - a[0] - t * dx).hypot(q[1] - a[1] - t * dy)
    }

    /// The least distance from the shape's outline (sampled every 1/200 of each
    /// side) to what `p` draws: its strokes and points.
    fn clearance(p: &Problem, r: &Free) -> f64 {
        let segs = p.diagram.drawn_segments(720);
        let points = p.diagram.points.iter().map(|q| ([q.x, q.y], [q.x, q.y]));
        let all: Vec<_> = segs.into_iter().chain(points).collect();
        let n = r.corners.len();
        let mut least = f64::MAX;
        for k in 0..n {
            let (a, b) = (r.corners[k], r.corners[(k + 1) % n]);
            for s in 0..=200 {
                let t = s as f64 / 200.0;
                let q = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
                least = all.iter().map(|&e| dist(q, e)).fold(least, f64::min);
            }
        }
        least
    }

    fn inside_by(r: &Free, square: [[f64; 2]; 2]) -> f64 {
        let [lo, hi] = square;
        (r.corners.iter())
            .flat_map(|q| [q[0] - lo[0], hi[0] - q[0], q[1] - lo[1], hi[1] - q[1]])
            .fold(f64::MAX, f64::min)
    }

    #[test]
    fn a_frame_its_one_shape_fills_has_no_room() {
        let p = drawing(vec![rect(0.0, 0.0, 10.0, 10.0)]);
        let mut rng = Rng::from_u64(1, 2);
        assert!(find(&p, [[0.0, 0.0], [10.0, 10.0]], &mut rng, &used("")).is_none());
        let p = drawing(vec![vec![circle([5.0, 5.0], 5.0)]]);
        assert!(find(&p, [[0.0, 0.0], [10.0, 10.0]], &mut rng, &used("")).is_none());
    }

    #[test]
    fn a_wide_shape_leaves_room_above_and_below_kept_at_the_stated_distance() {
        // A 40×10 rectangle: its square is 40 on a side, 15 free above and below.
        let p = drawing(vec![rect(0.0, 0.0, 40.0, 10.0)]);
        let square = [[0.0, -15.0], [40.0, 25.0]];
        let (mut above, mut below) = (0, 0);
        for seed in 0..24 {
            let mut rng = Rng::from_u64(seed, 7);
            let r = find(&p, square, &mut rng, &used("")).unwrap();
            assert!(matches!(r.kind, ShapeKind::Rectangle | ShapeKind::Square));
            assert!(clearance(&p, &r) >= CLEARANCE * 40.0 - 1e-9);
            assert!(inside_by(&r, square) >= INSET * 40.0 - 1e-9);
            for &l in &r.lengths {
                assert!(l.fract() == 0.0 && (4.0..=16.0).contains(&l), "{l}");
            }
            if r.corners[0][1] < 0.0 {
                above += 1;
            } else {
                below += 1;
            }
        }
        assert!(above > 0 && below > 0, "{above} above, {below} below");
    }

    #[test]
    fn the_given_value_is_a_number_the_texts_lack() {
        let p = drawing(vec![rect(0.0, 0.0, 40.0, 10.0)]);
        let square = [[0.0, -15.0], [40.0, 25.0]];
        // Of 4 to 16 (a tenth to 0.4 of the square) only 7 is free: the lengths go
        // on to 18, so that three are.
        let taken = used("4 5 6 8 9 10 11 12 13 14 15 16.");
        for seed in 0..24 {
            let r = find(&p, square, &mut Rng::from_u64(seed, 7), &taken).unwrap();
            assert!([7.0, 17.0, 18.0].contains(&r.value()), "{}", r.value());
        }
    }

    #[test]
    fn right_triangles_take_slanted_room_no_rectangle_fits() {
        // All but a corner triangle of legs 36 at the top right is filled: the room
        // left holds no 10×10 box (a tenth of the square) but a right triangle.
        let base = contour(&[
            [0.0, 0.0],
            [64.0, 0.0],
            [100.0, 36.0],
            [100.0, 100.0],
            [0.0, 100.0],
        ]);
        let p = drawing(vec![vec![base]]);
        let square = [[0.0, 0.0], [100.0, 100.0]];
        for seed in 0..8 {
            let r = find(&p, square, &mut Rng::from_u64(seed, 7), &used("")).unwrap();
            assert_eq!(
                r.form,
                Form::RightTriangle(1),
                "its right angle at the top right"
            );
            assert_eq!(r.kind, ShapeKind::RightTriangle);
            assert!(clearance(&p, &r) >= CLEARANCE * 100.0 - 1e-9);
            assert!(inside_by(&r, square) >= INSET * 100.0 - 1e-9);
            // Legs whole, the hypotenuse to 2 places.
            assert!(r.lengths[0].fract() == 0.0 && r.lengths[1].fract() == 0.0);
            let h = r.lengths[0].hypot(r.lengths[1]);
            assert!((r.lengths[2] - h).abs() <= 0.005);
        }
    }

    #[test]
    fn a_shape_added_brings_its_points_sides_one_given_value_and_marks() {
        let mut p = drawing(vec![vec![contour(&[
            [0.0, 0.0],
            [64.0, 0.0],
            [100.0, 36.0],
            [100.0, 100.0],
            [0.0, 100.0],
        ])]]);
        let r = find(
            &p,
            [[0.0, 0.0], [100.0, 100.0]],
            &mut Rng::from_u64(3, 7),
            &used(""),
        )
        .unwrap();
        let (points, sides) = (p.diagram.points.len(), p.diagram.sides.len());
        add(&mut p, &r, "green");
        let d = &p.diagram;
        assert_eq!(d.points.len(), points + 3);
        let s = d.shapes.last().unwrap();
        assert_eq!(
            (s.kind, s.colour.as_str()),
            (ShapeKind::RightTriangle, "green")
        );
        assert_eq!(s.vertices, (points..points + 3).collect::<Vec<_>>());
        let new = &d.sides[sides..];
        assert_eq!(new.len(), 3);
        let given: Vec<_> = new.iter().filter(|s| s.status == Status::Given).collect();
        assert_eq!(given.len(), 1);
        assert_eq!(given[0].value, r.value());
        for side in new {
            let [a, b] = side.points.map(|i| d.xy(i));
            assert!(((b[0] - a[0]).hypot(b[1] - a[1]) - side.value).abs() <= 0.005);
        }
        assert_eq!(d.right_angles, vec![[points, points + 1, points + 2]]);
    }
}
