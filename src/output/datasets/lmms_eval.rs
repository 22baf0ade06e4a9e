//! lmms-eval: a task folder for `lmms_eval --include_path DIR/lmms_eval`, following
//! lmms-eval's task guide (`docs/task_guide.md`: a YAML per task with `dataset_path`,
//! `dataset_kwargs`, `test_split`, `output_type: generate_until`, `doc_to_visual`,
//! `doc_to_text` and `process_results` as `!function utils.…`, `metric_list`).
//!
//! - `_default_template_yaml`: what every task shares; the dataset is the Parquet
//!   sink's shards (`dataset_path: parquet`, `data_files` by absolute path, so the
//!   folder works from any working directory; export again after moving the dataset).
//!   HF `datasets` resolves every `data_files` entry as a glob, so the directory's
//!   own glob characters are escaped ([`glob_literal`]).
//! - `geomrender_<cell>.yaml`: one task per (axis, value), e.g.
//!   `geomrender_fontsize__8`, `geomrender_fontsize__8__linewidth__5_p5` (a grid cell),
//!   choosing its rows with `process_docs`; see [`cell_name`] for the encoding.
//! - `geomrender.yaml`: the group of all of them.
//! - `utils.py` (`lmms_eval_utils.py` here): the image, the prompt (the question and
//!   GeomVerse's answer format, "Therefore the final answer is N."), the answer read
//!   by `geomrender score`'s rules (a port of `score::extract`, the reference) and
//!   relaxed accuracy (3 %, as `score`); each task's rows are picked from the `axis`
//!   and `value` columns alone, so choosing them decodes no image.
//!
//! A relation-item dataset ([`Layout::Choice`]) is scored as lmms-eval's
//! multiple-choice tasks are (`mmmu`, `scienceqa`, `ai2d`: `utils.py` lists the
//! options, the target is the option's letter): the Parquet rows carry `choices` and
//! the letter `answer`, `doc_to_text` lists the options unless the question already
//! ends with them, and `process_results` reads a letter (or a number matched to a
//! numeric option) by `score`'s rules for items with choices, reported as
//! `accuracy`. The template's `metric_list` names that metric; the rest is shared.

use super::{DatasetError, DatasetRow, Layout, Writer, io};
use crate::output::dir::Dir;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// An (axis, value) pair of the dataset, as [`DatasetRow`] names it.
type Cell = (String, String);

pub(super) struct Tasks {
    /// `lmms_eval/` in the output directory, opened when the run starts (a link
    /// there fails the run before any work, not after it).
    folder: Dir,
    /// The Parquet shards' pattern: the output directory's real path, its glob
    /// characters escaped (worked out at the start too: a path that cannot be
    /// escaped is refused before any work).
    data_files: String,
    /// (axis, value) pairs in the dataset.
    cells: BTreeSet<Cell>,
}

impl Tasks {
    pub(super) fn new(dir: &Dir) -> Result<Tasks, DatasetError> {
        let abs = std::fs::canonicalize(dir.path()).map_err(io(dir.path()))?;
        let data = abs.join("data").join("");
        let data_files = glob_literal(&data.display().to_string())
            .map(|dir| format!("{dir}test-*.parquet"))
            .map_err(DatasetError::LmmsEval)?;
        Ok(Tasks {
            folder: dir.sub("lmms_eval").map_err(io(&dir.join("lmms_eval")))?,
            data_files,
            cells: BTreeSet::new(),
        })
    }
}

/// Whether a file name in `lmms_eval/` is one this sink writes.
pub(super) fn is_task_file(name: &str) -> bool {
    name == "_default_template_yaml"
        || name == "utils.py"
        || name == "geomrender.yaml"
        || name
            .strip_prefix("geomrender_")
            .and_then(|n| n.strip_suffix(".yaml"))
            .is_some_and(is_cell_name)
}

