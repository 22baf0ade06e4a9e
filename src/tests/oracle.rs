//! The GPU-vs-resvg comparison metric itself (`support::oracle`): the figures of
//! identical, shifted and transparent images, and nearest-rank quantiles.

use crate::tests::support::oracle::{Distribution, Figures, compare};
use geomrender::render::RenderedImage;

fn flat(w: u32, h: u32, px: [u8; 4]) -> RenderedImage {
    RenderedImage {
        id: "flat".into(),
        width: w,
        height: h,
        rgba: px.repeat((w * h) as usize),
    }
}

#[test]
fn identical_images_have_zero_figures() {
    let a = flat(9, 7, [10, 20, 30, 255]);
    assert_eq!(compare(&a, &a), Figures::default());
}

#[test]
fn a_uniform_colour_shift_shows_in_every_figure() {
    let f = compare(
        &flat(9, 7, [100, 100, 100, 255]),
        &flat(9, 7, [140, 100, 100, 255]),
    );
    assert_eq!((f.over32, f.blurred_over), (1.0, 1.0));
    assert!((f.blurred_mean - 10.0).abs() < 1e-3, "{f:?}");
}

#[test]
fn transparent_pixels_compare_by_premultiplied_colour() {
    // Straight colours far apart, but at alpha 2 they carry almost no colour.
    let f = compare(&flat(4, 4, [255, 0, 0, 2]), &flat(4, 4, [0, 255, 0, 2]));
    assert_eq!(f.over32, 0.0);
}

#[test]
fn quantiles_use_nearest_rank() {
    let d = Distribution::new((1..=100).map(f64::from).collect());
    assert_eq!(
        (d.quantile(0.5), d.quantile(0.99), d.max()),
        (50.0, 99.0, 100.0)
    );
}
