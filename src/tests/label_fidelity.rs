//! Issue 16: style variants change exactly one thing, and labels sit with what they
//! label — checked from the Problem's own geometry and the composed Scene's items,
//! not from the layout code's bookkeeping.
//!
//! - Every style axis value (opacity, linewidth, fontsize, palette, annotation, info,
//!   relabel, jpeg) leaves every path of the Scene but leader lines byte-identical to
//!   the base's; resolution and rotation give the base's path coordinates transformed
//!   (scaled about the origin, or rotated about the canvas centre), within the
//!   rounding of path data to 2 decimals on both sides: 0.005 · (1 + k) px for scale k;
//!   `scale` gives every shape's outline scaled about the canvas centre, and keeps
//!   the path count (marks keep their px size, so only the shapes are compared).
//! - Over font sizes 8–32, scales 0.5 and 0.7, both annotations, GeomVerse problems
//!   and relation items: no angle value sits outside its own angle's wedge and inside
//!   another angle's wedge at that vertex; labels nearer another element a reader
//!   could take them for than 1 / 1.5 of their distance to their own are rare (a
//!   bound per condition; the figures are printed).

use crate::tests::support::scenes::problems;
use geomrender::compose::{DOT_COLOR, LEADER_COLOR, compose};
use geomrender::generate::{Annotation, Problem};
use geomrender::scene::{Item, Scene};
use geomrender::variants::{Plan, Variant, draw_problem};
use rayon::prelude::*;

/// Problems per corpus test (the issue asks for ≥ 2,000).
const CORPUS: u64 = 2_000;

fn compose_variant(p: &Problem, v: &Variant) -> Scene {
    try_compose_variant(p, v).unwrap_or_else(|| panic!("{} refused", v.id(&p.id)))
}

/// `None` for the one refusal a variant may make: `palette=grayscale` on a diagram
/// with more shapes than the grey ladder names apart.
fn try_compose_variant(p: &Problem, v: &Variant) -> Option<Scene> {
    match draw_problem(p, v) {
        Ok(d) => Some(compose(&d.problem, &d.style, d.annotation).unwrap().scene),
        Err(geomrender::variants::VariantError::TooManyGrays { .. }) => None,
        Err(e) => panic!("{}: {e}", v.id(&p.id)),
    }
}

/// The path data of every path but leader lines, in order.
fn geometry(scene: &Scene) -> Vec<&str> {
    scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Path(p) if p.stroke != Some(LEADER_COLOR) => Some(p.d.as_str()),
            _ => None,
        })
        .collect()
}

/// Path data as tokens: command letters and numbers.
fn tokens(d: &str) -> Vec<Result<f64, char>> {
    d.split_whitespace()
        .map(|t| t.parse::<f64>().map_err(|_| t.chars().next().unwrap()))
        .collect()
}

/// Whether `got` is `base` with every point mapped by `map` and every arc radius
/// scaled by `k`, within `tol` px.
fn transformed(
    base: &str,
    got: &str,
    k: f64,
    map: &dyn Fn([f64; 2]) -> [f64; 2],
    tol: f64,
) -> bool {
    let (b, g) = (tokens(base), tokens(got));
    if b.len() != g.len() {
        return false;
    }
    let mut i = 0;
    let mut cmd = 'M';
    while i < b.len() {
        if let Err(c) = b[i] {
            if g[i] != Err(c) {
                return false;
            }
            cmd = c;
            i += 1;
            continue;
        }
        let num = |t: &Result<f64, char>| *t.as_ref().unwrap();
        let pair = |at: usize| [num(&b[at]), num(&b[at + 1])];
        let close = |p: [f64; 2], at: usize| {
            (num(&g[at]) - p[0]).abs() <= tol && (num(&g[at + 1]) - p[1]).abs() <= tol
        };
        match cmd {
            'M' | 'L' => {
                if !close(map(pair(i)), i) {
                    return false;
                }
                i += 2;
            }
            'A' => {
                let radii = [num(&b[i]) * k, num(&b[i + 1]) * k];
                let flags_equal = (2..5).all(|j| b[i + j] == g[i + j]);
                if !(close(radii, i) && flags_equal && close(map(pair(i + 5)), i + 5)) {
                    return false;
                }
                i += 7;
            }
            other => panic!("unexpected path command {other} in {base}"),
        }
    }
    true
}

