//! Semantic rewrites: values moved between image and text, vertex letters permuted, and
//! Problems read back from JSON; the answer never changes and texts stay consistent.

use geomrender::generate::{
    Annotation, GenerateOptions, Info, Problem, Status, generate_range, refresh_texts, relabel,
    with_info,
};

fn problems(n: u64) -> Vec<Problem> {
    let opts = GenerateOptions {
        seed: 60,
        depth: 1..=3,
        branch_prob: 0.4,
        variablized: 0.3,
        ..Default::default()
    };
    generate_range(&opts, 0, n)
        .into_iter()
        .map(|p| p.unwrap())
        .collect()
}

#[test]
fn with_info_moves_values_between_image_and_text() {
    for p in problems(300) {
        let text = with_info(&p, Info::Text).unwrap();
        let image = with_info(&text, Info::Image).unwrap();
        assert_eq!(
            image, p,
            "{}: image → text → image is not the identity",
            p.id
        );
        assert_eq!(text.answer, p.answer);
        // The coordinate solution does not depend on where values are stated (the
        // individual one names a value-labelled side by its value, a letter-labelled one
        // by its letter).
        assert_eq!(text.cot.coordinate, p.cot.coordinate, "{}", p.id);
        assert!(
            text.diagram.sides.iter().all(|s| !s.shown)
                && text.diagram.angles.iter().all(|a| !a.shown)
        );
        for s in p.diagram.sides.iter().filter(|s| s.shown) {
            // Shown on the image, so absent from the image question but stated in the text one.
            let v = geomrender::generate::expr::fmt_num(s.value);
            assert!(
                text.question(Annotation::Coordinate)
                    .contains(&format!("the {} side", s.name.coordinate))
                    || text
                        .question(Annotation::Coordinate)
                        .contains(&format!(" {} ", s.name.coordinate))
                    || text.question(Annotation::Coordinate).contains(&v),
                "{}: {} not stated",
                p.id,
                s.name.coordinate
            );
            assert_eq!(s.label.coordinate.as_deref(), Some(v.as_str()));
        }
    }
}

#[test]
fn relabel_permutes_names_consistently() {
    for p in problems(300) {
        let q = relabel(&p, 7).unwrap();
        assert_eq!(q.answer, p.answer);
        // Every vertex gets another letter.
        for (a, b) in p.diagram.points.iter().zip(&q.diagram.points) {
            assert_ne!(a.name, b.name, "{}: a vertex kept its letter", p.id);
        }
        let mut a: Vec<&str> = p.diagram.points.iter().map(|x| x.name.as_str()).collect();
        let mut b: Vec<&str> = q.diagram.points.iter().map(|x| x.name.as_str()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "the same letters are used");
        // Every coordinate name in the new text is built from the new point names.
        for s in &q.diagram.sides {
            let want: String = s
                .points
                .iter()
                .map(|&i| q.diagram.points[i].name.clone())
                .collect();
            assert_eq!(s.name.coordinate, want);
        }
        for ang in q
            .diagram
            .angles
            .iter()
            .filter(|a| a.status != Status::Unused)
        {
            let want: String = ang
                .points
                .iter()
                .map(|&i| q.diagram.points[i].name.clone())
                .collect();
            assert_eq!(ang.name.coordinate, want);
        }
        // Individual texts do not use vertex letters, so they do not change.
        assert_eq!(
            q.question(Annotation::Individual),
            p.question(Annotation::Individual)
        );
        assert_eq!(q.cot(Annotation::Individual), p.cot(Annotation::Individual));
        // Relabelling is deterministic and reversible in effect: same seed, same result.
        assert_eq!(relabel(&p, 7).unwrap(), q);
    }
    // Some problems really change.
    let ps = problems(20);
    for p in &ps {
        let q = relabel(p, 7).unwrap();
        assert!(
            q.question.coordinate != p.question.coordinate || q.cot.coordinate != p.cot.coordinate,
            "{}: relabelling changed no coordinate text",
            p.id
        );
    }
}

#[test]
fn json_round_trips_and_texts_regenerate() {
    for p in problems(300) {
        let line = serde_json::to_string(&p).unwrap();
        let mut back: Problem = serde_json::from_str(&line).unwrap();
        assert_eq!(back, p);
        refresh_texts(&mut back).unwrap();
        assert_eq!(
            back, p,
            "{}: texts are not a function of diagram, steps and info",
            p.id
        );
    }
}

#[test]
fn json_matches_the_published_schema() {
    use serde_json::{Value, json};
    // The file users get, not the crate's copy of it (the same bytes: `include_str!`).
    let path = crate::tests::support::repo().join("schemas/problem.schema.json");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, geomrender::generate::SCHEMA);
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let problems: Vec<Value> = problems(100)
        .iter()
        .map(|p| serde_json::to_value(p).unwrap())
        .collect();
    for v in &problems {
        let errors: Vec<String> = validator.iter_errors(v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", v["id"]);
    }
    // The validator refuses what the schema forbids, at the top and deep inside.
    type Break = fn(&mut Value);
    let breaks: [(&str, Break); 6] = [
        ("a required key gone", |v| {
            v.as_object_mut().unwrap().remove("answer");
        }),
        ("an unknown key", |v| v["colour"] = json!("red")),
        ("an id that is a path", |v| v["id"] = json!("../etc/passwd")),
        ("a value outside its enum", |v| {
            v["params"]["info"] = json!("svg")
        }),
        ("a point without y", |v| {
            v["diagram"]["points"][0]
                .as_object_mut()
                .unwrap()
                .remove("y");
        }),
        ("a coordinate of the wrong type", |v| {
            v["diagram"]["points"][0]["x"] = json!("12")
        }),
    ];
    for (what, break_it) in breaks {
        let mut v = problems[0].clone();
        break_it(&mut v);
        assert_ne!(v, problems[0], "{what}: nothing changed");
        assert!(!validator.is_valid(&v), "{what}: the schema accepts {v}");
    }
}

#[test]
fn edited_problems_give_errors_not_panics() {
    let p = problems(1).remove(0);
    let mut cases = Vec::new();
    let mut q = p.clone();
    q.steps[0].formula = "no.such".into();
    cases.push(q);
    let mut q = p.clone();
    q.diagram.points.clear();
    cases.push(q);
    let mut q = p.clone();
    q.steps[0].output.element = geomrender::generate::ElementRef::Side(9999);
    cases.push(q);
    let mut q = p.clone();
    q.steps.clear();
    cases.push(q);
    for mut q in cases {
        assert!(refresh_texts(&mut q).is_err());
        // The rewrites report such a problem instead of passing it on unchanged.
        assert!(with_info(&q, Info::Text).is_err());
        assert!(relabel(&q, 1).is_err());
    }
}
