//! SVG export: every file is well-formed XML that resvg reads back into the same
//! picture, with or without the embedded font.

use crate::tests::support::output_dir;
use crate::tests::support::scenes::{corpus, feature_scenes, fills_opacity, text_sizes};
use crate::tests::support::skip::{skipped, under_ci};
use geomrender::font::FONT_DATA;
use geomrender::scene::Scene;
use geomrender::scene::svg::{SvgOptions, to_svg_with};
use resvg::usvg;
use std::process::Command;
use std::sync::Arc;

fn scenes() -> Vec<Scene> {
    let mut scenes: Vec<Scene> = corpus().into_iter().step_by(10).collect();
    scenes.extend(feature_scenes());
    scenes.extend([fills_opacity(), text_sizes()]);
    scenes
}

fn usvg_options() -> usvg::Options<'static> {
    let mut options = usvg::Options::default();
    options
        .fontdb_mut()
        .load_font_source(usvg::fontdb::Source::Binary(Arc::new(FONT_DATA)));
    options
}

/// Also leaves the files in `target/test-output/svg/` for a look in a browser.
#[test]
fn svg_files_are_well_formed_and_parse_in_usvg() {
    let options = usvg_options();
    let dir = output_dir().join("svg");
    std::fs::create_dir_all(&dir).expect("create target/test-output/svg");
    for scene in scenes() {
        for embed in [false, true] {
            let svg = to_svg_with(&scene, SvgOptions::default().embed_font(embed));
            let doc = roxmltree::Document::parse(&svg)
                .unwrap_or_else(|e| panic!("{} (embed {embed}): not well-formed: {e}", scene.id));
            let texts = doc.descendants().filter(|n| n.has_tag_name("text")).count();
            let paths = doc.descendants().filter(|n| n.has_tag_name("path")).count();
            assert_eq!(texts + paths, scene.items.len(), "{}", scene.id);
            let tree = usvg::Tree::from_str(&svg, &options)
                .unwrap_or_else(|e| panic!("{} (embed {embed}): usvg: {e}", scene.id));
            assert_eq!(
                (tree.size().width(), tree.size().height()),
                (scene.width as f32, scene.height as f32)
            );
            let name = format!("{}{}.svg", scene.id, if embed { ".font" } else { "" });
            std::fs::write(dir.join(name), &svg).expect("write svg");
        }
    }
}

/// The embedded `@font-face` changes nothing resvg draws (it reads fonts from its
/// database; browsers read them from the file).
#[test]
fn embedding_the_font_does_not_change_the_picture() {
    let options = usvg_options();
    let render = |svg: &str, w: u32, h: u32| {
        let tree = usvg::Tree::from_str(svg, &options).expect("usvg parses");
        let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).expect("pixmap");
        resvg::render(&tree, Default::default(), &mut pixmap.as_mut());
        pixmap.take()
    };
    for scene in feature_scenes() {
        let plain = to_svg_with(&scene, SvgOptions::default());
        let embedded = to_svg_with(&scene, SvgOptions::default().embed_font(true));
        assert!(embedded.len() > plain.len() + 700_000, "font not embedded");
        assert!(
            render(&plain, scene.width, scene.height)
                == render(&embedded, scene.width, scene.height),
            "{}",
            scene.id
        );
    }
}

/// libxml2 agrees that the files are well-formed. `xmllint` comes from Debian's
/// libxml2-utils, which `.ci/run` installs; elsewhere the test is skipped without it,
/// but under `CI=true` a missing xmllint fails it.
#[test]
fn xmllint_accepts_the_files() {
    if Command::new("xmllint").arg("--version").output().is_err() {
        assert!(
            !under_ci(),
            "xmllint is required under CI=true (apt-get install libxml2-utils)"
        );
        skipped("xmllint not installed (apt-get install libxml2-utils)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (k, scene) in scenes().iter().enumerate() {
        let path = dir.path().join(format!("{k}.svg"));
        let svg = to_svg_with(scene, SvgOptions::default().embed_font(k % 4 == 0));
        std::fs::write(&path, svg).expect("write svg");
        files.push(path);
    }
    let out = Command::new("xmllint")
        .arg("--noout")
        .args(&files)
        .output()
        .expect("run xmllint");
    assert!(
        out.status.success(),
        "xmllint rejected SVG output:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
