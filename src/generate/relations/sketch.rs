//! A construction's working state: named points with exact coordinates, what is
//! drawn, the conditions stated and the reasons given, and the few vector helpers
//! constructions use.

use super::item::{AngleRef, Asked, Condition, FigureRef, LineRef};
use crate::generate::rng::Rng;
use crate::generate::shapes::ShapeKind;

pub(super) type P = [f64; 2];

/// What a construction builds.
#[derive(Clone, Debug, Default)]
pub(super) struct Sketch {
    pub names: Vec<String>,
    pub points: Vec<P>,
    /// Segments drawn between two points (lines are drawn as their segments).
    pub segments: Vec<[usize; 2]>,
    /// Filled polygons.
    pub polygons: Vec<(ShapeKind, Vec<usize>)>,
    /// Circles: centre point and radius.
    pub circles: Vec<(usize, f64)>,
    /// Angles marked with an arc.
    pub arcs: Vec<[usize; 3]>,
    pub conditions: Vec<Condition>,
    /// What each condition is to the answer, in `conditions`' order.
    pub roles: Vec<Role>,
    /// The solution's reasoning, sentence by sentence.
    pub reasons: Vec<String>,
}

/// What a stated condition is to the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Part of the configuration.
    Plain,
    /// One the answer needs: without it the relation may not follow, so an
    /// indeterminate item is made by replacing it ([`super::indeterminate`]).
    Key,
    /// About a new element only, so it settles nothing ([`super::decoy`]): an
    /// indeterminate item's replacement for its key, or a harmless extra.
    Decoy,
}

/// A finished construction: the sketch, what is asked and the answer (one of the
/// relation's choices, or "Cannot be inferred").
#[derive(Clone, Debug)]
pub(super) struct Built {
    pub sketch: Sketch,
    pub asked: Asked,
    pub answer: &'static str,
    /// An indeterminate item's: the answer its full conditions would give, which
    /// its conditions no longer settle.
    pub unsettled: Option<&'static str>,
}

impl Sketch {
    /// Adds point `name` at `p` (a name is added once; later calls move it).
    pub(super) fn pt(&mut self, name: &str, p: P) -> P {
        match self.names.iter().position(|n| n == name) {
            Some(i) => self.points[i] = p,
            None => {
                self.names.push(name.to_string());
                self.points.push(p);
            }
        }
        p
    }

    pub(super) fn index(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("construction names point {name} before adding it"))
    }

    pub(super) fn at(&self, name: &str) -> P {
        self.points[self.index(name)]
    }

    /// Draws the segment between two named points ("AB").
    pub(super) fn seg(&mut self, ab: &str) {
        let [a, b] = line(ab);
        let s = [self.index(&a), self.index(&b)];
        if !self.segments.iter().any(|t| *t == s || *t == [s[1], s[0]]) {
            self.segments.push(s);
        }
    }

    /// Draws a filled polygon through the named points ("ABC").
    pub(super) fn poly(&mut self, kind: ShapeKind, names: &str) {
        let v = names.chars().map(|c| self.index(&c.to_string())).collect();
        self.polygons.push((kind, v));
    }

    pub(super) fn circle(&mut self, center: &str, radius: f64) {
        let c = self.index(center);
        self.circles.push((c, radius));
    }

    /// Marks an angle ("ABC") with an arc.
    pub(super) fn arc(&mut self, abc: &str) {
        let [a, b, c] = angle(abc);
        self.arcs
            .push([self.index(&a), self.index(&b), self.index(&c)]);
    }

    pub(super) fn cond(&mut self, c: Condition) {
        self.conditions.push(c);
        self.roles.push(Role::Plain);
    }

    /// States a condition the answer needs ([`Role::Key`]).
    pub(super) fn key(&mut self, c: Condition) {
        self.conditions.push(c);
        self.roles.push(Role::Key);
    }

    /// Marks the conditions stated already that `f` picks as ones the answer needs.
    pub(super) fn key_where(&mut self, f: impl Fn(&Condition) -> bool) {
        for (c, r) in self.conditions.iter().zip(&mut self.roles) {
            if f(c) {
                *r = Role::Key;
            }
        }
    }

    /// Puts `c` among the conditions at `at`, in the role `role`.
    pub(super) fn insert(&mut self, at: usize, c: Condition, role: Role) {
        self.conditions.insert(at, c);
        self.roles.insert(at, role);
    }

    pub(super) fn because(&mut self, s: impl Into<String>) {
        self.reasons.push(s.into());
    }

    /// The smallest distance between two points, over the largest: constructions
    /// reject draws whose points crowd (so that every letter can be read).
    pub(super) fn spread(&self) -> f64 {
        let mut lo = f64::INFINITY;
        let mut hi: f64 = 0.0;
        for i in 0..self.points.len() {
            for j in i + 1..self.points.len() {
                let d = dist(self.points[i], self.points[j]);
                lo = lo.min(d);
                hi = hi.max(d);
            }
        }
        if hi > 0.0 { lo / hi } else { 0.0 }
    }

    pub(super) fn done(self, asked: Asked, answer: &'static str) -> Option<Built> {
        (self.spread() >= MIN_SPREAD).then_some(Built {
            sketch: self,
            asked,
            answer,
            unsettled: None,
        })
    }
}

