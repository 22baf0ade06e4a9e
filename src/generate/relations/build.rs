//! Relation items: a construction drawn for (run seed, index), checked against its
//! own coordinates, its choices shuffled, and written as a Problem.

use super::construct::{self, Construction};
use super::decide::{conditions_hold, decide};
use super::eye;
use super::item::{Asked, Mode, RelationItem, Subset};
use super::pool::{CANNOT_BE_INFERRED, Domain, RELATIONS, relation};
use super::sketch::{Built, Role, Sketch};
use super::text;
use super::visual::{self, Drawn};
use crate::generate::rng::{Rng, problem_seed};
use crate::generate::shapes::ShapeKind;
use crate::generate::{
    Angle, Answer, Contour, Diagram, Info, Labels, Params, Point, Problem, QuestionType, Ray,
    Segment, Shape, Side, SideKind, Status, Texts,
};

/// What `generate --task relations` makes. The CLI fills the same struct; a run
/// record (`output::record`) stores it as JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelationOptions {
    /// Run seed; item k's seed is derived from (seed, k).
    pub seed: u64,
    /// Only basic or only advanced items; `None` draws both (advanced where the
    /// drawn relation has a chain).
    pub subset: Option<Subset>,
    /// Only this domain's relations; `None` draws all three.
    pub domain: Option<Domain>,
    pub mode: Mode,
    /// The share of items whose answer is "Cannot be inferred" (0..=1).
    pub indeterminate: f64,
}

impl Default for RelationOptions {
    /// Both subsets, all domains, text mode, 15 % indeterminate: GeomRel adds
    /// indeterminate items "to some similar questions" without a published share;
    /// 15 % keeps "Cannot be inferred" a minority answer, near a uniform guess's
    /// share of one option in five.
    fn default() -> Self {
        RelationOptions {
            seed: 0,
            subset: None,
            domain: None,
            mode: Mode::Text,
            indeterminate: DEFAULT_INDETERMINATE,
        }
    }
}

/// The default share of indeterminate items.
pub const DEFAULT_INDETERMINATE: f64 = 0.15;

/// Most options a question offers ("Cannot be inferred" included): a family with
/// more choices (the six angle positions) offers the answer and three others.
pub(crate) const MAX_CHOICES: usize = 5;

/// The least angle (degrees) at a drawn polygon's corner.
const MIN_CORNER: f64 = 15.0;

/// Draws per item before giving up.
const MAX_ATTEMPTS: u32 = 1_000;

/// Why a relation item could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RelationError {
    #[error("the indeterminate share must be within 0..=1, got {0}")]
    BadShare(f64),
    /// No construction matches the options (none exists for that subset and domain).
    #[error("no {subset} construction for the {domain} domain")]
    NothingToDraw { subset: String, domain: String },
    /// Every draw was unusable (a construction that cannot succeed: a bug).
    #[error("relation item {index}: no usable draw in {attempts} attempts")]
    Exhausted { index: u64, attempts: u32 },
}

impl RelationOptions {
    /// Checks the options.
    pub(crate) fn validate(&self) -> Result<(), RelationError> {
        if !(0.0..=1.0).contains(&self.indeterminate) {
            return Err(RelationError::BadShare(self.indeterminate));
        }
        if self.eligible(false).is_empty() {
            return Err(RelationError::NothingToDraw {
                subset: self.subset.map_or("basic or advanced".into(), |s| {
                    format!("{s:?}").to_lowercase()
                }),
                domain: self
                    .domain
                    .map_or("any".into(), |d| format!("{d:?}").to_lowercase()),
            });
        }
        Ok(())
    }

    /// Whether some construction these options draw has an indeterminate version
    /// in their mode: where none has (the visual mode's advanced chains, say), an
    /// item drawn to be indeterminate is made determinate, and `indeterminate`
    /// changes nothing.
    pub(crate) fn can_be_indeterminate(&self) -> bool {
        !self.eligible(true).is_empty()
    }

    /// The constructions these options draw from (for an indeterminate item,
    /// those with a key this mode can drop).
    fn eligible(&self, indeterminate: bool) -> Vec<&'static Construction> {
        construct::all()
            .filter(|c| self.subset.is_none_or(|s| s == c.subset))
            .filter(|c| {
                self.domain
                    .is_none_or(|d| relation(c.relation).is_some_and(|r| r.domain == d))
            })
            .filter(|c| !indeterminate || capable(c, self.mode))
            .collect()
    }
}

