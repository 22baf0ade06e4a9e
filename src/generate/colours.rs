//! Shape colours: the names a problem's text uses ("the red triangle"), their sRGB in
//! the colour and high-contrast palettes, and which two may share a diagram.
//!
//! Two shapes of one diagram must be told apart by name and by eye (issue 16): their
//! names are never near-synonyms ([`SYNONYMS`]), and their fills, as rendered over
//! white at the default fill opacity (0.5), differ by at least [`MIN_DELTA_E`] in
//! CIEDE2000. The table below was chosen so that every pair that is not a synonym
//! passes (the closest, green with teal, at ΔE 20.6) except gray with brown (17.6)
//! and gray with teal (19.4), which are kept apart like synonyms; 8 names (blue, green, orange, purple, red, yellow, cyan,
//! gray) can all share one diagram, so diagrams of up to 8 shapes always get
//! distinct colours, and larger ones (depth ≥ 5) take the best left.
//!
//! | name | colour | high contrast |
//! |---|---|---|
//! | blue | #0051e9 | #0040ff |
//! | green | #0aa018 | #00a000 |
//! | orange | #f06d0c | #ff8000 |
//! | purple | #7010a0 | #8000ff |
//! | red | #df0517 | #ff0000 |
//! | yellow | #ffd800 | #ffe000 |
//! | gray | #a0a0a0 | #808080 |
//! | brown | #7a4010 | #804000 |
//! | cyan | #03eeff | #00e0ff |
//! | pink | #f070d0 | #ff00c0 |
//! | lime | #a0f000 | #80ff00 |
//! | teal | #008080 | #008080 |

use crate::style::Style;

/// Colour names, in the order the generator shuffles them.
pub(crate) const COLOURS: [&str; 12] = [
    "blue", "green", "orange", "purple", "red", "yellow", "gray", "brown", "cyan", "pink", "lime",
    "teal",
];

/// Names never used together in one diagram: a reader could take one for the other.
pub(crate) const SYNONYMS: [(&str, &str); 6] = [
    ("red", "pink"),
    ("purple", "pink"),
    ("cyan", "teal"),
    ("green", "lime"),
    ("yellow", "lime"),
    ("orange", "brown"),
];

/// The grey names of the `grayscale` palette, dark to light, each with the shade it
/// names: the grey a reader sees, i.e. the fill composited over the white background
/// at the drawn fill opacity (not the fill colour itself, which at 50 % opacity shows
/// one step lighter). Shades are 64 levels apart, the last 40; a shade is named by
/// the nearest entry ([`gray_name_of`]). `black` is never given to a shape (its
/// outline, angle marks and labels are black), but names the darkest band.
pub(crate) const GRAYS: [(&str, u8); 5] = [
    ("black", 0x00),
    ("dark gray", 0x40),
    ("gray", 0x80),
    ("light gray", 0xc0),
    ("very light gray", 0xe8),
];

/// The grey names a shape may be given (all but `black`).
const SHAPE_GRAYS: std::ops::RangeInclusive<usize> = 1..=4;

/// The name of the grey nearest to `shade` (ties to the darker).
pub(crate) fn gray_name_of(shade: u8) -> &'static str {
    GRAYS
        .iter()
        .min_by_key(|(_, v)| v.abs_diff(shade))
        .map_or("gray", |g| g.0)
}

/// The fill level that shows as `name`'s shade over white at fill `opacity`, or
/// `None` when that opacity cannot show it (a translucent fill is never darker than
/// `255 · (1 − opacity)`) or the name is no grey of [`GRAYS`].
pub(crate) fn gray_fill(name: &str, opacity: f32) -> Option<u8> {
    let shade = f64::from(gray_level(name)?);
    let alpha = f64::from(opacity);
    if alpha <= 0.0 {
        return None;
    }
    // shade = 255 − alpha · (255 − fill), solved for the fill; a fill below 0 is
    // drawn as 0, which shows as some lighter grey, perhaps another name's.
    let fill = (255.0 - (255.0 - shade) / alpha).round().clamp(0.0, 255.0);
    let shown = over_white([fill as u8; 3], alpha)[0];
    (gray_name_of(shown) == name).then_some(fill as u8)
}

