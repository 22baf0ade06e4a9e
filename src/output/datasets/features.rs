//! The Parquet sink's column types: each its HF feature, its Arrow type and its line
//! in the dataset card (the one table the sink and its card both read).

use arrow_schema::{DataType, Field, Fields};
use std::sync::Arc;

/// A column's type: its HF feature, Arrow type and line in the card's `features`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Type {
    String,
    Int64,
    Float64,
    /// The HF `Image` feature: a struct of `bytes` and `path`.
    Image,
    /// A list of strings (`datasets.List(datasets.Value("string"))`).
    Strings,
}

impl Type {
    /// The feature as `datasets` writes it in the `huggingface` metadata key
    /// (`Features.to_dict`, datasets 5).
    pub(super) fn feature(self) -> serde_json::Value {
        let value = |dtype: &str| serde_json::json!({"dtype": dtype, "_type": "Value"});
        match self {
            Type::String => value("string"),
            Type::Int64 => value("int64"),
            Type::Float64 => value("float64"),
            Type::Image => serde_json::json!({"_type": "Image"}),
            Type::Strings => serde_json::json!({"feature": value("string"), "_type": "List"}),
        }
    }

    /// The feature in the card's YAML, as `Features._to_yaml_list` writes it.
    pub(super) fn card(self) -> &'static str {
        match self {
            Type::String => "dtype: string",
            Type::Int64 => "dtype: int64",
            Type::Float64 => "dtype: float64",
            Type::Image => "dtype: image",
            Type::Strings => "list: string",
        }
    }

    pub(super) fn arrow(self) -> DataType {
        match self {
            Type::String => DataType::Utf8,
            Type::Int64 => DataType::Int64,
            Type::Float64 => DataType::Float64,
            Type::Image => DataType::Struct(image_fields()),
            Type::Strings => DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
        }
    }
}

/// The HF `Image` feature's Arrow struct: `bytes` and `path`, both nullable.
pub(super) fn image_fields() -> Fields {
    Fields::from(vec![
        Field::new("bytes", DataType::Binary, true),
        Field::new("path", DataType::Utf8, true),
    ])
}