/// Relation item `index` of the run described by `opts`.
pub fn generate_relation(opts: &RelationOptions, index: u64) -> Result<Problem, RelationError> {
    opts.validate()?;
    let seed = problem_seed(opts.seed, index);
    // Per-item choices come from their own stream, so failed draws cannot bias them.
    let mut pick = Rng::for_attempt(seed, u32::MAX);
    let mut indeterminate = pick.chance(opts.indeterminate);
    let mut eligible = opts.eligible(indeterminate);
    if eligible.is_empty() {
        indeterminate = false;
        eligible = opts.eligible(false);
    }
    let id = format!("r{}-{index:06}", opts.seed);
    let mut attempt = 0;
    while !eligible.is_empty() {
        // A relation uniformly among those with a construction, then one of its
        // constructions.
        let mut names: Vec<&str> = RELATIONS.iter().map(|r| r.name).collect();
        names.retain(|n| eligible.iter().any(|c| c.relation == *n));
        let name = names[pick.index(names.len())];
        let mine: Vec<&Construction> = (eligible.iter().copied())
            .filter(|c| c.relation == name)
            .collect();
        let construction = mine[pick.index(mine.len())];
        for _ in 0..MAX_ATTEMPTS {
            let mut rng = Rng::for_attempt(seed, attempt);
            attempt += 1;
            let Ok(built) = draw(opts.mode, construction, indeterminate, &mut rng) else {
                continue;
            };
            if let Ok(p) = finish(opts, construction, built, &id, seed, &mut rng) {
                return Ok(p);
            }
        }
        // None of its draws can be drawn in this mode (a visual item whose
        // perpendicular lines cross at no named point): another construction.
        eligible.retain(|c| !std::ptr::eq(*c, construction));
    }
    Err(RelationError::Exhausted {
        index,
        attempts: attempt,
    })
}

/// Values variant `k` of relation item `p` (`values=k`): the same construction
/// drawn again with other coordinates, made and checked as any item is (its
/// conditions hold, its answer re-decided, its figure not misleading). The item's
/// generation is run again from its seed to find the draw that made it; the new
/// coordinates come from a stream of (item seed, k, try), and everything drawn
/// after them (the key an indeterminate item drops, the decoys, the options'
/// order) from the base draw's own stream, so the same choices fall the same way.
/// A redraw is kept with the base's relation, answer, point names, options in the
/// base's order and statements (its question equal to the base's with every
/// number masked). `None` when `p` is no relation item, its seed does not make it
/// again, or no redraw in [`crate::generate::rewrite::values::TRIES`] keeps all
/// of that.
pub(crate) fn relation_with_values(p: &Problem, k: u64) -> Option<Problem> {
    let item = p.relation.as_deref()?;
    let c = construct::all().find(|c| format!("{}/{}", c.relation, c.name) == item.construction)?;
    let opts = RelationOptions {
        mode: item.mode,
        ..RelationOptions::default()
    };
    let indeterminate = item.unsettled.is_some();
    // The base's draw: the stream as it stood after the construction was drawn.
    let after_build = (0..MAX_ATTEMPTS * 20).find_map(|attempt| {
        let mut rng = Rng::for_attempt(p.seed, attempt);
        let det = (c.build)(&mut rng)?;
        let after = rng.clone();
        let built = complete(item.mode, det, indeterminate, &mut rng).ok()?;
        let q = finish(&opts, c, built, &p.id, p.seed, &mut rng).ok()?;
        (q == *p).then_some(after)
    })?;
    let masked = |q: &Problem| crate::decimal::mask_numbers(&q.question.coordinate);
    let names =
        |q: &Problem| -> Vec<String> { q.diagram.points.iter().map(|x| x.name.clone()).collect() };
    for attempt in 0..crate::generate::rewrite::values::TRIES {
        let Some(det) = (c.build)(&mut Rng::for_values(p.seed, k, attempt)) else {
            continue;
        };
        let mut rng = after_build.clone();
        let Ok(built) = complete(item.mode, det, indeterminate, &mut rng) else {
            continue;
        };
        let Ok(mut q) = finish(&opts, c, built, &p.id, p.seed, &mut rng) else {
            continue;
        };
        // The options put back in the base's order (drawn anew, they may differ).
        let kept = super::rewrite::reorder_choices(&mut q, item.choices.clone()).is_some()
            && q.answer == p.answer
            && q.relation.as_deref().is_some_and(|i| {
                (&i.relation, &i.unsettled, &i.chain)
                    == (&item.relation, &item.unsettled, &item.chain)
            })
            && names(&q) == names(p)
            && q.diagram != p.diagram
            && masked(&q) == masked(p);
        if kept {
            return Some(q);
        }
    }
    None
}

