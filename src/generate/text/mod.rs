//! Names, labels, questions and solutions, in both annotation styles.
//!
//! Everything here is a pure function of the diagram, the steps and `params` (info,
//! phrasing, modality), so a Problem can be rewritten (values moved between image
//! and text, letters permuted, facts moved along the modality ladder) and its texts
//! regenerated consistently. Wording follows GeomVerse's tables 3 and 4.
//!
//! ```text
//! naming   the names of points, shapes, sides and angles, and the labels drawn
//! ladder   the modality ladder: each fact's kind (DI, IP, EC), which rung keeps it
//! wording  the sentences: element phrases, the question's facts, the solution's steps
//! ```
//!
//! The question's frame (its wording, the π and rounding sentences) is
//! [`phrasing`]'s.

mod ladder;
mod naming;
mod wording;

pub(crate) use naming::point_name;

use super::expr::ExprError;
use super::formulas;
use super::problem::{
    Annotation, Binding, ElementRef, Modality, Problem, Texts, VISION_ONLY_INSTRUCTION,
};
use super::rewrite::phrasing;

/// Why texts could not be written for a Problem (one read from JSON and edited, say).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// An index or formula id that does not fit the rest of the Problem.
    #[error("inconsistent problem: {0}")]
    Inconsistent(String),
    /// A step whose values cannot be computed.
    #[error(transparent)]
    Expr(#[from] ExprError),
}

/// "a", "a and b", "a, b and c".
fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn bad(what: String) -> TextError {
    TextError::Inconsistent(what)
}

/// Checks every index and formula id before any text is written, so that a hand-edited
/// Problem gives an error instead of a panic.
pub(crate) fn check(p: &Problem) -> Result<(), TextError> {
    phrasing::check(p).map_err(|e| bad(e.to_string()))?;
    let d = &p.diagram;
    let np = d.points.len();
    let pts_ok = |v: &[usize]| v.iter().all(|&i| i < np);
    for (i, s) in d.shapes.iter().enumerate() {
        if !pts_ok(&s.vertices) || s.vertices.is_empty() {
            return Err(bad(format!("shape {i} has a bad vertex")));
        }
    }
    if !d
        .sides
        .iter()
        .all(|s| pts_ok(&s.points) && s.shapes.iter().all(|&k| k < d.shapes.len()))
    {
        return Err(bad("a side refers to a missing point or shape".into()));
    }
    if !d
        .angles
        .iter()
        .all(|a| pts_ok(&a.points) && a.shape.is_none_or(|k| k < d.shapes.len()))
    {
        return Err(bad("an angle refers to a missing point or shape".into()));
    }
    if !d.measures.iter().all(|m| m.shape < d.shapes.len()) {
        return Err(bad("a measure refers to a missing shape".into()));
    }
    let elem_ok = |e: ElementRef| match e {
        ElementRef::Side(i) => i < d.sides.len(),
        ElementRef::Angle(i) => i < d.angles.len(),
        ElementRef::Measure(i) => i < d.measures.len(),
    };
    if p.steps.is_empty() {
        return Err(bad("no steps".into()));
    }
    for (k, st) in p.steps.iter().enumerate() {
        let f = formulas::by_id(&st.formula)
            .ok_or_else(|| bad(format!("step {k}: unknown formula {}", st.formula)))?;
        let binds: Vec<&Binding> = st.inputs.iter().chain([&st.output]).collect();
        let roles_ok = f.kind == st.kind
            && st.output.role == f.output
            && f.inputs
                .iter()
                .all(|r| st.inputs.iter().any(|b| b.role == *r));
        let shape_ok = st.shape.is_none_or(|s| s < d.shapes.len())
            && (st.shape.is_some() || f.kind.is_connector());
        let elems_ok = binds.iter().all(|b| elem_ok(b.element))
            && st
                .variable
                .as_ref()
                .is_none_or(|v| v.terms.iter().all(|t| elem_ok(t.element)));
        if !(roles_ok && shape_ok && elems_ok) {
            return Err(bad(format!(
                "step {k} ({}) does not fit its formula or the diagram",
                st.formula
            )));
        }
    }
    Ok(())
}

/// Recomputes every name, label and text of a problem from its diagram, steps and info.
pub(super) fn refresh(p: &mut Problem) -> Result<(), TextError> {
    check(p)?;
    naming::refresh_names(&mut p.diagram, p.params.modality);
    naming::refresh_labels(&mut p.diagram, p.params.info, p.params.modality);
    let mut q = Texts::default();
    let mut c = Texts::default();
    for a in Annotation::ALL {
        let (question, cot) = wording::write(p, a)?;
        match a {
            Annotation::Coordinate => {
                q.coordinate = question;
                c.coordinate = cot;
            }
            Annotation::Individual => {
                q.individual = question;
                c.individual = cot;
            }
        }
    }
    // vision-only: the question goes into the image, an instruction stays.
    p.caption = None;
    if p.params.modality == Modality::VisionOnly {
        p.caption = Some(std::mem::replace(
            &mut q,
            Texts {
                coordinate: VISION_ONLY_INSTRUCTION.to_string(),
                individual: VISION_ONLY_INSTRUCTION.to_string(),
            },
        ));
    }
    p.question = q;
    p.cot = c;
    Ok(())
}
