//! What `--predictions` names: a file, a directory (the prediction files directly in
//! it) or a glob (`logs/*/*_samples_*.jsonl`), expanded to files in a stable order.
//!
//! A path that exists is taken as it is, even with glob characters in its name; a
//! directory gives its files ending in [`PREDICTION_EXTENSIONS`] (hidden ones
//! skipped), sorted by name; anything else with `*`, `?` or `[` is a pattern, matched
//! one path component at a time (`*` and `?` never cross a `/` nor match a leading
//! `.`; `[a-z]`, `[!x]` classes), the matches sorted. A directory or pattern that
//! gives no file is an error naming it, never an empty run.

use super::error::ScoreError;
use std::path::{Component, Path, PathBuf};

/// The extensions of the prediction files a directory is read for (any case).
pub(crate) const PREDICTION_EXTENSIONS: [&str; 4] = ["jsonl", "xlsx", "tsv", "csv"];

/// The prediction files `args` name, in order, each once.
pub(crate) fn expand_predictions(args: &[PathBuf]) -> Result<Vec<PathBuf>, ScoreError> {
    let mut out: Vec<PathBuf> = Vec::new();
    for arg in args {
        for path in expand(arg)? {
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    Ok(out)
}

fn expand(arg: &Path) -> Result<Vec<PathBuf>, ScoreError> {
    let none = |why: &str| ScoreError::NoPredictions {
        arg: arg.display().to_string(),
        why: why.to_string(),
    };
    if arg.is_dir() {
        let files = prediction_files(arg)?;
        return match files.is_empty() {
            true => Err(none(&format!(
                "a directory with no prediction files in it (.{})",
                PREDICTION_EXTENSIONS.join(", .")
            ))),
            false => Ok(files),
        };
    }
    let text = arg.to_string_lossy();
    if std::fs::symlink_metadata(arg).is_ok() || !text.contains(['*', '?', '[']) {
        return Ok(vec![arg.to_path_buf()]);
    }
    let mut found = glob(arg)?;
    found.retain(|p| !p.is_dir());
    found.sort();
    match found.is_empty() {
        true => Err(none("a pattern that matches no file")),
        false => Ok(found),
    }
}

/// The prediction files directly in `dir`, sorted by name.
fn prediction_files(dir: &Path) -> Result<Vec<PathBuf>, ScoreError> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| ScoreError::io(dir.display(), e))? {
        let entry = entry.map_err(|e| ScoreError::io(dir.display(), e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        let wanted = ext.is_some_and(|e| PREDICTION_EXTENSIONS.contains(&e.as_str()));
        if wanted && !name.starts_with('.') && !entry.path().is_dir() {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// Every existing path `pattern` matches, component by component.
fn glob(pattern: &Path) -> Result<Vec<PathBuf>, ScoreError> {
    let mut paths = vec![PathBuf::new()];
    for component in pattern.components() {
        let part = match component {
            Component::Normal(p) => p.to_string_lossy().into_owned(),
            other => {
                paths.iter_mut().for_each(|p| p.push(other.as_os_str()));
                continue;
            }
        };
        if !part.contains(['*', '?', '[']) {
            paths.iter_mut().for_each(|p| p.push(&part));
            continue;
        }
        let mut next = Vec::new();
        for dir in &paths {
            let listed = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir.as_path()
            };
            // A path that is not a readable directory matches nothing below it.
            let Ok(entries) = std::fs::read_dir(listed) else {
                continue;
            };
            for entry in entries {
                let entry = entry.map_err(|e| ScoreError::io(listed.display(), e))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if matches(&part, &name) {
                    next.push(dir.join(&name));
                }
            }
        }
        paths = next;
    }
    paths.retain(|p| std::fs::symlink_metadata(p).is_ok());
    Ok(paths)
}

/// Whether `name` matches the one-component `pattern` (`*`, `?`, `[…]`, `[!…]`); a
/// leading `.` is matched only by a literal one.
fn matches(pattern: &str, name: &str) -> bool {
    if name.starts_with('.') && !pattern.starts_with('.') {
        return false;
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Wildcard matching with one backtrack point: the last `*` and where it resumes.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if p.get(i) == Some(&'*') {
            star = Some((i + 1, j));
            i += 1;
            continue;
        }
        let taken = match p.get(i) {
            Some('?') => Some(1),
            Some('[') => class(&p[i..], n[j]),
            Some(&c) if c == n[j] => Some(1),
            _ => None,
        };
        match (taken, star) {
            (Some(len), _) => (i, j) = (i + len, j + 1),
            (None, Some((resume, from))) => {
                (i, j) = (resume, from + 1);
                star = Some((resume, from + 1));
            }
            (None, None) => return false,
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

/// Whether the class at the start of `p` (`[…]`) holds `c`: the pattern length it
/// takes when it does, `None` when it does not. An unclosed `[` is a literal `[`.
fn class(p: &[char], c: char) -> Option<usize> {
    let Some(close) = p.iter().skip(2).position(|&x| x == ']').map(|k| k + 2) else {
        return (c == '[').then_some(1);
    };
    let body = &p[1..close];
    let (negated, body) = match body.first() {
        Some('!') | Some('^') => (true, &body[1..]),
        _ => (false, body),
    };
    let mut hit = false;
    let mut k = 0;
    while k < body.len() {
        if k + 2 < body.len() && body[k + 1] == '-' {
            hit |= (body[k]..=body[k + 2]).contains(&c);
            k += 3;
        } else {
            hit |= body[k] == c;
            k += 1;
        }
    }
    (hit != negated).then_some(close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_patterns() {
        for (pattern, name, want) in [
            ("*.jsonl", "a.jsonl", true),
            ("*.jsonl", "a.json", false),
            ("*.jsonl", ".hidden.jsonl", false),
            (".*.jsonl", ".hidden.jsonl", true),
            (
                "*_samples_*.jsonl",
                "2026_samples_geomrender_base.jsonl",
                true,
            ),
            ("*_samples_*.jsonl", "2026_results.jsonl", false),
            ("m?.csv", "m1.csv", true),
            ("m?.csv", "m12.csv", false),
            ("m[0-9].csv", "m7.csv", true),
            ("m[!0-9].csv", "m7.csv", false),
            ("m[!0-9].csv", "mx.csv", true),
            ("r[1].tsv", "r1.tsv", true),
            ("a[b", "a[b", true),
            ("*", "", true),
            ("**a", "xa", true),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false),
        ] {
            assert_eq!(matches(pattern, name), want, "{pattern} {name}");
        }
    }

    #[test]
    fn files_directories_and_patterns() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "m/a.jsonl",
            "m/b.XLSX",
            "m/notes.txt",
            "m/.x.jsonl",
            "n/c.csv",
            "r[1].tsv",
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), "").unwrap();
        }
        std::fs::create_dir(d.join("m/sub.jsonl")).unwrap();
        let got = expand_predictions(&[d.join("m")]).unwrap();
        assert_eq!(got, [d.join("m/a.jsonl"), d.join("m/b.XLSX")]);
        let got = expand_predictions(&[d.join("*/*.*"), d.join("m/a.jsonl")]).unwrap();
        assert_eq!(
            got,
            [
                d.join("m/a.jsonl"),
                d.join("m/b.XLSX"),
                d.join("m/notes.txt"),
                d.join("n/c.csv")
            ]
        );
        // An existing name with glob characters is itself, not a pattern.
        let got = expand_predictions(&[d.join("r[1].tsv")]).unwrap();
        assert_eq!(got, [d.join("r[1].tsv")]);
        // A plain missing file is left to the reader, which names it.
        let got = expand_predictions(&[d.join("gone.jsonl")]).unwrap();
        assert_eq!(got, [d.join("gone.jsonl")]);
        let e = expand_predictions(&[d.join("n/*.jsonl")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "--predictions {}: a pattern that matches no file",
                d.join("n/*.jsonl").display()
            )
        );
        std::fs::create_dir(d.join("empty")).unwrap();
        let e = expand_predictions(&[d.join("empty")]).unwrap_err();
        assert!(
            e.to_string().ends_with(
                "a directory with no prediction files in it (.jsonl, .xlsx, .tsv, .csv)"
            ),
            "{e}"
        );
    }
}
