//! One spelling per value. Every enum a user names — on the command line, in a
//! Problem or manifest row, from Python — is a [`Words`]: its values ([`Words::ALL`])
//! and the one word of each ([`Words::name`]). `FromStr` ([`crate::words!`]), serde, the
//! CLI (clap's `ValueEnum`, derived under the `cli` feature) and the reports read
//! and write those words; `tests/it/value_spelling.rs` checks that they agree.

/// An enum whose values a user names by one word each.
pub trait Words: Copy + PartialEq + Sized + 'static {
    /// What a value is, for messages: "mode", "predictions format".
    const WHAT: &'static str;
    /// Every value, in the order help and reports list them.
    const ALL: &'static [Self];
    /// The value's word.
    fn name(self) -> &'static str;
}

/// A word that names no value of an enum.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid {what} {got:?}: expected {expected}")]
pub struct UnknownWord {
    pub what: &'static str,
    pub got: String,
    /// The words it takes, "a, b or c".
    pub expected: String,
}

/// The value named `word`.
pub fn parse<T: Words>(word: &str) -> Result<T, UnknownWord> {
    T::ALL
        .iter()
        .copied()
        .find(|v| v.name() == word)
        .ok_or_else(|| UnknownWord {
            what: T::WHAT,
            got: word.to_string(),
            expected: expected::<T>(&[]),
        })
}

/// `extra` (words of the caller's own, such as `auto`) and then the words of `T`,
/// as "a, b or c".
pub fn expected<T: Words>(extra: &[&str]) -> String {
    let words: Vec<&str> = (extra.iter().copied())
        .chain(T::ALL.iter().map(|v| v.name()))
        .collect();
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Implements `FromStr` (by [`parse`]) and `Display` (the word) for a [`Words`]
/// enum; given its WHAT and each value's word, `Words` itself as well:
/// `words!(Info, "info", { Image => "image", Text => "text" })`.
#[macro_export]
macro_rules! words {
    ($t:ident, $what:literal, { $($v:ident => $word:literal),+ $(,)? }) => {
        impl $crate::words::Words for $t {
            const WHAT: &'static str = $what;
            const ALL: &'static [$t] = &[$($t::$v),+];
            fn name(self) -> &'static str {
                match self {
                    $($t::$v => $word),+
                }
            }
        }

        $crate::words!($t);
    };
    ($t:ty) => {
        impl ::std::str::FromStr for $t {
            type Err = $crate::words::UnknownWord;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $crate::words::parse(s)
            }
        }

        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::words::Words::name(*self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Fruit {
        Apple,
        Pear,
        Fig,
    }

    impl Words for Fruit {
        const WHAT: &'static str = "fruit";
        const ALL: &'static [Fruit] = &[Fruit::Apple, Fruit::Pear, Fruit::Fig];
        fn name(self) -> &'static str {
            match self {
                Fruit::Apple => "apple",
                Fruit::Pear => "pear",
                Fruit::Fig => "fig",
            }
        }
    }

    crate::words!(Fruit);

    #[test]
    fn every_word_parses_back_and_others_say_what_is_taken() {
        for f in Fruit::ALL {
            assert_eq!(f.to_string().parse::<Fruit>(), Ok(*f));
        }
        let e = "Apple".parse::<Fruit>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid fruit \"Apple\": expected apple, pear or fig"
        );
        assert_eq!(expected::<Fruit>(&["all"]), "all, apple, pear or fig");
    }
}
