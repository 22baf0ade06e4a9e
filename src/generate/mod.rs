//! GeomVerse-style problem generation (Kazemi et al. 2023, Algorithm 1), and the
//! rewrites of a generated Problem that the variant axes use.
//!
//! Algorithm 1, in the order it runs:
//!
//! ```text
//! rng        the pinned, portable per-problem random stream (ChaCha8 from (seed, index))
//! shapes     the 15 shape kinds and 3 angle connectors, one definition each: roles,
//!            fitting, outlines, words and formulas (`shapes/<kind>.rs`)
//! formulas   the formula catalogue gathered from the shapes' definitions
//! expr       numbers and expressions as the texts write them (GeomVerse's rounding)
//! algorithm  Algorithm 1: a tree of shapes and formulas, values assigned bottom-up
//! geom       plane geometry for placing shapes (intersections, containment)
//! place      the tree drawn to scale, children attached outward, overlaps rejected
//! colours    the fill colours, named and told apart
//! build      diagram elements, statuses and reasoning steps
//! problem    the Problem: diagram, givens, steps, texts, answer (the JSON contract)
//! text       names and labels (`naming`), question and solution (`wording`) in both
//!            annotation styles; the question's frame is `rewrite::phrasing`'s
//! limits     what a Problem read back may hold (names, counts, values), checked
//! generator  what a run generates: GeomVerse problems or relation items, one type
//! task       which of the two, by name (`--task`)
//! ```
//!
//! GeomRel's relation pool (`relations/`): the relations an identification item
//! asks about, in one table, each decided from coordinates.
//!
//! The rewrites (`rewrite/`): `aux` (auxiliary lines), `backward` (the backward
//! question), `phrasing` (other wordings of the question), `unrelated` (unrelated
//! shapes); and here `with_info`, `with_modality`, `relabel` and `refresh_texts`.
//!
//! `formula_checks` (tests only): every formula recomputed independently from its
//! shape's geometry, and inverted.
//!
//! Each problem has its own seed, derived from (run seed, index) with ChaCha8, and
//! attempts that fail (no sensible values, overlapping shapes, an answer that rounding
//! moves by more than 3 %) are re-drawn from (seed, attempt), so a run of N problems
//! yields exactly N, identical whatever the thread count.
//!
//! ```
//! use geomrender::generate::{generate_one, GenerateOptions, Annotation};
//! let p = generate_one(&GenerateOptions::default(), 0).unwrap();
//! assert!(p.cot(Annotation::Coordinate).ends_with(&format!("is {}.", p.answer)));
//! ```

mod algorithm;
mod build;
pub(crate) mod colours;
pub(crate) mod expr;
pub(crate) mod formulas;
mod generator;
mod geom;
pub(crate) mod limits;
mod place;
mod problem;
pub mod relations;
pub(crate) mod rewrite;
pub(crate) mod rng;
pub(crate) mod shapes;
mod task;
mod text;

#[cfg(test)]
mod formula_checks;

pub(crate) use colours::COLOURS;
pub use generator::{Generator, GeneratorError};
pub use problem::*;
pub use rewrite::backward::BackwardError;
pub(crate) use rewrite::backward::backward_question;
pub(crate) use task::Task;
pub(crate) use text::point_name;

pub use self::{
    expr::ExprError,
    limits::LimitError,
    shapes::{ShapeKind, role::Role},
    text::TextError,
};
use rayon::prelude::*;
pub use rewrite::{aux::AidsError, unrelated::UnrelatedError};
pub use rng::problem_seed;
use std::ops::RangeInclusive;

/// The JSON Schema of a Problem (`geomrender schema problem`).
pub const SCHEMA: &str = include_str!("../../schemas/problem.schema.json");

/// Deepest supported reasoning.
pub const MAX_DEPTH: u8 = 6;

/// Attempts per problem before giving up (each attempt is a fresh random draw).
pub(crate) const MAX_ATTEMPTS: u32 = 5_000;

