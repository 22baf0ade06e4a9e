//! Which problems a run generates, by name (`--task`, the Python package's `task=`).

/// The two kinds of problem a [`super::Generator`] makes.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub(crate) enum Task {
    /// GeomVerse's multi-step computation problems.
    #[default]
    Geomverse,
    /// GeomRel's relation identification: "What is the relationship between line AB
    /// and line EF?", with lettered choices.
    Relations,
}

crate::words!(Task, "task", {
    Geomverse => "geomverse",
    Relations => "relations",
});
