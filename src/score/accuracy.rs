//! Relaxed accuracy (GeomVerse §4): a prediction p is correct when
//! |p − label| ≤ relative · |label|. A zero label has no relative scale, so it uses
//! the absolute tolerance instead: |p| ≤ absolute_at_zero.

use super::cascade::Extracted;
use super::manifest::Label;
use super::normalize::parse_value;
use serde::Serialize;

/// How close a numeric answer must be to count as correct.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tolerance {
    /// Relative tolerance; GeomVerse uses 3 %.
    pub relative: f64,
    /// Absolute tolerance used only when the label is exactly 0.
    pub absolute_at_zero: f64,
}

impl Tolerance {
    /// GeomVerse's δ = 3 %.
    pub(crate) const DEFAULT_RELATIVE: f64 = 0.03;
    /// Half a unit in the second decimal place: GeomVerse rounds answers to 2
    /// decimals, so a prediction that rounds to 0.00 matches a zero label.
    pub(crate) const DEFAULT_ABSOLUTE_AT_ZERO: f64 = 0.005;

    /// Whether `p` matches `label`. Bounds are inclusive, with a few ulps of slack so
    /// that a value exactly on the boundary is not lost to binary rounding.
    pub(crate) fn matches(&self, p: f64, label: f64) -> bool {
        let diff = (p - label).abs();
        let allowed = if label == 0.0 {
            self.absolute_at_zero
        } else {
            self.relative * label.abs()
        };
        diff <= allowed + 4.0 * f64::EPSILON * label.abs().max(p.abs())
    }
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            relative: Self::DEFAULT_RELATIVE,
            absolute_at_zero: Self::DEFAULT_ABSOLUTE_AT_ZERO,
        }
    }
}

/// Whether an extracted answer is correct for `label`.
///
/// For multiple choice, a letter must be the right option; a number counts as the
/// option whose numeric text it matches (nearest one when several are within
/// tolerance), so "150.8" answers option C = "150.8".
pub(crate) fn is_correct(answer: Extracted, label: &Label, tol: &Tolerance) -> bool {
    match (answer, label) {
        (Extracted::Number(p), Label::Number(l)) => tol.matches(p, *l),
        (Extracted::Choice(_), Label::Number(_)) => false,
        (Extracted::Choice(i), Label::Choice { index, .. }) => i == *index,
        (Extracted::Number(p), Label::Choice { index, choices }) => {
            let nearest = choices
                .iter()
                .enumerate()
                .filter_map(|(i, text)| Some((i, parse_value(text)?)))
                .filter(|(_, v)| tol.matches(p, *v))
                .min_by(|a, b| (a.1 - p).abs().total_cmp(&(b.1 - p).abs()));
            nearest.is_some_and(|(i, _)| i == *index)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_percent_inclusive() {
        let t = Tolerance::default();
        // 0.03 · 44 = 1.32: 42.68 and 45.32 are exactly on the bounds.
        assert!(t.matches(45.32, 44.0));
        assert!(t.matches(42.68, 44.0));
        assert!(!t.matches(45.33, 44.0));
        assert!(!t.matches(42.67, 44.0));
        // Negative labels: the band is symmetric in |label|.
        assert!(t.matches(-10.3, -10.0));
        assert!(!t.matches(10.0, -10.0));
    }

    #[test]
    fn zero_label_is_absolute() {
        let t = Tolerance::default();
        assert!(t.matches(0.0, 0.0));
        assert!(t.matches(-0.005, 0.0));
        assert!(!t.matches(0.006, 0.0));
    }

    #[test]
    fn choices_by_letter_or_nearest_value() {
        let t = Tolerance::default();
        let label = Label::Choice {
            index: 0,
            choices: vec!["4.0".into(), "4.1".into(), "9°".into()],
        };
        assert!(is_correct(Extracted::Choice(0), &label, &t));
        assert!(!is_correct(Extracted::Choice(1), &label, &t));
        assert!(is_correct(Extracted::Number(4.02), &label, &t));
        // 4.1 is within 3 % of 4.0 but is option B exactly.
        assert!(!is_correct(Extracted::Number(4.1), &label, &t));
        assert!(!is_correct(Extracted::Number(9.0), &label, &t));
        assert!(!is_correct(Extracted::Choice(0), &Label::Number(0.0), &t));
    }
}
