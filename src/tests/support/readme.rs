//! Tables the README holds between two markers, written by the tests that count
//! them (`GEOMRENDER_UPDATE_README=1`) and checked by them otherwise.

/// The README's text between the lines `begin` and `end` is `table`: under
/// `GEOMRENDER_UPDATE_README=1` it is written there, otherwise a difference fails
/// the test, naming `what`.
pub(crate) fn readme_table(begin: &str, end: &str, table: &str, what: &str) {
    let path = super::repo().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(begin)
        .expect("the README has the table's markers")
        + begin.len();
    let end = start + readme[start..].find(end).expect("the table's end marker");
    if std::env::var_os("GEOMRENDER_UPDATE_README").is_some() {
        let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
    } else {
        assert_eq!(
            readme[start..end],
            *table,
            "README's {what} table differs (GEOMRENDER_UPDATE_README=1 writes it)"
        );
    }
}
