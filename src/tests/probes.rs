//! The probe table, and the probes of figures whose answers are known by hand: a
//! square with a marked corner beside an obtuse triangle, and a semicircle. The
//! README's table of probe kinds is the table.

use crate::compose::{GArc, GLine, GPoint, GShape, Grounding, LineKind};
use crate::generate::ShapeKind;
use crate::probe::{Candidate, KINDS, ProbeAnswer, ProbeKind, ProbeOptions, Texts, probes};

fn point(name: &str, x: f64, y: f64) -> GPoint {
    GPoint {
        name: name.into(),
        at: [x, y],
        labelled: true,
    }
}

fn line(a: usize, b: usize) -> GLine {
    GLine {
        ends: [a, b],
        kind: LineKind::Edge,
    }
}

/// Square ABCD (side 100, corner B marked right) and triangle BEC on its side BC,
/// with E 30 px to its right, so that BEC's angle at E is obtuse.
fn square_and_triangle() -> Grounding {
    let points = vec![
        point("A", 100.0, 100.0),
        point("B", 200.0, 100.0),
        point("C", 200.0, 200.0),
        point("D", 100.0, 200.0),
        point("E", 230.0, 150.0),
    ];
    let square = vec![
        [100.0, 100.0],
        [200.0, 100.0],
        [200.0, 200.0],
        [100.0, 200.0],
    ];
    let triangle = vec![[200.0, 100.0], [230.0, 150.0], [200.0, 200.0]];
    Grounding {
        width: 300,
        height: 300,
        points,
        lines: vec![
            line(0, 1),
            line(1, 2),
            line(2, 3),
            line(3, 0),
            line(1, 4),
            line(4, 2),
        ],
        shapes: vec![
            GShape {
                kind: ShapeKind::Square,
                name: "ABCD".into(),
                vertices: vec![0, 1, 2, 3],
                outline: square,
                holes: Vec::new(),
            },
            GShape {
                kind: ShapeKind::Triangle,
                name: "BEC".into(),
                vertices: vec![1, 4, 2],
                outline: triangle,
                holes: Vec::new(),
            },
        ],
        arcs: Vec::new(),
        labels: Vec::new(),
        right_angles: vec![[0, 1, 2]],
        aux: Vec::new(),
        corners_named: true,
    }
}

/// Every candidate of `kind`, worded.
fn of(kind: ProbeKind, g: &Grounding) -> Vec<(Candidate, Texts)> {
    let def = kind.def();
    (def.candidates)(g)
        .into_iter()
        .map(|c| (c, (def.texts)(g, &c)))
        .collect()
}

/// The answer text of a candidate.
fn says(c: &(Candidate, Texts)) -> String {
    (c.0.count).map_or_else(|| c.1.options[c.0.correct].clone(), |n| n.to_string())
}

fn find<'a>(cs: &'a [(Candidate, Texts)], elements: &[&str]) -> Option<&'a (Candidate, Texts)> {
    cs.iter().find(|c| c.1.elements == elements)
}

#[test]
fn the_table_is_in_kind_order_and_names_each_kind_as_rows_do() {
    for (i, def) in KINDS.iter().enumerate() {
        assert_eq!(def.kind as usize, i);
        assert_eq!(serde_json::to_value(def.kind).unwrap(), def.name);
        assert_eq!(def.kind.name(), def.name);
    }
    let mut table = String::from("| type | asks | answered with |\n|---|---|---|\n");
    for def in &KINDS {
        let answers = match def.answers {
            crate::probe::Answers::YesNo => "Yes / No, asked in pairs (one of each)",
            crate::probe::Answers::Options if def.kind == ProbeKind::Counting => "a number",
            crate::probe::Answers::Options => "one of the options, in a drawn order",
        };
        table += &format!("| `{}` | {} | {answers} |\n", def.name, def.asks);
    }
    crate::tests::support::readme_table(
        "<!-- probe table: src/tests/probes.rs -->\n",
        "<!-- end of probe table -->",
        &table,
        "probe",
    );
}

