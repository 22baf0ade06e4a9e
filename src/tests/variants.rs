//! Variants change exactly what their axis names: checked on pixels (opacity,
//! line width), on texts (annotation, relabel) and on label layout across the whole
//! font-size sweep. (The CLI's rows: `tests/it/variants.rs`.)

use crate::tests::support::frames::render_gpu;
use crate::tests::support::gpu::gpu_or_skip;
use crate::tests::support::images::pixel;
use crate::tests::support::scenes::problems;
use geomrender::compose::compose;
use geomrender::generate::Annotation;
use geomrender::generate::Problem;
use geomrender::pipeline::expand_line;
use geomrender::render::RenderedImage;
use geomrender::scene::{Color, Item, Scene};
use geomrender::variants::{Plan, Variant, draw_problem};

/// The scene of `problem` under the variant `spec` (one axis, one value).
fn variant_scene(problem: &Problem, spec: &str) -> Scene {
    let v = if spec.is_empty() {
        Variant::default()
    } else {
        Plan::parse(spec, false).unwrap().variants()[1].clone()
    };
    let d = draw_problem(problem, &v).unwrap();
    let mut s = compose(&d.problem, &d.style, d.annotation).unwrap().scene;
    s.id = v.id(&problem.id);
    s
}

/// A copy of `scene` keeping only the items `keep` accepts, painted opaque black.
fn mask_scene(scene: &Scene, keep: impl Fn(&Item) -> bool) -> Scene {
    let mut s = scene.clone();
    s.id = format!("{}-mask", scene.id);
    s.items.retain(|i| keep(i));
    for item in &mut s.items {
        match item {
            Item::Path(p) => {
                p.fill = p.fill.map(|_| Color::BLACK);
                p.fill_opacity = 1.0;
                p.stroke = None;
            }
            Item::Text(t) => {
                t.color = Color::BLACK;
                t.opacity = 1.0;
            }
        }
    }
    s
}

/// Pixels that are not pure white, grown by `grow` px.
fn ink(mask: &RenderedImage, grow: i32) -> Vec<bool> {
    let (w, h) = (mask.width as i32, mask.height as i32);
    let raw: Vec<bool> = mask
        .rgba
        .chunks_exact(4)
        .map(|p| p[..3] != [255, 255, 255])
        .collect();
    let mut out = vec![false; raw.len()];
    for y in 0..h {
        for x in 0..w {
            if raw[(y * w + x) as usize] {
                for dy in -grow..=grow {
                    for dx in -grow..=grow {
                        let (u, v) = (x + dx, y + dy);
                        if (0..w).contains(&u) && (0..h).contains(&v) {
                            out[(v * w + u) as usize] = true;
                        }
                    }
                }
            }
        }
    }
    out
}

fn changed(a: &RenderedImage, b: &RenderedImage) -> Vec<bool> {
    a.rgba
        .chunks_exact(4)
        .zip(b.rgba.chunks_exact(4))
        .map(|(p, q)| p != q)
        .collect()
}

#[test]
fn opacity_variants_differ_from_their_base_only_inside_filled_regions() {
    let Some(mut r) = gpu_or_skip() else { return };
    for p in problems(12, 71) {
        let base = variant_scene(&p, "");
        let fills = mask_scene(&base, |i| matches!(i, Item::Path(p) if p.fill.is_some()));
        let mut scenes = vec![base.clone(), fills];
        for spec in ["opacity=0.1", "opacity=1"] {
            scenes.push(variant_scene(&p, spec));
        }
        let img = render_gpu(&mut r, &scenes, 16);
        // Edge pixels of a fill are partly covered: allow one pixel around the mask.
        let inside = ink(&img[1], 1);
        for v in &img[2..] {
            let diff = changed(&img[0], v);
            assert!(
                diff.iter().any(|&d| d),
                "{}: the variant changed nothing",
                v.id
            );
            let outside = diff
                .iter()
                .zip(&inside)
                .filter(|(d, i)| **d && !**i)
                .count();
            assert_eq!(
                outside, 0,
                "{}: {outside} pixels changed outside the filled regions",
                v.id
            );
        }
    }
}

