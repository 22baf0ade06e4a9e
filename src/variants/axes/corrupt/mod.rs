//! `corrupt=NAME-SEVERITY`: ImageNet-C's corruptions (Hendrycks & Dietterich,
//! ICLR 2019) on the pixel stage, with the constants of the `imagecorruptions`
//! package (`imagecorruptions-imaug` on PyPI, the maintained fork), so that
//! `defocus_blur-3` means what it means in the literature.
//!
//! ```text
//! rgb       the image as the package sees it (RGB, 0..=1) and back (truncated levels)
//! rng       the seeded draws of the random ones
//! filter    Gaussian, disk, motion and zoom filters (scipy / OpenCV semantics)
//! noise     gaussian_noise  shot_noise  impulse_noise  speckle_noise
//! blur      gaussian_blur  defocus_blur  glass_blur  motion_blur  zoom_blur
//! weather   fog  snow  (frost left out: its photographs have no stated licence)
//! colour    brightness  contrast  saturate
//! digital   pixelate  jpeg_compression  elastic_transform
//! ```
//!
//! `spatter` is left out too: its first three severities rest on OpenCV's Canny
//! edges, distance transform and histogram equalisation of a random layer.

mod blur;
mod colour;
pub(crate) mod digital;
pub(crate) mod filter;
mod noise;
pub(crate) mod rgb;
pub(crate) mod rng;
mod weather;

use super::super::Setting;
use super::super::pixels::Canvas;
use super::{AxisDef, Change, OnScene, Values};
use rgb::Rgb;
use rng::Draws;
pub(crate) use weather::plasma as weather_plasma;

/// ImageNet-C's grouping, for contact sheets and plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Noise,
    Blur,
    Weather,
    Digital,
}

impl Family {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Family::Noise => "noise",
            Family::Blur => "blur",
            Family::Weather => "weather",
            Family::Digital => "digital",
        }
    }
}

/// One corruption: its package name, family, and the function (image, severity
/// 1..=5, draws).
pub(crate) struct Corruption {
    pub name: &'static str,
    pub family: Family,
    apply: fn(&mut Rgb, usize, &mut Draws),
}

macro_rules! table {
    ($($name:ident: $family:ident, $module:ident;)*) => {
        /// Every corruption, in the order of [`DEF`]'s values.
        pub(crate) const CORRUPTIONS: &[Corruption] = &[$(Corruption {
            name: stringify!($name),
            family: Family::$family,
            apply: $module::$name,
        }),*];
        /// `NAME-SEVERITY` for every corruption and severity 1–5.
        const WORDS: &[&str] = &[$(
            concat!(stringify!($name), "-1"),
            concat!(stringify!($name), "-2"),
            concat!(stringify!($name), "-3"),
            concat!(stringify!($name), "-4"),
            concat!(stringify!($name), "-5"),
        )*];
        /// Every corruption at severity 3.
        const SWEEP: &[&str] = &[$(concat!(stringify!($name), "-3")),*];
    };
}

table! {
    gaussian_noise: Noise, noise;
    shot_noise: Noise, noise;
    impulse_noise: Noise, noise;
    speckle_noise: Noise, noise;
    gaussian_blur: Blur, blur;
    defocus_blur: Blur, blur;
    glass_blur: Blur, blur;
    motion_blur: Blur, blur;
    zoom_blur: Blur, blur;
    fog: Weather, weather;
    snow: Weather, weather;
    brightness: Weather, colour;
    contrast: Digital, colour;
    saturate: Digital, colour;
    pixelate: Digital, digital;
    jpeg_compression: Digital, digital;
    elastic_transform: Digital, digital;
}

/// Tags each corruption's random stream apart from other pixel steps'.
const TAG: u64 = 0x636f_7272_7570_7400; // "corrupt"

pub(super) static DEF: AxisDef = AxisDef {
    name: "corrupt",
    changes: "the rendered pixels corrupted as ImageNet-C does (NAME-SEVERITY, severity \
              1–5, the constants of the imagecorruptions package); the drawing and its \
              SVG stay the base's",
    from: "Hendrycks & Dietterich, ImageNet-C (pixel stage; imagecorruptions' constants)",
    base: "none",
    base_number: None,
    sweep: SWEEP,
    values: Values::Choice(WORDS),
    numeric: false,
    plot_title: "corruption (ImageNet-C name and severity)",
    look: None,
    rewrite: None,
    pixels: Some(corrupt),
    on_scene: OnScene::Apply {
        doc: "same (on the rendered pixels)",
        apply: |_, _, _| Ok(()),
    },
    may_change: &[Change::Pixels],
    made_when_same: false,
    relations: true,
    relations_sweep: None,
    order: 6,
};

