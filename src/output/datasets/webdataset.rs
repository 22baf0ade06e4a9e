//! WebDataset: `wds/geomrender-000000.tar`, … with one sample per image: `KEY.png`
//! (or `KEY.jpg`) and `KEY.json` (its manifest row, whole: a relation item's
//! `choices`, letter `answer`, `answer_text`, `relation`, … included, so the shards
//! take either [`Layout`], or both).
//!
//! WebDataset takes a member's key to be its name up to the first dot, so KEY must
//! have none: KEY is the id with `%`, `.` and `/` percent-encoded (`%25`, `%2E`,
//! `%2F`), so `s0-000001__opacity-0.1` is `s0-000001__opacity-0%2E1`; the true id is
//! in the JSON. Headers are fixed (mode 0644, owner 0, mtime 0), so the same rows
//! give the same bytes.

use super::shards::ShardFiles;
use super::{DatasetError, DatasetRow, Layout, Writer, io};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use std::path::PathBuf;

/// The sample key of an id (see the module docs).
pub(super) fn key(id: &str) -> String {
    let mut k = String::with_capacity(id.len());
    for c in id.chars() {
        match c {
            '%' => k.push_str("%25"),
            '.' => k.push_str("%2E"),
            '/' => k.push_str("%2F"),
            c => k.push(c),
        }
    }
    k
}

pub(super) struct Shards {
    files: ShardFiles,
    tar: Option<tar::Builder<AtomicFile>>,
}

/// `wds/geomrender-000000.tar` (no count in the name: WebDataset's brace patterns
/// name the range).
fn shard_name(k: usize, _n: usize) -> String {
    format!("geomrender-{k:06}.tar")
}

/// Whether `name` is one [`shard_name`] writes (`geomrender-` and six or more
/// digits): a `geomrender-backup.tar` of the user's is not.
pub(super) fn is_shard(name: &str) -> bool {
    name.strip_prefix("geomrender-")
        .and_then(|n| n.strip_suffix(".tar"))
        .is_some_and(|k| k.len() >= 6 && k.bytes().all(|b| b.is_ascii_digit()))
}

impl Shards {
    pub(super) fn new(dir: &Dir) -> Result<Shards, DatasetError> {
        Ok(Shards {
            files: ShardFiles::new(dir, "wds", shard_name, is_shard)?,
            tar: None,
        })
    }

    fn append(&mut self, name: &str, bytes: &[u8]) -> Result<(), DatasetError> {
        let tar = match &mut self.tar {
            Some(t) => t,
            None => {
                let mut builder = tar::Builder::new(self.files.create()?);
                builder.mode(tar::HeaderMode::Deterministic);
                self.tar.insert(builder)
            }
        };
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        let path = tar.get_ref().path().to_path_buf();
        tar.append_data(&mut header, name, bytes).map_err(io(&path))
    }
}

impl Writer for Shards {
    fn push(&mut self, row: &DatasetRow, _: Layout) -> Result<(), DatasetError> {
        let k = key(&row.id);
        // A text-only row is a sample of its JSON alone.
        if let Some(image) = &row.image {
            self.append(&format!("{k}.{}", image.extension()), &image.bytes)?;
        }
        self.append(&format!("{k}.json"), row.manifest_json.as_bytes())
    }

    fn cut(&mut self) -> Result<(), DatasetError> {
        if let Some(tar) = self.tar.take() {
            let path = tar.get_ref().path().to_path_buf();
            let file = tar.into_inner().map_err(io(&path))?;
            self.files.commit(file)?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>, _: Layout) -> Result<Vec<PathBuf>, DatasetError> {
        self.cut()?;
        self.files.publish()
    }
}

#[cfg(test)]
mod tests {
    use super::{is_shard, key, shard_name};

    #[test]
    fn only_the_shards_it_writes_are_its_own() {
        assert!(is_shard(&shard_name(3, 10)) && is_shard("geomrender-1234567.tar"));
        for theirs in [
            "geomrender-backup-2024.tar",
            "geomrender-.tar",
            "geomrender-00001.tar",
        ] {
            assert!(!is_shard(theirs), "{theirs}");
        }
    }

    #[test]
    fn keys_have_no_dots_and_stay_apart() {
        assert_eq!(key("s0-000001__opacity-0.1"), "s0-000001__opacity-0%2E1");
        assert_eq!(key("a%2Eb"), "a%252Eb");
        assert_ne!(key("a.b"), key("a%2Eb"));
        assert!(!key("x.y.z/w").contains(['.', '/']));
    }
}
