//! Moving a configuration onto equations by the smallest steps: what turns a
//! construction's figure into an indeterminate item's (a condition broken, or
//! another answer made true, while every other stated condition keeps holding).
//!
//! Each [`Eq`] is one dimensionless residual on the points' coordinates (lengths
//! over the figure's size, sines and cosines, angles in radians). [`project`] is a
//! damped minimum-norm Gauss–Newton (Levenberg–Marquardt): each step is
//! `Jᵀ (J Jᵀ + λ μ I)⁻¹ r`, with the Jacobian by central differences, so the points
//! move as little as the equations allow. Everything runs in a fixed order with
//! fixed iteration counts: the same start gives the same bytes.

use super::item::Condition;
use super::sketch::{P, Sketch};

/// A line by its two points' indices.
pub(super) type L = [usize; 2];
/// An angle (arm, vertex, arm) by indices.
pub(super) type A = [usize; 3];

/// One equation: its residual is zero when it holds.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Eq {
    /// The sine of the angle from line a to line b is this.
    Sine(L, L, f64),
    /// The cosine of the angle between the lines is this.
    Cosine(L, L, f64),
    /// The signed distance of the point from the line is this (figure units).
    Side(usize, L, f64),
    /// Where the point projects on the line: 0 at its first point, 1 at its second.
    Along(usize, L, f64),
    /// The angle measures this many radians.
    Angle(A, f64),
    /// The first angle minus the second is this many radians.
    AngleDiff(A, A, f64),
    /// The two angles sum to this many radians.
    AngleSum(A, A, f64),
    /// The distance between the points is this.
    Dist(usize, usize, f64),
    /// The first segment's length is this many times the second's.
    Ratio(L, L, f64),
    /// The point's distance from the line is this (either side).
    LineDist(L, usize, f64),
    /// The point is this weighted sum of points (weights summing to 1).
    At(usize, Vec<(usize, f64)>),
}

fn pt(x: &[f64], i: usize) -> P {
    [x[2 * i], x[2 * i + 1]]
}
fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}
fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}
fn norm(a: P) -> f64 {
    a[0].hypot(a[1])
}

/// The angle ∠avc in radians (0..=π).
pub(super) fn angle(a: P, v: P, c: P) -> f64 {
    let (u, w) = (sub(a, v), sub(c, v));
    cross(u, w).abs().atan2(dot(u, w))
}

/// The signed distance of `p` from the line through `a`, `b`.
pub(super) fn side(p: P, a: P, b: P) -> f64 {
    cross(sub(b, a), sub(p, a)) / norm(sub(b, a)).max(f64::MIN_POSITIVE)
}

/// Where `p` projects on the line through `a`, `b` (0 at `a`, 1 at `b`).
pub(super) fn along(p: P, a: P, b: P) -> f64 {
    dot(sub(p, a), sub(b, a)) / dot(sub(b, a), sub(b, a)).max(f64::MIN_POSITIVE)
}

impl Eq {
    /// Its residual on coordinates `x` (x and y of each point in turn), lengths
    /// over `size`.
    fn residual(&self, x: &[f64], size: f64, out: &mut Vec<f64>) {
        let p = |i: usize| pt(x, i);
        let dir = |l: L| sub(p(l[1]), p(l[0]));
        let ang = |a: A| angle(p(a[0]), p(a[1]), p(a[2]));
        let len = |l: L| norm(dir(l));
        match self {
            Eq::Sine(a, b, v) => {
                let (u, w) = (dir(*a), dir(*b));
                out.push(cross(u, w) / (norm(u) * norm(w)) - v);
            }
            Eq::Cosine(a, b, v) => {
                let (u, w) = (dir(*a), dir(*b));
                out.push(dot(u, w) / (norm(u) * norm(w)) - v);
            }
            Eq::Side(q, l, v) => out.push((side(p(*q), p(l[0]), p(l[1])) - v) / size),
            Eq::Along(q, l, v) => out.push(along(p(*q), p(l[0]), p(l[1])) - v),
            Eq::Angle(a, v) => out.push(ang(*a) - v),
            Eq::AngleDiff(a, b, v) => out.push(ang(*a) - ang(*b) - v),
            Eq::AngleSum(a, b, v) => out.push(ang(*a) + ang(*b) - v),
            Eq::Dist(a, b, v) => out.push((norm(sub(p(*a), p(*b))) - v) / size),
            Eq::Ratio(a, b, k) => out.push((len(*a) - k * len(*b)) / size),
            Eq::LineDist(l, o, v) => out.push((side(p(*o), p(l[0]), p(l[1])).abs() - v) / size),
            Eq::At(q, w) => {
                for k in 0..2 {
                    let target: f64 = w.iter().map(|(i, f)| f * p(*i)[k]).sum();
                    out.push((p(*q)[k] - target) / size);
                }
            }
        }
    }
}

