//! `manifest.jsonl`: one JSON row per written image, in input order.
//!
//! [`ManifestRow`] is the one definition of a row: the writer serialises it, resume
//! reads it back, and `schemas/manifest.schema.json` is tested against it. Rows are
//! streamed to a hidden temporary file next to the manifest and renamed into place
//! when the run completes, so a manifest under its final name is always whole.

use super::dir::Dir;
use crate::compose::LayoutStats;
use crate::generate::relations::{Domain, Mode, Subset};
use crate::generate::{Annotation, Answer, Params};
use crate::style::Style;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// The JSON Schema of a manifest row (`geomrender schema manifest`).
pub const SCHEMA: &str = include_str!("../../schemas/manifest.schema.json");

/// One manifest row. Fields appear in declaration order; optional parts are left
/// out when absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestRow {
    #[serde(flatten)]
    pub image: ImageRecord,
    /// The SVG file, when both a raster image and SVG were written.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<SvgFile>,
    /// What the image is a drawing of: set with `--variants` and for every Problem line.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Lineage>,
    /// The question, solution and drawing facts of a Problem line.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<ProblemFields>,
    /// Hex SHA-256 of the input line that made this image (as read: without its line
    /// break, a trailing `\r` dropped): where the row came from, and what `--resume`
    /// checks a kept row against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_sha256: Option<String>,
}

/// The fields every row starts with: its id, then its image file, or `"image":
/// null` on a row without one (`modality=text-only`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "RawImageRecord")]
pub struct ImageRecord {
    pub id: String,
    /// The image file; `None` on a text-only row, which has no image at all.
    pub file: Option<ImageFile>,
}

/// A row's image file and what drew it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageFile {
    /// Path relative to the output directory, with `/` separators.
    pub image: String,
    pub width: u32,
    pub height: u32,
    /// Hex SHA-256 of the image file's bytes.
    pub sha256: String,
    /// What drew it: `"<adapter name> (<api>)"` (gpu), `"geomrender raster,
    /// tiny-skia <version> (cpu)"` (cpu) or `"resvg <version> (cpu)"` (resvg).
    pub backend: String,
}

impl ImageRecord {
    /// The image file's path, `None` on a text-only row.
    pub(crate) fn path(&self) -> Option<&str> {
        self.file.as_ref().map(|f| f.image.as_str())
    }
}

/// [`ImageRecord`] as JSON holds it: `image` always (`null` without a file), the
/// file's facts only with one; what a row read back is checked against.
#[derive(Deserialize)]
struct RawImageRecord {
    id: String,
    /// Required, and `null` without a file (a missing `image` is not a text-only row).
    #[serde(deserialize_with = "required_nullable")]
    image: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
    #[serde(default)]
    sha256: Option<String>,
    #[serde(default)]
    backend: Option<String>,
}

fn required_nullable<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

/// Written field by field from borrowed parts (every manifest row passes here):
/// `id`, `image` (`null` without a file), then the file's facts only with one.
impl Serialize for ImageRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("ImageRecord", 6)?;
        out.serialize_field("id", &self.id)?;
        match &self.file {
            None => out.serialize_field("image", &None::<&str>)?,
            Some(f) => {
                out.serialize_field("image", &f.image)?;
                out.serialize_field("width", &f.width)?;
                out.serialize_field("height", &f.height)?;
                out.serialize_field("sha256", &f.sha256)?;
                out.serialize_field("backend", &f.backend)?;
            }
        }
        out.end()
    }
}

impl TryFrom<RawImageRecord> for ImageRecord {
    type Error = String;

    fn try_from(r: RawImageRecord) -> Result<Self, String> {
        let file = match (r.image, r.width, r.height, r.sha256, r.backend) {
            (Some(image), Some(width), Some(height), Some(sha256), Some(backend)) => {
                Some(ImageFile {
                    image,
                    width,
                    height,
                    sha256,
                    backend,
                })
            }
            (None, None, None, None, None) => None,
            (Some(_), ..) => {
                return Err(format!(
                    "row {:?} names an image without all of width, height, sha256 and backend",
                    r.id
                ));
            }
            (None, ..) => {
                return Err(format!(
                    "row {:?} has no image (\"image\": null) but gives its width, height, sha256 or backend",
                    r.id
                ));
            }
        };
        Ok(ImageRecord { id: r.id, file })
    }
}

/// The SVG written beside a raster image (`--format png,svg`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SvgFile {
    /// Path relative to the output directory.
    pub svg: String,
    /// Hex SHA-256 of the SVG file's bytes.
    pub svg_sha256: String,
}

/// The base image a row belongs to and the variant that made it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lineage {
    /// Id of the base image (its own id for a base image).
    pub base_id: String,
    /// `{axis: value}` as `variants::Variant::json` gives it, written `spelled`
    /// (`{"fontsize": 12}`); empty for the base image.
    #[serde(serialize_with = "spelled_variant")]
    pub variant: Map<String, Value>,
}

