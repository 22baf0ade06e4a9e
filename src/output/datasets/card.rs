//! The Parquet sink's dataset card (`README.md`) and the sizes its `dataset_info`
//! declares.
//!
//! HF `datasets` reads the card's YAML `dataset_info` (`DatasetInfo._from_yaml_dict`
//! in `datasets/info.py`): a `splits` entry without all of `name`, `num_bytes` and
//! `num_examples` is dropped with the warning "The `splits` field in YAML is malformed"
//! (`SplitDict._from_yaml_list`, `datasets/splits.py`). `num_examples` is checked
//! against the rows it reads (`verify_splits`); `num_bytes`, `download_size` and
//! `dataset_size` size the disk-space check before the split is prepared. They are
//! what `datasets` itself records: `download_size` the Parquet files' bytes, a split's
//! `num_bytes` (and `dataset_size`, their sum) the Arrow size of the table it
//! prepares, `pa.Table.nbytes` of each row group as read ([`ArrowSize`]).

use super::Layout;
use super::features::Type;
use super::parquet_names::{CARD_HEADING, CARD_START};
use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;

/// The Arrow size of the rows written, as `datasets` counts it when it prepares the
/// split (`pa.Table.nbytes`, pyarrow 26, of each row group as read): per row group,
/// every string or binary array of n values its bytes and 4 bytes a value of offsets
/// (plus a validity bitmap of ⌈n/8⌉ bytes when the group holds a null); a list of
/// strings its 4 bytes a row of offsets (and bitmap) and its values' as a string
/// array; every int64 or float64 column 8 bytes a row and, as pyarrow reads
/// nullable numbers, a validity bitmap always.
#[derive(Debug, Default)]
pub(super) struct ArrowSize {
    /// Bytes of the row groups closed so far.
    total: u64,
    /// Rows of the open row group.
    rows: u64,
    /// Variable-length bytes (strings, binaries) of the open row group.
    bytes: u64,
    /// Per array of the open row group, leaves and list offsets in schema order.
    leaves: Vec<LeafSize>,
}

/// One array of the open row group.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LeafSize {
    kind: Leaf,
    /// Its values in the row group (rows, or a list's items).
    len: u64,
    /// Whether the row group holds a null there.
    null: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Leaf {
    /// Strings, binaries and list offsets: offsets (and bytes).
    Variable,
    /// int64 / float64.
    Fixed,
}

impl ArrowSize {
    /// Counts a batch of the open row group.
    pub(super) fn add(&mut self, batch: &RecordBatch) {
        let mut leaves = Vec::new();
        for column in batch.columns() {
            collect(column.as_ref(), &mut leaves, &mut self.bytes);
        }
        if self.leaves.is_empty() {
            self.leaves = leaves;
        } else {
            for (mine, theirs) in self.leaves.iter_mut().zip(leaves) {
                mine.len += theirs.len;
                mine.null |= theirs.null;
            }
        }
        self.rows += batch.num_rows() as u64;
    }

    /// Closes the open row group (the writer cut one, or the shard ended).
    pub(super) fn close_group(&mut self) {
        if self.rows == 0 {
            return;
        }
        let fixed: u64 = self
            .leaves
            .iter()
            .map(|l| {
                let bitmap = l.len.div_ceil(8);
                match l.kind {
                    Leaf::Variable => 4 * l.len + if l.null { bitmap } else { 0 },
                    Leaf::Fixed => 8 * l.len + bitmap,
                }
            })
            .sum();
        self.total += fixed + self.bytes;
        (self.rows, self.bytes) = (0, 0);
        self.leaves.clear();
    }

    /// Rows in the open row group.
    pub(super) fn open_rows(&self) -> u64 {
        self.rows
    }

    /// Bytes of every row group closed.
    pub(super) fn total(&self) -> u64 {
        self.total
    }
}

