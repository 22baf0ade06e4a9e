//! VLMEvalKit: `vlmevalkit/GeomRender.tsv`, the one-TSV-per-benchmark layout that
//! VLMEvalKit's `TSVDataset`/`CustomVQADataset` read from `$LMUData/<name>.tsv`
//! (VLMEvalKit, `Custom_Benchmark_and_Model.md`: columns `index`, `image` as base64,
//! `question`, `answer`, `category`; `vlmeval/dataset/image_vqa.py`). We add `id`,
//! `base_id`, `axis` and `value` (and `category` = axis) so results map back.
//!
//! `image` is the base64 of the image file's exact bytes (PNG, or JPEG for `jpeg`
//! variants). Fields holding a tab, a newline or a quote are quoted as CSV does, by
//! the `csv` crate (`pandas.read_csv(sep="\t")` and VLMEvalKit's loader read them
//! back).

use super::{DatasetError, DatasetRow, Writer, io};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use base64::Engine;
use std::path::PathBuf;

/// The TSV's name under `vlmevalkit/` (and the dataset name to give VLMEvalKit).
pub const NAME: &str = "GeomRender";

const COLUMNS: [&str; 9] = [
    "index", "image", "question", "answer", "category", "id", "base_id", "axis", "value",
];

pub(super) struct Tsv {
    path: PathBuf,
    out: csv::Writer<AtomicFile>,
}

/// Whether a file name in `vlmevalkit/` is the table this sink writes.
pub(super) fn is_table(name: &str) -> bool {
    name.strip_suffix(".tsv") == Some(NAME)
}

/// A `csv` error as the I/O error it is (a writer of strings has no other kind).
fn csv_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

impl Tsv {
    pub(super) fn new(dir: &Dir) -> Result<Tsv, DatasetError> {
        let sub = dir.sub("vlmevalkit").map_err(io(&dir.join("vlmevalkit")))?;
        let name = format!("{NAME}.tsv");
        let path = sub.join(&name);
        let file = AtomicFile::create_in(&sub, &name).map_err(io(&path))?;
        let mut out = csv::WriterBuilder::new()
            .delimiter(b'\t')
            .quote_style(csv::QuoteStyle::Necessary)
            .from_writer(file);
        out.write_record(COLUMNS)
            .map_err(|e| io(&path)(csv_io(e)))?;
        Ok(Tsv { path, out })
    }
}

impl Writer for Tsv {
    fn push(&mut self, r: &DatasetRow) -> Result<(), DatasetError> {
        let answer = r.answer.map(|a| format!("{a}")).unwrap_or_default();
        let fields = [
            &r.index.to_string(),
            &base64::engine::general_purpose::STANDARD.encode(&r.image),
            r.question.as_deref().unwrap_or_default(),
            &answer,
            &r.axis,
            &r.id,
            &r.base_id,
            &r.axis,
            &r.value,
        ];
        self.out
            .write_record(fields)
            .map_err(|e| io(&self.path)(csv_io(e)))
    }

    fn finish(self: Box<Self>) -> Result<Vec<PathBuf>, DatasetError> {
        let Tsv { path, out } = *self;
        let file = out.into_inner().map_err(|e| io(&path)(e.into_error()))?;
        file.commit(false).map_err(io(&path))?;
        Ok(vec![PathBuf::from(format!("vlmevalkit/{NAME}.tsv"))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_tabs_newlines_or_quotes_are_quoted_as_csv_does() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open(tmp.path()).unwrap();
        let mut tsv = Tsv::new(&dir).unwrap();
        let row = DatasetRow {
            index: 0,
            id: "p1".into(),
            base_id: "p1".into(),
            axis: "base".into(),
            value: "base".into(),
            variant: "{}".into(),
            file_name: "p1.png".into(),
            image: vec![1, 2, 3],
            question: Some("say \"x\"\tthen\nmore".into()),
            answer: Some(2.5),
            annotation: None,
            cot: None,
            depth: None,
            question_type: None,
            width: 1,
            height: 1,
            sha256: String::new(),
            manifest_json: "{}".into(),
        };
        tsv.push(&row).unwrap();
        Box::new(tsv).finish().unwrap();
        let text = std::fs::read_to_string(tmp.path().join("vlmevalkit/GeomRender.tsv")).unwrap();
        assert_eq!(
            text,
            "index\timage\tquestion\tanswer\tcategory\tid\tbase_id\taxis\tvalue\n\
             0\tAQID\t\"say \"\"x\"\"\tthen\nmore\"\t2.5\tbase\tp1\tp1\tbase\tbase\n"
        );
    }
}
