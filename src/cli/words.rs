//! Library enums on the command line (each derives clap's `ValueEnum` under the
//! `cli` feature, with the words of [`crate::words`]), plus a word of the CLI's
//! own that stands for no value: `--subset all`, `--predictions-format auto`,
//! `--sink files`.

use crate::words::Words;
use clap::ValueEnum;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A value of `T`, or `None` for the CLI's own word. (An alias, not `Option`, so
/// that clap's derive takes it as the value's type rather than as "optional".)
pub(crate) type OrNone<T> = Option<T>;

/// Reads `T`'s words as `Some(value)` and `none` as `None`; `--help` lists them all,
/// each with its help.
pub(crate) fn or_none<T>(
    none: &'static str,
    help: &'static str,
) -> impl TypedValueParser<Value = OrNone<T>>
where
    T: Words + ValueEnum + Send + Sync,
{
    let values = (T::value_variants().iter())
        .filter_map(ValueEnum::to_possible_value)
        .chain([PossibleValue::new(none).help(help)]);
    PossibleValuesParser::new(values).map(|s: String| crate::words::parse::<T>(&s).ok())
}

#[cfg(test)]
mod tests {
    use crate::generate::relations::{Domain, Mode, Subset};
    use crate::generate::{Info, QuestionType, Task};
    use crate::output::datasets::{ParquetCompression, Sink};
    use crate::output::record::Format;
    use crate::render::Requested;
    use crate::score::{MissingPolicy, PredictionFormat};

    /// clap's derived words are the library's: every value clap offers is named by
    /// its `Words::name`, and every value but those clap skips is offered.
    fn same<T: Words + ValueEnum + std::fmt::Debug>(skipped: &[T]) {
        let clap: Vec<String> = (T::value_variants().iter())
            .filter_map(ValueEnum::to_possible_value)
            .map(|p| p.get_name().to_string())
            .collect();
        let ours: Vec<String> = (T::ALL.iter())
            .filter(|v| !skipped.contains(v))
            .map(|v| v.name().to_string())
            .collect();
        assert_eq!(clap, ours, "{}", T::WHAT);
    }

    use super::*;

    #[test]
    fn clap_spells_every_enum_as_the_library_does() {
        same::<Task>(&[]);
        same::<Mode>(&[]);
        same::<Subset>(&[]);
        same::<Domain>(&[]);
        same::<Info>(&[]);
        same::<QuestionType>(&[QuestionType::Relation]);
        same::<Sink>(&[]);
        same::<ParquetCompression>(&[]);
        same::<PredictionFormat>(&[]);
        same::<MissingPolicy>(&[]);
        same::<Requested>(&[]);
        same::<Format>(&[]);
    }
}
