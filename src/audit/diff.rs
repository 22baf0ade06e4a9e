//! A variant against its base: which kinds of [`Change`], and how many items of each.

use super::items::{Drawn, Label, Piece};
use crate::variants::Change;
use std::collections::BTreeMap;

/// How many items of each kind changed (texts and the canvas count 1).
pub(crate) type Changes = BTreeMap<Change, u32>;

/// Labels this close (px) stand in the same place.
const SAME_PLACE: f64 = 0.01;
/// A label of another text pairs with a base label at most this far (px): two
/// label heights at the default size.
const NEAR: f64 = 32.0;
/// What pairing two different texts costs, in px: a label of the same text up to
/// this much farther away is preferred.
const RENAMED: f64 = 16.0;

/// How a label of another text may pair with a base label, as the variant's axes
/// declare: otherwise it is an added label, so a change of text cannot hide
/// behind a move.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pairing {
    /// In its place, with any text (a letter renamed, a value restated).
    pub renames: bool,
    /// Anywhere, when only its numbers differ (`values`).
    pub numbers: bool,
}

/// The differences between two drawings, paths and labels.
pub(super) fn drawn(
    base: &Drawn,
    variant: &Drawn,
    leader_stroke: &str,
    pairing: Pairing,
) -> Changes {
    let mut out = Changes::new();
    // A caption band: the same width, grown down, with words below where the other
    // drawing ends. Those words are the caption, not labels.
    let (base_labels, base_caption) = caption(base, variant);
    let (var_labels, var_caption) = caption(variant, base);
    if base_caption || var_caption {
        add(&mut out, Change::Caption, 1);
    } else if (&base.width, &base.height) != (&variant.width, &variant.height) {
        add(&mut out, Change::Canvas, 1);
    }
    let is_leader = |p: &Piece| p.fill == "fill=none" && p.stroke.starts_with(leader_stroke);
    let (base_leaders, base_paths): (Vec<&Piece>, Vec<&Piece>) =
        base.paths.iter().partition(|p| is_leader(p));
    let (var_leaders, var_paths): (Vec<&Piece>, Vec<&Piece>) =
        variant.paths.iter().partition(|p| is_leader(p));
    let kept = paths(&mut out, base_paths, var_paths);
    let (mut bl, mut vl) = (base_leaders, var_leaders);
    take_equal(&mut bl, &mut vl, |a, b| a == b);
    add(&mut out, Change::Leaders, bl.len().max(vl.len()) as u32);
    let pairing = Pairing {
        renames: kept && pairing.renames,
        ..pairing
    };
    labels(&mut out, &base_labels, &var_labels, pairing);
    out
}

/// `d`'s labels above where `other` ends, and whether `d` has a caption band: it is
/// as wide as `other`, taller, and has words below `other`'s height.
fn caption(d: &Drawn, other: &Drawn) -> (Vec<Label>, bool) {
    let num = |v: &str| v.trim_end_matches("px").parse::<f64>().ok();
    let band_top = match (num(&d.height), num(&other.height)) {
        (Some(h), Some(top)) if d.width == other.width && h > top => Some(top),
        _ => None,
    };
    let (below, above): (Vec<Label>, Vec<Label>) =
        (d.labels.iter().cloned()).partition(|l| band_top.is_some_and(|top| l.y > top));
    let band = !below.is_empty();
    match band {
        true => (above, true),
        false => (d.labels.clone(), false),
    }
}

/// Adds `n` to `kind`'s count (nothing for 0).
pub(super) fn add(out: &mut Changes, kind: Change, n: u32) {
    if n > 0 {
        *out.entry(kind).or_insert(0) += n;
    }
}

/// Removes the pairs `same` finds from both lists (each item pairs once, in order).
fn take_equal<T>(a: &mut Vec<T>, b: &mut Vec<T>, same: impl Fn(&T, &T) -> bool) {
    a.retain(|x| match b.iter().position(|y| same(x, y)) {
        Some(i) => {
            b.remove(i);
            false
        }
        None => true,
    });
}

