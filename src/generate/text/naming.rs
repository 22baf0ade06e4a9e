//! Naming: the names of points, shapes, sides and angles in both annotation styles,
//! and the labels the image draws, from the diagram alone.

use crate::generate::expr::fmt_num;
use crate::generate::problem::{Diagram, Info, Labels, MeasureKind, Modality, Status, Texts};

/// Greek letters for angles (π is left out: it is the constant).
const GREEK: [&str; 20] = [
    "α", "β", "γ", "δ", "ε", "ζ", "η", "θ", "κ", "λ", "μ", "ν", "ξ", "ρ", "σ", "τ", "φ", "χ", "ψ",
    "ω",
];

/// Side letters (l and o are left out: they read as 1 and 0).
const LATIN: &str = "abcdefghijkmnpqrstuvwxyz";

fn nth_name(i: usize, alphabet: &[&str]) -> String {
    let k = alphabet.len();
    if i < k {
        alphabet[i].to_string()
    } else {
        format!("{}{}", alphabet[i % k], i / k + 1)
    }
}

/// The point names A, B, … Z, A1, B1, …
pub(crate) fn point_name(i: usize) -> String {
    let c = (b'A' + (i % 26) as u8) as char;
    if i < 26 {
        c.to_string()
    } else {
        format!("{c}{}", i / 26)
    }
}

/// "first", "second", … "tenth", then "11th", "12th", ….
fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    WORDS
        .get(n.wrapping_sub(1))
        .map_or_else(|| format!("{n}th"), |w| w.to_string())
}

/// Names of shapes, sides and angles in both styles, from the point names.
pub(super) fn refresh_names(d: &mut Diagram, modality: Modality) {
    let pname = |i: usize| d.points.get(i).map_or(String::new(), |p| p.name.clone());
    // Without an image a colour names nothing: a text-only problem calls the shapes
    // named by colour elsewhere "the first circle", "the second semicircle", ….
    let mut by_colour = 0;
    let shape_names: Vec<Texts> = d
        .shapes
        .iter()
        .map(|s| {
            if s.kind.named_by_colour() && !modality.has_image() {
                by_colour += 1;
                let n = ordinal(by_colour);
                return Texts {
                    coordinate: n.clone(),
                    individual: n,
                };
            }
            // Some kinds spell their name in another order (a sector, from its centre).
            let spelt = s.kind.def().name_order;
            let order: Vec<usize> = if !spelt.is_empty() && s.vertices.len() == spelt.len() {
                spelt.iter().map(|&i| s.vertices[i]).collect()
            } else {
                s.vertices.clone()
            };
            let letters: String = order.iter().map(|&i| pname(i)).collect();
            Texts {
                coordinate: if s.kind.named_by_colour() {
                    s.colour.clone()
                } else {
                    letters
                },
                individual: s.colour.clone(),
            }
        })
        .collect();
    for (s, n) in d.shapes.iter_mut().zip(shape_names) {
        s.name = n;
    }
    // Letters go to the sides the texts talk about first, then to the rest.
    let mut order: Vec<usize> = (0..d.sides.len()).collect();
    order.sort_by_key(|&i| (status_rank(d.sides[i].status), i));
    let latin: Vec<String> = LATIN.chars().map(String::from).collect();
    let latin: Vec<&str> = latin.iter().map(String::as_str).collect();
    let mut next = 0;
    let side_names: Vec<(usize, Texts)> = order
        .into_iter()
        .map(|i| {
            let s = &d.sides[i];
            let individual = if s.status == Status::Asked {
                "?".to_string()
            } else {
                next += 1;
                nth_name(next - 1, &latin)
            };
            (
                i,
                Texts {
                    coordinate: format!("{}{}", pname(s.points[0]), pname(s.points[1])),
                    individual,
                },
            )
        })
        .collect();
    for (i, n) in side_names {
        d.sides[i].name = n;
    }
    // Greek letters: the asked angle first, then derived ones, then given ones.
    let mut order: Vec<usize> = (0..d.angles.len()).collect();
    order.sort_by_key(|&i| (status_rank(d.angles[i].status), i));
    let angle_names: Vec<(usize, Texts)> = order
        .into_iter()
        .enumerate()
        .map(|(k, i)| {
            let a = &d.angles[i];
            (
                i,
                Texts {
                    coordinate: a.points.iter().map(|&p| pname(p)).collect(),
                    individual: nth_name(k, &GREEK),
                },
            )
        })
        .collect();
    for (i, n) in angle_names {
        d.angles[i].name = n;
    }
}

/// Naming order: what the texts derive first, given values after, unused last.
fn status_rank(s: Status) -> u8 {
    match s {
        Status::Asked => 0,
        Status::Derived => 1,
        Status::Given => 2,
        Status::Unused => 3,
    }
}

/// Which values are printed on the image and what label each element carries.
/// With the givens on the image, each given side and angle is labelled with its
/// value; `vision-dominant` draws every given, a value as `a·x + b` and a shape's
/// area, perimeter, arc length or height ("Area = 50") too.
pub(super) fn refresh_labels(d: &mut Diagram, info: Info, modality: Modality) {
    let every = modality.draws_every_given();
    let drawn = |status: Status, expr: &Option<String>| {
        info == Info::Image
            && match every {
                true => status == Status::Given || expr.is_some(),
                false => status == Status::Given && expr.is_none(),
            }
    };
    for s in &mut d.sides {
        s.shown = drawn(s.status, &s.expr);
        let value = s.expr.clone().unwrap_or_else(|| fmt_num(s.value));
        s.label.coordinate = s.shown.then(|| value.clone());
        s.label.individual = if s.shown {
            Some(value)
        } else if s.status != Status::Unused {
            Some(s.name.individual.clone())
        } else {
            None
        };
    }
    for a in &mut d.angles {
        a.shown = drawn(a.status, &a.expr);
        let value = match &a.expr {
            Some(e) => format!("{e}°"),
            None => format!("{}°", fmt_num(a.value)),
        };
        a.label.coordinate = a.shown.then(|| value.clone());
        a.label.individual = if a.shown {
            Some(value)
        } else if a.status != Status::Unused {
            Some(a.name.individual.clone())
        } else {
            None
        };
    }
    for m in &mut d.measures {
        let shown = every && drawn(m.status, &m.expr);
        let value = m.expr.clone().unwrap_or_else(|| fmt_num(m.value));
        let what = match m.kind {
            MeasureKind::Area => "Area",
            MeasureKind::Perimeter => "Perimeter",
            MeasureKind::ArcLength => "Arc length",
            MeasureKind::Height => "Height",
        };
        let text = shown.then(|| format!("{what} = {value}"));
        m.label = Labels {
            coordinate: text.clone(),
            individual: text,
        };
    }
}
