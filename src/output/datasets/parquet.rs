//! Hugging Face Parquet: `data/test-00000-of-000NN.parquet` and a `README.md` dataset
//! card, written with the Apache Arrow Rust crates.
//!
//! `image` is the HF `Image` feature: a struct of `bytes` (the PNG/JPEG file as
//! written) and `path` (its file name). The features are declared in the Arrow
//! schema's metadata under the `huggingface` key, the form `datasets` itself writes
//! and reads back, so `datasets.load_dataset("parquet", data_files=…)` decodes `image`
//! to a PIL image; the card's YAML declares the same features and a `configs` entry so
//! that `datasets.load_dataset(DIR)` works too.
//!
//! The columns follow the dataset's [`Layout`]: a GeomVerse dataset's `answer` is a
//! number (`float64`); a relation-item dataset's is the correct option's letter
//! (`string`), with `choices` (`list<string>`), `answer_text`, `task`, `relation`,
//! `domain`, `subset` and `mode` after the shared columns.

use super::card::{ArrowSize, Sizes, card};
use super::features::{Type, image_fields};
use super::parquet_names::is_shard;
use super::row::spelling;
use super::shards::ShardFiles;
use super::{DatasetError, DatasetRow, Layout, ParquetCompression, Writer, io};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use arrow_array::builder::{
    BinaryBuilder, Float64Builder, GenericByteBuilder, Int64Builder, ListBuilder,
    NullBufferBuilder, StringBuilder,
};
use arrow_array::types::ByteArrayType;
use arrow_array::{ArrayRef, RecordBatch, StructArray};
use arrow_schema::{Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Rows per row group (and per Arrow batch): bounds the memory a run holds for the
/// dataset to a few MB, and lets readers fetch a few MB at a time. `datasets` 2.x
/// wrote image datasets with 100-row groups
/// (`config.PARQUET_ROW_GROUP_SIZE_FOR_IMAGE_DATASETS`); 5.x caps groups at 100 MB.
const ROW_GROUP: usize = 100;

/// Rows handed to the Arrow writer at a time; it cuts row groups at [`ROW_GROUP`]
/// whatever the batches, so this only bounds what waits here (10 images, not 100).
const BATCH: usize = 10;

// Batches never straddle a row group, so the card's sizes can count row groups batch
// by batch (`card::ArrowSize`).
const _: () = assert!(ROW_GROUP.is_multiple_of(BATCH));

/// The columns of a GeomVerse dataset ([`Layout::Open`]), in order.
const OPEN: [(&str, Type); 16] = [
    ("id", Type::String),
    ("base_id", Type::String),
    ("axis", Type::String),
    ("value", Type::String),
    ("variant", Type::String),
    ("image", Type::Image),
    ("question", Type::String),
    ("answer", Type::Float64),
    ("annotation", Type::String),
    ("cot", Type::String),
    ("depth", Type::Int64),
    ("question_type", Type::String),
    ("width", Type::Int64),
    ("height", Type::Int64),
    ("sha256", Type::String),
    ("index", Type::Int64),
];

/// The columns of a relation-item dataset ([`Layout::Choice`]): GeomVerse's, with
/// `answer` the correct option's letter (as the manifest has it, and as lmms-eval's
/// multiple-choice tasks keep their targets: `mmmu`'s `answer`), then the options in
/// letter order (`choices`, as `scienceqa`'s) and the relation item's fields.
const CHOICE: [(&str, Type); 23] = [
    ("id", Type::String),
    ("base_id", Type::String),
    ("axis", Type::String),
    ("value", Type::String),
    ("variant", Type::String),
    ("image", Type::Image),
    ("question", Type::String),
    ("answer", Type::String),
    ("annotation", Type::String),
    ("cot", Type::String),
    ("depth", Type::Int64),
    ("question_type", Type::String),
    ("width", Type::Int64),
    ("height", Type::Int64),
    ("sha256", Type::String),
    ("index", Type::Int64),
    ("choices", Type::Strings),
    ("answer_text", Type::String),
    ("task", Type::String),
    ("relation", Type::String),
    ("domain", Type::String),
    ("subset", Type::String),
    ("mode", Type::String),
];

/// The columns of a dataset of `layout`.
pub(super) fn columns(layout: Layout) -> &'static [(&'static str, Type)] {
    match layout {
        Layout::Open => &OPEN,
        Layout::Choice => &CHOICE,
    }
}

/// The features as `datasets` writes them in the `huggingface` metadata key.
fn hf_features(layout: Layout) -> String {
    let features: serde_json::Map<String, serde_json::Value> = columns(layout)
        .iter()
        .map(|&(name, ty)| (name.to_string(), ty.feature()))
        .collect();
    serde_json::json!({"info": {"features": features}}).to_string()
}

fn schema(layout: Layout) -> Arc<Schema> {
    let fields: Vec<Field> = columns(layout)
        .iter()
        .map(|&(name, ty)| Field::new(name, ty.arrow(), true))
        .collect();
    let metadata = HashMap::from([("huggingface".to_string(), hf_features(layout))]);
    Arc::new(Schema::new_with_metadata(fields, metadata))
}

