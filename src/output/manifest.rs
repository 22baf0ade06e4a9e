//! `manifest.jsonl`: one JSON row per written image, in input order.
//!
//! Rows are streamed to a hidden temporary file next to the manifest and renamed
//! into place when the run completes, so a manifest under its final name is
//! always whole.

use serde_json::{Map, Value};

/// The JSON Schema of a manifest row (`geomrender schema manifest`).
pub const SCHEMA: &str = include_str!("../../schemas/manifest.schema.json");
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The fields every row starts with; producers add their own after these.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageRecord {
    pub id: String,
    /// Path relative to the output directory, with `/` separators.
    pub image: String,
    pub width: u32,
    pub height: u32,
    /// Hex SHA-256 of the image file's bytes.
    pub sha256: String,
    /// `"<adapter name> (<api>)"` or `"resvg (cpu)"`.
    pub backend: String,
}

impl ImageRecord {
    /// The row: the record's fields first, then `extra` in its own order.
    pub fn to_row(&self, extra: &Map<String, Value>) -> Map<String, Value> {
        let mut row = Map::new();
        row.insert("id".into(), self.id.clone().into());
        row.insert("image".into(), self.image.clone().into());
        row.insert("width".into(), self.width.into());
        row.insert("height".into(), self.height.into());
        row.insert("sha256".into(), self.sha256.clone().into());
        row.insert("backend".into(), self.backend.clone().into());
        for (k, v) in extra {
            row.entry(k.clone()).or_insert_with(|| v.clone());
        }
        row
    }
}

/// Streams rows to `<dir>/.manifest.jsonl.partial`; [`ManifestWriter::finish`] renames it.
pub struct ManifestWriter {
    out: BufWriter<File>,
    partial: PathBuf,
    path: PathBuf,
    rows: u64,
}

impl ManifestWriter {
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let partial = path.with_file_name(format!(".{name}.partial"));
        Ok(ManifestWriter {
            out: BufWriter::new(File::create(&partial)?),
            partial,
            path: path.to_path_buf(),
            rows: 0,
        })
    }

    pub fn write_row(&mut self, row: &Map<String, Value>) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, row)?;
        self.out.write_all(b"\n")?;
        self.rows += 1;
        Ok(())
    }

    /// Appends a row that is already serialised (one JSON object, no newline), as is.
    pub fn write_raw(&mut self, row: &str) -> std::io::Result<()> {
        self.out.write_all(row.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.rows += 1;
        Ok(())
    }

    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Puts the rows written so far on disk (flushed and synced).
    pub fn sync(&mut self) -> std::io::Result<()> {
        self.out.flush()?;
        self.out.get_ref().sync_data()
    }

    /// Where the next row starts (bytes written so far); a mark for [`Self::rewind`].
    pub fn position(&mut self) -> std::io::Result<u64> {
        use std::io::Seek;
        self.out.stream_position()
    }

    /// Drops every row written after `mark` (a [`Self::position`]) from the partial
    /// file; `rows` is the row count at the mark.
    pub fn rewind(&mut self, mark: u64, rows: u64) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        self.out.flush()?;
        self.out.get_ref().set_len(mark)?;
        self.out.seek(SeekFrom::Start(mark))?;
        self.rows = rows;
        Ok(())
    }

    /// Flushes and moves the manifest to its final name.
    pub fn finish(mut self) -> std::io::Result<PathBuf> {
        self.out.flush()?;
        self.out.get_ref().sync_all()?;
        std::fs::rename(&self.partial, &self.path)?;
        Ok(self.path)
    }
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn rows_keep_field_order_and_the_file_appears_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.jsonl");
        let mut w = ManifestWriter::create(&path).unwrap();
        let rec = ImageRecord {
            id: "a".into(),
            image: "images/a.png".into(),
            width: 2,
            height: 3,
            sha256: "00".into(),
            backend: "x (vulkan)".into(),
        };
        let mut extra = Map::new();
        extra.insert("answer".into(), 44.0.into());
        extra.insert("id".into(), "ignored".into());
        w.write_row(&rec.to_row(&extra)).unwrap();
        assert!(!path.exists());
        w.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "{\"id\":\"a\",\"image\":\"images/a.png\",\"width\":2,\"height\":3,\"sha256\":\"00\",\"backend\":\"x (vulkan)\",\"answer\":44.0}\n"
        );
    }
}