#[test]
fn linewidth_variants_leave_label_pixels_unchanged() {
    let Some(mut r) = gpu_or_skip() else { return };
    for p in problems(12, 72) {
        let base = variant_scene(&p, "");
        let labels = mask_scene(&base, |i| matches!(i, Item::Text(_)));
        let mut scenes = vec![base.clone(), labels];
        for spec in ["linewidth=0.5", "linewidth=6"] {
            let v = variant_scene(&p, spec);
            // The label items themselves are identical: same text, place and size.
            let texts = |s: &Scene| {
                s.items
                    .iter()
                    .filter(|i| matches!(i, Item::Text(_)))
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(texts(&v), texts(&base), "{}", v.id);
            scenes.push(v);
        }
        let img = render_gpu(&mut r, &scenes, 16);
        let glyphs = ink(&img[1], 0);
        assert!(glyphs.iter().any(|&g| g));
        for v in &img[2..] {
            let diff = changed(&img[0], v);
            assert!(
                diff.iter().any(|&d| d),
                "{}: the variant changed nothing",
                v.id
            );
            let hit = diff.iter().zip(&glyphs).filter(|(d, g)| **d && **g).count();
            assert_eq!(hit, 0, "{}: {hit} label pixels changed", v.id);
        }
    }
}

/// Upper-case tokens made only of the problem's vertex letters, e.g. "AB", "ABC".
fn vertex_names(text: &str, p: &Problem) -> Vec<String> {
    let letters: Vec<char> = p
        .diagram
        .points
        .iter()
        .filter_map(|pt| pt.name.chars().next())
        .collect();
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| {
            t.len() >= 2
                && t.chars()
                    .all(|c| c.is_ascii_uppercase() && letters.contains(&c))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn individual_annotation_switches_texts_and_labels_together() {
    let Some(mut r) = gpu_or_skip() else { return };
    let ps = problems(60, 73);
    let mut scenes = Vec::new();
    let mut greek_labels = Vec::new();
    for p in &ps {
        let line = serde_json::to_string(p).unwrap();
        let jobs = expand_line(&line, &Plan::parse("annotation", false).unwrap()).unwrap();
        let (base, ind) = (&jobs[0], &jobs[1]);
        let fields = ind.problem.as_ref().unwrap();
        assert_eq!(fields.annotation, Annotation::Individual);
        let (q, cot) = (fields.question.as_str(), fields.cot.as_str());
        assert!(
            vertex_names(q, p).is_empty() && vertex_names(cot, p).is_empty(),
            "{}: {q}\n{cot}",
            p.id
        );
        // The coordinate base does use vertex names (at least in its solution).
        let base_text = format!(
            "{} {}",
            base.problem.as_ref().unwrap().question,
            base.problem.as_ref().unwrap().cot
        );
        assert!(!vertex_names(&base_text, p).is_empty(), "{}", p.id);
        // Every Greek letter the texts use is drawn, and none of the vertex letters is.
        let drawn: Vec<(String, f32, f32)> = ind
            .scene
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some((t.text.clone(), t.x, t.y)),
                _ => None,
            })
            .collect();
        for g in "αβγδεζηθικλμνξρστυφχψω"
            .chars()
            .filter(|g| q.contains(*g) || cot.contains(*g))
        {
            let label = drawn
                .iter()
                .find(|d| d.0.contains(g))
                .unwrap_or_else(|| panic!("{}: {g} not drawn", p.id));
            greek_labels.push((scenes.len(), label.1, label.2));
        }
        assert!(
            !drawn
                .iter()
                .any(|d| p.diagram.points.iter().any(|pt| pt.name == d.0)),
            "{}",
            p.id
        );
        scenes.push(ind.scene.clone());
    }
    assert!(greek_labels.len() > 20, "too few Greek labels to be a test");
    // And the letters really are on the image: ink around each Greek label's anchor.
    let images = render_gpu(&mut r, &scenes, 16);
    for (i, x, y) in greek_labels {
        let img = &images[i];
        let dark = (-6..=6)
            .flat_map(|dy| (-6..=6).map(move |dx| (dx, dy)))
            .filter(|(dx, dy)| {
                let (u, v) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
                u < img.width && v < img.height && pixel(img, u, v)[0] < 96
            })
            .count();
        assert!(dark > 3, "{}: no glyph ink at ({x}, {y})", img.id);
    }
}

#[test]
fn relabel_keeps_the_answer_and_renames_consistently() {
    for p in problems(200, 74) {
        let line = serde_json::to_string(&p).unwrap();
        let jobs = expand_line(&line, &Plan::parse("relabel=1,2", false).unwrap()).unwrap();
        for (job, seed) in jobs[1..].iter().zip([1, 2]) {
            let v = Plan::parse(&format!("relabel={seed}"), false)
                .unwrap()
                .variants()[1]
                .clone();
            assert_eq!(job.scene.id, v.id(&p.id));
            let q = draw_problem(&p, &v).unwrap().problem;
            assert_eq!(job.problem.as_ref().unwrap().answer, p.answer);
            // old letter → new letter, from the diagram; a bijection with no fixed point.
            let map: std::collections::HashMap<String, String> = p
                .diagram
                .points
                .iter()
                .zip(&q.diagram.points)
                .map(|(a, b)| (a.name.clone(), b.name.clone()))
                .collect();
            assert!(map.iter().all(|(a, b)| a != b), "{}", p.id);
            let mut targets: Vec<&String> = map.values().collect();
            targets.sort();
            targets.dedup();
            assert_eq!(targets.len(), map.len());
            // Renaming the base texts letter by letter gives the variant's texts.
            let rename = |text: &str| -> String {
                let mut out = String::new();
                let mut token = String::new();
                let flush = |token: &mut String, out: &mut String| {
                    let names = vertex_names(token, &p);
                    if names.len() == 1 && names[0] == *token {
                        out.extend(token.chars().map(|c| map[&c.to_string()].clone()));
                    } else {
                        out.push_str(token);
                    }
                    token.clear();
                };
                for c in text.chars() {
                    if c.is_ascii_alphanumeric() {
                        token.push(c);
                    } else {
                        flush(&mut token, &mut out);
                        out.push(c);
                    }
                }
                flush(&mut token, &mut out);
                out
            };
            assert_eq!(
                job.problem.as_ref().unwrap().question,
                rename(p.question(Annotation::Coordinate)),
                "{}",
                job.scene.id
            );
            assert_eq!(
                job.problem.as_ref().unwrap().cot,
                rename(p.cot(Annotation::Coordinate)),
                "{}",
                job.scene.id
            );
            // The image's vertex labels are the renamed ones.
            let labels = |s: &Scene| -> Vec<String> {
                let mut v: Vec<String> = s
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Text(t) if map.contains_key(&t.text) => Some(t.text.clone()),
                        _ => None,
                    })
                    .collect();
                v.sort();
                v
            };
            let mut renamed: Vec<String> = labels(&jobs[0].scene)
                .iter()
                .map(|l| map[l].clone())
                .collect();
            renamed.sort();
            assert_eq!(labels(&job.scene), renamed, "{}", job.scene.id);
        }
    }
}