/// The least [`Sketch::spread`] a construction keeps.
pub(super) const MIN_SPREAD: f64 = 0.06;

/// "AB" → ["A", "B"].
pub(super) fn line(ab: &str) -> LineRef {
    let mut c = ab.chars().map(String::from);
    let a = c.next().unwrap_or_default();
    let b = c.next().unwrap_or_default();
    [a, b]
}

/// "ABC" → ["A", "B", "C"].
pub(super) fn angle(abc: &str) -> AngleRef {
    let mut c = abc.chars().map(String::from);
    let a = c.next().unwrap_or_default();
    let b = c.next().unwrap_or_default();
    let d = c.next().unwrap_or_default();
    [a, b, d]
}

pub(super) fn polygon(names: &str) -> FigureRef {
    FigureRef::Polygon {
        vertices: names.chars().map(String::from).collect(),
    }
}

pub(super) fn circle(center: &str, radius: f64) -> FigureRef {
    FigureRef::Circle {
        center: center.to_string(),
        radius,
    }
}

// Conditions, by the names a question uses.
pub(super) fn parallel(a: &str, b: &str) -> Condition {
    Condition::Parallel {
        a: line(a),
        b: line(b),
    }
}
pub(super) fn perpendicular(a: &str, b: &str) -> Condition {
    Condition::Perpendicular {
        a: line(a),
        b: line(b),
    }
}
pub(super) fn on_line(p: &str, l: &str) -> Condition {
    Condition::OnLine {
        point: p.into(),
        line: line(l),
    }
}
pub(super) fn between(p: &str, ends: &str) -> Condition {
    Condition::Between {
        point: p.into(),
        ends: line(ends),
    }
}
pub(super) fn midpoint(p: &str, ends: &str) -> Condition {
    Condition::Midpoint {
        point: p.into(),
        ends: line(ends),
    }
}
pub(super) fn same_side(points: &str, l: &str) -> Condition {
    Condition::SameSide {
        points: line(points),
        line: line(l),
    }
}
pub(super) fn opposite_sides(points: &str, l: &str) -> Condition {
    Condition::OppositeSides {
        points: line(points),
        line: line(l),
    }
}
pub(super) fn angle_value(a: &str, degrees: f64) -> Condition {
    Condition::AngleValue {
        angle: angle(a),
        degrees,
    }
}
pub(super) fn equal_angles(a: &str, b: &str) -> Condition {
    Condition::EqualAngles {
        a: angle(a),
        b: angle(b),
    }
}
pub(super) fn length(s: &str, value: f64) -> Condition {
    Condition::Length {
        segment: line(s),
        value,
    }
}
pub(super) fn equal_lengths(a: &str, b: &str) -> Condition {
    Condition::EqualLengths {
        a: line(a),
        b: line(b),
    }
}
pub(super) fn on_circle(p: &str, center: &str, radius: f64) -> Condition {
    Condition::OnCircle {
        point: p.into(),
        center: center.into(),
        radius,
    }
}

