//! lmms-eval: a task folder for `lmms_eval --include_path DIR/lmms_eval`, following
//! lmms-eval's task guide (`docs/task_guide.md`: a YAML per task with `dataset_path`,
//! `dataset_kwargs`, `test_split`, `output_type: generate_until`, `doc_to_visual`,
//! `doc_to_text` and `process_results` as `!function utils.…`, `metric_list`).
//!
//! - `_default_template_yaml`: what every task shares; the dataset is the Parquet
//!   sink's shards (`dataset_path: parquet`, `data_files` by absolute path, so the
//!   folder works from any working directory; export again after moving the dataset).
//! - `geomrender_<axis>_<value>.yaml`: one task per (axis, value), e.g.
//!   `geomrender_fontsize_8`, choosing its rows with `process_docs`.
//! - `geomrender.yaml`: the group of all of them.
//! - `utils.py`: the image, the prompt (the question and GeomVerse's answer format,
//!   "Therefore the final answer is N."), and relaxed accuracy (3 %, as `score`).

use super::{DatasetError, DatasetRow, Writer, io};
use crate::output::dir::Dir;
use std::collections::BTreeSet;
use std::path::PathBuf;

pub(super) struct Tasks {
    /// The output directory (its real path goes into `data_files`).
    dir: Dir,
    /// `lmms_eval/` in it, opened when the run starts (a link there fails the run
    /// before any work, not after it).
    folder: Dir,
    /// (axis, value) pairs in the dataset.
    cells: BTreeSet<(String, String)>,
}

impl Tasks {
    pub fn new(dir: &Dir) -> Result<Tasks, DatasetError> {
        Ok(Tasks {
            dir: dir.clone(),
            folder: dir.sub("lmms_eval").map_err(io(&dir.join("lmms_eval")))?,
            cells: BTreeSet::new(),
        })
    }
}

/// Whether a file name in `lmms_eval/` is one this sink writes.
pub(super) fn is_task_file(name: &str) -> bool {
    name == "_default_template_yaml"
        || name == "utils.py"
        || (name.starts_with("geomrender") && name.ends_with(".yaml"))
}

/// A name part safe in a task and a Python function name: lower-case ASCII letters,
/// digits and `_` (`0.25` → `0_25`, `high-contrast` → `high_contrast`).
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect()
}

/// A Python string literal.
fn py(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

const UTILS_HEAD: &str = r#""""lmms-eval helpers for a geomrender dataset (written by `geomrender export`).

doc_to_visual / doc_to_text / process_results follow lmms-eval's task guide; the
process_docs_* functions pick one (axis, value) of the dataset per task.
"""

import re

# GeomVerse's solutions end with this sentence; asking for it makes answers extractable.
INSTRUCTION = (
    "Solve the problem step by step. End your answer with the sentence "
    "'Therefore the final answer is N.' where N is a number."
)
# Relaxed accuracy: correct within 3 % of the label (GeomVerse), 0.005 for a label of 0.
TOLERANCE = 0.03
ZERO_TOLERANCE = 0.005

_FINAL = re.compile(r"final answer is\s*[:=]?\s*\$?(-?\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def doc_to_visual(doc):
    return [doc["image"].convert("RGB")]


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return f"{doc['question']}\n{INSTRUCTION}"


def extract(text):
    """The number after "final answer is", else the last number; None if there is none."""
    text = text or ""
    found = _FINAL.findall(text) or _NUMBER.findall(text)
    if not found:
        return None
    try:
        return float(found[-1].replace(",", ""))
    except ValueError:
        return None


def relaxed_correct(prediction, answer):
    if prediction is None:
        return False
    if answer == 0:
        return abs(prediction) <= ZERO_TOLERANCE
    return abs(prediction - answer) <= TOLERANCE * abs(answer)


def process_results(doc, results):
    prediction = extract(results[0] if results else "")
    return {"relaxed_accuracy": 1.0 if relaxed_correct(prediction, doc["answer"]) else 0.0}


def _select(dataset, axis, value):
    return dataset.filter(lambda doc: doc["axis"] == axis and doc["value"] == value)
"#;

impl Writer for Tasks {
    fn push(&mut self, row: &DatasetRow) -> Result<(), DatasetError> {
        self.cells.insert((row.axis.clone(), row.value.clone()));
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Vec<PathBuf>, DatasetError> {
        let folder = &self.folder;
        let abs = std::fs::canonicalize(self.dir.path()).map_err(io(self.dir.path()))?;
        let data_files = abs.join("data").join("test-*.parquet");
        let mut files: Vec<(String, String)> = Vec::new();
        files.push((
            "_default_template_yaml".into(),
            format!(
                "dataset_path: parquet\ndataset_kwargs:\n  data_files:\n    test: {}\ntest_split: test\n\
                 output_type: generate_until\ndoc_to_visual: !function utils.doc_to_visual\n\
                 doc_to_text: !function utils.doc_to_text\ndoc_to_target: answer\n\
                 generation_kwargs:\n  max_new_tokens: 1024\n  temperature: 0\n  do_sample: false\n\
                 process_results: !function utils.process_results\nmetric_list:\n  - metric: relaxed_accuracy\n\
                 \x20   aggregation: mean\n    higher_is_better: true\nmetadata:\n  version: 1.0\n",
                py(&data_files.display().to_string())
            ),
        ));
        let mut utils = UTILS_HEAD.to_string();
        let mut tasks = Vec::new();
        for (axis, value) in &self.cells {
            let name = match axis.as_str() {
                "base" => "base".to_string(),
                _ => format!("{}_{}", slug(axis), slug(value)),
            };
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
        for (name, text) in files {
            folder
                .write_atomic(&name, text.as_bytes())
                .map_err(io(&folder.join(&name)))?;
            written.push(PathBuf::from("lmms_eval").join(name));
        }
        Ok(written)
    }
}
