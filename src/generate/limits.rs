//! Limits on a Problem read from input, checked right after it is parsed
//! ([`Problem::check_limits`]) so that a hand-made or hostile line is refused with an
//! error naming its field (`diagram.points[3].name: longer than 8 characters`) before
//! any work, instead of panicking in layout or taking minutes of it.
//!
//! Each limit sits far above what `generate` produces. Measured maxima over
//! `generate --count 20000 --depth 1..6` and, for the most crowded diagrams,
//! `generate --count 5000 --depth 6 --branch-prob 1 --distractors --variablized 1`
//! (the larger of the two in parentheses):
//!
//! | what | measured max | limit |
//! |---|---|---|
//! | points | 29 | [`MAX_POINTS`] 96 |
//! | shapes | 12 | [`MAX_SHAPES`] 48 |
//! | sides | 35 | [`MAX_SIDES`] 96 |
//! | angles | 18 | [`MAX_ANGLES`] 64 |
//! | measures | 14 | `MAX_MEASURES` 96 |
//! | rays | 6 | [`MAX_RAYS`] 32 |
//! | auxiliary lines (`aux` variants: one per shape at most) | 12 | `MAX_AUX` 48 |
//! | right-angle marks | 7 | [`MAX_RIGHT_ANGLES`] 48 |
//! | steps | 12 | `MAX_STEPS` 64 |
//! | vertices of a shape | 5 | [`MAX_VERTICES`] 16 |
//! | contours of a shape | 2 | `MAX_CONTOURS` 4 |
//! | segments of a contour | 5 | `MAX_SEGMENTS` 16 |
//! | outline segments, all shapes | 53 | [`MAX_OUTLINE_SEGMENTS`] 256 |
//! | arcs, all shapes (each is 72 chords to layout) | 7 | [`MAX_ARCS`] 32 |
//! | shapes of a side, inputs of a step, terms of a variable | 2, 4, 4 | `MAX_SMALL_LIST` 8 |
//! | point name (characters) | 2 | [`MAX_POINT_NAME`] 8 |
//! | label (characters) | 6 | [`MAX_LABEL`] 24 |
//! | element name, colour, expression, formula id | 8, 6, 8, 56 | `MAX_NAME` 128 |
//! | question / solution (characters) | 1,401 / 3,231 | `MAX_TEXT` 32,768 |
//! | coordinate, radius (diagram units) | 378 | `MAX_COORD` 10⁶ |
//! | side / measure / answer / step value | 27,888 | `MAX_VALUE` 10¹² |
//! | angle (degrees) | 155 | 0..=360 |
//! | a, b of `a·x + b` | 153 | `MAX_VALUE` |
//!
//! The label placer is quadratic in the number of labels (points + sides + angles, at
//! most 256 here against 41 measured), which is what made 20,000 extra points take
//! minutes. With every count at its limit, 8-character names, 24-character labels and
//! the points crowded so that most labels find no free spot, layout takes about 0.4 s
//! in the test profile (`problem_limits` integration tests time it). The whole line is
//! also capped at 64 MiB by the reader.

use super::{Binding, Labels, Problem, Texts};
use std::fmt;

/// Points of the diagram.
pub(crate) const MAX_POINTS: usize = 96;
/// Shapes of the diagram.
pub(crate) const MAX_SHAPES: usize = 48;
/// Sides (edges, diagonals, diameters).
pub(crate) const MAX_SIDES: usize = 96;
/// Angles.
pub(crate) const MAX_ANGLES: usize = 64;
/// Measures (areas, perimeters, arc lengths, heights).
pub(crate) const MAX_MEASURES: usize = 96;
/// Rays of angle connectors.
pub(crate) const MAX_RAYS: usize = 32;
/// Auxiliary lines (one per shape at most when generated).
pub(crate) const MAX_AUX: usize = 48;
/// Right-angle marks.
pub(crate) const MAX_RIGHT_ANGLES: usize = 48;
/// Tick and arrow marks on segments.
pub(crate) const MAX_MARKS: usize = 48;
/// Reasoning steps.
pub(crate) const MAX_STEPS: usize = 64;
/// Vertices of one shape.
pub(crate) const MAX_VERTICES: usize = 16;
/// Contours of one shape (outer boundary and holes).
pub(crate) const MAX_CONTOURS: usize = 4;
/// Segments of one contour.
pub(crate) const MAX_SEGMENTS: usize = 16;
/// Outline segments of all shapes together.
pub(crate) const MAX_OUTLINE_SEGMENTS: usize = 256;
/// Arc segments of all shapes together (layout samples each arc 72 times).
pub(crate) const MAX_ARCS: usize = 32;
/// Shapes of a side, inputs of a step, terms of a variable.
pub(crate) const MAX_SMALL_LIST: usize = 8;
/// Characters of a point name (a vertex letter is drawn on the image).
pub(crate) const MAX_POINT_NAME: usize = 8;
/// Characters of a side or angle label (drawn on the image).
pub(crate) const MAX_LABEL: usize = 24;
/// Characters of an element name, colour name, expression or formula id.
pub(crate) const MAX_NAME: usize = 128;
/// Characters of a question or solution text.
pub(crate) const MAX_TEXT: usize = 32_768;
/// Largest absolute coordinate or radius, in diagram units.
pub(crate) const MAX_COORD: f64 = 1e6;
/// Largest absolute value of a side, measure, answer, step binding or variable.
pub(crate) const MAX_VALUE: f64 = 1e12;

