//! Counting: how many labelled points, triangles or quadrilaterals the figure shows.
//!
//! The labelled points are the letters drawn. Triangles and quadrilaterals are
//! counted from the shape tree (the problem's shapes of those kinds), and asked only
//! where the picture shows exactly those: every outline corner is a named point,
//! no two drawn lines cross, no named point sits inside a line it does not end, no
//! two lines continue one another, there is no auxiliary line, and the triangles
//! (3-cycles) and simple quadrilaterals (4-cycles) of the drawn lines number what the
//! tree says. The answer is a number (no options).

use super::{Answers, Candidate, KindDef, ProbeKind, Texts};
use crate::compose::Grounding;
use crate::generate::ShapeKind;

pub(super) const COUNTING: KindDef = KindDef {
    kind: ProbeKind::Counting,
    name: "counting",
    asks: "how many labelled points, triangles or quadrilaterals the figure shows",
    answers: Answers::Options,
    candidates: counting,
    texts: |_, c| {
        let (what, question) = COUNTS[c.about[0]];
        let n = c.count.unwrap_or_default();
        Texts {
            elements: vec![what.to_string()],
            question: question.to_string(),
            options: Vec::new(),
            why: match (what, n) {
                ("points", _) => format!("{n} letters are drawn at points"),
                (_, 1) => format!(
                    "the shapes drawn include 1 {}, and the lines form no other",
                    what.trim_end_matches('s')
                ),
                _ => format!("the shapes drawn include {n} {what}, and the lines form no other"),
            },
        }
    },
};

/// What a count counts, and how it asks.
const COUNTS: [(&str, &str); 3] = [
    (
        "points",
        "How many points are labelled with a letter in the figure?",
    ),
    ("triangles", "How many triangles are there in the figure?"),
    (
        "quadrilaterals",
        "How many quadrilaterals are there in the figure?",
    ),
];

/// A count of `COUNTS[what]`.
fn count(what: usize, n: usize) -> Candidate {
    Candidate {
        about: [what, 0, 0],
        correct: 0,
        measure: [0.0; 2],
        count: Some(n as u32),
        sig: 0,
    }
}

fn counting(g: &Grounding) -> Vec<Candidate> {
    let mut out = Vec::new();
    let letters = g.points.iter().filter(|p| p.labelled).count();
    if letters > 0 {
        out.push(count(0, letters));
    }
    if !plain(g) {
        return out;
    }
    let adj = adjacency(g);
    let tree = |kinds: &[ShapeKind]| g.shapes.iter().filter(|s| kinds.contains(&s.kind)).count();
    let triangles = tree(&[
        ShapeKind::Triangle,
        ShapeKind::RightTriangle,
        ShapeKind::EquilateralTriangle,
    ]);
    if triangles > 0 && triangles == three_cycles(g, &adj) {
        out.push(count(1, triangles));
    }
    let quads = tree(&[
        ShapeKind::Square,
        ShapeKind::Rectangle,
        ShapeKind::Parallelogram,
        ShapeKind::Trapezoid,
    ]);
    if quads > 0 && quads == four_cycles(g, &adj) {
        out.push(count(2, quads));
    }
    out
}

fn cross(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Whether three points are on one line (within 1.5 px of the line through two).
fn collinear(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    let l = (b[0] - a[0]).hypot(b[1] - a[1]).max(1e-9);
    cross(a, b, c).abs() / l < 1.5
}

/// Whether segments `ab` and `cd` cross at a point inside both.
fn crosses(a: [f64; 2], b: [f64; 2], c: [f64; 2], d: [f64; 2]) -> bool {
    let (d1, d2) = (cross(a, b, c), cross(a, b, d));
    let (d3, d4) = (cross(c, d, a), cross(c, d, b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// The picture is made of named corners and straight lines that meet only at ends.
fn plain(g: &Grounding) -> bool {
    if !g.corners_named || !g.aux.is_empty() {
        return false;
    }
    let at = |i: usize| g.points[i].at;
    for (i, l) in g.lines.iter().enumerate() {
        let (a, b) = (at(l.ends[0]), at(l.ends[1]));
        // A named point inside a line it does not end.
        for (k, p) in g.points.iter().enumerate() {
            if l.ends.contains(&k) {
                continue;
            }
            let len2 = (b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2);
            let t = ((p.at[0] - a[0]) * (b[0] - a[0]) + (p.at[1] - a[1]) * (b[1] - a[1])) / len2;
            if (0.0..=1.0).contains(&t) && collinear(a, b, p.at) {
                return false;
            }
        }
        for m in &g.lines[i + 1..] {
            let (c, d) = (at(m.ends[0]), at(m.ends[1]));
            if crosses(a, b, c, d) {
                return false;
            }
            // Two lines from one point along one direction read as one line.
            let shared = l.ends.iter().find(|e| m.ends.contains(e));
            if let Some(&s) = shared {
                let o = |x: &[usize; 2]| if x[0] == s { x[1] } else { x[0] };
                if collinear(at(s), at(o(&l.ends)), at(o(&m.ends))) {
                    return false;
                }
            }
        }
    }
    true
}

fn adjacency(g: &Grounding) -> Vec<Vec<bool>> {
    let n = g.points.len();
    let mut adj = vec![vec![false; n]; n];
    for l in &g.lines {
        adj[l.ends[0]][l.ends[1]] = true;
        adj[l.ends[1]][l.ends[0]] = true;
    }
    adj
}

fn three_cycles(g: &Grounding, adj: &[Vec<bool>]) -> usize {
    let n = adj.len();
    let at = |i: usize| g.points[i].at;
    let mut k = 0;
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                if adj[a][b] && adj[b][c] && adj[a][c] && !collinear(at(a), at(b), at(c)) {
                    k += 1;
                }
            }
        }
    }
    k
}

/// Simple quadrilaterals a-b-c-d-a of drawn lines, each counted once (`a` the
/// smallest index, `b < d`), with no three consecutive corners on a line.
fn four_cycles(g: &Grounding, adj: &[Vec<bool>]) -> usize {
    let n = adj.len();
    let at = |i: usize| g.points[i].at;
    let mut k = 0;
    for a in 0..n {
        for b in a + 1..n {
            for c in a + 1..n {
                for d in b + 1..n {
                    if c == b || c == d || !(adj[a][b] && adj[b][c] && adj[c][d] && adj[d][a]) {
                        continue;
                    }
                    let q = [at(a), at(b), at(c), at(d)];
                    let straight = (0..4).any(|i| collinear(q[i], q[(i + 1) % 4], q[(i + 2) % 4]));
                    let twisted =
                        crosses(q[0], q[1], q[2], q[3]) || crosses(q[1], q[2], q[3], q[0]);
                    if !straight && !twisted {
                        k += 1;
                    }
                }
            }
        }
    }
    k
}
