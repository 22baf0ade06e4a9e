//! HTML text for the pages we write (the gallery, `score --html`): escaping of text
//! and attributes, JSON inside `<script>`, and Unicode bidirectional controls shown
//! as visible code points, so that a hostile id, question or model output renders
//! as the text it is and never reorders or breaks out of the page around it.

use std::fmt::Write;

/// Whether `c` reorders text around it: the embedding, override and isolate
/// controls and the implicit marks (Unicode's Bidi_Control property).
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` for an HTML text node or a quoted attribute value: `& < > " '` as
/// references, bidi controls written visibly (`⟨U+202E⟩`), other control
/// characters but tab and line breaks dropped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_bidi_control(c) => {
                let _ = write!(out, "⟨U+{:04X}⟩", c as u32);
            }
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A relative path (with `/` separators) as a URL path: each segment
/// percent-encoded but for unreserved characters, so `#`, `?`, `%` and spaces in a
/// file name stay part of it. Escape the result again with [`escape`] for an attribute.
pub(crate) fn url_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// The file name (with `.html`) of the page of `id`, one name per id also on a
/// file system that folds case: lower-case letters, digits, `.` and `-` as they
/// are, `_` as `__`, an upper-case letter as `_` and its lower case, any other
/// byte (none in an id the tool accepts) as `_~` and two hex digits, a leading `.`
/// too. A name that would pass 200 bytes is the first 50 characters so written,
/// `~~` (never part of a short name) and 32 hex digits of the id's SHA-256.
pub(crate) fn page_name(id: &str) -> String {
    let mut name = String::with_capacity(id.len() + 8);
    let mut cut = 0;
    for (i, b) in id.bytes().enumerate() {
        match b {
            b'a'..=b'z' | b'0'..=b'9' | b'-' => name.push(b as char),
            b'.' if i > 0 => name.push('.'),
            b'_' => name.push_str("__"),
            b'A'..=b'Z' => {
                name.push('_');
                name.push(b.to_ascii_lowercase() as char);
            }
            _ => {
                let _ = write!(name, "_~{b:02x}");
            }
        }
        if i + 1 == 50 {
            cut = name.len();
        }
    }
    if name.len() > 200 {
        name.truncate(cut);
        let _ = write!(name, "~~{:032x}", crate::digest::fingerprint(id));
    }
    name.push_str(".html");
    name
}

/// A JSON value as text to place inside a `<script>` element or a `.js` file:
/// `<`, `>`, `&` and the line separators U+2028/U+2029 as `\u` escapes, so no
/// string can close the element or open a comment.
pub(crate) fn script_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("values we write serialise");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_names_are_one_per_id_also_when_case_is_folded() {
        assert_eq!(page_name("s3-000004"), "s3-000004.html");
        assert_eq!(page_name("A_b.c"), "_a__b.c.html");
        assert_eq!(page_name(".x/y"), "_~2ex_~2fy.html");
        // Ids that differ only in case, or in `_` against an escape, stay apart.
        let ids = [
            "ab", "Ab", "aB", "AB", "_ab", "__ab", "_Ab", "a_b", "a__b", "a_B",
        ];
        let names: std::collections::HashSet<String> =
            ids.iter().map(|i| page_name(i).to_lowercase()).collect();
        assert_eq!(names.len(), ids.len());
        // The longest ids fit a file name (255 bytes) and stay apart.
        let long = |c: &str| format!("{}{c}", "Q".repeat(199));
        let (a, b) = (page_name(&long("a")), page_name(&long("b")));
        assert!(a.len() <= 255 && a != b, "{a}");
        assert!(a.contains("~~") && !page_name(&"q".repeat(200)).contains('~'));
    }

    #[test]
    fn markup_quotes_and_bidi_controls_are_text() {
        let s = "<script>alert('x')</script> \"q\" & \u{202E}evil\u{2066}";
        let e = escape(s);
        assert_eq!(
            e,
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;q&quot; &amp; \
             ⟨U+202E⟩evil⟨U+2066⟩"
        );
        assert!(!e.chars().any(is_bidi_control));
    }

    #[test]
    fn script_json_cannot_close_the_element_and_reads_back() {
        let v = serde_json::json!({"id": "</script><script>x()</script>\u{2028}&"});
        let s = script_json(&v);
        assert!(!s.contains("</") && !s.contains('<') && !s.contains('\u{2028}'));
        assert_eq!(serde_json::from_str::<serde_json::Value>(&s).unwrap(), v);
    }

    #[test]
    fn url_paths_keep_separators_and_encode_the_rest() {
        assert_eq!(url_path("images/a b#1?.png"), "images/a%20b%231%3F.png");
        assert_eq!(url_path("é.png"), "%C3%A9.png");
    }
}