/// What to generate. The CLI fills the same struct; a run record (`output::record`)
/// stores it as JSON (`depth` as `{"start": 1, "end": 3}`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateOptions {
    /// Run seed; problem k's seed is derived from (seed, k).
    pub seed: u64,
    /// Reasoning depth, drawn uniformly per problem from this range (within 1..=6).
    pub depth: RangeInclusive<u8>,
    /// Probability of expanding a second input of a formula (GeomVerse's width).
    pub branch_prob: f64,
    /// Add one level of distracting shapes whose derived value is also given.
    pub distractors: bool,
    /// Probability ρ of stating a linear formula's elements as `a·x + b`.
    pub variablized: f64,
    /// Where given sides and angles are stated.
    pub info: Info,
    /// What to ask; `Any` draws one of the four per problem.
    pub question: QuestionType,
    /// Only standard shapes.
    pub standard_only: bool,
}

impl Default for GenerateOptions {
    /// Depths 1–3, chains (no branching), no distractors, no variables, values on the
    /// image, any question type, all shapes.
    fn default() -> Self {
        GenerateOptions {
            seed: 0,
            depth: 1..=3,
            branch_prob: 0.0,
            distractors: false,
            variablized: 0.0,
            info: Info::Image,
            question: QuestionType::Any,
            standard_only: false,
        }
    }
}

/// Why generation could not proceed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The depth range is empty or outside 1..=6.
    #[error("depth must be a range within 1..={MAX_DEPTH}, got {0}..={1}")]
    BadDepth(u8, u8),
    /// `QuestionType::Relation` asks for a relation item, which
    /// [`relations::generate_relation`] makes.
    #[error(
        "a GeomVerse problem cannot ask for a relation; generate relation items with `--task relations`"
    )]
    RelationQuestion,
    /// A probability outside 0..=1 (or not a number).
    #[error("{name} must be within 0..=1, got {value}")]
    BadProbability { name: &'static str, value: f64 },
    /// Every attempt failed (should not happen with the built-in catalogue).
    #[error("problem {index}: no valid problem in {attempts} attempts")]
    Exhausted { index: u64, attempts: u32 },
    /// Generating again from the problem's seed and parameters does not give it
    /// back, so its tree is unknown (`values` needs it).
    #[error(
        "problem {id}: its seed and parameters do not generate it again (edited by hand, or \
         made by another version of geomrender), so it cannot be redrawn with other values"
    )]
    NotFromSeed { id: String },
    /// No redraw of the problem's tree with other values kept every rule and the
    /// base's skeleton within the tries (`values=k`).
    #[error("problem {id}: no redraw with other values (values={k}) in {tries} tries")]
    NoValues { id: String, k: u64, tries: u32 },
}

impl GenerateOptions {
    /// Checks ranges; `generate_one` calls it.
    pub(crate) fn validate(&self) -> Result<(), GenerateError> {
        let (lo, hi) = (*self.depth.start(), *self.depth.end());
        if lo == 0 || hi > MAX_DEPTH || lo > hi {
            return Err(GenerateError::BadDepth(lo, hi));
        }
        if self.question == QuestionType::Relation {
            return Err(GenerateError::RelationQuestion);
        }
        for (name, value) in [
            ("branch probability", self.branch_prob),
            ("variablized ρ", self.variablized),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(GenerateError::BadProbability { name, value });
            }
        }
        Ok(())
    }
}

/// Problem `index` of the run described by `opts`.
pub fn generate_one(opts: &GenerateOptions, index: u64) -> Result<Problem, GenerateError> {
    opts.validate()?;
    let seed = rng::problem_seed(opts.seed, index);
    // Per-problem choices come from their own stream, so failed attempts cannot bias them.
    let mut pick = rng::Rng::for_attempt(seed, u32::MAX);
    let depth = pick.int(*opts.depth.start() as i64, *opts.depth.end() as i64) as u8;
    let question = match opts.question {
        QuestionType::Any => [
            QuestionType::Side,
            QuestionType::Angle,
            QuestionType::Area,
            QuestionType::Perimeter,
        ][pick.index(4)],
        q => q,
    };
    let params = Params {
        depth,
        branch_prob: opts.branch_prob,
        distractors: opts.distractors,
        variablized: opts.variablized,
        info: opts.info,
        question_type: question,
        standard_only: opts.standard_only,
        phrasing: 0,
        backward: false,
        modality: Modality::Base,
    };
    let cfg = tree_config(&params);
    let id = format!("s{}-{index:06}", opts.seed);
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = rng::Rng::for_attempt(seed, attempt);
        if let Some(p) = attempt_once(&cfg, &params, &id, seed, &mut rng) {
            return Ok(p);
        }
    }
    Err(GenerateError::Exhausted {
        index,
        attempts: MAX_ATTEMPTS,
    })
}

