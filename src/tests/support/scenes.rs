//! Scenes and problems shared by several test modules: a JSON scene literal, the
//! resvg-comparison corpus, the feature scenes, two reference scenes used as
//! batch and SVG material, and generated problems.

use geomrender::scene::synthetic::diagram_scene;
use geomrender::scene::{Color, FillRule, Item, PathItem, Scene, parse_scene};
use std::sync::OnceLock;

/// Builds a scene from a JSON object literal written over several lines.
pub(crate) fn scene(json: &str) -> Scene {
    parse_scene(&json.replace('\n', " ")).unwrap_or_else(|e| panic!("bad test scene: {e}"))
}

/// Ten overlapping squares, fill opacity 0.1 to 1.0, alternating colours.
pub(crate) fn fills_opacity() -> Scene {
    let mut items = Vec::new();
    let colours = ["#4d80e6", "#e64d4d", "#4db34d", "#e6b333", "#9966cc"];
    for i in 0..10 {
        let x = 10 + i * 28;
        items.push(format!(
            r#"{{"type":"path","d":"M {x} 20 h 60 v 60 h -60 Z","fill":"{}","fill_opacity":{}}}"#,
            colours[i % 5],
            (i + 1) as f32 / 10.0
        ));
    }
    scene(&format!(
        r##"{{"id":"fills_opacity","width":340,"height":100,"background":"#ffffff","items":[{}]}}"##,
        items.join(",")
    ))
}

/// Text at sizes 8 to 48, Latin, digits and Greek.
pub(crate) fn text_sizes() -> Scene {
    let mut items = Vec::new();
    let mut y = 10.0;
    for size in [8, 10, 12, 14, 16, 20, 24, 32, 48] {
        y += size as f32 * 1.25;
        items.push(format!(
            r##"{{"type":"text","text":"Ag 12.5 cm² αβγθ ABC?","x":8,"y":{y},"size":{size},"color":"#202020"}}"##
        ));
    }
    scene(&format!(
        r##"{{"id":"text_sizes","width":560,"height":260,"background":"#ffffff","items":[{}]}}"##,
        items.join(",")
    ))
}

/// 100 generated problems, each as its base image and one variant (the variants
/// cycle through the axes, so every axis appears), 60 synthetic diagram scenes
/// (dashed construction lines and mixed fills) and 40 more with an `evenodd`
/// composite (a square with a circular hole) under their shapes.
pub(crate) fn corpus() -> Vec<Scene> {
    static CORPUS: OnceLock<Vec<Scene>> = OnceLock::new();
    CORPUS
        .get_or_init(|| {
            let mut scenes = problem_scenes();
            scenes.extend((0..60).map(|i| diagram_scene(i, 512)));
            scenes.extend((0..40).map(composite_scene));
            scenes
        })
        .clone()
}

/// Variant of the i-th problem in the corpus.
const CORPUS_VARIANTS: &[&str] = &[
    "opacity=0.1",
    "linewidth=6",
    "fontsize=32",
    "annotation=individual",
    "palette=grayscale",
    "rotation=90",
    "relabel=1",
    "info=text",
    "fontsize=8",
    "palette=high-contrast",
    "opacity=1",
    "linewidth=0.5",
    "rotation=270",
];

fn problem_scenes() -> Vec<Scene> {
    use geomrender::generate::{GenerateOptions, generate_range};
    let opts = GenerateOptions {
        seed: 90,
        depth: 1..=3,
        branch_prob: 0.3,
        ..Default::default()
    };
    let mut scenes = Vec::new();
    for (i, p) in generate_range(&opts, 0, 100).into_iter().enumerate() {
        let line = serde_json::to_string(&p.expect("problem")).expect("json");
        let spec = CORPUS_VARIANTS[i % CORPUS_VARIANTS.len()];
        let plan = geomrender::variants::Plan::parse(spec, false).expect("spec");
        let jobs = geomrender::pipeline::expand_line(&line, &plan).expect("jobs");
        scenes.extend(jobs.into_iter().map(|j| j.scene));
    }
    scenes
}

fn composite_scene(i: u64) -> Scene {
    let mut s = diagram_scene(1000 + i, 512);
    s.id = format!("composite-{i:03}");
    let (x, y, side) = (
        60.0 + (i % 5) as f32 * 40.0,
        80.0 + (i % 7) as f32 * 30.0,
        220.0,
    );
    let r = side * 0.3;
    let (cx, cy) = (x + side / 2.0, y + side / 2.0);
    let d = format!(
        "M {x} {y} h {side} v {side} h -{side} Z M {} {cy} a {r} {r} 0 1 1 {} 0 a {r} {r} 0 1 1 -{} 0 Z",
        cx - r,
        2.0 * r,
        2.0 * r
    );
    s.items.insert(
        0,
        Item::Path(PathItem {
            fill: Some(Color::rgb(0x33, 0xb3, 0xb3)),
            fill_opacity: 0.75,
            fill_rule: FillRule::Evenodd,
            stroke: Some(Color::BLACK),
            stroke_width: 2.0,
            ..PathItem::new(d)
        }),
    );
    s
}

