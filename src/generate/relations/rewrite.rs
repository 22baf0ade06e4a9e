//! GeomRel's two robustness operations on a relation item (§2.5): relabelling
//! (every point renamed, in the picture and the texts alike) and unrelated
//! information (a new point on a drawn segment, stated, that no relation needs).
//! The answer, its letter and the choices stay.

use super::item::{Asked, Condition, FigureRef, Mode};
use super::text;
use crate::generate::rng::Rng;
use crate::generate::{Info, Modality, Problem};

/// Keys the relabelling and unrelated streams apart from the generator's.
const TAG_RELABEL: u64 = 0x7265_6c72_656c_6162; // "relrelab"
const TAG_UNRELATED: u64 = 0x7265_6c75_6e72_656c; // "relunrel"

/// `p` with its point names permuted by a seeded single cycle (every point gets
/// another letter), in the diagram, the conditions, the asked elements and both
/// texts; the answer and the choices unchanged. `p` unchanged when it is not a
/// relation item.
pub(crate) fn relabel_relation(p: &Problem, seed: u64) -> Problem {
    let mut q = p.clone();
    let Some(item) = q.relation.as_deref_mut() else {
        return q;
    };
    let old: Vec<String> = q.diagram.points.iter().map(|x| x.name.clone()).collect();
    let mut new = old.clone();
    Rng::from_u64(seed, TAG_RELABEL).cyclic_shuffle(&mut new);
    let to = |n: &str| -> String {
        n.chars()
            .map(|c| {
                let s = c.to_string();
                old.iter()
                    .position(|o| *o == s)
                    .map_or(s, |i| new[i].clone())
            })
            .collect()
    };
    for (pt, n) in q.diagram.points.iter_mut().zip(&new) {
        pt.name = n.clone();
    }
    for s in &mut q.diagram.shapes {
        // "ABC" or "circle O": only the all-capital words are names.
        s.name.coordinate = rename_words(&s.name.coordinate, &to);
    }
    for a in &mut q.diagram.angles {
        a.name.coordinate = rename_words(&a.name.coordinate, &to);
        a.name.individual = a.name.coordinate.clone();
    }
    for s in &mut q.diagram.sides {
        s.name.coordinate = rename_words(&s.name.coordinate, &to);
        s.name.individual = s.name.coordinate.clone();
    }
    for c in &mut item.conditions {
        rename_condition(c, &to);
    }
    rename_asked(&mut item.asked, &to);
    refresh_question(&mut q);
    // The solution's reasons name points as all-capital words; its closing
    // sentence names the answer's letter, which stays.
    let cot = q.cot.coordinate.clone();
    let (reasons, close) = cot
        .rsplit_once(" So the answer is ")
        .map_or((cot.as_str(), None), |(r, c)| (r, Some(c)));
    let mut renamed = rename_words(reasons, &to);
    if let Some(c) = close {
        renamed = format!("{renamed} So the answer is {c}");
    }
    q.cot.coordinate = renamed.clone();
    q.cot.individual = renamed;
    q
}

/// `c` with its point names renamed by `to`.
fn rename_condition(c: &mut Condition, to: &impl Fn(&str) -> String) {
    let names = |l: &mut [String]| l.iter_mut().for_each(|n| *n = to(n));
    match c {
        Condition::Parallel { a, b }
        | Condition::Perpendicular { a, b }
        | Condition::EqualLengths { a, b } => {
            names(a);
            names(b);
        }
        Condition::OnLine { point, line: l }
        | Condition::Between { point, ends: l }
        | Condition::Midpoint { point, ends: l } => {
            *point = to(point);
            names(l);
        }
        Condition::SameSide { points, line: l } | Condition::OppositeSides { points, line: l } => {
            names(points);
            names(l);
        }
        Condition::AngleValue { angle, .. } => names(angle),
        Condition::EqualAngles { a, b } => {
            names(a);
            names(b);
        }
        Condition::Length { segment, .. } => names(segment),
        Condition::OnCircle { point, center, .. } => {
            *point = to(point);
            *center = to(center);
        }
        Condition::Tangent {
            line: l, center, ..
        } => {
            names(l);
            *center = to(center);
        }
    }
}