/// Whether construction `c` has an indeterminate version in `mode`: at least
/// [`CAPABLE`] of its first [`PROBES`] draws make one (every construction but
/// those settled by naming alone, a quadrilateral's angles; in the visual mode,
/// those whose relation a figure can seem to show and whose key a mark carries).
/// Read once, from fixed seeds.
pub(super) fn capable(c: &Construction, mode: Mode) -> bool {
    static TABLE: std::sync::OnceLock<Vec<[bool; 2]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        construct::all()
            .map(|c| {
                Mode::ALL.map(|mode| {
                    let opts = RelationOptions {
                        mode,
                        ..Default::default()
                    };
                    let mut made = 0;
                    for k in 0..PROBES {
                        let mut rng = Rng::from_u64(k, 0x0063_6170_6162_6c65); // "capable"
                        let ok = draw(mode, c, true, &mut rng)
                            .and_then(|b| finish(&opts, c, b, "probe", k, &mut rng))
                            .is_ok();
                        made += usize::from(ok);
                        if made >= CAPABLE {
                            return true;
                        }
                    }
                    false
                })
            })
            .collect()
    });
    let m = Mode::ALL.iter().position(|x| *x == mode).unwrap_or(0);
    construct::all()
        .position(|x| std::ptr::eq(x, c))
        .is_some_and(|i| table[i][m])
}

/// Draws tried, and made, for [`capable`].
const PROBES: u64 = 64;
const CAPABLE: usize = 3;

/// One draw of construction `c`: determinate, or made indeterminate by dropping
/// one of its keys; in the text mode with its decoys (the dropped key's
/// replacement, and the extras every text item gets).
fn draw(mode: Mode, c: &Construction, indeterminate: bool, rng: &mut Rng) -> Result<Built, Reject> {
    let det = (c.build)(rng).ok_or("construction")?;
    complete(mode, det, indeterminate, rng)
}

/// A construction's draw made the item's: a key dropped for an indeterminate
/// one, and the text mode's decoys.
fn complete(mode: Mode, det: Built, indeterminate: bool, rng: &mut Rng) -> Result<Built, Reject> {
    let mut built = if indeterminate {
        if !super::indeterminate::can_drop(&det, mode) {
            return Err("no key to drop");
        }
        let keys = super::indeterminate::droppable(&det.sketch, mode);
        let key = *keys.get(rng.index(keys.len().max(1))).ok_or("no key")?;
        let dropped = det.sketch.conditions[key].clone();
        let mut b = super::indeterminate::make(&det, key, mode, rng)?;
        if mode == Mode::Text {
            let asked = super::indeterminate::asked_names(&b.asked);
            super::decoy::replace(&mut b.sketch, key, &dropped, &asked, rng)
                .ok_or("replacing the key")?;
        }
        b
    } else {
        det
    };
    if mode == Mode::Text {
        let asked = super::indeterminate::asked_names(&built.asked);
        super::decoy::extras(&mut built.sketch, &asked, rng).ok_or("extras")?;
    }
    Ok(built)
}

/// Why a draw was not used (the generator draws again; the tests count them).
type Reject = &'static str;

/// Problems `start..start + count`, in parallel, in index order.
pub fn generate_relations(
    opts: &RelationOptions,
    start: u64,
    count: u64,
) -> Vec<Result<Problem, RelationError>> {
    use rayon::prelude::*;
    (start..start + count)
        .into_par_iter()
        .map(|i| generate_relation(opts, i))
        .collect()
}

