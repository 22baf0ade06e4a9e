//! Input line → jobs. A line is a Problem (it has a `diagram`) or a Scene v1; each
//! gives its base image and one job per variant of the plan.

use super::{Job, JobError, LineFault};
use crate::compose::compose;
use crate::generate::{Params, Problem};
use crate::output::manifest::{ProblemFields, Source};
use crate::scene::{check_id, parse_scene_value};
use crate::variants::{Plan, VariantError, draw_problem, vary_scene};
use serde_json::Value;

/// What a line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Problem,
    Scene,
}

/// A Problem has a `diagram` (or another field only Problems have, so that a
/// Problem missing its diagram gets a Problem error); anything else is a Scene.
pub fn line_kind(value: &Value) -> LineKind {
    const PROBLEM_ONLY: [&str; 5] = ["diagram", "question", "cot", "steps", "params"];
    if PROBLEM_ONLY.iter().any(|k| value.get(k).is_some()) {
        LineKind::Problem
    } else {
        LineKind::Scene
    }
}

/// The jobs of one line under `plan`: the base image first, then the variants.
pub fn expand_line(line: &str, plan: &Plan) -> Result<Vec<Job>, JobError> {
    let value: Value = crate::jsonl::parse_value(line).map_err(|e| LineFault::Json {
        message: e
            .to_string()
            .split(" at line ")
            .next()
            .unwrap_or_default()
            .to_string(),
    })?;
    match line_kind(&value) {
        LineKind::Problem => problem_jobs(&value, plan),
        LineKind::Scene => scene_jobs(&value, plan),
    }
}

fn problem_jobs(value: &Value, plan: &Plan) -> Result<Vec<Job>, JobError> {
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    let problem: Problem = serde_path_to_error::deserialize(value).map_err(|e| JobError {
        id: id.clone(),
        fault: Box::new(LineFault::Problem {
            path: e.path().to_string(),
            source: e.into_inner(),
        }),
    })?;
    check_id(&problem.id).map_err(|e| JobError {
        id: id.clone(),
        fault: Box::new(e.into()),
    })?;
    problem.check_limits().map_err(|e| JobError {
        id,
        fault: Box::new(e.into()),
    })?;
    plan.variants()
        .iter()
        .filter_map(|variant| {
            let vid = variant.id(&problem.id);
            // A problem with no backward question, no auxiliary line of the kind or
            // no room for unrelated shapes has no such variant (the caller counts what is missing); every other
            // refusal is the line's error.
            match draw_problem(&problem, variant) {
                Err(
                    VariantError::NoBackward(_)
                    | VariantError::NoAux(_)
                    | VariantError::NoUnrelated(_),
                ) => None,
                other => Some((vid, variant, other)),
            }
        })
        .map(|(vid, variant, drawing)| {
            let drawing = drawing.map_err(|e| JobError::of(&vid, e))?;
            let composed = compose(&drawing.problem, &drawing.style, drawing.annotation)
                .map_err(|e| JobError::of(&vid, e))?;
            let mut scene = composed.scene;
            scene.id = vid.clone();
            check_id(&scene.id).map_err(|e| JobError::of(&vid, e))?;
            Ok(Job {
                scene,
                encoding: drawing.encoding,
                source: Some(Source {
                    base_id: problem.id.clone(),
                    variant: variant.json(),
                }),
                problem: Some(ProblemFields {
                    annotation: drawing.annotation,
                    question: drawing.problem.question(drawing.annotation).to_string(),
                    cot: drawing.problem.cot(drawing.annotation).to_string(),
                    answer: drawing.problem.answer,
                    // The generation parameters, with what the variant changed about
                    // the question: its wording, and a backward question's type.
                    params: Params {
                        phrasing: drawing.problem.params.phrasing,
                        backward: drawing.problem.params.backward,
                        question_type: drawing.problem.params.question_type,
                        ..problem.params.clone()
                    },
                    style: drawing.style,
                    layout: composed.layout,
                }),
            })
        })
        .collect()
}

fn scene_jobs(value: &Value, plan: &Plan) -> Result<Vec<Job>, JobError> {
    let base = parse_scene_value(value)?;
    if plan.axes.is_empty() {
        return Ok(vec![Job::new(base)]);
    }
    plan.variants()
        .iter()
        .map(|variant| {
            let vid = variant.id(&base.id);
            let (mut scene, encoding) =
                vary_scene(&base, variant).map_err(|e| JobError::of(&vid, e))?;
            scene.id = vid.clone();
            crate::scene::validate(&scene).map_err(|e| JobError::of(&vid, e))?;
            Ok(Job {
                scene,
                encoding,
                source: Some(Source {
                    base_id: base.id.clone(),
                    variant: variant.json(),
                }),
                problem: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Annotation, GenerateOptions, generate_one};
    use crate::variants::VariantError;

    #[test]
    fn problem_lines_give_base_and_variants_with_texts() {
        let p = generate_one(&GenerateOptions::default(), 5).unwrap();
        let line = serde_json::to_string(&p).unwrap();
        let plan = Plan::parse("fontsize=24;annotation", false).unwrap();
        let jobs = expand_line(&line, &plan).unwrap();
        let ids: Vec<&str> = jobs.iter().map(|j| j.scene.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                p.id.clone(),
                format!("{}__fontsize-24", p.id),
                format!("{}__annotation-individual", p.id)
            ]
        );
        let fields = |j: &Job| j.problem.clone().unwrap();
        assert_eq!(fields(&jobs[0]).question, p.question.coordinate);
        assert_eq!(fields(&jobs[0]).annotation, Annotation::Coordinate);
        assert!(jobs[0].source.as_ref().unwrap().variant.is_empty());
        assert_eq!(fields(&jobs[2]).question, p.question.individual);
        assert_eq!(fields(&jobs[2]).cot, p.cot.individual);
        assert!(jobs.iter().all(|j| fields(j).answer == p.answer
            && j.source.as_ref().unwrap().base_id == p.id));
        assert_eq!(fields(&jobs[1]).style.font_size, 24.0);
    }

    #[test]
    fn scene_lines_without_a_plan_are_unchanged() {
        let s = crate::scene::synthetic::diagram_scene(1, 64);
        let jobs = expand_line(&serde_json::to_string(&s).unwrap(), &Plan::base_only()).unwrap();
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].scene, s);
        assert!(jobs[0].source.is_none() && jobs[0].problem.is_none());
    }

    #[test]
    fn semantic_axes_on_scenes_and_broken_problems_are_line_errors() {
        let s = crate::scene::synthetic::diagram_scene(1, 64);
        let e = expand_line(
            &serde_json::to_string(&s).unwrap(),
            &Plan::parse("relabel", false).unwrap(),
        )
        .unwrap_err();
        assert!(
            matches!(
                *e.fault,
                LineFault::Variant(VariantError::NeedsProblem("relabel"))
            ),
            "{e:?}"
        );
        let e = expand_line(r#"{"id":"p","diagram":{}}"#, &Plan::base_only()).unwrap_err();
        assert!(matches!(*e.fault, LineFault::Problem { .. }), "{e:?}");
        assert!(e.fault.to_string().starts_with("problem: "), "{e:?}");
        assert_eq!(e.id.as_deref(), Some("p"));
    }
}
