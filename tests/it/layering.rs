//! Data flows one way: a top-level module of the library may use only the modules
//! that `src/lib.rs` declares before it (the stage order: leaf helpers, then the
//! pipeline's stages). Checked on the source text: every `crate::<module>` path in a
//! module's files, in `use` lines and inline paths alike.

use std::path::{Path, PathBuf};

/// Module names in the order `src/lib.rs` declares them.
fn declared_order(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("read lib.rs");
    lib.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l
                .strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))?;
            Some(rest.trim_end_matches(';').trim().to_string())
        })
        .collect()
}

/// The `.rs` files of a module: `src/<m>.rs` or everything under `src/<m>/`.
fn files_of(src: &Path, module: &str) -> Vec<PathBuf> {
    let single = src.join(format!("{module}.rs"));
    if single.is_file() {
        return vec![single];
    }
    let mut out = Vec::new();
    let mut stack = vec![src.join(module)];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read module dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out
}

/// Every `crate::<name>` that `text` mentions, with its line number; `use crate::{a, b}`
/// groups count each name.
fn crate_refs(text: &str) -> Vec<(usize, String)> {
    let mut refs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                // The first segment of each top-level part of the group.
                let (mut depth, mut start) = (0, true);
                let mut name = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            if !name.is_empty() {
                                refs.push((i + 1, std::mem::take(&mut name)));
                            }
                            start = true;
                        }
                        c if start && (c.is_alphanumeric() || c == '_') => name.push(c),
                        _ if start && !name.is_empty() => {
                            refs.push((i + 1, std::mem::take(&mut name)));
                            start = false;
                        }
                        _ => {}
                    }
                }
                if !name.is_empty() {
                    refs.push((i + 1, name));
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                refs.push((i + 1, name));
            }
            rest = after;
        }
    }
    refs
}

#[test]
fn no_module_imports_a_later_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let order = declared_order(&src);
    assert!(
        order.len() >= 8 && order.iter().any(|m| m == "pipeline"),
        "lib.rs declares {order:?}"
    );
    let mut back_edges = Vec::new();
    for (rank, module) in order.iter().enumerate() {
        for file in files_of(&src, module) {
            let text = std::fs::read_to_string(&file).expect("read source");
            for (line, used) in crate_refs(&text) {
                if used == *module {
                    continue;
                }
                match order.iter().position(|m| *m == used) {
                    Some(r) if r < rank => {}
                    Some(_) => back_edges.push(format!(
                        "{}:{line}: {module} uses crate::{used}, declared after it in lib.rs",
                        file.strip_prefix(&src).unwrap_or(&file).display()
                    )),
                    None => back_edges.push(format!(
                        "{}:{line}: crate::{used} is not a module lib.rs declares",
                        file.strip_prefix(&src).unwrap_or(&file).display()
                    )),
                }
            }
        }
    }
    assert!(back_edges.is_empty(), "{}", back_edges.join("\n"));
}

#[test]
fn the_checker_sees_grouped_and_inline_paths() {
    let refs = crate_refs(
        "use crate::scene::{A, B};\nuse crate::{font, vec2::{V, W}, jsonl};\nlet x = crate::output::f(); // crate::cli",
    );
    let names: Vec<&str> = refs.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["scene", "font", "vec2", "jsonl", "output"]);
}

/// The optional dependencies stay behind their cargo features: wgpu, glyphon and
/// pollster only in the modules that `#[cfg(feature = "gpu")]` declares, Arrow and
/// Parquet only in those `#[cfg(feature = "parquet")]` declares, clap, indicatif
/// and anyhow only in the binary. They are dev-dependencies too (so that
/// the library-only test build reuses the default one), so no test build would
/// catch a stray use; this check does.
#[test]
fn optional_dependencies_stay_behind_their_features() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // (declaring file, module line, its files, feature) of every gated module.
    let gated = [
        ("render/mod.rs", "pub mod gpu;", "render/gpu/", "gpu"),
        ("render/mod.rs", "mod prepare;", "render/prepare.rs", "gpu"),
        ("render/mod.rs", "mod text;", "render/text.rs", "gpu"),
        (
            "pipeline/mod.rs",
            "mod gpu_stage;",
            "pipeline/gpu_stage.rs",
            "gpu",
        ),
        (
            "output/datasets/mod.rs",
            "mod parquet;",
            "output/datasets/parquet.rs",
            "parquet",
        ),
        (
            "output/datasets/mod.rs",
            "mod card;",
            "output/datasets/card.rs",
            "parquet",
        ),
    ];
    for (parent, decl, _, feature) in gated {
        let text = std::fs::read_to_string(src.join(parent)).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let at = lines.iter().position(|l| *l == decl);
        let cfg = format!("#[cfg(feature = \"{feature}\")]");
        assert!(
            at.is_some_and(|i| i > 0 && lines[i - 1] == cfg),
            "{parent}: `{decl}` is not behind {cfg}"
        );
    }
    let behind =
        |rel: &str, feature: &str| gated.iter().any(|g| g.3 == feature && rel.starts_with(g.2));
    let mut stack = vec![src.clone()];
    let mut strays = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                for (krate, allowed) in [
                    ("wgpu", behind(&rel, "gpu")),
                    ("glyphon", behind(&rel, "gpu")),
                    ("pollster", behind(&rel, "gpu")),
                    ("arrow_array", behind(&rel, "parquet")),
                    ("arrow_schema", behind(&rel, "parquet")),
                    ("parquet", behind(&rel, "parquet")),
                    // The library's enums derive clap's ValueEnum, under `cli` only.
                    (
                        "clap",
                        rel.starts_with("cli/")
                            || rel == "main.rs"
                            || code
                                .trim_start()
                                .starts_with("#[cfg_attr(feature = \"cli\","),
                    ),
                    ("indicatif", rel.starts_with("cli/") || rel == "main.rs"),
                    ("anyhow", rel.starts_with("cli/") || rel == "main.rs"),
                ] {
                    let uses = code.match_indices(krate).any(|(i, _)| {
                        let before = code[..i].chars().next_back();
                        let after = &code[i + krate.len()..];
                        // (`mod parquet;` declares our module of that name.)
                        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                            && !code[..i].ends_with("mod ")
                            && (after.starts_with("::") || after.starts_with(';'))
                    });
                    if uses && !allowed {
                        strays.push(format!("src/{rel}:{}: uses {krate}", n + 1));
                    }
                }
            }
        }
    }
    assert!(strays.is_empty(), "{}", strays.join("\n"));
}
