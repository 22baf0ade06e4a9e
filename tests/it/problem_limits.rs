//! Problem limits (`geomrender::generate::limits`) and label layout failures: a Problem
//! past a limit is a line error naming the field, a label too large for the canvas
//! fails its image (the variant alone when only a variant's font size makes it so)
//! naming the label, never a panic or minutes of layout; a Problem at every limit at
//! once lays out in well under a second.

use crate::support::cli::{bin, files, manifest, run};
use crate::support::output_dir;
use geomrender::compose::{ComposeError, compose};
use geomrender::generate::Annotation;
use geomrender::generate::{GenerateOptions, Problem, generate_one};
use geomrender::style::Style;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Five generated problems as JSON values (`generate --count 5 --seed 1` alike).
fn five() -> Vec<Value> {
    let opts = GenerateOptions {
        seed: 1,
        ..GenerateOptions::default()
    };
    (0..5)
        .map(|i| serde_json::to_value(generate_one(&opts, i).unwrap()).unwrap())
        .collect()
}

/// Writes `lines` to a fresh file in a fresh folder; returns (file, out dir).
fn input(name: &str, lines: &[Value]) -> (PathBuf, PathBuf) {
    let dir = output_dir().join(format!("problem-limits-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("in.jsonl");
    let text: String = lines.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&file, text).unwrap();
    (file, dir.join("out"))
}

/// `render FILE --out OUT --backend cpu -q ARGS`: asserts exit 1 (some lines failed)
/// and no panic; returns the errors.jsonl rows.
fn render_with_errors(file: &Path, out: &Path, args: &[&str]) -> Vec<Value> {
    let o = run(bin()
        .arg("render")
        .arg(file)
        .arg("--out")
        .arg(out)
        .args(["--backend", "cpu", "-q"])
        .args(args));
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(out.join("errors.jsonl"))
        .expect("errors.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The other four lines' images and rows are all there.
fn assert_others_written(out: &Path, lines: &[Value], bad: usize, per_line: usize) {
    let rows = manifest(out);
    assert_eq!(rows.len(), 4 * per_line);
    let images = files(&out.join("images"));
    assert_eq!(images.len(), 4 * per_line, "{images:?}");
    for (i, l) in lines.iter().enumerate() {
        let id = l["id"].as_str().unwrap();
        let written = images.iter().any(|f| f.starts_with(id));
        assert_eq!(written, i != bad, "{id}: {images:?}");
    }
}

#[test]
fn a_60_character_point_name_is_a_line_error_naming_the_field() {
    let mut lines = five();
    lines[2]["diagram"]["points"][1]["name"] = Value::from("N".repeat(60));
    let (file, out) = input("name60", &lines);
    let errors = render_with_errors(&file, &out, &[]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(e["line"], 3);
    assert_eq!(e["kind"], "problem");
    assert_eq!(e["id"], lines[2]["id"]);
    assert_eq!(
        e["message"],
        "problem: diagram.points[1].name: longer than 8 characters"
    );
    assert_others_written(&out, &lines, 2, 1);
}

#[test]
fn a_12_character_point_name_at_font_size_96_is_a_line_error() {
    let mut lines = five();
    lines[1]["diagram"]["points"][0]["name"] = Value::from("W".repeat(12));
    let (file, out) = input("name12", &lines);
    let errors = render_with_errors(&file, &out, &["--variants", "fontsize=96"]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["line"], 2);
    assert_eq!(
        errors[0]["message"],
        "problem: diagram.points[0].name: longer than 8 characters"
    );
    assert_others_written(&out, &lines, 1, 2);
}

#[test]
fn a_label_wider_than_the_canvas_is_a_compose_error_not_a_panic() {
    // Within the name limit, but 8 W's at 96 px are 759 px wide: no layout can place it.
    let mut lines = five();
    lines[4]["diagram"]["points"][0]["name"] = Value::from("W".repeat(8));
    let (file, out) = input("label-wide", &lines);
    let errors = render_with_errors(&file, &out, &["--variants", "fontsize=96"]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(
        (e["line"].as_u64(), e["kind"].as_str()),
        (Some(5), Some("compose"))
    );
    let id = lines[4]["id"].as_str().unwrap();
    assert_eq!(e["id"], format!("{id}__fontsize-96"));
    let msg = e["message"].as_str().unwrap();
    assert!(
        msg.contains("label \"WWWWWWWW\"") && msg.contains("larger than the 512×512 px canvas"),
        "{msg}"
    );
    // The variant fails alone: the line's base image (default font size) is made.
    let rows = manifest(&out);
    assert_eq!(rows.len(), 4 * 2 + 1);
    assert!(rows.iter().any(|r| r["id"] == id), "{rows:?}");
    let images = files(&out.join("images"));
    assert_eq!(images.len(), 4 * 2 + 1, "{images:?}");
    for l in &lines {
        let id = l["id"].as_str().unwrap();
        assert!(images.contains(&format!("{id}.png")), "{id}: {images:?}");
    }

    // The library gives the typed error.
    let p: Problem = serde_json::from_value(lines[4].clone()).unwrap();
    let style = Style {
        font_size: 96.0,
        ..Style::default()
    };
    let e = compose(&p, &style, Annotation::Coordinate).unwrap_err();
    assert!(
        matches!(&e, ComposeError::LabelTooLarge { label, canvas: 512, .. } if label == "WWWWWWWW"),
        "{e:?}"
    );
}

#[test]
fn twenty_thousand_extra_points_are_refused_at_once() {
    let mut lines = five();
    let points = lines[1]["diagram"]["points"].as_array_mut().unwrap();
    for i in 0..20_000 {
        points.push(serde_json::json!({"name": "Q", "x": (i % 100) as f64, "y": (i / 100) as f64}));
    }
    let (file, out) = input("points20000", &lines);
    assert!(std::fs::metadata(&file).unwrap().len() > 500_000);
    let t = Instant::now();
    let errors = render_with_errors(&file, &out, &[]);
    let took = t.elapsed();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["line"], 2);
    assert_eq!(errors[0]["kind"], "problem");
    let n = lines[1]["diagram"]["points"].as_array().unwrap().len();
    assert_eq!(
        errors[0]["message"],
        // 96: `generate::limits::MAX_POINTS` (crate-private; `src/tests/problem_limits.rs`
        // holds it to this figure).
        format!("problem: diagram.points: {n} items, more than the limit of 96")
    );
    assert_others_written(&out, &lines, 1, 1);
    // The whole run (5 lines, 4 images) in seconds, not the minutes of layout it took.
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// Defect 12: a drawn Problem text (point name, label) that is blank or holds a
/// control character is refused naming the Problem field, not an internal scene
/// item (`items[5].text`), and under the Problem's id, not a variant's.
#[test]
fn blank_or_control_labels_name_the_problem_field() {
    type Mutate = fn(&mut Value);
    let cases: [(&str, Mutate, &str); 4] = [
        (
            "diagram.points[0].name",
            |p| p["diagram"]["points"][0]["name"] = " ".into(),
            "empty or only white space",
        ),
        (
            "diagram.points[0].name",
            |p| p["diagram"]["points"][0]["name"] = "\u{7}".into(),
            "contains control character",
        ),
        (
            "diagram.sides[1].label.individual",
            |p| p["diagram"]["sides"][1]["label"]["individual"] = "  ".into(),
            "empty or only white space",
        ),
        (
            "diagram.sides[1].label.individual",
            |p| p["diagram"]["sides"][1]["label"]["individual"] = "a\nb".into(),
            "contains control character",
        ),
    ];
    for (i, (field, mutate, reason)) in cases.into_iter().enumerate() {
        let mut lines = five();
        assert!(lines[0]["diagram"]["sides"][1]["label"]["individual"].is_string());
        mutate(&mut lines[0]);
        let (file, out) = input(&format!("drawn-{i}"), &lines);
        let errors = render_with_errors(&file, &out, &["--variants", "annotation"]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        let e = &errors[0];
        assert_eq!(e["kind"], "problem", "{e}");
        assert_eq!(e["id"], lines[0]["id"], "{e}");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("problem: {field}: {reason}")),
            "{message}"
        );
        assert!(!message.contains("items["), "{message}");
    }
}

/// A hand-edited relation item whose choices repeat, run past five, or are not the
/// ones its question lists is a line error naming the field; the others render.
#[test]
fn relation_choices_that_cannot_be_scored_are_line_errors() {
    use geomrender::generate::relations::{RelationOptions, generate_relations};
    let items: Vec<Value> = generate_relations(&RelationOptions::default(), 0, 5)
        .into_iter()
        .map(|p| serde_json::to_value(p.unwrap()).unwrap())
        .collect();
    type Case = (&'static str, fn(&mut Value), &'static str);
    let cases: [Case; 3] = [
        (
            "repeated",
            |v| {
                let first = v["relation"]["choices"][0].clone();
                v["relation"]["choices"][1] = first;
            },
            "relation.choices[1]",
        ),
        (
            "eight",
            |v| {
                let c = v["relation"]["choices"].as_array_mut().unwrap();
                for k in c.len()..8 {
                    c.push(format!("Option {k}").into());
                }
            },
            "relation.choices: 8 choices; an item has 2 to 5",
        ),
        (
            "disagree",
            |v| {
                let c = v["relation"]["choices"].as_array_mut().unwrap();
                c.swap(0, 1);
            },
            "question.coordinate: its \"Answer choices:\" list",
        ),
    ];
    for (name, edit, says) in cases {
        let mut lines = items.clone();
        edit(&mut lines[1]);
        let (file, out) = input(&format!("relation-{name}"), &lines);
        let errors = render_with_errors(&file, &out, &[]);
        assert_eq!(errors.len(), 1, "{name}: {errors:?}");
        let message = errors[0]["message"].as_str().unwrap();
        assert!(message.contains(says), "{name}: {message}");
        assert_eq!(errors[0]["line"], 2);
        assert_eq!(manifest(&out).len(), 4, "{name}");
    }
}
