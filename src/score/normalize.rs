//! Text clean-up and number parsing for answer extraction.
//!
//! Model output arrives as markdown, LaTeX or plain prose. [`normalize_text`] rewrites
//! the notations that hide a number (`**44**`, `$12.5\text{ cm}^2$`, `1{,}234`,
//! `60^\circ`, `\dfrac`, U+2212 minus) into one plain form, and [`parse_value`] /
//! [`find_values`] read numbers from it: thousands separators, decimals, negatives,
//! `a/b`, `\frac{a}{b}`, scientific notation (`1.2e3`, `1.2 \times 10^{3}`), multiples
//! of π and square roots. Units, degree signs and percent signs after a number are
//! ignored (`45%` reads as 45); a number that states a precision ("to 2 decimal
//! places") is not a value. Decimal commas (`12,5`) are not supported: a comma is a
//! thousands separator only before a group of exactly three digits.

use regex::{Captures, Regex};
use std::ops::Range;
use std::sync::LazyLock;

/// A number read from text: its value and where it sits (byte range).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ValueMatch {
    pub value: f64,
    pub span: Range<usize>,
}

fn re(pattern: &str) -> Regex {
    // Patterns are compile-time constants covered by tests; failure is a programming error.
    Regex::new(pattern).unwrap_or_else(|e| panic!("bad built-in regex {pattern:?}: {e}"))
}

/// One decimal number, with optional thousands separators (`1,234.5`, `12`, `.5`).
const NUM: &str = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+";

static VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?x)
        (?P<sign>-\s?)?
        (?:
            \\frac\s*\{{\s*(?P<fnum>{NUM})?\s*(?P<fpi>π)?\s*\}}\s*\{{\s*(?P<fden>{NUM})\s*\}}
          | \\frac\s*(?P<fsn>\d)(?P<fsd>\d)
          | (?P<coef>{NUM})?\s*√\s*(?:\{{\s*(?P<r1>{NUM})\s*\}}|\(\s*(?P<r2>{NUM})\s*\)|(?P<r3>{NUM}))
          | (?P<a>{NUM})
            (?:\s*/\s*(?P<b>{NUM}))?
            (?:[eE](?P<e1>[-+]?\d+)|\s*(?:×|\*|·|x)\s*10\s*\^\s*\{{?\s*(?P<e2>[-+]?\d+)\s*\}}?)?
            (?:\s*(?P<pi>π))?
          | (?P<lonepi>π)
        )"
    ))
});

/// Most passes of a rewrite whose result may hold a new match: `\text{\text{…}}`
/// loses one level a pass, `1 234 567` needs two. Each pass is linear, so a bound
/// keeps the whole linear in the text (a megabyte of nested `\text{` would otherwise
/// take one pass per level).
const MAX_PASSES: usize = 8;

