//! Hugging Face Parquet: `data/test-00000-of-000NN.parquet` and a `README.md` dataset
//! card, written with the Apache Arrow Rust crates.
//!
//! `image` is the HF `Image` feature: a struct of `bytes` (the PNG/JPEG file as
//! written) and `path` (its file name). The features are declared in the Arrow
//! schema's metadata under the `huggingface` key, the form `datasets` itself writes
//! and reads back, so `datasets.load_dataset("parquet", data_files=…)` decodes `image`
//! to a PIL image; the card's YAML declares the same features and a `configs` entry so
//! that `datasets.load_dataset(DIR)` works too.

use super::{DatasetError, DatasetRow, ShardCursor, Writer, io};
use crate::output::atomic::AtomicFile;
use arrow_array::builder::{BinaryBuilder, Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows per row group (and per Arrow batch): bounds the memory a shard takes.
const ROW_GROUP: usize = 256;

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

/// The Parquet shards being written.
pub(super) struct Shards {
    dir: PathBuf,
    cursor: ShardCursor,
    schema: Arc<Schema>,
    writer: Option<ArrowWriter<AtomicFile>>,
    batch: Batch,
    files: Vec<PathBuf>,
}

/// `data/test-00000-of-00003.parquet`.
fn shard_name(k: usize, n: usize) -> PathBuf {
    PathBuf::from(format!("data/test-{k:05}-of-{n:05}.parquet"))
}

impl Shards {
    pub fn new(dir: &Path, plan: &[usize]) -> Result<Shards, DatasetError> {
        let data = dir.join("data");
        std::fs::create_dir_all(&data).map_err(io(&data))?;
        Ok(Shards {
            dir: dir.to_path_buf(),
            cursor: ShardCursor::new(plan),
            schema: schema(),
            writer: None,
            batch: Batch::default(),
            files: Vec::new(),
        })
    }

    fn open(&mut self) -> Result<ArrowWriter<AtomicFile>, DatasetError> {
        let rel = shard_name(self.cursor.shard(), self.cursor.shards());
        let path = self.dir.join(&rel);
        let file = AtomicFile::create(&path).map_err(io(&path))?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_key_value_metadata(Some(vec![KeyValue::new(
                "huggingface".to_string(),
                hf_features(),
            )]))
            .build();
        self.files.push(rel);
        ArrowWriter::try_new(file, self.schema.clone(), Some(props))
            .map_err(|e| DatasetError::Parquet(e.to_string()))
    }

    fn flush(&mut self) -> Result<(), DatasetError> {
        if self.batch.rows == 0 {
            return Ok(());
        }
        let batch = self.batch.take(&self.schema)?;
        let writer = match &mut self.writer {
            Some(w) => w,
            None => {
                let w = self.open()?;
                self.writer.insert(w)
            }
        };
        writer
            .write(&batch)
            .map_err(|e| DatasetError::Parquet(e.to_string()))
    }

    fn close_shard(&mut self) -> Result<(), DatasetError> {
        self.flush()?;
        if let Some(w) = self.writer.take() {
            let path = self
                .dir
                .join(self.files.last().expect("an open shard has a name"));
            let file = w
                .into_inner()
                .map_err(|e| DatasetError::Parquet(e.to_string()))?;
            file.commit(false).map_err(io(&path))?;
        }
        self.cursor.next();
        Ok(())
    }

    fn card(&self) -> String {
        let mut features = String::new();
        for (name, ty) in COLUMNS {
            let dtype = if ty == "image" { "image" } else { ty };
            features.push_str(&format!("  - name: {name}\n    dtype: {dtype}\n"));
        }
        format!(
            "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: test\n    path: data/test-*.parquet\n\
             dataset_info:\n  features:\n{features}  splits:\n  - name: test\n    num_examples: {rows}\n---\n\n\
             # geomrender dataset\n\nGeomVerse-style geometry problems rendered by geomrender, one row per image \
             (base images and their robustness variants).\n\n\
             - `axis` / `value`: the variant (`base` / `base` for base images); `variant` is the same as JSON.\n\
             - `image`: the PNG (or JPEG, for `jpeg` variants) as written, decoded by `datasets` to a PIL image.\n\
             - `question`, `answer`, `cot`, `annotation`, `depth`, `question_type`: the problem, as in `manifest.jsonl`.\n\n\
             ```python\nimport datasets\nds = datasets.load_dataset(\"parquet\", data_files=\"data/test-*.parquet\", split=\"train\")\n\
             ds = datasets.load_dataset(\".\", split=\"test\")  # from this directory, through this card\n```\n",
            rows = self.cursor.rows()
        )
    }
}

impl Writer for Shards {
    fn push(&mut self, row: &DatasetRow) -> Result<(), DatasetError> {
        self.batch.push(row);
        if self.cursor.row() {
            self.close_shard()?;
        } else if self.batch.rows == ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<Vec<PathBuf>, DatasetError> {
        if self.writer.is_some() || self.batch.rows > 0 {
            self.close_shard()?;
        }
        let card = self.dir.join("README.md");
        crate::output::atomic::write_atomic(&card, self.card().as_bytes()).map_err(io(&card))?;
        self.files.push(PathBuf::from("README.md"));
        Ok(self.files)
    }
}