/// The columns of the rows not yet written.
#[derive(Default)]
struct Batch {
    strings: HashMap<&'static str, StringBuilder>,
    ints: HashMap<&'static str, Int64Builder>,
    answer: Float64Builder,
    choices: ListBuilder<StringBuilder>,
    bytes: BinaryBuilder,
    paths: StringBuilder,
    /// Which rows have an image.
    shown: Vec<bool>,
    rows: usize,
}

impl Batch {
    fn push(&mut self, r: &DatasetRow, layout: Layout) {
        let mut s = |name: &'static str, v: Option<&str>| {
            self.strings.entry(name).or_default().append_option(v)
        };
        s("id", Some(&r.id));
        s("base_id", Some(&r.base_id));
        s("axis", Some(&r.axis));
        s("value", Some(&r.value));
        s("variant", Some(&r.variant));
        s("question", r.question.as_deref());
        s("annotation", r.annotation.as_deref());
        s("cot", r.cot.as_deref());
        s("question_type", r.question_type.as_deref());
        let image = r.image.as_ref();
        s("sha256", image.map(|i| i.sha256.as_str()));
        match layout {
            Layout::Open => self.answer.append_option(r.number()),
            Layout::Choice => {
                let f = r.relation.as_ref();
                s("answer", r.letter().map(String::from).as_deref());
                s("answer_text", f.map(|f| f.answer_text.as_str()));
                s("task", f.map(|f| spelling(f.task)).as_deref());
                s("relation", f.map(|f| f.relation.as_str()));
                s("domain", f.map(|f| spelling(f.domain)).as_deref());
                s("subset", f.map(|f| spelling(f.subset)).as_deref());
                s("mode", f.map(|f| spelling(f.mode)).as_deref());
                self.choices
                    .append_option(f.map(|f| f.choices.iter().map(Some)));
            }
        }
        let mut i = |name: &'static str, v: Option<i64>| {
            self.ints.entry(name).or_default().append_option(v)
        };
        i("depth", r.depth);
        i("width", image.map(|i| i64::from(i.width)));
        i("height", image.map(|i| i64::from(i.height)));
        i("index", Some(r.index as i64));
        // A text-only row's image is null (the struct and both its fields), which
        // `datasets` decodes to `None`.
        self.bytes.append_option(image.map(|i| &i.bytes));
        self.paths.append_option(image.map(|i| &i.file_name));
        self.shown.push(image.is_some());
        self.rows += 1;
    }

    fn take(&mut self, schema: &Arc<Schema>, layout: Layout) -> Result<RecordBatch, DatasetError> {
        // No null buffer at all when every row has an image (`finish` gives `None`).
        let mut shown = NullBufferBuilder::new(self.shown.len());
        self.shown.drain(..).for_each(|s| shown.append(s));
        let image = StructArray::new(
            image_fields(),
            vec![
                Arc::new(renew(&mut self.bytes).finish()) as ArrayRef,
                Arc::new(renew(&mut self.paths).finish()) as ArrayRef,
            ],
            shown.finish(),
        );
        let columns: Vec<ArrayRef> = columns(layout)
            .iter()
            .map(|&(name, ty)| -> ArrayRef {
                match ty {
                    Type::Image => Arc::new(image.clone()),
                    Type::Float64 => Arc::new(self.answer.finish()),
                    Type::Int64 => Arc::new(self.ints.entry(name).or_default().finish()),
                    Type::String => Arc::new(renew(self.strings.entry(name).or_default()).finish()),
                    Type::Strings => Arc::new(self.choices.finish()),
                }
            })
            .collect();
        self.rows = 0;
        RecordBatch::try_new(schema.clone(), columns)
            .map_err(|e| DatasetError::Parquet(e.to_string()))
    }
}

/// The builder with this batch's values, leaving in its place one sized for a batch
/// like it: a finished builder starts empty, and growing it again image by image
/// copied each batch's images twice more (`realloc`, 0.7 % of an all-sinks sweep).
fn renew<T: ByteArrayType>(builder: &mut GenericByteBuilder<T>) -> GenericByteBuilder<T> {
    let bytes = builder.values_slice().len();
    std::mem::replace(
        builder,
        GenericByteBuilder::with_capacity(BATCH, bytes + bytes / 4),
    )
}

/// A shard file that counts the bytes written to it (the card's `download_size`).
struct Counted {
    file: AtomicFile,
    bytes: u64,
}

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// `data/test-00000-of-00003.parquet` (`parquet_names::is_shard` recognises it).
fn shard_name(k: usize, n: usize) -> String {
    format!("test-{k:05}-of-{n:05}.parquet")
}

/// The Parquet shards being written.
pub(super) struct Shards {
    dir: Dir,
    compression: Compression,
    files: ShardFiles,
    /// The layout and its schema, set by the first row.
    schema: Option<(Layout, Arc<Schema>)>,
    writer: Option<ArrowWriter<Counted>>,
    batch: Batch,
    rows: u64,
    /// The rows' Arrow size, as `datasets` will count it.
    arrow: ArrowSize,
    /// Bytes of the shards completed.
    file_bytes: u64,
}

