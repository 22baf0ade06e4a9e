//! `--shard I/N`: the I-th of N contiguous slices of a run's problem indices, so
//! that N machines together write exactly what one run would (concatenated in
//! shard order), because problem k's seed depends only on (run seed, k).

use std::ops::Range;
use std::str::FromStr;

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// This shard's problem indices among `total`: `[⌊I·total/N⌋, ⌊(I+1)·total/N⌋)`.
    pub fn range(self, total: u64) -> Range<u64> {
        let at = |i: u64| (i as u128 * total as u128 / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("bad shard {s:?}: expected I/N with 0 ≤ I < N, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_run_exactly() {
        for total in [0u64, 1, 7, 100, 1001] {
            for n in 1..=9u64 {
                let mut next = 0;
                for i in 0..n {
                    let r = Shard { index: i, count: n }.range(total);
                    assert_eq!(r.start, next, "total {total}, {i}/{n}");
                    assert!(r.end - r.start <= total.div_ceil(n));
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
