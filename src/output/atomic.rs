//! Atomic file writes: a temporary file in the target directory, then a rename,
//! so no partial file is ever visible under its final name.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically (same-directory temp file + rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `dir/.name.<pid>.tmp`: hidden, unique per process, in the same directory so the
/// rename cannot cross file systems.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces_without_leaving_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.png");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.png")]);
    }

    #[test]
    fn failure_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("missing-dir").join("a.png");
        assert!(write_atomic(&p, b"x").is_err());
        assert!(!p.exists());
    }
}