/// `asked` with its point names renamed by `to`.
fn rename_asked(asked: &mut Asked, to: &impl Fn(&str) -> String) {
    let names = |l: &mut [String]| l.iter_mut().for_each(|n| *n = to(n));
    let figure = |f: &mut FigureRef| match f {
        FigureRef::Polygon { vertices } => names(vertices),
        FigureRef::Circle { center, .. } => *center = to(center),
    };
    match asked {
        Asked::Points { points } => names(points),
        Asked::PointLine { point, line: l } => {
            *point = to(point);
            names(l);
        }
        Asked::Lines { a, b } => {
            names(a);
            names(b);
        }
        Asked::AngleMeasures { a, b } | Asked::AnglePositions { a, b } => {
            names(a);
            names(b);
        }
        Asked::QuadrilateralAngles { quad, a, b } => {
            names(quad);
            *a = to(a);
            *b = to(b);
        }
        Asked::PointFigure { point, figure: f } => {
            *point = to(point);
            figure(f);
        }
        Asked::LineCircle { line: l, circle: f } => {
            names(l);
            figure(f);
        }
        Asked::Segment { segment, figure: f } => {
            names(segment);
            figure(f);
        }
    }
}

/// `text` with every word of capital letters only ("AB", "∠ABC"'s "ABC", "O")
/// renamed letter by letter.
fn rename_words(text: &str, to: &dyn Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() && word.chars().all(|c| c.is_ascii_uppercase()) {
            out.push_str(&to(word));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The question written again from the item's conditions, asked elements and
/// choices, as its mode states them.
fn refresh_question(q: &mut Problem) {
    let Some(item) = q.relation.as_deref() else {
        return;
    };
    let question = text::question_for(item);
    q.question.coordinate = question.clone();
    q.question.individual = question;
}

/// `p`'s text-only version (`modality=text-only`): every condition stated as the
/// text mode states them (a visual item's drawn ones too), its solution's sentence
/// about a key no mark gives restated for words, and no image; the answer, its
/// letter and the choices unchanged. `None` when `p` is not a relation item.
pub(crate) fn text_only_relation(p: &Problem) -> Option<Problem> {
    let mut q = p.clone();
    let item = q.relation.as_deref_mut()?;
    if item.mode == Mode::Visual {
        item.mode = Mode::Text;
        for cot in [&mut q.cot.coordinate, &mut q.cot.individual] {
            *cot = super::indeterminate::reworded_for_text(cot);
        }
    }
    // No picture decides anything: there is none.
    item.picture_decides = false;
    q.params.info = Info::Text;
    q.params.modality = Modality::TextOnly;
    refresh_question(&mut q);
    Some(q)
}

/// `p`'s options rotated cyclically by `k` places (`choices=k`): the option of
/// letter i becomes letter (i + k) mod n ([`reorder_choices`]). `None` when `p`
/// has no options (a GeomVerse problem) or no more than `k` (k = n is the base
/// again, and a larger k repeats a smaller one), so an item of n options has the
/// n − 1 rotations `1..n`.
pub(crate) fn rotate_choices(p: &Problem, k: u64) -> Option<Problem> {
    let item = p.relation.as_deref()?;
    let n = item.choices.len();
    let shift = usize::try_from(k).ok().filter(|k| (1..n).contains(k))?;
    let mut choices = item.choices.clone();
    choices.rotate_right(shift);
    let mut q = p.clone();
    reorder_choices(&mut q, choices)?;
    Some(q)
}

/// `q`'s options put in the order `choices` (the same options): the answer's
/// letter follows its text, and the question's option list and the solution's
/// closing letter are written again; picture, conditions and reasons unchanged.
/// `None` when `q` has no options or `choices` are other options.
pub(crate) fn reorder_choices(q: &mut Problem, choices: Vec<String>) -> Option<()> {
    let item = q.relation.as_deref_mut()?;
    let crate::generate::Answer::Choice(letter) = q.answer else {
        return None;
    };
    let text = item
        .choices
        .get((letter as usize).checked_sub('A' as usize)?)?;
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    };
    if sorted(&item.choices) != sorted(&choices) {
        return None;
    }
    let new = text::letter(choices.iter().position(|c| c == text)?);
    item.choices = choices;
    q.answer = crate::generate::Answer::Choice(new);
    // "… So the answer is B. Parallel.": the letter after the last "So the answer is".
    const CLOSE: &str = "So the answer is ";
    let cot = q.cot.coordinate.clone();
    let at = cot.rfind(CLOSE)?;
    let said = cot[at + CLOSE.len()..].split_once(". ")?.1;
    let cot = format!("{}{CLOSE}{new}. {said}", &cot[..at]);
    q.cot.coordinate = cot.clone();
    q.cot.individual = cot;
    refresh_question(q);
    Some(())
}

/// `p` with `count` new points, each on a drawn segment (a segment or a polygon's
/// side; a different one each while there are enough, seeded), named with unused
/// letters and stated ("Point X lies on segment AB.") among the conditions at a
/// seeded place: information no relation needs, on determinate and indeterminate
/// items alike (a new point only follows its segment). Each keeps its distance
/// from every point and from every drawn segment it is not on. `None` when
/// there is no room for that many, or `p` is not a relation item.
pub(crate) fn with_unrelated(p: &Problem, count: u8) -> Option<Problem> {
    let mut q = p.clone();
    let mut segments: Vec<[usize; 2]> = q.diagram.rays.iter().map(|r| r.points).collect();
    for s in &q.diagram.shapes {
        let v = &s.vertices;
        for k in 0..v.len() {
            let e = [v[k], v[(k + 1) % v.len()]];
            if v.len() >= 3 && !segments.iter().any(|x| *x == e || *x == [e[1], e[0]]) {
                segments.push(e);
            }
        }
    }
    let item = q.relation.as_deref_mut()?;
    if segments.is_empty() {
        return None;
    }
    let mut rng = Rng::from_u64(p.seed, TAG_UNRELATED ^ u64::from(count));
    // The diagram's size, which a new point keeps its distance by.
    let [lo, hi] = q.diagram.bounds(crate::generate::ARC_SAMPLES_PER_TURN)?;
    let diagonal = (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
    let room = MIN_GAP * diagonal;
    // The drawn circles (centre, radius), which a new point keeps off as well.
    let circles: Vec<([f64; 2], f64)> = (q.diagram.shapes.iter())
        .flat_map(|s| s.outline.iter().flat_map(|c| &c.segments))
        .filter_map(|sg| match sg {
            crate::generate::Segment::Arc { center, radius, .. } => Some((*center, *radius)),
            crate::generate::Segment::Line { .. } => None,
        })
        .collect();
    let mut order: Vec<usize> = (0..segments.len()).collect();
    rng.shuffle(&mut order);
    // Each segment once, then each again, until `count` are placed.
    let tries = order.iter().chain(order.iter()).copied();
    let mut placed = 0;
    for k in tries {
        if placed == count {
            break;
        }
        let [a, b] = segments[k];
        let (pa, pb) = (q.diagram.xy(a), q.diagram.xy(b));
        let clear = |at: [f64; 2]| {
            let crowded =
                (q.diagram.points.iter()).any(|x| (x.x - at[0]).hypot(x.y - at[1]) < room);
            let near = segments.iter().any(|&[c, d]| {
                let (pc, pd) = (q.diagram.xy(c), q.diagram.xy(d));
                let dd = segment_distance(at, pc, pd);
                [c, d] != [a, b] && [d, c] != [a, b] && dd > 1e-9 * diagonal && dd < NEAR * diagonal
            });
            let on_circle = (circles.iter())
                .any(|(c, r)| ((at[0] - c[0]).hypot(at[1] - c[1]) - r).abs() < NEAR * diagonal);
            !crowded && !near && !on_circle
        };
        // A few places along the segment, the first clear.
        let free = (0..TRIES)
            .map(|_| 0.2 + 0.6 * rng.unit())
            .map(|t| [pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t])
            .find(|at| clear(*at));
        let Some(at) = free else {
            continue;
        };
        let name = ('A'..='Z')
            .filter(|c| *c != 'O' && *c != 'I')
            .map(String::from)
            .find(|n| !q.diagram.points.iter().any(|x| &x.name == n))?;
        q.diagram.points.push(crate::generate::Point {
            name: name.clone(),
            x: at[0],
            y: at[1],
        });
        placed += 1;
        let ends = [
            q.diagram.points[a].name.clone(),
            q.diagram.points[b].name.clone(),
        ];
        let at = rng.index(item.conditions.len() + 1);
        item.conditions
            .insert(at, Condition::Between { point: name, ends });
    }
    if placed < count {
        return None;
    }
    refresh_question(&mut q);
    Some(q)
}

/// The distance from `p` to the segment `a`–`b`.
fn segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = (dx * dx + dy * dy).max(f64::MIN_POSITIVE);
    let t = (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0);
    (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy)
}

/// How near (a share of the diagram's diagonal) a new point may come to a drawn
/// segment it is not on: no nearer than a reader would take it to lie on it.
const NEAR: f64 = 0.03;

/// How far (a share of the diagram's diagonal) a new point keeps from the others.
const MIN_GAP: f64 = 0.07;

/// Places tried along one segment.
const TRIES: usize = 6;
