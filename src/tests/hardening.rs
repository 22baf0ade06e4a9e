//! The output directory's rules under a swap mid-run, driven through the library's
//! crate-private `output::dir` and `output::atomic` so that the swap happens at a
//! known point. (The rest of the hostile use, through the binary:
//! `tests/it/hardening.rs`.)

use crate::tests::support::paths::files;

/// Defect 2 (during a run): `images/` swapped for a link while the run writes
/// changes nothing outside `--out`: the run keeps writing into the directory it
/// opened. (Driven through the library: the swap happens at a known point.)
#[test]
fn a_directory_swapped_for_a_link_during_a_run_is_not_followed() {
    use geomrender::output::dir::Dir;
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    let out = Dir::create(&tmp.path().join("out")).unwrap();
    let images = out.sub("images").unwrap();
    images.write_atomic("a.png", b"1").unwrap();
    std::fs::rename(tmp.path().join("out/images"), tmp.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(&victim, tmp.path().join("out/images")).unwrap();
    images.write_atomic("b.png", b"2").unwrap();
    let mut f = geomrender::output::atomic::AtomicFile::create_in(&images, "c.png").unwrap();
    std::io::Write::write_all(&mut f, b"3").unwrap();
    f.commit(false).unwrap();
    assert!(files(&victim).is_empty(), "{:?}", files(&victim));
    assert_eq!(
        files(&tmp.path().join("elsewhere")),
        ["a.png", "b.png", "c.png"]
    );
    // A new open of `images/` refuses the link.
    assert!(
        out.sub("images")
            .unwrap_err()
            .to_string()
            .contains("symbolic link")
    );
}
