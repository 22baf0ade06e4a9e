//! The README's picture of the modality ladder: one problem on every rung and the
//! blank control, each image as a run draws it (`docs/modality/<value>.png`,
//! written with `GEOMRENDER_UPDATE_EXAMPLES=1`; `text-only` has none) and each
//! question as the README quotes it.

use geomrender::generate::{GenerateOptions, generate_one};
use geomrender::variants::Plan;

#[test]
fn the_readme_shows_each_rung_of_one_problem() {
    let readme = std::fs::read_to_string(super::support::repo().join("README.md")).unwrap();
    let problem = generate_one(
        &GenerateOptions {
            seed: 47,
            ..GenerateOptions::default()
        },
        2,
    )
    .unwrap();
    let line = serde_json::to_string(&problem).unwrap();
    // Every value of the axis, from its table.
    let axis = geomrender::variants::AXES
        .iter()
        .find(|a| a.name == "modality");
    let values = axis.unwrap().sweep;
    assert_eq!(values.len(), 7, "{values:?}");
    let plan = Plan::parse(&format!("modality={}", values.join(",")), false).unwrap();
    let jobs = geomrender::pipeline::expand_line(&line, &plan).unwrap();
    assert_eq!(jobs.len(), 1 + values.len());
    let renderer = geomrender::render::CpuRenderer::raster();
    for (job, value) in jobs[1..].iter().zip(values.iter()) {
        assert!(job.scene.id.ends_with(&format!("__modality-{value}")));
        let question = &job.problem.as_ref().unwrap().question;
        assert!(
            readme.contains(&format!("| `{value}` | {question} |")),
            "README.md has no row | `{value}` | {question} |"
        );
        if *value == "text-only" {
            assert_eq!(job.encoding, None, "text-only has no image");
            assert!(readme.contains(&format!("| `{value}` | {question} | no image |")));
            continue;
        }
        let image = renderer.render(&job.scene).unwrap();
        let png = geomrender::output::encode(geomrender::style::Encoding::Png, &image).unwrap();
        let path = super::support::repo().join(format!("docs/modality/{value}.png"));
        if std::env::var_os("GEOMRENDER_UPDATE_EXAMPLES").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &png).unwrap();
        }
        assert!(
            std::fs::read(&path).is_ok_and(|b| b == png),
            "{} is not {value}'s image (GEOMRENDER_UPDATE_EXAMPLES=1 writes it)",
            path.display()
        );
    }
}

/// `vision-only` on 60 problems: made for every one; its image is
/// `vision-dominant`'s item for item, then the caption band's lines below the
/// diagram, which read (in the SVG as written, parsed back) exactly the question
/// `vision-dominant` asks, while its own text is only the instruction.
#[test]
fn vision_only_draws_vision_dominant_and_its_whole_question_below() {
    use geomrender::scene::Item;
    let opts = GenerateOptions {
        seed: 11,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let plan = Plan::parse("modality=vision-dominant,vision-only", false).unwrap();
    let mut made = 0;
    for p in geomrender::generate::generate_range(&opts, 0, 60) {
        let line = serde_json::to_string(&p.unwrap()).unwrap();
        let jobs = geomrender::pipeline::expand_line(&line, &plan).unwrap();
        let [_, vd, vo] = jobs.as_slice() else {
            panic!("{} jobs for {line}", jobs.len())
        };
        made += 1;
        let (vd_fields, vo_fields) = (vd.problem.as_ref().unwrap(), vo.problem.as_ref().unwrap());
        assert_eq!(
            vo_fields.question,
            "According to the question shown in the image, please directly answer the question."
        );
        let caption = vo_fields.caption.as_deref().unwrap();
        assert_eq!(caption, vd_fields.question);
        assert_eq!(
            (&vo_fields.cot, vo_fields.answer),
            (&vd_fields.cot, vd_fields.answer)
        );
        // The diagram is drawn as vision-dominant draws it; the band adds only text.
        let (a, b) = (&vd.scene, &vo.scene);
        assert_eq!(a.width, b.width);
        assert!(b.height > a.height, "{}", b.id);
        assert_eq!(&b.items[..a.items.len()], &a.items[..], "{}", b.id);
        let lines: Vec<&str> = b.items[a.items.len()..]
            .iter()
            .map(|i| match i {
                Item::Text(t) if t.y > a.height as f32 && t.y < b.height as f32 => t.text.as_str(),
                other => panic!("{}: {other:?} in the band", b.id),
            })
            .collect();
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&lines.join(" ")), words(caption), "{}", b.id);
        // As the SVG file has it.
        let svg = geomrender::scene::svg::to_svg(b);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let drawn: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .flat_map(words)
            .collect();
        let want = words(caption);
        assert!(
            drawn.windows(want.len()).any(|w| w == want.as_slice()),
            "{}: the SVG's text does not read {caption:?}",
            b.id
        );
    }
    assert_eq!(made, 60);
}
