//! Auxiliary lines (VisAidMath's visual aids, table 8): heights, radii and
//! diagonals drawn dashed into a diagram, either the ones the solution uses but
//! the diagram does not show, or the same kinds of line that it does not use.
//!
//! "Uses" is read from the reasoning: a shape whose area the solution computes
//! from two sides and an angle (parallelogram, triangle) or from its bases and
//! height (trapezoid) uses a height; a semicircle whose area or arc the solution
//! computes from its diameter uses a radius (half of it). Square and rectangle
//! diagonals the solution uses are already drawn, so they only ever appear as
//! unused lines.
//!
//! Unused lines (VisAidMath's aids include joining two drawn points): each shape
//! gets the first of a height it is not computed with (any triangle, parallelogram
//! or trapezoid), a radius of a semicircle the solution does not touch, a diagonal
//! between two of its vertices inside the polygon they make (any shape of four or
//! more vertices, composite ones too) when none is drawn, a median of a triangle that is
//! not also a height, or the chord of a sector's arc.

use crate::generate::formulas;
use crate::generate::problem::{AidKind, AuxLine, Problem, Segment, SideKind};
use serde::{Deserialize, Serialize};

/// Which auxiliary lines a diagram gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Aids {
    /// The lines the solution uses that the diagram does not show.
    Solution,
    /// Lines of the same kinds that the solution does not use.
    Unrelated,
}

/// Why a diagram gets no auxiliary line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AidsError {
    #[error(
        "the solution uses no line the diagram leaves out (no area from a height, no semicircle radius)"
    )]
    NoneUsed,
    #[error(
        "every height, radius or diagonal the diagram could get is one the solution uses, or none fits"
    )]
    NoneUnused,
}

/// The lines `aids` adds to `p`'s diagram (none is an error: no such variant).
pub(crate) fn aux_lines(p: &Problem, aids: Aids) -> Result<Vec<AuxLine>, AidsError> {
    let used_steps = || p.steps.iter().filter(|s| !s.distractor);
    // A step of `s` whose formula works with a height (its kind's `aux.height_formulas`).
    let uses_height =
        |s: usize| used_steps().any(|st| st.shape == Some(s) && works_with_height(&st.formula));
    let in_solution = |s: usize| used_steps().any(|st| st.shape == Some(s));
    let has_diagonal = |s: usize| {
        p.diagram
            .sides
            .iter()
            .any(|d| d.kind == SideKind::Diagonal && d.shapes.contains(&s))
    };
    let mut out = Vec::new();
    for (s, shape) in p.diagram.shapes.iter().enumerate() {
        // The lines its kind may get.
        let aux = &shape.kind.def().aux;
        let line = match aids {
            Aids::Solution => {
                if !aux.height_formulas.is_empty() && uses_height(s) {
                    height(p, s)
                } else if aux.radius && in_solution(s) {
                    radius(p, s)
                } else {
                    None
                }
            }
            Aids::Unrelated => (aux.height && !uses_height(s))
                .then(|| height(p, s))
                .flatten()
                .or_else(|| {
                    (aux.radius && !in_solution(s))
                        .then(|| radius(p, s))
                        .flatten()
                })
                .or_else(|| (!has_diagonal(s)).then(|| diagonal(p, s)).flatten())
                .or_else(|| aux.median.then(|| median(p, s)).flatten())
                .or_else(|| aux.chord.then(|| chord(p, s)).flatten()),
        };
        out.extend(line);
    }
    match (out.is_empty(), aids) {
        (true, Aids::Solution) => Err(AidsError::NoneUsed),
        (true, Aids::Unrelated) => Err(AidsError::NoneUnused),
        (false, _) => Ok(out),
    }
}

/// Whether the formula `id` works with a height of its shape.
fn works_with_height(id: &str) -> bool {
    formulas::by_id(id).is_some_and(|f| f.kind.def().aux.height_formulas.contains(&id))
}

/// The foot of `q` on the line through `a` and `b`, and where along `a`→`b` it is.
fn foot(q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> ([f64; 2], f64) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2.max(1e-12);
    ([a[0] + t * dx, a[1] + t * dy], t)
}

