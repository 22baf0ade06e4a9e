//! compose: labels stay apart and on the canvas for every font size up to 32 px, and
//! only what a Style field names changes between two styles.

use geomrender::compose::compose;
use geomrender::font::text_box;
use geomrender::generate::Annotation;
use geomrender::scene::{Item, TextItem};
use geomrender::style::{Palette, Rotation, Style};

use crate::tests::support::scenes::problems;

fn texts(items: &[Item]) -> Vec<&TextItem> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// Label boxes recomputed from the scene's text items (middle anchor, central baseline).
fn boxes(items: &[Item]) -> Vec<[f32; 4]> {
    texts(items)
        .iter()
        .map(|t| {
            let (w, h) = text_box(&t.text, t.size);
            [t.x - w / 2.0, t.y - h / 2.0, t.x + w / 2.0, t.y + h / 2.0]
        })
        .collect()
}

#[test]
fn labels_never_collide_or_leave_the_canvas_up_to_32_px() {
    let ps = problems(1000, 40);
    for size in [8.0, 12.0, 16.0, 24.0, 32.0] {
        let style = Style {
            font_size: size,
            ..Style::default()
        };
        for p in &ps {
            for a in Annotation::ALL {
                let c = compose(p, &style, a).unwrap();
                assert_eq!(
                    (c.layout.overlaps, c.layout.off_canvas),
                    (0, 0),
                    "{} {a:?} {size}px",
                    p.id
                );
                let b = boxes(&c.scene.items);
                assert_eq!(b.len(), c.layout.labels);
                let canvas = style.canvas as f32;
                for (i, x) in b.iter().enumerate() {
                    assert!(
                        x[0] >= 0.0 && x[1] >= 0.0 && x[2] <= canvas && x[3] <= canvas,
                        "{} {size}px",
                        p.id
                    );
                    for y in &b[i + 1..] {
                        let apart = x[2] <= y[0] || y[2] <= x[0] || x[3] <= y[1] || y[3] <= x[1];
                        assert!(apart, "{} {a:?} {size}px: {x:?} {y:?}", p.id);
                    }
                }
            }
        }
    }
}

#[test]
fn line_width_moves_no_label_and_opacity_changes_only_fill_alpha() {
    for p in problems(200, 41) {
        for a in Annotation::ALL {
            let base = compose(&p, &Style::default(), a).unwrap().scene;
            let thick = compose(
                &p,
                &Style {
                    line_width: 6.0,
                    ..Style::default()
                },
                a,
            )
            .unwrap()
            .scene;
            let faint = compose(
                &p,
                &Style {
                    fill_opacity: 0.2,
                    ..Style::default()
                },
                a,
            )
            .unwrap()
            .scene;
            let gray = compose(
                &p,
                &Style {
                    palette: Palette::Grayscale,
                    ..Style::default()
                },
                a,
            )
            .unwrap()
            .scene;
            assert_eq!(base.items.len(), thick.items.len());
            for (((b, t), f), g) in base
                .items
                .iter()
                .zip(&thick.items)
                .zip(&faint.items)
                .zip(&gray.items)
            {
                match (b, t, f, g) {
                    (Item::Text(b), Item::Text(t), Item::Text(f), Item::Text(g)) => {
                        assert_eq!(b, t, "{}: line width moved a label", p.id);
                        assert_eq!(b, f);
                        assert_eq!(b, g);
                    }
                    (Item::Path(b), Item::Path(t), Item::Path(f), Item::Path(g)) => {
                        assert_eq!(b.d, t.d);
                        let mut t2 = t.clone();
                        t2.stroke_width = b.stroke_width;
                        assert_eq!(*b, t2, "line width changed more than stroke width");
                        let mut f2 = f.clone();
                        f2.fill_opacity = b.fill_opacity;
                        assert_eq!(*b, f2, "opacity changed more than fill opacity");
                        let mut g2 = g.clone();
                        g2.fill = b.fill;
                        assert_eq!(*b, g2, "palette changed more than fill colour");
                    }
                    _ => panic!("{}: item kinds differ between styles", p.id),
                }
            }
        }
    }
}

#[test]
fn rotations_keep_labels_clear_and_upright() {
    for p in problems(150, 42) {
        for rotation in [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270] {
            let style = Style {
                rotation,
                ..Style::default()
            };
            let c = compose(&p, &style, Annotation::Coordinate).unwrap();
            assert_eq!(
                (c.layout.overlaps, c.layout.off_canvas),
                (0, 0),
                "{} {rotation:?}",
                p.id
            );
            // Every vertex letter is drawn, whatever the rotation.
            let drawn: Vec<&str> = texts(&c.scene.items)
                .iter()
                .map(|t| t.text.as_str())
                .collect();
            for pt in &p.diagram.points {
                assert!(
                    drawn.contains(&pt.name.as_str()),
                    "{}: {} missing",
                    p.id,
                    pt.name
                );
            }
        }
    }
}

#[test]
fn individual_images_carry_the_letters_their_texts_use() {
    for p in problems(300, 43) {
        let c = compose(&p, &Style::default(), Annotation::Individual).unwrap();
        let drawn: Vec<String> = texts(&c.scene.items)
            .iter()
            .map(|t| t.text.clone())
            .collect();
        let text = format!(
            "{} {}",
            p.question(Annotation::Individual),
            p.cot(Annotation::Individual)
        );
        for greek in "αβγδεζηθκλμνξρστφχψω".chars() {
            if text.contains(greek) {
                assert!(
                    drawn.iter().any(|d| d.contains(greek)),
                    "{}: {greek} not drawn\n{text}",
                    p.id
                );
            }
        }
        if text.contains("marked with question mark") {
            assert!(drawn.iter().any(|d| d == "?"), "{}", p.id);
        }
        // No vertex letters in the individual style.
        assert!(
            !p.diagram.points.iter().any(|pt| drawn.contains(&pt.name)),
            "{}",
            p.id
        );
    }
}

#[test]
fn bad_styles_are_rejected_not_panicked_on() {
    let p = &problems(1, 44)[0];
    for style in [
        Style {
            canvas: 0,
            ..Style::default()
        },
        Style {
            font_size: f32::NAN,
            ..Style::default()
        },
        Style {
            fill_opacity: 1.5,
            ..Style::default()
        },
        Style {
            line_width: -1.0,
            ..Style::default()
        },
    ] {
        assert!(compose(p, &style, Annotation::Coordinate).is_err());
    }
    let mut broken = p.clone();
    broken.diagram.points[0].x = f64::NAN;
    assert!(compose(&broken, &Style::default(), Annotation::Coordinate).is_err());
    let mut broken = p.clone();
    broken.diagram.shapes[0].vertices.push(999);
    assert!(compose(&broken, &Style::default(), Annotation::Coordinate).is_err());
}
