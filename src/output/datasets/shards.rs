//! Where rows are cut into shards, and how shard files reach their final names.
//!
//! Rows are cut as they come ([`ShardCut`]): a shard ends before the row that would
//! take it past `shard_rows` rows or `shard_bytes` bytes of images (a shard holds at
//! least one row), so the cut needs no look-ahead and streamed rows and exported rows
//! cut at the same places.
//!
//! A finished shard is committed atomically (temp file + rename) under a hidden
//! pending name (`.shard-00003.pending`); when the dataset is finished, every pending
//! shard is renamed to its final name, which may carry the shard count
//! (`test-00003-of-00012.parquet`), and shards of an earlier, larger dataset in the
//! same folder are removed. A run killed on the way leaves only hidden pending files,
//! which the next writer into the folder removes: the final names never show a short
//! or mixed set of shards.

use super::{DatasetError, io};
use crate::output::atomic::AtomicFile;
use crate::output::dir::{Dir, Kind};
use std::path::{Path, PathBuf};

/// Decides, row by row, where shards end.
pub(super) struct ShardCut {
    max_rows: usize,
    max_bytes: u64,
    rows: usize,
    bytes: u64,
}

impl ShardCut {
    pub(super) fn new(max_rows: usize, max_bytes: u64) -> ShardCut {
        ShardCut {
            max_rows: max_rows.max(1),
            max_bytes,
            rows: 0,
            bytes: 0,
        }
    }

    /// Counts a row of `size` image bytes; true when it starts a new shard (the
    /// current one must be closed first).
    pub(super) fn starts_new(&mut self, size: u64) -> bool {
        let cut =
            self.rows > 0 && (self.rows >= self.max_rows || self.bytes + size > self.max_bytes);
        if cut {
            (self.rows, self.bytes) = (0, 0);
        }
        self.rows += 1;
        self.bytes += size;
        cut
    }
}

/// The shard files of one sink, in one folder of the output directory.
pub(super) struct ShardFiles {
    /// The sink's folder in the output directory (a real directory, opened once).
    folder: Dir,
    /// Its name (`data`, `wds`).
    sub: &'static str,
    /// The final name of shard `k` of `n`.
    name: fn(usize, usize) -> String,
    /// Whether a file in `sub` is one of this sink's final shards (of any dataset).
    is_shard: fn(&str) -> bool,
    /// Committed shards' names, in order.
    pending: Vec<String>,
}

fn pending_name(k: usize) -> String {
    format!(".shard-{k:05}.pending")
}

impl ShardFiles {
    /// Makes the folder and removes what a killed run left there (pending shards and
    /// temp files). The caller holds the output directory's lock.
    pub(super) fn new(
        dir: &Dir,
        sub: &'static str,
        name: fn(usize, usize) -> String,
        is_shard: fn(&str) -> bool,
    ) -> Result<ShardFiles, DatasetError> {
        let folder = dir.sub(sub).map_err(io(&dir.join(sub)))?;
        let here = folder.path().to_path_buf();
        crate::output::atomic::remove_stale_temps(&folder, None).map_err(io(&here))?;
        for (file, kind) in folder.entries().map_err(io(&here))? {
            if kind == Kind::File && file.starts_with(".shard-") && file.ends_with(".pending") {
                folder.remove_file(&file).map_err(io(&folder.join(&file)))?;
            }
        }
        Ok(ShardFiles {
            folder,
            sub,
            name,
            is_shard,
            pending: Vec::new(),
        })
    }

    /// The sink's folder (for messages).
    #[cfg(feature = "parquet")]
    pub(super) fn folder(&self) -> &Path {
        self.folder.path()
    }

    /// Starts the next shard's file.
    pub(super) fn create(&self) -> Result<AtomicFile, DatasetError> {
        let name = pending_name(self.pending.len());
        AtomicFile::create_in(&self.folder, &name).map_err(io(&self.folder.join(&name)))
    }

    /// Completes a shard started with [`Self::create`].
    pub(super) fn commit(&mut self, file: AtomicFile) -> Result<(), DatasetError> {
        let path = file.path();
        file.commit(false).map_err(io(&path))?;
        self.pending.push(pending_name(self.pending.len()));
        Ok(())
    }

    /// Renames every shard to its final name, removes other datasets' shards from
    /// the folder, and returns the final names relative to the output directory.
    pub(super) fn publish(self) -> Result<Vec<PathBuf>, DatasetError> {
        let folder = &self.folder;
        let n = self.pending.len();
        let finals: Vec<String> = (0..n).map(|k| (self.name)(k, n)).collect();
        for (from, name) in self.pending.iter().zip(&finals) {
            folder.rename(from, name).map_err(io(&folder.join(name)))?;
        }
        for (file, kind) in folder.entries().map_err(io(folder.path()))? {
            if kind == Kind::File && (self.is_shard)(&file) && !finals.contains(&file) {
                folder.remove_file(&file).map_err(io(&folder.join(&file)))?;
            }
        }
        Ok(finals
            .into_iter()
            .map(|f| Path::new(self.sub).join(f))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::ShardCut;

    fn cuts(rows: usize, bytes: u64, sizes: &[u64]) -> Vec<usize> {
        let mut cut = ShardCut::new(rows, bytes);
        let mut shards = vec![0];
        for &s in sizes {
            if cut.starts_new(s) {
                shards.push(0);
            }
            *shards.last_mut().unwrap() += 1;
        }
        shards
    }

    #[test]
    fn shards_end_at_the_row_or_byte_limit_and_hold_at_least_one_row() {
        assert_eq!(cuts(2, 1000, &[1, 1, 1, 1, 1]), [2, 2, 1]);
        assert_eq!(cuts(10, 10, &[4, 4, 4, 4]), [2, 2]);
        // A row larger than the byte limit is a shard of its own.
        assert_eq!(cuts(10, 10, &[50, 1, 50]), [1, 1, 1]);
        assert_eq!(cuts(10, 10, &[]), [0]);
    }
}
