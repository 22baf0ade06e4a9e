//! The library's public API is a reviewed list: `docs/public-api.txt` holds every
//! `pub` item of `src/` (not the command line's `src/cli/`, whose one public item
//! is `cli::main`, nor `main.rs`) with its
//! module and signature, and this test compares it with the source, so that an
//! addition, a removal or a changed signature is a diff in review.
//! `GEOMRENDER_UPDATE_API=1 cargo test --test it public_api` writes the list.
//!
//! It also holds a ratchet on the count, as
//! `grep -rhE '^\s*pub (fn|struct|enum|const|static|mod|use|trait|type) ' src
//! --exclude-dir=cli --exclude=main.rs | wc -l` counts them: never more than at the
//! last review, and at most 400 (issue 45). What is public is what a user of the
//! library names: the Python package, the benches, the doc examples and these
//! integration tests, and every type their signatures carry; the command line is
//! the library's `cli` module, and checks of crate-private items are the library's
//! own tests (`src/tests/`).

use std::path::Path;

/// The item kinds the count covers (a `pub` field or variant is not an item).
const KINDS: [&str; 9] = [
    "fn", "struct", "enum", "const", "static", "mod", "use", "trait", "type",
];

/// The most public items the library may have: the count at the last review
/// (1,072 before issue 45's narrowing, 677 before the command line and the
/// internal checks moved into the library). Lower it as items go; never raise it.
const MAX_ITEMS: usize = 400;

/// `src/a/b.rs` → `a::b`, `src/a/mod.rs` → `a`, `src/lib.rs` → `crate`.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().unwrap_or_default();
    match file.as_str() {
        "lib.rs" | "mod.rs" => {}
        f => parts.push(f.trim_end_matches(".rs").to_string()),
    }
    match parts.is_empty() {
        true => "crate".to_string(),
        false => parts.join("::"),
    }
}

/// Whether the trimmed line starts a counted `pub` item.
fn counted(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("pub ") else {
        return false;
    };
    KINDS
        .iter()
        .any(|k| rest.strip_prefix(k).is_some_and(|r| r.starts_with(' ')))
}

/// The item's signature: from `pub` to its body (`{` or `;` outside brackets),
/// whitespace collapsed; a const's or static's value is left out.
fn signature(lines: &[&str]) -> String {
    let text: String = lines.join(" ");
    let mut depth = 0i32;
    let mut end = text.len();
    let value_cut = text.starts_with("pub const ") || text.starts_with("pub static ");
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' => depth -= 1,
            '>' if !text[..i].ends_with('-') && !text[..i].ends_with('=') => depth -= 1,
            '{' if depth <= 0 && !text.starts_with("pub use ") => {
                end = i;
                break;
            }
            ';' if depth <= 0 => {
                end = i;
                break;
            }
            '=' if value_cut && depth <= 0 && !text[i..].starts_with("=>") => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    text[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let rel = path.strip_prefix(root).unwrap();
        if path.is_dir() {
            if rel != Path::new("cli") {
                walk(&path, root, out);
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") || rel == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let module = module_of(rel);
        for (i, line) in lines.iter().enumerate() {
            if counted(line) {
                let upto = (i + 40).min(lines.len());
                out.push(format!("{module}: {}", signature(&lines[i..upto])));
            }
        }
    }
}

/// Every counted `pub` item as `module: signature`, in file order.
fn public_items() -> Vec<String> {
    let root = super::support::repo().join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

#[test]
fn the_public_api_is_the_reviewed_list() {
    let items = public_items();
    let listed = items.join("\n") + "\n";
    let path = super::support::repo().join("docs/public-api.txt");
    if std::env::var_os("GEOMRENDER_UPDATE_API").is_some() {
        std::fs::write(&path, &listed).unwrap();
    }
    let reviewed = std::fs::read_to_string(&path).unwrap_or_default();
    if reviewed != listed {
        let old: std::collections::BTreeSet<&str> = reviewed.lines().collect();
        let new: std::collections::BTreeSet<&str> = listed.lines().collect();
        let added: Vec<_> = new.difference(&old).map(|l| format!("+ {l}")).collect();
        let removed: Vec<_> = old.difference(&new).map(|l| format!("- {l}")).collect();
        panic!(
            "the public API differs from docs/public-api.txt \
             (GEOMRENDER_UPDATE_API=1 writes it; review the diff):\n{}\n{}",
            added.join("\n"),
            removed.join("\n")
        );
    }
    assert!(
        items.len() <= MAX_ITEMS,
        "{} public items; the ratchet is {MAX_ITEMS}",
        items.len()
    );
}

/// The reader itself: a multi-line signature is joined, a body and a const's
/// value are cut, and lines that are not counted items are not.
#[test]
fn signatures_are_read_whole() {
    let lines = [
        "pub fn f<T: Into<u8>>(",
        "a: T,",
        ") -> Result<(), E> {",
        "body",
    ];
    assert_eq!(
        signature(&lines),
        "pub fn f<T: Into<u8>>( a: T, ) -> Result<(), E>"
    );
    assert_eq!(
        signature(&["pub const N: usize = 4;"]),
        "pub const N: usize"
    );
    assert_eq!(signature(&["pub use a::{b, c};"]), "pub use a::{b, c}");
    assert_eq!(
        signature(&["pub struct P(pub u8);"]),
        "pub struct P(pub u8)"
    );
    assert!(counted("pub fn x() {}"));
    assert!(!counted("pub(crate) fn x() {}"));
    assert!(!counted("pub name: u8,"));
    assert!(!counted("pub fnord: u8,"));
    assert_eq!(module_of(Path::new("scene/mod.rs")), "scene");
    assert_eq!(module_of(Path::new("scene/svg.rs")), "scene::svg");
    assert_eq!(module_of(Path::new("lib.rs")), "crate");
}