/// A Problem field past a limit: its JSON path and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LimitError {
    /// JSON path of the field, e.g. `diagram.points[3].name`.
    pub path: String,
    /// What is wrong with it, e.g. `longer than 8 characters`.
    pub reason: String,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

fn err(path: impl Into<String>, reason: impl Into<String>) -> LimitError {
    LimitError {
        path: path.into(),
        reason: reason.into(),
    }
}

fn count<T>(path: &str, v: &[T], max: usize) -> Result<(), LimitError> {
    match v.len() > max {
        true => Err(err(
            path,
            format!("{} items, more than the limit of {max}", v.len()),
        )),
        false => Ok(()),
    }
}

fn text(path: &str, s: &str, max: usize) -> Result<(), LimitError> {
    // Counting stops past the limit, so a huge string costs no more than a small one.
    match s.chars().nth(max).is_some() {
        true => Err(err(path, format!("longer than {max} characters"))),
        false => Ok(()),
    }
}

/// A text drawn in the diagram (point name, label): as a Scene text item must be,
/// checked here so that the error names the Problem field, not a scene item.
fn drawn(path: &str, s: &str, max: usize) -> Result<(), LimitError> {
    text(path, s, max)?;
    if s.trim().is_empty() {
        return Err(err(
            path,
            "empty or only white space (it is drawn as a label)",
        ));
    }
    match s.chars().find(|c| c.is_control()) {
        Some(c) => Err(err(
            path,
            format!("contains control character {c:?}; a label is a single line"),
        )),
        None => Ok(()),
    }
}

fn number(path: &str, v: f64, min: f64, max: f64) -> Result<(), LimitError> {
    if !v.is_finite() {
        return Err(err(path, format!("{v} is not a finite number")));
    }
    match (min..=max).contains(&v) {
        true => Ok(()),
        false => Err(err(path, format!("{v} is outside {min:e}..={max:e}"))),
    }
}

fn coord(path: &str, v: f64) -> Result<(), LimitError> {
    number(path, v, -MAX_COORD, MAX_COORD)
}

fn xy(path: &str, v: [f64; 2]) -> Result<(), LimitError> {
    coord(&format!("{path}[0]"), v[0])?;
    coord(&format!("{path}[1]"), v[1])
}

fn value(path: &str, v: f64) -> Result<(), LimitError> {
    number(path, v, -MAX_VALUE, MAX_VALUE)
}

fn texts(path: &str, t: &Texts, max: usize) -> Result<(), LimitError> {
    text(&format!("{path}.coordinate"), &t.coordinate, max)?;
    text(&format!("{path}.individual"), &t.individual, max)
}

fn labels(path: &str, l: &Labels) -> Result<(), LimitError> {
    for (style, s) in [("coordinate", &l.coordinate), ("individual", &l.individual)] {
        if let Some(s) = s {
            drawn(&format!("{path}.{style}"), s, MAX_LABEL)?;
        }
    }
    Ok(())
}

/// Point indices (`vertices`, `points`) must name points of the diagram.
fn indices(path: &str, list: &[usize], points: usize) -> Result<(), LimitError> {
    match list.iter().position(|&i| i >= points) {
        Some(k) => Err(err(
            format!("{path}[{k}]"),
            format!(
                "point {} does not exist (the diagram has {points})",
                list[k]
            ),
        )),
        None => Ok(()),
    }
}

