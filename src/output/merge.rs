//! Sharded runs: each shard's `done.json`, and merging the shards of a run into the
//! output directory one machine would have written.
//!
//! A shard of a run into `DIR` writes under `DIR/shards/I-of-N/` and, last of all,
//! `done.json`: the shard, the options that decide its bytes, its counts and the
//! SHA-256 of its manifest and problems files. [`merge`] first checks everything
//! (all N shards present and finished, made with the same options and version, every
//! recorded checksum, every image's checksum from its manifest row), and only then
//! writes `DIR/manifest.jsonl`, `problems.jsonl`, `errors.jsonl`, `images/` and the
//! datasets, each atomically: a refused merge writes nothing under a final name.
//! Rows keep their shard order, which is the whole run's order, and the datasets are
//! written from the merged rows, so the result is the single-machine run's bytes.

use super::atomic::{AtomicFile, write_atomic};
use super::datasets::{DatasetError, DatasetOptions, Exported, Sink};
use super::manifest::ManifestRow;
use crate::digest::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// The file a finished shard writes last.
pub const DONE: &str = "done.json";

/// The most shards one run may have (`--shard I/N`, the engines' variables, and the
/// `I-of-N` folders `merge` reads): Kubernetes' Indexed Jobs allow 100,000
/// completions, and a run of more shards than that is a mistake, not a plan.
/// Checked before anything is allocated by a count.
pub const MAX_SHARDS: u64 = 100_000;

/// The files of a run that are concatenated in shard order when merging.
const CONCATENATED: [&str; 3] = ["problems.jsonl", "manifest.jsonl", "errors.jsonl"];

/// A file's size and SHA-256.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileSum {
    pub bytes: u64,
    pub sha256: String,
}

/// What a work item count came to in one shard.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShardCounts {
    /// Input lines (problems) read.
    pub lines: u64,
    pub images: u64,
    /// Lines or images that failed (rows of `errors.jsonl`).
    pub failed: u64,
}

/// `done.json`: a finished shard.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardDone {
    /// The binary's version (shards of one run must share it).
    pub geomrender: String,
    pub index: u64,
    pub count: u64,
    /// What decides the output bytes (the command, its options, the backend);
    /// shards of one run must have the same.
    pub options: serde_json::Value,
    /// The datasets the shard wrote, which the merge writes for the whole run.
    pub sinks: Vec<String>,
    pub shard_rows: usize,
    pub shard_bytes: u64,
    pub counts: ShardCounts,
    /// The concatenated files present, by name.
    pub files: BTreeMap<String, FileSum>,
}

/// Why shards cannot be merged (nothing has been written when these are returned,
/// except [`MergeError::Io`] and [`MergeError::Dataset`] while writing).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{0}: no shards/ folder: not the --out of a sharded run (--shard I/N or auto)")]
    NoShards(PathBuf),
    #[error("{dir}: {name:?} is not a shard folder (expected I-of-N, e.g. 0-of-4)")]
    Stray { dir: PathBuf, name: String },
    #[error("{dir}: shards of different runs: {a} and {b} (one --out per run)")]
    MixedCounts { dir: PathBuf, a: String, b: String },
    #[error(
        "{dir}: shard(s) {missing} of {count} missing: run them (--shard I/{count}), then merge again"
    )]
    Missing {
        dir: PathBuf,
        missing: String,
        count: u64,
    },
    #[error(
        "{0}: not finished (no done.json): run that shard again with --resume, then merge again"
    )]
    Unfinished(PathBuf),
    #[error("{path}: unreadable done.json: {why}")]
    BadDone { path: PathBuf, why: String },
    #[error(
        "{dir}: made with other options than {first}: {detail}; re-run it with the same options"
    )]
    Options {
        dir: PathBuf,
        first: PathBuf,
        detail: String,
    },
    #[error("{path}: {why} (changed after the shard finished?): re-run that shard")]
    Tampered { path: PathBuf, why: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Dataset(#[from] DatasetError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MergeError + '_ {
    move |source| MergeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The SHA-256 and size of a file, read in bounded memory.
fn file_sum(path: &Path) -> std::io::Result<FileSum> {
    use sha2::Digest;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    let bytes = std::io::copy(&mut file, &mut hasher)?;
    Ok(FileSum {
        bytes,
        sha256: format!("{:x}", hasher.finalize()),
    })
}

impl ShardDone {
    /// Records the finished shard in `dir` (its concatenated files are summed here).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dir: &Path,
        index: u64,
        count: u64,
        options: serde_json::Value,
        datasets: &DatasetOptions,
        counts: ShardCounts,
    ) -> std::io::Result<ShardDone> {
        let mut files = BTreeMap::new();
        for name in CONCATENATED {
            let path = dir.join(name);
            if path.is_file() {
                files.insert(name.to_string(), file_sum(&path)?);
            }
        }
        Ok(ShardDone {
            geomrender: env!("CARGO_PKG_VERSION").to_string(),
            index,
            count,
            options,
            sinks: datasets
                .sinks
                .iter()
                .map(|s| s.name().to_string())
                .collect(),
            shard_rows: datasets.shard_rows,
            shard_bytes: datasets.shard_bytes,
            counts,
            files,
        })
    }

    /// Writes `dir/done.json` atomically.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("serialisable") + "\n";
        write_atomic(&dir.join(DONE), text.as_bytes())
    }

    /// Removes `dir/done.json`, before a shard's run changes anything in `dir`.
    pub fn remove(dir: &Path) -> std::io::Result<()> {
        match std::fs::remove_file(dir.join(DONE)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    fn read(dir: &Path) -> Result<ShardDone, MergeError> {
        let path = dir.join(DONE);
        let text = match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(MergeError::Unfinished(dir.to_path_buf()));
            }
            r => r.map_err(io(&path))?,
        };
        serde_json::from_str(&text).map_err(|e| MergeError::BadDone {
            path,
            why: e.to_string(),
        })
    }

    /// The datasets the shards wrote, for the merged run.
    pub fn datasets(&self) -> DatasetOptions {
        DatasetOptions {
            sinks: self
                .sinks
                .iter()
                .filter_map(|n| Sink::ALL.into_iter().find(|s| s.name() == n))
                .collect(),
            shard_rows: self.shard_rows,
            shard_bytes: self.shard_bytes,
        }
    }
}

