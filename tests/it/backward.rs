//! `geomrender generate --backward` emits the problems each row asks, valid against
//! the Problem schema. (The backward questions themselves: `src/tests/backward.rs`.)

/// `render --emit-problems`: each row carries the Problem it draws and asks, so a
/// backward row says which given it asks. Its texts and answer are the row's, it
/// validates against the Problem schema, and without the flag no row has one.
#[test]
fn emitted_problems_are_the_ones_each_row_asks() {
    use crate::support::cli::{bin, run};
    use geomrender::generate::{Annotation, Problem};
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("p.jsonl");
    assert!(
        run(bin()
            .args(["generate", "--seed", "31", "--count", "12", "--out"])
            .arg(&input))
        .status
        .success()
    );
    let render = |out: &str, emit: bool| {
        let mut cmd = bin();
        cmd.arg("render")
            .arg(&input)
            .args(["--backend", "cpu", "--format", "svg", "-q"])
            .args(["--variants", "backward;unrelated=1;phrasing=2;annotation"])
            .arg("--out")
            .arg(tmp.path().join(out));
        if emit {
            cmd.arg("--emit-problems");
        }
        let o = run(&mut cmd);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(tmp.path().join(out).join("manifest.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let schema: serde_json::Value = serde_json::from_str(geomrender::generate::SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let (mut backward, mut rows) = (0, 0);
    for row in render("emit", true) {
        let problem: Problem = serde_json::from_value(row["problem"].clone()).unwrap();
        assert!(validator.is_valid(&row["problem"]), "{}", row["id"]);
        let a = match row["annotation"].as_str().unwrap() {
            "individual" => Annotation::Individual,
            _ => Annotation::Coordinate,
        };
        assert_eq!(problem.question(a), row["question"].as_str().unwrap());
        assert_eq!(problem.cot(a), row["cot"].as_str().unwrap());
        assert_eq!(
            problem.answer.number().unwrap(),
            row["answer"].as_f64().unwrap()
        );
        if row["variant"].get("backward").is_some() {
            // A backward question, with the steps that ask it.
            assert!(problem.params.backward);
            assert!(!problem.steps.is_empty(), "{}", row["id"]);
            backward += 1;
        }
        if row["variant"].get("unrelated").is_some() {
            assert!(problem.diagram.frame.is_some(), "{}", row["id"]);
        }
        rows += 1;
    }
    assert!(backward > 0 && rows > 40, "{backward} {rows}");
    assert!(
        render("plain", false)
            .iter()
            .all(|r| r.get("problem").is_none())
    );
}