/// Whether the figure of `built` shows what it must, choices `offered` given: a
/// determinate item's answer exactly and every other offered choice clearly not;
/// an indeterminate text item's relation clearly not, and no choice in doubt; an
/// indeterminate visual item's relation all but exactly (it looks true, no mark
/// gives it). Angles asked about are clearly angles, and no point lies near a
/// line or circle it is not on.
fn looks_right(built: &Built, mode: Mode, offered: &[String]) -> Result<(), Reject> {
    let s = &built.sketch;
    let looks = eye::appearances(s, &built.asked);
    let of = |o: &str| looks.iter().find(|a| a.option == o);
    let others = |but: &str| -> Vec<Option<&eye::Appearance>> {
        (offered.iter())
            .filter(|o| o.as_str() != but && o.as_str() != CANNOT_BE_INFERRED)
            .map(|o| of(o))
            .collect()
    };
    match built.unsettled {
        None => {
            if !of(built.answer).is_some_and(|a| a.exact) {
                return Err("answer not shown");
            }
            if !(others(built.answer).iter()).all(|a| a.is_some_and(|a| a.clearly_false())) {
                return Err("another choice looks true");
            }
        }
        Some(would_be) => {
            let w = of(would_be).ok_or("no such choice")?;
            let relation = match mode {
                Mode::Text => w.clearly_false(),
                Mode::Visual => !w.exact && w.looks(eye::LOOKS),
            };
            if !relation {
                return Err("the open relation shown");
            }
            if !(others(would_be).iter()).all(|a| a.is_some_and(|a| a.unambiguous())) {
                return Err("a choice in doubt");
            }
        }
    }
    let angles_clear = match &built.asked {
        Asked::AngleMeasures { a, b } | Asked::AnglePositions { a, b } => [a, b].iter().all(|x| {
            let m = super::sketch::angle_at(s.at(&x[0]), s.at(&x[1]), s.at(&x[2]));
            (eye::CLEAR..=180.0 - eye::CLEAR).contains(&m)
        }),
        _ => true,
    };
    if !angles_clear {
        return Err("an asked angle nearly flat");
    }
    // Polygons stay polygons: every corner a clear angle.
    let corners_clear = s.polygons.iter().all(|(_, v)| {
        (0..v.len()).all(|k| {
            let at = |i: usize| s.points[v[i % v.len()]];
            let m = super::sketch::angle_at(at(k + v.len() - 1), at(k), at(k + 1));
            (MIN_CORNER..=180.0 - MIN_CORNER).contains(&m)
        })
    });
    if !corners_clear {
        return Err("a polygon nearly flat");
    }
    if eye::near_miss(s).is_some() {
        return Err("near miss");
    }
    if s.spread() < super::sketch::MIN_SPREAD {
        return Err("crowded");
    }
    Ok(())
}

/// The item, when the coordinates give the construction's answer (or, for an
/// indeterminate one, anything but the answer its conditions no longer settle)
/// and the figure shows it as [`looks_right`] asks.
fn finish(
    opts: &RelationOptions,
    c: &Construction,
    built: Built,
    id: &str,
    seed: u64,
    rng: &mut Rng,
) -> Result<Problem, Reject> {
    let rel = relation(c.relation).ok_or("no relation")?;
    if !conditions_hold(&built.sketch) {
        return Err("a condition fails");
    }
    let drawn = decide(&built.sketch, &built.asked);
    match built.unsettled {
        Some(would_be) if drawn == Some(would_be) => return Err("the open relation holds"),
        Some(_) => {}
        None if drawn != Some(built.answer) => return Err("another answer holds"),
        None => {}
    }
    let marks = match opts.mode {
        Mode::Text => Drawn::default(),
        Mode::Visual => visual::draw(&built.sketch, &built.sketch.conditions).ok_or("marks")?,
    };
    let choices = choices(rel.family.choices(), built.answer, built.unsettled, rng);
    looks_right(&built, opts.mode, &choices)?;
    let letter_index = (choices.iter())
        .position(|c| c == built.answer)
        .ok_or("answer not offered")?;
    let letter = text::letter(letter_index);
    let s = &built.sketch;
    let picture_decides = match opts.mode {
        Mode::Visual => true,
        Mode::Text => {
            built.unsettled.is_none()
                && (s.conditions.iter().zip(&s.roles))
                    .all(|(c, r)| *r != Role::Key || !super::indeterminate::marked(c))
        }
    };
    let item = RelationItem {
        relation: rel.name.to_string(),
        domain: rel.domain,
        subset: c.subset,
        mode: opts.mode,
        construction: format!("{}/{}", c.relation, c.name),
        chain: if c.chain.is_empty() {
            vec![c.relation.to_string()]
        } else {
            c.chain.iter().map(|s| s.to_string()).collect()
        },
        conditions: s.conditions.clone(),
        asked: built.asked.clone(),
        choices,
        unsettled: built.unsettled.map(String::from),
        picture_decides,
    };
    let question = text::question_for(&item);
    let cot = text::solution(&s.reasons, letter, built.answer);
    let both = |s: String| Texts {
        coordinate: s.clone(),
        individual: s,
    };
    Ok(Problem {
        id: id.to_string(),
        seed,
        params: Params {
            depth: item.chain.len() as u8,
            branch_prob: 0.0,
            distractors: false,
            variablized: 0.0,
            info: match opts.mode {
                Mode::Text => Info::Text,
                Mode::Visual => Info::Image,
            },
            question_type: QuestionType::Relation,
            standard_only: false,
            phrasing: 0,
            backward: false,
            modality: crate::generate::Modality::Base,
        },
        question: both(question),
        cot: both(cot),
        answer: Answer::Choice(letter),
        diagram: diagram(&built, &marks),
        steps: Vec::new(),
        relation: Some(Box::new(item)),
        caption: None,
    })
}

