//! Turns a placed tree into the Problem's diagram and steps (values and statuses; names,
//! labels and texts are filled in by `text`).

use super::algorithm::{Node, Tree};
use super::expr::round2;
use super::formulas::Formula;
use super::geom;
use super::place::{Elem, GSeg, Placed};
use super::problem::{
    Angle, Binding, Contour, Diagram, ElementRef, Labels, Measure, MeasureKind, Point, Ray,
    Segment, Shape, Side, SideKind, Status, Step, Texts, VarTerm, Variable,
};
use super::rng::Rng;
use super::shapes::{self, Role};
use crate::vec2;
use std::collections::HashMap;

/// Diagram and steps from a placed tree.
pub(crate) fn build(tree: &Tree, placed: &Placed, rng: &mut Rng) -> (Diagram, Vec<Step>) {
    let mut b = Builder {
        d: Diagram::default(),
        sides: HashMap::new(),
        angles: HashMap::new(),
        measures: HashMap::new(),
    };
    let flip = |p: geom::P| [snap(p[0]), snap(-p[1])];
    b.d.points = placed
        .points
        .iter()
        .map(|&p| Point {
            name: String::new(),
            x: flip(p)[0],
            y: flip(p)[1],
        })
        .collect();
    let mut colours = super::colours::COLOURS.to_vec();
    rng.shuffle(&mut colours);
    // Names and fills that can be told apart (`colours::pick`).
    let colours = super::colours::pick(&colours, placed.shapes.len());
    for (i, s) in placed.shapes.iter().enumerate() {
        let kind = tree.nodes[s.node].kind();
        let outline = s
            .contours
            .iter()
            .map(|c| Contour {
                start: flip(c.start),
                segments: contour_segments(c.start, &c.segs),
            })
            .collect();
        b.d.shapes.push(Shape {
            kind,
            name: Texts::default(),
            colour: colours[i].to_string(),
            vertices: s.vertices.clone(),
            outline,
        });
        for group in shapes::edges(kind) {
            for &(x, y) in *group {
                b.side(s.vertices[x], s.vertices[y], SideKind::Edge, i);
            }
        }
    }
    b.d.rays = placed
        .rays
        .iter()
        .map(|&(a, c)| Ray { points: [a, c] })
        .collect();
    b.d.right_angles = placed.right_angles.clone();
    let steps = b.steps(tree, placed);
    (b.d, steps)
}

/// Coordinates are kept to 1e-6 diagram units: far below any visible size, and short
/// enough that every JSON reader gets the same float back.
fn snap(v: f64) -> f64 {
    let r = (v * 1e6).round() / 1e6;
    if r == 0.0 { 0.0 } else { r }
}

/// Converts y-up arcs to y-down SVG flags.
fn contour_segments(start: geom::P, segs: &[GSeg]) -> Vec<Segment> {
    let mut cur = start;
    segs.iter()
        .map(|s| match *s {
            GSeg::Line(to) => {
                cur = to;
                Segment::Line {
                    to: [snap(to[0]), snap(-to[1])],
                }
            }
            GSeg::Arc { to, center, ccw } => {
                let a0 = (cur[1] - center[1]).atan2(cur[0] - center[0]);
                let a1 = (to[1] - center[1]).atan2(to[0] - center[0]);
                let tau = std::f64::consts::TAU;
                let mut sweep = if ccw { a1 - a0 } else { a0 - a1 };
                while sweep <= 1e-9 {
                    sweep += tau;
                }
                cur = to;
                Segment::Arc {
                    to: [snap(to[0]), snap(-to[1])],
                    center: [snap(center[0]), snap(-center[1])],
                    radius: snap(vec2::dist(to, center)),
                    large_arc: sweep > std::f64::consts::PI + 1e-9,
                    // Negating y keeps the picture as drawn with y up, so counter-clockwise
                    // stays counter-clockwise on screen, which is SVG's sweep 0.
                    sweep: !ccw,
                }
            }
        })
        .collect()
}

struct Builder {
    d: Diagram,
    sides: HashMap<(usize, usize), usize>,
    angles: HashMap<(usize, usize, usize), usize>,
    measures: HashMap<(usize, MeasureKind), usize>,
}

impl Builder {
    fn side(&mut self, a: usize, b: usize, kind: SideKind, shape: usize) -> usize {
        let key = (a.min(b), a.max(b));
        if let Some(&i) = self.sides.get(&key) {
            if !self.d.sides[i].shapes.contains(&shape) {
                self.d.sides[i].shapes.push(shape);
            }
            return i;
        }
        let (p, q) = (&self.d.points[a], &self.d.points[b]);
        let value = round2((p.x - q.x).hypot(p.y - q.y));
        self.d.sides.push(Side {
            points: [a, b],
            kind,
            shapes: vec![shape],
            value,
            name: Texts::default(),
            status: Status::Unused,
            shown: false,
            expr: None,
            label: Labels::default(),
        });
        self.sides.insert(key, self.d.sides.len() - 1);
        self.d.sides.len() - 1
    }

    fn angle(&mut self, a: usize, v: usize, b: usize, shape: Option<usize>) -> usize {
        let key = (v, a.min(b), a.max(b));
        if let Some(&i) = self.angles.get(&key) {
            if self.d.angles[i].shape.is_none() {
                self.d.angles[i].shape = shape;
            }
            return i;
        }
        self.d.angles.push(Angle {
            points: [a, v, b],
            shape,
            value: 0.0,
            name: Texts::default(),
            status: Status::Unused,
            shown: false,
            expr: None,
            label: Labels::default(),
        });
        self.angles.insert(key, self.d.angles.len() - 1);
        self.d.angles.len() - 1
    }

