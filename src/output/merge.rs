//! Sharded runs: each shard's `done.json`, and merging the shards of a run into the
//! output directory one machine would have written.
//!
//! A shard of a run into `DIR` writes under `DIR/shards/I-of-N/` and, last of all,
//! `done.json`: the shard, its recipe (what decides its bytes) and provenance
//! (`output::record`), its counts (and
//! which bases each variant value was made for) and the SHA-256 of its manifest
//! and problems files. [`merge`] first checks everything
//! (all N shards present and finished, made with the same options and version, every
//! recorded checksum, every image's checksum from its manifest row), and only then
//! writes `DIR/manifest.jsonl`, `problems.jsonl`, `errors.jsonl`, `images/` and the
//! datasets, each atomically: a refused merge writes nothing under a final name.
//! Rows keep their shard order, which is the whole run's order, and the datasets are
//! written from the merged rows, so the result is the single-machine run's bytes.

use super::atomic::AtomicFile;
use super::availability::Availability;
use super::datasets::{DatasetError, DatasetOptions, Exported, ParquetCompression, Sink};
use super::dir::{Dir, Kind};
use super::lock::{LockError, OutputLock};
use super::manifest::{FileCheckError, ManifestRow};
use super::record::{self, Provenance, RecordError, ShardRecipe};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file a finished shard writes last.
pub(crate) const DONE: &str = "done.json";

/// The most shards one run may have (`--shard I/N`, the engines' variables, and the
/// `I-of-N` folders `merge` reads): Kubernetes' Indexed Jobs allow 100,000
/// completions, and a run of more shards than that is a mistake, not a plan.
/// Checked before anything is allocated by a count.
pub(crate) const MAX_SHARDS: u64 = 100_000;

/// The files of a run that are concatenated in shard order when merging.
const CONCATENATED: [&str; 4] = [
    "problems.jsonl",
    "manifest.jsonl",
    "errors.jsonl",
    "skipped.jsonl",
];

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
    /// Variants not drawn (rows of `skipped.jsonl`): none such, or equal to the base.
    #[serde(default)]
    pub skipped: u64,
}

/// `done.json`: a finished shard (record format `record::VERSION`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardDone {
    /// The record format (`record::VERSION`).
    pub version: u32,
    pub index: u64,
    pub count: u64,
    /// What decides the output bytes (the command, its options, the run's recipe);
    /// shards of one run must have the same.
    pub recipe: ShardRecipe,
    /// Where the shard came from (its run record's provenance): not compared.
    pub provenance: Provenance,
    /// The datasets the shard wrote, which the merge writes for the whole run.
    pub sinks: Vec<Sink>,
    pub shard_rows: usize,
    pub shard_bytes: u64,
    pub parquet_compression: ParquetCompression,
    pub counts: ShardCounts,
    /// Per variant value and kind of base, how many bases had it made.
    pub availability: Availability,
    /// The concatenated files present, by name.
    pub files: BTreeMap<String, FileSum>,
}

/// Why shards cannot be merged (nothing has been written when these are returned,
/// except [`MergeError::Io`] and [`MergeError::Dataset`] while writing).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    #[error("{0}: no shards/ folder: not the --out of a sharded run (--shard I/N or auto)")]
    NoShards(PathBuf),
    #[error("{dir}: {name:?} is not a shard folder (expected I-of-N, e.g. 0-of-4)")]
    Stray { dir: PathBuf, name: String },
    #[error(
        "{dir}: {name:?} names a run of more than {MAX_SHARDS} shards, the most one run may \
         have; it is not a folder this tool made: remove it"
    )]
    TooMany { dir: PathBuf, name: String },
    #[error(
        "{dir}: {why}; merge follows no link and reads only the folders the shards made: \
         remove it"
    )]
    NotAFolder { dir: PathBuf, why: String },
    #[error(
        "{dir} is in use by {who}: a shard is still running (or resuming); wait for it to \
         finish, then merge again. Nothing was written"
    )]
    ShardBusy { dir: PathBuf, who: String },
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
    #[error("{path}: {source}: re-run that shard with this build (--force), then merge again")]
    Format { path: PathBuf, source: RecordError },
    #[error(
        "{dir}: shard {index}'s recipe differs from shard 0's in `{field}`: {theirs} vs \
         {first}; re-run it with the same options"
    )]
    Recipe {
        dir: PathBuf,
        index: u64,
        field: String,
        theirs: String,
        first: String,
    },
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
    #[error(
        "{manifest}:{line}: {id:?}: its file {file:?} cannot be used: {why} (changed after the \
         shard finished?): re-run that shard with --resume. Nothing was written"
    )]
    File {
        manifest: PathBuf,
        line: u64,
        id: String,
        file: String,
        why: Box<FileCheckError>,
    },
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

