//! The ids a run has written, to refuse a line that repeats one: the only state of
//! a run that grows with its input, so it is kept per line, not per image.
//!
//! An id splits at its first `__` into a stem and a suffix: a variant
//! `s0-000016__opacity-0.25` into `s0-000016` and `__opacity-0.25`, a base into
//! itself and `""`. The split is a function of the id, so an id is known by its
//! (stem, suffix) pair. A line's images share their stem, and every line draws
//! from one variant plan, so the set keeps one entry per stem (the first 128 bits
//! of its SHA-256, 20 bytes with the entry's value) that points at the stem's
//! suffixes, a set shared by every stem with the same ones (a few sets a run). A
//! 1,000,000-image sweep keeps 71,429 entries, not 1,000,000.
//!
//! The check is exact but for fingerprints: two different stems share one with
//! probability about n²/2¹²⁹ — for a billion stems, 10⁻²¹ — and that would refuse
//! a line as a duplicate, never write two images under one name.

use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

/// Every id written so far (also the gallery's check of a manifest's ids).
#[derive(Default)]
pub(crate) struct Seen {
    /// A stem's fingerprint → its suffixes (an index into `sets`).
    stems: HashMap<Fingerprint, u32, BuildHasherDefault<Spread>>,
    sets: Sets,
}

impl Seen {
    /// The first of one line's `ids` that an earlier line wrote or the line itself
    /// repeats.
    pub(crate) fn first_repeat<'a>(&self, ids: &[&'a str]) -> Option<&'a str> {
        let mut own = HashSet::with_capacity(ids.len());
        ids.iter().copied().find(|&id| {
            let (stem, suffix) = split(id);
            !own.insert(id)
                || self
                    .stems
                    .get(&Fingerprint::of(stem))
                    .is_some_and(|&set| self.sets.contains(set, suffix))
        })
    }

    /// Records one line's ids (checked by [`first_repeat`](Self::first_repeat)).
    pub(crate) fn insert_line(&mut self, ids: &[&str]) {
        let mut by_stem: Vec<(&str, &str)> = ids.iter().map(|id| split(id)).collect();
        by_stem.sort_unstable();
        for group in by_stem.chunk_by(|a, b| a.0 == b.0) {
            let key = Fingerprint::of(group[0].0);
            // The stem's earlier suffixes, if another line had it (a shared set).
            let earlier = self.stems.get(&key).map(|&k| self.sets.get(k));
            let mut suffixes: Vec<&str> = group.iter().map(|&(_, s)| s).collect();
            suffixes.extend(earlier.iter().flat_map(|set| set.iter().map(|s| &**s)));
            let set = self.sets.intern(suffixes);
            self.stems.insert(key, set);
        }
    }
}

impl Seen {
    /// Records one id; `false` when it was recorded before.
    pub(crate) fn insert(&mut self, id: &str) -> bool {
        let new = self.first_repeat(&[id]).is_none();
        if new {
            self.insert_line(&[id]);
        }
        new
    }
}

/// `(stem, suffix)`: `id` split before its first `__` (the suffix `""` without one).
fn split(id: &str) -> (&str, &str) {
    id.find("__").map_or((id, ""), |at| id.split_at(at))
}

/// The sets of suffixes, each kept once.
#[derive(Default)]
struct Sets {
    sets: Vec<Arc<[Box<str>]>>,
    index: HashMap<Arc<[Box<str>]>, u32>,
}

impl Sets {
    /// The set of `suffixes` (in any order, repeats allowed), added if new.
    fn intern(&mut self, mut suffixes: Vec<&str>) -> u32 {
        suffixes.sort_unstable();
        suffixes.dedup();
        let set: Arc<[Box<str>]> = suffixes.into_iter().map(Box::from).collect();
        if let Some(&k) = self.index.get(&set) {
            return k;
        }
        let k = u32::try_from(self.sets.len()).expect("fewer than 2^32 sets of suffixes");
        self.sets.push(set.clone());
        self.index.insert(set, k);
        k
    }

    fn get(&self, set: u32) -> Arc<[Box<str>]> {
        self.sets[set as usize].clone()
    }

    fn contains(&self, set: u32, suffix: &str) -> bool {
        (self.sets[set as usize].binary_search_by(|s| (**s).cmp(suffix))).is_ok()
    }
}

