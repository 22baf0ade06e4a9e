//! Input line → jobs. A line is a Problem (it has a `diagram`) or a Scene v1; each
//! gives its base image and one job per variant of the plan.

use super::{Job, JobError, LineFault};
use crate::compose::{Composed, compose, compose_variant};
use crate::generate::{Answer, Params, Problem};
use crate::output::availability::{Bases, VariantOutcome};
use crate::output::manifest::{Lineage, ProblemFields, RelationFields};
use crate::scene::{check_id, limits, parse_scene_value};
use crate::variants::{
    Axis, Drawing, Pixels, Plan, Variant, VariantError, draw_problem, vary_scene,
};
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

/// The jobs of one line under `plan`: the base image first, then the variants (less
/// those the problem has none of, see [`Job::expand`]). All or nothing: a variant
/// that cannot be made is an error here too (a run makes the line's other images
/// and reports that variant alone).
#[cfg(test)]
pub(crate) fn expand_line(line: &str, plan: &Plan) -> Result<Vec<Job>, JobError> {
    let expanded = Job::expand(line, plan)?;
    match expanded.failed.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(expanded.jobs),
    }
}

/// A variant of the plan that is not drawn, and not a fault of the input: the
/// problem has none (`VariantError::not_made`), or it would be its base image
/// again ([`VariantError::SameAsBase`]). The line's other images are made, and the
/// run lists each in `skipped.jsonl`.
#[derive(Debug)]
pub struct Skipped {
    /// Why, with the variant's id (`<base>__<axis>-<value>…`).
    pub error: JobError,
    /// The variant's values as SPEC writes them (`info=image`, `opacity=0.1;palette=grayscale`).
    pub variant: String,
    /// The variant's values as the manifest writes them.
    pub values: serde_json::Map<String, Value>,
    /// The base image's id.
    pub base_id: String,
}

/// Why a variant was not drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// The problem has no such variant (`backward`, `aux`, `unrelated`, a
    /// grayscale diagram with more shapes than greys).
    NotMade,
    /// Its image and texts would equal its base's: not a condition of its own.
    Identical,
}

impl Skipped {
    /// The axis, and when it has no such variant, as a run's summary says it.
    pub(crate) fn not_made(&self) -> Option<(Axis, &'static str)> {
        match &*self.error.fault {
            LineFault::Variant(e) => e.not_made(),
            _ => None,
        }
    }

    /// Why it was not drawn.
    pub fn reason(&self) -> SkipReason {
        match &*self.error.fault {
            LineFault::Variant(VariantError::SameAsBase) => SkipReason::Identical,
            _ => SkipReason::NotMade,
        }
    }
}

/// One line's jobs (the base image first), the variants its problem has none of, and
/// the variants that could not be made.
#[derive(Debug, Default)]
pub struct Expanded {
    pub jobs: Vec<Job>,
    /// Not made, and not a fault: the problem has no such variant.
    pub skipped: Vec<Skipped>,
    /// Variants that cannot be made (a rewrite of a hand-edited problem that fails,
    /// a layout that does not fit at that font size, an id too long for its
    /// suffixes): each fails alone, in plan order, each with its variant's id.
    pub failed: Vec<JobError>,
    /// The kind of base the line is, and what became of each of the plan's
    /// variants (not the base), in plan order: what [`super::Availability`] counts.
    pub bases: Option<Bases>,
    pub outcomes: Vec<(String, VariantOutcome)>,
}

