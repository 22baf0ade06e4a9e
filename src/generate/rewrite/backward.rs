//! Backward questions (GeoEval §3.1.2): the forward answer becomes a given and one
//! of the original givens, a leaf of the reasoning tree, is asked for instead.
//!
//! The steps from the root down to that leaf are inverted one by one: each becomes
//! a formula of the same shape whose output is the input that led to the leaf and
//! whose inputs are the step's other inputs and its old output (the formulas the
//! generator already has both ways, `square.area` and `square.side_from_area` say).
//! Where a shape's roles are interchangeable (the two sides of a rectangle) a
//! formula may serve with two roles swapped; every inverse is accepted only if it
//! reproduces the forward problem's exact value, so a swap that is not a symmetry
//! is never used. The other steps stay as they are and come first. Values follow
//! the same rules as generation: every step rounded as the solution computes it,
//! and a result that moves by more than 3 % from the exact one is refused.

use crate::generate::formulas::{self, FORMULAS, Formula};
use crate::generate::problem::{
    Binding, ElementRef, MeasureKind, Problem, QuestionType, Status, Step,
};
use crate::generate::shapes::Role;
use crate::generate::text::{self, TextError};
use std::collections::HashMap;

/// Why a problem has no backward version.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BackwardError {
    #[error("it is already a backward question")]
    AlreadyBackward,
    #[error("no given value can be asked back: {0}")]
    NoLeaf(&'static str),
    #[error(transparent)]
    Text(#[from] TextError),
}

/// Relative agreement an inverse must reach with the forward problem's exact value.
const SAME: f64 = 1e-6;

/// The backward version of `p`, or why it has none. Leaves are tried deepest first
/// (ties: the first in solution order); the first whose chain inverts within the
/// rules, and whose value no other given states (a shortcut: the asked side equal
/// to a side the image labels), is asked — often not the deepest, whose longer
/// chain more often breaks the 3 % rule.
pub(crate) fn backward_question(p: &Problem) -> Result<Problem, BackwardError> {
    if p.params.backward {
        return Err(BackwardError::AlreadyBackward);
    }
    let exact = exact_values(p)?;
    let producer: HashMap<ElementRef, usize> = p
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.distractor)
        .map(|(k, s)| (s.output.element, k))
        .collect();
    let root = p.steps.len() - 1;
    let mut leaves = Vec::new();
    collect_leaves(p, &producer, vec![root], &mut leaves);
    leaves.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
    let mut reason = "no step on the way to a given value has an inverse formula";
    for (path, leaf) in &leaves {
        match invert(p, &exact, path, *leaf) {
            Ok(q) => return Ok(q),
            Err(Refused(why)) => reason = why,
        }
    }
    if leaves.is_empty() {
        reason = "no given value feeds the answer directly (all are stated as expressions)";
    }
    Err(BackwardError::NoLeaf(reason))
}

