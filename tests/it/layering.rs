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
        (
            "output/datasets/mod.rs",
            "mod features;",
            "output/datasets/features.rs",
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

// File-level import cycles.
//
// Two files import each other when each names the other through a `crate::`,
// `super::` or `self::` path (in `use` lines, groups and inline paths alike, test
// modules included). A path points at the file of its longest prefix that is a
// module: `crate::a::b::Item` at `a/b.rs` (or `a/b/mod.rs`), or at `a.rs` (or
// `a/mod.rs`) when `b` is an item; a `mod.rs` is its directory's module. A module's
// paths into its own submodules (`mod x;` with `pub use x::…`, `self::x::…` or
// `crate::a::x::…` alike: the facade that declares and re-exports them) are not
// imports; its children's paths back up to it are. Within a crate only: the library's
// files (the command line's `src/cli/` among them) never name the binary's
// `src/main.rs` or the Python package's (`python/src/`), so no cycle can run
// through two crates.

/// `text` with comments, string and character literals blanked (line breaks kept),
/// so that braces and `::` in them are not read as code.
fn code_of(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        let token_start = i == 0 || !ident(c[i - 1]);
        if c[i] == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (token_start || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
            && matches!(at(i + 1), '#' | '"')
            && {
                let mut j = i + 1;
                while at(j) == '#' {
                    j += 1;
                }
                at(j) == '"'
            }
        {
            // A raw string: r"…", r#"…"#, br#"…"#.
            let mut j = i + 1;
            while c[j] == '#' {
                j += 1;
            }
            let hashes = j - i - 1;
            out.extend(&c[i..=j]);
            i = j + 1;
            let closes = |k: usize| c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#');
            while i < c.len() && !closes(i) {
                blank(&mut out, c[i]);
                i += 1;
            }
            let end = (i + 1 + hashes).min(c.len());
            out.extend(&c[i.min(c.len())..end]);
            i = end;
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                out.push('"');
                i += 1;
            }
        } else if c[i] == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A character literal ('{', '\'', '\u{7b}'); a lifetime ('a) is code.
            out.push('\'');
            i += 1;
            if c[i] == '\\' {
                blank(&mut out, c[i]);
                i += 1;
            }
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() && c[i] != '\'' && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
            if i < c.len() && c[i] == '\'' {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The tokens of code that paths are made of (identifiers, `::`, `{`, `}`, `,`, `;`,
/// `*`, any other character alone), each with its line number.
fn tokens(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let c: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < c.len() {
            if c[i].is_whitespace() {
                i += 1;
            } else if c[i].is_alphanumeric() || c[i] == '_' {
                let s = i;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                out.push((n + 1, c[s..i].iter().collect()));
            } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
                out.push((n + 1, "::".to_string()));
                i += 2;
            } else {
                out.push((n + 1, c[i].to_string()));
                i += 1;
            }
        }
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The paths of the use tree or path that starts at `toks[i]`, each as its segments
/// (`a::{b, c::{d, *}}` gives `a::b`, `a::c::d`, `a::c`), and the index after it.
fn use_tree(toks: &[(usize, String)], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let tok = |k: usize| toks.get(k).map_or("", |t| t.1.as_str());
    if tok(i) == "{" {
        let mut all = Vec::new();
        i += 1;
        while i < toks.len() && tok(i) != "}" {
            let (paths, next) = use_tree(toks, i);
            all.extend(paths);
            // Past anything the grammar above does not read (`as`, generics), to the
            // next part of the group.
            i = next.max(i + 1);
            while i < toks.len() && !matches!(tok(i), "," | "}") {
                i += 1;
            }
            if tok(i) == "," {
                i += 1;
            }
        }
        return (all, i + 1);
    }
    if !is_ident(tok(i)) {
        return (vec![Vec::new()], i);
    }
    let segment = tok(i).to_string();
    if tok(i + 1) != "::" {
        return (vec![vec![segment]], i + 1);
    }
    let (tails, next) = use_tree(toks, i + 2);
    let paths = tails
        .into_iter()
        .map(|tail| std::iter::once(segment.clone()).chain(tail).collect())
        .collect();
    (paths, next)
}

/// One file of a crate as the import graph sees it.
struct SourceFile {
    /// The file's path, relative to the directory the graph was read from.
    path: String,
    /// Its module path in its crate (`score::extract`; empty for the crate root).
    module: Vec<String>,
    /// The `mod x;` it declares (children in files).
    children: Vec<String>,
    /// Every `crate::`/`super::`/`self::` path it names: line, the module path it is
    /// named from (the file's, plus any inline `mod x { … }` around it), the path.
    paths: Vec<(usize, Vec<String>, Vec<String>)>,
}

fn read_source(path: String, module: Vec<String>, text: &str) -> SourceFile {
    let toks = tokens(&code_of(text));
    let tok = |k: usize| toks.get(k).map_or("", |t| t.1.as_str());
    let (mut children, mut paths) = (Vec::new(), Vec::new());
    // The open braces: `Some(name)` for an inline module's.
    let mut braces: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = tok(i);
        let after_mod = i >= 2 && tok(i - 2) == "mod" && is_ident(tok(i - 1));
        match t {
            "{" => {
                braces.push(after_mod.then(|| tok(i - 1).to_string()));
                i += 1;
            }
            "}" => {
                braces.pop();
                i += 1;
            }
            ";" if after_mod && braces.iter().all(Option::is_none) => {
                children.push(tok(i - 1).to_string());
                i += 1;
            }
            "crate" | "super" | "self" if tok(i + 1) == "::" && (i == 0 || tok(i - 1) != "::") => {
                let from: Vec<String> = module
                    .iter()
                    .cloned()
                    .chain(braces.iter().flatten().cloned())
                    .collect();
                let (found, next) = use_tree(&toks, i);
                for p in found {
                    paths.push((toks[i].0, from.clone(), p));
                }
                i = next.max(i + 1);
            }
            _ => i += 1,
        }
    }
    SourceFile {
        path,
        module,
        children,
        paths,
    }
}

/// `(module, path)` for each `#[path = "…"] mod module;` of `text`.
fn path_attributes(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(p) = line
            .strip_prefix("#[path = \"")
            .and_then(|r| r.strip_suffix("\"]"))
        {
            pending = Some(p.to_string());
        } else if line.starts_with("#[") {
            continue;
        } else if let Some(p) = pending.take() {
            let name = line
                .trim_end_matches(';')
                .rsplit(' ')
                .next()
                .unwrap_or_default();
            if line.contains("mod ") {
                out.push((name.to_string(), p));
            }
        }
    }
    out
}

/// `a/b/../c.rs` → `a/c.rs`.
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// The files of the crate whose root is `root` (relative to `read`'s directory),
/// found by following its `mod x;` declarations (and their `#[path]`s).
fn crate_files(read: &dyn Fn(&str) -> Option<String>, root: &str) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut queue = vec![(root.to_string(), Vec::<String>::new())];
    while let Some((path, module)) = queue.pop() {
        let text = read(&path).unwrap_or_else(|| panic!("{path}: cannot read"));
        let file = read_source(path, module, &text);
        let (dir, stem) = file.path.rsplit_once('/').unwrap_or(("", &file.path));
        let stem = stem.trim_end_matches(".rs");
        let is_root = file.module.is_empty() || stem == "mod";
        let base = match (dir, is_root) {
            ("", true) => String::new(),
            ("", false) => format!("{stem}/"),
            (d, true) => format!("{d}/"),
            (d, false) => format!("{d}/{stem}/"),
        };
        let attrs = path_attributes(&text);
        for child in &file.children {
            let flat = format!("{base}{child}.rs");
            let nested = format!("{base}{child}/mod.rs");
            let at = match attrs.iter().find(|(m, _)| m == child) {
                // `#[path]` is relative to the directory of a `mod.rs` or the crate root.
                Some((_, p)) => normalise(&format!("{dir}/{p}")),
                None if read(&flat).is_some() => flat,
                None => nested,
            };
            let mut m = file.module.clone();
            m.push(child.clone());
            queue.push((at, m));
        }
        files.push(file);
    }
    files
}

/// The import edges between the files of one crate: (from, to, line of the first
/// path that makes it), self-references left out.
fn import_edges(files: &[SourceFile]) -> Vec<(usize, usize, usize)> {
    let by_module: std::collections::HashMap<&[String], usize> = files
        .iter()
        .enumerate()
        .map(|(k, f)| (f.module.as_slice(), k))
        .collect();
    let mut edges: Vec<(usize, usize, usize)> = Vec::new();
    for (k, f) in files.iter().enumerate() {
        for (line, from, path) in &f.paths {
            let (mut full, rest) = match path[0].as_str() {
                "crate" => (Vec::new(), &path[1..]),
                "self" => (from.clone(), &path[1..]),
                _ => {
                    let supers = path.iter().take_while(|s| *s == "super").count();
                    let mut base = from.clone();
                    base.truncate(from.len().saturating_sub(supers));
                    (base, &path[supers..])
                }
            };
            full.extend(rest.iter().filter(|s| *s != "self").cloned());
            let target = (0..=full.len())
                .rev()
                .find_map(|n| by_module.get(&full[..n]).copied())
                .expect("the crate root is a module");
            // Into its own submodules: the facade (see above).
            let below = files[target].module.starts_with(&f.module);
            if !below && !edges.iter().any(|e| (e.0, e.1) == (k, target)) {
                edges.push((k, target, *line));
            }
        }
    }
    edges
}

/// The import cycles among `files`: each strongly connected component of two or more
/// files, as "a.rs:12 → b.rs:3 → a.rs" along one cycle through it.
fn import_cycles(files: &[SourceFile]) -> Vec<String> {
    let edges = import_edges(files);
    let n = files.len();
    let out_of = |v: usize| edges.iter().filter(move |e| e.0 == v);
    // Reachability by depth-first search from each file (the graphs are small).
    let reach = |from: usize| {
        let mut seen = vec![false; n];
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            for e in out_of(v) {
                if !seen[e.1] {
                    seen[e.1] = true;
                    stack.push(e.1);
                }
            }
        }
        seen
    };
    let reaches: Vec<Vec<bool>> = (0..n).map(reach).collect();
    let mut done = vec![false; n];
    let mut cycles = Vec::new();
    for v in 0..n {
        if done[v] || !reaches[v][v] {
            continue;
        }
        let component: Vec<usize> = (0..n).filter(|&w| reaches[v][w] && reaches[w][v]).collect();
        for &w in &component {
            done[w] = true;
        }
        // One cycle through v: a shortest path from v back to v, by breadth-first search.
        let mut parent: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut queue = std::collections::VecDeque::from([v]);
        'search: while let Some(u) = queue.pop_front() {
            for e in out_of(u) {
                if parent[e.1].is_none() {
                    parent[e.1] = Some((u, e.2));
                    if e.1 == v {
                        break 'search;
                    }
                    queue.push_back(e.1);
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = v;
        while let Some((u, line)) = parent[at] {
            steps.push(format!("{}:{line}", files[u].path));
            at = u;
            if at == v {
                break;
            }
        }
        steps.reverse();
        let names: Vec<&str> = component.iter().map(|&w| files[w].path.as_str()).collect();
        cycles.push(format!(
            "{} → {} (the files {})",
            steps.join(" → "),
            files[v].path,
            names.join(", ")
        ));
    }
    cycles
}

/// No two source files import each other, through any number of files between: in
/// the library, the binary and the Python package. Where a cycle is found, the item
/// that both files need belongs in the lower of them, or in a small file of its own.
#[test]
fn no_file_level_import_cycles() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |rel: &str| std::fs::read_to_string(repo.join(rel)).ok();
    let mut cycles = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for root in ["src/lib.rs", "src/main.rs", "python/src/lib.rs"] {
        let files = crate_files(&read, root);
        seen.extend(files.iter().map(|f| f.path.clone()));
        cycles.extend(import_cycles(&files));
    }
    // Every source file belongs to a crate, so none escapes the check.
    let mut stack = vec![repo.join("src"), repo.join("python/src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let rel = path
                    .strip_prefix(repo)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                assert!(seen.contains(&rel), "{rel} is in no crate's module tree");
            }
        }
    }
    assert!(seen.len() > 100, "{} files read", seen.len());
    assert!(
        cycles.is_empty(),
        "{} file-level import cycle(s):\n{}",
        cycles.len(),
        cycles.join("\n")
    );
}

/// The detector on a crate of its own: it finds the cycles planted in it (two files,
/// three files, through `super::` groups, `self::` and an inline test module's
/// `super::super::`), and reads no import in comments, strings or a parent's
/// re-export of its children.
#[test]
fn the_cycle_detector_finds_planted_cycles() {
    let crate_of = |files: &[(&str, &str)]| {
        let map: std::collections::HashMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let read = move |rel: &str| map.get(rel).cloned();
        import_cycles(&crate_files(&read, "lib.rs"))
    };
    let clean = [
        ("lib.rs", "pub mod a;\npub mod b;\npub mod s;\n"),
        (
            "a.rs",
            "use crate::b::X; // crate::s::Y\nfn f() { let _ = \"crate::s::{Z}\"; let _ = '{'; }",
        ),
        (
            "b.rs",
            "pub struct X;\n/* use crate::a::F; */ fn g<'a>(x: &'a str) -> &'a str { x }",
        ),
        (
            "s/mod.rs",
            "mod inner;\npub use inner::Y;\npub struct Z;\nfn f() { self::inner::g(); }",
        ),
        (
            "s/inner.rs",
            "pub struct Y;\nuse super::Z;\n#[cfg(test)]\nmod tests { use super::*; }",
        ),
    ];
    assert_eq!(crate_of(&clean), Vec::<String>::new());

    let two = [
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        ("a.rs", "use crate::b::X;\npub struct Y;"),
        (
            "b.rs",
            "pub struct X;\nfn f() -> crate::a::Y { crate::a::Y }",
        ),
    ];
    let cycles = crate_of(&two);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(
        cycles[0].contains("a.rs:1") && cycles[0].contains("b.rs:2"),
        "{cycles:?}"
    );

    let three = [
        ("lib.rs", "pub mod s;\n"),
        ("s/mod.rs", "mod p;\nmod q;\nmod r;\n"),
        ("s/p.rs", "use super::{q::{self, Q}, r};\n"),
        (
            "s/q.rs",
            "pub struct Q;\n#[cfg(test)]\nmod tests {\n    use super::super::r::R;\n}\n",
        ),
        (
            "s/r/mod.rs",
            "pub struct R;\nuse self::R as _;\nfn f() { crate::s::p::g(); }",
        ),
    ];
    let cycles = crate_of(&three);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    for f in ["s/p.rs", "s/q.rs", "s/r/mod.rs"] {
        assert!(cycles[0].contains(f), "{f} not in {cycles:?}");
    }
}
