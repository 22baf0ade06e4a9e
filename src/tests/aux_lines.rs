//! Auxiliary lines (`aux=solution,unrelated`, VisAidMath's visual aids), checked
//! against the Problem's reasoning rather than the code that picks them:
//! - `solution`: every dashed line is one the solution computes with. A height,
//!   perpendicular to its edge, is as long as the area the solution states divided
//!   by that edge (parallelogram), twice that (triangle) or by the mean of the bases
//!   (trapezoid), within 3 %; a radius is half its semicircle's diameter.
//! - `unrelated`: no step of the solution touches what a line measures: no area
//!   from sides and an angle or from a height on a shape given a height, no step on
//!   a semicircle given a radius, no diagonal bound on a shape given a diagonal
//!   (medians and sector chords no formula uses). It is made for at least 90 % of
//!   problems at depths 1–3 and 4–6.
//! - Every line is drawn: the Scene has one dashed path with a piece per line.
//! - Layout guarantees hold at every font size of the default sweep.

use geomrender::generate::Role;
use geomrender::generate::formulas::by_id;
use geomrender::generate::{AidKind, AuxLine, GenerateOptions, Problem, generate_range};
use geomrender::pipeline::expand_line;
use geomrender::scene::Item;
use geomrender::variants::{Axis, Plan, draw_problem};

