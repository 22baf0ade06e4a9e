//! VLMEvalKit: `vlmevalkit/GeomRender.tsv`, the one-TSV-per-benchmark layout that
//! VLMEvalKit reads from `$LMUData/<name>.tsv` (`Custom_Benchmark_and_Model.md`:
//! columns `index`, `image` as base64, `question`, `answer`, `category`). We add
//! `id`, `base_id`, `axis` and `value` (and `category` = axis) so results map back.
//!
//! VLMEvalKit decides what a custom TSV is by its columns (`build_dataset` in
//! `vlmeval/dataset/__init__.py`): with columns `A` and `B` and an image it is a
//! `CustomMCQDataset` (`image_mcq.py`), else a `CustomVQADataset` (`image_vqa.py`).
//! So the table has the dataset's [`Layout`]:
//!
//! - [`Layout::Open`] (GeomVerse): no option columns, the answer the number: the
//!   open-question layout, as before relation items existed.
//! - [`Layout::Choice`] (relation items): option columns `A`–`E` (empty past an
//!   item's last option: `ImageMCQDataset.build_prompt` skips NaN cells), `answer`
//!   the letter, `l2-category` the relation (`report_acc` in
//!   `vlmeval/dataset/utils/multiple_choice.py` reports accuracy per `category`, the
//!   variant axis, and per `l2-category`). `question` is the question without the
//!   "Answer choices: A. … B. …" that ends it: `build_prompt` lists the options
//!   itself ("Options:\nA. …"), as MMBench's TSVs expect.
//!
//! `image` is the base64 of the image file's exact bytes (PNG, or JPEG for `jpeg`
//! variants), encoded straight into the file's buffer a few KB at a time: it is
//! most of the table's bytes and never needs quoting. Other fields holding a tab, a
//! newline or a quote are quoted as CSV does (as the `csv` crate's
//! `QuoteStyle::Necessary` writes them; a test compares the two), so
//! `pandas.read_csv(sep="\t")` and VLMEvalKit's loader read them back.

use super::{DatasetError, DatasetRow, Layout, Writer, io};
use crate::generate::Answer;
use crate::generate::relations::{MAX_CHOICES, question_stem as stem};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use std::io::Write;
use std::path::PathBuf;

/// The TSV's name under `vlmevalkit/` (and the dataset name to give VLMEvalKit).
pub(crate) const NAME: &str = "GeomRender";

/// The columns of an open-question table.
const OPEN: [&str; 9] = [
    "index", "image", "question", "answer", "category", "id", "base_id", "axis", "value",
];

/// The option columns of a multiple-choice table: one per option a relation item
/// may have.
const OPTIONS: [&str; 5] = ["A", "B", "C", "D", "E"];
const _: () = assert!(OPTIONS.len() == MAX_CHOICES);

/// The columns of a multiple-choice table.
const CHOICE: [&str; 15] = [
    "index",
    "image",
    "question",
    "A",
    "B",
    "C",
    "D",
    "E",
    "answer",
    "category",
    "l2-category",
    "id",
    "base_id",
    "axis",
    "value",
];

pub(super) struct Tsv {
    path: PathBuf,
    /// The run's manifest, to name a row in errors.
    manifest: PathBuf,
    out: AtomicFile,
    /// Whether the header is written (at the first row, which sets the layout).
    started: bool,
}

/// Whether a file name in `vlmevalkit/` is the table this sink writes.
pub(super) fn is_table(name: &str) -> bool {
    name.strip_suffix(".tsv") == Some(NAME)
}

/// A field of the table: text (quoted when it needs to be) or image bytes (base64).
#[derive(Clone, Copy)]
enum Field<'a> {
    Text(&'a str),
    Base64(&'a [u8]),
}

/// Writes `fields` as one record: tab-separated, ending in `\n`.
fn write_record(out: &mut impl Write, fields: &[Field<'_>]) -> std::io::Result<()> {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\t")?;
        }
        match *field {
            Field::Text(text) => write_text(out, text)?,
            Field::Base64(bytes) => write_base64(out, bytes)?,
        }
    }
    out.write_all(b"\n")
}