/// A height. A triangle's goes from the vertex opposite its longest side down to
/// it; a parallelogram's or trapezoid's runs between two parallel edges, dropped
/// onto the longer one from the middle of where they overlap (so its foot is well
/// inside the edge, whatever the slant).
fn height(p: &Problem, s: usize) -> Option<AuxLine> {
    let v = &p.diagram.shapes[s].vertices;
    let n = v.len();
    let edges: Vec<[usize; 2]> = (0..n).map(|k| [v[k], v[(k + 1) % n]]).collect();
    let len = |e: [usize; 2]| {
        let (a, b) = (p.diagram.xy(e[0]), p.diagram.xy(e[1]));
        (a[0] - b[0]).hypot(a[1] - b[1])
    };
    let line = |q: [f64; 2], f: [f64; 2], on: [usize; 2]| AuxLine {
        shape: s,
        kind: AidKind::Height,
        from: q,
        to: f,
        on,
    };
    if n == 3 {
        let base = *edges.iter().max_by(|x, y| len(**x).total_cmp(&len(**y)))?;
        let apex = *v.iter().find(|q| !base.contains(q))?;
        let (f, t) = foot(
            p.diagram.xy(apex),
            p.diagram.xy(base[0]),
            p.diagram.xy(base[1]),
        );
        return (t > 0.0 && t < 1.0).then(|| line(p.diagram.xy(apex), f, base));
    }
    if n != 4 {
        return None;
    }
    let mut pairs = vec![(edges[0], edges[2]), (edges[1], edges[3])];
    // The longer edge of each pair carries the foot.
    for pair in &mut pairs {
        if len(pair.1) > len(pair.0) {
            *pair = (pair.1, pair.0);
        }
    }
    for (base, top) in pairs {
        let (a, b) = (p.diagram.xy(base[0]), p.diagram.xy(base[1]));
        let (c, d) = (p.diagram.xy(top[0]), p.diagram.xy(top[1]));
        let cross = (b[0] - a[0]) * (d[1] - c[1]) - (b[1] - a[1]) * (d[0] - c[0]);
        if cross.abs() > 1e-6 * len(base) * len(top) {
            continue; // not parallel
        }
        let ((_, tc), (_, td)) = (foot(c, a, b), foot(d, a, b));
        let (lo, hi) = (tc.min(td).max(0.0), tc.max(td).min(1.0));
        if hi - lo < 0.1 {
            continue;
        }
        let t = (lo + hi) / 2.0;
        let f = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        // The point above `f` on the other edge's line.
        let (g, _) = foot(f, c, d);
        return Some(line(g, f, base));
    }
    None
}

/// A semicircle's radius perpendicular to its diameter, out to the arc.
fn radius(p: &Problem, s: usize) -> Option<AuxLine> {
    let shape = &p.diagram.shapes[s];
    let contour = shape.outline.first()?;
    let mut cur = contour.start;
    for seg in &contour.segments {
        match *seg {
            Segment::Line { to } => cur = to,
            Segment::Arc {
                to, center, radius, ..
            } => {
                // The arc's middle: the centre pushed out along the bisector of its ends.
                let mid = [(cur[0] + to[0]) / 2.0, (cur[1] + to[1]) / 2.0];
                let (dx, dy) = (to[0] - cur[0], to[1] - cur[1]);
                let len = dx.hypot(dy).max(1e-12);
                let normal = [-dy / len, dx / len];
                // A half circle's chord is the diameter: its middle is the centre.
                let c = if (mid[0] - center[0]).hypot(mid[1] - center[1]) < 1e-6 * radius.max(1.0) {
                    center
                } else {
                    return None;
                };
                // The side of the chord the arc bulges to: the outline's other points.
                let samples = crate::vec2::arc_points(cur, to, center, sweep_of(seg), 8, 1e-9);
                let probe = samples.get(samples.len() / 2).copied()?;
                let side = (probe[0] - c[0]) * normal[0] + (probe[1] - c[1]) * normal[1];
                let k = if side >= 0.0 { radius } else { -radius };
                let on = diameter_points(p, s)?;
                return Some(AuxLine {
                    shape: s,
                    kind: AidKind::Radius,
                    from: c,
                    to: [c[0] + k * normal[0], c[1] + k * normal[1]],
                    on,
                });
            }
        }
    }
    None
}

fn sweep_of(seg: &Segment) -> bool {
    match *seg {
        Segment::Arc { sweep, .. } => sweep,
        Segment::Line { .. } => false,
    }
}

