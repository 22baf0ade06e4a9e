//! A relation item's texts, as GeomRel words them (appendix, table 23): the
//! conditions in words, the question about the asked elements, the lettered
//! choices; the solution gives the construction's reasons and the answer.

use super::item::{Asked, Condition, FigureRef};
use crate::decimal::fmt_shortest_f64;

fn seg(l: &[String; 2]) -> String {
    format!("{}{}", l[0], l[1])
}

fn ang(a: &[String; 3]) -> String {
    format!("∠{}{}{}", a[0], a[1], a[2])
}

fn num(v: f64) -> String {
    fmt_shortest_f64(v)
}

/// A figure as the question names it.
pub(super) fn figure(f: &FigureRef) -> String {
    match f {
        FigureRef::Circle { center, .. } => format!("circle {center}"),
        FigureRef::Polygon { vertices } => {
            let noun = match vertices.len() {
                3 => "triangle",
                4 => "quadrilateral",
                5 => "pentagon",
                6 => "hexagon",
                _ => "polygon",
            };
            format!("{noun} {}", vertices.concat())
        }
    }
}

/// One condition as a sentence.
pub(super) fn condition(c: &Condition) -> String {
    match c {
        Condition::Parallel { a, b } => {
            format!("Line {} is parallel to line {}.", seg(a), seg(b))
        }
        Condition::Perpendicular { a, b } => {
            format!("Line {} is perpendicular to line {}.", seg(a), seg(b))
        }
        Condition::OnLine { point, line } => format!("Point {point} lies on line {}.", seg(line)),
        Condition::Between { point, ends } => {
            format!("Point {point} lies on segment {}.", seg(ends))
        }
        Condition::Midpoint { point, ends } => {
            format!("Point {point} is the midpoint of segment {}.", seg(ends))
        }
        Condition::SameSide { points, line } => format!(
            "Points {} and {} are on the same side of line {}.",
            points[0],
            points[1],
            seg(line)
        ),
        Condition::OppositeSides { points, line } => format!(
            "Points {} and {} are on opposite sides of line {}.",
            points[0],
            points[1],
            seg(line)
        ),
        Condition::AngleValue { angle, degrees } => {
            format!("{} = {}°.", ang(angle), num(*degrees))
        }
        Condition::EqualAngles { a, b } => format!("{} = {}.", ang(a), ang(b)),
        Condition::Length { segment, value } => format!("{} = {}.", seg(segment), num(*value)),
        Condition::EqualLengths { a, b } => format!("{} = {}.", seg(a), seg(b)),
        Condition::OnCircle { point, center, .. } => {
            format!("Point {point} lies on circle {center}.")
        }
        Condition::Tangent { line, center, .. } => {
            format!("Line {} is tangent to circle {center}.", seg(line))
        }
    }
}

/// The circles the conditions and the asked elements mention, each once, with
/// its radius: "Circle O has radius 5."
fn circles(conditions: &[Condition], asked: &Asked) -> Vec<String> {
    let mut seen: Vec<(String, f64)> = Vec::new();
    let mut note = |center: &str, radius: f64| {
        if !seen.iter().any(|(c, _)| c == center) {
            seen.push((center.to_string(), radius));
        }
    };
    for c in conditions {
        if let Condition::OnCircle { center, radius, .. }
        | Condition::Tangent { center, radius, .. } = c
        {
            note(center, *radius);
        }
    }
    let figure = match asked {
        Asked::PointFigure { figure, .. } => Some(figure),
        Asked::LineCircle { circle, .. } => Some(circle),
        Asked::Segment { figure, .. } => Some(figure),
        _ => None,
    };
    if let Some(FigureRef::Circle { center, radius }) = figure {
        note(center, *radius);
    }
    seen.into_iter()
        .map(|(c, r)| format!("Circle {c} has radius {}.", num(r)))
        .collect()
}

/// The question sentence about the asked elements.
pub(super) fn ask(asked: &Asked) -> String {
    match asked {
        Asked::Points { points } => format!(
            "What is the relationship between points {}, {} and {}?",
            points[0], points[1], points[2]
        ),
        Asked::PointLine { point, line } => format!(
            "What is the relationship between point {point} and line {}?",
            seg(line)
        ),
        Asked::Lines { a, b } => format!(
            "What is the relationship between line {} and line {}?",
            seg(a),
            seg(b)
        ),
        Asked::AngleMeasures { a, b } | Asked::AnglePositions { a, b } => format!(
            "What is the relationship between {} and {}?",
            ang(a),
            ang(b)
        ),
        Asked::QuadrilateralAngles { quad, a, b } => {
            let at = |v: &str| {
                let i = quad.iter().position(|q| q == v).unwrap_or(0);
                let (p, n) = (&quad[(i + 3) % 4], &quad[(i + 1) % 4]);
                format!("∠{p}{v}{n}")
            };
            format!(
                "In quadrilateral {}, what is the relationship between {} and {}?",
                quad.concat(),
                at(a),
                at(b)
            )
        }
        Asked::PointFigure { point, figure: f } => format!(
            "What is the relationship between point {point} and {}?",
            figure(f)
        ),
        Asked::LineCircle { line, circle } => format!(
            "What is the relationship between line {} and {}?",
            seg(line),
            figure(circle)
        ),
        Asked::Segment { segment, figure: f } => {
            format!("What is segment {} of {}?", seg(segment), figure(f))
        }
    }
}

/// The whole question: conditions, circles' radii, the question and the choices.
pub(super) fn question(conditions: &[Condition], asked: &Asked, choices: &[String]) -> String {
    let mut parts: Vec<String> = circles(conditions, asked);
    parts.extend(conditions.iter().map(condition));
    parts.push(ask(asked));
    parts.push(choice_list(choices));
    parts.join(" ")
}

/// The option list that ends a question: "Answer choices: A. … B. …".
pub(crate) fn choice_list(choices: &[String]) -> String {
    let options: Vec<String> = (choices.iter().enumerate())
        .map(|(i, c)| format!("{}. {c}", letter(i)))
        .collect();
    format!("Answer choices: {}", options.join(" "))
}

/// `question` without the option list that ends it (" Answer choices: A. … B. …",
/// as the generator words it for `choices`); the whole question when it does not end
/// so (a hand-written one).
pub(crate) fn question_stem<'a>(question: &'a str, choices: &[String]) -> &'a str {
    let suffix = format!(" {}", choice_list(choices));
    question.strip_suffix(&suffix).unwrap_or(question)
}

/// What a visual item says first, as textbooks do: the figure is not to scale,
/// so only what it marks (and shows by incidence) holds.
pub(crate) const NOT_TO_SCALE: &str = "The figure is not drawn to scale: only its marks (right angles, arrowheads on parallel lines, ticks on equal segments, equal angle letters, given values) and which points lie on which lines and circles can be relied on.";

/// An item's question as its mode states it: every condition in the text mode;
/// in the visual mode [`NOT_TO_SCALE`] instead, the conditions being drawn.
pub(super) fn question_for(item: &super::RelationItem) -> String {
    match item.mode {
        super::Mode::Text => question(&item.conditions, &item.asked, &item.choices),
        super::Mode::Visual => format!(
            "{NOT_TO_SCALE} {}",
            question(&[], &item.asked, &item.choices)
        ),
    }
}

/// The solution: the reasons, then the answer by letter and text.
pub(super) fn solution(reasons: &[String], letter: char, text: &str) -> String {
    let mut parts = reasons.to_vec();
    parts.push(format!("So the answer is {letter}. {text}."));
    parts.join(" ")
}

/// The letter of choice `i` (0 → 'A').
pub(super) fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}
