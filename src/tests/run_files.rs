//! The names a run writes, as `--force` knows them.

/// The names `--force` removes are the ones the audit and the gallery write.
#[test]
fn force_knows_the_names_of_the_audit_and_the_gallery() {
    use geomrender::pipeline::{RUN_DIRS, RUN_FILES};
    assert!(RUN_FILES.contains(&geomrender::audit::AUDIT_JSONL));
    assert!(RUN_FILES.contains(&geomrender::audit::AUDIT_MD));
    assert!(RUN_DIRS.contains(&geomrender::gallery::GALLERY_DIR));
}
