//! One run per output directory: an exclusive `flock` on `DIR/.geomrender.lock`,
//! held for the whole run and released by the kernel when the process ends (however
//! it ends), so a second run into the same directory fails at once instead of
//! interleaving its rows with the first's.

use super::dir::Dir;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file's name inside the output directory.
pub(crate) const LOCK_FILE: &str = ".geomrender.lock";

/// Why the output directory could not be locked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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

/// Holds the directory's lock until dropped, and the directory's handle: every file
/// of the run is reached through [`OutputLock::dir`].
#[derive(Debug)]
pub(crate) struct OutputLock {
    _file: File,
    dir: Dir,
}

impl OutputLock {
    /// Makes the directory at `path` (the user's own) where missing, opens and
    /// locks it.
    pub(crate) fn create(path: &Path) -> Result<OutputLock, LockError> {
        let dir = Dir::create(path).map_err(|source| LockError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        OutputLock::acquire(dir)
    }

    /// The locked directory.
    pub(crate) fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Locks `dir` for this process, or says who holds it.
    pub(crate) fn acquire(dir: Dir) -> Result<OutputLock, LockError> {
        use rustix::fs::{Mode, OFlags};
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let fd = rustix::fs::openat(
            dir.fd(),
            LOCK_FILE,
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o666),
        )
        .map_err(|e| io(e.into()))?;
        let mut file = File::from(fd);
        if let Err(e) =
            rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
        {
            let err = std::io::Error::from(e);
            if e == rustix::io::Errno::WOULDBLOCK {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(LockError::InUse {
                    dir: dir.path().to_path_buf(),
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
        Ok(OutputLock { _file: file, dir })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_directory_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let dir = Dir::open(dir.path()).unwrap();
        let held = OutputLock::acquire(dir.clone()).unwrap();
        match OutputLock::acquire(dir.clone()) {
            Err(LockError::InUse { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected InUse, got {other:?}"),
        }
        drop(held);
        OutputLock::acquire(dir).unwrap();
    }

    #[test]
    fn a_planted_symlink_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join(LOCK_FILE)).unwrap();
        assert!(matches!(
            OutputLock::acquire(Dir::open(dir.path()).unwrap()),
            Err(LockError::Io { .. })
        ));
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    }
}