/// The arrays of `a` (a struct's children in order, a list's offsets then its
/// values), adding their variable-length bytes to `bytes`.
fn collect(a: &dyn Array, leaves: &mut Vec<LeafSize>, bytes: &mut u64) {
    let mut leaf = |kind| {
        leaves.push(LeafSize {
            kind,
            len: a.len() as u64,
            null: a.null_count() > 0,
        })
    };
    match a.data_type() {
        DataType::Struct(_) => {
            for child in a.as_struct().columns() {
                collect(child.as_ref(), leaves, bytes);
            }
        }
        DataType::List(_) => {
            leaf(Leaf::Variable);
            collect(a.as_list::<i32>().values().as_ref(), leaves, bytes);
        }
        DataType::Utf8 => {
            *bytes += a.as_string::<i32>().values().len() as u64;
            leaf(Leaf::Variable);
        }
        DataType::Binary => {
            *bytes += a.as_binary::<i32>().values().len() as u64;
            leaf(Leaf::Variable);
        }
        _ => leaf(Leaf::Fixed),
    }
}

/// What the card declares about the split.
pub(super) struct Sizes {
    pub(super) rows: u64,
    /// The split's Arrow size ([`ArrowSize`]).
    pub(super) num_bytes: u64,
    /// The Parquet files' bytes.
    pub(super) download_size: u64,
}

/// The card: YAML front matter (the config, the features, `dataset_info`) and a short
/// description of the columns (the relation items' too, on a [`Layout::Choice`]
/// dataset). `parquet_names::is_card` recognises it by its start and heading.
pub(super) fn card(layout: Layout, features: &[(&str, Type)], sizes: &Sizes) -> String {
    let mut list = String::new();
    for (name, ty) in features {
        list.push_str(&format!("  - name: {name}\n    {}\n", ty.card()));
    }
    let (what, answer, relation) = match layout {
        Layout::Open => ("GeomVerse-style geometry problems", "`answer`", ""),
        Layout::Choice => (
            "GeomRel-style relation-identification items (multiple choice)",
            "`answer` (the correct option's letter)",
            "- `choices` (the options in letter order, \"Cannot be inferred\" among them), \
             `answer_text` (the correct option), `task`, `relation`, `domain`, `subset`, \
             `mode`: the relation item, as in `manifest.jsonl`.\n",
        ),
    };
    let Sizes {
        rows,
        num_bytes,
        download_size,
    } = sizes;
    let version = env!("CARGO_PKG_VERSION");
    format!(
        "{CARD_START}- config_name: default\n  data_files:\n  - split: test\n    path: data/test-*.parquet\n\
         dataset_info:\n  features:\n{list}  splits:\n  - name: test\n    num_bytes: {num_bytes}\n    num_examples: {rows}\n\
         \x20 download_size: {download_size}\n  dataset_size: {num_bytes}\n---\n\n\
         {CARD_HEADING}\n\n{what} rendered by geomrender {version}, one row per image \
         (base images and their robustness variants). What made them (the options that \
         decide the bytes, the backend and adapter, the input's and the font's SHA-256, \
         the command line, the time) is in the run's record, `.geomrender.run.json` \
         beside `manifest.jsonl` (each shard's `done.json` for a merged run; \
         `geomrender schema run`).\n\n\
         - `axis` / `value`: the variant (`base` / `base` for base images); `variant` is the same as JSON.\n\
         - `image`: the PNG (or JPEG, for `jpeg` variants) as written, decoded by `datasets` to a PIL image.\n\
         - `question`, {answer}, `cot`, `annotation`, `depth`, `question_type`: the problem, as in `manifest.jsonl`.\n\
         {relation}\n\
         ```python\nimport datasets\nds = datasets.load_dataset(\"parquet\", data_files=\"data/test-*.parquet\", split=\"train\")\n\
         ds = datasets.load_dataset(\".\", split=\"test\")  # from this directory, through this card\n```\n"
    )
}

#[cfg(test)]
mod tests {
    use super::super::parquet_names::is_card;
    use super::*;
    use arrow_array::{ArrayRef, Float64Array, StringArray};
    use std::sync::Arc;