fn len(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn point(p: &Problem, i: usize) -> [f64; 2] {
    [p.diagram.points[i].x, p.diagram.points[i].y]
}

/// What the solution says the line must measure, from the steps on its shape.
fn solution_length(p: &Problem, a: &AuxLine) -> Option<f64> {
    let steps = p
        .steps
        .iter()
        .filter(|s| !s.distractor && s.shape == Some(a.shape));
    for s in steps {
        let f = by_id(&s.formula)?;
        let value = |r: Role| {
            s.inputs
                .iter()
                .chain([&s.output])
                .find(|b| b.role == r)
                .map(|b| b.value)
        };
        let kind = f.kind;
        match a.kind {
            AidKind::Height => {
                let Some(area) = value(Role::Area) else {
                    continue;
                };
                let edge = len(point(p, a.on[0]), point(p, a.on[1]));
                use geomrender::generate::shapes::ShapeKind as K;
                return Some(match kind {
                    K::Parallelogram => area / edge,
                    K::Triangle => 2.0 * area / edge,
                    K::Trapezoid => 2.0 * area / (value(Role::Edge(0))? + value(Role::Edge(1))?),
                    _ => continue,
                });
            }
            AidKind::Radius => {
                return Some(len(point(p, a.on[0]), point(p, a.on[1])) / 2.0);
            }
            AidKind::Diagonal | AidKind::Median | AidKind::Chord => {}
        }
    }
    None
}

/// Whether some step of the solution works with what `a` measures.
fn solution_touches(p: &Problem, a: &AuxLine) -> bool {
    p.steps
        .iter()
        .filter(|s| !s.distractor && s.shape == Some(a.shape))
        .any(|s| {
            let roles = || s.inputs.iter().chain([&s.output]).map(|b| b.role);
            match a.kind {
                // An area from sides and an angle, or from a height (Heron's formula,
                // from three sides, needs none).
                AidKind::Height => {
                    roles().any(|r| r == Role::Area)
                        && roles().any(|r| matches!(r, Role::Angle(_) | Role::Height))
                }
                AidKind::Radius => true,
                AidKind::Diagonal => roles().any(|r| r == Role::Diagonal),
                // No formula works with a triangle's median or a sector's chord.
                AidKind::Median | AidKind::Chord => false,
            }
        })
}

#[test]
fn auxiliary_lines_are_the_ones_the_solution_uses_or_does_not() {
    let plan = Plan::parse("aux", false).unwrap();
    let opts = GenerateOptions {
        seed: 41,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let (mut used, mut unused) = (0, 0);
    for p in generate_range(&opts, 0, 400) {
        let p = p.unwrap();
        let jobs = expand_line(&serde_json::to_string(&p).unwrap(), &plan).unwrap();
        for v in plan.variants().iter().filter(|v| !v.is_base()) {
            let Ok(d) = draw_problem(&p, v) else { continue };
            let id = v.id(&p.id);
            let job = jobs
                .iter()
                .find(|j| j.scene.id == id)
                .expect("a job per drawn variant");
            let lines = &d.problem.diagram.aux;
            assert!(!lines.is_empty(), "{id}: a variant without lines was made");
            // Drawn: one dashed path, a piece per line.
            let dashed: Vec<&str> = job
                .scene
                .items
                .iter()
                .filter_map(|i| match i {
                    Item::Path(path) if !path.dash.is_empty() => Some(path.d.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(dashed.len(), 1, "{id}");
            assert_eq!(dashed[0].matches('M').count(), lines.len(), "{id}");
            // The texts and answer are the base's.
            let f = job.problem.as_ref().unwrap();
            assert_eq!(f.question, p.question.coordinate, "{id}");
            assert_eq!(
                f.answer.number().map(f64::to_bits),
                p.answer.number().map(f64::to_bits),
                "{id}"
            );
            let solution = v.get(Axis::AUX).map(|a| a.label()).as_deref() == Some("solution");
            for a in lines {
                let l = len(a.from, a.to);
                if solution {
                    let want = solution_length(&p, a).unwrap_or_else(|| {
                        panic!(
                            "{id}: a {:?} on shape {} that no step uses",
                            a.kind, a.shape
                        )
                    });
                    assert!(
                        (l - want).abs() <= 0.03 * want,
                        "{id}: {:?} is {l}, the solution's {want}",
                        a.kind
                    );
                    used += 1;
                } else {
                    assert!(
                        !solution_touches(&p, a),
                        "{id}: {a:?} is one the solution uses"
                    );
                    unused += 1;
                }
                if a.kind == AidKind::Height {
                    let (e0, e1) = (point(&p, a.on[0]), point(&p, a.on[1]));
                    let dot = (a.to[0] - a.from[0]) * (e1[0] - e0[0])
                        + (a.to[1] - a.from[1]) * (e1[1] - e0[1]);
                    assert!(
                        dot.abs() <= 1e-6 * l * len(e0, e1),
                        "{id}: a height not perpendicular"
                    );
                }
            }
        }
    }
    eprintln!("{used} solution lines and {unused} unrelated lines checked");
    assert!(used >= 100 && unused >= 100, "{used} {unused}");
}

#[test]
fn aux_variants_keep_the_layout_guarantees_at_every_font_size() {
    let checked = crate::tests::support::drawn::assert_layout_guarantees("aux;fontsize", 42, 150);
    assert!(checked > 300, "{checked}");
}

/// Issue 25: `aux=unrelated` for at least 90 % of problems, and `aux=solution` for
/// every problem whose solution computes with a line the diagram does not draw — a
/// height (an area of a triangle, parallelogram or trapezoid from sides and an angle
/// or from a height) or a semicircle's radius (any step on a semicircle) — counted
/// from the steps, at depths 1–3 and 4–6.
#[test]
fn auxiliary_lines_are_made_for_most_problems() {
    use geomrender::generate::shapes::ShapeKind as K;
    let plan = Plan::parse("aux", false).unwrap();
    let variants = plan.variants();
    let (solution, unrelated) = (&variants[1], &variants[2]);
    for depth in [1..=3, 4..=6] {
        let opts = GenerateOptions {
            seed: 31,
            depth: depth.clone(),
            ..GenerateOptions::default()
        };
        let (mut n, mut with_unrelated, mut needing) = (0, 0, 0);
        for p in generate_range(&opts, 0, 200) {
            let p = p.unwrap();
            n += 1;
            with_unrelated += usize::from(draw_problem(&p, unrelated).is_ok());
            let needs = p.steps.iter().filter(|s| !s.distractor).any(|s| {
                let Some(shape) = s.shape else { return false };
                let roles = || s.inputs.iter().chain([&s.output]).map(|b| b.role);
                match p.diagram.shapes[shape].kind {
                    K::Triangle | K::Parallelogram | K::Trapezoid => {
                        roles().any(|r| r == Role::Area)
                            && roles().any(|r| matches!(r, Role::Angle(_) | Role::Height))
                    }
                    K::Semicircle => true,
                    _ => false,
                }
            });
            if needs {
                needing += 1;
                assert!(
                    draw_problem(&p, solution).is_ok(),
                    "{}: the solution uses an undrawn line, but aux=solution is not made",
                    p.id
                );
            }
        }
        eprintln!(
            "depths {depth:?}: aux=unrelated for {with_unrelated} of {n}; aux=solution for all \
             {needing} that use an undrawn line"
        );
        assert!(with_unrelated * 10 >= n * 9, "{with_unrelated} of {n}");
        assert!(needing > 0);
    }
}