/// A text field, in quotes (each quote doubled) when it holds a tab, a quote, `\r`
/// or `\n`, as the `csv` crate's `QuoteStyle::Necessary` does.
fn write_text(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    if !text
        .bytes()
        .any(|b| matches!(b, b'\t' | b'"' | b'\r' | b'\n'))
    {
        return out.write_all(text.as_bytes());
    }
    out.write_all(b"\"")?;
    for (i, part) in text.split('"').enumerate() {
        if i > 0 {
            out.write_all(b"\"\"")?;
        }
        out.write_all(part.as_bytes())?;
    }
    out.write_all(b"\"")
}

/// Standard base64 with padding, encoded a block at a time into a buffer on the
/// stack (no copy of the whole image as text). `base64-simd` picks AVX2 or SSSE3
/// at run time: 3.5× the `base64` crate's speed on the sweep's PNGs (7.1 against
/// 2.0 GB/s on a 2-vCPU AMD EPYC), where the TSV's base64 was 2 % of an all-sinks
/// sweep's CPU samples. The test below checks it against `base64`.
fn write_base64(out: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    const IN: usize = 3 * 1024;
    let mut buf = [0u8; IN / 3 * 4];
    for block in bytes.chunks(IN) {
        // Every block but the last is a multiple of 3 bytes: no padding inside.
        let text = base64_simd::STANDARD.encode(block, base64_simd::Out::from_slice(&mut buf));
        out.write_all(text)?;
    }
    Ok(())
}

impl Tsv {
    pub(super) fn new(dir: &Dir) -> Result<Tsv, DatasetError> {
        let sub = dir.sub("vlmevalkit").map_err(io(&dir.join("vlmevalkit")))?;
        let name = format!("{NAME}.tsv");
        let path = sub.join(&name);
        let out = AtomicFile::create_in(&sub, &name).map_err(io(&path))?;
        Ok(Tsv {
            path,
            manifest: dir.join("manifest.jsonl"),
            out,
            started: false,
        })
    }

    fn write(&mut self, fields: &[Field<'_>]) -> Result<(), DatasetError> {
        write_record(&mut self.out, fields).map_err(io(&self.path))
    }

    /// Writes the header of `layout`'s table, once.
    fn start(&mut self, layout: Layout) -> Result<(), DatasetError> {
        if !std::mem::replace(&mut self.started, true) {
            let names: &[&str] = match layout {
                Layout::Open => &OPEN,
                Layout::Choice => &CHOICE,
            };
            let fields: Vec<Field<'_>> = names.iter().map(|n| Field::Text(n)).collect();
            self.write(&fields)?;
        }
        Ok(())
    }

    /// A multiple-choice row: options and answer letter (empty for a row without a
    /// relation item).
    fn push_choice(&mut self, r: &DatasetRow) -> Result<(), DatasetError> {
        let choices = r.relation.as_ref().map_or(&[][..], |f| &f.choices[..]);
        if choices.len() > OPTIONS.len() {
            return Err(DatasetError::TooManyChoices {
                path: self.manifest.clone(),
                line: r.index + 1,
                id: r.id.clone(),
                count: choices.len(),
                last: char::from(b'A' + (OPTIONS.len() - 1) as u8),
            });
        }
        let question = r.question.as_deref().unwrap_or_default();
        let mut options = [""; OPTIONS.len()];
        for (slot, text) in options.iter_mut().zip(choices) {
            *slot = text;
        }
        let [a, b, c, d, e] = options;
        let letter = r.letter().map(String::from).unwrap_or_default();
        let relation = r.relation.as_ref().map_or("", |f| f.relation.as_str());
        let index = r.index.to_string();
        let text = |t| Field::Text(t);
        self.write(&[
            text(&index),
            Field::Base64(r.image.as_ref().map_or(&[][..], |i| &i.bytes)),
            text(stem(question, choices)),
            text(a),
            text(b),
            text(c),
            text(d),
            text(e),
            text(&letter),
            text(&r.axis),
            text(relation),
            text(&r.id),
            text(&r.base_id),
            text(&r.axis),
            text(&r.value),
        ])
    }
}

impl Writer for Tsv {
    fn push(&mut self, r: &DatasetRow, layout: Layout) -> Result<(), DatasetError> {
        self.start(layout)?;
        if layout == Layout::Choice {
            return self.push_choice(r);
        }
        let answer = match r.answer {
            Some(Answer::Number(v)) => format!("{v}"),
            Some(Answer::Choice(c)) => c.to_string(),
            None => String::new(),
        };
        let index = r.index.to_string();
        let text = |t| Field::Text(t);
        self.write(&[
            text(&index),
            Field::Base64(r.image.as_ref().map_or(&[][..], |i| &i.bytes)),
            text(r.question.as_deref().unwrap_or_default()),
            text(&answer),
            text(&r.axis),
            text(&r.id),
            text(&r.base_id),
            text(&r.axis),
            text(&r.value),
        ])
    }

