//! One run per output directory: an exclusive `flock` on `DIR/.geomrender.lock`,
//! held for the whole run and released by the kernel when the process ends (however
//! it ends), so a second run into the same directory fails at once instead of
//! interleaving its rows with the first's.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock file's name inside the output directory.
pub const LOCK_FILE: &str = ".geomrender.lock";

/// Why the output directory could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error(
        "{} is in use by {}; wait for that run to end or use another --out directory",
        dir.display(),
        match pid { Some(p) => format!("process {p}"), None => "another process".to_string() }
    )]
    InUse { dir: PathBuf, pid: Option<u32> },
    /// The lock file could not be opened or locked.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Holds the directory's lock until dropped.
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
}

impl OutputLock {
    /// Locks `dir` (which must exist) for this process, or says who holds it.
    pub fn acquire(dir: &Path) -> Result<OutputLock, LockError> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(io)?;
        // SAFETY: flock on a file descriptor we own; no memory is involved.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc != 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() == Some(libc::EWOULDBLOCK) {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(LockError::InUse {
                    dir: dir.to_path_buf(),
                    pid: text.trim().parse().ok(),
                });
            }
            return Err(io(err));
        }
        // Who holds it, for the other run's message.
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        write!(file, "{}", std::process::id()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(OutputLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_directory_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let held = OutputLock::acquire(dir.path()).unwrap();
        match OutputLock::acquire(dir.path()) {
            Err(LockError::InUse { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected InUse, got {other:?}"),
        }
        drop(held);
        OutputLock::acquire(dir.path()).unwrap();
    }

    #[test]
    fn a_planted_symlink_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join(LOCK_FILE)).unwrap();
        assert!(matches!(
            OutputLock::acquire(dir.path()),
            Err(LockError::Io { .. })
        ));
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    }
}
