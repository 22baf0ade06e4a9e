//! Unrelated information (`unrelated=1,2`, GeomRel §2.5): shapes that play no part
//! in the answer. Checked against the base drawing of the same annotation and
//! information placement, from the Problem and Scene themselves:
//! - the steps, the solution and the answer are the base's;
//! - each added shape brings one given value that no step uses, which the CoT never
//!   mentions and which is stated where the problem states its givens (a text item
//!   of the Scene under `info=image`, the question under `info=text`);
//! - an added shape overlaps no other (no point well inside it is in another's fill);
//! - labels keep the layout guarantees at every font size of the default sweep;
//! - every name the texts use is drawn, with the givens on the image or in the text;
//! - (issue 43) it is made for nine in ten problems at depths 1–3 (`unrelated=1`)
//!   and eight in ten (`unrelated=2`): where no free side has room, a free-standing
//!   shape goes in the free space of the square the base is fitted by; at depths
//!   4–6 the colours told apart from the base's fills run out first;
//! - (issue 43) a free-standing shape lies inside that square, 3 % of its side in
//!   from its edge, and 8 % of its side clear of every point, outline, inner side
//!   and ray drawn, measured here from the Problem's own geometry.

use geomrender::generate::colours::compatible;
use geomrender::generate::expr::fmt_num;
use geomrender::generate::{
    ElementRef, GenerateOptions, Info, Problem, Segment, SideKind, Status, generate_range,
};
use geomrender::pipeline::expand_line;
use geomrender::variants::{Axis, Plan, draw_problem};

/// Each shape's outline as a polygon (arcs sampled).
fn polygon(p: &Problem, s: usize) -> Vec<[f64; 2]> {
    contour(&p.diagram.shapes[s].outline[0])
}

/// A contour as a polygon, its arcs sampled 32 times each.
fn contour(c: &geomrender::generate::Contour) -> Vec<[f64; 2]> {
    let mut out = vec![c.start];
    let mut cur = c.start;
    for seg in &c.segments {
        match *seg {
            Segment::Line { to } => {
                out.push(to);
                cur = to;
            }
            Segment::Arc {
                to, center, sweep, ..
            } => {
                // Sampled along the circle from `cur` to `to` in the arc's direction.
                let (a0, a1) = (
                    (cur[1] - center[1]).atan2(cur[0] - center[0]),
                    (to[1] - center[1]).atan2(to[0] - center[0]),
                );
                let r = (cur[0] - center[0]).hypot(cur[1] - center[1]);
                let mut d = a1 - a0;
                let tau = std::f64::consts::TAU;
                if sweep {
                    while d <= 0.0 {
                        d += tau;
                    }
                } else {
                    while d >= 0.0 {
                        d -= tau;
                    }
                }
                for k in 1..=SAMPLES {
                    let a = a0 + d * k as f64 / SAMPLES as f64;
                    out.push([center[0] + r * a.cos(), center[1] + r * a.sin()]);
                }
                cur = to;
            }
        }
    }
    out
}

/// Points each arc is sampled with: its chords stray from it by less than 0.01 %
/// of its radius.
const SAMPLES: usize = 256;

fn inside(poly: &[[f64; 2]], q: [f64; 2]) -> bool {
    let mut c = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a[1] > q[1]) != (b[1] > q[1])
            && q[0] < (b[0] - a[0]) * (q[1] - a[1]) / (b[1] - a[1]) + a[0]
        {
            c = !c;
        }
    }
    c
}