    fn finish(mut self: Box<Self>, layout: Layout) -> Result<Vec<PathBuf>, DatasetError> {
        self.start(layout)?;
        let Tsv { path, out, .. } = *self;
        out.commit(false).map_err(io(&path))?;
        Ok(vec![PathBuf::from(format!("vlmevalkit/{NAME}.tsv"))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::datasets::row::RowImage;

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
            image: Some(RowImage {
                file_name: "p1.png".into(),
                bytes: vec![1, 2, 3],
                width: 1,
                height: 1,
                sha256: String::new(),
            }),
            question: Some("say \"x\"\tthen\nmore".into()),
            answer: Some(Answer::Number(2.5)),
            relation: None,
            layout: Some(Layout::Open),
            annotation: None,
            cot: None,
            depth: None,
            question_type: None,
            manifest_json: "{}".into(),
            image_path: None,
            grounding: None,
        };
        tsv.push(&row, Layout::Open).unwrap();
        Box::new(tsv).finish(Layout::Open).unwrap();
        let text = std::fs::read_to_string(tmp.path().join("vlmevalkit/GeomRender.tsv")).unwrap();
        assert_eq!(
            text,
            "index\timage\tquestion\tanswer\tcategory\tid\tbase_id\taxis\tvalue\n\
             0\tAQID\t\"say \"\"x\"\"\tthen\nmore\"\t2.5\tbase\tp1\tp1\tbase\tbase\n"
        );
    }

    #[test]
    fn records_are_the_bytes_the_csv_crate_writes() {
        // `base64`, the other crate, is the reference for `write_base64`.
        use base64::{Engine, engine::general_purpose::STANDARD};
        let texts = [
            "",
            "plain",
            "tab\there",
            "quote\"d",
            "\"",
            "\"\"",
            "line\nbreak",
            "cr\rhere",
            "all\t\"\r\n",
            "ünïcode ∥",
            "#hash",
            " spaced ",
            "a,b;c",
        ];
        // Every byte value, over several SIMD lanes and two block boundaries.
        let varied: Vec<u8> = (0..10_007u32).map(|i| (i * 151 % 256) as u8).collect();
        let images: [&[u8]; 6] = [
            b"",
            b"\x01",
            b"\x01\x02",
            &[7; 3072],
            &[0xfe; 7000],
            &varied,
        ];
        let mut ours = Vec::new();
        let mut theirs = csv::WriterBuilder::new()
            .delimiter(b'\t')
            .quote_style(csv::QuoteStyle::Necessary)
            .flexible(true)
            .from_writer(Vec::new());
        for (i, image) in images.iter().enumerate() {
            let mut fields = vec![Field::Base64(image)];
            fields.extend(texts.iter().skip(i).map(|t| Field::Text(t)));
            write_record(&mut ours, &fields).unwrap();
            let mut record = vec![STANDARD.encode(image)];
            record.extend(texts.iter().skip(i).map(|t| t.to_string()));
            theirs.write_record(&record).unwrap();
        }
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            String::from_utf8(theirs.into_inner().unwrap()).unwrap()
        );
    }

