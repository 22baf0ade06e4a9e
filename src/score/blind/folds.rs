//! The two cross-fitting folds: a base problem's fold is the low bit of the first
//! byte of the SHA-256 of its `base_id`, so every image of a problem is in the same
//! fold (a baseline never trains on a variant of the problem it predicts), and the
//! split depends on the id alone: not on the order of the manifest's lines, the
//! platform or the run.

use crate::score::manifest::ManifestItem;
use serde::Serialize;
use std::collections::HashMap;

/// How many folds: train on one, predict the other, and the other way round.
pub(super) const FOLDS: usize = 2;

/// The fold of a base problem.
pub(super) fn fold_of(base_id: &str) -> u8 {
    let digest = crate::digest::sha256_hex(base_id.as_bytes());
    let first = u8::from_str_radix(&digest[..2], 16).expect("hex");
    first & 1
}

/// One fold's size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fold {
    /// Base problems in the fold.
    pub bases: u64,
    /// Their items (every image of each).
    pub items: u64,
}

/// Every item's fold, and each fold's size.
pub(super) fn folds(items: &[ManifestItem]) -> (Vec<u8>, Vec<Fold>) {
    let mut by_base: HashMap<&str, u8> = HashMap::new();
    let mut sizes = vec![Fold { bases: 0, items: 0 }; FOLDS];
    let of = (items.iter())
        .map(|it| {
            let f = *by_base.entry(it.base_id.as_str()).or_insert_with(|| {
                let f = fold_of(&it.base_id);
                sizes[usize::from(f)].bases += 1;
                f
            });
            sizes[usize::from(f)].items += 1;
            f
        })
        .collect();
    (of, sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fold_is_a_function_of_the_id_and_both_are_used() {
        let folds: Vec<u8> = (0..200).map(|i| fold_of(&format!("p{i}"))).collect();
        let ones = folds.iter().filter(|&&f| f == 1).count();
        assert!((70..=130).contains(&ones), "{ones} of 200 in fold 1");
        assert_eq!(fold_of("p7"), fold_of("p7"));
        let first = crate::digest::sha256_hex(b"abc");
        assert_eq!(
            first,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // 0xba is even.
        assert_eq!(fold_of("abc"), 0);
    }
}