/// The family's choices for an item answering `answer`: at most [`MAX_CHOICES`]
/// with "Cannot be inferred", the answer always among them (and an indeterminate
/// item's unsettled relation, which its full conditions would give), in a seeded
/// order.
fn choices(family: &[&str], answer: &str, unsettled: Option<&str>, rng: &mut Rng) -> Vec<String> {
    let first = unsettled.unwrap_or(answer);
    let mut others: Vec<&str> = family.iter().copied().filter(|c| *c != first).collect();
    rng.shuffle(&mut others);
    let mut out: Vec<&str> = Vec::with_capacity(MAX_CHOICES);
    if family.contains(&first) {
        out.push(first);
    }
    out.extend(others.into_iter().take(MAX_CHOICES - 1 - out.len()));
    out.push(CANNOT_BE_INFERRED);
    rng.shuffle(&mut out);
    out.into_iter().map(String::from).collect()
}

/// The sketch as a Diagram `compose` draws: every point named, segments as rays,
/// polygons and circles as filled shapes, marked angles with their arcs.
fn diagram(b: &Built, drawn: &Drawn) -> Diagram {
    let s = &b.sketch;
    let points = (s.names.iter().zip(&s.points))
        .map(|(n, p)| Point {
            name: n.clone(),
            x: p[0],
            y: p[1],
        })
        .collect();
    let shapes = shapes(s);
    let angles = angles(s, drawn);
    let sides = sides(s, drawn);
    Diagram {
        points,
        shapes,
        sides,
        angles,
        measures: Vec::new(),
        rays: s.segments.iter().map(|&points| Ray { points }).collect(),
        aux: Vec::new(),
        right_angles: drawn.right_angles.clone(),
        marks: drawn.marks.clone(),
        frame: None,
    }
}

/// The polygons and circles as filled shapes, coloured in turn.
fn shapes(s: &Sketch) -> Vec<Shape> {
    let colours = crate::generate::COLOURS;
    let mut shapes = Vec::new();
    for (k, (kind, v)) in s.polygons.iter().enumerate() {
        let corners: Vec<[f64; 2]> = v.iter().map(|&i| s.points[i]).collect();
        let name: String = v.iter().map(|&i| s.names[i].as_str()).collect();
        let colour = colours[k % colours.len()].to_string();
        shapes.push(Shape {
            kind: *kind,
            name: Texts {
                coordinate: name,
                individual: format!("{colour} {}", kind.noun()),
            },
            colour,
            vertices: v.clone(),
            outline: vec![Contour {
                start: corners[0],
                segments: (corners[1..].iter().chain(std::iter::once(&corners[0])))
                    .map(|&to| Segment::Line { to })
                    .collect(),
            }],
        });
    }
    for (c, r) in &s.circles {
        let o = s.points[*c];
        let (a, z) = ([o[0] + r, o[1]], [o[0] - r, o[1]]);
        let arc = |to| Segment::Arc {
            to,
            center: o,
            radius: *r,
            large_arc: false,
            sweep: true,
        };
        let colour = colours[(s.polygons.len() + shapes.len()) % colours.len()].to_string();
        shapes.push(Shape {
            kind: ShapeKind::Circle,
            name: Texts {
                coordinate: format!("circle {}", s.names[*c]),
                individual: format!("{colour} circle"),
            },
            colour,
            vertices: Vec::new(),
            outline: vec![Contour {
                start: a,
                segments: vec![arc(z), arc(a)],
            }],
        });
    }
    shapes
}

