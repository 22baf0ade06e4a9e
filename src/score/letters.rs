//! Option letters in the forms models write them, for items with choices.
//!
//! A *letter token* is an option letter as a reply names it: `C`, `(C)`, `[C]`, `C)`,
//! `option C`, `choice (c)`, `option is d`. Upper case is read wherever the rules
//! look; lower case only where it cannot be a word: bracketed (`(c)`, `c)`), followed
//! by punctuation or the end of the text (`the answer is c.`, a reply `c`), or after
//! "option"/"choice" (`I choose option c`). So "the answer is a right angle" reads no
//! letter, while "answer: (a)" does. (Markdown bold is gone before the rules run:
//! `**(c)**` is `(c)` to them.)
//!
//! A *hedge* is a token followed by other tokens joined by "or", "and", a comma, a
//! slash or "&" ("A or B", "(A) and (C)", "A, B, C or D", "either A or B"): a reply
//! naming two or more different options names no answer, and the cascade records it
//! as [`Rule::Hedged`](super::Rule::Hedged), unparsed.

use super::cascade::re;
use regex::Regex;
use std::sync::LazyLock;

/// A letter token at the start of a text: the option's index (0 = `A`, whatever the
/// item's option count) and the token's length in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Token {
    pub index: usize,
    pub len: usize,
}

/// The letter token `s` starts with, if any (see the module documentation).
pub(super) fn token_at(s: &str) -> Option<Token> {
    static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?i:(?:either|both)\s+)?((?i:option|choice)(?:\s+is)?\s*:?\s*)?(\(|\[)?([A-Za-z])(\)|\])?",
        )
    });
    let caps = TOKEN.captures(s)?;
    let letter = caps.get(3)?;
    let named = caps.get(1).is_some();
    let opened = caps.get(2).is_some();
    let closed = caps.get(4).is_some();
    let len = caps.get(0)?.end();
    let next = s[len..].chars().next();
    let ends = |punct: &str| next.is_none_or(|c| punct.contains(c));
    let upper = letter.as_str().as_bytes()[0].is_ascii_uppercase();
    let readable = match (opened, closed) {
        // "(c)", "[C]": nothing glued after it ("(c)ould" is a word).
        (true, true) => next.is_none_or(|c| !c.is_alphanumeric()),
        // "(C" without its closing bracket: as a bare letter.
        (true, false) | (false, false) => {
            if upper {
                next.is_none_or(char::is_whitespace) || ends(".:,;!?)]*/&'\"”")
            } else {
                ends(".:,;!?)]/&'\"”") || (named && next.is_some_and(char::is_whitespace))
            }
        }
        // "C) text", "c)": a list marker.
        (false, true) => next.is_none_or(|c| !c.is_alphanumeric()),
    };
    readable.then(|| Token {
        index: usize::from(letter.as_str().to_ascii_uppercase().as_bytes()[0] - b'A'),
        len,
    })
}

/// The options a text starting with a token names, in order and without repeats,
/// and the length of the tokens and their joins: `A or B` → ([0, 1], 6). Tokens
/// joined by "or" (or "/") always name several options; joined only by "and", "&" or
/// commas they do where the list ends the clause ("(A) and (C).") and not before
/// more words ("A and B are parallel" is a statement about points: `A` only).
pub(super) fn tokens_at(s: &str) -> Option<(Vec<usize>, usize)> {
    static JOIN: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(?i:\s*(?:,|/|&)\s*(?:(or|and)\s+)?|\s+(or|and/or|nor|and)\s+)"));
    let first = token_at(s)?;
    let mut named = vec![first.index];
    let mut end = first.len;
    let mut alternatives = false;
    while let Some(join) = JOIN.captures(&s[end..]) {
        let (Some(all), word) = (join.get(0), join.get(1).or_else(|| join.get(2))) else {
            break;
        };
        let Some(next) = token_at(&s[end + all.end()..]) else {
            break;
        };
        alternatives |= all.as_str().contains('/')
            || word.is_some_and(|w| !w.as_str().eq_ignore_ascii_case("and"));
        if !named.contains(&next.index) {
            named.push(next.index);
        }
        end += all.end() + next.len;
    }
    let more_words = s[end..].trim_start().starts_with(char::is_alphanumeric);
    if named.len() > 1 && !alternatives && more_words {
        return Some((vec![first.index], first.len));
    }
    Some((named, end))
}

