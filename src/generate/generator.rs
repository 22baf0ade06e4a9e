//! What a run generates: GeomVerse problems or GeomRel relation items, behind one
//! type that the CLI (`generate`, `sweep`) and the Python package both drive.

use super::relations::{self, RelationError, RelationOptions};
use super::{GenerateError, GenerateOptions, Problem};

/// The problems of a run: GeomVerse's (a numeric answer) or GeomRel's relation
/// items (multiple choice), each with its options and run seed. As JSON (a run
/// record), the options with `task` as `--task` names it: `geomverse` or `relations`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "task", rename_all = "lowercase")]
pub enum Generator {
    #[serde(rename = "geomverse")]
    GeomVerse(GenerateOptions),
    Relations(RelationOptions),
}

/// Why a [`Generator`] could not make its problems.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GeneratorError {
    #[error(transparent)]
    GeomVerse(#[from] GenerateError),
    #[error(transparent)]
    Relations(#[from] RelationError),
}

impl Generator {
    /// Checks the options (ranges, probabilities, shares) before anything is made.
    pub fn validate(&self) -> Result<(), GeneratorError> {
        match self {
            Generator::GeomVerse(o) => o.validate()?,
            Generator::Relations(o) => o.validate()?,
        }
        Ok(())
    }

    /// Problem `index` of the run: the same whatever else is generated with it.
    pub fn one(&self, index: u64) -> Result<Problem, GeneratorError> {
        Ok(match self {
            Generator::GeomVerse(o) => super::generate_one(o, index)?,
            Generator::Relations(o) => relations::generate_relation(o, index)?,
        })
    }

    /// Problems `start..start + n`, in index order (in parallel on rayon).
    pub fn batch(&self, start: u64, n: u64) -> Result<Vec<Problem>, GeneratorError> {
        Ok(match self {
            Generator::GeomVerse(o) => super::generate_range(o, start, n)
                .into_iter()
                .collect::<Result<_, _>>()?,
            Generator::Relations(o) => relations::generate_relations(o, start, n)
                .into_iter()
                .collect::<Result<_, _>>()?,
        })
    }

    /// What the problems are, for log lines.
    pub fn noun(&self) -> &'static str {
        match self {
            Generator::GeomVerse(_) => "problems",
            Generator::Relations(_) => "relation items",
        }
    }
}
