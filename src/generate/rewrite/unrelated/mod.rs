//! Unrelated information (GeomRel §2.5, "UI"): shapes added to a diagram that play
//! no part in the answer, each with one given value stated the way the problem
//! states its givens (printed on the image, or in the question). The steps, the
//! solution and the answer stay as they are; the new points and sides get letters
//! and labels like the rest.
//!
//! Each shape goes where it overlaps nothing, its colour told apart from every
//! other fill, and only inside the square the base diagram is fitted to the canvas
//! by: the variant keeps its base's frame ([`crate::generate::Diagram::frame`]), so
//! every base path is drawn at the same scale and place, byte for byte, and one
//! thing changes — shapes are added.
//!
//! ```text
//! edge  first choice: a rectangle built outward on an outline edge of one shape,
//!       its given value the new side's length
//! room  where no edge has room: a free-standing rectangle, square or right
//!       triangle in the free space of the fitted square, 8 % of its side clear of
//!       everything drawn, its given value one side's length
//! grid  that free space as cells, and where a shape fits in it
//! ```
//!
//! A problem with room for neither gets no variant. A try that finds no room for
//! its second or later shape starts again with other places (`TRIES`).

mod edge;
mod grid;
mod room;

use crate::generate::colours::{COLOURS, compatible};
use crate::generate::problem::{
    Contour, Diagram, Labels, Point, Problem, Segment, Shape, Side, SideKind, Status, Texts,
};
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;
use crate::generate::text::{self, TextError};
use std::collections::BTreeSet;

/// Why a problem cannot get its unrelated shapes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UnrelatedError {
    /// Neither a free side nor the free space of the fitted square has room.
    #[error(
        "no free side or free space in the base's frame has room for a shape that overlaps \
         nothing ({placed} of {wanted} placed)"
    )]
    NoRoom { placed: u8, wanted: u8 },
    #[error("no colour left that is told apart from the diagram's")]
    NoColour,
    /// A relation item's unrelated points: no drawn segment has room for one
    /// clear of the other points.
    #[error("no drawn segment has room for a new point clear of the others ({wanted} wanted)")]
    NoSegment { wanted: u8 },
    #[error(transparent)]
    Text(#[from] TextError),
}

/// A segment of the drawn diagram, in diagram units.
type Seg = ([f64; 2], [f64; 2]);

/// Tries at placing all the shapes: a try that leaves no room for the last ones
/// starts again from the base with the stream where it is, so other places.
const TRIES: usize = 4;

/// `p` with `count` unrelated shapes added (placement seeded by `p.seed`). The
/// first try is the one `count - 1` starts with, so a problem's shapes for
/// `unrelated=2` are its shapes for `unrelated=1` and one more, unless that try
/// found no room for the second.
pub(crate) fn with_unrelated(p: &Problem, count: u8) -> Result<Problem, UnrelatedError> {
    // The base's frame, and the square it is fitted to the canvas by: the room the
    // new shapes may take.
    let frame = p
        .diagram
        .frame
        .or_else(|| p.diagram.bounds(crate::generate::ARC_SAMPLES_PER_TURN))
        .ok_or(UnrelatedError::NoRoom {
            placed: 0,
            wanted: count,
        })?;
    let mut rng = Rng::from_u64(p.seed, 0x756e_7265_6c61_7465);
    let mut placed = 0;
    for _ in 0..TRIES {
        let mut q = p.clone();
        q.diagram.frame = Some(frame);
        match add_shapes(&mut q, count, fitted_square(frame), &mut rng) {
            Ok(()) => {
                text::refresh(&mut q)?;
                return Ok(q);
            }
            // No room for the first shape: the base alone leaves none.
            Err(UnrelatedError::NoRoom { placed: 0, .. }) => break,
            Err(UnrelatedError::NoRoom { placed: k, .. }) => placed = placed.max(k),
            Err(e) => return Err(e),
        }
    }
    Err(UnrelatedError::NoRoom {
        placed,
        wanted: count,
    })
}

/// One try: `count` shapes added to `q` inside `square`, each where it fits.
fn add_shapes(
    q: &mut Problem,
    count: u8,
    square: [[f64; 2]; 2],
    rng: &mut Rng,
) -> Result<(), UnrelatedError> {
    // Values already in the texts are avoided, so the new ones can be told apart;
    // each new value joins them.
    let mut used = Used::of(&[&q.question, &q.cot]);
    for placed in 0..count {
        let colour = colour(q).ok_or(UnrelatedError::NoColour)?;
        let value = if let Some(e) = edge::find(q, square, rng, &used) {
            edge::attach(q, &e, colour);
            e.value
        } else {
            let r = room::find(q, square, rng, &used).ok_or(UnrelatedError::NoRoom {
                placed,
                wanted: count,
            })?;
            room::add(q, &r, colour);
            r.value()
        };
        used.add(value);
    }
    Ok(())
}

