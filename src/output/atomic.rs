//! Atomic file writes: a new temporary file in the target directory, then a rename,
//! so no partial file is ever visible under its final name.
//!
//! The temporary file is created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`,
//! relative to the directory's handle: see [`Dir`]) under a hidden name, so a file or symlink
//! planted in the output directory is never written through, and only a file this
//! process created is renamed into place. A rename over a symlink replaces the link,
//! not its target.

//!
//! Every temporary file not yet committed is registered, so that an interrupted
//! process can remove them all ([`remove_live_temps`], called by the binary's
//! SIGINT/SIGTERM handler) instead of leaving hidden files behind.

use super::dir::Dir;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The temporary files of this process not yet committed or removed: each its
/// directory's handle and its name there.
struct Live {
    /// Set once the process is being interrupted: no new temporary file is made.
    closing: bool,
    files: BTreeMap<u64, (Arc<OwnedFd>, String)>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    closing: false,
    files: BTreeMap::new(),
});

/// Numbers the temporary files of this process (keys of [`LIVE`], parts of names).
static NEXT: AtomicU64 = AtomicU64::new(0);

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Removes every temporary file this process has not committed yet and stops new
/// ones from being made; returns how many were removed. For an interrupt handler
/// that exits the process right after: a file being committed at the same moment
/// is either renamed before this runs or never.
pub(crate) fn remove_live_temps() -> usize {
    let mut live = live();
    live.closing = true;
    let removed = live
        .files
        .values()
        .filter(|(dir, name)| {
            rustix::fs::unlinkat(dir, name.as_str(), rustix::fs::AtFlags::empty()).is_ok()
        })
        .count();
    live.files.clear();
    // Keep the registry locked: a thread about to commit or create waits here
    // until the process exits.
    std::mem::forget(live);
    removed
}

/// Writes `bytes` to `path` atomically (same-directory temp file + rename). `path`
/// is the user's own (its directory is opened as named); inside an output
/// directory use [`Dir::write_atomic`].
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit(false)
}

/// A file being written under a hidden temporary name; [`AtomicFile::commit`] moves it
/// to its final name, and dropping it uncommitted removes it.
pub(crate) struct AtomicFile {
    /// `None` once committed.
    out: Option<BufWriter<File>>,
    dir: Dir,
    /// The hidden name, and its key in [`LIVE`].
    tmp: String,
    key: u64,
    name: String,
}

fn parent_and_name(path: &Path) -> std::io::Result<(&Path, String)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a file name", path.display()),
        )
    })?;
    Ok((dir, name.to_string()))
}

// `Dir::write_atomic` lives here, beside the atomic file it writes with: `dir` is the
// lower module and knows nothing of this one.
impl Dir {
    /// Writes `bytes` to `name` atomically (a temp file here, then a rename).
    pub(crate) fn write_atomic(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let mut file = AtomicFile::create_in(self, name)?;
        file.write_all(bytes)?;
        file.commit(false)
    }
}

impl AtomicFile {
    /// Starts writing what will become `path` (the user's own path: its directory
    /// is opened as named). See [`AtomicFile::create_in`].
    pub(crate) fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let (dir, name) = parent_and_name(path)?;
        AtomicFile::create_in(&Dir::open(dir)?, &name)
    }

    /// Starts writing what will become `name` in `dir`. Fails when `name` exists and
    /// is not a regular file or a symlink (a directory, a device, a FIFO): those are
    /// never renamed over. A symlink there is replaced, not followed.
    pub(crate) fn create_in(dir: &Dir, name: &str) -> std::io::Result<AtomicFile> {
        use super::dir::Kind;
        if let Some(kind @ (Kind::Dir | Kind::Other)) = dir.kind(name)? {
            let what = if kind == Kind::Dir {
                "a directory"
            } else {
                "a device, FIFO or socket"
            };
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{} exists and is {what}, not a regular file; it will not be replaced",
                    dir.join(name).display()
                ),
            ));
        }
        for _ in 0..64 {
            let key = NEXT.fetch_add(1, Ordering::Relaxed);
            let tmp = format!(".{name}.{:x}-{key:x}.tmp", std::process::id());
            // Created and registered under the registry's lock, so an interrupt
            // either sees it or stops it being made.
            let mut live = live();
            if live.closing {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    "the process is being interrupted",
                ));
            }
            let file = match dir.create_new(&tmp) {
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                r => r?,
            };
            live.files.insert(key, (dir.shared_fd(), tmp.clone()));
            return Ok(AtomicFile {
                out: Some(BufWriter::with_capacity(1 << 16, file)),
                dir: dir.clone(),
                tmp,
                key,
                name: name.to_string(),
            });
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("no free temporary name for {}", dir.join(name).display()),
        ))
    }

    /// The final path (for messages).
    pub(crate) fn path(&self) -> PathBuf {
        self.dir.join(&self.name)
    }

    /// Flushes, optionally syncs to disk, and renames the file to its final name.
    pub(crate) fn commit(mut self, sync: bool) -> std::io::Result<()> {
        let out = self.out.take().expect("an AtomicFile is committed once");
        let written = out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| if sync { file.sync_all() } else { Ok(()) });
        let mut live = live();
        // On failure (a full disk while flushing, say) the temp file goes, under the
        // lock, as dropping it would.
        let result = written.and_then(|()| self.dir.rename(&self.tmp, &self.name));
        if result.is_err() {
            let _ = self.dir.unlink(&self.tmp);
        }
        live.files.remove(&self.key);
        result
    }

    fn out(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("not committed")
    }
}