/// An arc's radius must be its centre's distance to both ends (within the 2-decimal
/// rounding of generated coordinates, and 1 %): the drawing uses the radius, the
/// layout the centre, and an inconsistent pair could put the curve anywhere.
fn arc(
    path: &str,
    from: [f64; 2],
    to: [f64; 2],
    center: [f64; 2],
    radius: f64,
) -> Result<(), LimitError> {
    let tol = 0.02 + 0.01 * radius;
    for (end, p) in [("start", from), ("to", to)] {
        let d = (p[0] - center[0]).hypot(p[1] - center[1]);
        if (d - radius).abs() > tol {
            return Err(err(
                format!("{path}.radius"),
                format!("{radius} is not the distance from the centre to the arc's {end} ({d})"),
            ));
        }
    }
    Ok(())
}

fn expr(path: &str, e: &Option<String>) -> Result<(), LimitError> {
    match e {
        Some(s) => text(&format!("{path}.expr"), s, MAX_NAME),
        None => Ok(()),
    }
}

/// A relation item's choices: 2 to [`MAX_CHOICES`](super::relations::MAX_CHOICES),
/// distinct, and the ones its questions list when they end with a list (a
/// hand-written question without one names none).
fn choices(choices: &[String], question: &Texts) -> Result<(), LimitError> {
    use super::relations::{MAX_CHOICES, question_stem};
    if !(2..=MAX_CHOICES).contains(&choices.len()) {
        return Err(err(
            "relation.choices",
            format!("{} choices; an item has 2 to {MAX_CHOICES}", choices.len()),
        ));
    }
    for (i, c) in choices.iter().enumerate() {
        text(&format!("relation.choices[{i}]"), c, MAX_TEXT)?;
        if choices[..i].contains(c) {
            return Err(err(
                format!("relation.choices[{i}]"),
                format!("{c:?} is offered twice"),
            ));
        }
    }
    for (path, q) in [
        ("question.coordinate", &question.coordinate),
        ("question.individual", &question.individual),
    ] {
        if q.contains("Answer choices:") && question_stem(q, choices) == q {
            return Err(err(
                path,
                "its \"Answer choices:\" list is not the item's choices, in order",
            ));
        }
    }
    Ok(())
}

fn binding(path: &str, b: &Binding) -> Result<(), LimitError> {
    value(&format!("{path}.value"), b.value)
}

