//! The maps a newcomer reads first stay true: every module file's `//!` table of
//! contents names each module it declares (`lib.rs`, every `mod.rs`, the CLI's and
//! the tests' own), and the README's table of variant axes is the axis table's.

use geomrender::variants::AXES;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files that declare submodules: `lib.rs`, `main.rs` and every `mod.rs`.
fn module_roots(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            module_roots(&p, out);
        } else if matches!(
            p.file_name().and_then(|n| n.to_str()),
            Some("lib.rs" | "main.rs" | "mod.rs")
        ) {
            out.push(p);
        }
    }
}

/// The modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l
                .strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
                .or_else(|| l.strip_prefix("mod "))?;
            rest.strip_suffix(';').map(|m| m.trim().to_string())
        })
        .collect()
}

/// The file's `//!` documentation.
fn toc(text: &str) -> String {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn names_word(doc: &str, word: &str) -> bool {
    doc.match_indices(word).any(|(i, _)| {
        let before = doc[..i].chars().next_back();
        let after = doc[i + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part(before) && !part(after)
    })
}

#[test]
fn every_table_of_contents_names_its_modules() {
    let mut files = Vec::new();
    for dir in ["src", "tests/it", "benches"] {
        let dir = root().join(dir);
        if dir.is_dir() {
            module_roots(&dir, &mut files);
        }
    }
    files.sort();
    let mut missing = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let doc = toc(&text);
        for m in declared(&text) {
            if !names_word(&doc, &m) {
                missing.push(format!(
                    "{}: {m}",
                    f.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from their parent's //! table of contents:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_readme_axis_table_is_the_axis_table() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let rows: Vec<(String, String, String)> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| axis | changes | base | default sweep |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").collect();
            (
                cells[0].trim().trim_matches('`').to_string(),
                cells[2].trim().to_string(),
                cells[cells.len() - 1].trim().to_string(),
            )
        })
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let table: Vec<&str> = AXES.iter().map(|a| a.name).collect();
    assert_eq!(names, table, "README's axes, in order");
    for ((name, _, sweep), a) in rows.iter().zip(AXES) {
        // `seeds 1, 2, 3` reads as the sweep 1, 2, 3.
        let sweep = sweep.trim_start_matches("seeds ");
        assert_eq!(
            sweep,
            a.sweep.join(", "),
            "README's default sweep of {name}"
        );
    }
}
