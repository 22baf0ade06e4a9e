//! GeomRel's relation identification (Wang et al. 2024, "Do Large Language Models
//! Truly Understand Geometric Structures?"): the pool of relations between points,
//! lines, angles and shapes, each decided from coordinates. The items built on it
//! (basic constructions, advanced chains, "Cannot be inferred") come next.
//!
//! ```text
//! pool   the relations in one table: name, domain, elements, answer choices
//! check  each relation decided from coordinates, with a stated tolerance
//! ```

pub mod check;
mod pool;

pub use pool::{CANNOT_BE_INFERRED, Domain, Family, RELATIONS, Relation, relation};