/// The two points of a semicircle's diameter: its straight edge.
fn diameter_points(p: &Problem, s: usize) -> Option<[usize; 2]> {
    match p.diagram.shapes[s].vertices.as_slice() {
        [a, b, ..] => Some([*a, *b]),
        _ => None,
    }
}

/// A diagonal: the first pair of non-adjacent vertices (in vertex order) whose
/// segment lies inside the polygon of the shape's vertices and on no drawn line;
/// none for a shape of fewer than four vertices.
fn diagonal(p: &Problem, s: usize) -> Option<AuxLine> {
    let v = &p.diagram.shapes[s].vertices;
    let n = v.len();
    if n < 4 {
        return None;
    }
    // Inside the polygon of its vertices: a square with a circle cut out still has
    // its diagonal (across the hole), a rectangle with a bulge its own.
    let poly: Vec<[f64; 2]> = v.iter().map(|&k| p.diagram.xy(k)).collect();
    let drawn = p.diagram.drawn_segments(72);
    for i in 0..n {
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue; // adjacent around the shape
            }
            let (a, b) = (p.diagram.xy(v[i]), p.diagram.xy(v[j]));
            if inside_shape(&poly, a, b) && !on_drawn(&drawn, a, b) {
                return Some(AuxLine {
                    shape: s,
                    kind: AidKind::Diagonal,
                    from: a,
                    to: b,
                    on: [v[i], v[j]],
                });
            }
        }
    }
    None
}

/// A triangle's median that is not also a height: from the vertex opposite its
/// shortest side (then the others) to that side's middle.
fn median(p: &Problem, s: usize) -> Option<AuxLine> {
    let v = &p.diagram.shapes[s].vertices;
    if v.len() != 3 {
        return None;
    }
    let mut sides: Vec<(usize, [usize; 2])> = (0..3)
        .map(|k| (v[k], [v[(k + 1) % 3], v[(k + 2) % 3]]))
        .collect();
    let len = |e: [usize; 2]| {
        let (a, b) = (p.diagram.xy(e[0]), p.diagram.xy(e[1]));
        (a[0] - b[0]).hypot(a[1] - b[1])
    };
    sides.sort_by(|x, y| len(x.1).total_cmp(&len(y.1)));
    sides.into_iter().find_map(|(apex, e)| {
        let (q, a, b) = (p.diagram.xy(apex), p.diagram.xy(e[0]), p.diagram.xy(e[1]));
        let m = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        let (u, w) = ([m[0] - q[0], m[1] - q[1]], [b[0] - a[0], b[1] - a[1]]);
        let cos = (u[0] * w[0] + u[1] * w[1]) / (u[0].hypot(u[1]) * w[0].hypot(w[1])).max(1e-12);
        // Perpendicular: it is a height of the shape, which the solution may use.
        (cos.abs() > 0.05).then_some(AuxLine {
            shape: s,
            kind: AidKind::Median,
            from: q,
            to: m,
            on: e,
        })
    })
}

/// The chord of a sector's arc: between its two arc ends (the vertices other than
/// the centre, which is the first).
fn chord(p: &Problem, s: usize) -> Option<AuxLine> {
    match p.diagram.shapes[s].vertices.as_slice() {
        [_, a, b] => Some(AuxLine {
            shape: s,
            kind: AidKind::Chord,
            from: p.diagram.xy(*a),
            to: p.diagram.xy(*b),
            on: [*a, *b],
        }),
        _ => None,
    }
}

/// Whether the open segment a–b lies inside `poly`: points along it, short of its
/// ends, all inside.
fn inside_shape(poly: &[[f64; 2]], a: [f64; 2], b: [f64; 2]) -> bool {
    (1..20).all(|k| {
        let t = f64::from(k) / 20.0;
        crate::vec2::inside(poly, [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])])
    })
}

/// Whether a–b runs along a drawn segment (both ends on its line, within it).
fn on_drawn(drawn: &[([f64; 2], [f64; 2])], a: [f64; 2], b: [f64; 2]) -> bool {
    let near = |q: [f64; 2], (s, e): ([f64; 2], [f64; 2])| {
        let (f, t) = foot(q, s, e);
        (-1e-9..=1.0 + 1e-9).contains(&t) && (f[0] - q[0]).hypot(f[1] - q[1]) < 1e-6
    };
    drawn.iter().any(|&seg| near(a, seg) && near(b, seg))
}
