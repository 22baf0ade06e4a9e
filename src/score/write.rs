//! Writing the report directory: `report.json`, `report.md`, `accuracy.{png,svg}`,
//! `flips.{png,svg}`, and `items.jsonl`. Each file is written to a temporary name in the same directory
//! and renamed into place, so no partial file is ever visible under its final name.

use super::error::ScoreError;
use super::items::ItemRow;
use super::report::Report;
use super::{markdown, plot};
use std::path::{Path, PathBuf};

/// The files written, in the order written.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportFiles {
    pub json: PathBuf,
    pub markdown: PathBuf,
    pub plots: Vec<PathBuf>,
}

/// Writes every report file into `dir` (created if needed).
pub fn write_report(report: &Report, dir: &Path) -> Result<ReportFiles, ScoreError> {
    std::fs::create_dir_all(dir).map_err(|e| ScoreError::io(dir.display(), e))?;
    let mut json = serde_json::to_string_pretty(report).map_err(|e| ScoreError::Io {
        path: "report.json".into(),
        message: e.to_string(),
    })?;
    json.push('\n');
    let json_path = write_atomic(dir, "report.json", json.as_bytes())?;
    let mut plots = Vec::new();
    for p in plot::render_all(report)? {
        plots.push(write_atomic(dir, &p.name, &p.bytes)?);
    }
    let md = markdown::render(report);
    let md_path = write_atomic(dir, "report.md", md.as_bytes())?;
    Ok(ReportFiles {
        json: json_path,
        markdown: md_path,
        plots,
    })
}

/// Writes `items.jsonl` (one [`ItemRow`] per line) into `dir` (created if needed).
pub fn write_items(rows: &[ItemRow], dir: &Path) -> Result<PathBuf, ScoreError> {
    std::fs::create_dir_all(dir).map_err(|e| ScoreError::io(dir.display(), e))?;
    let mut text = String::new();
    for row in rows {
        text.push_str(&serde_json::to_string(row).expect("rows serialise"));
        text.push('\n');
    }
    write_atomic(dir, "items.jsonl", text.as_bytes())
}

/// Writes `bytes` to `dir/name` atomically (see [`crate::output::atomic`]).
pub(crate) fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ScoreError> {
    let target = dir.join(name);
    crate::output::atomic::write_atomic(&target, bytes)
        .map_err(|e| ScoreError::io(target.display(), e))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_leaves_only_the_target() {
        let dir = tempfile::tempdir().unwrap();
        write_atomic(dir.path(), "a.txt", b"one").unwrap();
        write_atomic(dir.path(), "a.txt", b"two").unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.txt"]);
        assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"two");
    }

    #[test]
    fn unwritable_dir_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        assert!(matches!(
            write_atomic(&file, "a.txt", b"x"),
            Err(ScoreError::Io { .. })
        ));
    }
}