/// A variant's values spelled as ids, dataset columns, task names and the score
/// report spell them: numbers through [`crate::decimal::json_number`], so a whole
/// number is written `12`, never `12.0`.
pub(crate) fn spelled(variant: &Map<String, Value>) -> Map<String, Value> {
    variant
        .iter()
        .map(|(axis, v)| {
            let v = match v.as_f64() {
                Some(n) if v.is_number() => crate::decimal::json_number(n),
                _ => v.clone(),
            };
            (axis.clone(), v)
        })
        .collect()
}

fn spelled_variant<S: Serializer>(variant: &Map<String, Value>, s: S) -> Result<S::Ok, S::Error> {
    spelled(variant).serialize(s)
}

/// What a Problem line adds to each of its rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemFields {
    /// Annotation style of the labels and texts.
    pub annotation: Annotation,
    /// The question in this image's annotation style and information placement.
    pub question: String,
    /// The chain-of-thought solution.
    pub cot: String,
    /// The words drawn in the image's caption band, in this row's annotation style:
    /// on `modality=vision-only`, the question the image asks (`question` is then an
    /// instruction to answer it); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    /// The answer: a number, the same for every variant of a problem except a
    /// backward question's (`params.backward`), which asks for another value; or, on
    /// a relation item, the correct choice's letter (`"B"`).
    pub answer: Answer,
    /// A relation item's choices, relation and subset (absent on GeomVerse rows).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub relation: Option<RelationFields>,
    /// The problem's generation parameters.
    pub params: Params,
    /// How this image was drawn.
    #[serde(serialize_with = "widened")]
    pub style: Style,
    /// Label layout figures.
    #[serde(serialize_with = "widened")]
    pub layout: LayoutStats,
    /// The Problem this image draws and asks, as its variant rewrote it (`render
    /// --emit-problems`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<Box<crate::generate::Problem>>,
}

/// The task a row's question belongs to, when it is not GeomVerse's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowTask {
    /// GeomRel's relation identification (`generate --task relations`).
    Relations,
}

/// What a relation item's row adds: its multiple-choice columns (as VLMEvalKit and
/// lmms-eval read them) and the keys `score` groups its accuracy by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RelationFields {
    pub task: RowTask,
    /// The option texts in letter order ("Cannot be inferred" among them).
    pub choices: Vec<String>,
    /// The correct option's text.
    pub answer_text: String,
    /// The relation asked about (`generate::relations::RELATIONS`).
    pub relation: String,
    pub domain: Domain,
    pub subset: Subset,
    pub mode: Mode,
}

impl RelationFields {
    /// The fields of a Problem's relation item, `None` for a GeomVerse problem.
    pub(crate) fn of(p: &crate::generate::Problem) -> Option<RelationFields> {
        let item = p.relation.as_deref()?;
        let Answer::Choice(letter) = p.answer else {
            return None;
        };
        Some(RelationFields {
            task: RowTask::Relations,
            choices: item.choices.clone(),
            answer_text: item.answer_text(letter)?.to_string(),
            relation: item.relation.clone(),
            domain: item.domain,
            subset: item.subset,
            mode: item.mode,
        })
    }
}

/// Serialises through `serde_json::Value`, which widens `f32` fields to `f64`
/// (`0.1f32` is written `0.10000000149011612`): the bytes manifests have always had.
fn widened<T: Serialize, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    serde_json::to_value(value)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}

impl ManifestRow {
    /// The row as one JSON line (no newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a manifest row serialises")
    }

    /// The files the row names with their recorded SHA-256: the image, then the SVG
    /// (none on a text-only row).
    pub(crate) fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        (self.image.file.iter())
            .map(|f| (f.image.as_str(), f.sha256.as_str()))
            .chain(
                self.svg
                    .iter()
                    .map(|s| (s.svg.as_str(), s.svg_sha256.as_str())),
            )
    }
}

/// The most bytes a file named by a manifest row may have when it is read back
/// (`export`, `--resume`, `merge`): an 8192² RGBA image stored without compression
/// is 256 MiB, so this bound refuses only what no run of ours writes.
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why a file a manifest row names could not be read back as it was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileCheckError {
    /// Missing, not a regular file, through a link, outside the directory, too large.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Its bytes are not the ones the row recorded.
    #[error("SHA-256 {found}, the manifest recorded {recorded}")]
    Changed { found: String, recorded: String },
}

/// Reads the file `rel` (`images/a.png`, relative to `dir`) that a manifest row
/// names, and checks it against the SHA-256 the row recorded: only a regular file
/// inside `dir`, reached through real directories, of at most [`MAX_FILE_BYTES`].
pub(crate) fn read_checked(dir: &Dir, rel: &str, sha256: &str) -> Result<Vec<u8>, FileCheckError> {
    let (sub, name) = dir.resolve(rel)?;
    let bytes = sub.read(name, MAX_FILE_BYTES)?;
    let found = crate::digest::sha256_hex(&bytes);
    if found != sha256 {
        return Err(FileCheckError::Changed {
            found,
            recorded: sha256.to_string(),
        });
    }
    Ok(bytes)
}

