//! The one rule for every file the tool reads or writes under an output directory:
//! a [`Dir`] is opened once, and everything in it is reached by name relative to
//! that handle (`openat`, `renameat`, `unlinkat`), never through a symbolic link.
//!
//! - The directory the user names (`--out results`) is opened as the user named it,
//!   links and all: that path is theirs.
//! - Every directory the tool uses inside it (`images/`, `data/`, `shards/0-of-4/`,
//!   …) is a real directory: a symlink planted there is refused with an error that
//!   names it, and one swapped in during a run changes nothing, because the run
//!   keeps writing through the handle it opened.
//! - Files are read only when they are regular files (`O_NOFOLLOW`, checked with
//!   `fstat` on the opened file): never a device, a FIFO or a socket, and never
//!   more than the caller's bound.
//! - Clean-up removes only regular files by name inside the real directory.
//!
//! Linux (and other Unix) only, like the rest of the crate.

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A directory opened once; see the module documentation.
#[derive(Clone, Debug)]
pub struct Dir {
    fd: Arc<OwnedFd>,
    /// The path it was opened by, for messages only.
    path: PathBuf,
}

/// What a name in a [`Dir`] is (symbolic links are not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    /// A device, FIFO or socket.
    Other,
}

impl Kind {
    fn of(t: FileType) -> Kind {
        match t {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            _ => Kind::Other,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::File => "a file",
            Kind::Dir => "a directory",
            Kind::Symlink => "a symbolic link",
            Kind::Other => "a device, FIFO or socket",
        }
    }
}

fn io_err(e: rustix::io::Errno) -> std::io::Error {
    std::io::Error::from(e)
}

/// The error for `name` being a `kind` where the tool wanted `want`.
fn refused(kind: Kind, want: &str) -> std::io::Error {
    let why = match kind {
        Kind::Symlink => format!(
            "is a symbolic link, and geomrender follows none inside its output directory; \
             remove it (a {want} is expected here)"
        ),
        other => format!("is {}, not a {want}", other.describe()),
    };
    std::io::Error::new(std::io::ErrorKind::InvalidInput, why)
}

/// A name of one path component: not empty, `.`, `..`, and without `/` or NUL.
fn check_name(name: &str) -> std::io::Result<()> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{name:?} is not a file name inside the directory"),
        ));
    }
    Ok(())
}