/// The grey names for a diagram's colour names (distinct, in shape order), for
/// fills drawn at `opacity`: darker colours (Rec. 709 luma) get darker greys, spread
/// over the greys that opacity can show. `None` when it shows fewer greys than there
/// are shapes (at 50 %: gray, light gray and very light gray; at 10 % only one).
pub(crate) fn gray_names(colours: &[&str], opacity: f32) -> Option<Vec<&'static str>> {
    let shown: Vec<&'static str> = GRAYS[SHAPE_GRAYS]
        .iter()
        .map(|g| g.0)
        .filter(|name| gray_fill(name, opacity).is_some())
        .collect();
    let (n, m) = (colours.len(), shown.len());
    if n > m {
        return None;
    }
    // One shape takes the darkest grey shown (most contrast with the white
    // ground); more spread from the darkest to the lightest.
    let step = |rank: usize| match n {
        1 => 0,
        _ => (rank * (m - 1) + (n - 1) / 2) / (n - 1),
    };
    let luma = |name: &str| {
        let [r, g, b] = rgb(name).map_or([0xa0; 3], |c| c.0);
        0.2126 * r as f64 + 0.7152 * g as f64 + 0.0722 * b as f64
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        luma(colours[a])
            .total_cmp(&luma(colours[b]))
            .then(a.cmp(&b))
    });
    let mut names = vec![""; n];
    for (rank, &k) in order.iter().enumerate() {
        names[k] = shown[step(rank)];
    }
    Some(names)
}

