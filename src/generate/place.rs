//! Drawing the tree to scale: each child shape is attached outward on the element it
//! shares with its parent, and a placement that overlaps anything already drawn is
//! rejected (the next candidate edge, orientation or connector variant is tried).
//!
//! Sides: the child's shared edge is laid on the parent's edge with the child on the far
//! side. Angles: a connector adds straight lines at the parent's vertex (a side extended
//! for a supplementary angle, a perpendicular for a complementary one, both sides extended
//! for vertical angles); a shape that derives the angle sits in the vertical angle.

use super::algorithm::Tree;
use super::geom::{self, P, Xf};
use super::rng::Rng;
use super::shapes::{self, End, LocalGeometry, Ray, Role, Seg, ShapeKind};
use crate::vec2;

/// A concrete diagram element of a node's role (global point indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    Seg(usize, usize),
    Angle(usize, usize, usize),
    /// A value of the whole shape (area, perimeter, arc length, height).
    Whole,
}

/// Outline piece in global (y-up) units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GSeg {
    Line(P),
    Arc { to: P, center: P, ccw: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GContour {
    pub start: P,
    pub segs: Vec<GSeg>,
}

/// One drawn shape.
#[derive(Clone, Debug)]
pub(crate) struct PlacedShape {
    pub node: usize,
    pub vertices: Vec<usize>,
    pub contours: Vec<GContour>,
    /// The outer outline, arcs flattened.
    pub poly: Vec<P>,
}

/// The tree drawn in the plane (y up, diagram units).
#[derive(Clone, Debug, Default)]
pub(crate) struct Placed {
    pub points: Vec<P>,
    pub shapes: Vec<PlacedShape>,
    pub node_shape: Vec<Option<usize>>,
    /// Per node: each formula role bound to its concrete element.
    pub elements: Vec<Vec<(Role, Elem)>>,
    pub rays: Vec<(usize, usize)>,
    pub right_angles: Vec<[usize; 3]>,
}

/// A way to draw a connector: its new points, the new angle's end points (`None` = the
/// next new point) and, for a complementary angle, the end of the right angle's first ray.
type Variant = (Vec<P>, [Option<usize>; 2], Option<usize>);

/// Segments per full turn when flattening arcs for the overlap test.
const ARC_STEPS: usize = 48;

struct St<'a> {
    tree: &'a Tree,
    rng: &'a mut Rng,
    out: Placed,
    /// Node → its local vertex index → global point.
    local: Vec<Vec<usize>>,
    used_edges: Vec<Vec<(usize, usize)>>,
    used_vertices: Vec<Vec<usize>>,
    tol: f64,
}

/// Places every node; `None` when some child fits nowhere.
pub(crate) fn place(tree: &Tree, rng: &mut Rng) -> Option<Placed> {
    let n = tree.nodes.len();
    let mut st = St {
        tree,
        rng,
        out: Placed {
            node_shape: vec![None; n],
            elements: vec![Vec::new(); n],
            ..Placed::default()
        },
        local: vec![Vec::new(); n],
        used_edges: vec![Vec::new(); n],
        used_vertices: vec![Vec::new(); n],
        tol: 1e-3,
    };
    let root = &tree.nodes[0];
    let g = shapes::local_geometry(root.kind(), &root.params);
    let turn = st.rng.index(4) as f64 * std::f64::consts::FRAC_PI_2;
    let (c, s) = (turn.cos(), turn.sin());
    let xf = Xf {
        m: [[c, -s], [s, c]],
        t: [0.0, 0.0],
    };
    let (verts, contours, poly) = transform(&g, &xf);
    st.commit_shape(0, &g, verts, contours, poly, &[]);
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(id) = queue.pop_front() {
        let node = &tree.nodes[id];
        for &(role, child) in &node.children {
            match role {
                Role::Edge(g) => st.attach_edge(id, g as usize, child)?,
                Role::Angle(g) => st.attach_connector(id, g as usize, child)?,
                _ => return None,
            }
            let child_node = &tree.nodes[child];
            if child_node.kind().is_connector() {
                queue.extend(child_node.children.iter().map(|&(_, c)| c));
            } else {
                queue.push_back(child);
            }
        }
    }
    st.bind_remaining_roles();
    st.readable().then_some(st.out)
}

fn flatten(c: &GContour) -> Vec<P> {
    let mut pts = vec![c.start];
    let mut cur = c.start;
    for s in &c.segs {
        match *s {
            GSeg::Line(to) => {
                pts.push(to);
                cur = to;
            }
            GSeg::Arc { to, center, ccw } => {
                pts.extend(geom::arc_points(cur, to, center, ccw, ARC_STEPS));
                cur = to;
            }
        }
    }
    // The contour closes on its start: drop the repeated point.
    if pts.len() > 1 && vec2::dist(pts[0], *pts.last().unwrap_or(&pts[0])) < 1e-9 {
        pts.pop();
    }
    pts
}