impl Dir {
    /// Opens the directory at `path`, as the user named it.
    pub(crate) fn open(path: &Path) -> std::io::Result<Dir> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(io_err)?;
        Ok(Dir {
            fd: Arc::new(fd),
            path: path.to_path_buf(),
        })
    }

    /// Makes `path` (and its parents) where missing, then opens it.
    pub(crate) fn create(path: &Path) -> std::io::Result<Dir> {
        std::fs::create_dir_all(path)?;
        Dir::open(path)
    }

    /// The path the directory was opened by (for messages).
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// `name` inside this directory, as a path for messages.
    pub(crate) fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    pub(crate) fn shared_fd(&self) -> Arc<OwnedFd> {
        Arc::clone(&self.fd)
    }

    /// What `name` is, without following a link; `None` when there is nothing.
    pub(crate) fn kind(&self, name: &str) -> std::io::Result<Option<Kind>> {
        check_name(name)?;
        match rustix::fs::statat(self.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(Kind::of(FileType::from_raw_mode(st.st_mode)))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(io_err(e)),
        }
    }

    fn open_dir(&self, name: &str) -> std::io::Result<Dir> {
        let fd = rustix::fs::openat(
            self.fd(),
            name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            // Swapped for a link (or a file) between the check and the open.
            rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => refused(
                self.kind(name).ok().flatten().unwrap_or(Kind::Other),
                "directory",
            ),
            e => io_err(e),
        })?;
        Ok(Dir {
            fd: Arc::new(fd),
            path: self.path.join(name),
        })
    }

    /// The real directory `name` inside this one, made when missing.
    pub(crate) fn sub(&self, name: &str) -> std::io::Result<Dir> {
        match self.kind(name)? {
            None => match rustix::fs::mkdirat(self.fd(), name, Mode::from_raw_mode(0o777)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(io_err(e)),
            },
            Some(Kind::Dir) => {}
            Some(other) => return Err(refused(other, "directory")),
        }
        self.open_dir(name)
    }

    /// The real directory `name` inside this one, or `None` when there is nothing
    /// by that name.
    pub(crate) fn existing_sub(&self, name: &str) -> std::io::Result<Option<Dir>> {
        match self.kind(name)? {
            None => Ok(None),
            Some(Kind::Dir) => self.open_dir(name).map(Some),
            Some(other) => Err(refused(other, "directory")),
        }
    }

    /// Walks `rel` (`images/a.png`: relative, `/`-separated, no `.` or `..`) through
    /// real directories; returns the last one and the file name.
    pub(crate) fn resolve<'r>(&self, rel: &'r str) -> std::io::Result<(Dir, &'r str)> {
        let mut parts: Vec<&str> = rel.split('/').collect();
        let name = parts.pop().unwrap_or_default();
        check_name(name).map_err(|_| not_inside(rel))?;
        let mut dir = self.clone();
        for part in parts {
            check_name(part).map_err(|_| not_inside(rel))?;
            dir = match dir.existing_sub(part)? {
                Some(d) => d,
                None => return Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
            };
        }
        Ok((dir, name))
    }

    /// Opens the regular file `name` for reading: never through a link, never a
    /// device, FIFO or socket (opened without blocking, then checked).
    pub(crate) fn open_file(&self, name: &str) -> std::io::Result<File> {
        check_name(name)?;
        let fd = rustix::fs::openat(
            self.fd(),
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::LOOP => refused(Kind::Symlink, "regular file"),
            e => io_err(e),
        })?;
        let kind = Kind::of(FileType::from_raw_mode(
            rustix::fs::fstat(&fd).map_err(io_err)?.st_mode,
        ));
        if kind != Kind::File {
            return Err(refused(kind, "regular file"));
        }
        // Reads block as usual from here (it is a regular file; the flag only kept
        // the open from waiting on a FIFO).
        rustix::fs::fcntl_setfl(&fd, OFlags::RDONLY).map_err(io_err)?;
        Ok(File::from(fd))
    }

    /// Reads the regular file `name` whole, refusing one of more than `max` bytes.
    pub(crate) fn read(&self, name: &str, max: u64) -> std::io::Result<Vec<u8>> {
        read_bounded(self.open_file(name)?, max)
    }

    /// Creates `name` exclusively for writing (never through a link, never over
    /// anything already there). Mode 0666 before the umask, as `File::create` gives.
    pub(crate) fn create_new(&self, name: &str) -> std::io::Result<File> {
        check_name(name)?;
        let fd = rustix::fs::openat(
            self.fd(),
            name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o666),
        )
        .map_err(io_err)?;
        Ok(File::from(fd))
    }

    /// A file in this directory with no name, gone when closed (for spooling).
    pub(crate) fn anonymous(&self) -> std::io::Result<File> {
        match rustix::fs::openat(
            self.fd(),
            ".",
            OFlags::RDWR | OFlags::TMPFILE | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        ) {
            Ok(fd) => Ok(File::from(fd)),
            // A file system without O_TMPFILE: the process's temporary directory.
            Err(_) => tempfile::tempfile(),
        }
    }

    /// Removes the regular file `name`; `false` when there was none. Anything
    /// else by that name (a link, a directory) is left alone and refused.
    pub(crate) fn remove_file(&self, name: &str) -> std::io::Result<bool> {
        match self.kind(name)? {
            None => Ok(false),
            Some(Kind::File) => match rustix::fs::unlinkat(self.fd(), name, AtFlags::empty()) {
                Ok(()) => Ok(true),
                Err(rustix::io::Errno::NOENT) => Ok(false),
                Err(e) => Err(io_err(e)),
            },
            Some(other) => Err(refused(other, "regular file")),
        }
    }

    /// Removes `name` whatever it is but a directory (a link itself, never its
    /// target); `false` when there was nothing. For names only this tool uses.
    pub(crate) fn unlink(&self, name: &str) -> std::io::Result<bool> {
        check_name(name)?;
        match rustix::fs::unlinkat(self.fd(), name, AtFlags::empty()) {
            Ok(()) => Ok(true),
            Err(rustix::io::Errno::NOENT) => Ok(false),
            Err(e) => Err(io_err(e)),
        }
    }

    /// The (device, inode) of `name` without following a link; `None` when absent.
    pub(crate) fn identity(&self, name: &str) -> std::io::Result<Option<(u64, u64)>> {
        check_name(name)?;
        match rustix::fs::statat(self.fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some((st.st_dev, st.st_ino))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(io_err(e)),
        }
    }

    /// Removes the directory `name` if it is empty (a real directory only).
    pub(crate) fn remove_empty_dir(&self, name: &str) -> std::io::Result<()> {
        check_name(name)?;
        rustix::fs::unlinkat(self.fd(), name, AtFlags::REMOVEDIR).map_err(io_err)
    }

    /// Renames `from` to `to`, both in this directory (`to` is replaced).
    pub(crate) fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        self.rename_to(from, self, to)
    }

    /// Renames `from` in this directory to `to` in `dir` (same file system).
    pub(crate) fn rename_to(&self, from: &str, dir: &Dir, to: &str) -> std::io::Result<()> {
        check_name(from)?;
        check_name(to)?;
        rustix::fs::renameat(self.fd(), from, dir.fd(), to).map_err(io_err)
    }

    /// Hard-links the file `from` in this directory as `to` in `dir`.
    pub(crate) fn link_to(&self, from: &str, dir: &Dir, to: &str) -> std::io::Result<()> {
        check_name(from)?;
        check_name(to)?;
        rustix::fs::linkat(self.fd(), from, dir.fd(), to, AtFlags::empty()).map_err(io_err)
    }

    /// The names in this directory with what each is, sorted by name (names that
    /// are not UTF-8 are given lossily: no file of ours has one).
    pub(crate) fn entries(&self) -> std::io::Result<Vec<(String, Kind)>> {
        let mut out = Vec::new();
        for entry in rustix::fs::Dir::read_from(self.fd()).map_err(io_err)? {
            let entry = entry.map_err(io_err)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "." || name == ".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => self.kind(&name)?.unwrap_or(Kind::Other),
                t => Kind::of(t),
            };
            out.push((name, kind));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }
}

