//! `values`: the same problem with other givens (DynaMath's value variants).
//!
//! The problem's generation is run again from its seed to recover its tree (its
//! shapes, formulas, which inputs are derived, which nodes distract or are stated
//! as `a·x + b`). Every fact of that tree is drawn again from a stream of its own
//! (problem seed, k, try), under the generator's rules: each shape fitted and kept
//! sensible, each step within GeomVerse's 3 % rounding rule, the answer too. The
//! new tree is placed, coloured and named with the base attempt's own stream, so
//! the same choices fall the same way; a redraw is kept only when it has exactly
//! the base's skeleton: the same letters, colours, shape kinds and outlines' make,
//! the same elements shown, given, derived and asked, and texts that read the same
//! once every number is masked. Nothing but numbers and where things are drawn
//! differs from the base.

use super::super::{GenerateError, Problem, Step, algorithm, draw, origin, rng::Rng};
use crate::decimal::mask_numbers;
use crate::generate::{Diagram, Segment, Status, Texts};

/// Tries at a redraw of one variant before the problem is said to have none.
pub(crate) const TRIES: u32 = 200;

/// Values variant `k` of `p` (`values=k`): the same tree with other givens, drawn,
/// solved and worded again.
pub(crate) fn with_values(p: &Problem, k: u64) -> Result<Problem, GenerateError> {
    let from = origin(p).ok_or_else(|| GenerateError::NotFromSeed { id: p.id.clone() })?;
    for attempt in 0..TRIES {
        let mut rng = Rng::for_values(p.seed, k, attempt);
        let Ok(tree) = algorithm::revalue(&from.tree, &from.config, &mut rng) else {
            continue;
        };
        let mut rng = from.after_tree.clone();
        let Some(q) = draw(&tree, &p.params, &p.id, p.seed, &mut rng) else {
            continue;
        };
        if same_skeleton(p, &q) && givens_differ(p, &q) {
            return Ok(q);
        }
    }
    Err(GenerateError::NoValues {
        id: p.id.clone(),
        k,
        tries: TRIES,
    })
}

/// Whether `q` is `p` with other numbers: everything but values and coordinates
/// equal, and both texts equal with their numbers masked.
pub(crate) fn same_skeleton(p: &Problem, q: &Problem) -> bool {
    let texts = |a: &Texts, b: &Texts| {
        mask_numbers(&a.coordinate) == mask_numbers(&b.coordinate)
            && mask_numbers(&a.individual) == mask_numbers(&b.individual)
    };
    p.params == q.params
        && texts(&p.question, &q.question)
        && texts(&p.cot, &q.cot)
        && same_diagram(&p.diagram, &q.diagram)
        && p.steps.len() == q.steps.len()
        && p.steps.iter().zip(&q.steps).all(|(a, b)| same_step(a, b))
}

fn same_diagram(a: &Diagram, b: &Diagram) -> bool {
    let masked = |s: &Option<String>| s.as_deref().map(mask_numbers);
    let labels = |x: &crate::generate::Labels, y: &crate::generate::Labels| {
        masked(&x.coordinate) == masked(&y.coordinate)
            && masked(&x.individual) == masked(&y.individual)
    };
    let make = |s: &[crate::generate::Contour]| -> Vec<Vec<bool>> {
        (s.iter())
            .map(|c| {
                (c.segments.iter())
                    .map(|g| matches!(g, Segment::Arc { .. }))
                    .collect()
            })
            .collect()
    };
    a.points.len() == b.points.len()
        && a.points
            .iter()
            .zip(&b.points)
            .all(|(x, y)| x.name == y.name)
        && a.shapes.len() == b.shapes.len()
        && a.shapes.iter().zip(&b.shapes).all(|(x, y)| {
            (x.kind, &x.name, &x.colour, &x.vertices) == (y.kind, &y.name, &y.colour, &y.vertices)
                && make(&x.outline) == make(&y.outline)
        })
        && a.sides.len() == b.sides.len()
        && a.sides.iter().zip(&b.sides).all(|(x, y)| {
            (x.points, x.kind, &x.shapes, &x.name, x.status, x.shown)
                == (y.points, y.kind, &y.shapes, &y.name, y.status, y.shown)
                && masked(&x.expr) == masked(&y.expr)
                && labels(&x.label, &y.label)
        })
        && a.angles.len() == b.angles.len()
        && a.angles.iter().zip(&b.angles).all(|(x, y)| {
            (x.points, x.shape, &x.name, x.status, x.shown)
                == (y.points, y.shape, &y.name, y.status, y.shown)
                && masked(&x.expr) == masked(&y.expr)
                && labels(&x.label, &y.label)
        })
        && a.measures.len() == b.measures.len()
        && a.measures.iter().zip(&b.measures).all(|(x, y)| {
            (x.shape, x.kind, x.status) == (y.shape, y.kind, y.status)
                && masked(&x.expr) == masked(&y.expr)
        })
        && a.rays == b.rays
        && a.aux.is_empty()
        && b.aux.is_empty()
        && a.right_angles == b.right_angles
        && a.marks == b.marks
        && a.frame.is_none()
        && b.frame.is_none()
}

fn same_step(a: &Step, b: &Step) -> bool {
    let bound = |s: &Step| {
        let mut v: Vec<_> = s.inputs.iter().map(|x| (x.role, x.element)).collect();
        v.push((s.output.role, s.output.element));
        v
    };
    let terms = |s: &Step| {
        (s.variable.as_ref()).map(|v| v.terms.iter().map(|t| t.element).collect::<Vec<_>>())
    };
    (&a.formula, a.kind, a.shape, a.distractor) == (&b.formula, b.kind, b.shape, b.distractor)
        && bound(a) == bound(b)
        && terms(a) == terms(b)
}

/// Whether some given value differs: what the problem states (on the image or in
/// the text), so a reader has another problem to solve. Not a value the texts do
/// not state (an unused side of a triangle drawn at another size), nor a
/// variable's `a·x + b` restated for the same value.
fn givens_differ(p: &Problem, q: &Problem) -> bool {
    let given = |d: &Diagram| {
        let sides = d.sides.iter().map(|s| (s.status, s.value));
        let angles = d.angles.iter().map(|a| (a.status, a.value));
        let measures = d.measures.iter().map(|m| (m.status, m.value));
        (sides.chain(angles).chain(measures))
            .filter(|(status, _)| *status == Status::Given)
            .map(|(_, v)| v)
            .collect::<Vec<f64>>()
    };
    given(&p.diagram) != given(&q.diagram)
}