impl Job {
    /// The jobs of one line under `plan`, the variants that were not made because
    /// the problem has none (`VariantError::not_made`), and the variants that
    /// could not be made, which fail alone. The line fails as a whole when it cannot
    /// be read, when its base image cannot be made, or when a Scene line is asked for
    /// an axis only Problems have ([`VariantError::NeedsProblem`]).
    pub fn expand(line: &str, plan: &Plan) -> Result<Expanded, JobError> {
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
}

/// Each of `plan`'s variants made by `job`: one the problem has none of, or one
/// whose image and texts equal the base's, is skipped; one that cannot be made
/// fails alone; a failure of the base image, or an axis a Scene line cannot have, is
/// the line's.
fn each_variant(
    plan: &Plan,
    base_id: &str,
    mut job: impl FnMut(&Variant) -> Result<Job, JobError>,
) -> Result<Expanded, JobError> {
    let mut out = Expanded::default();
    for variant in plan.variants() {
        let made = job(&variant).and_then(|j| match out.jobs.first() {
            Some(base) if !variant.made_when_same() && j.same_as(base) => {
                Err(JobError::of(&j.scene.id, VariantError::SameAsBase))
            }
            _ => Ok(j),
        });
        let outcome = match made {
            Ok(j) => {
                out.jobs.push(j);
                VariantOutcome::Made
            }
            Err(error) if variant.is_base() || needs_problem(&error) => return Err(error),
            Err(error) => {
                let skipped = Skipped {
                    error,
                    variant: variant.label(),
                    values: variant.json(),
                    base_id: base_id.to_string(),
                };
                match (skipped.not_made(), skipped.reason()) {
                    (None, SkipReason::NotMade) => {
                        out.failed.push(skipped.error);
                        VariantOutcome::Failed
                    }
                    (_, reason) => {
                        out.skipped.push(skipped);
                        match reason {
                            SkipReason::NotMade => VariantOutcome::NotMade,
                            SkipReason::Identical => VariantOutcome::Identical,
                        }
                    }
                }
            }
        };
        if !variant.is_base() {
            out.outcomes.push((variant.label(), outcome));
        }
    }
    Ok(out)
}

impl Job {
    /// Whether this job draws and says exactly what `base` does: the same Scene
    /// (but its id), stored the same way, with the same question, CoT and answer.
    pub(crate) fn same_as(&self, base: &Job) -> bool {
        let (a, b) = (&self.scene, &base.scene);
        fn texts(j: &Job) -> Option<(&str, &str, Answer)> {
            j.problem
                .as_ref()
                .map(|p| (p.question.as_str(), p.cot.as_str(), p.answer))
        }
        a.width == b.width
            && a.height == b.height
            && a.background == b.background
            && a.items == b.items
            && (self.pixels == base.pixels || (base.pixels.is_empty() && self.pixels.keep(a)))
            && self.encoding == base.encoding
            && texts(self) == texts(base)
    }
}

/// A semantic axis on a Scene line: the whole input is of the wrong kind for the
/// plan, not one variant.
fn needs_problem(e: &JobError) -> bool {
    matches!(&*e.fault, LineFault::Variant(VariantError::NeedsProblem(_)))
}

/// `variant`'s id for the base id `base`, refused (as the variant's fault, not the
/// base id's) when the suffixes make it longer than an id may be.
fn variant_id(base: &str, variant: &Variant) -> Result<String, JobError> {
    let vid = variant.id(base);
    if !variant.is_base() && vid.len() > limits::MAX_ID_BYTES {
        let e = VariantError::IdTooLong {
            id: vid.clone(),
            base: base.to_string(),
            max: limits::MAX_ID_BYTES,
        };
        return Err(JobError::of(vid, e));
    }
    Ok(vid)
}

fn problem_jobs(value: &Value, plan: &Plan) -> Result<Expanded, JobError> {
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    let problem: Problem = serde_path_to_error::deserialize(value).map_err(|e| JobError {
        id,
        fault: Box::new(LineFault::Problem {
            path: e.path().to_string(),
            source: e.into_inner(),
        }),
    })?;
    Job::expand_problem(&problem, plan)
}

impl Job {
    /// The jobs of a Problem already in memory under `plan`: what [`Job::expand`]
    /// makes of its JSON line, without writing and parsing the line (its id and
    /// limits are checked the same way).
    pub fn expand_problem(problem: &Problem, plan: &Plan) -> Result<Expanded, JobError> {
        let refused = |fault: LineFault| JobError {
            id: Some(problem.id.clone()),
            fault: Box::new(fault),
        };
        check_id(&problem.id).map_err(|e| refused(e.into()))?;
        problem.check_limits().map_err(|e| refused(e.into()))?;
        // The base's composition: variants keep its labels where they still may stand.
        let mut base: Option<Composed> = None;
        let mut expanded = each_variant(plan, &problem.id, |variant| {
            let vid = variant_id(&problem.id, variant)?;
            let (drawing, composed) =
                draw_variant(problem, variant, base.as_ref()).map_err(|e| JobError::of(&vid, e))?;
            if variant.is_base() {
                base = Some(composed.clone());
            }
            problem_job(problem, variant, vid, drawing, composed)
        })?;
        expanded.bases = Some(Bases::of(problem));
        Ok(expanded)
    }
}

/// How `variant` of `problem` is drawn and composed: against `base`, the base
/// image's composition, when given (its labels kept where they may stay, see
/// `compose_variant`). What a run draws, and `audit` composes again.
pub(crate) fn draw_variant(
    problem: &Problem,
    variant: &Variant,
    base: Option<&Composed>,
) -> Result<(Drawing, Composed), LineFault> {
    let drawing = draw_problem(problem, variant)?;
    let composed = match base {
        Some(b) => compose_variant(&drawing.problem, &drawing.style, drawing.annotation, b),
        None => compose(&drawing.problem, &drawing.style, drawing.annotation),
    }?;
    Ok((drawing, composed))
}

/// One image of a Problem, drawn and composed.
fn problem_job(
    problem: &Problem,
    variant: &Variant,
    vid: String,
    drawing: Drawing,
    mut composed: Composed,
) -> Result<Job, JobError> {
    let drawn = composed.take_drawn();
    let mut scene = composed.scene;
    scene.id = vid.clone();
    check_id(&scene.id).map_err(|e| JobError::of(&vid, e))?;
    Ok(Job {
        scene,
        pixels: drawing.pixels,
        // A text-only problem's row has no image: its scene is composed (what the
        // base draws) and never rendered.
        encoding: (drawing.problem.params.modality.has_image()).then_some(drawing.encoding),
        source: Some(Lineage {
            base_id: problem.id.clone(),
            variant: variant.json(),
        }),
        problem: Some(ProblemFields {
            annotation: drawing.annotation,
            question: drawing.problem.question(drawing.annotation).to_string(),
            cot: drawing.problem.cot(drawing.annotation).to_string(),
            caption: (drawing.problem.caption.as_ref())
                .map(|c| c.get(drawing.annotation).to_string()),
            answer: drawing.problem.answer,
            relation: RelationFields::of(&drawing.problem),
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
            problem: Some(Box::new(drawing.problem)),
        }),
        drawn: Some(drawn),
    })
}

fn scene_jobs(value: &Value, plan: &Plan) -> Result<Expanded, JobError> {
    let base = parse_scene_value(value)?;
    if plan.axes.is_empty() {
        return Ok(Expanded {
            jobs: vec![Job::new(base)],
            ..Expanded::default()
        });
    }
    let job = |variant: &Variant| {
        let vid = variant_id(&base.id, variant)?;
        let (mut scene, encoding) =
            vary_scene(&base, variant).map_err(|e| JobError::of(&vid, e))?;
        scene.id = vid.clone();
        crate::scene::validate(&scene).map_err(|e| JobError::of(&vid, e))?;
        Ok(Job {
            scene,
            pixels: Pixels::of(variant),
            encoding: Some(encoding),
            source: Some(Lineage {
                base_id: base.id.clone(),
                variant: variant.json(),
            }),
            problem: None,
            drawn: None,
        })
    };
    let mut expanded = each_variant(plan, &base.id, job)?;
    expanded.bases = Some(Bases::Scenes);
    Ok(expanded)
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

    #[test]
    fn a_variant_id_too_long_for_its_suffixes_names_the_base_id() {
        let mut p = generate_one(&GenerateOptions::default(), 5).unwrap();
        p.id = "p".repeat(190);
        let line = serde_json::to_string(&p).unwrap();
        let plan = Plan::parse("fontsize=8;opacity=0.25", true).unwrap();
        let e = expand_line(&line, &plan).unwrap_err();
        let vid = format!("{}__fontsize-8__opacity-0.25", p.id);
        assert_eq!(e.id.as_deref(), Some(vid.as_str()));
        assert_eq!(e.fault.kind(), "variant");
        assert_eq!(
            e.fault.to_string(),
            format!(
                "variant id {vid:?} is 216 characters, more than the 200 an id may have, \
                 because of the variant suffixes added to the base id {:?} (190 characters); \
                 use a shorter base id, or fewer axes in --variants (with --grid each axis \
                 adds a suffix)",
                p.id
            )
        );
        // The same on a Scene line.
        let mut s = crate::scene::synthetic::diagram_scene(1, 64);
        s.id = "s".repeat(190);
        let e = expand_line(&serde_json::to_string(&s).unwrap(), &plan).unwrap_err();
        assert!(
            matches!(
                &*e.fault,
                LineFault::Variant(VariantError::IdTooLong { .. })
            ),
            "{e:?}"
        );
        // Not the base id's rule: the base id alone is fine.
        assert!(expand_line(&line, &Plan::parse("jpeg=5", false).unwrap()).is_ok());
    }

    #[test]
    fn a_variant_that_cannot_be_made_fails_alone() {
        let p = generate_one(&GenerateOptions::default(), 5).unwrap();
        let mut v = serde_json::to_value(&p).unwrap();
        v["steps"][0]["formula"] = "no-such-formula".into();
        let line = v.to_string();
        let plan = Plan::parse("info;opacity=0.25", false).unwrap();
        let e = Job::expand(&line, &plan).unwrap();
        let ids: Vec<&str> = e.jobs.iter().map(|j| j.scene.id.as_str()).collect();
        assert_eq!(ids, [p.id.clone(), format!("{}__opacity-0.25", p.id)]);
        assert!(e.skipped.is_empty());
        let failed: Vec<(Option<&str>, String)> = e
            .failed
            .iter()
            .map(|f| (f.id.as_deref(), f.fault.to_string()))
            .collect();
        let why = "info: the problem cannot be rewritten: inconsistent problem: step 0: \
                   unknown formula no-such-formula"
            .to_string();
        let (text, image) = (
            format!("{}__info-text", p.id),
            format!("{}__info-image", p.id),
        );
        assert_eq!(
            failed,
            [
                (Some(text.as_str()), why.clone()),
                (Some(image.as_str()), why)
            ]
        );
        assert!(e.failed.iter().all(|f| f.fault.kind() == "variant"));
        // All or nothing for `expand_line`: the first failure.
        let err = expand_line(&line, &plan).unwrap_err();
        assert_eq!(err.id.as_deref(), Some(text.as_str()));
        // A variant id too long for its suffixes fails that variant, not the base.
        let mut long = p.clone();
        long.id = "p".repeat(190);
        let line = serde_json::to_string(&long).unwrap();
        let e = Job::expand(&line, &Plan::parse("fontsize=8;jpeg=5", false).unwrap()).unwrap();
        assert_eq!(e.jobs.len(), 2, "the base and __jpeg-5");
        assert_eq!(e.failed.len(), 1);
    }

    #[test]
    fn variants_a_problem_has_none_of_are_not_made_by_axis() {
        // Some generated problem has no backward question.
        let none = (0..200)
            .map(|k| generate_one(&GenerateOptions::default(), k).unwrap())
            .find(|p| crate::generate::backward_question(p).is_err())
            .expect("a problem without a backward question");
        let line = serde_json::to_string(&none).unwrap();
        let e = Job::expand(&line, &Plan::parse("backward", false).unwrap()).unwrap();
        assert_eq!(e.jobs.len(), 1);
        assert_eq!(e.skipped.len(), 1);
        let (axis, when) = e.skipped[0].not_made().unwrap();
        assert_eq!(axis, Axis::BACKWARD);
        assert!(when.starts_with("backward=1 where"), "{when}");
    }
}
