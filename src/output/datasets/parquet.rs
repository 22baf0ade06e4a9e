//! Hugging Face Parquet: `data/test-00000-of-000NN.parquet` and a `README.md` dataset
//! card, written with the Apache Arrow Rust crates.
//!
//! `image` is the HF `Image` feature: a struct of `bytes` (the PNG/JPEG file as
//! written) and `path` (its file name). The features are declared in the Arrow
//! schema's metadata under the `huggingface` key, the form `datasets` itself writes
//! and reads back, so `datasets.load_dataset("parquet", data_files=…)` decodes `image`
//! to a PIL image; the card's YAML declares the same features and a `configs` entry so
//! that `datasets.load_dataset(DIR)` works too.

use super::card::{ArrowSize, Sizes, card};
use super::shards::ShardFiles;
use super::{DatasetError, DatasetRow, Writer, io};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use arrow_array::builder::{BinaryBuilder, Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, Fields, Schema};
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

/// (column, HF feature type) in order; `image` is the `Image` feature.
const COLUMNS: [(&str, &str); 16] = [
    ("id", "string"),
    ("base_id", "string"),
    ("axis", "string"),
    ("value", "string"),
    ("variant", "string"),
    ("image", "image"),
    ("question", "string"),
    ("answer", "float64"),
    ("annotation", "string"),
    ("cot", "string"),
    ("depth", "int64"),
    ("question_type", "string"),
    ("width", "int64"),
    ("height", "int64"),
    ("sha256", "string"),
    ("index", "int64"),
];

fn image_fields() -> Fields {
    Fields::from(vec![
        Field::new("bytes", DataType::Binary, true),
        Field::new("path", DataType::Utf8, true),
    ])
}

/// The features as `datasets` writes them in the `huggingface` metadata key.
fn hf_features() -> String {
    let mut features = serde_json::Map::new();
    for (name, ty) in COLUMNS {
        let f = match ty {
            "image" => serde_json::json!({"_type": "Image"}),
            dtype => serde_json::json!({"dtype": dtype, "_type": "Value"}),
        };
        features.insert(name.to_string(), f);
    }
    serde_json::json!({"info": {"features": features}}).to_string()
}

fn schema() -> Arc<Schema> {
    let fields: Vec<Field> = COLUMNS
        .iter()
        .map(|&(name, ty)| {
            let dt = match ty {
                "image" => DataType::Struct(image_fields()),
                "float64" => DataType::Float64,
                "int64" => DataType::Int64,
                _ => DataType::Utf8,
            };
            Field::new(name, dt, true)
        })
        .collect();
    let metadata = HashMap::from([("huggingface".to_string(), hf_features())]);
    Arc::new(Schema::new_with_metadata(fields, metadata))
}

/// The columns of the rows not yet written.
#[derive(Default)]
struct Batch {
    strings: HashMap<&'static str, StringBuilder>,
    ints: HashMap<&'static str, Int64Builder>,
    answer: Float64Builder,
    bytes: BinaryBuilder,
    paths: StringBuilder,
    rows: usize,
}

impl Batch {
    fn push(&mut self, r: &DatasetRow) {
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
        s("sha256", Some(&r.sha256));
        let mut i = |name: &'static str, v: Option<i64>| {
            self.ints.entry(name).or_default().append_option(v)
        };
        i("depth", r.depth);
        i("width", Some(i64::from(r.width)));
        i("height", Some(i64::from(r.height)));
        i("index", Some(r.index as i64));
        self.answer.append_option(r.answer);
        self.bytes.append_value(&r.image);
        self.paths.append_value(&r.file_name);
        self.rows += 1;
    }

    fn take(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, DatasetError> {
        let image = StructArray::new(
            image_fields(),
            vec![
                Arc::new(self.bytes.finish()) as ArrayRef,
                Arc::new(self.paths.finish()) as ArrayRef,
            ],
            None,
        );
        let columns: Vec<ArrayRef> = COLUMNS
            .iter()
            .map(|&(name, ty)| -> ArrayRef {
                match ty {
                    "image" => Arc::new(image.clone()),
                    "float64" => Arc::new(self.answer.finish()),
                    "int64" => Arc::new(self.ints.entry(name).or_default().finish()),
                    _ => Arc::new(self.strings.entry(name).or_default().finish()),
                }
            })
            .collect();
        self.rows = 0;
        RecordBatch::try_new(schema.clone(), columns)
            .map_err(|e| DatasetError::Parquet(e.to_string()))
    }
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

/// The Parquet shards being written.
pub(super) struct Shards {
    dir: Dir,
    files: ShardFiles,
    schema: Arc<Schema>,
    writer: Option<ArrowWriter<Counted>>,
    batch: Batch,
    rows: u64,
    /// The rows' Arrow size, as `datasets` will count it.
    arrow: ArrowSize,
    /// Bytes of the shards completed.
    file_bytes: u64,
}

/// `data/test-00000-of-00003.parquet`.
fn shard_name(k: usize, n: usize) -> String {
    format!("test-{k:05}-of-{n:05}.parquet")
}

pub(super) fn is_shard(name: &str) -> bool {
    name.starts_with("test-") && name.contains("-of-") && name.ends_with(".parquet")
}

impl Shards {
    pub(super) fn new(dir: &Dir) -> Result<Shards, DatasetError> {
        Ok(Shards {
            dir: dir.clone(),
            files: ShardFiles::new(dir, "data", shard_name, is_shard)?,
            schema: schema(),
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

    fn open(&mut self) -> Result<ArrowWriter<Counted>, DatasetError> {
        let file = Counted {
            file: self.files.create()?,
            bytes: 0,
        };
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_key_value_metadata(Some(vec![KeyValue::new(
                "huggingface".to_string(),
                hf_features(),
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
        ArrowWriter::try_new(file, self.schema.clone(), Some(props)).map_err(|e| self.error(e))
    }

    fn flush(&mut self) -> Result<(), DatasetError> {
        if self.batch.rows == 0 {
            return Ok(());
        }
        let batch = self.batch.take(&self.schema)?;
        self.arrow.add(&batch);
        if self.arrow.open_rows() == ROW_GROUP as u64 {
            self.arrow.close_group();
        }
        let writer = match &mut self.writer {
            Some(w) => w,
            None => {
                let w = self.open()?;
                self.writer.insert(w)
            }
        };
        writer.write(&batch).map_err(|e| self.error(e))
    }
}

impl Writer for Shards {
    fn push(&mut self, row: &DatasetRow) -> Result<(), DatasetError> {
        self.batch.push(row);
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

    fn finish(mut self: Box<Self>) -> Result<Vec<PathBuf>, DatasetError> {
        self.cut()?;
        let card = card(
            &COLUMNS,
            &Sizes {
                rows: self.rows,
                num_bytes: self.arrow.total(),
                download_size: self.file_bytes,
            },
        );
        let Shards { dir, files, .. } = *self;
        let mut files = files.publish()?;
        dir.write_atomic("README.md", card.as_bytes())
            .map_err(io(&dir.join("README.md")))?;
        files.push(PathBuf::from("README.md"));
        Ok(files)
    }
}