/// Whether `name` is one [`cell_name`] makes: `base`, or `axis__value` pairs whose
/// axes are in the axes table (a `geomrender_mytask.yaml` of the user's is not).
fn is_cell_name(name: &str) -> bool {
    if name == "base" {
        return true;
    }
    let parts: Vec<&str> = name.split("__").collect();
    let axis = |a: &str| {
        crate::variants::AXES.iter().any(|x| {
            let mut encoded = String::new();
            encode(x.name, &mut encoded);
            encoded == a
        })
    };
    parts.len().is_multiple_of(2)
        && parts.chunks(2).all(|pair| {
            axis(pair[0])
                && !pair[1].is_empty()
                && pair[1]
                    .bytes()
                    .all(|b| b == b'_' || b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The name of an (axis, value) cell in its task (`geomrender_<name>`) and selector
/// (`process_docs_<name>`): `base` for base images, else one `axis__value` per axis
/// of the cell, joined by `__` (`fontsize__8`, `fontsize__8__linewidth__5_p5`).
///
/// Injective by construction. Within an axis or value, `a`–`z` and `0`–`9` stand for
/// themselves and every other character for a code that starts with `_`: `.` → `_p`,
/// `-` → `_m`, `_` → `_u`, `+` → `_a`, anything else (capitals included) → `_x` and its
/// code point in 6 hex digits. With the separator `__`, these code words are
/// prefix-free (a `_` is always read with the character after it), so a name splits
/// back into its axis and value texts one way only; joining them with `+` gives the
/// cell back (a grid cell's axis `fontsize+linewidth` and value `8+5.5` are split
/// into pairs only when they have as many parts; otherwise the whole texts form one
/// pair, their `+` escaped). `base` holds no `__`, so no other cell is named `base`.
///
/// What a name may hold: lmms-eval indexes tasks by their YAML `task:` value (a dict,
/// so a second task of the same name silently replaces the first:
/// `TaskManager._get_task_and_group` in `lmms_eval/tasks/__init__.py`) and selects
/// them with `--tasks a,b`, split on `,` and matched with `fnmatch`
/// (`lmms_eval/utils.py` `pattern_match`, `__main__.py`); Python function names must be
/// identifiers. Lower-case ASCII letters, digits and `_` are safe in all three.
pub(crate) fn cell_name(axis: &str, value: &str) -> String {
    if axis == "base" && value == "base" {
        return "base".to_string();
    }
    let (axes, values): (Vec<&str>, Vec<&str>) =
        (axis.split('+').collect(), value.split('+').collect());
    let pairs: Vec<(&str, &str)> = match axes.len() == values.len() {
        true => axes.into_iter().zip(values).collect(),
        false => vec![(axis, value)],
    };
    let mut name = String::new();
    for (i, (a, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            name.push_str("__");
        }
        encode(a, &mut name);
        name.push_str("__");
        encode(v, &mut name);
    }
    name
}

/// One axis or value text in [`cell_name`]'s code.
fn encode(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            'a'..='z' | '0'..='9' => out.push(c),
            '.' => out.push_str("_p"),
            '-' => out.push_str("_m"),
            '_' => out.push_str("_u"),
            '+' => out.push_str("_a"),
            c => out.push_str(&format!("_x{:06x}", u32::from(c))),
        }
    }
}

/// Each cell with its name, in order, checked before anything is written: two cells
/// with one name would make one task (and one `process_docs_` function) of two, and
/// leave one cell's images unevaluated. [`cell_name`] is injective, so this never
/// fails; it is the check at run time.
fn unique_names(
    cells: &BTreeSet<Cell>,
    name: impl Fn(&str, &str) -> String,
) -> Result<Vec<(String, &Cell)>, DatasetError> {
    let mut seen: BTreeMap<String, &Cell> = BTreeMap::new();
    let mut named = Vec::with_capacity(cells.len());
    for cell in cells {
        let n = name(&cell.0, &cell.1);
        if let Some(other) = seen.insert(n.clone(), cell) {
            return Err(DatasetError::LmmsEval(format!(
                "the cells {}={} and {}={} would share the task name geomrender_{n}",
                other.0, other.1, cell.0, cell.1
            )));
        }
        named.push((n, cell));
    }
    Ok(named)
}

/// `path` as a literal in an HF `datasets` `data_files` pattern. `resolve_pattern`
/// (`datasets/data_files.py`) hands every entry to fsspec's `glob`, which reads `*`,
/// `?` and `[…]` as wildcards (`fsspec.utils.glob_translate`, Python's `glob`
/// syntax), so each of `*?[]` is written as a one-character class (`[[]`), which
/// matches just that character. `::` cannot be escaped: `resolve_pattern` and
/// `fsspec.url_to_fs` split a path there into chained URLs; such a path is refused.
pub(crate) fn glob_literal(path: &str) -> Result<String, String> {
    if path.contains("::") {
        return Err(format!(
            "{path}: HF datasets reads `::` in a data_files path as a chained URL, so \
             the tasks could not name their shards; write the dataset under a path \
             without `::`"
        ));
    }
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '*' | '?' | '[' | ']' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// A Python string literal.
fn py(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

/// `utils.py` before the `process_docs_*` selectors: the prompt, `geomrender score`'s
/// answer extraction ported line by line (tests/python/test_lmms_eval.py holds the
/// two to the same results), relaxed accuracy, and `_select`, which reads only the
/// `axis` and `value` columns.
const UTILS_HEAD: &str = include_str!("lmms_eval_utils.py");

impl Writer for Tasks {
    fn push(&mut self, row: &DatasetRow, _: Layout) -> Result<(), DatasetError> {
        self.cells.insert((row.axis.clone(), row.value.clone()));
        Ok(())
    }

    fn finish(self: Box<Self>, layout: Layout) -> Result<Vec<PathBuf>, DatasetError> {
        // The metric `process_results` gives a row of the layout (utils.py).
        let metric = match layout {
            Layout::Open => "relaxed_accuracy",
            Layout::Choice => "accuracy",
        };
        let folder = &self.folder;
        let named = unique_names(&self.cells, cell_name)?;
        let mut files: Vec<(String, String)> = Vec::new();
        files.push((
            "_default_template_yaml".into(),
            format!(
                "dataset_path: parquet\ndataset_kwargs:\n  data_files:\n    test: {}\ntest_split: test\n\
                 output_type: generate_until\ndoc_to_visual: !function utils.doc_to_visual\n\
                 doc_to_text: !function utils.doc_to_text\ndoc_to_target: answer\n\
                 generation_kwargs:\n  max_new_tokens: 1024\n  temperature: 0\n  do_sample: false\n\
                 process_results: !function utils.process_results\nmetric_list:\n  - metric: {metric}\n\
                 \x20   aggregation: mean\n    higher_is_better: true\nmetadata:\n  version: 1.0\n",
                py(&self.data_files)
            ),
        ));
        let mut utils = UTILS_HEAD.to_string();
        let mut tasks = Vec::new();
        for (name, (axis, value)) in named {
            let task = format!("geomrender_{name}");
            files.push((
                format!("{task}.yaml"),
                format!(
                    "include: _default_template_yaml\ntask: {task}\nprocess_docs: !function utils.process_docs_{name}\n"
                ),
            ));
            utils.push_str(&format!(
                "\n\ndef process_docs_{name}(dataset):\n    return _select(dataset, {}, {})\n",
                py(axis),
                py(value)
            ));
            tasks.push(task);
        }
        let mut group = "group: geomrender\ntask:\n".to_string();
        for t in &tasks {
            group.push_str(&format!("  - {t}\n"));
        }
        files.push(("geomrender.yaml".into(), group));
        files.push(("utils.py".into(), utils));
        let mut written = Vec::new();
        for (name, text) in &files {
            folder
                .write_atomic(name, text.as_bytes())
                .map_err(io(&folder.join(name)))?;
            written.push(PathBuf::from("lmms_eval").join(name));
        }
        // Tasks of an earlier dataset (other cells, older names) would be loaded
        // beside these by `--include_path`, and name selectors utils.py lacks.
        for (name, kind) in folder.entries().map_err(io(folder.path()))? {
            if kind == crate::output::dir::Kind::File
                && is_task_file(&name)
                && !files.iter().any(|(n, _)| *n == name)
            {
                folder.remove_file(&name).map_err(io(&folder.join(&name)))?;
            }
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn only_the_task_files_it_writes_are_its_own() {
        for ours in [
            "geomrender.yaml".to_string(),
            "utils.py".into(),
            format!("geomrender_{}.yaml", cell_name("base", "base")),
            format!("geomrender_{}.yaml", cell_name("opacity", "0.5")),
            format!(
                "geomrender_{}.yaml",
                cell_name("fontsize+linewidth", "8+0.5")
            ),
        ] {
            assert!(is_task_file(&ours), "{ours}");
        }
        for theirs in [
            "geomrender_mytask.yaml",
            "geomrender_colour__red.yaml",
            "geomrenderx.yaml",
        ] {
            assert!(!is_task_file(theirs), "{theirs}");
        }
    }

    /// Reads a [`cell_name`] back into its (axis, value): the inverse that shows the
    /// names are injective.
    fn decode(name: &str) -> (String, String) {
        if name == "base" {
            return ("base".into(), "base".into());
        }
        let mut texts = vec![String::new()];
        let mut chars = name.chars();
        while let Some(c) = chars.next() {
            let text = texts.last_mut().unwrap();
            match c {
                '_' => match chars.next().unwrap() {
                    '_' => texts.push(String::new()),
                    'p' => text.push('.'),
                    'm' => text.push('-'),
                    'u' => text.push('_'),
                    'a' => text.push('+'),
                    'x' => {
                        let hex: String = chars.by_ref().take(6).collect();
                        let code = u32::from_str_radix(&hex, 16).unwrap();
                        text.push(char::from_u32(code).unwrap());
                    }
                    other => panic!("no code _{other} in {name}"),
                },
                c => text.push(c),
            }
        }
        assert_eq!(texts.len() % 2, 0, "{name}");
        let axes: Vec<&str> = texts.iter().step_by(2).map(String::as_str).collect();
        let values: Vec<&str> = texts
            .iter()
            .skip(1)
            .step_by(2)
            .map(String::as_str)
            .collect();
        (axes.join("+"), values.join("+"))
    }

    fn is_safe(name: &str) -> bool {
        name.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    }

    #[test]
    fn names_read_well_and_tell_grid_cells_apart() {
        let cases = [
            ("base", "base", "base"),
            ("fontsize", "8", "fontsize__8"),
            ("fontsize", "8.5", "fontsize__8_p5"),
            ("rotation", "-15", "rotation___m15"),
            ("palette", "high-contrast", "palette__high_mcontrast"),
            (
                "fontsize+linewidth",
                "8+5.5",
                "fontsize__8__linewidth__5_p5",
            ),
            (
                "fontsize+linewidth",
                "8.5+5",
                "fontsize__8_p5__linewidth__5",
            ),
        ];
        for (axis, value, name) in cases {
            assert_eq!(cell_name(axis, value), name);
            assert_eq!(decode(name), (axis.to_string(), value.to_string()));
        }
    }

    #[test]
    fn every_cell_of_a_grid_has_its_own_name() {
        // The grid and its neighbours: the old names merged 8+5.5 and 8.5+5.
        let values = [
            "8",
            "8.5",
            "5",
            "5.5",
            "85",
            "8_5",
            "8-5",
            "-8",
            "-8.5",
            "+",
            "8+5",
            "",
            "high-contrast",
            "high_contrast",
            "highcontrast",
            "High",
            "x.y",
            "é",
            "__",
        ];
        let axes = [
            "fontsize",
            "linewidth",
            "font_size",
            "fontsize+linewidth",
            "base",
        ];
        let mut seen: BTreeMap<String, (String, String)> = BTreeMap::new();
        for a in axes {
            for b in axes {
                for v in values {
                    for w in values {
                        let axis = format!("{a}+{b}");
                        let value = format!("{v}+{w}");
                        for (axis, value) in [(a.to_string(), v.to_string()), (axis, value)] {
                            let name = cell_name(&axis, &value);
                            assert!(is_safe(&name), "{name}");
                            assert_eq!(decode(&name), (axis.clone(), value.clone()));
                            if let Some(other) =
                                seen.insert(name.clone(), (axis.clone(), value.clone()))
                            {
                                assert_eq!(other, (axis, value), "{name}");
                            }
                        }
                    }
                }
            }
        }
    }

    proptest! {
        /// Any two distinct cells have distinct names: the name decodes to its cell.
        #[test]
        fn names_are_injective(
            axis in "[a-z_+.\\-A-Z0-9é]{0,12}",
            value in "[a-z_+.\\-A-Z0-9 é/]{0,12}",
            other_axis in "[a-z_+]{0,6}",
            other_value in "[0-9.+\\-_]{0,6}",
        ) {
            let name = cell_name(&axis, &value);
            prop_assert!(is_safe(&name));
            prop_assert_eq!(decode(&name), (axis.clone(), value.clone()));
            if (axis.as_str(), value.as_str()) != (other_axis.as_str(), other_value.as_str()) {
                prop_assert_ne!(name, cell_name(&other_axis, &other_value));
            }
        }
    }

    #[test]
    fn a_name_shared_by_two_cells_is_an_error() {
        // The old names (every character outside [a-z0-9] as `_`) merged these two.
        let slug = |axis: &str, value: &str| -> String {
            format!("{axis}_{value}")
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect()
        };
        let cells: BTreeSet<(String, String)> = [
            ("fontsize+linewidth", "8+5.5"),
            ("fontsize+linewidth", "8.5+5"),
        ]
        .map(|(a, v)| (a.to_string(), v.to_string()))
        .into();
        let e = unique_names(&cells, slug).unwrap_err().to_string();
        assert_eq!(
            e,
            "lmms-eval: the cells fontsize+linewidth=8+5.5 and fontsize+linewidth=8.5+5 \
             would share the task name geomrender_fontsize_linewidth_8_5_5"
        );
        let named = unique_names(&cells, cell_name).unwrap();
        assert_eq!(named.len(), 2);
    }

    #[test]
    fn glob_characters_of_the_path_are_escaped() {
        assert_eq!(glob_literal("/tmp/r1/data/").unwrap(), "/tmp/r1/data/");
        assert_eq!(
            glob_literal("/tmp/r[1]/a*b?/data/").unwrap(),
            "/tmp/r[[]1[]]/a[*]b[?]/data/"
        );
        let e = glob_literal("/tmp/x::y/data/").unwrap_err();
        assert!(e.contains("chained URL"), "{e}");
    }
}