/// Streams rows to `<dir>/.manifest.jsonl.partial`; [`ManifestWriter::finish`] renames it.
pub(crate) struct ManifestWriter {
    out: BufWriter<File>,
    dir: Dir,
    name: String,
    rows: u64,
}

impl ManifestWriter {
    /// Where the manifest `name` is written until the run ends (`.<name>.partial`).
    fn partial_name(name: &str) -> String {
        format!(".{name}.partial")
    }

    /// Where the manifest for `name` in `dir` is written until the run ends: what
    /// errors while writing rows should name.
    pub(crate) fn partial_path(dir: &Dir, name: &str) -> PathBuf {
        dir.join(&Self::partial_name(name))
    }

    pub(crate) fn create(dir: &Dir, name: &str) -> std::io::Result<Self> {
        let partial = Self::partial_name(name);
        // A stale partial (or anything planted under its name) is removed, never
        // written through: the new one is created exclusively, without following links.
        dir.unlink(&partial)?;
        Ok(ManifestWriter {
            out: BufWriter::new(dir.create_new(&partial)?),
            dir: dir.clone(),
            name: name.to_string(),
            rows: 0,
        })
    }

    /// Appends one row (a manifest row, or another file's: `probes.jsonl`).
    pub(crate) fn write_row(&mut self, row: &impl Serialize) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, row)?;
        self.out.write_all(b"\n")?;
        self.rows += 1;
        Ok(())
    }

    /// Appends a row that is already serialised (one JSON object, no newline), as is.
    pub(crate) fn write_raw(&mut self, row: &str) -> std::io::Result<()> {
        self.out.write_all(row.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.rows += 1;
        Ok(())
    }

    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// Hands the rows written so far to the OS (no sync): a process killed after
    /// this leaves them in the partial file for `--resume`.
    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Puts the rows written so far on disk (flushed and synced).
    pub(crate) fn sync(&mut self) -> std::io::Result<()> {
        self.out.flush()?;
        self.out.get_ref().sync_data()
    }

    /// Where the next row starts (bytes written so far); a mark for [`Self::rewind`].
    pub(crate) fn position(&mut self) -> std::io::Result<u64> {
        use std::io::Seek;
        self.out.stream_position()
    }

    /// Drops every row written after `mark` (a [`Self::position`]) from the partial
    /// file; `rows` is the row count at the mark.
    pub(crate) fn rewind(&mut self, mark: u64, rows: u64) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        self.out.flush()?;
        self.out.get_ref().set_len(mark)?;
        self.out.seek(SeekFrom::Start(mark))?;
        self.rows = rows;
        Ok(())
    }

    /// Flushes and moves the manifest to its final name.
    pub(crate) fn finish(mut self) -> std::io::Result<PathBuf> {
        self.out.flush()?;
        self.out.get_ref().sync_all()?;
        self.dir
            .rename(&Self::partial_name(&self.name), &self.name)?;
        Ok(self.dir.join(&self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_field_order_and_the_file_appears_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.jsonl");
        let mut w =
            ManifestWriter::create(&Dir::open(dir.path()).unwrap(), "manifest.jsonl").unwrap();
        let row = ManifestRow {
            image: ImageRecord {
                id: "a".into(),
                file: Some(ImageFile {
                    image: "images/a.png".into(),
                    width: 2,
                    height: 3,
                    sha256: "00".into(),
                    backend: "x (vulkan)".into(),
                }),
            },
            svg: None,
            source: Some(Lineage {
                base_id: "a".into(),
                variant: Map::new(),
            }),
            problem: None,
            input_sha256: None,
        };
        w.write_row(&row).unwrap();
        assert!(!path.exists());
        w.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "{\"id\":\"a\",\"image\":\"images/a.png\",\"width\":2,\"height\":3,\"sha256\":\"00\",\"backend\":\"x (vulkan)\",\"base_id\":\"a\",\"variant\":{}}\n"
        );
    }

    #[test]
    fn a_text_only_row_has_a_null_image_and_nothing_else_of_a_file() {
        let row = ManifestRow {
            image: ImageRecord {
                id: "a".into(),
                file: None,
            },
            svg: None,
            source: None,
            problem: None,
            input_sha256: None,
        };
        let json = row.to_json();
        assert_eq!(json, "{\"id\":\"a\",\"image\":null}");
        assert_eq!(serde_json::from_str::<ManifestRow>(&json).unwrap(), row);
        assert_eq!(row.files().count(), 0);
        // A missing image is not a text-only row; half a file is refused.
        for (bad, why) in [
            ("{\"id\":\"a\"}", "missing field `image`"),
            ("{\"id\":\"a\",\"image\":null,\"width\":2}", "has no image"),
            (
                "{\"id\":\"a\",\"image\":\"images/a.png\",\"width\":2}",
                "without all of",
            ),
        ] {
            let e = serde_json::from_str::<ManifestRow>(bad).unwrap_err();
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
    }
}
