//! Where the repository, its README and the tests' output folder are; a folder's names.

use std::path::PathBuf;

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Panics unless the README says `phrase` (whitespace and line breaks aside):
/// how a test keeps the README's figures its own.
pub fn readme_says(phrase: &str) {
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let phrase = squeeze(phrase);
    assert!(
        squeeze(&readme).contains(&phrase),
        "README.md does not say (update it to the test's figures): {phrase}"
    );
}

/// `target/test-output/`, created: where tests leave files for a look (actual and
/// diff images of failed reference checks, triptychs, SVG files).
pub fn output_dir() -> PathBuf {
    let dir = repo().join("target").join("test-output");
    std::fs::create_dir_all(&dir).expect("create target/test-output");
    dir
}

/// The names in `dir`, sorted; empty when it does not exist.
pub fn files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}