impl Shards {
    pub(super) fn new(dir: &Dir, compression: ParquetCompression) -> Result<Shards, DatasetError> {
        Ok(Shards {
            dir: dir.clone(),
            compression: match compression {
                ParquetCompression::Snappy => Compression::SNAPPY,
                ParquetCompression::None => Compression::UNCOMPRESSED,
            },
            files: ShardFiles::new(dir, "data", shard_name, is_shard)?,
            schema: None,
            writer: None,
            batch: Batch::default(),
            rows: 0,
            arrow: ArrowSize::default(),
            file_bytes: 0,
        })
    }

    /// A Parquet writer's error: an I/O error (a full disk) as one, naming the folder.
    fn error(&self, e: parquet::errors::ParquetError) -> DatasetError {
        match e {
            parquet::errors::ParquetError::External(inner) => {
                match inner.downcast::<std::io::Error>() {
                    Ok(source) => DatasetError::Io {
                        path: self.files.folder().to_path_buf(),
                        source: *source,
                    },
                    Err(other) => DatasetError::Parquet(other.to_string()),
                }
            }
            e => DatasetError::Parquet(e.to_string()),
        }
    }

    fn open(
        &mut self,
        layout: Layout,
        schema: Arc<Schema>,
    ) -> Result<ArrowWriter<Counted>, DatasetError> {
        let file = Counted {
            file: self.files.create()?,
            bytes: 0,
        };
        let props = WriterProperties::builder()
            .set_compression(self.compression)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_key_value_metadata(Some(vec![KeyValue::new(
                "huggingface".to_string(),
                hf_features(layout),
            )]))
            // Every image (and most texts) is unique: a dictionary would only be
            // built, found useless and dropped, after holding a row group's images.
            .set_column_dictionary_enabled(
                ColumnPath::new(vec!["image".into(), "bytes".into()]),
                false,
            )
            .set_column_dictionary_enabled(ColumnPath::from("cot"), false)
            .set_column_dictionary_enabled(ColumnPath::from("sha256"), false)
            .set_column_dictionary_enabled(ColumnPath::from("id"), false)
            // Column-chunk statistics only, as pyarrow (and so `datasets`) writes
            // them: no page index, whose per-page entries a writer holds until the
            // file closes (~1 MB per 10,000 rows here).
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_offset_index_disabled(true)
            // Min/max of PNG bytes tell a reader nothing, and the footer would keep
            // two images per row group; long texts' bounds are cut to 64 bytes.
            .set_column_statistics_enabled(
                ColumnPath::new(vec!["image".into(), "bytes".into()]),
                EnabledStatistics::None,
            )
            .set_statistics_truncate_length(Some(64))
            // Page sizes are checked every `write_batch_size` rows: at the default
            // (1,024) a row group's images form one page, buffered and compressed
            // whole (several MB at once); every 10 rows keeps pages near 1 MB.
            .set_write_batch_size(10)
            .build();
        ArrowWriter::try_new(file, schema, Some(props)).map_err(|e| self.error(e))
    }

    fn flush(&mut self) -> Result<(), DatasetError> {
        let Some((layout, schema)) = self.schema.clone() else {
            return Ok(());
        };
        if self.batch.rows == 0 {
            return Ok(());
        }
        let batch = self.batch.take(&schema, layout)?;
        self.arrow.add(&batch);
        if self.arrow.open_rows() == ROW_GROUP as u64 {
            self.arrow.close_group();
        }
        let writer = match &mut self.writer {
            Some(w) => w,
            None => {
                let w = self.open(layout, schema)?;
                self.writer.insert(w)
            }
        };
        writer.write(&batch).map_err(|e| self.error(e))
    }
}

impl Writer for Shards {
    fn push(&mut self, row: &DatasetRow, layout: Layout) -> Result<(), DatasetError> {
        self.schema.get_or_insert_with(|| (layout, schema(layout)));
        self.batch.push(row, layout);
        self.rows += 1;
        if self.batch.rows == BATCH {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the rows not yet written and completes the shard.
    fn cut(&mut self) -> Result<(), DatasetError> {
        self.flush()?;
        self.arrow.close_group();
        if let Some(w) = self.writer.take() {
            let file = w.into_inner().map_err(|e| self.error(e))?;
            self.file_bytes += file.bytes;
            self.files.commit(file.file)?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>, layout: Layout) -> Result<Vec<PathBuf>, DatasetError> {
        self.cut()?;
        let card = card(
            layout,
            columns(layout),
            &Sizes {
                rows: self.rows,
                num_bytes: self.arrow.total(),
                download_size: self.file_bytes,
            },
        );
        let Shards { dir, files, .. } = *self;
        let mut files = files.publish()?;
        // A README.md of the user's stays: the card goes beside it.
        let name = super::card_name(&dir);
        dir.write_atomic(name, card.as_bytes())
            .map_err(io(&dir.join(name)))?;
        files.push(PathBuf::from(name));
        Ok(files)
    }
}