#[test]
fn fontsize_sweep_keeps_every_label_on_the_canvas_and_apart() {
    // Overlap is measured on label boxes recomputed here, independently of compose's
    // own measurement: width = the shaped advance (cosmic-text, as drawn), height =
    // font ascent − descent, centred on the anchor (middle / central). Two labels
    // overlap when their boxes intersect with positive area.
    let metrics = geomrender::font::metrics();
    let mut fonts = geomrender::render::font_system();
    let plan = Plan::parse("fontsize=8,12,16,24,32", false).unwrap();
    let mut checked = 0;
    for p in problems(1000, 75) {
        let line = serde_json::to_string(&p).unwrap();
        for job in expand_line(&line, &plan).unwrap() {
            let layout = &job.problem.as_ref().unwrap().layout;
            assert_eq!(
                (layout.overlaps, layout.off_canvas),
                (0, 0),
                "{}",
                job.scene.id
            );
            let canvas = job.scene.width as f32;
            let boxes: Vec<[f32; 4]> = job
                .scene
                .items
                .iter()
                .filter_map(|i| match i {
                    Item::Text(t) => {
                        let w = geomrender::render::shape(&mut fonts, t).advance;
                        let h = (metrics.ascent - metrics.descent) * t.size / metrics.units_per_em;
                        Some([t.x - w / 2.0, t.y - h / 2.0, t.x + w / 2.0, t.y + h / 2.0])
                    }
                    _ => None,
                })
                .collect();
            for (i, a) in boxes.iter().enumerate() {
                let tol = 0.01;
                assert!(
                    a[0] >= -tol && a[1] >= -tol && a[2] <= canvas + tol && a[3] <= canvas + tol,
                    "{}: {a:?} leaves the canvas",
                    job.scene.id
                );
                for b in &boxes[i + 1..] {
                    let overlap_w = a[2].min(b[2]) - a[0].max(b[0]);
                    let overlap_h = a[3].min(b[3]) - a[1].max(b[1]);
                    assert!(
                        overlap_w <= tol || overlap_h <= tol,
                        "{}: labels overlap {a:?} {b:?}",
                        job.scene.id
                    );
                }
            }
            checked += 1;
        }
    }
    // 1000 problems × (base + four sizes; 16 is the base size, not drawn again).
    assert_eq!(checked, 5000);
}