fn not_inside(rel: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "{rel:?} is not a relative path inside the directory (no leading /, no . or .. parts)"
        ),
    )
}

/// Opens the user's own file at `path` for reading (links followed: the path is
/// theirs) when it is a regular file; a FIFO, device, socket or directory is
/// refused at once, without waiting on it (the caller names the path).
pub(crate) fn open_regular(path: &Path) -> std::io::Result<File> {
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io_err)?;
    let kind = Kind::of(FileType::from_raw_mode(
        rustix::fs::fstat(&fd).map_err(io_err)?.st_mode,
    ));
    if kind != Kind::File {
        return Err(refused(kind, "regular file"));
    }
    // Reads block as usual from here (the flag only kept the open from waiting).
    rustix::fs::fcntl_setfl(&fd, OFlags::RDONLY).map_err(io_err)?;
    Ok(File::from(fd))
}

/// Reads `file` whole, refusing more than `max` bytes (counted as read, so a file
/// that grows, or lies about its size, stops at the bound too).
pub(crate) fn read_bounded(file: File, max: u64) -> std::io::Result<Vec<u8>> {
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0);
    if hint > max {
        return Err(too_large(max));
    }
    let mut bytes = Vec::with_capacity(hint as usize);
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

fn too_large(max: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("larger than {max} bytes, the most read here"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_planted_directory_link_is_refused_and_its_target_untouched() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        let out = t.path().join("out");
        std::fs::create_dir(&out).unwrap();
        symlink(&victim, out.join("data")).unwrap();
        let dir = Dir::open(&out).unwrap();
        let e = dir.sub("data").unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(dir.existing_sub("data").is_err());
        assert!(std::fs::read_dir(&victim).unwrap().next().is_none());
    }

    #[test]
    fn a_directory_swapped_for_a_link_after_opening_is_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        let root = Dir::create(&t.path().join("out")).unwrap();
        let images = root.sub("images").unwrap();
        // The run has `images` open; someone moves it away and plants a link.
        std::fs::rename(t.path().join("out/images"), t.path().join("out/moved")).unwrap();
        symlink(&victim, t.path().join("out/images")).unwrap();
        images.write_atomic("a.png", b"x").unwrap();
        assert!(std::fs::read_dir(&victim).unwrap().next().is_none());
        assert_eq!(
            std::fs::read(t.path().join("out/moved/a.png")).unwrap(),
            b"x"
        );
    }

    #[test]
    fn a_user_path_opens_only_as_a_regular_file_and_never_waits_on_a_fifo() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            FileType::Fifo,
            Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let e = open_regular(&fifo).unwrap_err().to_string();
        assert!(e.contains("is a device, FIFO or socket"), "{e}");
        let e = open_regular(t.path()).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        std::fs::write(t.path().join("a"), "x").unwrap();
        symlink(t.path().join("a"), t.path().join("b")).unwrap();
        let mut text = String::new();
        open_regular(&t.path().join("b"))
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "x");
    }

    #[test]
    fn reads_only_regular_files_inside_and_within_the_bound() {
        let t = tempfile::tempdir().unwrap();
        let root = Dir::create(t.path()).unwrap();
        std::fs::write(t.path().join("secret.txt"), b"SECRET").unwrap();
        std::fs::create_dir(t.path().join("images")).unwrap();
        symlink(t.path().join("secret.txt"), t.path().join("images/a.png")).unwrap();
        symlink("/dev/zero", t.path().join("images/z.png")).unwrap();
        std::fs::write(t.path().join("images/b.png"), b"0123456789").unwrap();
        for rel in [
            "../secret.txt",
            "/dev/zero",
            "images/../secret.txt",
            "",
            "images/",
        ] {
            let e = root.resolve(rel).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{rel}: {e}");
        }
        let (images, name) = root.resolve("images/a.png").unwrap();
        assert!(
            images
                .read(name, 100)
                .unwrap_err()
                .to_string()
                .contains("symbolic link")
        );
        assert!(images.read("z.png", 100).is_err());
        assert_eq!(images.read("b.png", 10).unwrap(), b"0123456789");
        assert!(
            images
                .read("b.png", 9)
                .unwrap_err()
                .to_string()
                .contains("larger than 9")
        );
    }

    #[test]
    fn a_fifo_is_refused_without_waiting() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("f.png");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let root = Dir::open(t.path()).unwrap();
        let e = root.open_file("f.png").unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
    }

    #[test]
    fn remove_file_removes_files_only() {
        let t = tempfile::tempdir().unwrap();
        let root = Dir::open(t.path()).unwrap();
        std::fs::write(t.path().join("a"), b"x").unwrap();
        std::fs::create_dir(t.path().join("d")).unwrap();
        symlink(t.path().join("a"), t.path().join("l")).unwrap();
        assert!(root.remove_file("a").unwrap());
        assert!(!root.remove_file("a").unwrap());
        assert!(root.remove_file("d").is_err());
        assert!(root.remove_file("l").is_err());
        let names: Vec<_> = root.entries().unwrap();
        assert_eq!(
            names,
            [
                ("d".to_string(), Kind::Dir),
                ("l".to_string(), Kind::Symlink)
            ]
        );
    }
}