/// The options named by a reply that is nothing but letter tokens (`C`, `(c).`,
/// `A or B`), with brackets, stars and full stops around them; `None` for any other
/// reply.
pub(super) fn whole_reply(text: &str) -> Option<Vec<usize>> {
    // "(c)" loses its "(" here and is read as "c)".
    let s = text.trim_start_matches(|c: char| c.is_whitespace() || "(*.".contains(c));
    let (named, end) = tokens_at(s)?;
    s[end..]
        .chars()
        .all(|c| c.is_whitespace() || ".:!*)".contains(c))
        .then_some(named)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(s: &str) -> Option<usize> {
        token_at(s).map(|t| t.index)
    }

    #[test]
    fn upper_case_letters_and_brackets() {
        assert_eq!(index("C"), Some(2));
        assert_eq!(index("C."), Some(2));
        assert_eq!(index("(C) Parallel"), Some(2));
        assert_eq!(index("C) Parallel"), Some(2));
        assert_eq!(index("[D]"), Some(3));
        assert_eq!(index("option C"), Some(2));
        assert_eq!(index("Option is B."), Some(1));
        assert_eq!(index("choice: (A)"), Some(0));
        assert_eq!(index("Cannot"), None);
    }

    #[test]
    fn lower_case_only_where_it_cannot_be_a_word() {
        assert_eq!(index("(c)"), Some(2));
        assert_eq!(index("c)"), Some(2));
        assert_eq!(index("c"), Some(2));
        assert_eq!(index("d."), Some(3));
        assert_eq!(index("option c"), Some(2));
        assert_eq!(index("option c because"), Some(2));
        assert_eq!(index("a right angle"), None);
        assert_eq!(index("c because"), None);
        assert_eq!(index("(c)ould"), None);
        assert_eq!(index("b2"), None);
    }

    #[test]
    fn hedges_name_every_option() {
        assert_eq!(tokens_at("A or B").map(|t| t.0), Some(vec![0, 1]));
        assert_eq!(
            tokens_at("A, B, C or D").map(|t| t.0),
            Some(vec![0, 1, 2, 3])
        );
        assert_eq!(tokens_at("(A) or (D)").map(|t| t.0), Some(vec![0, 3]));
        assert_eq!(tokens_at("A and B").map(|t| t.0), Some(vec![0, 1]));
        assert_eq!(tokens_at("either A or B").map(|t| t.0), Some(vec![0, 1]));
        assert_eq!(tokens_at("A/C").map(|t| t.0), Some(vec![0, 2]));
        // One option, however often.
        assert_eq!(tokens_at("A or A").map(|t| t.0), Some(vec![0]));
        // A letter followed by words is one token.
        assert_eq!(tokens_at("C, since AB ∥ CD").map(|t| t.0), Some(vec![2]));
        assert_eq!(tokens_at("A and a half").map(|t| t.0), Some(vec![0]));
        assert_eq!(
            tokens_at("A and B are parallel").map(|t| t.0),
            Some(vec![0])
        );
        assert_eq!(tokens_at("(A) and (C).").map(|t| t.0), Some(vec![0, 2]));
        assert_eq!(tokens_at("A or B because").map(|t| t.0), Some(vec![0, 1]));
    }

    #[test]
    fn whole_replies() {
        assert_eq!(whole_reply("c"), Some(vec![2]));
        assert_eq!(whole_reply(" (c). "), Some(vec![2]));
        assert_eq!(whole_reply("*C*"), Some(vec![2]));
        assert_eq!(whole_reply("A or B"), Some(vec![0, 1]));
        assert_eq!(whole_reply("(A) or (D)."), Some(vec![0, 3]));
        assert_eq!(whole_reply("C is parallel"), None);
        assert_eq!(whole_reply("a right angle"), None);
        assert_eq!(whole_reply(""), None);
    }
}