impl Drop for AtomicFile {
    /// Removes the uncommitted file (and forgets it) under the registry's lock.
    fn drop(&mut self) {
        if let Some(out) = self.out.take() {
            let mut live = live();
            drop(out);
            let _ = self.dir.unlink(&self.tmp);
            live.files.remove(&self.key);
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out().flush()
    }
}

/// Removes the temporary files [`AtomicFile`] leaves in `dir` when a process dies
/// before committing (`.<name>.<random>.tmp`, regular files only), optionally only
/// those for the final name `name`. Call it only while no other process may be
/// writing there (under the output directory's lock). Returns how many were removed.
pub(crate) fn remove_stale_temps(dir: &Dir, name: Option<&str>) -> std::io::Result<usize> {
    let mut removed = 0;
    for (n, kind) in dir.entries()? {
        let ours = match name {
            Some(name) => n.starts_with(&format!(".{name}.")),
            None => n.starts_with('.'),
        };
        if ours && n.ends_with(".tmp") && kind == super::dir::Kind::File && dir.remove_file(&n)? {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Opens `path` for writing without following a symlink and without replacing
/// anything: a planted file or link at `path` makes it fail.
/// Mode 0666 before the umask, as `File::create` gives: outputs are shared files.
#[cfg(test)]
pub(crate) fn create_new_nofollow(path: &Path) -> std::io::Result<File> {
    let (dir, name) = parent_and_name(path)?;
    Dir::open(dir)?.create_new(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<std::ffi::OsString> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_and_replaces_without_leaving_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.png");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(names(dir.path()), vec![std::ffi::OsString::from("a.png")]);
    }

    #[test]
    fn files_get_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.png");
        write_atomic(&p, b"x").unwrap();
        // SAFETY: reads the process umask (set and restored at once; tests only).
        let umask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(umask as u32), "{mode:o}");
    }

    #[test]
    fn failure_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("missing-dir").join("a.png");
        assert!(write_atomic(&p, b"x").is_err());
        assert!(!p.exists());
    }

    #[test]
    fn an_uncommitted_file_disappears() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(&dir.path().join("a.jsonl")).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn a_symlink_at_the_final_name_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let p = dir.path().join("a.png");
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(&p).unwrap().is_file());
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
    }

    #[test]
    fn devices_and_directories_are_not_renamed_over() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let e = write_atomic(&sub, b"x").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        assert!(write_atomic(Path::new("/dev/null"), b"x").is_err());
    }

    #[test]
    fn stale_temps_are_swept_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(&dir.path().join("a.png")).unwrap();
        f.write_all(b"x").unwrap();
        std::mem::forget(f); // as a killed process leaves it
        std::fs::write(dir.path().join("b.png"), b"keep").unwrap();
        std::fs::write(dir.path().join(".hidden"), b"keep").unwrap();
        let d = Dir::open(dir.path()).unwrap();
        assert_eq!(remove_stale_temps(&d, Some("b.png")).unwrap(), 0);
        assert_eq!(remove_stale_temps(&d, None).unwrap(), 1);
        assert_eq!(names(dir.path()).len(), 2);
    }

    #[test]
    fn create_new_nofollow_refuses_planted_links_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let link = dir.path().join(".partial");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(create_new_nofollow(&link).is_err());
        assert!(create_new_nofollow(&victim).is_err());
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    }
}