/// What Algorithm 1 is run with for a problem of these parameters.
fn tree_config(params: &Params) -> algorithm::TreeConfig {
    algorithm::TreeConfig {
        levels: params.depth + params.distractors as u8,
        branch_prob: params.branch_prob,
        variablized: params.variablized,
        question: params.question_type,
        standard_only: params.standard_only,
        distractors: params.distractors,
    }
}

fn attempt_once(
    cfg: &algorithm::TreeConfig,
    params: &Params,
    id: &str,
    seed: u64,
    rng: &mut rng::Rng,
) -> Option<Problem> {
    let tree = algorithm::generate_tree(cfg, rng).ok()?;
    draw(&tree, params, id, seed, rng)
}

/// A tree drawn: placed, checked against the 3 % rule, built, named and worded
/// (`None` when placing or the rule fails).
fn draw(
    tree: &algorithm::Tree,
    params: &Params,
    id: &str,
    seed: u64,
    rng: &mut rng::Rng,
) -> Option<Problem> {
    let answer = tree.nodes[0].output;
    let exact = algorithm::exact_value(tree, 0)?;
    // GeomVerse drops problems whose answer rounding moves by more than 3 %. Checked
    // before placing, which costs more: the check draws nothing from `rng`, so the
    // order changes no problem.
    let kept = answer.is_finite() && answer > 0.0 && (answer - exact).abs() <= 0.03 * exact.abs();
    if !kept {
        return None;
    }
    let placed = place::place(tree, rng)?;
    let (mut diagram, steps) = build::build(tree, &placed, rng);
    for (i, p) in diagram.points.iter_mut().enumerate() {
        p.name = point_name(i);
    }
    let mut problem = Problem {
        id: id.to_string(),
        seed,
        params: params.clone(),
        question: Texts::default(),
        cot: Texts::default(),
        answer: Answer::Number(answer),
        diagram,
        steps,
        relation: None,
        caption: None,
    };
    text::refresh(&mut problem).ok()?;
    Some(problem)
}

/// How a generated problem came about: the tree of its successful attempt, and
/// the attempt's random stream as it stood after the tree (placing and colouring
/// draw from it), so the same tree can be drawn again with other values.
pub(crate) struct Origin {
    pub(crate) tree: algorithm::Tree,
    pub(crate) config: algorithm::TreeConfig,
    pub(crate) after_tree: rng::Rng,
}

thread_local! {
    /// The last problem whose origin this thread found, and that origin: a
    /// problem's variants are made one after another on one thread, so every
    /// `values=k` after the first skips the replay.
    static LAST_ORIGIN: std::cell::RefCell<Option<(Problem, std::rc::Rc<Origin>)>> =
        const { std::cell::RefCell::new(None) };
}

/// `p`'s origin, found by running its generation again from its seed and
/// parameters; `None` when that does not give `p` back (a problem edited by hand,
/// or from another version of the generator).
pub(crate) fn origin(p: &Problem) -> Option<std::rc::Rc<Origin>> {
    let last = LAST_ORIGIN.with_borrow(|last| {
        (last.as_ref())
            .filter(|(q, _)| q == p)
            .map(|(_, o)| o.clone())
    });
    if last.is_some() {
        return last;
    }
    let found = std::rc::Rc::new(replay(p)?);
    LAST_ORIGIN.set(Some((p.clone(), found.clone())));
    Some(found)
}

fn replay(p: &Problem) -> Option<Origin> {
    let config = tree_config(&p.params);
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = rng::Rng::for_attempt(p.seed, attempt);
        let Ok(tree) = algorithm::generate_tree(&config, &mut rng) else {
            continue;
        };
        let after_tree = rng.clone();
        if let Some(q) = draw(&tree, &p.params, &p.id, p.seed, &mut rng) {
            return (q == *p).then_some(Origin {
                tree,
                config,
                after_tree,
            });
        }
    }
    None
}

/// Problems `start..start + count` of a run, generated in parallel (on the current rayon
/// pool) and returned in index order.
pub fn generate_range(
    opts: &GenerateOptions,
    start: u64,
    count: u64,
) -> Vec<Result<Problem, GenerateError>> {
    (start..start + count)
        .into_par_iter()
        .map(|i| generate_one(opts, i))
        .collect()
}