/// Rewrites markdown / LaTeX / Unicode notations into plain text that the number
/// parser and the extraction rules understand. Idempotent, up to `MAX_PASSES`
/// nested text commands; linear in the text's length.
pub(crate) fn normalize_text(raw: &str) -> String {
    static DIGIT_GROUP: LazyLock<Regex> =
        LazyLock::new(|| re(r"(\d)(?:\\,|\{,\}|[\u{00A0}\u{2009}\u{202F}])(\d{3})"));
    static TEXT_CMD: LazyLock<Regex> = LazyLock::new(|| {
        re(r"\\(?:text|mathrm|textbf|mathbf|textit|mathit|mbox|operatorname)\s*\{([^{}]*)\}")
    });
    static DEGREE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\circ|\\degree|[◦º˚]|\^\s*\{\s*°\s*\}|\^°")
    });
    static SUPERSCRIPT_EXP: LazyLock<Regex> = LazyLock::new(|| re(r"10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"));
    static FRAC_VARIANT: LazyLock<Regex> = LazyLock::new(|| re(r"\\[dt]frac\b"));
    static SPACING: LazyLock<Regex> =
        LazyLock::new(|| re(r"\\[,;:! ]|\\quad|\\qquad|\\left\b|\\right\b|\\displaystyle"));
    static MATH_DELIM: LazyLock<Regex> = LazyLock::new(|| re(r"\\[()\[\]]|\$"));

    let mut s: String = raw
        .chars()
        .map(|c| match c {
            '\u{2212}' | '\u{2012}' | '\u{FE63}' | '\u{FF0D}' => '-',
            '\u{2019}' | '\u{2018}' => '\'',
            '\u{22C5}' | '\u{2219}' => '·',
            '\u{2217}' => '*',
            '\u{00D7}' => '×',
            '\r' | '\t' => ' ',
            c => c,
        })
        .collect();
    // Thousands groups joined by thin spaces or `{,}`; repeat for 1 234 567.
    for _ in 0..MAX_PASSES {
        let next = DIGIT_GROUP.replace_all(&s, "$1,$2").into_owned();
        if next == s {
            break;
        }
        s = next;
    }
    for _ in 0..MAX_PASSES {
        let next = TEXT_CMD.replace_all(&s, " $1").into_owned();
        if next == s {
            break;
        }
        s = next;
    }
    s = DEGREE.replace_all(&s, "°").into_owned();
    s = SUPERSCRIPT_EXP
        .replace_all(&s, |c: &Captures<'_>| {
            format!("10^{{{}}}", from_superscript(&c[1]))
        })
        .into_owned();
    s = FRAC_VARIANT.replace_all(&s, r"\frac").into_owned();
    s = s
        .replace(r"\pi", "π")
        .replace(r"\times", "×")
        .replace(r"\cdot", "·")
        .replace(r"\approx", "≈")
        .replace(r"\sqrt", "√")
        .replace(r"\%", "%")
        .replace(r"\{", "{")
        .replace(r"\}", "}");
    s = SPACING.replace_all(&s, " ").into_owned();
    s = MATH_DELIM.replace_all(&s, " ").into_owned();
    s = s.replace("**", "").replace("__", "").replace('`', "");
    s.chars()
        .map(|c| {
            if c == '\u{00A0}' || c == '\u{2009}' || c == '\u{202F}' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// `⁻¹²` → `-12`.
fn from_superscript(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '⁻' => '-',
            '⁺' => '+',
            '⁰' => '0',
            '¹' => '1',
            '²' => '2',
            '³' => '3',
            c => u32::from(c)
                .checked_sub(0x2070)
                .and_then(|d| char::from_digit(d, 10))
                .unwrap_or(c),
        })
        .collect()
}

/// All numbers in `text`, in order. Digits that belong to a word (`cm2`, `x1`,
/// `p000042`) or to an exponent (`6^{2}`, `cm^2`) are skipped: they are never an answer.
pub(crate) fn find_values(text: &str) -> Vec<ValueMatch> {
    VALUE
        .captures_iter(text)
        .filter_map(|caps| read_captures(text, &caps))
        .filter(|m| !is_precision(&text[m.span.end..]))
        .collect()
}

/// Whether the text after a number makes it a precision, not a quantity
/// ("rounded to 2 decimal places", "3 significant figures", "2 d.p.").
fn is_precision(after: &str) -> bool {
    static PRECISION: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^\s*(?i:decimal\s+(?:places?|digits?)|decimals\b|significant\s+(?:figures?|digits?)|sig\.?\s*figs?\b|d\.p\.|dp\b|s\.f\.)",
        )
    });
    PRECISION.is_match(after)
}

/// The first number in `text` (see [`find_values`]).
pub(super) fn first_value(text: &str) -> Option<ValueMatch> {
    find_values(text).into_iter().next()
}

/// Parses `text` as exactly one number (surrounding spaces, units, `°`, `%` allowed
/// after it). Used for the numeric text of multiple-choice options.
pub(crate) fn parse_value(text: &str) -> Option<f64> {
    let norm = normalize_text(text);
    let m = first_value(&norm)?;
    let before = norm[..m.span.start].trim();
    before.is_empty().then_some(m.value)
}

fn read_captures(text: &str, caps: &Captures<'_>) -> Option<ValueMatch> {
    let whole = caps.get(0)?;
    let mut start = whole.start();
    let mut negative = caps.name("sign").is_some();
    if negative && !sign_allowed(&text[..start]) {
        // `10-4`, `AB-5`: a hyphen after a word or number is not a sign.
        negative = false;
        start = caps.name("sign").map_or(start, |m| m.end());
        start += text[start..].len() - text[start..].trim_start().len();
    }
    if !number_allowed(&text[..start]) {
        return None;
    }
    let magnitude = magnitude(caps)?;
    let value = if negative { -magnitude } else { magnitude };
    value.is_finite().then(|| ValueMatch {
        value,
        span: start..whole.end(),
    })
}

/// A `-` is a sign at the start, after spaces, brackets, operators or punctuation.
fn sign_allowed(before: &str) -> bool {
    match before.chars().next_back() {
        None => true,
        Some(c) => !(c.is_alphanumeric() || c == ')' || c == '.' || c == '}'),
    }
}