/// A chain that cannot be inverted, and why.
struct Refused(&'static str);

/// Every given input reachable from `path`'s last step, with the path to it: the
/// inputs a non-distractor step derives are followed down.
fn collect_leaves(
    p: &Problem,
    producer: &HashMap<ElementRef, usize>,
    path: Vec<usize>,
    out: &mut Vec<(Vec<usize>, Role)>,
) {
    let step = &p.steps[*path.last().expect("a path has a step")];
    if step.variable.is_some() {
        return; // an `a·x + b` step: its inputs are stated through x
    }
    for b in &step.inputs {
        if let Some(&k) = producer.get(&b.element) {
            let mut deeper = path.clone();
            deeper.push(k);
            collect_leaves(p, producer, deeper, out);
        } else if given_number(p, b.element) {
            out.push((path.clone(), b.role));
        }
    }
}

/// A given element stated as a plain number (not `a·x + b`).
fn given_number(p: &Problem, e: ElementRef) -> bool {
    let d = &p.diagram;
    let (status, expr) = match e {
        ElementRef::Side(i) => (d.sides[i].status, &d.sides[i].expr),
        ElementRef::Angle(i) => (d.angles[i].status, &d.angles[i].expr),
        ElementRef::Measure(i) => (d.measures[i].status, &d.measures[i].expr),
    };
    status == Status::Given && expr.is_none()
}

/// Every element's exact value: givens as stated, derived ones computed exactly
/// (no rounding) step by step.
fn exact_values(p: &Problem) -> Result<HashMap<ElementRef, f64>, BackwardError> {
    text::check(p)?;
    let mut exact: HashMap<ElementRef, f64> = HashMap::new();
    for s in &p.steps {
        for b in &s.inputs {
            exact.entry(b.element).or_insert(b.value);
        }
    }
    for s in &p.steps {
        let f = formulas::by_id(&s.formula).expect("checked");
        let values: Vec<(Role, f64)> = s
            .inputs
            .iter()
            .map(|b| (b.role, exact.get(&b.element).copied().unwrap_or(b.value)))
            .collect();
        let v = f.exact(&values).map_err(TextError::from)?;
        exact.insert(s.output.element, v);
    }
    Ok(exact)
}

/// Roles a formula may serve with two of them swapped: the other member of a group
/// of equal edges or angles.
fn swaps(f: &Formula) -> Vec<Option<(Role, Role)>> {
    let mut roles: Vec<Role> = f.inputs.to_vec();
    roles.push(f.output);
    let mut out = vec![None];
    for (i, &a) in roles.iter().enumerate() {
        for &b in &roles[i + 1..] {
            let same_kind = matches!(
                (a, b),
                (Role::Edge(_), Role::Edge(_)) | (Role::Angle(_), Role::Angle(_))
            );
            if same_kind {
                out.push(Some((a, b)));
            }
        }
    }
    out
}

fn swap(r: Role, s: Option<(Role, Role)>) -> Role {
    match s {
        Some((a, b)) if r == a => b,
        Some((a, b)) if r == b => a,
        _ => r,
    }
}

/// The step inverting `step` for its input `wanted`: a formula of the same shape
/// (with two interchangeable roles swapped, perhaps) from the other inputs and the
/// old output to `wanted`, that gives `wanted`'s exact value from exact values.
fn inverse_of(
    step: &Step,
    wanted: Role,
    exact: &HashMap<ElementRef, f64>,
) -> Option<(&'static Formula, Option<(Role, Role)>)> {
    let mut need: Vec<Role> = step
        .inputs
        .iter()
        .map(|b| b.role)
        .filter(|r| *r != wanted)
        .chain([step.output.role])
        .collect();
    need.sort_by_key(|r| format!("{r:?}"));
    let binding = |r: Role| {
        step.inputs
            .iter()
            .chain([&step.output])
            .find(|b| b.role == r)
    };
    let want_exact = *exact.get(&step.inputs.iter().find(|b| b.role == wanted)?.element)?;
    for g in FORMULAS
        .iter()
        .copied()
        .filter(|g| g.kind == step.kind && g.id != step.formula)
    {
        for s in swaps(g) {
            if swap(g.output, s) != wanted {
                continue;
            }
            let mut have: Vec<Role> = g.inputs.iter().map(|r| swap(*r, s)).collect();
            have.sort_by_key(|r| format!("{r:?}"));
            if have != need {
                continue;
            }
            let values: Option<Vec<(Role, f64)>> = g
                .inputs
                .iter()
                .map(|&r| Some((r, *exact.get(&binding(swap(r, s))?.element)?)))
                .collect();
            let Some(Ok(v)) = values.map(|v| g.exact(&v)) else {
                continue;
            };
            if (v - want_exact).abs() <= SAME * want_exact.abs().max(1.0) {
                return Some((g, s));
            }
        }
    }
    None
}

/// `p` asked backward along `path` (root first) to the input `leaf` of its last step.
///
/// Kept whole: the steps along the path are rewritten in one pass that carries the
/// newly known value down to the leaf; each step's rewrite needs the one before.
fn invert(
    p: &Problem,
    exact: &HashMap<ElementRef, f64>,
    path: &[usize],
    leaf: Role,
) -> Result<Problem, Refused> {
    let root = &p.steps[path[0]];
    let answer = (p.answer.number()).ok_or(Refused("a relation item has no numeric answer"))?;
    // The forward answer, as stated to the reader, and exactly so.
    let (mut value, mut value_exact) = (answer, answer);
    let mut chain = Vec::new();
    let mut values_now: HashMap<ElementRef, f64> = HashMap::new();
    values_now.insert(root.output.element, answer);
    for (j, &k) in path.iter().enumerate() {
        let step = &p.steps[k];
        // The input that leads on down the path (or the leaf itself).
        let wanted = match path.get(j + 1) {
            Some(&next) => {
                let e = p.steps[next].output.element;
                step.inputs.iter().find(|b| b.element == e).map(|b| b.role)
            }
            None => Some(leaf),
        }
        .ok_or(Refused("a path step does not use the step below it"))?;
        let (g, s) = inverse_of(step, wanted, exact)
            .ok_or(Refused("a step on the way has no inverse formula"))?;
        let forward = |r: Role| -> Binding {
            let b = step
                .inputs
                .iter()
                .chain([&step.output])
                .find(|b| b.role == r)
                .expect("the roles were matched");
            let value = values_now.get(&b.element).copied().unwrap_or(b.value);
            Binding {
                role: r,
                element: b.element,
                value,
            }
        };
        let inputs: Vec<Binding> = g
            .inputs
            .iter()
            .map(|&r| Binding {
                role: r,
                ..forward(swap(r, s))
            })
            .collect();
        let rounded: Vec<(Role, f64)> = inputs.iter().map(|b| (b.role, b.value)).collect();
        let exact_in: Vec<(Role, f64)> = inputs
            .iter()
            .map(|b| {
                let v = if b.element == step.output.element {
                    value_exact
                } else {
                    exact.get(&b.element).copied().unwrap_or(b.value)
                };
                (b.role, v)
            })
            .collect();
        let out_element = forward(wanted).element;
        value = g
            .rounded(&rounded)
            .map_err(|_| Refused("an inverted step cannot be computed"))?;
        value_exact = g
            .exact(&exact_in)
            .map_err(|_| Refused("an inverted step cannot be computed"))?;
        if !(value.is_finite() && value > 0.0) {
            return Err(Refused("an inverted step gives no positive value"));
        }
        if matches!(out_element, ElementRef::Angle(_)) && value >= 180.0 {
            return Err(Refused("an inverted step gives an angle of 180° or more"));
        }
        values_now.insert(out_element, value);
        chain.push(Step {
            formula: g.id.to_string(),
            kind: step.kind,
            shape: step.shape,
            inputs,
            output: Binding {
                role: g.output,
                element: out_element,
                value,
            },
            variable: None,
            distractor: false,
        });
    }
    // GeomVerse's rule for answers, applied to the new one.
    if (value - value_exact).abs() > 0.03 * value_exact.abs() {
        return Err(Refused(
            "the rounded answer moves by more than 3 % from the exact one",
        ));
    }
    let mut q = p.clone();
    let on_path: Vec<usize> = path.to_vec();
    q.steps = p
        .steps
        .iter()
        .enumerate()
        .filter(|(k, _)| !on_path.contains(k))
        .map(|(_, s)| s.clone())
        .chain(chain)
        .collect();
    let asked = q.steps.last().expect("a chain step").output.element;
    set(&mut q, root.output.element, Status::Given, answer);
    for (e, v) in &values_now {
        if *e != root.output.element {
            set(&mut q, *e, Status::Derived, *v);
        }
    }
    set(&mut q, asked, Status::Asked, value);
    // No shortcut: a given that states the asked value (AB = BC = 13 with BC's 13 on
    // the image) would answer the question without the reasoning.
    if given_values(&q).any(|v| (v - value).abs() <= 1e-9 * value.abs().max(1.0)) {
        return Err(Refused("another given states the asked value"));
    }
    q.answer = crate::generate::Answer::Number(value);
    q.params.backward = true;
    q.params.question_type = question_type(&q, asked);
    text::refresh(&mut q).map_err(|_| Refused("the backward texts cannot be written"))?;
    Ok(q)
}

/// The values of every given element (what the image or the question states).
fn given_values(p: &Problem) -> impl Iterator<Item = f64> + '_ {
    let d = &p.diagram;
    let sides = d.sides.iter().map(|s| (s.status, s.value));
    let angles = d.angles.iter().map(|a| (a.status, a.value));
    let measures = d.measures.iter().map(|m| (m.status, m.value));
    sides
        .chain(angles)
        .chain(measures)
        .filter(|(status, _)| *status == Status::Given)
        .map(|(_, v)| v)
}

fn set(p: &mut Problem, e: ElementRef, status: Status, value: f64) {
    let d = &mut p.diagram;
    match e {
        ElementRef::Side(i) => (d.sides[i].status, d.sides[i].value) = (status, value),
        ElementRef::Angle(i) => (d.angles[i].status, d.angles[i].value) = (status, value),
        ElementRef::Measure(i) => (d.measures[i].status, d.measures[i].value) = (status, value),
    }
}

fn question_type(p: &Problem, e: ElementRef) -> QuestionType {
    match e {
        ElementRef::Side(_) => QuestionType::Side,
        ElementRef::Angle(_) => QuestionType::Angle,
        ElementRef::Measure(i) => match p.diagram.measures[i].kind {
            MeasureKind::Area => QuestionType::Area,
            MeasureKind::Perimeter | MeasureKind::ArcLength => QuestionType::Perimeter,
            MeasureKind::Height => QuestionType::Side,
        },
    }
}
