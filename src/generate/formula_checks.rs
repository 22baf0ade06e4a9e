//! Tests: every formula recomputed independently (from the shape's own geometry) and inverted.

use crate::generate::formulas::{FORMULAS, Formula, shape_formula_count};
use crate::generate::rng::Rng;
use crate::generate::shapes::{self, Role};

/// A shape's parameters and a formula's input values read from it.
type Sample = (Vec<f64>, Vec<(Role, f64)>);

/// Input values taken from a random valid shape of the formula's kind.
fn sample(f: &Formula, rng: &mut Rng) -> Option<Sample> {
    let p = shapes::fit(f.kind, &[], rng)?;
    let inputs = f
        .inputs
        .iter()
        .map(|&r| shapes::role_value(f.kind, &p, r).map(|v| (r, v)))
        .collect::<Option<Vec<_>>>()?;
    Some((p, inputs))
}

fn connector_value(f: &Formula, x: f64) -> f64 {
    match f.id {
        "angles.supplementary" => 180.0 - x,
        "angles.complementary" => 90.0 - x,
        _ => x,
    }
}

#[test]
fn catalogue_is_at_least_the_papers() {
    assert!(
        shape_formula_count() >= 68,
        "{} formulas",
        shape_formula_count()
    );
    let mut ids: Vec<&str> = FORMULAS.iter().map(|f| f.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), FORMULAS.len(), "formula ids must be unique");
    for kind in shapes::ShapeKind::SHAPES {
        assert!(
            FORMULAS.iter().any(|f| f.kind == kind),
            "{kind:?} has no formula"
        );
    }
    let linear = FORMULAS.iter().filter(|f| f.linear.is_some()).count();
    assert!(linear >= 15, "{linear} variablizable formulas");
}

#[test]
fn every_formula_agrees_with_the_shapes_geometry() {
    let mut rng = Rng::for_attempt(11, 0);
    for &f in FORMULAS.iter() {
        let mut checked = 0;
        for _ in 0..200 {
            if f.kind.is_connector() {
                let x = rng.int(10, 80) as f64;
                let v = f.exact(&[(Role::Angle(0), x)]).unwrap();
                assert!((v - connector_value(f, x)).abs() < 1e-9, "{}", f.id);
                checked += 1;
                continue;
            }
            let Some((p, inputs)) = sample(f, &mut rng) else {
                continue;
            };
            let Some(want) = shapes::role_value(f.kind, &p, f.output) else {
                continue;
            };
            let got = f
                .exact(&inputs)
                .unwrap_or_else(|e| panic!("{}: {e} on {inputs:?}", f.id));
            assert!(
                (got - want).abs() <= 1e-6 * want.abs().max(1.0),
                "{}: computed {got}, the shape has {want} (inputs {inputs:?})",
                f.id
            );
            // The rounded chain stays close to the exact value.
            let r = f.rounded(&inputs).unwrap();
            assert!(
                (r - got).abs() <= 0.05 * got.abs().max(1.0),
                "{}: rounded {r} vs {got}",
                f.id
            );
            checked += 1;
        }
        assert!(checked >= 20, "{} checked only {checked} times", f.id);
    }
}

/// Finds x near `guess` with g(x) = target by scanning for a sign change, then bisecting.
fn solve(g: impl Fn(f64) -> Option<f64>, target: f64, guess: f64) -> Option<f64> {
    let h = |x: f64| g(x).map(|v| v - target);
    let steps = 400;
    let (lo, hi) = (guess * 0.5, guess * 1.5);
    let mut best: Option<(f64, f64)> = None;
    let mut prev: Option<(f64, f64)> = None;
    for k in 0..=steps {
        let x = lo + (hi - lo) * k as f64 / steps as f64;
        let Some(y) = h(x) else {
            prev = None;
            continue;
        };
        if let Some((px, py)) = prev {
            if py == 0.0 || py.signum() != y.signum() {
                let (mut a, mut b) = (px, x);
                for _ in 0..100 {
                    let m = 0.5 * (a + b);
                    match (h(a), h(m)) {
                        (Some(ya), Some(ym)) if ya.signum() == ym.signum() => a = m,
                        _ => b = m,
                    }
                }
                let root = 0.5 * (a + b);
                if best.is_none_or(|(r, _)| (root - guess).abs() < (r - guess).abs()) {
                    best = Some((root, 0.0));
                }
            }
        }
        prev = Some((x, y));
    }
    best.map(|(r, _)| r)
}

#[test]
fn every_formula_inverts_for_each_input() {
    let mut rng = Rng::for_attempt(12, 0);
    for f in FORMULAS.iter().filter(|f| !f.kind.is_connector()) {
        let mut inverted = 0;
        for _ in 0..40 {
            let Some((_, inputs)) = sample(f, &mut rng) else {
                continue;
            };
            let Ok(out) = f.exact(&inputs) else { continue };
            for i in 0..inputs.len() {
                let truth = inputs[i].1;
                let g = |x: f64| {
                    let mut v = inputs.clone();
                    v[i].1 = x;
                    f.exact(&v).ok()
                };
                // Where the output does not depend on this input locally (sin at 90°),
                // the input is not determined by it: nothing to invert.
                let d = 1e-4 * truth.abs().max(1.0);
                let slope = (g(truth + d).unwrap_or(out) - g(truth - d).unwrap_or(out)) / (2.0 * d);
                if slope.abs() < 1e-3 * out.abs().max(1.0) / truth.abs().max(1.0) {
                    continue;
                }
                let found = solve(g, out, truth)
                    .unwrap_or_else(|| panic!("{}: input {i} not recovered", f.id));
                assert!(
                    (found - truth).abs() <= 1e-6 * truth.abs().max(1.0),
                    "{}: input {:?} = {truth}, inverted to {found}",
                    f.id,
                    inputs[i].0
                );
            }
            inverted += 1;
        }
        assert!(inverted >= 10, "{} inverted only {inverted} times", f.id);
    }
}

#[test]
fn linear_forms_hold_for_every_variablizable_formula() {
    use crate::generate::formulas::Ctx;
    let mut rng = Rng::for_attempt(13, 0);
    for f in FORMULAS.iter().filter(|f| f.linear.is_some()) {
        let linear = f.linear.unwrap();
        for _ in 0..50 {
            let inputs = if f.kind.is_connector() {
                vec![(Role::Angle(0), rng.int(10, 80) as f64)]
            } else {
                match sample(f, &mut rng) {
                    Some((_, i)) => i,
                    None => continue,
                }
            };
            let out = f.exact(&inputs).unwrap();
            let value = |r: Role| {
                if r == f.output {
                    out
                } else {
                    inputs.iter().find(|x| x.0 == r).unwrap().1
                }
            };
            let lhs: f64 = linear.terms.iter().map(|&(r, c)| c * value(r)).sum();
            let rhs = (linear.rhs)(&Ctx::exact(f, &inputs)).eval().unwrap();
            assert!(
                (lhs - rhs).abs() < 1e-6 * rhs.abs().max(1.0),
                "{}: {lhs} != {rhs}",
                f.id
            );
        }
    }
}
