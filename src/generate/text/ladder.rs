//! MathVerse's modality ladder in words: which of a question's facts each rung keeps,
//! the descriptive sentences only `text-dominant` states, and which implicit
//! properties the image shows by a mark.
//!
//! A fact is one of three kinds (MathVerse §2.2): descriptive information (DI: the
//! shapes and how they are joined), an implicit property (IP: a shape's kind, an
//! angle relation) or an essential condition (EC: a given value).

use crate::generate::problem::{Annotation, Diagram, Modality, SideKind};
use crate::generate::shapes::ShapeKind;

/// What a fact of the question says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Descriptive information: the shapes, their points and how they are joined.
    Descriptive,
    /// An implicit property; `marked` when the image shows it by a mark (a right
    /// triangle's right-angle mark) or by its lines alone (two angles that are
    /// vertical, supplementary or complementary, as GeomVerse takes them with the
    /// givens on the image).
    Property { marked: bool },
    /// An essential condition: a given value.
    Condition,
}

/// Whether `m`'s text keeps a fact of kind `k`.
pub(super) fn keeps(m: Modality, k: Kind) -> bool {
    match m {
        Modality::Base | Modality::TextDominant | Modality::TextOnly => true,
        Modality::TextLite => k != Kind::Descriptive,
        Modality::VisionIntensive => {
            matches!(k, Kind::Condition | Kind::Property { marked: false })
        }
        Modality::VisionDominant | Modality::VisionOnly => k == Kind::Property { marked: false },
    }
}

/// Whether shape `s`'s kind is shown by the image's marks alone: a right triangle
/// whose right angle carries a right-angle mark. Nothing else is: equal sides,
/// parallel sides and the kinds of round shapes have no mark of their own.
pub(super) fn kind_is_marked(d: &Diagram, s: usize) -> bool {
    let Some(shape) = d.shapes.get(s) else {
        return false;
    };
    match (shape.kind, shape.vertices.as_slice()) {
        (ShapeKind::RightTriangle, &[a, corner, b]) => d
            .right_angles
            .iter()
            .any(|r| r[1] == corner && (r[0] == a || r[0] == b) && (r[2] == a || r[2] == b)),
        _ => false,
    }
}

/// What only a drawing shows of a composite shape, stated where there is none
/// (`text-only`): where its part sits and how big it is. The rectangle composites
/// (`shapes::composites`) put theirs on the side D→A, opposite their side d
/// (B→C), a semi-circle on it as diameter or an equilateral triangle on it as a
/// side; the square's removed circle is inscribed, its diameter the side.
pub(super) fn unseen_part(d: &Diagram, a: Annotation, s: usize) -> Option<String> {
    let shape = d.shapes.get(s)?;
    let point = |i: usize| Some(d.points.get(*shape.vertices.get(i)?)?.name.clone());
    let side = |i: usize, j: usize| -> Option<String> {
        Some(match a {
            Annotation::Coordinate => format!("its {}{} side", point(i)?, point(j)?),
            // Individual style names no point: the side by what it is.
            Annotation::Individual => "one of its sides".to_string(),
        })
    };
    let (part, role) = match shape.kind {
        ShapeKind::SquareMinusCircle => {
            return Some("the removed circle's diameter equals the square's side".into());
        }
        ShapeKind::RectangleMinusSemicircle | ShapeKind::RectanglePlusSemicircle => {
            ("semi-circle", "diameter")
        }
        ShapeKind::RectangleMinusEquilateral | ShapeKind::RectanglePlusEquilateral => {
            ("equilateral triangle", "side")
        }
        _ => return None,
    };
    Some(match a {
        Annotation::Coordinate => format!(
            "the {part}'s {role} is {}, opposite {}",
            side(3, 0)?,
            side(1, 2)?
        ),
        Annotation::Individual => {
            format!("the {part}'s {role} is as long as the rectangle's side it stands on")
        }
    })
}