    fn relation_row(choices: &[&str]) -> DatasetRow {
        use crate::generate::relations::{Domain, Mode, Subset};
        use crate::output::manifest::{RelationFields, RowTask};
        let choices: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
        let listed: Vec<String> = (choices.iter().zip('A'..))
            .map(|(c, l)| format!("{l}. {c}"))
            .collect();
        DatasetRow {
            index: 3,
            id: "r1".into(),
            base_id: "r1".into(),
            axis: "base".into(),
            value: "base".into(),
            variant: "{}".into(),
            image: Some(RowImage {
                file_name: "r1.png".into(),
                bytes: vec![1, 2, 3],
                width: 1,
                height: 1,
                sha256: String::new(),
            }),
            question: Some(format!(
                "AB ∥ CD. How are AB and CD related? Answer choices: {}",
                listed.join(" ")
            )),
            answer: Some(Answer::Choice('B')),
            relation: Some(RelationFields {
                task: RowTask::Relations,
                answer_text: choices[1].clone(),
                choices,
                relation: "parallel".into(),
                domain: Domain::Line,
                subset: Subset::Basic,
                mode: Mode::Text,
            }),
            layout: Some(Layout::Choice),
            annotation: None,
            cot: None,
            depth: None,
            question_type: None,
            manifest_json: "{}".into(),
            image_path: None,
            grounding: None,
        }
    }

    #[test]
    fn relation_items_have_option_columns_a_letter_and_the_question_without_its_options() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open(tmp.path()).unwrap();
        let mut tsv = Tsv::new(&dir).unwrap();
        let row = relation_row(&["Perpendicular", "Parallel", "Cannot be inferred"]);
        tsv.push(&row, Layout::Choice).unwrap();
        Box::new(tsv).finish(Layout::Choice).unwrap();
        let text = std::fs::read_to_string(tmp.path().join("vlmevalkit/GeomRender.tsv")).unwrap();
        assert_eq!(
            text,
            "index\timage\tquestion\tA\tB\tC\tD\tE\tanswer\tcategory\tl2-category\tid\tbase_id\taxis\tvalue\n\
             3\tAQID\tAB ∥ CD. How are AB and CD related?\tPerpendicular\tParallel\tCannot be inferred\
             \t\t\tB\tbase\tparallel\tr1\tr1\tbase\tbase\n"
        );
    }

    #[test]
    fn a_question_that_does_not_end_with_its_options_is_kept_whole() {
        let choices = ["Parallel".to_string(), "Cannot be inferred".to_string()];
        assert_eq!(
            stem(
                "Q? Answer choices: A. Parallel B. Cannot be inferred",
                &choices
            ),
            "Q?"
        );
        assert_eq!(
            stem("Q? Answer choices: A. Parallel", &choices),
            "Q? Answer choices: A. Parallel"
        );
        assert_eq!(stem("Q?", &choices), "Q?");
    }

    #[test]
    fn more_choices_than_option_columns_are_refused_naming_the_row() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open(tmp.path()).unwrap();
        let mut tsv = Tsv::new(&dir).unwrap();
        let row = relation_row(&["a", "b", "c", "d", "e", "f"]);
        let e = tsv.push(&row, Layout::Choice).unwrap_err().to_string();
        assert!(
            e.ends_with("manifest.jsonl:4: \"r1\" has 6 choices, but the VLMEvalKit TSV has option columns A to E only (as many as `generate --task relations` writes)"),
            "{e}"
        );
    }

    #[test]
    fn a_dataset_without_rows_has_the_open_header() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open(tmp.path()).unwrap();
        Box::new(Tsv::new(&dir).unwrap())
            .finish(Layout::Open)
            .unwrap();
        let text = std::fs::read_to_string(tmp.path().join("vlmevalkit/GeomRender.tsv")).unwrap();
        assert_eq!(
            text,
            "index\timage\tquestion\tanswer\tcategory\tid\tbase_id\taxis\tvalue\n"
        );
    }
}