/// The equations of a stated condition on `s`'s points (its strict inequalities,
/// a point between two others or on one side of a line, are checked apart).
pub(super) fn equations(s: &Sketch, c: &Condition) -> Vec<Eq> {
    let i = |n: &String| s.index(n);
    let l = |x: &[String; 2]| [i(&x[0]), i(&x[1])];
    let a = |x: &[String; 3]| [i(&x[0]), i(&x[1]), i(&x[2])];
    match c {
        Condition::Parallel { a: x, b: y } => vec![Eq::Sine(l(x), l(y), 0.0)],
        Condition::Perpendicular { a: x, b: y } => vec![Eq::Cosine(l(x), l(y), 0.0)],
        Condition::OnLine { point, line } => vec![Eq::Side(i(point), l(line), 0.0)],
        Condition::Between { point, ends } => vec![Eq::Side(i(point), l(ends), 0.0)],
        Condition::Midpoint { point, ends } => vec![
            Eq::Side(i(point), l(ends), 0.0),
            Eq::Along(i(point), l(ends), 0.5),
        ],
        Condition::SameSide { .. } | Condition::OppositeSides { .. } => Vec::new(),
        Condition::AngleValue { angle: x, degrees } => vec![Eq::Angle(a(x), degrees.to_radians())],
        Condition::EqualAngles { a: x, b: y } => vec![Eq::AngleDiff(a(x), a(y), 0.0)],
        Condition::Length { segment, value } => {
            let [p, q] = l(segment);
            vec![Eq::Dist(p, q, *value)]
        }
        Condition::EqualLengths { a: x, b: y } => vec![Eq::Ratio(l(x), l(y), 1.0)],
        Condition::OnCircle {
            point,
            center,
            radius,
        } => vec![Eq::Dist(i(point), i(center), *radius)],
        Condition::Tangent {
            line,
            center,
            radius,
        } => vec![Eq::LineDist(l(line), i(center), *radius)],
    }
}

fn residuals(eqs: &[Eq], x: &[f64], size: f64, out: &mut Vec<f64>) {
    out.clear();
    for e in eqs {
        e.residual(x, size, out);
    }
}