    fn batch(texts: &[Option<&str>]) -> RecordBatch {
        let numbers: Vec<f64> = (0..texts.len()).map(|i| i as f64).collect();
        RecordBatch::try_from_iter([
            ("t", Arc::new(StringArray::from(texts.to_vec())) as ArrayRef),
            ("n", Arc::new(Float64Array::from(numbers)) as ArrayRef),
        ])
        .unwrap()
    }

    #[test]
    fn groups_count_offsets_bytes_and_bitmaps() {
        let mut size = ArrowSize::default();
        // One group of 3 rows in two batches, no nulls: 4·3 + 6 bytes, 8·3 + 1.
        size.add(&batch(&[Some("ab"), Some("cd")]));
        size.add(&batch(&[Some("ef")]));
        assert_eq!(size.open_rows(), 3);
        size.close_group();
        assert_eq!(size.total(), (12 + 6) + (24 + 1));
        // A group with a null string: its bitmap counts too.
        size.add(&batch(&[None, Some("xyz")]));
        size.close_group();
        size.close_group();
        assert_eq!(size.total(), 43 + (8 + 3 + 1) + (16 + 1));
    }

    fn lists(rows: &[Option<&[&str]>]) -> RecordBatch {
        use arrow_array::builder::{ListBuilder, StringBuilder};
        let mut b = ListBuilder::new(StringBuilder::new());
        for row in rows {
            b.append_option(row.map(|items| items.iter().map(Some)));
        }
        RecordBatch::try_from_iter([("c", Arc::new(b.finish()) as ArrayRef)]).unwrap()
    }

    /// pyarrow 26 on these rows written to Parquet and read back (`read_row_group(0)
    /// .nbytes`): 26, 29 and 28 bytes.
    #[test]
    fn lists_count_row_offsets_then_their_items_as_strings() {
        let cases: [(&[Option<&[&str]>], u64); 3] = [
            (&[Some(&["a", "bb"]), Some(&["ccc"])], 26),
            (&[Some(&["a", "bb"]), None, Some(&["x"])], 29),
            (&[Some(&["a", "bb"]), Some(&[]), Some(&["x"])], 28),
        ];
        for (rows, want) in cases {
            let mut size = ArrowSize::default();
            // In two batches: the items' count adds up across them.
            size.add(&lists(&rows[..1]));
            size.add(&lists(&rows[1..]));
            size.close_group();
            assert_eq!(size.total(), want, "{rows:?}");
        }
    }

    #[test]
    fn a_relation_card_declares_the_choices_and_names_the_relation_columns() {
        let sizes = Sizes {
            rows: 1,
            num_bytes: 1,
            download_size: 1,
        };
        let open = card(Layout::Open, &[("answer", Type::Float64)], &sizes);
        let choice = card(
            Layout::Choice,
            &[("answer", Type::String), ("choices", Type::Strings)],
            &sizes,
        );
        assert!(choice.contains(
            "  - name: answer\n    dtype: string\n  - name: choices\n    list: string\n"
        ));
        assert!(choice.contains("`answer` (the correct option's letter)"));
        assert!(choice.contains("- `choices` (the options in letter order"));
        assert!(!open.contains("choices") && open.contains("    dtype: float64\n"));
        assert!(is_card(choice.as_bytes()) && is_card(open.as_bytes()));
    }

    #[test]
    fn the_card_declares_full_splits_and_is_recognised() {
        let text = card(
            Layout::Open,
            &[("id", Type::String), ("image", Type::Image)],
            &Sizes {
                rows: 7,
                num_bytes: 1234,
                download_size: 99,
            },
        );
        assert!(text.contains(
            "  splits:\n  - name: test\n    num_bytes: 1234\n    num_examples: 7\n  \
             download_size: 99\n  dataset_size: 1234\n---\n"
        ));
        assert!(is_card(text.as_bytes()));
        assert!(!is_card(b"---\nconfigs:\n---\n# my dataset\n"));
    }
}