#[test]
fn unrelated_shapes_change_nothing_the_answer_needs() {
    let plan = Plan::parse("unrelated;annotation=coordinate,individual;info", true).unwrap();
    let opts = GenerateOptions {
        seed: 51,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let (mut made, mut skipped, mut values) = (0, 0, 0);
    for p in generate_range(&opts, 0, 300) {
        let p = p.unwrap();
        let jobs = expand_line(&serde_json::to_string(&p).unwrap(), &plan).unwrap();
        for v in plan.variants() {
            let Some(k) = v.get(Axis::UNRELATED) else {
                continue;
            };
            let k: u8 = k.label().parse().unwrap();
            let Ok(d) = draw_problem(&p, &v) else {
                skipped += 1;
                continue;
            };
            let id = v.id(&p.id);
            // The same drawing without the shapes.
            let base_v = geomrender::variants::Variant {
                settings: v
                    .settings
                    .iter()
                    .copied()
                    .filter(|s| s.axis() != Axis::UNRELATED)
                    .collect(),
            };
            let base = draw_problem(&p, &base_v).unwrap();
            let (q, b) = (&d.problem, &base.problem);
            assert_eq!(q.steps, b.steps, "{id}");
            assert_eq!(q.cot, b.cot, "{id}");
            assert_eq!(
                q.answer.number().map(f64::to_bits),
                b.answer.number().map(f64::to_bits),
                "{id}"
            );
            let added = q.diagram.shapes.len() - b.diagram.shapes.len();
            assert_eq!(added, k as usize, "{id}");
            let job = jobs.iter().find(|j| j.scene.id == id).unwrap();
            let fields = job.problem.as_ref().unwrap();
            // Every colour, letter and "marked with" symbol named is drawn.
            crate::tests::support::drawn::check(job).unwrap();
            // One change (issue 25): every path of the drawing without the shapes is
            // drawn again, byte for byte and in order, at the same scale and place.
            let base_job = jobs
                .iter()
                .find(|j| j.scene.id == base_v.id(&p.id))
                .or_else(|| jobs.iter().find(|j| j.scene.id == p.id))
                .unwrap();
            let paths = |s: &geomrender::scene::Scene| -> Vec<geomrender::scene::PathItem> {
                s.items
                    .iter()
                    .filter_map(|i| match i {
                        geomrender::scene::Item::Path(p) => Some(p.clone()),
                        _ => None,
                    })
                    .collect()
            };
            // Each path cut into its subpaths (the outline path holds every shape),
            // with its paint.
            let pieces = |s: &geomrender::scene::Scene| -> Vec<(String, String)> {
                paths(s)
                    .into_iter()
                    .filter(|p| {
                        // Leader lines may go or move with the labels the shapes crowd.
                        !(p.stroke == Some(geomrender::compose::LEADER_COLOR) && p.fill.is_none())
                    })
                    .flat_map(|p| {
                        let paint = format!("{:?} {:?} {}", p.fill, p.stroke, p.stroke_width);
                        p.d.split('M')
                            .filter(|x| !x.trim().is_empty())
                            .map(|x| (x.trim().to_string(), paint.clone()))
                            .collect::<Vec<_>>()
                    })
                    .collect()
            };
            let now = pieces(&job.scene);
            for b in pieces(&base_job.scene) {
                assert!(now.contains(&b), "{id}: base subpath {b:?} not drawn again");
            }
            assert_eq!(
                fields.layout.scale,
                base_job.problem.as_ref().unwrap().layout.scale
            );
            let drawn = crate::tests::support::drawn::texts(&job.scene);
            let bound: Vec<ElementRef> = q
                .steps
                .iter()
                .flat_map(|s| s.inputs.iter().chain([&s.output]))
                .map(|b| b.element)
                .collect();
            let free: Vec<f64> = (q.diagram.sides.iter().enumerate())
                .filter(|(i, s)| {
                    s.status == Status::Given && !bound.contains(&ElementRef::Side(*i))
                })
                .map(|(_, s)| s.value)
                .collect();
            assert_eq!(free.len(), added, "{id}: one given value per added shape");
            let tokens = |t: &str| -> Vec<String> {
                t.split(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .map(|t| t.trim_matches('.').to_string())
                    .filter(|t| !t.is_empty())
                    .collect()
            };
            for v in free {
                let v = fmt_num(v);
                assert!(
                    !tokens(&fields.cot).contains(&v),
                    "{id}: the CoT mentions {v}"
                );
                match q.params.info {
                    Info::Image => assert!(drawn.contains(v.as_str()), "{id}: {v} not drawn"),
                    Info::Text => assert!(
                        tokens(&fields.question).contains(&v),
                        "{id}: {v} not stated: {}",
                        fields.question
                    ),
                }
                values += 1;
            }
            // No overlap: points well inside each added shape are outside the others.
            let n = q.diagram.shapes.len();
            for s in n - added..n {
                let poly = polygon(q, s);
                let c = poly
                    .iter()
                    .fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
                let c = [c[0] / poly.len() as f64, c[1] / poly.len() as f64];
                for corner in &poly {
                    for t in [0.1, 0.5, 0.9] {
                        let probe = [c[0] + (corner[0] - c[0]) * t, c[1] + (corner[1] - c[1]) * t];
                        // In no other shape's fill (a hole, the circle removed
                        // from a square, is free space).
                        for o in (0..n).filter(|&o| o != s) {
                            assert!(!filled(q, o, probe), "{id}: shape {s} overlaps shape {o}");
                        }
                    }
                }
            }
            made += 1;
        }
    }
    eprintln!("{made} unrelated variants ({values} added values), {skipped} without room");
    // Only where the shapes fit in the base's own frame (issue 25): 748 of 2,400
    // with shapes on free edges only; 2,144 with free-standing ones (issue 43).
    assert!(made >= 2000, "{made} made, {skipped} skipped");
}

#[test]
fn unrelated_variants_keep_the_layout_guarantees_at_every_font_size() {
    let checked =
        crate::tests::support::drawn::assert_layout_guarantees("unrelated;fontsize", 52, 150);
    assert!(checked > 400, "{checked}");
}

/// Distance from `q` to segment `ab`.
fn dist_point_seg(q: [f64; 2], (a, b): ([f64; 2], [f64; 2])) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (q[0] - a[0] - t * dx).hypot(q[1] - a[1] - t * dy)
}

/// Distance between two segments (0 when they cross).
fn dist_seg_seg(s: ([f64; 2], [f64; 2]), t: ([f64; 2], [f64; 2])) -> f64 {
    let side = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let crosses = side(t.0, t.1, s.0) * side(t.0, t.1, s.1) < 0.0
        && side(s.0, s.1, t.0) * side(s.0, s.1, t.1) < 0.0;
    if crosses {
        return 0.0;
    }
    [
        dist_point_seg(s.0, t),
        dist_point_seg(s.1, t),
        dist_point_seg(t.0, s),
        dist_point_seg(t.1, s),
    ]
    .into_iter()
    .fold(f64::MAX, f64::min)
}

/// The square `compose` fits a drawing by, from the base's own geometry: the box
/// of its points and outlines (arcs sampled), its larger side centred.
fn fitted_square(p: &Problem) -> [[f64; 2]; 2] {
    let pts = p.diagram.points.iter().map(|q| [q.x, q.y]);
    let outlines = p
        .diagram
        .shapes
        .iter()
        .flat_map(|s| &s.outline)
        .flat_map(contour);
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for q in pts.chain(outlines) {
        for k in 0..2 {
            lo[k] = lo[k].min(q[k]);
            hi[k] = hi[k].max(q[k]);
        }
    }
    let half = (hi[0] - lo[0]).max(hi[1] - lo[1]) / 2.0;
    let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    [
        [mid[0] - half, mid[1] - half],
        [mid[0] + half, mid[1] + half],
    ]
}

/// Whether `q` is in shape `s`'s fill: inside its outline and outside its holes.
fn filled(p: &Problem, s: usize, q: [f64; 2]) -> bool {
    let contours = p.diagram.shapes[s].outline.iter();
    contours.filter(|c| inside(&contour(c), q)).count() % 2 == 1
}

#[test]
fn issue_43_unrelated_is_made_for_most_problems() {
    // Issue 43: with shapes only on free outline edges, 120 and 101 of the 300 at
    // depths 1–3. What stays out there is a frame one shape fills (a square, a
    // circle); at depths 4–6, a diagram whose fills leave no colour told apart
    // from them all (the room is there), which caps `unrelated=2` near three in four.
    let plan = Plan::parse("unrelated=1,2", false).unwrap();
    let variants = plan.variants();
    for (depth, least) in [(1..=3, [270, 240]), (4..=6, [270, 210])] {
        let opts = GenerateOptions {
            seed: 77,
            depth: depth.clone(),
            ..GenerateOptions::default()
        };
        let (mut made, mut no_room, mut no_colour) = ([0usize; 2], [0usize; 2], [0usize; 2]);
        for p in generate_range(&opts, 0, 300) {
            let p = p.unwrap();
            for (k, v) in variants[1..].iter().enumerate() {
                match draw_problem(&p, v).map_err(|e| e.to_string()) {
                    Ok(_) => made[k] += 1,
                    Err(e) if e.contains("no free side or free space") => no_room[k] += 1,
                    Err(e) if e.contains("no colour left") => no_colour[k] += 1,
                    Err(e) => panic!("{}: {e}", p.id),
                }
            }
        }
        eprintln!(
            "of 300 problems (seed 77, depths {depth:?}): unrelated=1 {}, unrelated=2 {}; \
             not made for want of room {no_room:?}, of a colour {no_colour:?}",
            made[0], made[1]
        );
        assert!(
            made[0] >= least[0] && made[1] >= least[1],
            "{depth:?}: {made:?}"
        );
        if *depth.end() <= 3 {
            assert_eq!(no_colour, [0, 0], "at depths 1–3 a colour is always left");
        }
    }
}

#[test]
fn free_standing_shapes_keep_their_distance_from_everything_drawn() {
    // The distances stated: 8 % of the fitted square's side from every point and
    // stroke, 3 % from the square's edge (less what this test's own sampling of
    // the arcs may miss).
    const CLEAR: f64 = 0.08;
    const INSET: f64 = 0.03;
    let plan = Plan::parse("unrelated=1,2", false).unwrap();
    let variants = plan.variants();
    let mut free = 0;
    for (seed, depth) in [(77, 1..=3), (5, 1..=3), (77, 4..=6)] {
        let opts = GenerateOptions {
            seed,
            depth,
            ..GenerateOptions::default()
        };
        for p in generate_range(&opts, 0, 150) {
            let p = p.unwrap();
            let square = fitted_square(&p);
            let side = square[1][0] - square[0][0];
            let tol = 1e-4 * side;
            for v in &variants[1..] {
                let Ok(d) = draw_problem(&p, v) else {
                    continue;
                };
                let (q, id) = (&d.problem, v.id(&p.id));
                let d = &q.diagram;
                let n = d.shapes.len();
                // The base's frame kept, and the base's shapes, points and sides.
                let frame = d.frame.expect("the base's frame");
                let frame_side = (frame[1][0] - frame[0][0]).max(frame[1][1] - frame[0][1]);
                assert!((frame_side - side).abs() <= 1e-3 * side, "{id}: {frame:?}");
                assert_eq!(
                    d.shapes[..p.diagram.shapes.len()],
                    p.diagram.shapes[..],
                    "{id}"
                );
                assert_eq!(
                    d.points[..p.diagram.points.len()],
                    p.diagram.points[..],
                    "{id}"
                );
                for s in p.diagram.shapes.len()..n {
                    let shape = &d.shapes[s];
                    // Colour told apart from every other fill.
                    for (o, other) in d.shapes.iter().enumerate().filter(|(o, _)| *o != s) {
                        assert!(compatible(&shape.colour, &other.colour), "{id}: {s} vs {o}");
                    }
                    // Free-standing: no vertex shared with a shape before it (one
                    // built on its edge later touches it by design).
                    let touch = |o: usize| {
                        d.shapes[o]
                            .vertices
                            .iter()
                            .any(|v| shape.vertices.contains(v))
                    };
                    if (0..s).any(touch) {
                        continue; // built on an edge: the overlap test above covers it
                    }
                    let attached: Vec<usize> = (s + 1..n).filter(|&o| touch(o)).collect();
                    let apart = |o: usize| o != s && !attached.contains(&o);
                    free += 1;
                    let poly = polygon(q, s);
                    let edges: Vec<_> = (0..poly.len())
                        .map(|k| (poly[k], poly[(k + 1) % poly.len()]))
                        .collect();
                    let [lo, hi] = square;
                    for c in &poly {
                        let by = [c[0] - lo[0], hi[0] - c[0], c[1] - lo[1], hi[1] - c[1]];
                        let by = by.into_iter().fold(f64::MAX, f64::min);
                        assert!(
                            // (this square and compose's sample arcs apart)
                            by >= INSET * side - 1e-3 * side,
                            "{id}: shape {s} {by} in from the edge"
                        );
                    }
                    // Every other outline (arcs sampled), inner side and ray.
                    let mut others: Vec<([f64; 2], [f64; 2])> = Vec::new();
                    for o in (0..n).filter(|&o| apart(o)) {
                        for c in &d.shapes[o].outline {
                            let pl = contour(c);
                            others.extend((0..pl.len()).map(|k| (pl[k], pl[(k + 1) % pl.len()])));
                        }
                    }
                    let at = |i: usize| [d.points[i].x, d.points[i].y];
                    for side in d.sides.iter().filter(|x| x.kind != SideKind::Edge) {
                        others.push((at(side.points[0]), at(side.points[1])));
                    }
                    for r in &d.rays {
                        others.push((at(r.points[0]), at(r.points[1])));
                    }
                    let own = |i: usize| {
                        shape.vertices.contains(&i)
                            || attached.iter().any(|&o| d.shapes[o].vertices.contains(&i))
                    };
                    for i in (0..d.points.len()).filter(|&i| !own(i)) {
                        others.push((at(i), at(i)));
                        assert!(!inside(&poly, at(i)), "{id}: point {i} inside shape {s}");
                    }
                    let least = edges
                        .iter()
                        .flat_map(|&e| others.iter().map(move |&o| dist_seg_seg(e, o)))
                        .fold(f64::MAX, f64::min);
                    assert!(
                        least >= CLEAR * side - tol,
                        "{id}: shape {s} is {:.3} of the square from something drawn",
                        least / side
                    );
                    // Not in another shape's fill (a hole is free space).
                    let centre = poly
                        .iter()
                        .fold([0.0, 0.0], |a, c| [a[0] + c[0], a[1] + c[1]]);
                    let centre = [centre[0] / poly.len() as f64, centre[1] / poly.len() as f64];
                    for o in (0..n).filter(|&o| o != s) {
                        assert!(!filled(q, o, centre), "{id}: shape {s} in shape {o}");
                    }
                    // One given value: a whole number the base's texts lack, as
                    // long as the side it names is drawn.
                    let given: Vec<_> = d
                        .sides
                        .iter()
                        .filter(|x| x.shapes.first() == Some(&s) && x.status == Status::Given)
                        .collect();
                    assert_eq!(given.len(), 1, "{id}");
                    let g = given[0];
                    let [a, b] = g.points.map(at);
                    assert!((len(a, b) - g.value).abs() <= 0.005, "{id}");
                    assert_eq!(g.value.fract(), 0.0, "{id}");
                    let texts = format!("{} {}", p.question.coordinate, p.cot.coordinate);
                    let words: Vec<&str> = texts
                        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .map(|t| t.trim_end_matches('.'))
                        .collect();
                    assert!(
                        !words.contains(&fmt_num(g.value).as_str()),
                        "{id}: {} used",
                        g.value
                    );
                }
            }
        }
    }
    eprintln!("{free} free-standing shapes checked");
    assert!(free >= 400, "{free}");
}

fn len(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}
