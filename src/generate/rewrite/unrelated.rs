//! Unrelated information (GeomRel §2.5, "UI"): shapes attached to free sides of a
//! diagram that play no part in the answer. Each is a rectangle built outward on an
//! outline edge that belongs to one shape only, with one given value, its new
//! side's length, stated the way the problem states its givens (printed on the
//! image, or in the question). The steps, the solution and the answer stay as they
//! are; the new sides get letters and labels like the rest.
//!
//! A rectangle is placed only where it overlaps nothing: no drawn point inside it,
//! none of its new edges crossing or coming near (a fifth of the edge it stands on)
//! another outline, side or ray, and its colour told apart from every other fill.
//! And only inside the square the base diagram is fitted to the canvas by: the
//! variant keeps its base's frame ([`crate::generate::Diagram::frame`]), so every
//! base path is drawn at the same scale and place, byte for byte, and one thing
//! changes — shapes are added. A problem with no such room gets no variant.

use crate::generate::colours::{COLOURS, compatible};
use crate::generate::problem::{
    Labels, Point, Problem, Segment, Shape, Side, SideKind, Status, Texts,
};
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;
use crate::generate::text::{self, TextError};

/// Why a problem cannot get its unrelated shapes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UnrelatedError {
    #[error(
        "no free side has room for a shape that overlaps nothing ({placed} of {wanted} placed)"
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

/// `p` with `count` unrelated rectangles added (placement seeded by `p.seed`).
pub fn with_unrelated(p: &Problem, count: u8) -> Result<Problem, UnrelatedError> {
    let mut q = p.clone();
    // The base's frame, and the square it is fitted to the canvas by (the larger
    // side of the frame, centred): the room the new shapes may take.
    let frame = p
        .diagram
        .frame
        .or_else(|| p.diagram.bounds(crate::generate::ARC_SAMPLES_PER_TURN))
        .ok_or(UnrelatedError::NoRoom {
            placed: 0,
            wanted: count,
        })?;
    q.diagram.frame = Some(frame);
    let square = fitted_square(frame);
    let mut rng = Rng::from_u64(p.seed, 0x756e_7265_6c61_7465);
    // Values already in the texts are avoided, so the new ones can be told apart.
    let used_text = format!(
        "{} {} {} {}",
        p.question.coordinate, p.question.individual, p.cot.coordinate, p.cot.individual
    );
    for placed in 0..count {
        let mut free: Vec<usize> = (0..q.diagram.sides.len())
            .filter(|&i| {
                let s = &q.diagram.sides[i];
                s.kind == SideKind::Edge && s.shapes.len() == 1 && !round(&q, s.shapes[0])
            })
            .collect();
        rng.shuffle(&mut free);
        let colour = colour(&q).ok_or(UnrelatedError::NoColour)?;
        // Each side's lengths in random order, the first that fits.
        let fits = free.into_iter().find_map(|i| {
            pick_values(&q, i, &mut rng, &used_text)
                .into_iter()
                .find_map(|value| Some((i, value, rectangle(&q, i, value, square)?)))
        });
        let Some((side, value, [z, w])) = fits else {
            return Err(UnrelatedError::NoRoom {
                placed,
                wanted: count,
            });
        };
        attach(&mut q, side, value, z, w, colour);
    }
    text::refresh(&mut q)?;
    Ok(q)
}

/// Whether shape `s` has an arc (its straight edges may be a diameter: left alone).
fn round(p: &Problem, s: usize) -> bool {
    p.diagram.shapes[s]
        .outline
        .iter()
        .flat_map(|c| &c.segments)
        .any(|seg| matches!(seg, Segment::Arc { .. }))
}

/// The first colour (in list order) told apart from every fill of the diagram.
fn colour(p: &Problem) -> Option<&'static str> {
    COLOURS
        .iter()
        .copied()
        .find(|c| p.diagram.shapes.iter().all(|s| compatible(c, &s.colour)))
}

/// The square a frame is fitted to the canvas by: its larger side, centred on it.
fn fitted_square([lo, hi]: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let half = (hi[0] - lo[0]).max(hi[1] - lo[1]) / 2.0;
    let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    [
        [mid[0] - half, mid[1] - half],
        [mid[0] + half, mid[1] + half],
    ]
}

/// Whole-number lengths for the new side, in random order: 40–90 % of the edge it
/// stands on, none a number the texts already use.
fn pick_values(p: &Problem, side: usize, rng: &mut Rng, used: &str) -> Vec<f64> {
    let l = p.diagram.sides[side].value;
    let (lo, hi) = (
        (0.4 * l).round().max(2.0) as i64,
        (0.9 * l).round().max(3.0) as i64,
    );
    let taken = |v: i64| {
        used.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .any(|t| t.trim_end_matches('.') == v.to_string())
    };
    let mut options: Vec<i64> = (lo..=hi).filter(|&v| !taken(v)).collect();
    rng.shuffle(&mut options);
    options.into_iter().map(|v| v as f64).collect()
}

/// Every drawn segment: outlines (arcs as chords), inner sides and rays.
fn segments(p: &Problem) -> Vec<Seg> {
    p.diagram.drawn_segments(24)
}

fn dist_point_seg(q: [f64; 2], (a, b): Seg) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = (dx * dx + dy * dy).max(1e-12);
    let t = (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2).clamp(0.0, 1.0);
    (q[0] - a[0] - t * dx).hypot(q[1] - a[1] - t * dy)
}