/// The marked and the labelled angles, each once, with its arc.
fn angles(s: &Sketch, drawn: &Drawn) -> Vec<Angle> {
    // The marked angles, then the labelled ones not marked already; a right angle
    // has its own mark instead.
    let same =
        |x: &[usize; 3], y: &[usize; 3]| x[1] == y[1] && (x == y || (x[0] == y[2] && x[2] == y[0]));
    let mut arcs: Vec<([usize; 3], Option<String>)> = Vec::new();
    for a in (s.arcs.iter()).chain(drawn.angle_labels.iter().map(|(a, _)| a)) {
        if arcs.iter().any(|(b, _)| same(a, b)) || drawn.right_angles.iter().any(|r| same(a, r)) {
            continue;
        }
        let label = (drawn.angle_labels.iter())
            .find(|(b, _)| same(a, b))
            .map(|(_, t)| t.clone());
        arcs.push((*a, label));
    }
    (arcs.into_iter())
        .map(|([a, v, c], label)| {
            let name = format!("∠{}{}{}", s.names[a], s.names[v], s.names[c]);
            Angle {
                points: [a, v, c],
                shape: None,
                value: super::sketch::angle_at(s.points[a], s.points[v], s.points[c]),
                name: Texts {
                    coordinate: name.clone(),
                    individual: name,
                },
                status: Status::Given,
                shown: label.is_some(),
                expr: None,
                label: Labels {
                    coordinate: label,
                    individual: None,
                },
            }
        })
        .collect()
}

/// The labelled segments as sides, each with its label.
fn sides(s: &Sketch, drawn: &Drawn) -> Vec<Side> {
    (drawn.segment_labels.iter())
        .map(|(points, text)| {
            let name = format!("{}{}", s.names[points[0]], s.names[points[1]]);
            Side {
                points: *points,
                kind: SideKind::Edge,
                shapes: Vec::new(),
                value: super::sketch::dist(s.points[points[0]], s.points[points[1]]),
                name: Texts {
                    coordinate: name.clone(),
                    individual: name,
                },
                status: Status::Given,
                shown: true,
                expr: None,
                label: Labels {
                    coordinate: Some(text.clone()),
                    individual: None,
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every construction yields items in every version it has (determinate and
    /// indeterminate, text and visual), and its draws are mostly usable: one whose
    /// draws keep failing the checks has a bug. Prints each one's rates.
    #[test]
    fn every_construction_draws() {
        let mut report = Vec::new();
        let mut table = Vec::new();
        for c in construct::all() {
            let mut row = format!("{}/{}:", c.relation, c.name);
            for (indeterminate, mode) in [
                (false, Mode::Text),
                (true, Mode::Text),
                (false, Mode::Visual),
                (true, Mode::Visual),
            ] {
                let has = !indeterminate || capable(c, mode);
                if !has {
                    row.push_str(" –");
                }
                let opts = RelationOptions {
                    mode,
                    ..Default::default()
                };
                let mut ok = 0;
                let mut why: std::collections::BTreeMap<Reject, usize> = Default::default();
                for k in 0..200u64 {
                    let mut rng = Rng::for_attempt(k, 7);
                    let r = draw(mode, c, indeterminate, &mut rng)
                        .and_then(|b| finish(&opts, c, b, "x", k, &mut rng));
                    match r {
                        Ok(_) => ok += 1,
                        Err(e) => *why.entry(e).or_default() += 1,
                    }
                }
                if has {
                    row.push_str(&format!(" {ok}"));
                }
                if ok < 100 && (has || mode == Mode::Text) {
                    row.push_str(&format!(" {why:?}"));
                }
                if !has {
                    continue;
                }
                let least = if indeterminate { 5 } else { 30 };
                if ok < least {
                    report.push(format!(
                        "{}/{} indeterminate={indeterminate} {mode:?}: {ok}/200",
                        c.relation, c.name
                    ));
                }
            }
            table.push(row);
        }
        eprintln!(
            "usable draws of 200 (text, text CBI, visual, visual CBI):\n{}",
            table.join("\n")
        );
        assert!(report.is_empty(), "{}", report.join("\n"));
    }
}