#[test]
fn a_square_beside_a_triangle_gets_the_answers_a_geometer_gives() {
    let g = square_and_triangle();
    let par = of(ProbeKind::Parallel, &g);
    assert_eq!(says(find(&par, &["AB", "CD"]).unwrap()), "Yes");
    assert_eq!(says(find(&par, &["AB", "CE"]).unwrap()), "No");
    // Sides meeting at a corner are never asked as parallel.
    assert!(find(&par, &["AB", "BC"]).is_none());
    let perp = of(ProbeKind::Perpendicular, &g);
    assert_eq!(says(find(&perp, &["AB", "BC"]).unwrap()), "Yes");
    // BE against BC: about 31° from BC, far from perpendicular.
    assert_eq!(says(find(&perp, &["BC", "BE"]).unwrap()), "No");
    let equal = of(ProbeKind::Equal, &g);
    assert_eq!(says(find(&equal, &["AB", "CD"]).unwrap()), "Yes");
    assert_eq!(says(find(&equal, &["AB", "BE"]).unwrap()), "No");
    let longer = of(ProbeKind::LineComparison, &g);
    assert_eq!(says(find(&longer, &["AB", "BE"]).unwrap()), "AB");
    // AB is 100 px, BE 58 px: asked; BE and EC are equal: not asked.
    assert!(find(&longer, &["BE", "CE"]).is_none());
    let angles = of(ProbeKind::AngleClassification, &g);
    assert_eq!(says(find(&angles, &["ABC"]).unwrap()), "right", "marked");
    // D's corner is 90° but unmarked: not asked.
    assert!(
        angles
            .iter()
            .all(|c| c.1.elements[0].chars().nth(1) != Some('D'))
    );
    assert_eq!(says(find(&angles, &["BEC"]).unwrap()), "obtuse");
    assert_eq!(
        says(find(&angles, &["CBE"]).unwrap()),
        "acute",
        "named ends first"
    );
    assert_eq!(says(find(&angles, &["ABE"]).unwrap()), "obtuse");
    let counts = of(ProbeKind::Counting, &g);
    assert_eq!(says(find(&counts, &["points"]).unwrap()), "5");
    assert_eq!(says(find(&counts, &["triangles"]).unwrap()), "1");
    assert_eq!(says(find(&counts, &["quadrilaterals"]).unwrap()), "1");
    let on = of(ProbeKind::PointOnLine, &g);
    assert_eq!(says(find(&on, &["E", "AB"]).unwrap()), "No");
}

#[test]
fn a_count_is_not_asked_where_the_lines_make_other_figures() {
    // The square's diagonal AC makes two triangles the shape tree does not have.
    let mut g = square_and_triangle();
    g.lines.push(line(0, 2));
    let counts = of(ProbeKind::Counting, &g);
    assert!(find(&counts, &["triangles"]).is_none());
    // ...and the lines make a second quadrilateral, ABEC.
    assert!(find(&counts, &["quadrilaterals"]).is_none());
}

#[test]
fn points_on_and_off_an_arc() {
    // A semicircle of radius 50 about (150, 150), over the top, from A to B.
    let g = Grounding {
        width: 300,
        height: 300,
        points: vec![
            point("A", 100.0, 150.0),
            point("B", 200.0, 150.0),
            point("C", 150.0, 100.0),
            point("D", 150.0, 195.0),
        ],
        lines: vec![line(0, 1)],
        shapes: vec![GShape {
            kind: ShapeKind::Semicircle,
            name: "blue".into(),
            vertices: vec![0, 1],
            outline: Vec::new(),
            holes: Vec::new(),
        }],
        arcs: vec![GArc {
            shape: 0,
            center: [150.0, 150.0],
            radius: 50.0,
            from: [100.0, 150.0],
            to: [200.0, 150.0],
            sweep: true,
        }],
        labels: Vec::new(),
        right_angles: Vec::new(),
        aux: Vec::new(),
        corners_named: true,
    };
    let on = of(ProbeKind::PointOnCircle, &g);
    let q = |p: &str| says(find(&on, &[p, "blue"]).unwrap());
    assert_eq!(
        (q("A"), q("B"), q("C")),
        ("Yes".into(), "Yes".into(), "Yes".into())
    );
    // D is 45 px from the centre: 5 px in, too close to tell, not asked.
    assert!(find(&on, &["D", "blue"]).is_none());
    assert!(
        find(&on, &["C", "blue"])
            .unwrap()
            .1
            .question
            .contains("the blue semicircle")
    );
    // C is on the line AB? It is 50 px above it.
    let online = of(ProbeKind::PointOnLine, &g);
    assert_eq!(says(find(&online, &["C", "AB"]).unwrap()), "No");
}

#[test]
fn yes_no_probes_come_in_pairs_and_options_in_a_drawn_order() {
    let g = square_and_triangle();
    let opts = ProbeOptions {
        per_image: 64,
        per_kind: 64,
    };
    let mut positions = [0usize; 3];
    for seed in 0..200 {
        let ps = probes(&g, seed, &opts);
        let mut yes = std::collections::BTreeMap::<ProbeKind, (usize, usize)>::new();
        for p in &ps {
            if let ProbeAnswer::Choice { choices, correct } = &p.answer {
                if choices[0] == "Yes" && choices.len() == 2 {
                    let e = yes.entry(p.kind).or_default();
                    e.0 += usize::from(*correct == 0);
                    e.1 += 1;
                } else if choices.len() == 3 {
                    positions[*correct] += 1;
                }
            }
        }
        for (kind, (y, n)) in yes {
            assert_eq!(2 * y, n, "{kind:?} at seed {seed}");
        }
        // The same seed, the same probes.
        assert_eq!(ps, probes(&g, seed, &opts));
    }
    let total: usize = positions.iter().sum();
    for p in positions {
        assert!(
            (p as f64 / total as f64 - 1.0 / 3.0).abs() < 0.05,
            "{positions:?}"
        );
    }
}