/// Subpaths kept, repainted, moved (as many left on each side), added or removed;
/// whether every base subpath is kept (perhaps repainted).
///
/// Pairs by drawing identity before geometry: when both drawings have as many
/// subpaths, the `i`-th of each is the same scene item, so one that kept its paint
/// and changed its path data moved. Only then does equal path data pair two
/// differently painted subpaths as one repainted — otherwise a turn that puts one
/// of two equal shapes where the other was would read as two repaints.
fn paths<'a>(out: &mut Changes, base: Vec<&'a Piece>, variant: Vec<&'a Piece>) -> bool {
    let same_items = base.len() == variant.len();
    let mut base: Vec<(usize, &Piece)> = base.into_iter().enumerate().collect();
    let mut variant: Vec<(usize, &Piece)> = variant.into_iter().enumerate().collect();
    take_equal(&mut base, &mut variant, |a, b| a.1 == b.1);
    let left = base.len();
    if same_items {
        take_equal(&mut base, &mut variant, |a, b| {
            a.0 == b.0 && (&a.1.fill, &a.1.stroke) == (&b.1.fill, &b.1.stroke)
        });
    }
    let moved_in_place = left - base.len();
    add(out, Change::PathsMoved, moved_in_place as u32);
    let mut base: Vec<&Piece> = base.into_iter().map(|p| p.1).collect();
    let mut variant: Vec<&Piece> = variant.into_iter().map(|p| p.1).collect();
    // The same geometry painted differently.
    let mut repainted = Vec::new();
    base.retain(|a| match variant.iter().position(|b| b.d == a.d) {
        Some(i) => {
            repainted.push((*a, variant.remove(i)));
            false
        }
        None => true,
    });
    for (a, b) in repainted {
        add(out, Change::Fills, u32::from(a.fill != b.fill));
        add(out, Change::Strokes, u32::from(a.stroke != b.stroke));
    }
    // Redrawn elsewhere: left on both sides; a changed stroke width (resolution)
    // counts too.
    let moved = base.len().min(variant.len());
    add(out, Change::PathsMoved, moved as u32);
    if moved > 0 {
        fn paint<'p>(v: &[&'p Piece]) -> Vec<(&'p str, &'p str)> {
            let mut p: Vec<(&str, &str)> = v
                .iter()
                .map(|p| (p.fill.as_str(), p.stroke.as_str()))
                .collect();
            p.sort_unstable();
            p
        }
        let (a, b) = (paint(&base), paint(&variant));
        if base.len() == variant.len() {
            let fills = a.iter().zip(&b).filter(|(x, y)| x.0 != y.0).count();
            let strokes = a.iter().zip(&b).filter(|(x, y)| x.1 != y.1).count();
            add(out, Change::Fills, fills as u32);
            add(out, Change::Strokes, strokes as u32);
        }
    }
    add(out, Change::PathsAdded, (variant.len() - moved) as u32);
    add(out, Change::PathsRemoved, (base.len() - moved) as u32);
    base.is_empty() && moved_in_place == 0
}

