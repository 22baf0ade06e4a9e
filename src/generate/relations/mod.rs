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
pub mod check;
mod construct;
mod decide;
mod item;
mod pool;
pub mod rewrite;
mod sketch;
mod stats;
mod text;
mod visual;

pub use build::{
    DEFAULT_INDETERMINATE, MAX_CHOICES, RelationError, RelationOptions, generate_relation,
    generate_relations,
};
pub use item::{AngleRef, Asked, Condition, FigureRef, Line, Mode, RelationItem, Subset};
pub use pool::{CANNOT_BE_INFERRED, Domain, Family, RELATIONS, Relation, relation};
pub use stats::Stats;
pub use text::question_stem;

/// Every construction as (relation, name, subset, chain, has an indeterminate
/// version): what the tests and the statistics table count.
pub fn constructions() -> impl Iterator<
    Item = (
        &'static str,
        &'static str,
        Subset,
        &'static [&'static str],
        bool,
    ),
> {
    construct::all().map(|c| (c.relation, c.name, c.subset, c.chain, c.indeterminate))
}
