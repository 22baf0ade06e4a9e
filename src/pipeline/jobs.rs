//! Input line → jobs. A line is a Problem (it has a `diagram`) or a Scene v1; each
//! gives its base image and one job per variant of the plan.

use super::{Job, JobError};
use crate::compose::compose;
use crate::generate::Problem;
use crate::scene::{check_id, parse_scene_value};
use crate::variants::{Plan, annotation_name, draw_problem, vary_scene};
use serde_json::{Map, Value};

/// What a line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Problem,
    Scene,
}

/// A Problem has a `diagram`; anything else is read as a Scene.
pub fn line_kind(value: &Value) -> LineKind {
    if value.get("diagram").is_some() {
        LineKind::Problem
    } else {
        LineKind::Scene
    }
}

/// The jobs of one line under `plan`: the base image first, then the variants.
pub fn expand_line(line: &str, plan: &Plan) -> Result<Vec<Job>, JobError> {
    let value: Value = serde_json::from_str(line).map_err(|e| JobError {
        id: None,
        message: format!(
            "malformed JSON: {}",
            e.to_string().split(" at line ").next().unwrap_or_default()
        ),
    })?;
    match line_kind(&value) {
        LineKind::Problem => problem_jobs(&value, plan),
        LineKind::Scene => scene_jobs(&value, plan),
    }
}

fn problem_jobs(value: &Value, plan: &Plan) -> Result<Vec<Job>, JobError> {
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    let fail = |message: String| JobError {
        id: id.clone(),
        message,
    };
    let problem: Problem = serde_path_to_error::deserialize(value)
        .map_err(|e| fail(format!("problem: {}: {}", e.path(), e.inner())))?;
    check_id(&problem.id).map_err(|e| fail(e.reason.to_string()))?;
    let params = serde_json::to_value(&problem.params).expect("params serialise");
    plan.variants()
        .iter()
        .map(|variant| {
            let vid = variant.id(&problem.id);
            let fail = |message: String| JobError {
                id: Some(vid.clone()),
                message,
            };
            let drawing = draw_problem(&problem, variant).map_err(|e| fail(e.to_string()))?;
            let composed = compose(&drawing.problem, &drawing.style, drawing.annotation)
                .map_err(|e| fail(e.to_string()))?;
            let mut scene = composed.scene;
            scene.id = vid.clone();
            check_id(&scene.id).map_err(|e| fail(e.reason.to_string()))?;
            let mut extra = Map::new();
            extra.insert("base_id".into(), problem.id.clone().into());
            extra.insert("variant".into(), Value::Object(variant.json()));
            extra.insert(
                "annotation".into(),
                annotation_name(drawing.annotation).into(),
            );
            extra.insert(
                "question".into(),
                drawing.problem.question(drawing.annotation).into(),
            );
            extra.insert("cot".into(), drawing.problem.cot(drawing.annotation).into());
            extra.insert("answer".into(), problem.answer.into());
            extra.insert("params".into(), params.clone());
            extra.insert(
                "style".into(),
                serde_json::to_value(&drawing.style).expect("style serialises"),
            );
            extra.insert(
                "layout".into(),
                serde_json::to_value(&composed.layout).expect("layout serialises"),
            );
            Ok(Job {
                scene,
                extra,
                encoding: drawing.encoding,
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
            let fail = |message: String| JobError {
                id: Some(vid.clone()),
                message,
            };
            let (mut scene, encoding) =
                vary_scene(&base, variant).map_err(|e| fail(e.to_string()))?;
            scene.id = vid.clone();
            crate::scene::validate(&scene).map_err(|e| fail(e.to_string()))?;
            let mut extra = Map::new();
            extra.insert("base_id".into(), base.id.clone().into());
            extra.insert("variant".into(), Value::Object(variant.json()));
            Ok(Job {
                scene,
                extra,
                encoding,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate_one};

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
        assert_eq!(jobs[0].extra["question"], p.question.coordinate);
        assert_eq!(jobs[0].extra["annotation"], "coordinate");
        assert_eq!(jobs[0].extra["variant"], serde_json::json!({}));
        assert_eq!(jobs[2].extra["question"], p.question.individual);
        assert_eq!(jobs[2].extra["cot"], p.cot.individual);
        assert!(
            jobs.iter()
                .all(|j| j.extra["answer"] == p.answer && j.extra["base_id"] == p.id.as_str())
        );
        assert_eq!(jobs[1].extra["style"]["font_size"], 24.0);
    }

    #[test]
    fn scene_lines_without_a_plan_are_unchanged() {
        let s = crate::scene::synthetic::diagram_scene(1, 64);
        let jobs = expand_line(&serde_json::to_string(&s).unwrap(), &Plan::base_only()).unwrap();
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].scene, s);
        assert!(jobs[0].extra.is_empty());
    }

    #[test]
    fn semantic_axes_on_scenes_and_broken_problems_are_line_errors() {
        let s = crate::scene::synthetic::diagram_scene(1, 64);
        let e = expand_line(
            &serde_json::to_string(&s).unwrap(),
            &Plan::parse("relabel", false).unwrap(),
        )
        .unwrap_err();
        assert!(e.message.contains("needs a Problem"), "{e:?}");
        let e = expand_line(r#"{"id":"p","diagram":{}}"#, &Plan::base_only()).unwrap_err();
        assert!(e.message.starts_with("problem: "), "{e:?}");
        assert_eq!(e.id.as_deref(), Some("p"));
    }
}