/// Solves `a · y = b` in place for a symmetric positive definite `a` (m × m, row
/// major) by Cholesky; false when `a` is not positive definite.
fn cholesky_solve(a: &mut [f64], m: usize, b: &mut [f64]) -> bool {
    for j in 0..m {
        let mut d = a[j * m + j];
        for k in 0..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        if d.is_nan() || d <= 0.0 {
            return false;
        }
        let d = d.sqrt();
        a[j * m + j] = d;
        for i in j + 1..m {
            let mut v = a[i * m + j];
            for k in 0..j {
                v -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = v / d;
        }
    }
    for i in 0..m {
        let mut v = b[i];
        for k in 0..i {
            v -= a[i * m + k] * b[k];
        }
        b[i] = v / a[i * m + i];
    }
    for i in (0..m).rev() {
        let mut v = b[i];
        for k in i + 1..m {
            v -= a[k * m + i] * b[k];
        }
        b[i] = v / a[i * m + i];
    }
    true
}

fn sum_sq(r: &[f64]) -> f64 {
    r.iter().map(|e| e * e).sum()
}

/// Every residual is below this when a projection has converged: far below the
/// checks' tolerance ([`super::check::TOL`]), so a projected figure states its
/// conditions as exactly as a constructed one.
const CONVERGED: f64 = 1e-13;

/// Moves `points` onto `eqs` by the smallest steps; `size` scales lengths. False
/// (and `points` left wherever the steps got) when the equations cannot be met
/// near the start.
pub(super) fn project(eqs: &[Eq], points: &mut [P], size: f64) -> bool {
    let n = 2 * points.len();
    let mut x: Vec<f64> = points.iter().flat_map(|p| [p[0], p[1]]).collect();
    let mut r = Vec::new();
    residuals(eqs, &x, size, &mut r);
    let m = r.len();
    let ok = m == 0 || lm(eqs, &mut x, size, &mut r, n, m);
    for (k, p) in points.iter_mut().enumerate() {
        *p = [x[2 * k], x[2 * k + 1]];
    }
    ok
}

fn lm(eqs: &[Eq], x: &mut [f64], size: f64, r: &mut Vec<f64>, n: usize, m: usize) -> bool {
    let h = 1e-7 * size;
    let mut lambda = 1e-9;
    let (mut rp, mut rm, mut trial) = (Vec::new(), Vec::new(), Vec::new());
    let mut jac = vec![0.0; m * n];
    for iteration in 0..80 {
        let worst = r.iter().fold(0.0f64, |w, e| w.max(e.abs()));
        if !worst.is_finite() {
            return false;
        }
        if worst < CONVERGED {
            return true;
        }
        // Within a few steps where the equations hold near the start; still far
        // after 30, they are aimed at something the rest forbids.
        if iteration >= 30 && worst > 1e-6 {
            return false;
        }
        for j in 0..n {
            let keep = x[j];
            x[j] = keep + h;
            residuals(eqs, x, size, &mut rp);
            x[j] = keep - h;
            residuals(eqs, x, size, &mut rm);
            x[j] = keep;
            for i in 0..m {
                jac[i * n + j] = (rp[i] - rm[i]) / (2.0 * h);
            }
        }
        let mut jjt = vec![0.0; m * m];
        for i in 0..m {
            for k in 0..=i {
                let s: f64 = (0..n).map(|j| jac[i * n + j] * jac[k * n + j]).sum();
                jjt[i * m + k] = s;
                jjt[k * m + i] = s;
            }
        }
        let mu = (0..m).map(|i| jjt[i * m + i]).sum::<f64>() / m as f64;
        let before = sum_sq(r);
        let mut improved = false;
        while lambda < 1e6 {
            let mut a = jjt.clone();
            for i in 0..m {
                a[i * m + i] += lambda * mu.max(f64::MIN_POSITIVE);
            }
            let mut y = r.clone();
            if cholesky_solve(&mut a, m, &mut y) {
                trial.clear();
                trial.extend((0..n).map(|j| {
                    let step: f64 = (0..m).map(|i| jac[i * n + j] * y[i]).sum();
                    x[j] - step
                }));
                residuals(eqs, &trial, size, &mut rp);
                if sum_sq(&rp) < before {
                    x.copy_from_slice(&trial);
                    std::mem::swap(r, &mut rp);
                    lambda = (lambda / 10.0).max(1e-15);
                    improved = true;
                    break;
                }
            }
            lambda *= 10.0;
        }
        if !improved {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A right angle and a point on a circle, from a start 10 % off: the
    /// projection meets both and moves the points less than the start was off.
    #[test]
    fn the_projection_lands_near_its_start() {
        // O, A on the circle of radius 2 about O, and B with ∠OAB = 90°.
        let eqs = [
            Eq::Dist(1, 0, 2.0),
            Eq::Angle([0, 1, 2], std::f64::consts::FRAC_PI_2),
        ];
        let start = [[0.0, 0.0], [2.2, 0.1], [2.3, 1.8]];
        let mut p = start;
        assert!(project(&eqs, &mut p, 4.0));
        let d = |a: P, b: P| norm(sub(a, b));
        assert!((d(p[0], p[1]) - 2.0).abs() < 1e-12);
        assert!((angle(p[0], p[1], p[2]) - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let moved = (0..3).map(|i| d(p[i], start[i])).fold(0.0, f64::max);
        assert!(moved < 0.3, "moved {moved}: {p:?}");
    }

    /// Impossible equations (a distance both 1 and 2) are refused, not met.
    #[test]
    fn contradictory_equations_fail() {
        let eqs = [Eq::Dist(0, 1, 1.0), Eq::Dist(0, 1, 2.0)];
        let mut p = [[0.0, 0.0], [1.5, 0.0]];
        assert!(!project(&eqs, &mut p, 2.0));
    }

    /// A line turned off parallel by a stated sine keeps its other equations.
    #[test]
    fn a_parallel_is_turned_by_the_asked_angle() {
        // AB and CD parallel; turn CD by 20° while D stays on a circle about C.
        let mut p = [[0.0, 0.0], [4.0, 0.0], [0.0, 2.0], [4.0, 2.0]];
        let turn = 20f64.to_radians().sin();
        let eqs = [Eq::Sine([0, 1], [2, 3], turn), Eq::Dist(2, 3, 4.0)];
        assert!(project(&eqs, &mut p, 4.0));
        let (u, w) = (sub(p[1], p[0]), sub(p[3], p[2]));
        assert!((cross(u, w) / (norm(u) * norm(w)) - turn).abs() < 1e-12);
    }
}