/// The first 128 bits of a stem's SHA-256, as four words (4-byte aligned: an entry
/// with its value is 20 bytes, where a `u128` key would make it 32).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Fingerprint([u32; 4]);

impl Fingerprint {
    fn of(stem: &str) -> Fingerprint {
        let digest = Sha256::digest(stem.as_bytes());
        let word = |i: usize| u32::from_le_bytes(digest[4 * i..4 * i + 4].try_into().unwrap());
        Fingerprint([word(0), word(1), word(2), word(3)])
    }
}

impl Hash for Fingerprint {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(u64::from(self.0[0]) | u64::from(self.0[1]) << 32);
    }
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
        // Only `write_u64` is called for a fingerprint; fold anything else in.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(29) ^ u64::from_le_bytes(word);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `line` is refused, else records it: the first repeat.
    fn pass<'a>(seen: &mut Seen, line: &[&'a str]) -> Option<&'a str> {
        let repeat = seen.first_repeat(line);
        if repeat.is_none() {
            seen.insert_line(line);
        }
        repeat
    }

    #[test]
    fn a_sweep_keeps_one_entry_a_line_and_one_set_of_suffixes() {
        let mut seen = Seen::default();
        let variants = ["", "__opacity-0.25", "__fontsize-24"];
        let lines: Vec<Vec<String>> = (0..5_000)
            .map(|i| variants.iter().map(|v| format!("s0-{i:06}{v}")).collect())
            .collect();
        for line in &lines {
            let ids: Vec<&str> = line.iter().map(String::as_str).collect();
            assert_eq!(pass(&mut seen, &ids), None);
        }
        assert_eq!(seen.stems.len(), 5_000);
        assert_eq!(seen.sets.sets.len(), 1);
        // Any one image of any line again is refused, alone or among new ids.
        for line in lines.iter().step_by(97) {
            for id in line {
                assert_eq!(seen.first_repeat(&[id.as_str()]), Some(id.as_str()));
                assert_eq!(
                    seen.first_repeat(&["new", "new__opacity-0.25", id]),
                    Some(id.as_str())
                );
            }
        }
        // A new variant of an old problem is not a repeat; nor is a new problem.
        assert_eq!(seen.first_repeat(&["s0-000016__linewidth-2"]), None);
        assert_eq!(
            seen.first_repeat(&["s0-005000", "s0-005000__opacity-0.25"]),
            None
        );
    }

    #[test]
    fn ids_that_look_like_variants_are_told_apart_exactly() {
        let mut seen = Seen::default();
        assert_eq!(pass(&mut seen, &["a", "a__opacity-0.25"]), None);
        // A line whose own base is another line's variant id: that image repeats.
        assert_eq!(
            pass(
                &mut seen,
                &["a__opacity-0.25", "a__opacity-0.25__fontsize-24"]
            ),
            Some("a__opacity-0.25")
        );
        // One that shares only the stem adds its suffixes to the stem's set.
        assert_eq!(pass(&mut seen, &["a__fontsize-24", "a__x__y"]), None);
        assert_eq!(seen.first_repeat(&["a__x__y"]), Some("a__x__y"));
        assert_eq!(
            seen.first_repeat(&["a__fontsize-24"]),
            Some("a__fontsize-24")
        );
        assert_eq!(seen.first_repeat(&["a"]), Some("a"));
        assert_eq!(seen.first_repeat(&["a__x"]), None);
        // Underscores next to the split: `a_` + `__x` is `a___x`, whose stem is `a`.
        assert_eq!(pass(&mut seen, &["a_", "a___x"]), None);
        assert_eq!(seen.first_repeat(&["a___x"]), Some("a___x"));
        assert_eq!(seen.first_repeat(&["a_"]), Some("a_"));
        assert_eq!(seen.first_repeat(&["a_x"]), None);
        // An empty id and a bare `__` are ids like any other.
        assert_eq!(pass(&mut seen, &["", "__"]), None);
        assert_eq!(seen.first_repeat(&["__"]), Some("__"));
        assert_eq!(seen.first_repeat(&[""]), Some(""));
    }

    #[test]
    fn a_line_that_repeats_its_own_id_is_refused() {
        let mut seen = Seen::default();
        assert_eq!(pass(&mut seen, &["p", "p__a-1", "p__a-1"]), Some("p__a-1"));
        assert_eq!(
            seen.first_repeat(&["p"]),
            None,
            "a refused line is not recorded"
        );
    }
}