/// The folder of shard `index` of `count` under a run's output directory.
pub fn shard_dir(out: &Path, index: u64, count: u64) -> PathBuf {
    out.join("shards").join(format!("{index}-of-{count}"))
}

/// The finished shards of the run in `out`, checked, in shard order.
fn finished_shards(out: &Path) -> Result<Vec<(PathBuf, ShardDone)>, MergeError> {
    let root = out.join("shards");
    let entries = match std::fs::read_dir(&root) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(MergeError::NoShards(out.to_path_buf()));
        }
        r => r.map_err(io(&root))?,
    };
    let mut found: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let mut count: Option<(u64, String)> = None;
    for entry in entries {
        let entry = entry.map_err(io(&root))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let parsed = name
            .split_once("-of-")
            .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
            .filter(|&(i, n)| i < n);
        let Some((i, n)) = parsed else {
            return Err(MergeError::Stray {
                dir: root.clone(),
                name,
            });
        };
        match &count {
            Some((c, first)) if *c != n => {
                return Err(MergeError::MixedCounts {
                    dir: root.clone(),
                    a: first.clone(),
                    b: name,
                });
            }
            _ => count = Some((n, name.clone())),
        }
        found.insert(i, entry.path());
    }
    let Some((count, _)) = count else {
        return Err(MergeError::NoShards(out.to_path_buf()));
    };
    let missing: Vec<String> = (0..count)
        .filter(|i| !found.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            dir: root,
            missing: missing.join(", "),
            count,
        });
    }
    let mut shards: Vec<(PathBuf, ShardDone)> = Vec::new();
    for (i, dir) in found {
        let done = ShardDone::read(&dir)?;
        if (done.index, done.count) != (i, count) {
            return Err(MergeError::BadDone {
                path: dir.join(DONE),
                why: format!("it says shard {}-of-{}", done.index, done.count),
            });
        }
        if let Some((first_dir, first)) = shards.first() {
            let mut differ = Vec::new();
            if first.geomrender != done.geomrender {
                differ.push(format!(
                    "geomrender {} vs {}",
                    first.geomrender, done.geomrender
                ));
            }
            if first.options != done.options {
                differ.push(describe_difference(&first.options, &done.options));
            }
            if (&first.sinks, first.shard_rows, first.shard_bytes)
                != (&done.sinks, done.shard_rows, done.shard_bytes)
            {
                differ.push(format!("datasets {:?} vs {:?}", first.sinks, done.sinks));
            }
            if !differ.is_empty() {
                return Err(MergeError::Options {
                    dir,
                    first: first_dir.clone(),
                    detail: differ.join("; "),
                });
            }
        }
        for (name, sum) in &done.files {
            let path = dir.join(name);
            let now = file_sum(&path).map_err(io(&path))?;
            if &now != sum {
                return Err(MergeError::Tampered {
                    path,
                    why: format!(
                        "SHA-256 {} ({} bytes), done.json recorded {} ({} bytes)",
                        now.sha256, now.bytes, sum.sha256, sum.bytes
                    ),
                });
            }
        }
        if !done.files.contains_key("manifest.jsonl") {
            return Err(MergeError::BadDone {
                path: dir.join(DONE),
                why: "it records no manifest.jsonl".into(),
            });
        }
        shards.push((dir, done));
    }
    Ok(shards)
}