/// The descriptive sentences: the diagram's points (coordinate style, where
/// points are named on the image), its shapes, and each side two shapes share, in
/// the order the shapes were built.
pub(super) fn descriptive(d: &Diagram, a: Annotation) -> Vec<String> {
    let mut out = Vec::new();
    let name = |s: usize| match a {
        Annotation::Coordinate => format!("the {} shape", d.shapes[s].name.coordinate),
        Annotation::Individual => format!("the {} shape", d.shapes[s].name.individual),
    };
    let shapes: Vec<String> = (0..d.shapes.len()).map(name).collect();
    let count = match shapes.len() {
        1 => "one shape".to_string(),
        n => format!("{n} shapes"),
    };
    let shapes = format!("{count}: {}", super::join(&shapes));
    let points: Vec<String> = d
        .points
        .iter()
        .filter(|p| !p.name.is_empty())
        .map(|p| p.name.clone())
        .collect();
    out.push(match a {
        Annotation::Coordinate if !points.is_empty() => format!(
            "the diagram has the points {} and {shapes}",
            super::join(&points)
        ),
        _ => format!("the diagram has {shapes}"),
    });
    for side in d.sides.iter().filter(|s| s.kind == SideKind::Edge) {
        if let [first, second, ..] = side.shapes[..] {
            out.push(match a {
                Annotation::Coordinate => format!(
                    "{} and {} share the {} side",
                    name(first),
                    name(second),
                    side.name.coordinate
                ),
                Annotation::Individual => {
                    format!("{} and {} share a side", name(first), name(second))
                }
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::generate::expr::fmt_num;
    use crate::generate::problem::{Annotation, Info, Modality, Problem, Status};
    use crate::generate::{GenerateOptions, generate_one, with_modality};

    /// Every given of `p` as the texts write it: its value, or its `a·x + b`.
    fn givens(p: &Problem) -> Vec<String> {
        let d = &p.diagram;
        let given = |s: Status, e: &Option<String>| s == Status::Given || e.is_some();
        let text = |v: f64, e: &Option<String>| e.clone().unwrap_or_else(|| fmt_num(v));
        (d.sides.iter().filter(|s| given(s.status, &s.expr)))
            .map(|s| text(s.value, &s.expr))
            .chain(
                (d.angles.iter().filter(|a| given(a.status, &a.expr)))
                    .map(|a| text(a.value, &a.expr)),
            )
            .chain(
                (d.measures.iter().filter(|m| given(m.status, &m.expr)))
                    .map(|m| text(m.value, &m.expr)),
            )
            .collect()
    }

    /// The question without the π and rounding sentences of any wording.
    fn without_frame(q: &str) -> String {
        q.split(". ")
            .filter(|s| !s.contains("3.14") && !s.contains("decimal places"))
            .collect::<Vec<_>>()
            .join(". ")
    }

    /// `text-only` has no image, so its text alone must hold what the solution
    /// uses: every given the steps read, every shape's kind, each connector's two
    /// angles and their relation; and it names no colour, which only an image shows.
    #[test]
    fn text_only_states_every_fact_the_solution_uses_and_no_colour() {
        use crate::generate::problem::ElementRef;
        let (mut givens_read, mut connectors, mut composites) = (0, 0, 0);
        for info in [Info::Image, Info::Text] {
            let opts = GenerateOptions {
                info,
                depth: 1..=3,
                ..GenerateOptions::default()
            };
            for i in 0..120 {
                let p = generate_one(&opts, i).unwrap();
                let t = with_modality(&p, Modality::TextOnly).unwrap();
                assert_eq!((t.answer, t.steps.len()), (p.answer, p.steps.len()));
                assert!(!t.params.modality.has_image());
                let q = t.question.get(Annotation::Coordinate);
                let d = &t.diagram;
                for g in givens(&t) {
                    assert!(q.contains(&g), "{}: {g} not stated in {q}", p.id);
                }
                for step in &t.steps {
                    for b in step.inputs.iter().chain([&step.output]) {
                        let (status, expr) = match b.element {
                            ElementRef::Side(k) => (d.sides[k].status, &d.sides[k].expr),
                            ElementRef::Angle(k) => (d.angles[k].status, &d.angles[k].expr),
                            ElementRef::Measure(k) => (d.measures[k].status, &d.measures[k].expr),
                        };
                        if status == Status::Given || expr.is_some() {
                            let v = expr.clone().unwrap_or_else(|| fmt_num(b.value));
                            assert!(q.contains(&v), "{}: step reads {v}: {q}", p.id);
                            givens_read += 1;
                        }
                    }
                    if let Some(c) = step.kind.def().connector() {
                        connectors += 1;
                        assert!(q.contains(&format!("are {}", c.word)), "{}: {q}", p.id);
                        for b in &step.inputs {
                            if let ElementRef::Angle(k) = b.element {
                                let name = &d.angles[k].name.coordinate;
                                assert!(q.contains(name.as_str()), "{}: {name}: {q}", p.id);
                            }
                        }
                    }
                }
                for shape in &d.shapes {
                    let kind = format!(
                        "the {} shape is {}",
                        shape.name.coordinate,
                        shape.kind.description()
                    );
                    assert!(q.contains(&kind), "{}: {kind} not in {q}", p.id);
                }
                // A composite's part: on the side opposite its side d, as long as it
                // (checked from the points' coordinates), said where no drawing is.
                for shape in &d.shapes {
                    use crate::generate::shapes::Family;
                    if !matches!(shape.kind.def().family, Family::Composite) {
                        continue;
                    }
                    composites += 1;
                    let pt = |i: usize| &d.points[shape.vertices[i]];
                    let len = |i: usize, j: usize| (pt(i).x - pt(j).x).hypot(pt(i).y - pt(j).y);
                    if shape.kind == crate::generate::shapes::ShapeKind::SquareMinusCircle {
                        assert!(
                            q.contains("circle's diameter equals the square's side"),
                            "{q}"
                        );
                        continue;
                    }
                    assert!((len(3, 0) - len(1, 2)).abs() < 1e-6, "{}", p.id);
                    let said = format!(
                        "is its {}{} side, opposite its {}{} side",
                        pt(3).name,
                        pt(0).name,
                        pt(1).name,
                        pt(2).name
                    );
                    assert!(q.contains(&said), "{}: {said} not in {q}", p.id);
                }
                let words: Vec<&str> = q.split(|c: char| !c.is_alphanumeric()).collect();
                for shape in &p.diagram.shapes {
                    for colour in shape.colour.split(|c: char| !c.is_alphanumeric()) {
                        assert!(
                            colour.is_empty() || !words.contains(&colour),
                            "{}: names the colour {colour}: {q}",
                            p.id
                        );
                    }
                }
            }
        }
        eprintln!(
            "{givens_read} givens read by steps, {connectors} connectors, {composites} composites"
        );
        assert!(givens_read >= 240 && connectors >= 10 && composites >= 10);
    }

    /// Checked against the Problem's own diagram, not the writer's bookkeeping.
    #[test]
    fn each_rung_states_what_it_keeps_and_the_image_shows_the_rest() {
        let mut dominant = 0;
        for info in [Info::Image, Info::Text] {
            let opts = GenerateOptions {
                info,
                ..GenerateOptions::default()
            };
            for i in 0..120 {
                let p = generate_one(&opts, i).unwrap();
                let rung = |m| with_modality(&p, m).unwrap();
                let (td, tl, vi) = (
                    rung(Modality::TextDominant),
                    rung(Modality::TextLite),
                    rung(Modality::VisionIntensive),
                );
                for q in [&td, &tl, &vi] {
                    assert_eq!((q.answer, &q.cot), (p.answer, &p.cot));
                }
                for a in Annotation::ALL {
                    let (td_q, tl_q, vi_q) =
                        (td.question.get(a), tl.question.get(a), vi.question.get(a));
                    // text-lite is text-dominant without its leading description.
                    assert!(
                        td_q.len() > tl_q.len() && td_q.ends_with(tl_q),
                        "{td_q}\n{tl_q}"
                    );
                    assert!(td_q.starts_with("The diagram has "), "{td_q}");
                    for g in givens(&p) {
                        for q in [td_q, tl_q, vi_q] {
                            assert!(q.contains(&g), "{}: {g} not stated in {q}", p.id);
                        }
                    }
                    if a == Annotation::Coordinate {
                        for pt in &p.diagram.points {
                            assert!(td_q.contains(&pt.name), "{}: {} unnamed", p.id, pt.name);
                        }
                    }
                    // vision-intensive drops exactly the marked right triangles' kinds.
                    for (s, shape) in p.diagram.shapes.iter().enumerate() {
                        let fact = format!(
                            "the {} shape is {}",
                            shape.name.get(a),
                            shape.kind.description()
                        );
                        assert!(tl_q.contains(&fact), "{tl_q}: {fact}");
                        let marked = super::kind_is_marked(&p.diagram, s);
                        assert_eq!(vi_q.contains(&fact), !marked, "{vi_q}: {fact}");
                    }
                }
                match with_modality(&p, Modality::VisionDominant) {
                    Ok(vd) => {
                        dominant += 1;
                        assert_eq!(vd.answer, p.answer);
                        // vision-only: vision-dominant's drawing and solution, its
                        // question moved into the caption, an instruction left.
                        let vo = with_modality(&p, Modality::VisionOnly).unwrap();
                        assert_eq!(
                            (&vo.diagram, &vo.cot, vo.answer),
                            (&vd.diagram, &vd.cot, vd.answer)
                        );
                        assert_eq!(vo.caption.as_ref(), Some(&vd.question));
                        for a in Annotation::ALL {
                            assert_eq!(
                                vo.question.get(a),
                                crate::generate::problem::VISION_ONLY_INSTRUCTION
                            );
                        }
                        for a in Annotation::ALL {
                            // No number is stated: every given is a label on the image.
                            let q = without_frame(vd.question.get(a));
                            assert!(!q.chars().any(|c| c.is_ascii_digit()), "{}: {q}", p.id);
                            // Each given carries its own label, with its value.
                            let d = &vd.diagram;
                            let given =
                                |s: Status, e: &Option<String>| s == Status::Given || e.is_some();
                            let text = |v: f64, e: &Option<String>| {
                                e.clone().unwrap_or_else(|| fmt_num(v))
                            };
                            for s in d.sides.iter().filter(|s| given(s.status, &s.expr)) {
                                let want = text(s.value, &s.expr);
                                assert_eq!(s.label.get(a), Some(want.as_str()), "{}", p.id);
                            }
                            for x in d.angles.iter().filter(|x| given(x.status, &x.expr)) {
                                let want = format!("{}°", text(x.value, &x.expr));
                                assert_eq!(x.label.get(a), Some(want.as_str()), "{}", p.id);
                            }
                            for m in d.measures.iter().filter(|m| given(m.status, &m.expr)) {
                                let want = format!(" = {}", text(m.value, &m.expr));
                                let label = m.label.get(a).unwrap_or_default();
                                assert!(label.ends_with(&want), "{}: {label}", p.id);
                            }
                        }
                    }
                    // Every given has a label: none is refused.
                    Err(e) => panic!("{}: {e}", p.id),
                }
            }
        }
        assert_eq!(dominant, 240);
    }
}
