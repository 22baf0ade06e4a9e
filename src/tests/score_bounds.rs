//! `score`'s bounds: the constants are the figures `tests/it/score_bounds.rs` (and
//! the README) state, and the library reads a file with any bound, counting bytes
//! as they come.

use geomrender::score::{self, LoadedFile, ScoreError};

#[test]
fn the_bounds_are_the_figures_the_integration_tests_use() {
    assert_eq!(score::MAX_INPUT_BYTES, 1 << 30);
    assert_eq!(score::MAX_PREDICTION_LINE_BYTES, 16 << 20);
    assert_eq!(score::MAX_PREDICTION_BYTES, 1 << 20);
    assert_eq!(score::MAX_XLSX_BYTES, 256 << 20);
}

#[test]
fn a_file_is_read_with_any_bound() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.jsonl");
    std::fs::write(&small, "x".repeat(11)).unwrap();
    assert!(LoadedFile::read_at_most(&small, 11).is_ok());
    let e = LoadedFile::read_at_most(&small, 10).unwrap_err();
    assert_eq!(
        e,
        ScoreError::TooLarge {
            path: small.display().to_string(),
            max: 10
        }
    );
}