/// The corruption and severity (1..=5) of a value of the axis.
pub(crate) fn of(s: Setting) -> Option<(&'static Corruption, usize)> {
    match s {
        Setting::Choice(i) => Some((CORRUPTIONS.get(i / 5)?, i % 5 + 1)),
        _ => None,
    }
}

/// The index in [`CORRUPTIONS`] of a value's corruption (its stream's tag).
fn index(s: Setting) -> u64 {
    match s {
        Setting::Choice(i) => (i / 5) as u64,
        _ => 0,
    }
}

/// Whether the value leaves every image of `scene` exactly as it is: `saturate`
/// at 1–3 scales the saturation and adds none, so a drawing whose colours are
/// all greys (a grayscale palette) keeps every pixel. Such a variant is not
/// drawn, like any other equal to its base.
pub(crate) fn keeps(s: Setting, scene: &crate::scene::Scene) -> bool {
    let Some((c, severity)) = of(s) else {
        return false;
    };
    let grey = |c: &crate::scene::Color| c.r == c.g && c.g == c.b;
    c.name == "saturate"
        && severity <= 3
        && scene.background.as_ref().is_none_or(grey)
        && scene.items.iter().all(|item| match item {
            crate::scene::Item::Path(p) => p.fill.iter().chain(&p.stroke).all(grey),
            crate::scene::Item::Text(t) => grey(&t.color),
        })
}

fn corrupt(s: Setting, canvas: &mut Canvas<'_>) {
    let Some((c, severity)) = of(s) else { return };
    if canvas.width() == 0 || canvas.height() == 0 {
        return;
    }
    let mut img = Rgb::of(canvas);
    let mut draws = Draws::new(canvas.seed(), TAG + index(s));
    (c.apply)(&mut img, severity, &mut draws);
    img.truncate_into(canvas);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corruptions that draw no random number.
    const DETERMINISTIC: &[&str] = &[
        "gaussian_blur",
        "defocus_blur",
        "zoom_blur",
        "brightness",
        "contrast",
        "saturate",
        "pixelate",
        "jpeg_compression",
    ];

    #[test]
    fn words_name_every_corruption_at_every_severity() {
        assert_eq!(WORDS.len(), CORRUPTIONS.len() * 5);
        for (i, w) in WORDS.iter().enumerate() {
            let (c, s) = of(Setting::Choice(i)).unwrap();
            assert_eq!(*w, format!("{}-{s}", c.name));
        }
        assert_eq!(SWEEP.len(), CORRUPTIONS.len());
        assert!(SWEEP.iter().all(|w| w.ends_with("-3")));
    }

    /// Every corruption at every severity on a small diagram-like image: opaque,
    /// changed, the same bytes again from the same seed, other bytes from another
    /// seed when it draws random numbers.
    #[test]
    fn every_corruption_changes_the_pixels_reproducibly() {
        let (w, h) = (64u32, 48u32);
        let base: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                let (x, y) = (i % w, i / w);
                if (20..44).contains(&x) && (10..30).contains(&y) {
                    [90, 140, 230, 255]
                } else if x == 12 || y == 40 {
                    [0, 0, 0, 255]
                } else {
                    [255, 255, 255, 255]
                }
            })
            .collect();
        for c in CORRUPTIONS {
            for severity in 1..=5 {
                let run = |seed: u64| {
                    let mut px = base.clone();
                    let mut canvas = Canvas::new(w, h, &mut px, seed).unwrap();
                    let i = CORRUPTIONS.iter().position(|k| k.name == c.name).unwrap();
                    corrupt(Setting::Choice(i * 5 + severity - 1), &mut canvas);
                    px
                };
                let (a, b, other) = (run(1), run(1), run(2));
                assert_eq!(a, b, "{} {severity}", c.name);
                assert_ne!(a, base, "{} {severity}", c.name);
                assert!(a.chunks_exact(4).all(|p| p[3] == 255));
                assert_eq!(
                    a != other,
                    !DETERMINISTIC.contains(&c.name),
                    "{} {severity}",
                    c.name
                );
            }
        }
    }
}