    fn measure(&mut self, shape: usize, kind: MeasureKind) -> usize {
        if let Some(&i) = self.measures.get(&(shape, kind)) {
            return i;
        }
        self.d.measures.push(Measure {
            shape,
            kind,
            value: 0.0,
            status: Status::Unused,
            expr: None,
            label: Labels::default(),
        });
        self.measures
            .insert((shape, kind), self.d.measures.len() - 1);
        self.d.measures.len() - 1
    }

    fn element(&mut self, placed: &Placed, node: usize, role: Role) -> ElementRef {
        let shape = placed.node_shape[node];
        let elem = placed.elements[node]
            .iter()
            .find(|(r, _)| *r == role)
            .map_or(Elem::Whole, |(_, e)| *e);
        match (elem, role) {
            (Elem::Seg(a, b), _) => {
                let kind = match role {
                    Role::Diagonal => SideKind::Diagonal,
                    Role::Diameter => SideKind::Diameter,
                    _ => SideKind::Edge,
                };
                ElementRef::Side(self.side(a, b, kind, shape.unwrap_or(0)))
            }
            (Elem::Angle(a, v, b), _) => ElementRef::Angle(self.angle(a, v, b, shape)),
            (Elem::Whole, r) => {
                let kind = match r {
                    Role::Area => MeasureKind::Area,
                    Role::Perimeter => MeasureKind::Perimeter,
                    Role::ArcLength => MeasureKind::ArcLength,
                    _ => MeasureKind::Height,
                };
                ElementRef::Measure(self.measure(shape.unwrap_or(0), kind))
            }
        }
    }

    fn set(&mut self, e: ElementRef, value: f64, status: Status, expr: Option<String>) {
        let (v, s, x) = match e {
            ElementRef::Side(i) => {
                let s = &mut self.d.sides[i];
                (&mut s.value, &mut s.status, &mut s.expr)
            }
            ElementRef::Angle(i) => {
                let s = &mut self.d.angles[i];
                (&mut s.value, &mut s.status, &mut s.expr)
            }
            ElementRef::Measure(i) => {
                let s = &mut self.d.measures[i];
                (&mut s.value, &mut s.status, &mut s.expr)
            }
        };
        *v = value;
        // Asked and derived win over given: a shared element is given only when revealed.
        let rank = |s: Status| match s {
            Status::Unused => 0,
            Status::Given => 1,
            Status::Derived => 2,
            Status::Asked => 3,
        };
        if rank(status) > rank(*s) {
            *s = status;
        }
        if expr.is_some() {
            *x = expr;
        }
    }

    /// Steps in solution order (children before parents), with element values and statuses.
    fn steps(&mut self, tree: &Tree, placed: &Placed) -> Vec<Step> {
        let mut order = Vec::new();
        post_order(tree, 0, false, &mut order);
        let mut steps = Vec::new();
        for (id, distractor) in order {
            let node = &tree.nodes[id];
            let f: &Formula = node.formula;
            let var_terms = |role: Role| {
                node.variable
                    .as_ref()
                    .and_then(|v| v.terms.iter().find(|t| t.0 == role).map(|t| (t.1, t.2)))
            };
            let mut inputs = Vec::new();
            for &(role, value) in &node.inputs {
                let e = self.element(placed, id, role);
                let child = node
                    .children
                    .iter()
                    .find(|(r, _)| *r == role)
                    .map(|&(_, c)| c);
                let expr = var_terms(role).map(|(a, b)| linear_text(a, b));
                let status = match child {
                    Some(c) if !tree.nodes[c].revealed => Status::Derived,
                    _ => Status::Given,
                };
                self.set(e, value, status, expr);
                inputs.push(Binding {
                    role,
                    element: e,
                    value,
                });
            }
            let out = self.element(placed, id, f.output);
            let status = if id == 0 {
                Status::Asked
            } else if node.revealed {
                Status::Given
            } else {
                Status::Derived
            };
            self.set(
                out,
                node.output,
                status,
                var_terms(f.output).map(|(a, b)| linear_text(a, b)),
            );
            let variable = node.variable.as_ref().map(|v| Variable {
                x: v.x as f64,
                terms: v
                    .terms
                    .iter()
                    .map(|&(role, a, b)| VarTerm {
                        element: if role == f.output {
                            out
                        } else {
                            inputs
                                .iter()
                                .find(|x| x.role == role)
                                .map_or(out, |x| x.element)
                        },
                        a,
                        b,
                    })
                    .collect(),
            });
            steps.push(Step {
                formula: f.id.to_string(),
                kind: f.kind,
                shape: placed.node_shape[id],
                inputs,
                output: Binding {
                    role: f.output,
                    element: out,
                    value: node.output,
                },
                variable,
                distractor,
            });
        }
        steps
    }
}

/// Children first; a revealed node and everything under it only distracts.
fn post_order(tree: &Tree, id: usize, distract: bool, out: &mut Vec<(usize, bool)>) {
    let node: &Node = &tree.nodes[id];
    let distract = distract || (node.revealed && id != 0);
    for &(_, c) in &node.children {
        post_order(tree, c, distract, out);
    }
    out.push((id, distract));
}

/// `a·x + b` as written in texts: "2x + 3", "x - 4", "3x".
pub(super) fn linear_text(a: i64, b: i64) -> String {
    let ax = if a == 1 {
        "x".to_string()
    } else {
        format!("{a}x")
    };
    match b {
        0 => ax,
        b if b > 0 => format!("{ax} + {b}"),
        b => format!("{ax} - {}", -b),
    }
}