/// Small scenes aimed at the places where two rasterisers are most likely to
/// disagree: miter limits, caps on zero-length dashes, arcs with odd flags and
/// radii, dash offsets across subpaths, zero and sub-pixel widths, trailing spaces.
pub(crate) fn feature_scenes() -> Vec<Scene> {
    let s = |id: &str, w: u32, h: u32, items: &str| {
        scene(&format!(
            r##"{{"id":"{id}","width":{w},"height":{h},"background":"#ffffff","items":[{items}]}}"##
        ))
    };
    let miter: Vec<String> = [1.0, 2.0, 3.9, 4.1, 10.0]
        .iter()
        .enumerate()
        .flat_map(|(k, m)| {
            let x = 20 + k * 70;
            [20.0, 45.0].map(|angle: f32| {
                let dx = 25.0 * (angle.to_radians() / 2.0).tan();
                format!(
                    r##"{{"type":"path","d":"M {} 110 L {x} 40 L {} 110","stroke":"#000000","stroke_width":6,"miter_limit":{m}}}"##,
                    x as f32 - dx * 2.8,
                    x as f32 + dx * 2.8
                )
            })
        })
        .collect();
    let caps: Vec<String> = ["butt", "round", "square"]
        .iter()
        .enumerate()
        .flat_map(|(k, cap)| {
            let y = 20 + k * 25;
            [
                format!(r##"{{"type":"path","d":"M {} 15 l 50 60","stroke":"#203060","stroke_width":5,"dash":[0,10],"line_cap":"{cap}"}}"##, 20 + k * 65),
                format!(r##"{{"type":"path","d":"M 220 {y} h 60 v 10 h 60","stroke":"#203060","stroke_width":4,"dash":[8,5,0,5],"dash_offset":3,"line_cap":"{cap}"}}"##),
            ]
        })
        .collect();
    vec![
        s("feature-miter", 380, 130, &miter.join(",")),
        s("feature-zero-dash-caps", 360, 90, &caps.join(",")),
        s("feature-arcs", 400, 200, &[
            r##"{"type":"path","d":"M 20 100 A 60 30 0 0 0 140 100 A 60 30 0 1 0 20 100 Z","fill":"#4d80e6","fill_opacity":0.5,"stroke":"#000000","stroke_width":2}"##,
            r##"{"type":"path","d":"M 170 60 a 10 10 0 0 1 100 0","stroke":"#e64d4d","stroke_width":3}"##,
            r##"{"type":"path","d":"M 170 150 A 40 70 45 1 0 260 130","stroke":"#000000","stroke_width":1.5,"dash":[5,3],"dash_offset":-2}"##,
            r##"{"type":"path","d":"M 300 40 q 40 -30 80 0 t 0 60 c -20 40 -60 40 -80 0 s 0 -40 0 -60 Z","fill":"#4db34d","fill_opacity":0.6,"stroke":"#000000","stroke_width":2,"line_join":"round"}"##,
        ].join(",")),
        s("feature-widths", 300, 120, &[0.0f32, 0.25, 0.5, 0.75, 1.0, 1.5, 3.0].iter().enumerate().map(|(k, w)| format!(
            r##"{{"type":"path","d":"M {} 10 l 30 100","stroke":"#000000","stroke_width":{w}}}"##, 15 + k * 40
        )).collect::<Vec<_>>().join(",")),
        s("feature-text-edges", 300, 120, &[
            r##"{"type":"text","text":"ab  ","x":150,"y":30,"size":18,"anchor":"end"}"##,
            r##"{"type":"text","text":"  ab","x":150,"y":60,"size":18,"anchor":"start"}"##,
            r##"{"type":"text","text":"x = 3  y","x":150,"y":90,"size":18,"anchor":"middle","baseline":"central","color":"#2050a0","opacity":0.6}"##,
            r##"{"type":"path","d":"M 150 0 V 120","stroke":"#e64d4d","stroke_width":1}"##,
        ].join(",")),
        s("feature-overlaps", 200, 120, &[
            r##"{"type":"path","d":"M 10 10 L 190 110 M 10 110 L 190 10","stroke":"#000000","stroke_width":12,"stroke_opacity":0.4,"line_cap":"round"}"##,
            r##"{"type":"path","d":"M 60 20 h 80 v 80 h -80 Z M 80 40 h 40 v 40 h -40 Z","fill":"#e6b333","fill_opacity":0.7,"stroke":"#9966cc","stroke_width":6,"stroke_opacity":0.5,"line_join":"bevel"}"##,
        ].join(",")),
    ]
}

/// `n` generated problems (depths 1..=3, branch probability 0.3) for seed `seed`.
pub(crate) fn problems(n: u64, seed: u64) -> Vec<geomrender::generate::Problem> {
    let opts = geomrender::generate::GenerateOptions {
        seed,
        depth: 1..=3,
        branch_prob: 0.3,
        ..Default::default()
    };
    geomrender::generate::generate_range(&opts, 0, n)
        .into_iter()
        .map(|p| p.unwrap())
        .collect()
}