/// Labels paired base to variant, cheapest pair first: the same text nearest
/// first; a label of another text only when `renamed` may be paired (the diagram
/// kept its paths and the axes rename labels: a letter renamed, a value restated)
/// and within [`NEAR`] px.
/// With `pairing.numbers`, a label whose text differs only in its numbers pairs
/// anywhere, its change a restated value rather than a renamed label.
/// A pair counts as moved, renamed and restyled as it differs; the rest are added
/// or removed.
fn labels(out: &mut Changes, base: &[Label], variant: &[Label], pairing: Pairing) {
    let masked = |l: &Label| crate::decimal::mask_numbers(&l.text);
    let same_but_numbers =
        |b: &Label, v: &Label| pairing.numbers && b.text != v.text && masked(b) == masked(v);
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, b) in base.iter().enumerate() {
        for (j, v) in variant.iter().enumerate() {
            let d = (b.x - v.x).hypot(b.y - v.y);
            if b.text == v.text {
                pairs.push((d, i, j));
            } else if same_but_numbers(b, v) || (pairing.renames && d <= NEAR) {
                pairs.push((d + RENAMED, i, j));
            }
        }
    }
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let (mut b_used, mut v_used) = (vec![false; base.len()], vec![false; variant.len()]);
    for (_, i, j) in pairs {
        if b_used[i] || v_used[j] {
            continue;
        }
        (b_used[i], v_used[j]) = (true, true);
        let (x, y) = (&base[i], &variant[j]);
        let moved = (x.x - y.x).abs() > SAME_PLACE || (x.y - y.y).abs() > SAME_PLACE;
        add(out, Change::LabelsMoved, u32::from(moved));
        let restated = same_but_numbers(x, y);
        add(out, Change::LabelValue, u32::from(restated));
        add(
            out,
            Change::LabelText,
            u32::from(x.text != y.text && !restated),
        );
        add(
            out,
            Change::LabelSize,
            u32::from(x.size != y.size || x.paint != y.paint),
        );
    }
    add(
        out,
        Change::LabelsAdded,
        v_used.iter().filter(|u| !**u).count() as u32,
    );
    add(
        out,
        Change::LabelsRemoved,
        b_used.iter().filter(|u| !**u).count() as u32,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(d: &str, fill: &str) -> Piece {
        Piece {
            d: d.into(),
            fill: fill.into(),
            stroke: String::new(),
        }
    }

    fn label(x: f64, text: &str) -> Label {
        Label {
            x,
            y: 0.0,
            text: text.into(),
            size: "16".into(),
            paint: String::new(),
        }
    }

    fn renames() -> Pairing {
        Pairing {
            renames: true,
            numbers: false,
        }
    }

    fn drawing(paths: Vec<Piece>, labels: Vec<Label>) -> Drawn {
        Drawn {
            width: "512".into(),
            height: "512".into(),
            paths,
            labels,
        }
    }

    #[test]
    fn words_below_a_grown_canvas_are_a_caption_not_labels() {
        let base = drawing(vec![piece("M 1", "a")], vec![label(1.0, "A")]);
        let mut variant = base.clone();
        variant.height = "600".into();
        variant.labels.push(Label {
            y: 540.0,
            ..label(8.0, "Compute the area.")
        });
        let got = drawn(&base, &variant, "stroke=#555555", renames());
        assert_eq!(got, [(Change::Caption, 1)].into_iter().collect());
        // Grown with no words below: another canvas. Words inside the old canvas:
        // labels added.
        variant.labels[1].y = 500.0;
        let got = drawn(&base, &variant, "stroke=#555555", renames());
        let want: Changes = [(Change::Canvas, 1), (Change::LabelsAdded, 1)]
            .into_iter()
            .collect();
        assert_eq!(got, want);
        // A wider canvas is not a band, whatever stands below.
        variant.labels[1].y = 540.0;
        variant.width = "600".into();
        let got = drawn(&base, &variant, "stroke=#555555", renames());
        assert_eq!(got, want);
    }

    #[test]
    fn each_kind_of_difference_is_counted_once() {
        let leader = || Piece {
            d: "M 9 9 L 8 8".into(),
            fill: "fill=none".into(),
            stroke: "stroke=#555555 stroke-width=1".into(),
        };
        let base = drawing(
            vec![piece("M 1", "a"), piece("M 2", "a"), piece("M 3", "a")],
            vec![label(1.0, "A"), label(2.0, "B"), label(3.0, "7")],
        );
        assert!(drawn(&base, &base, "stroke=#555555", renames()).is_empty());
        let variant = drawing(
            // M 1 and M 3 kept, M 2 repainted, a leader added.
            vec![
                piece("M 1", "a"),
                piece("M 2", "b"),
                piece("M 3", "a"),
                leader(),
            ],
            // A kept, B renamed C in place, 7 moved, 9 added.
            vec![
                label(1.0, "A"),
                label(2.0, "C"),
                label(5.0, "7"),
                label(90.0, "9"),
            ],
        );
        let got = drawn(&base, &variant, "stroke=#555555", renames());
        let want: Changes = [
            (Change::Fills, 1),
            (Change::Leaders, 1),
            (Change::LabelText, 1),
            (Change::LabelsMoved, 1),
            (Change::LabelsAdded, 1),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, want);
        // Axes that rename nothing: the other text is a label removed and one added.
        let got = drawn(&base, &variant, "stroke=#555555", Pairing::default());
        assert_eq!(got.get(&Change::LabelText), None);
        assert_eq!(
            (got[&Change::LabelsAdded], got[&Change::LabelsRemoved]),
            (2, 1)
        );
        // A diagram redrawn elsewhere (M 3 → M 4): labels pair by text only, so the
        // renamed one is one removed and one added.
        let mut turned = variant.clone();
        turned.paths[2] = piece("M 4", "a");
        turned.paths.pop();
        let got = drawn(&base, &turned, "stroke=#555555", renames());
        let want: Changes = [
            (Change::PathsMoved, 1),
            (Change::Fills, 1),
            (Change::LabelsMoved, 1),
            (Change::LabelsAdded, 2),
            (Change::LabelsRemoved, 1),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, want);
        // Only additions: nothing moved.
        let more = drawing(
            vec![
                piece("M 1", "a"),
                piece("M 2", "a"),
                piece("M 3", "a"),
                piece("M 5", "x"),
            ],
            base.labels.clone(),
        );
        let got = drawn(&base, &more, "stroke=#555555", renames());
        assert_eq!(got, [(Change::PathsAdded, 1)].into_iter().collect());
    }

    #[test]
    fn a_turn_that_swaps_two_equal_shapes_moves_them_and_repaints_nothing() {
        // Two equal squares, one above the other: turned 180°, the yellow one is
        // drawn where the pink one was and the other way round.
        let base = drawing(
            vec![piece("M 0 0 L 1 0", "yellow"), piece("M 0 1 L 1 1", "pink")],
            vec![],
        );
        let turned = drawing(
            vec![piece("M 0 1 L 1 1", "yellow"), piece("M 0 0 L 1 0", "pink")],
            vec![],
        );
        let got = drawn(&base, &turned, "stroke=#555555", renames());
        assert_eq!(got, [(Change::PathsMoved, 2)].into_iter().collect());
        // Swapping the paints in place is two repaints, not two moves.
        let swapped = drawing(
            vec![piece("M 0 0 L 1 0", "pink"), piece("M 0 1 L 1 1", "yellow")],
            vec![],
        );
        let got = drawn(&base, &swapped, "stroke=#555555", renames());
        assert_eq!(got, [(Change::Fills, 2)].into_iter().collect());
    }

    #[test]
    fn values_pair_labels_whose_numbers_alone_changed_wherever_they_moved() {
        let base = drawing(
            vec![piece("M 1", "a")],
            vec![label(1.0, "A"), label(2.0, "12"), label(3.0, "40°")],
        );
        // Redrawn: A moved, 12 → 15 and 40° → 35° far away, path moved.
        let variant = drawing(
            vec![piece("M 2", "a")],
            vec![label(1.5, "A"), label(200.0, "15"), label(300.0, "35°")],
        );
        let values = Pairing {
            renames: false,
            numbers: true,
        };
        let got = drawn(&base, &variant, "stroke=#555555", values);
        let want: Changes = [
            (Change::PathsMoved, 1),
            (Change::LabelsMoved, 3),
            (Change::LabelValue, 2),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, want);
        // A letter renamed is not a value restated: it stays an added and a
        // removed label.
        let renamed = drawing(
            vec![piece("M 2", "a")],
            vec![label(1.5, "B"), label(200.0, "15"), label(300.0, "35°")],
        );
        let got = drawn(&base, &renamed, "stroke=#555555", values);
        assert_eq!(
            (got[&Change::LabelsAdded], got[&Change::LabelsRemoved]),
            (1, 1)
        );
    }
}