pub(super) fn tangent(l: &str, center: &str, radius: f64) -> Condition {
    Condition::Tangent {
        line: line(l),
        center: center.into(),
        radius,
    }
}

// Asked elements.
pub(super) fn ask_points(abc: &str) -> Asked {
    Asked::Points { points: angle(abc) }
}
pub(super) fn ask_point_line(p: &str, l: &str) -> Asked {
    Asked::PointLine {
        point: p.into(),
        line: line(l),
    }
}
pub(super) fn ask_lines(a: &str, b: &str) -> Asked {
    Asked::Lines {
        a: line(a),
        b: line(b),
    }
}
pub(super) fn ask_measures(a: &str, b: &str) -> Asked {
    Asked::AngleMeasures {
        a: angle(a),
        b: angle(b),
    }
}
pub(super) fn ask_positions(a: &str, b: &str) -> Asked {
    Asked::AnglePositions {
        a: angle(a),
        b: angle(b),
    }
}

// Plane helpers (y down, as the diagram).
pub(super) fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1]]
}
pub(super) fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}
pub(super) fn mul(a: P, k: f64) -> P {
    [a[0] * k, a[1] * k]
}
pub(super) fn dist(a: P, b: P) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}
pub(super) fn mid(a: P, b: P) -> P {
    lerp(a, b, 0.5)
}
pub(super) fn lerp(a: P, b: P, t: f64) -> P {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}
/// The unit vector at `deg` degrees.
pub(super) fn dir(deg: f64) -> P {
    let r = deg.to_radians();
    [r.cos(), r.sin()]
}
/// `p` moved `d` along direction `deg`.
pub(super) fn go(p: P, deg: f64, d: f64) -> P {
    add(p, mul(dir(deg), d))
}
/// The direction of `b - a`, in degrees.
pub(super) fn heading(a: P, b: P) -> f64 {
    (b[1] - a[1]).atan2(b[0] - a[0]).to_degrees()
}
/// The foot of the perpendicular from `p` to the line through `a`, `b`.
pub(super) fn foot(p: P, a: P, b: P) -> P {
    let d = sub(b, a);
    let t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / (d[0] * d[0] + d[1] * d[1]);
    lerp(a, b, t)
}
/// Where the lines through `a`, `b` and through `c`, `d` meet (`None` when parallel).
pub(super) fn meet(a: P, b: P, c: P, d: P) -> Option<P> {
    let (u, v) = (sub(b, a), sub(d, c));
    let den = u[0] * v[1] - u[1] * v[0];
    if den.abs() < 1e-9 * (u[0].hypot(u[1]) * v[0].hypot(v[1])) {
        return None;
    }
    let w = sub(c, a);
    let t = (w[0] * v[1] - w[1] * v[0]) / den;
    Some(add(a, mul(u, t)))
}
/// The angle ∠abc in degrees (0..=180).
pub(super) fn angle_at(a: P, b: P, c: P) -> f64 {
    let (u, v) = (sub(a, b), sub(c, b));
    let cos = (u[0] * v[0] + u[1] * v[1]) / (u[0].hypot(u[1]) * v[0].hypot(v[1]));
    cos.clamp(-1.0, 1.0).acos().to_degrees()
}

/// Uniform in `lo..hi`.
pub(super) fn uniform(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.unit()
}
/// A whole number of degrees in `lo..=hi`.
pub(super) fn degrees(rng: &mut Rng, lo: i64, hi: i64) -> f64 {
    rng.int(lo, hi) as f64
}
/// A whole number of degrees in `lo..=hi` at least `gap` from 90.
pub(super) fn oblique(rng: &mut Rng, lo: i64, hi: i64, gap: f64) -> Option<f64> {
    let d = degrees(rng, lo, hi);
    ((d - 90.0).abs() >= gap).then_some(d)
}