/// A number may not continue a word or sit in an exponent or subscript.
fn number_allowed(before: &str) -> bool {
    let trimmed = before.trim_end_matches([' ', '{']);
    let exponent = trimmed.ends_with('^') || trimmed.ends_with('_');
    let glued = before
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphabetic() || c == '^' || c == '_' || c == '\\');
    !exponent && !glued
}

fn num(caps: &Captures<'_>, name: &str) -> Option<f64> {
    caps.name(name)?.as_str().replace(',', "").parse().ok()
}

fn magnitude(caps: &Captures<'_>) -> Option<f64> {
    let pi = std::f64::consts::PI;
    if caps.name("fden").is_some() {
        let numerator = match (num(caps, "fnum"), caps.name("fpi")) {
            (Some(n), Some(_)) => n * pi,
            (Some(n), None) => n,
            (None, Some(_)) => pi,
            (None, None) => return None,
        };
        return divide(numerator, num(caps, "fden")?);
    }
    if caps.name("fsn").is_some() {
        return divide(num(caps, "fsn")?, num(caps, "fsd")?);
    }
    if let Some(radicand) = num(caps, "r1")
        .or_else(|| num(caps, "r2"))
        .or_else(|| num(caps, "r3"))
    {
        return Some(num(caps, "coef").unwrap_or(1.0) * radicand.sqrt());
    }
    if caps.name("lonepi").is_some() {
        return Some(pi);
    }
    let mut v = num(caps, "a")?;
    if caps.name("b").is_some() {
        v = divide(v, num(caps, "b")?)?;
    }
    if let Some(e) = caps.name("e1").or_else(|| caps.name("e2")) {
        let exp: i32 = e.as_str().trim_start_matches('+').parse().ok()?;
        v *= 10f64.powi(exp.clamp(-400, 400));
    }
    if caps.name("pi").is_some() {
        v *= pi;
    }
    Some(v)
}

fn divide(n: f64, d: f64) -> Option<f64> {
    (d != 0.0).then(|| n / d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(s: &str) -> Vec<f64> {
        find_values(&normalize_text(s))
            .into_iter()
            .map(|m| m.value)
            .collect()
    }

    #[test]
    fn plain_and_grouped_numbers() {
        assert_eq!(values("1,234.5 and 12 and .5"), [1234.5, 12.0, 0.5]);
        assert_eq!(
            values("3,4 and 1{,}234 and 1\\,234\\,567"),
            [3.0, 4.0, 1234.0, 1234567.0]
        );
        assert_eq!(values("1\u{202F}234"), [1234.0]);
    }

    #[test]
    fn signs_fractions_and_scientific() {
        assert_eq!(values("x = −5"), [-5.0]);
        assert_eq!(values("10-4=6"), [10.0, 4.0, 6.0]);
        assert_eq!(values(r"\dfrac{45}{2}"), [22.5]);
        assert_eq!(values("45/9"), [5.0]);
        assert_eq!(values(r"1.2 \times 10^{3}"), [1200.0]);
        assert_eq!(values("2.5e-2"), [0.025]);
        assert_eq!(values("2.5 × 10³ and 4·10⁻²"), [2500.0, 0.04]);
        assert_eq!(values("1/0"), Vec::<f64>::new());
    }

    #[test]
    fn pi_and_roots() {
        let v = values(r"60\pi");
        assert!((v[0] - 188.495_559).abs() < 1e-5);
        let v = values(r"4\sqrt{3}");
        assert!((v[0] - 6.928_203).abs() < 1e-5);
        let v = values(r"\frac{3\pi}{2}");
        assert!((v[0] - 4.712_389).abs() < 1e-5);
    }

    #[test]
    fn units_exponents_and_words_are_not_numbers() {
        assert_eq!(values(r"$12.5\text{ cm}^2$"), [12.5]);
        // `6` in `6^{2}` is a base, a real number; the exponent is not.
        assert_eq!(values("60 cm2 and x1 and 6^{2}"), [60.0, 6.0]);
        assert_eq!(values(r"60^\circ and 45\%"), [60.0, 45.0]);
        assert_eq!(values("44 (rounded to 2 decimal places, 3 s.f.)"), [44.0]);
    }

    #[test]
    fn parse_value_needs_number_first() {
        assert_eq!(parse_value(" 150.8 "), Some(150.8));
        assert_eq!(parse_value("30°"), Some(30.0));
        assert_eq!(parse_value("x + 2"), None);
    }

    #[test]
    fn normalize_is_idempotent() {
        let s = r"**Answer:** $x = 1{,}234.5\text{ cm}^2$ \approx 60^\circ";
        let once = normalize_text(s);
        assert_eq!(normalize_text(&once), once);
    }
}
