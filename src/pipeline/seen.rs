//! The ids a run has written, to refuse a line that repeats one: the only state
//! of a run that grows with its input, so each id is kept as the first 128 bits of
//! its SHA-256 (16 bytes in the set's table, where the id itself took ~80 bytes
//! with its allocation). Two different ids share a fingerprint with probability
//! about n²/2¹²⁹ — for a billion ids, 10⁻²¹ — and that would refuse a line as a
//! duplicate, never write two images under one name.

use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Every id written so far, as fingerprints.
#[derive(Default)]
pub(super) struct Seen {
    fingerprints: HashSet<u128, BuildHasherDefault<Spread>>,
}

impl Seen {
    pub(super) fn contains(&self, id: &str) -> bool {
        self.fingerprints.contains(&fingerprint(id))
    }

    pub(super) fn insert(&mut self, id: &str) {
        self.fingerprints.insert(fingerprint(id));
    }
}

fn fingerprint(id: &str) -> u128 {
    let digest = Sha256::digest(id.as_bytes());
    u128::from_le_bytes(digest[..16].try_into().expect("16 bytes of 32"))
}

/// The table's hash of a fingerprint: its low 64 bits, already uniform (a second
/// hash of a SHA-256 would only cost time).
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u128` is called for a u128 key; fold anything else in.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(29) ^ u64::from_le_bytes(word);
        }
    }

    fn write_u128(&mut self, v: u128) {
        self.0 = v as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_told_apart_and_found_again() {
        let mut seen = Seen::default();
        let ids: Vec<String> = (0..10_000)
            .map(|i| format!("s0-{i:06}__opacity-0.1"))
            .collect();
        for id in &ids {
            assert!(!seen.contains(id), "{id}");
            seen.insert(id);
        }
        assert!(ids.iter().all(|id| seen.contains(id)));
        assert!(!seen.contains("s0-010000__opacity-0.1"));
        assert!(!seen.contains(""));
        assert_eq!(seen.fingerprints.len(), ids.len());
    }
}
