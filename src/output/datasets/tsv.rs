//! VLMEvalKit: `vlmevalkit/GeomRender.tsv`, the one-TSV-per-benchmark layout that
//! VLMEvalKit's `TSVDataset`/`CustomVQADataset` read from `$LMUData/<name>.tsv`
//! (VLMEvalKit, `Custom_Benchmark_and_Model.md`: columns `index`, `image` as base64,
//! `question`, `answer`, `category`; `vlmeval/dataset/image_vqa.py`). We add `id`,
//! `base_id`, `axis` and `value` (and `category` = axis) so results map back.
//!
//! `image` is the base64 of the image file's exact bytes (PNG, or JPEG for `jpeg`
//! variants). Fields holding a tab, a newline or a quote are quoted as CSV does
//! (`pandas.read_csv(sep="\t")` and VLMEvalKit's loader read them back).

use super::{DatasetError, DatasetRow, Writer, io};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use base64::Engine;
use std::io::Write;
use std::path::PathBuf;

/// The TSV's name under `vlmevalkit/` (and the dataset name to give VLMEvalKit).
pub const NAME: &str = "GeomRender";

const COLUMNS: [&str; 9] = [
    "index", "image", "question", "answer", "category", "id", "base_id", "axis", "value",
];

pub(super) struct Tsv {
    path: PathBuf,
    out: AtomicFile,
}

/// Whether a file name in `vlmevalkit/` is the table this sink writes.
pub(super) fn is_table(name: &str) -> bool {
    name.strip_suffix(".tsv") == Some(NAME)
}

fn field(s: &str) -> String {
    if s.contains(['\t', '\n', '\r', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Tsv {
    pub fn new(dir: &Dir) -> Result<Tsv, DatasetError> {
        let sub = dir.sub("vlmevalkit").map_err(io(&dir.join("vlmevalkit")))?;
        let name = format!("{NAME}.tsv");
        let path = sub.join(&name);
        let mut out = AtomicFile::create_in(&sub, &name).map_err(io(&path))?;
        writeln!(out, "{}", COLUMNS.join("\t")).map_err(io(&path))?;
        Ok(Tsv { path, out })
    }
}

impl Writer for Tsv {
    fn push(&mut self, r: &DatasetRow) -> Result<(), DatasetError> {
        let answer = r.answer.map(|a| format!("{a}")).unwrap_or_default();
        let fields = [
            r.index.to_string(),
            base64::engine::general_purpose::STANDARD.encode(&r.image),
            field(r.question.as_deref().unwrap_or_default()),
            answer,
            field(&r.axis),
            field(&r.id),
            field(&r.base_id),
            field(&r.axis),
            field(&r.value),
        ];
        writeln!(self.out, "{}", fields.join("\t")).map_err(io(&self.path))
    }

    fn finish(self: Box<Self>) -> Result<Vec<PathBuf>, DatasetError> {
        let Tsv { path, out } = *self;
        out.commit(false).map_err(io(&path))?;
        Ok(vec![PathBuf::from(format!("vlmevalkit/{NAME}.tsv"))])
    }
}
