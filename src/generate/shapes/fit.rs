//! Fitting a shape to known element values: `fit` finds parameters that agree with
//! them, drawing nice values for whatever they leave free, with the kind's `derive`,
//! `free`, `draw` and `valid`; and the helpers those share.

use super::{ShapeKind, role_value};
use crate::generate::rng::Rng;

/// Known element values while fitting.
pub(crate) type Known = [(super::Role, f64)];

/// The known value of `r`, if any.
pub(super) fn known(k: &Known, r: super::Role) -> Option<f64> {
    k.iter().find(|(role, _)| *role == r).map(|(_, v)| *v)
}

/// Sets parameter `i` to `v` unless it is set already or `v` is not a positive
/// finite number.
pub(super) fn set(p: &mut [Option<f64>], i: usize, v: Option<f64>) {
    if p[i].is_none() {
        if let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) {
            p[i] = Some(v);
        }
    }
}

/// [`set`] with a value.
pub(super) fn put(p: &mut [Option<f64>], i: usize, v: f64) {
    if p[i].is_none() && v.is_finite() && v > 0.0 {
        p[i] = Some(v);
    }
}

/// A whole side length, 5..=20.
pub(super) fn side(rng: &mut Rng) -> f64 {
    rng.int(5, 20) as f64
}

/// Draws every free parameter as a side ([`side`]).
pub(super) fn sides(_: usize, _: &[Option<f64>], _: &Known, rng: &mut Rng) -> f64 {
    side(rng)
}

/// Free parameters drawn first to last.
pub(super) fn in_order(_: &Known) -> &'static [usize] {
    &[0, 1, 2, 3]
}

/// Finds parameters agreeing (within 1 %) with every known value, drawing nice values for
/// what the knowns leave free. `None` when the knowns are contradictory or impossible.
pub(crate) fn fit(kind: ShapeKind, k: &Known, rng: &mut Rng) -> Option<Vec<f64>> {
    let def = kind.def();
    let count = def.params;
    let mut p: Vec<Option<f64>> = vec![None; count];
    // Derive what the knowns determine, draw one free parameter, repeat.
    for _ in 0..=count {
        for _ in 0..3 {
            (def.derive)(k, &mut p);
        }
        let next = ((def.free)(k).iter().copied()).find(|&i| i < p.len() && p[i].is_none());
        match next {
            Some(i) => p[i] = Some((def.draw)(i, &p, k, rng)),
            None => break,
        }
    }
    let p: Vec<f64> = p.into_iter().collect::<Option<_>>()?;
    if !p.iter().all(|v| v.is_finite() && *v > 0.0) || !(def.valid)(&p) {
        return None;
    }
    let agrees = k.iter().all(|&(role, want)| {
        role_value(kind, &p, role)
            .is_some_and(|got| (got - want).abs() <= 0.01 * want.abs().max(1.0))
    });
    agrees.then_some(p)
}

/// The ratio of the longer to the shorter is at most 6 (no needle-thin shapes).
pub(super) fn ratio_ok(a: f64, b: f64) -> bool {
    a.max(b) / a.min(b) <= 6.0
}