/// The README's picture: one image as a run draws it, with its COCO boxes drawn
/// over it (points red, labels blue, shapes' boxes green), and its probes listed
/// under it (`docs/probes/overlay.png`, written with `GEOMRENDER_UPDATE_EXAMPLES=1`).
#[test]
fn the_readme_shows_one_image_with_its_probes_and_coco_boxes() {
    use crate::scene::{Color, Item, PathItem};
    let problem = crate::generate::generate_one(
        &crate::generate::GenerateOptions {
            seed: 48,
            ..Default::default()
        },
        3,
    )
    .unwrap();
    let line = serde_json::to_string(&problem).unwrap();
    let plan = crate::variants::Plan::base_only();
    let mut jobs = crate::pipeline::expand_line(&line, &plan).unwrap();
    let job = jobs.remove(0);
    let drawn = job.drawn.as_ref().unwrap();
    let drawn_problem = job.problem.as_ref().unwrap().problem.as_deref().unwrap();
    let g = Grounding::of(drawn_problem, drawn).unwrap();
    let ps = probes(&g, drawn_problem.seed, &ProbeOptions::default());
    let mut scene = job.scene.clone();
    let rect = |x: f64, y: f64, w: f64, h: f64, c: Color, dash: bool| {
        Item::Path(PathItem {
            stroke: Some(c),
            stroke_width: 1.5,
            dash: if dash { vec![4.0, 3.0] } else { Vec::new() },
            ..PathItem::new(format!(
                "M {x:.2} {y:.2} L {:.2} {y:.2} L {:.2} {:.2} L {x:.2} {:.2} Z",
                x + w,
                x + w,
                y + h,
                y + h
            ))
        })
    };
    let box_side = crate::output::datasets::COCO_POINT_BOX;
    for s in &g.shapes {
        let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
        for p in &s.outline {
            lo = [lo[0].min(p[0]), lo[1].min(p[1])];
            hi = [hi[0].max(p[0]), hi[1].max(p[1])];
        }
        let c = Color::rgb(0x1b, 0x9e, 0x3e);
        scene
            .items
            .push(rect(lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1], c, true));
    }
    for l in &g.labels {
        let c = Color::rgb(0x1f, 0x5f, 0xd6);
        let (x, y) = (l.center[0] - l.half[0], l.center[1] - l.half[1]);
        scene
            .items
            .push(rect(x, y, 2.0 * l.half[0], 2.0 * l.half[1], c, false));
    }
    for p in &g.points {
        let h = box_side / 2.0;
        let c = Color::rgb(0xd6, 0x27, 0x28);
        scene
            .items
            .push(rect(p.at[0] - h, p.at[1] - h, box_side, box_side, c, false));
    }
    let image = crate::render::CpuRenderer::raster().render(&scene).unwrap();
    let png = crate::output::encode(crate::style::Encoding::Png, &image).unwrap();
    let path = crate::tests::support::repo().join("docs/probes/overlay.png");
    if std::env::var_os("GEOMRENDER_UPDATE_EXAMPLES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &png).unwrap();
    }
    assert!(
        std::fs::read(&path).is_ok_and(|b| b == png),
        "{} is not the overlay (GEOMRENDER_UPDATE_EXAMPLES=1 writes it)",
        path.display()
    );
    // The probes, as the README lists them under the picture.
    let mut table = String::from("| type | question | answer | why |\n|---|---|---|---|\n");
    for p in &ps {
        let (question, answer) = match &p.answer {
            ProbeAnswer::Choice { choices, correct } => (
                format!(
                    "{} {}",
                    p.question,
                    crate::generate::relations::choice_list(choices)
                ),
                format!(
                    "{} ({})",
                    (b'A' + *correct as u8) as char,
                    choices[*correct]
                ),
            ),
            ProbeAnswer::Count(n) => (p.question.clone(), n.to_string()),
        };
        table += &format!(
            "| `{}` | {question} | {answer} | {} |\n",
            p.kind.name(),
            p.why
        );
    }
    crate::tests::support::readme_table(
        "<!-- probe example: src/tests/probes.rs -->\n",
        "<!-- end of probe example -->",
        &table,
        "probe example",
    );
}
