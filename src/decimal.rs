//! Numbers as short decimal text: path data, transformed coordinates and problem texts.

/// `v` rounded to at most `max_decimals` decimals, without trailing zeros or a
/// trailing point, and with `-0` written `0`: `fmt_decimal(1.5, 2)` is `1.5`,
/// `fmt_decimal(2.0, 2)` is `2`, `fmt_decimal(-0.001, 2)` is `0`.
///
/// Rounding is Rust's `{:.N}` formatting: to nearest, ties to even, on the exact
/// binary value (so 0.125 gives `0.12` and 1.005, stored just below, `1`). An `f32`
/// converts to `f64` exactly, so `fmt_decimal(x as f64, n)` equals formatting the
/// `f32` itself. NaN and infinities are written `NaN`, `inf`, `-inf`.
/// `text` with every number (a run of digits, with its decimal point) written `#`:
/// two texts equal under it say the same thing with other numbers (`values`).
pub(crate) fn mask_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_digit() {
            out.push(c);
            continue;
        }
        while let Some(&d) = chars.peek() {
            let point = d == '.' && {
                let mut ahead = chars.clone();
                ahead.next();
                ahead.peek().is_some_and(char::is_ascii_digit)
            };
            if !(d.is_ascii_digit() || point) {
                break;
            }
            chars.next();
        }
        out.push('#');
    }
    out
}

/// The numbers of `text` (runs of digits with their decimal point), as written:
/// the tokens [`mask_numbers`] masks.
pub(crate) fn numbers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        out.push(&text[start..i]);
    }
    out
}

pub(crate) fn fmt_decimal(v: f64, max_decimals: usize) -> String {
    let s = format!("{v:.max_decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// The shortest decimal text that reads back as the same `f32`, without a trailing
/// `.0`: `0.1f32` is `0.1` (not `0.10000000149…`), `24.0` is `24`. Variant values are
/// named so in ids and manifests.
pub(crate) fn fmt_shortest_f32(v: f32) -> String {
    let s = format!("{v}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// An `f32` as the `f64` its shortest decimal text reads as: `0.1f32` gives `0.1`,
/// so JSON and range checks see the number as it was written.
pub(crate) fn shortest_f32_as_f64(v: f32) -> f64 {
    fmt_shortest_f32(v).parse().unwrap_or(f64::from(v))
}

/// A variant value's number as text: the shortest decimal that reads back as the
/// same `f64`, whole numbers without a fraction (`12`, `0.25`, `-15`). The manifest's
/// JSON ([`json_number`]), the dataset sinks' `value` columns and task names, and the
/// score report all spell a value so.
pub(crate) fn fmt_shortest_f64(v: f64) -> String {
    format!("{v}")
}

/// The number as JSON in the same spelling as [`fmt_shortest_f64`]: a whole number
/// as a JSON integer (`12`, never `12.0`), others shortest round-trip (`0.25`).
pub(crate) fn json_number(v: f64) -> serde_json::Value {
    // Below 2^53 every whole f64 is an exact i64 with the same digits.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match v.fract() == 0.0 && v.abs() < EXACT {
        true => serde_json::Value::from(v as i64),
        false => serde_json::Value::from(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_masked_whole_and_nothing_else_is() {
        assert_eq!(mask_numbers("AB = 12.5, BC = 3."), "AB = #, BC = #.");
        assert_eq!(mask_numbers("2x + 3 and 45°"), "#x + # and #°");
        assert_eq!(mask_numbers("no numbers"), "no numbers");
        assert_ne!(mask_numbers("x - 3"), mask_numbers("x + 3"));
        // `numbers` reads the tokens `mask_numbers` masks.
        assert_eq!(numbers("AB = 12.5, BC = 3."), ["12.5", "3"]);
        assert_eq!(numbers("2x + 3 and 45°"), ["2", "3", "45"]);
    }

    #[test]
    fn shortest_f32_forms() {
        assert_eq!(fmt_shortest_f32(0.1), "0.1");
        assert_eq!(fmt_shortest_f32(24.0), "24");
        assert_eq!(fmt_shortest_f32(0.85), "0.85");
        assert_eq!(shortest_f32_as_f64(0.1), 0.1);
        assert_ne!(f64::from(0.1f32), 0.1);
    }

    #[test]
    fn f64_values_read_the_same_as_text_and_json() {
        for (v, text) in [
            (12.0, "12"),
            (0.25, "0.25"),
            (-15.0, "-15"),
            (0.1, "0.1"),
            (512.0, "512"),
        ] {
            assert_eq!(fmt_shortest_f64(v), text);
            assert_eq!(json_number(v).to_string(), text);
        }
        assert_eq!(serde_json::Value::from(12.0).to_string(), "12.0");
        assert_eq!(json_number(1e300), serde_json::Value::from(1e300));
    }

    #[test]
    fn trims_zeros_and_negative_zero() {
        assert_eq!(fmt_decimal(1.5, 2), "1.5");
        assert_eq!(fmt_decimal(2.0, 2), "2");
        assert_eq!(fmt_decimal(100.0, 3), "100");
        assert_eq!(fmt_decimal(100.0, 0), "100");
        assert_eq!(fmt_decimal(-0.001, 2), "0");
        assert_eq!(fmt_decimal(-0.0, 3), "0");
        assert_eq!(fmt_decimal(-1.25, 3), "-1.25");
        assert_eq!(fmt_decimal(0.125, 2), "0.12");
        assert_eq!(fmt_decimal(12.3456, 3), "12.346");
        assert_eq!(fmt_decimal(f64::NAN, 2), "NaN");
    }

    #[test]
    fn an_f32_formats_as_its_f64_value() {
        let mut x = 0x2f4f_1234_u32;
        for _ in 0..100_000 {
            // xorshift over f32 bit patterns, finite values only.
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let v = f32::from_bits(x);
            if !v.is_finite() {
                continue;
            }
            for n in [2, 3] {
                assert_eq!(format!("{v:.n$}"), format!("{:.n$}", v as f64), "{v}");
            }
        }
    }
}