#[test]
fn style_axes_never_move_the_geometry() {
    let corpus = problems(CORPUS, 16);
    let style = Plan::parse(
        "opacity;linewidth;fontsize=8,12,16,24,32;palette;annotation;info;relabel;jpeg",
        false,
    )
    .unwrap()
    .variants();
    let transforms = Plan::parse("resolution;rotation", false)
        .unwrap()
        .variants();
    let failures: Vec<String> = corpus
        .par_iter()
        .flat_map_iter(|p| {
            let base_scene = compose_variant(p, &style[0]);
            let base = geometry(&base_scene);
            let c = f64::from(base_scene.width) / 2.0;
            let mut bad = Vec::new();
            for v in &style[1..] {
                let Some(scene) = try_compose_variant(p, v) else {
                    continue;
                };
                if geometry(&scene) != base {
                    bad.push(v.id(&p.id));
                }
            }
            for v in &transforms[1..] {
                let scene = compose_variant(p, v);
                let k = f64::from(scene.width) / f64::from(base_scene.width);
                let turns = match v.json().get("rotation").and_then(|r| r.as_f64()) {
                    Some(deg) => (deg / 90.0).round() as i32,
                    None => 0,
                };
                // Clockwise on a y-down canvas, about the centre.
                let map = |q: [f64; 2]| {
                    let (mut x, mut y) = (q[0] - c, q[1] - c);
                    for _ in 0..turns.rem_euclid(4) {
                        (x, y) = (-y, x);
                    }
                    [(x + c) * k, (y + c) * k]
                };
                let tol = 0.005 * (1.0 + k) + 1e-9;
                let got = geometry(&scene);
                let ok = got.len() == base.len()
                    && base
                        .iter()
                        .zip(&got)
                        .all(|(b, g)| transformed(b, g, k, &map, tol));
                if !ok {
                    bad.push(v.id(&p.id));
                }
            }
            bad
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} variants moved the geometry, e.g. {:?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn scale_shrinks_every_shape_exactly_about_the_centre() {
    let corpus = problems(500, 17);
    let scaled = Plan::parse("scale", false).unwrap().variants();
    let shapes = |scene: &Scene| -> Vec<String> {
        scene
            .items
            .iter()
            .filter_map(|i| match i {
                // The shapes: the fills but the point dots (which keep their size).
                Item::Path(p) if p.fill.is_some() && p.fill != Some(DOT_COLOR) => Some(p.d.clone()),
                _ => None,
            })
            .collect()
    };
    let failures: Vec<String> = corpus
        .par_iter()
        .flat_map_iter(|p| {
            let base_scene = compose_variant(p, &scaled[0]);
            let base = shapes(&base_scene);
            let c = f64::from(base_scene.width) / 2.0;
            let mut bad = Vec::new();
            for v in &scaled[1..] {
                let k = v.json()["scale"].as_f64().unwrap();
                let scene = compose_variant(p, v);
                let map = |q: [f64; 2]| [c + (q[0] - c) * k, c + (q[1] - c) * k];
                let got = shapes(&scene);
                // Rounding to 2 decimals on both sides, and f32 px.
                let tol = 0.005 * (1.0 + k) + 1e-3;
                let ok = got.len() == base.len()
                    && geometry(&scene).len() == geometry(&base_scene).len()
                    && base
                        .iter()
                        .zip(&got)
                        .all(|(b, g)| transformed(b, g, k, &map, tol));
                if !ok || (scene.width, scene.height) != (base_scene.width, base_scene.height) {
                    bad.push(v.id(&p.id));
                }
            }
            bad
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} scale variants are not the base scaled about the centre, e.g. {:?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

type P = [f64; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn dist(a: P, b: P) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn seg_dist(p: P, a: P, b: P) -> f64 {
    let d = sub(b, a);
    let l2 = d[0] * d[0] + d[1] * d[1];
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    dist(p, [a[0] + d[0] * t, a[1] + d[1] * t])
}

/// Whether `c` lies strictly inside the wedge at `v` between the rays to `a` and `b`
/// (an angle below 180°).
fn in_wedge(c: P, v: P, a: P, b: P) -> bool {
    let (ua, ub, w) = (sub(a, v), sub(b, v), sub(c, v));
    let s = cross(ua, ub).signum();
    cross(ua, w) * s > 0.0 && cross(w, ub) * s > 0.0
}

/// What one composed diagram's labels did.
#[derive(Default)]
struct Attachment {
    /// Angle values outside their own wedge and inside another's at that vertex.
    wrong_wedge: Vec<String>,
    /// (ratio, what) of every side value and vertex letter.
    ratios: Vec<(f64, String)>,
}

/// Checks the labels of `scene` against the geometry of `p` (rotation 0): the px
/// position of each point comes from the fit the Scene shows (the first fill path
/// starts at the first shape's outline start; its scale from the second point).
fn attachment(p: &Problem, a: Annotation, scene: &Scene) -> Attachment {
    let d = &p.diagram;
    // The fit, read off the first fill path: "M x0 y0 L x1 y1 …".
    let first = scene
        .items
        .iter()
        .find_map(|i| match i {
            Item::Path(path) if path.fill.is_some() => Some(path.d.as_str()),
            _ => None,
        })
        .unwrap();
    let t = tokens(first);
    let (px0, px1) = (
        [*t[1].as_ref().unwrap(), *t[2].as_ref().unwrap()],
        [*t[4].as_ref().unwrap(), *t[5].as_ref().unwrap()],
    );
    let outline = &d.shapes[0].outline[0];
    let u0 = outline.start;
    let u1 = match outline.segments[0] {
        geomrender::generate::Segment::Line { to }
        | geomrender::generate::Segment::Arc { to, .. } => to,
    };
    let k = dist(px0, px1) / dist(u0, u1);
    let at = |q: P| [px0[0] + (q[0] - u0[0]) * k, px0[1] + (q[1] - u0[1]) * k];
    let pt = |i: usize| at([d.points[i].x, d.points[i].y]);
    let mut out = Attachment::default();
    for item in &scene.items {
        let Item::Text(text) = item else { continue };
        let c = [f64::from(text.x), f64::from(text.y)];
        let s = text.text.as_str();
        let angles: Vec<_> = d
            .angles
            .iter()
            .filter(|g| g.label.get(a) == Some(s))
            .collect();
        let sides: Vec<_> = d
            .sides
            .iter()
            .filter(|g| g.label.get(a) == Some(s))
            .collect();
        let letter = (a == Annotation::Coordinate)
            .then(|| d.points.iter().position(|q| q.name == s))
            .flatten();
        if !angles.is_empty() {
            let own = angles
                .iter()
                .any(|g| in_wedge(c, pt(g.points[1]), pt(g.points[0]), pt(g.points[2])));
            let other = d.angles.iter().any(|g| {
                g.label.get(a) != Some(s)
                    && angles.iter().any(|o| o.points[1] == g.points[1])
                    && in_wedge(c, pt(g.points[1]), pt(g.points[0]), pt(g.points[2]))
            });
            if !own && other {
                out.wrong_wedge.push(format!("{} {s:?}", scene.id));
            }
        } else if !sides.is_empty() {
            let own = sides
                .iter()
                .map(|g| seg_dist(c, pt(g.points[0]), pt(g.points[1])))
                .fold(f64::INFINITY, f64::min);
            let other = (d
                .sides
                .iter()
                .filter(|g| g.label.get(a) != Some(s))
                .map(|g| g.points))
            .chain(d.rays.iter().map(|r| r.points))
            .map(|q| seg_dist(c, pt(q[0]), pt(q[1])))
            .fold(f64::INFINITY, f64::min);
            out.ratios
                .push((other / own.max(1e-3), format!("{} side {s:?}", scene.id)));
        } else if let Some(i) = letter {
            let own = dist(c, pt(i));
            let other = (0..d.points.len())
                .filter(|&j| j != i)
                .map(|j| dist(c, pt(j)))
                .fold(f64::INFINITY, f64::min);
            out.ratios
                .push((other / own.max(1e-3), format!("{} letter {s:?}", scene.id)));
        } else {
            panic!("{}: text {s:?} labels nothing of the problem", scene.id);
        }
    }
    out
}

/// The share of labels of one condition (per mille) allowed below the attachment
/// ratio 1.5, over the corpus below. Measured here: base 6.9 ‰, font size 8 2.2,
/// 12 4.2, 24 14.0, 32 26.9, scale 0.7 16.7, scale 0.5 44.8 (main before issue 44,
/// measured the same way: see the README); each allowed about a sixth more.
const WEAK_PER_MILLE: [(&str, f64); 5] = [
    ("fontsize=24", 16.0),
    ("fontsize=32", 31.0),
    ("scale=0.7", 19.5),
    ("scale=0.5", 52.0),
    ("", 8.0),
];

/// Issues 16 and 44: labels sit with what they label, over font sizes 8–32, scales
/// 0.5 and 0.7 and both annotations, on GeomVerse problems and relation items
/// (text and visual), measured from the Problem's points and the Scene's items:
/// - no angle value stands outside its own wedge and inside another angle's at its
///   vertex;
/// - a label nearer another element a reader could take it for than 1 / 1.5 of
///   its distance to its own (another point for a letter or an angle value,
///   another side or ray for a side value) is rare: at most [`WEAK_PER_MILLE`] of
///   a condition's labels (most of them joined to their element by a leader
///   line). The figures are printed.
#[test]
fn labels_stay_with_their_elements_at_every_font_size_and_scale() {
    use geomrender::generate::relations::{Mode, RelationOptions, generate_relations};
    let mut corpus: Vec<(Problem, bool)> = problems(CORPUS, 16)
        .into_iter()
        .map(|p| (p, true))
        .collect();
    for mode in [Mode::Text, Mode::Visual] {
        let opts = RelationOptions {
            seed: 44,
            mode,
            ..Default::default()
        };
        corpus.extend(
            generate_relations(&opts, 0, 250)
                .into_iter()
                .map(|p| (p.unwrap(), false)),
        );
    }
    let plan = Plan::parse("fontsize=8,12,24,32;scale=0.5,0.7", false)
        .unwrap()
        .variants();
    let results: Vec<(String, Attachment, Vec<Held>)> = corpus
        .par_iter()
        .flat_map_iter(|(p, both)| {
            let mut out = Vec::new();
            let annotations: &[Annotation] = if *both {
                &[Annotation::Coordinate, Annotation::Individual]
            } else {
                &[Annotation::Coordinate]
            };
            for v in &plan {
                let d = draw_problem(p, v).unwrap();
                for &a in annotations {
                    let scene = compose(&d.problem, &d.style, a).unwrap().scene;
                    let wedges = if *both {
                        attachment(&d.problem, a, &scene)
                    } else {
                        Attachment::default()
                    };
                    out.push((v.label(), wedges, held(&d.problem, a, &scene)));
                }
            }
            out
        })
        .collect();
    let wrong: Vec<&String> = results.iter().flat_map(|r| &r.1.wrong_wedge).collect();
    assert!(
        wrong.is_empty(),
        "angle values in another angle's wedge: {wrong:?}"
    );
    let mut by: std::collections::BTreeMap<&str, (usize, usize, usize, usize)> = Default::default();
    for (label, _, held) in &results {
        let e = by.entry(label.as_str()).or_default();
        for h in held {
            e.0 += 1;
            e.1 += usize::from(h.ratio < 1.5);
            e.2 += usize::from(h.ratio < 1.5 && h.leader);
            e.3 += usize::from(h.ratio < 1.0);
        }
    }
    let mut failures = Vec::new();
    for (label, (n, weak, led, below_one)) in &by {
        let per_mille = 1000.0 * *weak as f64 / *n as f64;
        eprintln!(
            "{label}: {n} labels, {weak} below ratio 1.5 ({per_mille:.1} ‰; {led} with a leader), {below_one} below 1"
        );
        let allowed = WEAK_PER_MILLE
            .iter()
            .find(|(l, _)| l.is_empty() || l == label)
            .map_or(0.0, |w| w.1);
        if per_mille > allowed {
            let mut worst: Vec<&Held> = (results.iter().filter(|r| r.0 == *label))
                .flat_map(|r| &r.2)
                .filter(|h| h.ratio < 1.5)
                .collect();
            worst.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
            let shown: Vec<String> = (worst.iter().take(5))
                .map(|h| format!("{:.2} {}", h.ratio, h.what))
                .collect();
            failures.push(format!(
                "{label}: {weak} of {n} below 1.5, {led} with a leader; e.g. {shown:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// Every point of `p` in px as `scene` draws it (rotation 0): the fit is read off
/// the drawing — the first fill path is the first shape's outline; a diagram of
/// lines only draws its first non-edge side or ray first in its stroke path.
fn points_px(p: &Problem, scene: &Scene) -> Vec<P> {
    let d = &p.diagram;
    let first_path = |want_fill: bool| {
        scene.items.iter().find_map(|i| match i {
            Item::Path(path)
                if path.fill.is_some() == want_fill && path.stroke != Some(LEADER_COLOR) =>
            {
                Some(path.d.as_str())
            }
            _ => None,
        })
    };
    let (u0, u1, d_str) = if let Some(shape) = d.shapes.first() {
        let outline = &shape.outline[0];
        let u1 = match outline.segments[0] {
            geomrender::generate::Segment::Line { to }
            | geomrender::generate::Segment::Arc { to, .. } => to,
        };
        (outline.start, u1, first_path(true).unwrap())
    } else {
        let seg = (d
            .sides
            .iter()
            .filter(|s| s.kind != geomrender::generate::SideKind::Edge))
        .map(|s| s.points)
        .chain(d.rays.iter().map(|r| r.points))
        .next()
        .expect("a diagram draws something");
        let q = |i: usize| [d.points[i].x, d.points[i].y];
        (q(seg[0]), q(seg[1]), first_path(false).unwrap())
    };
    // "M x0 y0 L x1 y1 …" or "M x0 y0 A rx ry rotation large sweep x1 y1 …".
    let t = tokens(d_str);
    let n = |k: usize| *t[k].as_ref().unwrap();
    let end = if t[3] == Err('A') { 9 } else { 4 };
    let (px0, px1) = ([n(1), n(2)], [n(end), n(end + 1)]);
    let k = dist(px0, px1) / dist(u0, u1);
    let at = |q: P| [px0[0] + (q[0] - u0[0]) * k, px0[1] + (q[1] - u0[1]) * k];
    d.points.iter().map(|q| at([q.x, q.y])).collect()
}

/// One label's attachment: the distance from its centre to the nearest point (or,
/// for a side value, segment) that is not its own over the distance to its own.
struct Held {
    ratio: f64,
    leader: bool,
    what: String,
}

/// Every label of `scene` with its attachment, measured from the Problem's points.
fn held(p: &Problem, a: Annotation, scene: &Scene) -> Vec<Held> {
    let d = &p.diagram;
    let pts = points_px(p, scene);
    let leaders: Vec<[P; 2]> = (scene.items.iter())
        .filter_map(|i| match i {
            Item::Path(path) if path.stroke == Some(LEADER_COLOR) => {
                let t = tokens(&path.d);
                let n = |k: usize| *t[k].as_ref().unwrap();
                Some([[n(1), n(2)], [n(4), n(5)]])
            }
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for item in &scene.items {
        let Item::Text(text) = item else { continue };
        let c = [f64::from(text.x), f64::from(text.y)];
        let s = text.text.as_str();
        let size = f64::from(text.size);
        let leader = leaders.iter().any(|l| dist(l[1], c) < 2.5 * size);
        let nearest_other = |own: &[usize]| {
            (0..pts.len())
                .filter(|j| !own.contains(j))
                .map(|j| dist(c, pts[j]))
                .fold(f64::INFINITY, f64::min)
        };
        let what = |kind: &str| format!("{} {kind} {s:?} at {:.0},{:.0}", scene.id, c[0], c[1]);
        // A text may label several elements (two sides of one value): its own is
        // the nearest of them.
        let angles: Vec<_> = d
            .angles
            .iter()
            .filter(|g| g.label.get(a) == Some(s))
            .collect();
        let sides: Vec<_> = d
            .sides
            .iter()
            .filter(|g| g.label.get(a) == Some(s))
            .collect();
        if !angles.is_empty() {
            let vertices: Vec<usize> = (0..pts.len())
                .filter(|&j| angles.iter().any(|g| dist(pts[j], pts[g.points[1]]) < 1e-6))
                .collect();
            let own = (vertices.iter().map(|&v| dist(c, pts[v]))).fold(f64::INFINITY, f64::min);
            out.push(Held {
                ratio: nearest_other(&vertices) / own.max(1e-3),
                leader,
                what: what("angle"),
            });
        } else if !sides.is_empty() {
            let own = (sides.iter())
                .map(|g| seg_dist(c, pts[g.points[0]], pts[g.points[1]]))
                .fold(f64::INFINITY, f64::min);
            let other = (d
                .sides
                .iter()
                .filter(|o| o.label.get(a) != Some(s))
                .map(|o| o.points))
            .chain(d.rays.iter().map(|r| r.points))
            .map(|q| seg_dist(c, pts[q[0]], pts[q[1]]))
            .fold(f64::INFINITY, f64::min);
            out.push(Held {
                ratio: other / own.max(1e-3),
                leader,
                what: what("side"),
            });
        } else if let Some(i) = (a == Annotation::Coordinate)
            .then(|| d.points.iter().position(|q| q.name == s))
            .flatten()
        {
            out.push(Held {
                ratio: nearest_other(&[i]) / dist(c, pts[i]).max(1e-3),
                leader,
                what: what("letter"),
            });
        } else {
            panic!("{}: text {s:?} labels nothing of the problem", scene.id);
        }
    }
    out
}

/// Whether `c` lies inside the polygon `poly` (even-odd).
fn inside_polygon(poly: &[P], c: P) -> bool {
    let mut inside = false;
    for (i, a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        if (a[1] > c[1]) != (b[1] > c[1]) {
            let x = a[0] + (c[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if c[0] < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// `modality=vision-dominant` draws a shape's given area, perimeter, arc length or
/// height inside it ("Area = 50"): every such label's centre lies inside its own
/// shape's outline, or, where the shape has no room, outside every shape with a
/// leader from inside its own — measured from the Problem's points mapped onto the Scene, a
/// polygon through the shape's vertices for the straight-sided kinds (round ones,
/// whose outline is arcs, are counted apart) — and in no other shape's.
#[test]
fn drawn_measures_sit_inside_their_own_shape() {
    let plan = Plan::parse("modality=vision-dominant", false).unwrap();
    let variant = plan.variants().pop().unwrap();
    let (checked, round, outside) = problems(CORPUS / 4, 47)
        .par_iter()
        .map(|p| {
            let (mut checked, mut round, mut outside) = (0usize, 0usize, 0usize);
            let drawing = draw_problem(p, &variant).unwrap();
            let q = &drawing.problem;
            let scene = compose(q, &drawing.style, drawing.annotation)
                .unwrap()
                .scene;
            let pts = points_px(q, &scene);
            let leaders: Vec<[P; 2]> = (scene.items.iter())
                .filter_map(|i| match i {
                    Item::Path(path) if path.stroke == Some(LEADER_COLOR) => {
                        let t = tokens(&path.d);
                        let n = |k: usize| *t[k].as_ref().unwrap();
                        Some([[n(1), n(2)], [n(4), n(5)]])
                    }
                    _ => None,
                })
                .collect();
            let polygon = |s: usize| -> Vec<P> {
                q.diagram.shapes[s]
                    .vertices
                    .iter()
                    .map(|&v| pts[v])
                    .collect()
            };
            for m in q.diagram.measures.iter() {
                let Some(text) = m.label.get(drawing.annotation) else {
                    continue;
                };
                let shape = &q.diagram.shapes[m.shape];
                if shape
                    .outline
                    .iter()
                    .flat_map(|c| &c.segments)
                    .any(|s| matches!(s, geomrender::generate::Segment::Arc { .. }))
                    || shape.outline.len() > 1
                {
                    round += 1;
                    continue;
                }
                // Labels of equal text (two perimeters of 47) are told apart by place.
                let items: Vec<&geomrender::scene::TextItem> = (scene.items.iter())
                    .filter_map(|i| match i {
                        Item::Text(t) if t.text == text => Some(t),
                        _ => None,
                    })
                    .collect();
                assert!(!items.is_empty(), "{}: {text} not drawn", q.id);
                let centre = |t: &geomrender::scene::TextItem| [f64::from(t.x), f64::from(t.y)];
                let own = polygon(m.shape);
                // Where its shape has no room: outside, its leader from inside its
                // own shape to beside the label.
                let led = |t: &geomrender::scene::TextItem| {
                    let c = centre(t);
                    leaders.iter().any(|l| {
                        let near = |e: P| dist(e, c) < 12.0 * f64::from(t.size);
                        (inside_polygon(&own, l[0]) && near(l[1]))
                            || (inside_polygon(&own, l[1]) && near(l[0]))
                    })
                };
                let item = match items.iter().find(|t| inside_polygon(&own, centre(t))) {
                    Some(t) => t,
                    None => {
                        outside += 1;
                        (items.iter().find(|t| led(t))).unwrap_or_else(|| {
                            panic!("{}: {text} outside its shape without a leader", q.id)
                        })
                    }
                };
                assert_eq!(
                    (item.anchor, item.baseline),
                    (
                        geomrender::scene::Anchor::Middle,
                        geomrender::scene::Baseline::Central
                    )
                );
                let c = centre(item);
                for s in (0..q.diagram.shapes.len()).filter(|&s| s != m.shape) {
                    let other = &q.diagram.shapes[s];
                    let straight = other.outline.len() == 1
                        && (other.outline[0].segments.iter())
                            .all(|g| matches!(g, geomrender::generate::Segment::Line { .. }));
                    if straight {
                        assert!(!inside_polygon(&polygon(s), c), "{}: {text} in {s}", q.id);
                    }
                }
                checked += 1;
            }
            (checked, round, outside)
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    eprintln!(
        "measure labels: {checked} checked, {outside} of them outside with a leader; \
         {round} on round shapes"
    );
    assert!(checked > 100, "{checked}");
    // A narrow shape (a thin parallelogram, a small triangle at depth 3) has no
    // room for a 100 px "Perimeter = 59" clear of its strokes: a third go outside
    // with a leader (124 of 367 when written); more would mean the places inside
    // were missed.
    assert!(outside * 5 < checked * 2, "{outside} of {checked}");
}