/// The shade a grey name stands for.
pub(crate) fn gray_level(name: &str) -> Option<u8> {
    GRAYS.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

/// Smallest CIEDE2000 difference between two fills of one diagram, rendered over
/// white at the default fill opacity.
pub(crate) const MIN_DELTA_E: f64 = 20.0;

/// sRGB of a colour name in the colour palette and in the high-contrast palette;
/// `None` for a name not in [`COLOURS`].
pub(crate) fn rgb(name: &str) -> Option<([u8; 3], [u8; 3])> {
    Some(match name {
        "blue" => ([0x00, 0x51, 0xe9], [0x00, 0x40, 0xff]),
        "green" => ([0x0a, 0xa0, 0x18], [0x00, 0xa0, 0x00]),
        "orange" => ([0xf0, 0x6d, 0x0c], [0xff, 0x80, 0x00]),
        "purple" => ([0x70, 0x10, 0xa0], [0x80, 0x00, 0xff]),
        "red" => ([0xdf, 0x05, 0x17], [0xff, 0x00, 0x00]),
        "yellow" => ([0xff, 0xd8, 0x00], [0xff, 0xe0, 0x00]),
        "gray" => ([0xa0, 0xa0, 0xa0], [0x80, 0x80, 0x80]),
        "brown" => ([0x7a, 0x40, 0x10], [0x80, 0x40, 0x00]),
        "cyan" => ([0x03, 0xee, 0xff], [0x00, 0xe0, 0xff]),
        "pink" => ([0xf0, 0x70, 0xd0], [0xff, 0x00, 0xc0]),
        "lime" => ([0xa0, 0xf0, 0x00], [0x80, 0xff, 0x00]),
        "teal" => ([0x00, 0x80, 0x80], [0x00, 0x80, 0x80]),
        _ => return None,
    })
}

/// `rgb` painted over white with `alpha`, as an 8-bit renderer stores it.
pub(crate) fn over_white(rgb: [u8; 3], alpha: f64) -> [u8; 3] {
    rgb.map(|c| (255.0 * (1.0 - alpha) + f64::from(c) * alpha).round() as u8)
}

/// CIE L*a*b* (D65) of an sRGB colour.
pub(crate) fn lab(rgb: [u8; 3]) -> [f64; 3] {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let [r, g, b] = rgb.map(lin);
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f64| {
        const D: f64 = 6.0 / 29.0;
        if t > D * D * D {
            t.cbrt()
        } else {
            t / (3.0 * D * D) + 4.0 / 29.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The CIEDE2000 colour difference of two L*a*b* colours (Sharma, Wu & Dalal 2005).
pub(crate) fn ciede2000(lab1: [f64; 3], lab2: [f64; 3]) -> f64 {
    let ([l1, a1, b1], [l2, a2, b2]) = (lab1, lab2);
    let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let pow7 = |c: f64| c.powi(7);
    let g = 0.5 * (1.0 - (pow7(c_bar) / (pow7(c_bar) + pow7(25.0))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| {
        if b == 0.0 && a == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let dh_angle = if c1p * c2p == 0.0 {
        0.0
    } else {
        let d = h2p - h1p;
        if d > 180.0 {
            d - 360.0
        } else if d < -180.0 {
            d + 360.0
        } else {
            d
        }
    };
    let dh = 2.0 * (c1p * c2p).sqrt() * (dh_angle.to_radians() / 2.0).sin();
    let l_bar = (l1 + l2) / 2.0;
    let cp_bar = (c1p + c2p) / 2.0;
    let h_bar = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= 180.0 {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 360.0 {
        (h1p + h2p + 360.0) / 2.0
    } else {
        (h1p + h2p - 360.0) / 2.0
    };
    let cos = |deg: f64| deg.to_radians().cos();
    let t =
        1.0 - 0.17 * cos(h_bar - 30.0) + 0.24 * cos(2.0 * h_bar) + 0.32 * cos(3.0 * h_bar + 6.0)
            - 0.20 * cos(4.0 * h_bar - 63.0);
    let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
    let rc = 2.0 * (pow7(cp_bar) / (pow7(cp_bar) + pow7(25.0))).sqrt();
    let sl = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let sc = 1.0 + 0.045 * cp_bar;
    let sh = 1.0 + 0.015 * cp_bar * t;
    let rt = -(2.0 * d_theta).to_radians().sin() * rc;
    ((dl / sl).powi(2) + (dc / sc).powi(2) + (dh / sh).powi(2) + rt * (dc / sc) * (dh / sh)).sqrt()
}

/// CIEDE2000 difference of two named fills over white at the default fill opacity;
/// `None` for an unknown name.
pub(crate) fn fill_delta_e(a: &str, b: &str) -> Option<f64> {
    let alpha = f64::from(Style::default().fill_opacity);
    let at = |n: &str| rgb(n).map(|(c, _)| lab(over_white(c, alpha)));
    Some(ciede2000(at(a)?, at(b)?))
}

/// Whether two colour names may share a diagram: not synonyms, and far enough apart
/// as rendered.
pub(crate) fn compatible(a: &str, b: &str) -> bool {
    let synonyms = SYNONYMS
        .iter()
        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b));
    !synonyms && a != b && fill_delta_e(a, b).is_some_and(|d| d >= MIN_DELTA_E)
}

/// Colours for `n` shapes from a shuffled list: the first `n` names, in list order,
/// that are all pairwise [`compatible`] (a depth-first search, so that an early
/// choice never blocks a set that exists); with more shapes than such a set can hold,
/// the names taken greedily, then the list again.
pub(crate) fn pick<'a>(shuffled: &[&'a str], n: usize) -> Vec<&'a str> {
    fn search<'a>(list: &[&'a str], from: usize, n: usize, taken: &mut Vec<&'a str>) -> bool {
        if taken.len() == n {
            return true;
        }
        for i in from..list.len() {
            if list.len() - i < n - taken.len() {
                return false;
            }
            if taken.iter().all(|t| compatible(list[i], t)) {
                taken.push(list[i]);
                if search(list, i + 1, n, taken) {
                    return true;
                }
                taken.pop();
            }
        }
        false
    }
    let mut taken = Vec::with_capacity(n);
    if search(shuffled, 0, n, &mut taken) {
        return taken;
    }
    taken.clear();
    for i in 0..n {
        let unused = || shuffled.iter().copied().filter(|c| !taken.contains(c));
        let next = unused()
            .find(|c| taken.iter().all(|t| compatible(c, t)))
            .or_else(|| unused().next())
            .unwrap_or(shuffled[i % shuffled.len()]);
        taken.push(next);
    }
    taken
}

#[cfg(test)]
mod gray_tests {
    use super::*;

    #[test]
    fn darker_colours_get_darker_distinct_greys_that_the_opacity_shows() {
        assert_eq!(
            gray_names(&["yellow", "brown"], 0.5),
            Some(vec!["very light gray", "gray"])
        );
        assert_eq!(gray_names(&["yellow"], 0.5), Some(vec!["gray"]));
        assert_eq!(
            gray_names(&["blue", "green", "yellow"], 0.5),
            Some(vec!["gray", "light gray", "very light gray"])
        );
        // At 50 % no fill shows darker than 0x80: three greys, not four.
        assert_eq!(
            gray_names(&["blue", "green", "orange", "yellow"], 0.5),
            None
        );
        assert_eq!(
            gray_names(&["blue", "green", "orange", "yellow"], 1.0),
            Some(vec!["dark gray", "gray", "light gray", "very light gray"])
        );
        assert_eq!(gray_names(&["red", "blue"], 0.1), None);
        assert_eq!(gray_names(&["red"], 0.1), Some(vec!["very light gray"]));
        assert_eq!(gray_names(&["red"], 0.0), None);
    }

    /// Worked by hand: the fill that shows as each shade, and back again.
    #[test]
    fn fills_show_the_shade_they_are_named_by() {
        assert_eq!(gray_fill("gray", 0.5), Some(1)); // 255 − 127 / 0.5
        assert_eq!(gray_fill("dark gray", 0.5), None);
        assert_eq!(gray_fill("dark gray", 0.75), Some(0)); // shows 0x40
        assert_eq!(gray_fill("very light gray", 0.1), Some(25)); // 255 − 23 / 0.1
        assert_eq!(gray_fill("light gray", 1.0), Some(0xc0));
        assert_eq!(gray_fill("red", 1.0), None);
        for opacity in [0.1f32, 0.25, 0.5, 0.75, 1.0] {
            for (name, shade) in GRAYS {
                if let Some(fill) = gray_fill(name, opacity) {
                    let shown = over_white([fill; 3], f64::from(opacity))[0];
                    assert!(shown.abs_diff(shade) <= 1, "{name} at {opacity}: {shown}");
                    assert_eq!(gray_name_of(shown), name);
                }
            }
        }
        assert_eq!(gray_name_of(0x80), "gray");
        assert_eq!(gray_name_of(0xa8), "light gray");
        assert_eq!(gray_name_of(0x60), "dark gray"); // a tie goes to the darker
        assert_eq!(gray_name_of(0xd0), "light gray");
        assert_eq!(gray_name_of(0xec), "very light gray");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs from Sharma, Wu & Dalal (2005), table 1: the reference data for
    /// CIEDE2000 implementations (L*a*b* pairs and ΔE00 to 4 decimals).
    #[test]
    fn ciede2000_matches_sharmas_reference_pairs() {
        let pairs: [([f64; 3], [f64; 3], f64); 8] = [
            ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
            ([50.0, 3.1571, -77.2803], [50.0, 0.0, -82.7485], 2.8615),
            ([50.0, -1.3802, -84.2814], [50.0, 0.0, -82.7485], 1.0),
            ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
            ([50.0, 2.49, -0.001], [50.0, -2.49, 0.0009], 7.1792),
            ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
            (
                [60.2574, -34.0099, 36.2677],
                [60.4626, -34.1751, 39.4387],
                1.2644,
            ),
            (
                [90.8027, -2.0831, 1.441],
                [91.1528, -1.6435, 0.0447],
                1.4441,
            ),
        ];
        for (a, b, want) in pairs {
            let got = ciede2000(a, b);
            assert!((got - want).abs() < 1e-4, "{a:?} {b:?}: {got} ≠ {want}");
            assert!((ciede2000(b, a) - want).abs() < 1e-4);
        }
    }

    #[test]
    fn lab_of_white_and_black() {
        let w = lab([255, 255, 255]);
        assert!((w[0] - 100.0).abs() < 1e-3 && w[1].abs() < 1e-2 && w[2].abs() < 1e-2);
        assert!(lab([0, 0, 0])[0].abs() < 1e-9);
    }

    #[test]
    fn every_name_has_colours_and_synonyms_are_names() {
        for c in COLOURS {
            assert!(rgb(c).is_some(), "{c}");
        }
        for (a, b) in SYNONYMS {
            assert!(COLOURS.contains(&a) && COLOURS.contains(&b));
            assert!(!compatible(a, b));
        }
    }

    #[test]
    fn eight_names_share_a_diagram() {
        let eight = [
            "blue", "green", "orange", "purple", "red", "yellow", "cyan", "gray",
        ];
        for (i, a) in eight.iter().enumerate() {
            for b in &eight[i + 1..] {
                assert!(compatible(a, b), "{a} {b}: {:?}", fill_delta_e(a, b));
            }
        }
        // Whatever the order, 8 shapes get 8 compatible names, 12 get 12 names.
        let mut order = COLOURS;
        for k in 0..12 {
            order.rotate_left(k);
            order.reverse();
            let picked = pick(&order, 8);
            assert_eq!(picked.len(), 8);
            for (i, a) in picked.iter().enumerate() {
                for b in &picked[i + 1..] {
                    assert!(compatible(a, b), "{order:?}: {picked:?}");
                }
            }
            let mut all = pick(&order, 12);
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 12);
        }
    }
}
