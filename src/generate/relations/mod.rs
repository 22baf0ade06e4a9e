//! GeomRel's relation identification (Wang et al. 2024, "Do Large Language Models
//! Truly Understand Geometric Structures?"): multiple-choice questions about the
//! relation between points, lines, angles and shapes, each item built from
//! coordinates by a construction whose answer is decided on them.
//!
//! ```text
//! pool       the relations in one table: name, domain, elements, answer choices
//! check      each relation decided from coordinates, with a stated tolerance
//! item       what a relation item records in its Problem: conditions, asked elements, choices
//! sketch     a construction's working state: named points, drawn elements, conditions, reasons
//! construct  the constructions in one table: basic ones per relation, advanced chains
//! decide     the generator's own check of each draw against its answer
//! eye        how a figure looks: choices that look true, points that nearly lie on lines
//! solve      moving a figure onto equations by the smallest steps
//! indeterminate  "Cannot be inferred" from any construction: a key dropped, the figure moved
//! decoy      conditions about a new element only, which settle nothing
//! text       the question, choices and solution as GeomRel words them
//! build      relation items for (run seed, index): options, choices, Problem
//! stats      a run's items counted as GeomRel's Table 3 counts its dataset
//! visual     the visual mode: conditions drawn as marks instead of stated
//! rewrite    GeomRel's relabelling and unrelated information on an item
//! ```
//!
//! ```
//! use geomrender::generate::relations::{RelationOptions, generate_relation};
//! let p = generate_relation(&RelationOptions::default(), 0).unwrap();
//! let item = p.relation.as_deref().unwrap();
//! assert!(item.choices.iter().any(|c| c == "Cannot be inferred"));
//! assert!(p.question.coordinate.contains("Answer choices: A. "));
//! ```

mod build;
pub(crate) mod check;
mod construct;
mod decide;
mod decoy;
mod eye;
mod indeterminate;
mod item;
mod pool;
pub(crate) mod rewrite;
mod sketch;
mod solve;
mod stats;
mod text;
mod visual;

pub use build::{
    DEFAULT_INDETERMINATE, RelationError, RelationOptions, generate_relation, generate_relations,
};
pub(crate) use build::{MAX_CHOICES, relation_with_values};
pub use item::{AngleRef, Asked, Condition, FigureRef, LineRef, Mode, RelationItem, Subset};
pub(crate) use pool::CANNOT_BE_INFERRED;
pub(crate) use pool::relation;
pub use pool::{Domain, Family, RELATIONS, Relation};
pub(crate) use stats::Stats;
#[cfg(test)]
pub(crate) use text::NOT_TO_SCALE;
pub(crate) use text::{choice_list, question_stem};

/// Every construction as (relation, name, subset, chain, whether it has an
/// indeterminate version in the text mode, and in the visual mode): what the
/// tests and the statistics table count.
#[cfg(test)]
pub(crate) fn constructions() -> impl Iterator<
    Item = (
        &'static str,
        &'static str,
        Subset,
        &'static [&'static str],
        [bool; 2],
    ),
> {
    construct::all().map(|c| {
        let modes = Mode::ALL.map(|m| build::capable(c, m));
        (c.relation, c.name, c.subset, c.chain, modes)
    })
}
