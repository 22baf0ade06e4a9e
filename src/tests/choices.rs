//! `choices` (issue 46): a multiple-choice item's options rotated. Checked on 200
//! relation items against their base, from the items' own texts: the option list
//! is the base's rotated by k, the answer's letter names the same text, the
//! question is the base's with only its option list rewritten, the solution only
//! its closing letter, and the picture is the base's.

use crate::generate::relations::question_stem;
use geomrender::generate::relations::{RelationOptions, generate_relations};
use geomrender::generate::{Annotation, Answer, GenerateOptions, Problem, generate_one};
use geomrender::variants::{Plan, VariantError, draw_problem};

fn letter_text(p: &Problem) -> (char, String) {
    let Answer::Choice(c) = p.answer else {
        panic!("{}: not multiple choice", p.id);
    };
    let item = p.relation.as_deref().expect("a relation item");
    (c, item.choices[(c as u8 - b'A') as usize].clone())
}

#[test]
fn choices_rotate_the_options_and_the_letter_follows_its_text() {
    let items: Vec<Problem> = (generate_relations(&RelationOptions::default(), 0, 200).into_iter())
        .map(|p| p.expect("a relation item"))
        .collect();
    let rotation = |k: usize| {
        Plan::parse(&format!("choices={k}"), false)
            .expect("spec")
            .variants()[1]
            .clone()
    };
    let mut made = 0;
    for p in &items {
        let base = p.relation.as_deref().expect("a relation item");
        let n = base.choices.len();
        let (_, answer_text) = letter_text(p);
        for k in [1usize, 2] {
            let d = match draw_problem(p, &rotation(k)) {
                Ok(d) => d,
                Err(VariantError::NoChoices) => {
                    assert!(k >= n, "{}: {n} options, no rotation by {k}", p.id);
                    continue;
                }
                Err(e) => panic!("{}: {e}", p.id),
            };
            made += 1;
            let q = &d.problem;
            let item = q.relation.as_deref().expect("a relation item");
            let mut want = base.choices.clone();
            want.rotate_right(k);
            assert_eq!(item.choices, want, "{}: choices={k}", p.id);
            assert_ne!(item.choices, base.choices, "{}: unchanged", p.id);
            // The letter moved with its text.
            let (letter, text) = letter_text(q);
            assert_eq!(text, answer_text, "{}", p.id);
            assert_ne!(q.answer, p.answer, "{}", p.id);
            // The question: the same stem, the new list; the solution: the same
            // reasons, the new letter.
            let (qb, qv) = (
                p.question(Annotation::Coordinate),
                q.question(Annotation::Coordinate),
            );
            assert_eq!(
                question_stem(qv, &item.choices),
                question_stem(qb, &base.choices),
                "{}",
                p.id
            );
            assert_ne!(
                question_stem(qv, &item.choices),
                qv,
                "{}: no option list",
                p.id
            );
            let (cb, cv) = (p.cot(Annotation::Coordinate), q.cot(Annotation::Coordinate));
            let close = |c: &str| {
                c.rsplit_once("So the answer is ")
                    .map(|(r, t)| (r.to_string(), t.to_string()))
            };
            let ((rb, _), (rv, tv)) = (close(cb).unwrap(), close(cv).unwrap());
            assert_eq!(rv, rb, "{}", p.id);
            assert_eq!(tv, format!("{letter}. {answer_text}."), "{}", p.id);
            // Nothing else: the picture and the rest of the item.
            assert_eq!(q.diagram, p.diagram, "{}", p.id);
            assert_eq!(
                (&item.conditions, &item.asked, &item.relation),
                (&base.conditions, &base.asked, &base.relation),
                "{}",
                p.id
            );
        }
    }
    assert!(made >= 390, "{made} of 400");
    // A GeomVerse problem has no options.
    let g = generate_one(&GenerateOptions::default(), 0).expect("generated");
    assert_eq!(
        draw_problem(&g, &rotation(1)).unwrap_err(),
        VariantError::NoChoices
    );
}