impl Problem {
    /// Checks every count, text length and number against the limits of this module;
    /// the error names the first offending field by its JSON path. Cheap: it stops at
    /// the first count past its limit before looking at the items.
    ///
    /// Kept whole: a flat list of independent checks, one per field in the order of
    /// the Problem's JSON, so that a field and its limit are read side by side.
    pub(crate) fn check_limits(&self) -> Result<(), LimitError> {
        let d = &self.diagram;
        count("diagram.points", &d.points, MAX_POINTS)?;
        count("diagram.shapes", &d.shapes, MAX_SHAPES)?;
        count("diagram.sides", &d.sides, MAX_SIDES)?;
        count("diagram.angles", &d.angles, MAX_ANGLES)?;
        count("diagram.measures", &d.measures, MAX_MEASURES)?;
        count("diagram.rays", &d.rays, MAX_RAYS)?;
        count("diagram.aux", &d.aux, MAX_AUX)?;
        count("diagram.right_angles", &d.right_angles, MAX_RIGHT_ANGLES)?;
        count("diagram.marks", &d.marks, MAX_MARKS)?;
        count("steps", &self.steps, MAX_STEPS)?;

        texts("question", &self.question, MAX_TEXT)?;
        texts("cot", &self.cot, MAX_TEXT)?;
        match (self.answer, &self.relation) {
            (super::Answer::Number(v), None) => value("answer", v)?,
            (super::Answer::Choice(c), Some(item)) => {
                choices(&item.choices, &self.question)?;
                if item.answer_text(c).is_none() {
                    return Err(err(
                        "answer",
                        format!(
                            "{c:?} is not the letter of one of the {} choices",
                            item.choices.len()
                        ),
                    ));
                }
            }
            (super::Answer::Number(_), Some(_)) => {
                return Err(err(
                    "answer",
                    "a relation item's answer is a choice's letter",
                ));
            }
            (super::Answer::Choice(_), None) => {
                return Err(err("answer", "a letter needs a relation item's choices"));
            }
        }
        number("params.branch_prob", self.params.branch_prob, 0.0, 1.0)?;
        number("params.variablized", self.params.variablized, 0.0, 1.0)?;
        super::rewrite::phrasing::check(self)?;

        for (i, p) in d.points.iter().enumerate() {
            let at = format!("diagram.points[{i}]");
            drawn(&format!("{at}.name"), &p.name, MAX_POINT_NAME)?;
            coord(&format!("{at}.x"), p.x)?;
            coord(&format!("{at}.y"), p.y)?;
        }
        let (mut segments, mut arcs) = (0, 0);
        for (i, s) in d.shapes.iter().enumerate() {
            let at = format!("diagram.shapes[{i}]");
            texts(&format!("{at}.name"), &s.name, MAX_NAME)?;
            text(&format!("{at}.colour"), &s.colour, MAX_NAME)?;
            count(&format!("{at}.vertices"), &s.vertices, MAX_VERTICES)?;
            indices(&format!("{at}.vertices"), &s.vertices, d.points.len())?;
            count(&format!("{at}.outline"), &s.outline, MAX_CONTOURS)?;
            for (j, c) in s.outline.iter().enumerate() {
                let at = format!("{at}.outline[{j}]");
                xy(&format!("{at}.start"), c.start)?;
                let mut from = c.start;
                count(&format!("{at}.segments"), &c.segments, MAX_SEGMENTS)?;
                for (k, seg) in c.segments.iter().enumerate() {
                    let at = format!("{at}.segments[{k}]");
                    segments += 1;
                    if segments > MAX_OUTLINE_SEGMENTS {
                        return Err(err(
                            at,
                            format!(
                                "more than {MAX_OUTLINE_SEGMENTS} outline segments in all shapes"
                            ),
                        ));
                    }
                    if matches!(seg, super::Segment::Arc { .. }) {
                        arcs += 1;
                        if arcs > MAX_ARCS {
                            return Err(err(
                                at,
                                format!("more than {MAX_ARCS} arcs in all shapes"),
                            ));
                        }
                    }
                    match seg {
                        super::Segment::Line { to } => {
                            xy(&format!("{at}.to"), *to)?;
                            from = *to;
                        }
                        super::Segment::Arc {
                            to, center, radius, ..
                        } => {
                            xy(&format!("{at}.to"), *to)?;
                            xy(&format!("{at}.center"), *center)?;
                            number(&format!("{at}.radius"), *radius, 0.0, MAX_COORD)?;
                            arc(&at, from, *to, *center, *radius)?;
                            from = *to;
                        }
                    }
                }
            }
        }
        for (i, r) in d.rays.iter().enumerate() {
            indices(
                &format!("diagram.rays[{i}].points"),
                &r.points,
                d.points.len(),
            )?;
        }
        for (i, a) in d.aux.iter().enumerate() {
            let at = format!("diagram.aux[{i}]");
            xy(&format!("{at}.from"), a.from)?;
            xy(&format!("{at}.to"), a.to)?;
            indices(&format!("{at}.on"), &a.on, d.points.len())?;
            if a.shape >= d.shapes.len() {
                return Err(err(
                    format!("{at}.shape"),
                    format!(
                        "shape {} does not exist (the diagram has {})",
                        a.shape,
                        d.shapes.len()
                    ),
                ));
            }
        }
        for (i, m) in d.marks.iter().enumerate() {
            indices(
                &format!("diagram.marks[{i}].points"),
                &m.points,
                d.points.len(),
            )?;
            number(
                &format!("diagram.marks[{i}].count"),
                f64::from(m.count),
                1.0,
                3.0,
            )?;
        }
        for (i, r) in d.right_angles.iter().enumerate() {
            indices(&format!("diagram.right_angles[{i}]"), r, d.points.len())?;
        }
        for (i, s) in d.sides.iter().enumerate() {
            let at = format!("diagram.sides[{i}]");
            indices(&format!("{at}.points"), &s.points, d.points.len())?;
            count(&format!("{at}.shapes"), &s.shapes, MAX_SMALL_LIST)?;
            number(&format!("{at}.value"), s.value, 0.0, MAX_VALUE)?;
            texts(&format!("{at}.name"), &s.name, MAX_NAME)?;
            expr(&at, &s.expr)?;
            labels(&format!("{at}.label"), &s.label)?;
        }
        for (i, a) in d.angles.iter().enumerate() {
            let at = format!("diagram.angles[{i}]");
            indices(&format!("{at}.points"), &a.points, d.points.len())?;
            number(&format!("{at}.value"), a.value, 0.0, 360.0)?;
            texts(&format!("{at}.name"), &a.name, MAX_NAME)?;
            expr(&at, &a.expr)?;
            labels(&format!("{at}.label"), &a.label)?;
        }
        for (i, m) in d.measures.iter().enumerate() {
            let at = format!("diagram.measures[{i}]");
            number(&format!("{at}.value"), m.value, 0.0, MAX_VALUE)?;
            expr(&at, &m.expr)?;
            labels(&format!("{at}.label"), &m.label)?;
        }
        for (i, st) in self.steps.iter().enumerate() {
            let at = format!("steps[{i}]");
            text(&format!("{at}.formula"), &st.formula, MAX_NAME)?;
            count(&format!("{at}.inputs"), &st.inputs, MAX_SMALL_LIST)?;
            for (j, b) in st.inputs.iter().enumerate() {
                binding(&format!("{at}.inputs[{j}]"), b)?;
            }
            binding(&format!("{at}.output"), &st.output)?;
            if let Some(v) = &st.variable {
                value(&format!("{at}.variable.x"), v.x)?;
                count(&format!("{at}.variable.terms"), &v.terms, MAX_SMALL_LIST)?;
                for (j, t) in v.terms.iter().enumerate() {
                    let at = format!("{at}.variable.terms[{j}]");
                    for (name, n) in [("a", t.a), ("b", t.b)] {
                        value(&format!("{at}.{name}"), n as f64)?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, Segment, generate_one};

    fn problem() -> Problem {
        generate_one(&GenerateOptions::default(), 3).unwrap()
    }

    #[test]
    fn generated_problems_are_within_limits() {
        let opts = GenerateOptions {
            depth: 1..=6,
            branch_prob: 1.0,
            distractors: true,
            variablized: 1.0,
            ..GenerateOptions::default()
        };
        for i in 0..40 {
            let p = generate_one(&opts, i).unwrap();
            assert_eq!(p.check_limits(), Ok(()), "{}", p.id);
        }
    }

    #[test]
    fn point_indices_and_arc_radii_are_checked() {
        let mut p = problem();
        p.diagram.sides[0].points[1] = 99;
        let e = p.check_limits().unwrap_err();
        assert_eq!(e.path, "diagram.sides[0].points[1]");
        assert!(e.to_string().contains("point 99 does not exist"), "{e}");

        // An arc whose radius is not its centre's distance to its ends: found by the
        // property tests, where it drew a curve a million pixels wide.
        let opts = GenerateOptions {
            depth: 1..=6,
            branch_prob: 1.0,
            ..GenerateOptions::default()
        };
        let mut p = (0..200)
            .map(|i| generate_one(&opts, i).unwrap())
            .find(|p| {
                p.diagram.shapes.iter().any(|s| {
                    s.outline
                        .iter()
                        .any(|c| c.segments.iter().any(|g| matches!(g, Segment::Arc { .. })))
                })
            })
            .expect("a problem with an arc");
        let (i, j, k) = p
            .diagram
            .shapes
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                s.outline.iter().enumerate().flat_map(move |(j, c)| {
                    c.segments
                        .iter()
                        .position(|g| matches!(g, Segment::Arc { .. }))
                        .map(|k| (i, j, k))
                })
            })
            .next()
            .unwrap();
        if let Segment::Arc { radius, .. } = &mut p.diagram.shapes[i].outline[j].segments[k] {
            *radius *= 1000.0;
        }
        let e = p.check_limits().unwrap_err();
        assert_eq!(
            e.path,
            format!("diagram.shapes[{i}].outline[{j}].segments[{k}].radius")
        );
        assert!(
            e.to_string()
                .contains("is not the distance from the centre"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_field() {
        let mut p = problem();
        p.diagram.points[1].name = "ABCDEFGHIJKL".into();
        let e = p.check_limits().unwrap_err();
        assert_eq!(
            e.to_string(),
            "diagram.points[1].name: longer than 8 characters"
        );

        let mut p = problem();
        p.diagram.points[0].y = -2e6;
        let e = p.check_limits().unwrap_err();
        assert_eq!(e.path, "diagram.points[0].y");

        let mut p = problem();
        let q = p.diagram.points[0].clone();
        p.diagram.points.resize(MAX_POINTS + 1, q);
        let e = p.check_limits().unwrap_err();
        assert_eq!(
            e.to_string(),
            "diagram.points: 97 items, more than the limit of 96"
        );

        let mut p = problem();
        p.answer = crate::generate::Answer::Number(f64::NAN);
        assert_eq!(p.check_limits().unwrap_err().path, "answer");

        let mut p = problem();
        p.diagram.sides[0].label.coordinate = Some("x".repeat(25));
        assert_eq!(
            p.check_limits().unwrap_err().path,
            "diagram.sides[0].label.coordinate"
        );
    }
}