/// Local geometry through a transform: vertices, contours, flattened outer outline.
fn transform(g: &LocalGeometry, xf: &Xf) -> (Vec<P>, Vec<GContour>, Vec<P>) {
    let flip = xf.mirrors();
    let verts: Vec<P> = g.vertices.iter().map(|&v| xf.apply(v)).collect();
    let contours: Vec<GContour> = g
        .contours
        .iter()
        .map(|c| GContour {
            start: xf.apply(c.start),
            segs: c
                .segs
                .iter()
                .map(|s| match *s {
                    Seg::Line(to) => GSeg::Line(xf.apply(to)),
                    Seg::Arc { to, center, ccw } => GSeg::Arc {
                        to: xf.apply(to),
                        center: xf.apply(center),
                        ccw: ccw != flip,
                    },
                })
                .collect(),
        })
        .collect();
    let poly = contours.first().map(flatten).unwrap_or_default();
    (verts, contours, poly)
}

/// +1 / −1: on which side of the directed line `ab` the polygon's inside lies, at `ab`.
fn inside_side(poly: &[P], a: P, b: P) -> f64 {
    let m = vec2::scale(vec2::add(a, b), 0.5);
    let n = vec2::unit_or(vec2::perp(vec2::sub(b, a)), geom::PLUS_X);
    let d = vec2::dist(a, b) * 1e-3;
    if geom::inside(poly, vec2::add(m, vec2::scale(n, d))) {
        1.0
    } else if geom::inside(poly, vec2::sub(m, vec2::scale(n, d))) {
        -1.0
    } else {
        0.0
    }
}

/// The perpendicular to `u` on the side of `toward`.
fn turn(u: P, toward: P) -> P {
    let p = vec2::perp(u);
    if vec2::cross(u, toward) >= 0.0 {
        p
    } else {
        vec2::scale(p, -1.0)
    }
}

