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
use std::path::{Path, PathBuf};

/// Decides, row by row, where shards end.
pub(super) struct ShardCut {
    max_rows: usize,
    max_bytes: u64,
    rows: usize,
    bytes: u64,
}

impl ShardCut {
    pub fn new(max_rows: usize, max_bytes: u64) -> ShardCut {
        ShardCut {
            max_rows: max_rows.max(1),
            max_bytes,
            rows: 0,
            bytes: 0,
        }
    }

    /// Counts a row of `size` image bytes; true when it starts a new shard (the
    /// current one must be closed first).
    pub fn starts_new(&mut self, size: u64) -> bool {
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
    /// The output directory.
    dir: PathBuf,
    /// The sink's folder under it (`data`, `wds`).
    sub: &'static str,
    /// The final name of shard `k` of `n`.
    name: fn(usize, usize) -> String,
    /// Whether a file in `sub` is one of this sink's final shards (of any dataset).
    is_shard: fn(&str) -> bool,
    /// Committed shards, in order.
    pending: Vec<PathBuf>,
}

fn pending_name(k: usize) -> String {
    format!(".shard-{k:05}.pending")
}

impl ShardFiles {
    /// Makes the folder and removes what a killed run left there (pending shards and
    /// temp files). The caller holds the output directory's lock.
    pub fn new(
        dir: &Path,
        sub: &'static str,
        name: fn(usize, usize) -> String,
        is_shard: fn(&str) -> bool,
    ) -> Result<ShardFiles, DatasetError> {
        let folder = dir.join(sub);
        std::fs::create_dir_all(&folder).map_err(io(&folder))?;
        crate::output::atomic::remove_stale_temps(&folder, None).map_err(io(&folder))?;
        for entry in std::fs::read_dir(&folder).map_err(io(&folder))? {
            let path = entry.map_err(io(&folder))?.path();
            let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if file.starts_with(".shard-") && file.ends_with(".pending") {
                std::fs::remove_file(&path).map_err(io(&path))?;
            }
        }
        Ok(ShardFiles {
            dir: dir.to_path_buf(),
            sub,
            name,
            is_shard,
            pending: Vec::new(),
        })
    }

    /// Starts the next shard's file.
    pub fn create(&self) -> Result<AtomicFile, DatasetError> {
        let path = self
            .dir
            .join(self.sub)
            .join(pending_name(self.pending.len()));
        AtomicFile::create(&path).map_err(io(&path))
    }

    /// Completes a shard started with [`Self::create`].
    pub fn commit(&mut self, file: AtomicFile) -> Result<(), DatasetError> {
        let path = file.path().to_path_buf();
        file.commit(false).map_err(io(&path))?;
        self.pending.push(path);
        Ok(())
    }

    /// Renames every shard to its final name, removes other datasets' shards from
    /// the folder, and returns the final names relative to the output directory.
    pub fn publish(self) -> Result<Vec<PathBuf>, DatasetError> {
        let folder = self.dir.join(self.sub);
        let n = self.pending.len();
        let finals: Vec<String> = (0..n).map(|k| (self.name)(k, n)).collect();
        for (from, name) in self.pending.iter().zip(&finals) {
            let to = folder.join(name);
            std::fs::rename(from, &to).map_err(io(&to))?;
        }
        for entry in std::fs::read_dir(&folder).map_err(io(&folder))? {
            let path = entry.map_err(io(&folder))?.path();
            let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if (self.is_shard)(file) && !finals.iter().any(|f| f == file) {
                std::fs::remove_file(&path).map_err(io(&path))?;
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