/// The SHA-256 and size of the regular file `name` in `dir`, read in bounded memory.
fn file_sum(dir: &Dir, name: &str) -> std::io::Result<FileSum> {
    use sha2::Digest;
    let mut file = dir.open_file(name)?;
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
    pub(crate) fn new(
        dir: &Dir,
        index: u64,
        count: u64,
        (recipe, provenance): (ShardRecipe, Provenance),
        datasets: &DatasetOptions,
        counts: ShardCounts,
        availability: Availability,
    ) -> std::io::Result<ShardDone> {
        let mut files = BTreeMap::new();
        for name in CONCATENATED {
            if dir.kind(name)? == Some(Kind::File) {
                files.insert(name.to_string(), file_sum(dir, name)?);
            }
        }
        Ok(ShardDone {
            version: record::VERSION,
            index,
            count,
            recipe,
            provenance,
            sinks: datasets.sinks.clone(),
            shard_rows: datasets.shard_rows,
            shard_bytes: datasets.shard_bytes,
            parquet_compression: datasets.parquet_compression,
            counts,
            availability,
            files,
        })
    }

    /// Writes `dir/done.json` atomically.
    pub(crate) fn write(&self, dir: &Dir) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("serialisable") + "\n";
        dir.write_atomic(DONE, text.as_bytes())
    }

    /// Removes `dir/done.json`, before a shard's run changes anything in `dir`.
    pub(crate) fn remove(dir: &Dir) -> std::io::Result<()> {
        dir.remove_file(DONE).map(drop)
    }

    fn read(dir: &Dir) -> Result<ShardDone, MergeError> {
        let path = dir.join(DONE);
        let text = match dir.read(DONE, 1 << 20) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(MergeError::Unfinished(dir.path().to_path_buf()));
            }
            r => r.map_err(io(&path))?,
        };
        let bad = |why: String| MergeError::BadDone {
            path: path.clone(),
            why,
        };
        let value: serde_json::Value =
            serde_json::from_slice(&text).map_err(|e| bad(e.to_string()))?;
        // Format 1 recorded the version at the top, and its options untyped.
        record::check_version(&value, &["/geomrender"]).map_err(|e| match e {
            RecordError::Bad(why) => bad(why),
            source => MergeError::Format {
                path: path.clone(),
                source,
            },
        })?;
        serde_json::from_value(value).map_err(|e| bad(e.to_string()))
    }

    /// The datasets the shards wrote, for the merged run.
    pub(crate) fn datasets(&self) -> DatasetOptions {
        DatasetOptions {
            sinks: self.sinks.clone(),
            shard_rows: self.shard_rows,
            shard_bytes: self.shard_bytes,
            parquet_compression: self.parquet_compression,
        }
    }
}

/// The folder of shard `index` of `count` under a run's output directory.
pub(crate) fn shard_dir(out: &Path, index: u64, count: u64) -> PathBuf {
    out.join("shards").join(shard_name(index, count))
}

fn shard_name(index: u64, count: u64) -> String {
    format!("{index}-of-{count}")
}

/// Makes (where missing) and opens the folder of shard `index` of `count` under
/// `out`: `shards/` and `I-of-N/` must be real directories, never links.
pub(crate) fn open_shard_dir(out: &Path, index: u64, count: u64) -> std::io::Result<Dir> {
    Dir::create(out)?
        .sub("shards")?
        .sub(&shard_name(index, count))
}