/// The same problem with its given values moved to the image or into the question;
/// labels and both texts are rewritten, the answer is unchanged. Fails on a Problem
/// whose parts do not fit together (one edited by hand, say).
pub(crate) fn with_info(p: &Problem, info: Info) -> Result<Problem, TextError> {
    let mut q = p.clone();
    q.params.info = info;
    text::refresh(&mut q)?;
    Ok(q)
}

/// Why a problem has no version on a rung of the modality ladder.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ModalityError {
    /// A relation item states conditions, which GeomRel does not split into
    /// descriptive information, properties and values: of the ladder it has the
    /// `text-only` rung (and the axis's blank control).
    #[error(
        "a relation item has no {rung} version: of the modality ladder it has text-only (and the blank control)"
    )]
    NotForRelations { rung: String },
    /// `vision-dominant` and `vision-only` draw every given on the image; this one
    /// has no label there (none is drawn where the givens are not on the image).
    #[error(
        "{given} cannot be drawn on the image, so vision-dominant and vision-only would drop it"
    )]
    Undrawable { given: String },
    #[error(transparent)]
    Text(#[from] TextError),
}

/// The same problem on rung `m` of MathVerse's modality ladder: both texts
/// rewritten to hold the facts the rung keeps. On `vision-dominant` and
/// `vision-only` every given is drawn on the image (`info` = image), and a problem
/// with a given that has no label there has no such version; `vision-only` then
/// moves its question into the caption (`Problem::caption`).
pub(crate) fn with_modality(p: &Problem, m: Modality) -> Result<Problem, ModalityError> {
    // A relation item has its own text-only version, and no other rung.
    match (m, relations::rewrite::text_only_relation(p)) {
        (Modality::TextOnly, Some(q)) => return Ok(q),
        (_, Some(_)) => {
            return Err(ModalityError::NotForRelations {
                rung: serde_json::to_value(m)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
            });
        }
        (_, None) => {}
    }
    let mut q = p.clone();
    q.params.modality = m;
    if m.draws_every_given() {
        q.params.info = Info::Image;
    }
    text::refresh(&mut q)?;
    if m.draws_every_given() {
        let d = &q.diagram;
        let given =
            |status: Status, expr: &Option<String>| status == Status::Given || expr.is_some();
        let side = d
            .sides
            .iter()
            .find(|s| given(s.status, &s.expr) && !s.shown);
        let angle = d
            .angles
            .iter()
            .find(|a| given(a.status, &a.expr) && !a.shown);
        let measure = (d.measures.iter()).find(|m| given(m.status, &m.expr) && m.label.is_empty());
        let undrawable = match (side, angle, measure) {
            (Some(s), _, _) => Some(format!("the {} side", s.name.coordinate)),
            (_, Some(a), _) => Some(format!("the {} angle", a.name.coordinate)),
            (_, _, Some(m)) => {
                let what = match m.kind {
                    MeasureKind::Area => "area",
                    MeasureKind::Perimeter => "perimeter",
                    MeasureKind::ArcLength => "arc length",
                    MeasureKind::Height => "height",
                };
                let shape = d
                    .shapes
                    .get(m.shape)
                    .map_or("", |s| s.name.coordinate.as_str());
                Some(format!("the {what} of the {shape} shape"))
            }
            _ => None,
        };
        if let Some(given) = undrawable {
            return Err(ModalityError::Undrawable { given });
        }
    }
    Ok(q)
}

/// The same problem with its vertex letters permuted, in the diagram and in both
/// texts; the answer is unchanged. The permutation is a seeded single cycle over the
/// names in use, so every vertex gets another letter (the GeomRel "RP" operation).
pub(crate) fn relabel(p: &Problem, seed: u64) -> Result<Problem, TextError> {
    let mut q = p.clone();
    let mut names: Vec<String> = q.diagram.points.iter().map(|pt| pt.name.clone()).collect();
    let mut r = rng::Rng::from_u64(seed, 0x7265_6c61_6265_6c00);
    r.cyclic_shuffle(&mut names);
    for (pt, n) in q.diagram.points.iter_mut().zip(names) {
        pt.name = n;
    }
    text::refresh(&mut q)?;
    Ok(q)
}

/// Recomputes names, labels and texts from the diagram and steps (what `with_info` and
/// `relabel` do after their change); useful to check a Problem read from JSON.
pub(crate) fn refresh_texts(p: &mut Problem) -> Result<(), TextError> {
    text::refresh(p)
}
