//! A small tmpfs mounted for a test (a full disk on demand), unmounted when dropped.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs mounted for the test, unmounted when dropped.
pub struct Tmpfs(pub PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (as `mount -o size=` reads it) at `at`; `None`
    /// where mounting is not allowed (not root, or no `mount`).
    pub fn mount(at: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(at).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Tmpfs(at.to_path_buf()))
    }

    pub fn resize(&self, size: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(ok.success());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}
