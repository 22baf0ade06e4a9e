//! Backward questions (GeoEval §3.1.2, `backward=1`): the forward answer is given and
//! a given value of the forward problem is asked. Checked independently of the
//! inversion code: every equation of the backward solution re-evaluates (the
//! evaluator of `support::solutions`), and putting the new answer back into the
//! forward problem in place of the value it hid, then recomputing the forward steps
//! with their own formulas, gives the forward answer within 3 %.

use crate::tests::support::solutions::assert_solution_re_evaluates;
use geomrender::generate::formulas::by_id;
use geomrender::generate::{
    ElementRef, GenerateOptions, Problem, Status, backward_question, generate_range,
};
use std::collections::HashMap;

/// The element `q` asks for.
fn asked(q: &Problem) -> ElementRef {
    q.steps.last().unwrap().output.element
}

/// The forward problem's answer recomputed with `element` set to `value`: its steps
/// run in order, each output feeding the steps after it.
fn forward_with(p: &Problem, element: ElementRef, value: f64) -> f64 {
    let mut values: HashMap<ElementRef, f64> = HashMap::from([(element, value)]);
    let mut last = f64::NAN;
    for s in &p.steps {
        let f = by_id(&s.formula).unwrap();
        let inputs: Vec<_> = s
            .inputs
            .iter()
            .map(|b| (b.role, values.get(&b.element).copied().unwrap_or(b.value)))
            .collect();
        last = f.exact(&inputs).unwrap();
        values.insert(s.output.element, last);
    }
    last
}

#[test]
fn backward_questions_re_evaluate_and_invert_the_forward_problem() {
    let opts = GenerateOptions {
        seed: 31,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let (mut made, mut refused, mut equations) = (0, 0, 0);
    for p in generate_range(&opts, 0, 400) {
        let p = p.unwrap();
        let q = match backward_question(&p) {
            Ok(q) => q,
            Err(_) => {
                refused += 1;
                continue;
            }
        };
        let e = asked(&q);
        // No shortcut (issue 25): no given states the asked value.
        let d = &q.diagram;
        let givens = (d.sides.iter().map(|s| (s.status, s.value)))
            .chain(d.angles.iter().map(|a| (a.status, a.value)))
            .chain(d.measures.iter().map(|m| (m.status, m.value)));
        for (status, v) in givens {
            assert!(
                !(status == Status::Given && (v - q.answer.number().unwrap()).abs() < 1e-9),
                "{}: a given states the asked value {}",
                q.id,
                q.answer.number().unwrap()
            );
        }
        // It asks for something the forward problem gave, and gives what it asked.
        let status = |p: &Problem, e: ElementRef| match e {
            ElementRef::Side(i) => p.diagram.sides[i].status,
            ElementRef::Angle(i) => p.diagram.angles[i].status,
            ElementRef::Measure(i) => p.diagram.measures[i].status,
        };
        assert_eq!(status(&p, e), Status::Given, "{}", p.id);
        assert_eq!(status(&q, e), Status::Asked, "{}", p.id);
        let forward_asked = p.steps.last().unwrap().output.element;
        assert_eq!(status(&q, forward_asked), Status::Given, "{}", p.id);
        assert!(q.params.backward && !p.params.backward);
        // Its solution holds up, equation by equation.
        equations += assert_solution_re_evaluates(&q);
        // The new answer, put back into the forward problem, gives its answer.
        let back = forward_with(&p, e, q.answer.number().unwrap());
        assert!(
            (back - p.answer.number().unwrap()).abs() <= 0.03 * p.answer.number().unwrap().abs(),
            "{}: forward answer {} but {back} with the backward answer {} put back\n{}\n{}",
            p.id,
            p.answer.number().unwrap(),
            q.answer.number().unwrap(),
            q.question.coordinate,
            q.cot.coordinate
        );
        // The answer is the value the forward problem hid (up to rounding).
        let hidden = p
            .steps
            .iter()
            .flat_map(|s| &s.inputs)
            .find(|b| b.element == e)
            .unwrap()
            .value;
        assert!(
            (q.answer.number().unwrap() - hidden).abs() <= 0.03 * hidden.abs(),
            "{}",
            p.id
        );
        made += 1;
    }
    eprintln!(
        "{made} backward questions ({equations} equation chains), {refused} problems refused"
    );
    assert!(
        made >= 300,
        "only {made} of 400 problems have a backward question"
    );
}

/// The inverse is the same question asked the other way: asking it backward again is refused.
#[test]
fn a_backward_question_is_not_inverted_again() {
    let p = generate_range(&GenerateOptions::default(), 0, 20)
        .into_iter()
        .map(Result::unwrap)
        .find_map(|p| backward_question(&p).ok())
        .unwrap();
    assert!(backward_question(&p).is_err());
}