/// The first colour (in list order) told apart from every fill of the diagram.
fn colour(p: &Problem) -> Option<&'static str> {
    COLOURS
        .iter()
        .copied()
        .find(|c| p.diagram.shapes.iter().all(|s| compatible(c, &s.colour)))
}

/// The square a frame is fitted to the canvas by: its larger side, centred on it
/// (as `compose` fits a frame: the larger side fills the canvas less its margin).
fn fitted_square([lo, hi]: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let half = (hi[0] - lo[0]).max(hi[1] - lo[1]) / 2.0;
    let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    [
        [mid[0] - half, mid[1] - half],
        [mid[0] + half, mid[1] + half],
    ]
}

/// The numbers a problem's texts state, as written ("12", "0.5"), and the values
/// added since.
struct Used(BTreeSet<String>);

impl Used {
    fn of(texts: &[&Texts]) -> Used {
        let words = texts
            .iter()
            .flat_map(|t| [t.coordinate.as_str(), t.individual.as_str()])
            .flat_map(|t| t.split(|c: char| !(c.is_ascii_digit() || c == '.')))
            .map(|t| t.trim_end_matches('.').to_string());
        Used(words.filter(|t| !t.is_empty()).collect())
    }

    /// Whether the texts use the whole number `v`.
    fn has(&self, v: i64) -> bool {
        self.0.contains(&v.to_string())
    }

    fn add(&mut self, v: f64) {
        self.0.insert(crate::generate::expr::fmt_num(v));
    }
}

/// Adds `corners` as new points named after their index; their indices.
fn push_points<const N: usize>(d: &mut Diagram, corners: [[f64; 2]; N]) -> [usize; N] {
    std::array::from_fn(|k| {
        d.points.push(Point {
            name: text::point_name(d.points.len()),
            x: corners[k][0],
            y: corners[k][1],
        });
        d.points.len() - 1
    })
}

/// Adds a shape of `kind` and `colour` through the points `v` (outline order,
/// straight edges); its index.
fn push_shape(d: &mut Diagram, kind: ShapeKind, v: &[usize], colour: &str) -> usize {
    let outline = Contour {
        start: d.xy(v[0]),
        segments: (v[1..].iter().chain(&v[..1]))
            .map(|&i| Segment::Line { to: d.xy(i) })
            .collect(),
    };
    d.shapes.push(Shape {
        kind,
        name: Texts::default(),
        colour: colour.to_string(),
        vertices: v.to_vec(),
        outline: vec![outline],
    });
    d.shapes.len() - 1
}

/// Adds the outline edge `points` of shape `s` with its length and part.
fn push_side(d: &mut Diagram, points: [usize; 2], s: usize, value: f64, status: Status) {
    d.sides.push(Side {
        points,
        kind: SideKind::Edge,
        shapes: vec![s],
        value,
        name: Texts::default(),
        status,
        shown: false,
        expr: None,
        label: Labels::default(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate_range};

    #[test]
    fn used_reads_the_numbers_as_the_texts_write_them() {
        let t = Texts {
            coordinate: "If AB is 12 and π = 3.14, round to 2 decimal places.".into(),
            individual: "The side marked with a is 0.5.".into(),
        };
        let mut u = Used::of(&[&t]);
        assert!(u.has(12) && u.has(2));
        assert!(!u.has(3) && !u.has(14) && !u.has(5) && !u.has(1));
        u.add(7.0);
        assert!(u.has(7));
    }

    #[test]
    fn a_frame_one_square_fills_gets_no_shape_and_says_so() {
        let opts = GenerateOptions {
            seed: 77,
            depth: 1..=1,
            ..GenerateOptions::default()
        };
        let p = generate_range(&opts, 0, 200)
            .into_iter()
            .map(Result::unwrap)
            .find(|p| p.diagram.shapes.len() == 1 && p.diagram.shapes[0].kind == ShapeKind::Square)
            .unwrap();
        assert_eq!(
            with_unrelated(&p, 2),
            Err(UnrelatedError::NoRoom {
                placed: 0,
                wanted: 2
            })
        );
    }

    #[test]
    fn the_same_problem_gets_the_same_shapes_and_keeps_its_frame() {
        let opts = GenerateOptions {
            seed: 5,
            ..GenerateOptions::default()
        };
        let mut made = 0;
        for p in generate_range(&opts, 0, 40).into_iter().map(Result::unwrap) {
            let q = with_unrelated(&p, 2);
            assert_eq!(q, with_unrelated(&p, 2), "{}", p.id);
            if let Ok(q) = q {
                assert_eq!(
                    q.diagram.frame,
                    p.diagram.bounds(crate::generate::ARC_SAMPLES_PER_TURN)
                );
                assert_eq!(
                    q.diagram.shapes[..p.diagram.shapes.len()],
                    p.diagram.shapes[..]
                );
                assert_eq!(
                    q.diagram.points[..p.diagram.points.len()],
                    p.diagram.points[..]
                );
                made += 1;
            }
        }
        assert!(made >= 30, "{made} of 40");
    }
}