/// `I-of-N` as (I, N), when it is one with I < N.
fn parse_shard_name(name: &str) -> Option<(u64, u64)> {
    let (i, n) = name.split_once("-of-")?;
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(i) || !all_digits(n) {
        return None;
    }
    // Digits that overflow u64 are more than MAX_SHARDS as well.
    let n = n.parse::<u64>().unwrap_or(u64::MAX);
    let i = i.parse::<u64>().unwrap_or(u64::MAX);
    Some((i, n))
}

/// A finished shard, locked for the merge (a shard resuming meanwhile would be
/// refused its lock, and a running one refuses the merge).
struct Finished {
    dir: Dir,
    done: ShardDone,
    _lock: OutputLock,
}

/// The finished shards of the run in `out`, checked and locked, in shard order.
/// Only what exists is walked: nothing is allocated by a count read from a name.
fn finished_shards(out: &Dir) -> Result<Vec<Finished>, MergeError> {
    let (root, found, count) = shard_folders(out)?;
    let mut shards: Vec<Finished> = Vec::new();
    for (i, name) in found {
        let shard = open_finished(&root, &name, i, count)?;
        if let Some(first) = shards.first() {
            same_run(first, &shard)?;
        }
        shards.push(shard);
    }
    Ok(shards)
}

/// `out/shards/` and its `I-of-N` folders by index, all of one N, none missing.
fn shard_folders(out: &Dir) -> Result<(Dir, BTreeMap<u64, String>, u64), MergeError> {
    let root_path = out.join("shards");
    let root = match out.existing_sub("shards") {
        Ok(Some(root)) => root,
        Ok(None) => return Err(MergeError::NoShards(out.path().to_path_buf())),
        Err(e) => {
            return Err(MergeError::NotAFolder {
                dir: root_path,
                why: e.to_string(),
            });
        }
    };
    let mut found: BTreeMap<u64, String> = BTreeMap::new();
    let mut count: Option<(u64, String)> = None;
    for (name, kind) in root.entries().map_err(io(&root_path))? {
        let Some((i, n)) = parse_shard_name(&name) else {
            return Err(MergeError::Stray {
                dir: root_path.clone(),
                name,
            });
        };
        if n > MAX_SHARDS {
            return Err(MergeError::TooMany {
                dir: root_path.clone(),
                name,
            });
        }
        if i >= n {
            return Err(MergeError::Stray {
                dir: root_path.clone(),
                name,
            });
        }
        if kind != Kind::Dir {
            return Err(MergeError::NotAFolder {
                dir: root.join(&name),
                why: root
                    .existing_sub(&name)
                    .err()
                    .map_or_else(|| "not a directory".to_string(), |e| e.to_string()),
            });
        }
        match &count {
            Some((c, first)) if *c != n => {
                return Err(MergeError::MixedCounts {
                    dir: root_path.clone(),
                    a: first.clone(),
                    b: name,
                });
            }
            _ => count = Some((n, name.clone())),
        }
        found.insert(i, name);
    }
    let Some((count, _)) = count else {
        return Err(MergeError::NoShards(out.path().to_path_buf()));
    };
    // At most MAX_SHARDS indices are looked at, and at most 20 listed.
    if found.len() as u64 != count {
        let absent = (0..count).filter(|i| !found.contains_key(i));
        let shown: Vec<String> = absent.clone().take(20).map(|i| i.to_string()).collect();
        let more = absent.count() - shown.len();
        let missing = match more {
            0 => shown.join(", "),
            m => format!("{} and {m} more", shown.join(", ")),
        };
        return Err(MergeError::Missing {
            dir: root_path,
            missing,
            count,
        });
    }
    Ok((root, found, count))
}