fn dist_seg_seg(s: Seg, t: Seg) -> f64 {
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let (d1, d2) = (cross(t.0, t.1, s.0), cross(t.0, t.1, s.1));
    let (d3, d4) = (cross(s.0, s.1, t.0), cross(s.0, s.1, t.1));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0; // they cross
    }
    dist_point_seg(s.0, t)
        .min(dist_point_seg(s.1, t))
        .min(dist_point_seg(t.0, s))
        .min(dist_point_seg(t.1, s))
}

/// The two new corners of a rectangle of depth `depth` on `side`, outward from its
/// shape, if it overlaps and crowds nothing and stays inside `square`.
fn rectangle(p: &Problem, side: usize, depth: f64, square: [[f64; 2]; 2]) -> Option<[[f64; 2]; 2]> {
    let s = &p.diagram.sides[side];
    let (x, y) = (p.diagram.xy(s.points[0]), p.diagram.xy(s.points[1]));
    let (dx, dy) = (y[0] - x[0], y[1] - x[1]);
    let l = dx.hypot(dy);
    if l < 1e-9 {
        return None;
    }
    let n = [-dy / l, dx / l];
    let shape = &p.diagram.shapes[s.shapes[0]];
    let poly: Vec<[f64; 2]> = shape.vertices.iter().map(|&v| p.diagram.xy(v)).collect();
    let mid = [(x[0] + y[0]) / 2.0, (x[1] + y[1]) / 2.0];
    let probe = [mid[0] + n[0] * 1e-3 * l, mid[1] + n[1] * 1e-3 * l];
    let k = if crate::vec2::inside(&poly, probe) {
        -depth
    } else {
        depth
    };
    let z = [y[0] + n[0] * k, y[1] + n[1] * k];
    let w = [x[0] + n[0] * k, x[1] + n[1] * k];
    let [lo, hi] = square;
    let within = |q: [f64; 2]| (0..2).all(|i| lo[i] <= q[i] && q[i] <= hi[i]);
    if !(within(z) && within(w)) {
        return None;
    }
    let rect = [x, y, z, w];
    let room = 0.2 * l.min(depth);
    // No drawn point inside it or near its new edges.
    for (i, pt) in p.diagram.points.iter().enumerate() {
        if s.points.contains(&i) {
            continue;
        }
        let q = [pt.x, pt.y];
        if crate::vec2::inside(&rect, q)
            || [(y, z), (z, w), (w, x)]
                .iter()
                .any(|e| dist_point_seg(q, *e) < room)
        {
            return None;
        }
    }
    // Its new edges cross nothing and keep their distance. The two that start at
    // the side's ends meet the edges already there: only their part beyond the
    // first quarter is checked, against a smaller distance.
    let segs = segments(p);
    let part = |a: [f64; 2], b: [f64; 2]| {
        (
            [a[0] + (b[0] - a[0]) * 0.25, a[1] + (b[1] - a[1]) * 0.25],
            b,
        )
    };
    for (e, clear) in [
        (part(y, z), 0.5 * room),
        ((z, w), room),
        (part(x, w), 0.5 * room),
    ] {
        if segs.iter().any(|t| dist_seg_seg(e, *t) < clear) {
            return None;
        }
    }
    // Nothing drawn inside it (a shape enclosing it, or one it would cover).
    let centre = [(x[0] + z[0]) / 2.0, (x[1] + z[1]) / 2.0];
    for other in &p.diagram.shapes {
        let poly: Vec<[f64; 2]> = other.vertices.iter().map(|&v| p.diagram.xy(v)).collect();
        if poly.len() >= 3 && crate::vec2::inside(&poly, centre) {
            return None;
        }
    }
    Some([z, w])
}

/// Adds the rectangle x y z w on `side` (x, y its points): two points, three sides
/// (y–z given with `value`), the shape.
fn attach(p: &mut Problem, side: usize, value: f64, z: [f64; 2], w: [f64; 2], colour: &str) {
    let d = &mut p.diagram;
    let [xi, yi] = d.sides[side].points;
    let (zi, wi) = (d.points.len(), d.points.len() + 1);
    for (i, q) in [(zi, z), (wi, w)] {
        d.points.push(Point {
            name: text::point_name(i),
            x: q[0],
            y: q[1],
        });
    }
    let s = d.shapes.len();
    let start = [d.points[xi].x, d.points[xi].y];
    let corner = |i: usize, d: &crate::generate::problem::Diagram| [d.points[i].x, d.points[i].y];
    let outline = crate::generate::problem::Contour {
        start,
        segments: [yi, zi, wi, xi]
            .iter()
            .map(|&i| Segment::Line { to: corner(i, d) })
            .collect(),
    };
    d.shapes.push(Shape {
        kind: ShapeKind::Rectangle,
        name: Texts::default(),
        colour: colour.to_string(),
        vertices: vec![xi, yi, zi, wi],
        outline: vec![outline],
    });
    d.sides[side].shapes.push(s);
    let base = d.sides[side].value;
    for (pts, v, status) in [
        ([yi, zi], value, Status::Given),
        ([zi, wi], base, Status::Unused),
        ([wi, xi], value, Status::Unused),
    ] {
        d.sides.push(Side {
            points: pts,
            kind: SideKind::Edge,
            shapes: vec![s],
            value: v,
            name: Texts::default(),
            status,
            shown: false,
            expr: None,
            label: Labels::default(),
        });
    }
}