impl St<'_> {
    fn params(&self, node: usize) -> &[f64] {
        &self.tree.nodes[node].params
    }

    fn kind(&self, node: usize) -> ShapeKind {
        self.tree.nodes[node].kind()
    }

    /// Whether a new outline overlaps nothing drawn so far (shapes and connector lines).
    fn free(&self, poly: &[P]) -> bool {
        let tol = self.tol;
        self.out
            .shapes
            .iter()
            .all(|s| !geom::overlaps(&s.poly, poly, tol))
            && self.out.rays.iter().all(|&(a, b)| {
                !geom::segment_enters(poly, self.out.points[a], self.out.points[b], tol)
            })
    }

    /// Whether a new straight line crosses no shape.
    fn ray_free(&self, a: P, b: P) -> bool {
        self.out
            .shapes
            .iter()
            .all(|s| !geom::segment_enters(&s.poly, a, b, self.tol))
    }

    fn add_point(&mut self, p: P) -> usize {
        self.out.points.push(p);
        self.out.points.len() - 1
    }

    /// Records a shape; `fixed` maps local vertices onto existing points.
    fn commit_shape(
        &mut self,
        node: usize,
        g: &LocalGeometry,
        verts: Vec<P>,
        contours: Vec<GContour>,
        poly: Vec<P>,
        fixed: &[(usize, usize)],
    ) {
        let ids: Vec<usize> = verts
            .iter()
            .enumerate()
            .map(|(i, &p)| match fixed.iter().find(|(l, _)| *l == i) {
                Some(&(_, gid)) => gid,
                None => self.add_point(p),
            })
            .collect();
        for r in &g.right_angles {
            self.out
                .right_angles
                .push([ids[r[0]], ids[r[1]], ids[r[2]]]);
        }
        self.local[node] = ids.clone();
        self.out.node_shape[node] = Some(self.out.shapes.len());
        self.out.shapes.push(PlacedShape {
            node,
            vertices: ids,
            contours,
            poly,
        });
    }

    fn attach_edge(&mut self, parent: usize, group: usize, child: usize) -> Option<()> {
        let pk = self.kind(parent);
        let ck = self.kind(child);
        let Role::Edge(h) = self.tree.nodes[child].formula.output else {
            return None;
        };
        let mut pcands: Vec<(usize, usize)> = shapes::edges(pk)
            .get(group)?
            .iter()
            .copied()
            .filter(|e| !self.used_edges[parent].contains(e))
            .collect();
        self.rng.shuffle(&mut pcands);
        let mut ccands: Vec<(usize, usize)> = shapes::edges(ck).get(h as usize)?.to_vec();
        self.rng.shuffle(&mut ccands);
        let g = shapes::local_geometry(ck, self.params(child));
        let ppoly = self.out.shapes[self.out.node_shape[parent]?].poly.clone();
        for &pe in &pcands {
            let (ga, gb) = (self.local[parent][pe.0], self.local[parent][pe.1]);
            let (a, b) = (self.out.points[ga], self.out.points[gb]);
            let parent_side = inside_side(&ppoly, a, b);
            for &ce in &ccands {
                // Child edge p→q onto b→a; mirror if the child would land on the parent's side.
                let mut xf = Xf::matching(g.vertices[ce.0], g.vertices[ce.1], b, a);
                let (_, _, poly) = transform(&g, &xf);
                if inside_side(&poly, a, b) == parent_side {
                    xf = xf.then_reflect(a, b);
                }
                let (verts, contours, poly) = transform(&g, &xf);
                if inside_side(&poly, a, b) != -parent_side || !self.free(&poly) {
                    continue;
                }
                self.commit_shape(child, &g, verts, contours, poly, &[(ce.0, gb), (ce.1, ga)]);
                self.used_edges[parent].push(pe);
                self.used_edges[child].push(ce);
                self.out.elements[parent].push((Role::Edge(group as u8), Elem::Seg(ga, gb)));
                self.out.elements[child].push((Role::Edge(h), Elem::Seg(gb, ga)));
                return Some(());
            }
        }
        None
    }

    fn attach_connector(&mut self, parent: usize, group: usize, conn: usize) -> Option<()> {
        let pk = self.kind(parent);
        let ck = self.kind(conn);
        let mut cands: Vec<(usize, usize, usize)> = shapes::angles(pk)
            .get(group)?
            .iter()
            .copied()
            .filter(|a| !self.used_vertices[parent].contains(&a.1))
            .collect();
        self.rng.shuffle(&mut cands);
        let grandchild = self.tree.nodes[conn].children.first().map(|&(_, c)| c);
        for (ia, iv, ib) in cands {
            let l = &self.local[parent];
            let (ga, gv, gb) = (l[ia], l[iv], l[ib]);
            let pts = &self.out.points;
            let (pa, v, pb) = (pts[ga], pts[gv], pts[gb]);
            let (ua, ub) = (
                vec2::unit_or(vec2::sub(pa, v), geom::PLUS_X),
                vec2::unit_or(vec2::sub(pb, v), geom::PLUS_X),
            );
            let len = 0.6 * vec2::dist(pa, v).min(vec2::dist(pb, v));
            let parent_angle = Elem::Angle(ga, gv, gb);
            if let Some(gc) = grandchild {
                // Only vertical angles carry a shape: it fills the opposite angle.
                let neg = |u: P| vec2::scale(u, -1.0);
                if let Some(tri) = self.place_in_cone(gc, gv, neg(ua), neg(ub)) {
                    self.finish_connector(
                        parent,
                        group,
                        iv,
                        conn,
                        parent_angle,
                        Elem::Angle(tri[0], tri[1], tri[2]),
                    );
                    return Some(());
                }
                continue;
            }
            let at = |u: P, s: f64| vec2::add(v, vec2::scale(u, s * len));
            let connector = ck.def().connector()?;
            // (new points, new angle from them: (first, vertex, second), right angle corner).
            let mut variants: Vec<Variant> = (connector.rays.iter())
                .map(|r| {
                    let end = |e: End| match e {
                        End::A => (ua, ub, ga),
                        End::B => (ub, ua, gb),
                    };
                    let point = |ray: &Ray| match *ray {
                        Ray::Back(e) => at(end(e).0, -1.0),
                        Ray::Turn(e) => {
                            let (u, toward, _) = end(e);
                            at(turn(u, toward), 1.0)
                        }
                    };
                    let ends = r.ends.map(|e| e.map(|e| end(e).2));
                    (
                        r.new.iter().map(point).collect(),
                        ends,
                        r.right.map(|e| end(e).2),
                    )
                })
                .collect();
            self.rng.shuffle(&mut variants);
            for (new_pts, slots, right) in variants {
                if !new_pts.iter().all(|&q| self.ray_free(v, q)) {
                    continue;
                }
                let ids: Vec<usize> = new_pts.iter().map(|&q| self.add_point(q)).collect();
                for &q in &ids {
                    self.out.rays.push((gv, q));
                }
                let mut fresh = ids.iter().copied();
                let first = slots[0].or_else(|| fresh.next())?;
                let second = slots[1].or_else(|| fresh.next())?;
                if let Some(corner_from) = right {
                    self.out.right_angles.push([corner_from, gv, ids[0]]);
                }
                self.finish_connector(
                    parent,
                    group,
                    iv,
                    conn,
                    parent_angle,
                    Elem::Angle(first, gv, second),
                );
                return Some(());
            }
        }
        None
    }

    fn finish_connector(
        &mut self,
        parent: usize,
        group: usize,
        vertex: usize,
        conn: usize,
        parent_angle: Elem,
        new_angle: Elem,
    ) {
        self.used_vertices[parent].push(vertex);
        self.out.elements[parent].push((Role::Angle(group as u8), parent_angle));
        self.out.elements[conn].push((Role::Angle(1), parent_angle));
        self.out.elements[conn].push((Role::Angle(0), new_angle));
    }

    /// Places `node` so that its output angle fills the angle at point `v` between the
    /// directions `d1` and `d2`.
    fn place_in_cone(&mut self, node: usize, v: usize, d1: P, d2: P) -> Option<[usize; 3]> {
        let k = self.kind(node);
        let Role::Angle(h) = self.tree.nodes[node].formula.output else {
            return None;
        };
        let mut cands = shapes::angles(k).get(h as usize)?.to_vec();
        self.rng.shuffle(&mut cands);
        let g = shapes::local_geometry(k, self.params(node));
        let vp = self.out.points[v];
        for (ia, iv, ib) in cands {
            let w = g.vertices[iv];
            let la = vec2::unit_or(vec2::sub(g.vertices[ia], w), geom::PLUS_X);
            let lb = vec2::unit_or(vec2::sub(g.vertices[ib], w), geom::PLUS_X);
            for (x, y) in [(d1, d2), (d2, d1)] {
                let base = Xf::matching(w, vec2::add(w, la), vp, vec2::add(vp, x));
                for xf in [base, base.then_reflect(vp, vec2::add(vp, x))] {
                    let dir =
                        vec2::unit_or(vec2::sub(xf.apply(vec2::add(w, lb)), vp), geom::PLUS_X);
                    if vec2::dist(dir, y) > 0.01 {
                        continue;
                    }
                    let (verts, contours, poly) = transform(&g, &xf);
                    if !self.free(&poly) {
                        continue;
                    }
                    self.commit_shape(node, &g, verts, contours, poly, &[(iv, v)]);
                    self.used_vertices[node].push(iv);
                    let l = &self.local[node];
                    let tri = [l[ia], l[iv], l[ib]];
                    self.out.elements[node]
                        .push((Role::Angle(h), Elem::Angle(tri[0], tri[1], tri[2])));
                    return Some(tri);
                }
            }
        }
        None
    }

    /// Binds the roles no attachment fixed: facts go on unshared edges and free corners.
    fn bind_remaining_roles(&mut self) {
        for (id, node) in self.tree.nodes.iter().enumerate() {
            if node.kind().is_connector() {
                continue;
            }
            let k = node.kind();
            let roles = node.formula.inputs.iter().chain([&node.formula.output]);
            for &role in roles {
                if self.out.elements[id].iter().any(|(r, _)| *r == role) {
                    continue;
                }
                let l = &self.local[id];
                let elem = match role {
                    Role::Edge(g) => {
                        let group = shapes::edges(k).get(g as usize).copied().unwrap_or(&[]);
                        let pick = group
                            .iter()
                            .find(|e| !self.used_edges[id].contains(e))
                            .or(group.first());
                        match pick {
                            Some(&(a, b)) => Elem::Seg(l[a], l[b]),
                            None => continue,
                        }
                    }
                    Role::Angle(g) => {
                        let group = shapes::angles(k).get(g as usize).copied().unwrap_or(&[]);
                        let pick = group
                            .iter()
                            .find(|a| !self.used_vertices[id].contains(&a.1))
                            .or(group.first());
                        match pick {
                            Some(&(a, v, b)) => Elem::Angle(l[a], l[v], l[b]),
                            None => continue,
                        }
                    }
                    Role::Diagonal | Role::Diameter => match shapes::inner_segment(k) {
                        Some((a, b)) => Elem::Seg(l[a], l[b]),
                        None => continue,
                    },
                    _ => Elem::Whole,
                };
                self.out.elements[id].push((role, elem));
            }
        }
    }

    /// Distinct points stay apart, so that labels and shapes can be told apart.
    fn readable(&self) -> bool {
        let pts = &self.out.points;
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for s in &self.out.shapes {
            for p in &s.poly {
                for i in 0..2 {
                    lo[i] = lo[i].min(p[i]);
                    hi[i] = hi[i].max(p[i]);
                }
            }
        }
        for p in pts {
            for i in 0..2 {
                lo[i] = lo[i].min(p[i]);
                hi[i] = hi[i].max(p[i]);
            }
        }
        let extent = (hi[0] - lo[0]).max(hi[1] - lo[1]);
        let min_gap = extent / 30.0;
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                if vec2::dist(pts[i], pts[j]) < min_gap {
                    return false;
                }
            }
        }
        true
    }
}