/// Shard `i` of `count` in `root/name`: locked, its `done.json` read and naming
/// it, and every file it records unchanged since.
fn open_finished(root: &Dir, name: &str, i: u64, count: u64) -> Result<Finished, MergeError> {
    let path = root.join(name);
    let dir = root
        .existing_sub(name)
        .map_err(|e| MergeError::NotAFolder {
            dir: path.clone(),
            why: e.to_string(),
        })?;
    let Some(dir) = dir else {
        return Err(MergeError::Unfinished(path));
    };
    let lock = match OutputLock::acquire(dir.clone()) {
        Ok(lock) => lock,
        Err(LockError::InUse { dir, pid }) => {
            return Err(MergeError::ShardBusy {
                dir,
                who: pid.map_or("another process".into(), |p| format!("process {p}")),
            });
        }
        Err(LockError::Io { path, source }) => return Err(MergeError::Io { path, source }),
    };
    let done = ShardDone::read(&dir)?;
    if (done.index, done.count) != (i, count) {
        return Err(MergeError::BadDone {
            path: dir.join(DONE),
            why: format!("it says shard {}-of-{}", done.index, done.count),
        });
    }
    for (name, sum) in &done.files {
        let path = dir.join(name);
        if !CONCATENATED.contains(&name.as_str()) {
            return Err(MergeError::BadDone {
                path: dir.join(DONE),
                why: format!("it records {name:?}, which is not a file shards write"),
            });
        }
        let now = file_sum(&dir, name).map_err(io(&path))?;
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
    Ok(Finished {
        dir,
        done,
        _lock: lock,
    })
}

/// Two shards of one run: the same recipe (version, command, options, run), and
/// the same datasets. A recipe that differs is named by its first field that does.
fn same_run(first: &Finished, shard: &Finished) -> Result<(), MergeError> {
    let (a, b) = (&first.done, &shard.done);
    if let Some(d) = record::differences(&a.recipe, &b.recipe).into_iter().next() {
        return Err(MergeError::Recipe {
            dir: shard.dir.path().to_path_buf(),
            index: b.index,
            field: d.field,
            theirs: d.b,
            first: d.a,
        });
    }
    let mut differ = Vec::new();
    if (&a.sinks, a.shard_rows, a.shard_bytes) != (&b.sinks, b.shard_rows, b.shard_bytes) {
        let names = |s: &[Sink]| s.iter().map(|s| s.name()).collect::<Vec<_>>().join(",");
        differ.push(format!(
            "datasets {} ({} rows, {} bytes a shard) vs {} ({} rows, {} bytes)",
            names(&a.sinks),
            a.shard_rows,
            a.shard_bytes,
            names(&b.sinks),
            b.shard_rows,
            b.shard_bytes
        ));
    }
    if a.parquet_compression != b.parquet_compression {
        differ.push(format!(
            "--parquet-compression {} vs {}",
            a.parquet_compression.name(),
            b.parquet_compression.name()
        ));
    }
    if differ.is_empty() {
        return Ok(());
    }
    Err(MergeError::Options {
        dir: shard.dir.path().to_path_buf(),
        first: first.dir.path().to_path_buf(),
        detail: differ.join("; "),
    })
}

/// Calls `f` with every manifest row of a shard, in order, with its line number.
fn each_row(
    dir: &Dir,
    mut f: impl FnMut(&Path, u64, ManifestRow) -> Result<(), MergeError>,
) -> Result<(), MergeError> {
    use super::rows::RowsError;
    let path = dir.join("manifest.jsonl");
    super::rows::each_row(dir, "manifest.jsonl", |line, row| f(&path, line, row)).map_err(|e| {
        match e {
            RowsError::Io(source) => MergeError::Io {
                path: path.clone(),
                source,
            },
            RowsError::Bad { line, why } => MergeError::Tampered {
                path: path.clone(),
                why: format!("line {line}: not a manifest row: {why}"),
            },
            RowsError::Stopped(e) => e,
        }
    })
}

/// Where the file `rel` of a row goes in `out`: its folder (made where missing,
/// a real directory) and name.
fn destination<'r>(out: &Dir, rel: &'r str) -> std::io::Result<(Dir, &'r str)> {
    let (folders, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let mut dir = out.clone();
    for part in folders.split('/').filter(|p| !p.is_empty()) {
        dir = dir.sub(part)?;
    }
    Ok((dir, name))
}

/// Puts `from_dir/name` at `to_dir/name` atomically: a hard link when the two share
/// a file system, else a copy.
fn place(from_dir: &Dir, to_dir: &Dir, name: &str) -> std::io::Result<()> {
    // Merged before: already this file (a rename onto the same inode does nothing).
    if let (Some(a), Some(b)) = (from_dir.identity(name)?, to_dir.identity(name)?) {
        if a == b {
            return Ok(());
        }
    }
    let tmp = format!(".{name}.merge.tmp");
    to_dir.unlink(&tmp)?;
    match from_dir.link_to(name, to_dir, &tmp) {
        Ok(()) => to_dir.rename(&tmp, name),
        Err(_) => {
            let mut file = AtomicFile::create_in(to_dir, name)?;
            std::io::copy(&mut from_dir.open_file(name)?, &mut file)?;
            file.commit(false)
        }
    }
}

/// What a merge wrote.
#[derive(Debug)]
pub struct Merged {
    pub shards: u64,
    pub counts: ShardCounts,
    /// The shards' availability, summed: the whole run's.
    pub availability: Availability,
    /// The first shard's record (options, datasets), for the caller's extras.
    pub first: ShardDone,
    pub datasets: Exported,
    /// Datasets of an earlier run in the directory that the merged run does not
    /// write, removed (relative to the directory).
    pub removed: Vec<PathBuf>,
}

/// Merges the finished shards of the run in `out` (whose lock the caller holds)
/// into it, holding every shard's lock. See the module documentation.
pub fn merge(out: &Dir) -> Result<Merged, MergeError> {
    let shards = finished_shards(out)?;
    // Every file named by every row is there, inside its shard, with its recorded
    // checksum.
    for shard in &shards {
        each_row(&shard.dir, |manifest, line, row| {
            for (rel, sha) in row.files() {
                super::manifest::read_checked(&shard.dir, rel, sha).map_err(|why| {
                    MergeError::File {
                        manifest: manifest.to_path_buf(),
                        line,
                        id: row.image.id.clone(),
                        file: rel.to_string(),
                        why: Box::new(why),
                    }
                })?;
            }
            Ok(())
        })?;
    }
    // Checked, and no shard can change while we hold the locks: now write. Images
    // first, then the concatenated files, so a manifest under its final name only
    // ever names images that are there.
    for shard in &shards {
        each_row(&shard.dir, |_, _, row| {
            for (rel, _) in row.files() {
                let (from, name) = shard.dir.resolve(rel).map_err(io(&shard.dir.join(rel)))?;
                let (to, _) = destination(out, rel).map_err(io(&out.join(rel)))?;
                place(&from, &to, name).map_err(io(&out.join(rel)))?;
            }
            Ok(())
        })?;
    }
    for name in CONCATENATED {
        let present: Vec<&Dir> = shards
            .iter()
            .filter(|s| s.done.files.contains_key(name))
            .map(|s| &s.dir)
            .collect();
        let path = out.join(name);
        if present.is_empty() {
            continue;
        }
        let mut file = AtomicFile::create_in(out, name).map_err(io(&path))?;
        for dir in present {
            std::io::copy(
                &mut dir.open_file(name).map_err(io(&dir.join(name)))?,
                &mut file,
            )
            .map_err(io(&path))?;
        }
        file.flush().map_err(io(&path))?;
        file.commit(true).map_err(io(&path))?;
    }
    let first = shards[0].done.clone();
    let opts = first.datasets();
    let removed = super::datasets::remove_other_datasets(out, &opts.written())?;
    let datasets = super::datasets::export(out, &opts)?;
    let mut counts = ShardCounts::default();
    let mut availability = Availability::default();
    for s in &shards {
        counts.lines += s.done.counts.lines;
        counts.images += s.done.counts.images;
        counts.failed += s.done.counts.failed;
        counts.skipped += s.done.counts.skipped;
        availability.merge(&s.done.availability);
    }
    Ok(Merged {
        shards: shards.len() as u64,
        counts,
        availability,
        first,
        datasets,
        removed,
    })
}