/// The top-level keys of two option objects that differ, as `key: a vs b`.
fn describe_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    match (a.as_object(), b.as_object()) {
        (Some(a), Some(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .map(|k| {
                    let show =
                        |v: Option<&serde_json::Value>| v.map_or("none".into(), |v| v.to_string());
                    format!("{k}: {} vs {}", show(a.get(k)), show(b.get(k)))
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        _ => format!("{a} vs {b}"),
    }
}

/// Calls `f` with every manifest row of a shard, in order.
fn each_row(
    dir: &Path,
    mut f: impl FnMut(&str, ManifestRow) -> Result<(), MergeError>,
) -> Result<(), MergeError> {
    let path = dir.join("manifest.jsonl");
    let file = std::fs::File::open(&path).map_err(io(&path))?;
    for (k, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io(&path))?;
        let row: ManifestRow = serde_json::from_str(&line).map_err(|e| MergeError::Tampered {
            path: path.clone(),
            why: format!("line {}: not a manifest row: {e}", k + 1),
        })?;
        f(&line, row)?;
    }
    Ok(())
}

/// The files a manifest row names, relative to its directory, with their SHA-256.
fn row_files(row: &ManifestRow) -> Vec<(&str, &str)> {
    let mut files = vec![(row.image.image.as_str(), row.image.sha256.as_str())];
    if let Some(svg) = &row.svg {
        files.push((svg.svg.as_str(), svg.svg_sha256.as_str()));
    }
    files
}

/// Puts `from` at `to` atomically: a hard link when the two share a file system,
/// else a copy.
fn place(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    // Merged before: already this file (a rename onto the same inode does nothing).
    if let (Ok(a), Ok(b)) = (std::fs::metadata(from), std::fs::symlink_metadata(to)) {
        if (a.dev(), a.ino()) == (b.dev(), b.ino()) {
            return Ok(());
        }
    }
    let tmp = to.with_file_name(format!(
        ".{}.merge.tmp",
        to.file_name().unwrap_or_default().to_string_lossy()
    ));
    let _ = std::fs::remove_file(&tmp);
    match std::fs::hard_link(from, &tmp) {
        Ok(()) => std::fs::rename(&tmp, to),
        Err(_) => {
            let mut file = AtomicFile::create(to)?;
            std::io::copy(&mut std::fs::File::open(from)?, &mut file)?;
            file.commit(false)
        }
    }
}

/// What a merge wrote.
#[derive(Debug)]
pub struct Merged {
    pub shards: u64,
    pub counts: ShardCounts,
    /// The first shard's record (options, datasets), for the caller's extras.
    pub first: ShardDone,
    pub datasets: Exported,
}

/// Merges the finished shards of the run in `out` into `out` (whose lock the
/// caller holds). See the module documentation.
pub fn merge(out: &Path) -> Result<Merged, MergeError> {
    let shards = finished_shards(out)?;
    // Every image named by every row is there, with its recorded checksum.
    for (dir, _) in &shards {
        each_row(dir, |_, row| {
            for (rel, sha) in row_files(&row) {
                let path = dir.join(rel);
                let bytes = std::fs::read(&path).map_err(|e| MergeError::Tampered {
                    path: path.clone(),
                    why: format!("unreadable: {e}"),
                })?;
                let now = sha256_hex(&bytes);
                if now != sha {
                    return Err(MergeError::Tampered {
                        path,
                        why: format!("SHA-256 {now}, the manifest recorded {sha}"),
                    });
                }
            }
            Ok(())
        })?;
    }
    // Checked: now write. Images first, then the concatenated files, so a manifest
    // under its final name only ever names images that are there.
    let images = out.join("images");
    std::fs::create_dir_all(&images).map_err(io(&images))?;
    for (dir, _) in &shards {
        each_row(dir, |_, row| {
            for (rel, _) in row_files(&row) {
                let to = out.join(rel);
                place(&dir.join(rel), &to).map_err(io(&to))?;
            }
            Ok(())
        })?;
    }
    for name in CONCATENATED {
        let present: Vec<&PathBuf> = shards
            .iter()
            .filter(|(_, d)| d.files.contains_key(name))
            .map(|(dir, _)| dir)
            .collect();
        let path = out.join(name);
        if present.is_empty() {
            continue;
        }
        let mut file = AtomicFile::create(&path).map_err(io(&path))?;
        for dir in present {
            let from = dir.join(name);
            std::io::copy(
                &mut std::fs::File::open(&from).map_err(io(&from))?,
                &mut file,
            )
            .map_err(io(&path))?;
        }
        file.flush().map_err(io(&path))?;
        file.commit(true).map_err(io(&path))?;
    }
    let first = shards[0].1.clone();
    let datasets = super::datasets::export(out, &first.datasets())?;
    let mut counts = ShardCounts::default();
    for (_, d) in &shards {
        counts.lines += d.counts.lines;
        counts.images += d.counts.images;
        counts.failed += d.counts.failed;
    }
    Ok(Merged {
        shards: shards.len() as u64,
        counts,
        first,
        datasets,
    })
}
