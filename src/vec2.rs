//! 2-D vector maths on `[T; 2]`, for `f32` (canvas pixels in `compose`) and `f64`
//! (diagram units in `generate`). Each caller keeps its own precision: the functions
//! are generic and compile to exactly the arithmetic they replace.
//!
//! # Zero vectors
//!
//! A zero vector has no direction, and this module never invents one:
//! `normalize` returns `None` for a vector no longer than the given minimum, and the
//! caller says what a degenerate direction means where it has one, with
//! `unit_or` (`unit_or(v, fallback)`) or `normalize(v, min_len).unwrap_or(fallback)`.
//! `unit_clamped` is the one exception, for callers that want a degenerate vector to
//! shrink to (nearly) `[0, 0]` rather than turn into a direction.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// The coordinate types vectors are made of: `f32` and `f64`.
pub(crate) trait Scalar:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// `sqrt(self² + other²)` without undue overflow (`f32::hypot`, `f64::hypot`).
    fn hypot(self, other: Self) -> Self;
    /// The larger of two values, ignoring NaN (`f32::max`, `f64::max`).
    fn max(self, other: Self) -> Self;
}

macro_rules! scalar {
    ($t:ty) => {
        impl Scalar for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            fn hypot(self, other: Self) -> Self {
                <$t>::hypot(self, other)
            }
            fn max(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
        }
    };
}
scalar!(f32);
scalar!(f64);

/// A 2-D point or vector.
pub(crate) type Vec2<T> = [T; 2];

/// `a - b`.
pub(crate) fn sub<T: Scalar>(a: Vec2<T>, b: Vec2<T>) -> Vec2<T> {
    [a[0] - b[0], a[1] - b[1]]
}

/// `a + b`.
pub(crate) fn add<T: Scalar>(a: Vec2<T>, b: Vec2<T>) -> Vec2<T> {
    [a[0] + b[0], a[1] + b[1]]
}

/// `a · s`.
pub(crate) fn scale<T: Scalar>(a: Vec2<T>, s: T) -> Vec2<T> {
    [a[0] * s, a[1] * s]
}

/// The dot product.
pub(crate) fn dot<T: Scalar>(a: Vec2<T>, b: Vec2<T>) -> T {
    a[0] * b[0] + a[1] * b[1]
}

/// The z component of the 3-D cross product: positive when `b` turns
/// counter-clockwise from `a` in a y-up frame (clockwise on a y-down screen).
pub(crate) fn cross<T: Scalar>(a: Vec2<T>, b: Vec2<T>) -> T {
    a[0] * b[1] - a[1] * b[0]
}

/// Euclidean length.
pub(crate) fn len<T: Scalar>(a: Vec2<T>) -> T {
    a[0].hypot(a[1])
}

/// Distance between two points.
pub(crate) fn dist<T: Scalar>(a: Vec2<T>, b: Vec2<T>) -> T {
    len(sub(a, b))
}

/// `a` turned by 90°: counter-clockwise in a y-up frame.
pub(crate) fn perp<T: Scalar>(a: Vec2<T>) -> Vec2<T> {
    [-a[1], a[0]]
}

/// `a` scaled to length 1 (multiplied by `1 / |a|`), or `None` when `|a| <= min_len`:
/// such a vector has no reliable direction (see the module docs).
pub(crate) fn normalize<T: Scalar>(a: Vec2<T>, min_len: T) -> Option<Vec2<T>> {
    let l = len(a);
    (l > min_len).then(|| scale(a, T::ONE / l))
}

/// `a` scaled to length 1, or `fallback` when `a` is the zero vector.
pub(crate) fn unit_or<T: Scalar>(a: Vec2<T>, fallback: Vec2<T>) -> Vec2<T> {
    normalize(a, T::ZERO).unwrap_or(fallback)
}

/// `a / max(|a|, min_len)` (a division, where [`normalize`] multiplies by the
/// reciprocal): a unit vector, except that a vector shorter than `min_len` comes out
/// proportionally shorter, so a zero vector stays `[0, 0]`.
pub(crate) fn unit_clamped<T: Scalar>(a: Vec2<T>, min_len: T) -> Vec2<T> {
    let l = len(a).max(min_len);
    [a[0] / l, a[1] / l]
}

/// Whether `p` is inside polygon `poly` (even-odd rule, crossing count).
pub(crate) fn inside<T: Scalar>(poly: &[Vec2<T>], p: Vec2<T>) -> bool {
    let mut c = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                c = !c;
            }
        }
    }
    c
}

/// Points on the arc from `from` to `to` around `center` (`from` excluded, `to`
/// included exactly), counter-clockwise in y-down coordinates when `ccw`, with about
/// `per_turn` points per full turn (at least 2). A sweep no larger than `min_sweep`
/// radians counts as a full turn (the end points coincide).
pub(crate) fn arc_points(
    from: Vec2<f64>,
    to: Vec2<f64>,
    center: Vec2<f64>,
    ccw: bool,
    per_turn: usize,
    min_sweep: f64,
) -> Vec<Vec2<f64>> {
    let r = dist(from, center);
    let a0 = (from[1] - center[1]).atan2(from[0] - center[0]);
    let a1 = (to[1] - center[1]).atan2(to[0] - center[0]);
    let tau = std::f64::consts::TAU;
    let mut sweep = a1 - a0;
    if ccw {
        while sweep <= min_sweep {
            sweep += tau;
        }
    } else {
        while sweep >= -min_sweep {
            sweep -= tau;
        }
    }
    let steps = ((sweep.abs() / tau) * per_turn as f64).ceil().max(2.0) as usize;
    (1..=steps)
        .map(|k| match k == steps {
            true => to,
            false => {
                let a = a0 + sweep * k as f64 / steps as f64;
                [center[0] + r * a.cos(), center[1] + r * a.sin()]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_vectors_get_the_callers_fallback() {
        assert_eq!(normalize([0.0f32, 0.0], 0.0), None);
        assert_eq!(normalize([1e-7f32, 0.0], 1e-6), None);
        let u = normalize([3.0f64, 4.0], 0.0).unwrap();
        assert!(
            (u[0] - 0.6).abs() < 1e-15 && (u[1] - 0.8).abs() < 1e-15,
            "{u:?}"
        );
        assert_eq!(unit_or([0.0f64, 0.0], [1.0, 0.0]), [1.0, 0.0]);
        assert_eq!(unit_or([0.0f32, -2.0], [1.0, 0.0]), [0.0, -1.0]);
        assert_eq!(unit_clamped([0.0f32, 0.0], 1e-6), [0.0, 0.0]);
        assert_eq!(unit_clamped([0.0f32, 2.0], 1e-6), [0.0, 1.0]);
    }

    #[test]
    fn products_and_turns() {
        assert_eq!(dot([1.0f64, 2.0], [3.0, 4.0]), 11.0);
        assert_eq!(cross([1.0f64, 0.0], [0.0, 1.0]), 1.0);
        assert_eq!(perp([1.0f32, 0.0]), [0.0, 1.0]);
        assert_eq!(dist([0.0f32, 0.0], [3.0, 4.0]), 5.0);
        assert_eq!(
            add([1.0f32, 2.0], scale(sub([3.0, 3.0], [1.0, 1.0]), 0.5)),
            [2.0, 3.0]
        );
    }
}
