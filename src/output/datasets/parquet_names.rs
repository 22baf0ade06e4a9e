//! How the Parquet sink's files are recognised, in every build: its shards' names
//! and its card's signature. A binary built without the `parquet` feature still
//! knows (and removes, as `remove_other_datasets` does) the shards and card an
//! earlier run wrote.

pub(super) fn is_shard(name: &str) -> bool {
    let digits = |s: &str| s.len() >= 5 && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_prefix("test-")
        .and_then(|n| n.strip_suffix(".parquet"))
        .and_then(|n| n.split_once("-of-"))
        .is_some_and(|(k, n)| digits(k) && digits(n))
}

/// The start of the card's YAML front matter, and its heading (`card::card` writes
/// both).
pub(super) const CARD_START: &str = "---\nconfigs:\n";
pub(super) const CARD_HEADING: &str = "# geomrender dataset";

/// Whether `bytes` are a dataset card the Parquet sink wrote (its front matter and
/// heading), not a user's README.
pub(super) fn is_card(bytes: &[u8]) -> bool {
    let heading = format!("\n---\n\n{CARD_HEADING}\n");
    bytes.starts_with(CARD_START.as_bytes())
        && bytes
            .windows(heading.len())
            .any(|w| w == heading.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_and_cards_are_told_from_other_files() {
        assert!(is_shard("test-00003-of-00012.parquet"));
        assert!(!is_shard("train.parquet") && !is_shard("test-00000-of-00001.tsv"));
        assert!(is_card(
            b"---\nconfigs:\n- x\n---\n\n# geomrender dataset\nrows"
        ));
        assert!(!is_card(b"---\nconfigs:\n---\n# my dataset\n"));
        assert!(!is_card(b"# geomrender dataset\n"));
    }
}
