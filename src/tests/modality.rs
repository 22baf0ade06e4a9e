//! The README's picture of the modality ladder: one problem on every rung and the
//! blank control, each image as a run draws it (`docs/modality/<value>.png`,
//! written with `GEOMRENDER_UPDATE_EXAMPLES=1`) and each question as the README
//! quotes it.

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
    let values = [
        "text-dominant",
        "text-lite",
        "vision-intensive",
        "vision-dominant",
        "blank",
    ];
    let plan = Plan::parse(&format!("modality={}", values.join(",")), false).unwrap();
    let jobs = geomrender::pipeline::expand_line(&line, &plan).unwrap();
    assert_eq!(jobs.len(), 1 + values.len());
    let renderer = geomrender::render::CpuRenderer::raster();
    for (job, value) in jobs[1..].iter().zip(values) {
        assert!(job.scene.id.ends_with(&format!("__modality-{value}")));
        let question = &job.problem.as_ref().unwrap().question;
        assert!(
            readme.contains(&format!("| `{value}` | {question} |")),
            "README.md has no row | `{value}` | {question} |"
        );
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
