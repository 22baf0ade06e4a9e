//! Relation items: a construction drawn for (run seed, index), checked against its
//! own coordinates, its choices shuffled, and written as a Problem.

use super::construct::{self, Construction};
use super::decide::{conditions_hold, decide};
use super::item::{Mode, RelationItem, Subset};
use super::pool::{CANNOT_BE_INFERRED, Domain, RELATIONS, relation};
use super::sketch::Built;
use super::text;
use super::visual::{self, Drawn};
use crate::generate::rng::{Rng, problem_seed};
use crate::generate::shapes::ShapeKind;
use crate::generate::{
    Angle, Answer, Contour, Diagram, Info, Labels, Params, Point, Problem, QuestionType, Ray,
    Segment, Shape, Side, SideKind, Status, Texts,
};

/// What `generate --task relations` makes. The CLI fills the same struct.
#[derive(Clone, Debug, PartialEq)]
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
pub const MAX_CHOICES: usize = 5;

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
    pub fn validate(&self) -> Result<(), RelationError> {
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

    /// The constructions these options draw from.
    fn eligible(&self, indeterminate: bool) -> Vec<&'static Construction> {
        construct::all()
            .filter(|c| self.subset.is_none_or(|s| s == c.subset))
            .filter(|c| {
                self.domain
                    .is_none_or(|d| relation(c.relation).is_some_and(|r| r.domain == d))
            })
            .filter(|c| !indeterminate || c.indeterminate)
            .collect()
    }
}

/// Relation item `index` of the run described by `opts`.
pub fn generate_relation(opts: &RelationOptions, index: u64) -> Result<Problem, RelationError> {
    opts.validate()?;
    let seed = problem_seed(opts.seed, index);
    // Per-item choices come from their own stream, so failed draws cannot bias them.
    let mut pick = Rng::for_attempt(seed, u32::MAX);
    // The visual mode makes no indeterminate items (the share is not drawn at all,
    // so a visual run's picks do not depend on it).
    let mut indeterminate = opts.mode == Mode::Text && pick.chance(opts.indeterminate);
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
            let Some(built) = (construction.build)(&mut rng, indeterminate) else {
                continue;
            };
            if let Some(p) = finish(opts, construction, built, &id, seed, &mut rng) {
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

/// The item, when the coordinates give the construction's answer (or, for an
/// indeterminate one, anything but the answer its conditions no longer settle).
fn finish(
    opts: &RelationOptions,
    c: &Construction,
    built: Built,
    id: &str,
    seed: u64,
    rng: &mut Rng,
) -> Option<Problem> {
    let rel = relation(c.relation)?;
    if !conditions_hold(&built.sketch) {
        return None;
    }
    let drawn = decide(&built.sketch, &built.asked);
    match built.unsettled {
        Some(would_be) if drawn == Some(would_be) => return None,
        Some(_) => {}
        None if drawn != Some(built.answer) => return None,
        None => {}
    }
    let marks = match opts.mode {
        Mode::Text => Drawn::default(),
        Mode::Visual => visual::draw(&built.sketch, &built.sketch.conditions)?,
    };
    let choices = choices(rel.family.choices(), built.answer, rng);
    let letter_index = choices.iter().position(|c| c == built.answer)?;
    let letter = text::letter(letter_index);
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
        conditions: built.sketch.conditions.clone(),
        asked: built.asked.clone(),
        choices,
    };
    let question = match opts.mode {
        Mode::Text => text::question(&item.conditions, &item.asked, &item.choices),
        Mode::Visual => text::question(&[], &item.asked, &item.choices),
    };
    let cot = text::solution(&built.sketch.reasons, letter, built.answer);
    let both = |s: String| Texts {
        coordinate: s.clone(),
        individual: s,
    };
    Some(Problem {
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
        },
        question: both(question),
        cot: both(cot),
        answer: Answer::Choice(letter),
        diagram: diagram(&built, &marks),
        steps: Vec::new(),
        relation: Some(Box::new(item)),
    })
}

/// The family's choices for an item answering `answer`: at most [`MAX_CHOICES`]
/// with "Cannot be inferred", the answer always among them, in a seeded order.
fn choices(family: &[&str], answer: &str, rng: &mut Rng) -> Vec<String> {
    let mut others: Vec<&str> = family.iter().copied().filter(|c| *c != answer).collect();
    rng.shuffle(&mut others);
    let mut out: Vec<&str> = Vec::with_capacity(MAX_CHOICES);
    if answer != CANNOT_BE_INFERRED {
        out.push(answer);
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
    let angles = (arcs.into_iter())
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
        .collect();
    let sides = (drawn.segment_labels.iter())
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
        .collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every construction yields items, in both versions where it has two, and its
    /// draws are mostly usable (a construction whose draws keep failing the check
    /// against its own coordinates has a bug).
    #[test]
    fn every_construction_draws() {
        let mut report = Vec::new();
        for c in construct::all() {
            for (broken, mode) in [
                (false, Mode::Text),
                (true, Mode::Text),
                (false, Mode::Visual),
            ] {
                if broken && !c.indeterminate {
                    continue;
                }
                let opts = RelationOptions {
                    mode,
                    ..Default::default()
                };
                let mut ok = 0;
                for k in 0..200u64 {
                    let mut rng = Rng::for_attempt(k, 7);
                    let Some(b) = (c.build)(&mut rng, broken) else {
                        continue;
                    };
                    if finish(&opts, c, b, "x", k, &mut rng).is_some() {
                        ok += 1;
                    }
                }
                if ok < 100 {
                    report.push(format!(
                        "{}/{} broken={broken} {mode:?}: {ok}/200",
                        c.relation, c.name
                    ));
                }
            }
        }
        assert!(report.is_empty(), "{}", report.join("\n"));
    }
}
