//! A Problem at every limit of `generate::limits` (crate-private constants): it passes
//! the limits, one more of anything is refused, and it lays out in well under a
//! second. (Problems past a limit, through the binary: `tests/it/problem_limits.rs`.)

use geomrender::compose::compose;
use geomrender::generate::Annotation;
use geomrender::generate::limits::*;
use geomrender::generate::{GenerateOptions, Problem, Segment, generate_one};
use geomrender::style::Style;
use std::time::{Duration, Instant};

#[test]
fn the_integration_tests_quote_the_point_limit() {
    // tests/it/problem_limits.rs checks the message "more than the limit of 96".
    assert_eq!(MAX_POINTS, 96);
}

/// A Problem with every count at its limit, every name and label as long and wide as
/// allowed, every shape's outline at the segment and arc limits, points crowded into a
/// small area so that most labels find no free spot and every candidate is tried.
fn problem_at_limits() -> Problem {
    let opts = GenerateOptions {
        depth: 6..=6,
        branch_prob: 1.0,
        distractors: true,
        ..GenerateOptions::default()
    };
    let mut p = generate_one(&opts, 0).unwrap();
    let d = &mut p.diagram;
    // A cheap deterministic spread.
    let mut seed = 0x9e37_79b9_u64;
    let mut rnd = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let name = "W".repeat(MAX_POINT_NAME);
    let label = "W".repeat(MAX_LABEL);
    let proto = d.points[0].clone();
    d.points.resize(MAX_POINTS, proto);
    for q in d.points.iter_mut() {
        q.name = name.clone();
        q.x = rnd() * 50.0;
        q.y = rnd() * 50.0;
    }
    let n = d.points.len();
    let shape = d.shapes[0].clone();
    d.shapes.resize(MAX_SHAPES, shape);
    let per_shape = MAX_OUTLINE_SEGMENTS / MAX_SHAPES;
    let mut arcs = 0;
    for (i, s) in d.shapes.iter_mut().enumerate() {
        s.vertices = (0..MAX_VERTICES).map(|k| (i + k) % n).collect();
        // Every outline point on the circle of the arcs, so that each arc's radius is
        // its centre's distance to its ends (as limits require).
        let mut on_circle = || {
            let t = rnd() * std::f64::consts::TAU;
            [25.0 + 25.0 * t.cos(), 25.0 + 25.0 * t.sin()]
        };
        let start = on_circle();
        let segments = (0..per_shape)
            .map(|_| {
                let to = on_circle();
                if arcs < MAX_ARCS {
                    arcs += 1;
                    Segment::Arc {
                        to,
                        center: [25.0, 25.0],
                        radius: 25.0,
                        large_arc: true,
                        sweep: arcs % 2 == 0,
                    }
                } else {
                    Segment::Line { to }
                }
            })
            .collect();
        s.outline = vec![geomrender::generate::Contour { start, segments }];
    }
    let side = d.sides[0].clone();
    d.sides.resize(MAX_SIDES, side);
    for (i, s) in d.sides.iter_mut().enumerate() {
        s.points = [i % n, (i * 7 + 3) % n];
        s.kind = geomrender::generate::SideKind::Diagonal;
        s.label.coordinate = Some(label.clone());
        s.label.individual = Some(label.clone());
    }
    let angle = d.angles.first().cloned().unwrap_or_else(|| {
        serde_json::from_value(serde_json::json!({
            "points": [0, 1, 2], "value": 60.0, "status": "given", "shown": true,
            "name": {"coordinate": "ABC", "individual": "α"}, "label": {}
        }))
        .unwrap()
    });
    d.angles.resize(MAX_ANGLES, angle);
    for (i, a) in d.angles.iter_mut().enumerate() {
        a.points = [i % n, (i + 1) % n, (i + 2) % n];
        a.status = geomrender::generate::Status::Given;
        a.label.coordinate = Some(label.clone());
        a.label.individual = Some(label.clone());
    }
    let ray = geomrender::generate::Ray { points: [0, 1] };
    d.rays.resize(MAX_RAYS, ray);
    for (i, r) in d.rays.iter_mut().enumerate() {
        r.points = [i % n, (i * 3 + 1) % n];
    }
    d.right_angles = (0..MAX_RIGHT_ANGLES)
        .map(|i| [i % n, (i + 1) % n, (i + 2) % n])
        .collect();
    p
}

#[test]
fn a_problem_at_every_limit_lays_out_in_well_under_a_second() {
    let p = problem_at_limits();
    assert_eq!(p.check_limits(), Ok(()));
    // One more of anything is refused.
    let mut over = p.clone();
    over.diagram.points.push(over.diagram.points[0].clone());
    assert_eq!(over.check_limits().unwrap_err().path, "diagram.points");

    for a in Annotation::ALL {
        // The fastest of three, so that other tests running alongside on a small CI
        // machine do not count.
        let mut took = Duration::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let c = compose(&p, &Style::default(), a).unwrap_or_else(|e| panic!("{e}"));
            took = took.min(t.elapsed());
            assert!(c.layout.labels >= 160, "{}", c.layout.labels);
        }
        eprintln!("layout at the limits ({a:?}): {took:?}");
        // Well under a second even in the lightly optimised test profile (about 0.4 s;
        // a release build is faster).
        assert!(took < Duration::from_millis(900), "{a:?}: {took:?}");
    }
}
