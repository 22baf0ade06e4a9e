//! Length-limited Huffman codes for deflate's dynamic blocks (RFC 1951 §3.2.2).
//!
//! Lengths come from an ordinary Huffman tree (two queues over the symbols
//! sorted by frequency); where the tree is deeper than deflate allows, the
//! counts per length are folded back under the limit as zlib and miniz do
//! (every too-deep leaf moves to the limit, then one leaf at the limit at a time
//! is traded for splitting the deepest shallower leaf, until the code is
//! complete again). The most frequent symbols keep the shortest codes.

/// A canonical code: each symbol's length (0: unused) and its bits, already
/// reversed for deflate's least-significant-bit-first stream.
pub(super) struct Code {
    pub(super) lengths: Vec<u8>,
    pub(super) bits: Vec<u16>,
}

impl Code {
    /// The code for `freq` (one count a symbol) with no code longer than
    /// `limit` bits. At least two symbols get a code (unused ones with a count
    /// of zero are added if needed), so the code is always complete.
    pub(super) fn new(freq: &[u32], limit: u8) -> Self {
        let lengths = lengths(freq, limit);
        let bits = canonical(&lengths);
        Code { lengths, bits }
    }
}

/// Code lengths, one a symbol, each ≤ `limit`, with Kraft sum exactly 1.
fn lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let limit = limit as usize;
    let mut syms: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    // A complete code needs two leaves: borrow unused symbols (lowest first).
    let borrow = 2usize.saturating_sub(syms.len());
    syms.extend((0..freq.len()).filter(|&s| freq[s] == 0).take(borrow));
    assert!(syms.len() >= 2, "a code needs an alphabet of two symbols");
    syms.sort_by_key(|&s| (freq[s], s));
    let n = syms.len();
    // Nodes 0..n are the leaves in ascending weight, n..2n-1 the inner nodes in
    // the order they are made (so weights ascend there too, and a parent always
    // has a larger index than its children).
    let mut weight: Vec<u64> = syms.iter().map(|&s| u64::from(freq[s])).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut leaf, mut inner) = (0, n);
    for node in n..2 * n - 1 {
        let mut take = || {
            if leaf < n && (inner >= node || weight[leaf] <= weight[inner]) {
                leaf += 1;
                leaf - 1
            } else {
                inner += 1;
                inner - 1
            }
        };
        let (a, b) = (take(), take());
        weight.push(weight[a] + weight[b]);
        parent[a] = node;
        parent[b] = node;
    }
    let mut depth = vec![0usize; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    // Counts per length, too-deep leaves folded to the limit.
    let mut count = vec![0u32; limit + 1];
    for &d in &depth[..n] {
        count[d.min(limit)] += 1;
    }
    let kraft = |count: &[u32]| -> u64 {
        (1..=limit)
            .map(|l| u64::from(count[l]) << (limit - l))
            .sum()
    };
    let mut total = kraft(&count);
    while total > 1 << limit {
        count[limit] -= 1;
        let l = (1..limit)
            .rev()
            .find(|&l| count[l] > 0)
            .expect("a leaf above the limit to split");
        count[l] -= 1;
        count[l + 1] += 2;
        total -= 1;
    }
    debug_assert_eq!(kraft(&count), 1 << limit);
    // The rarest symbols (first in `syms`) take the longest codes.
    let mut out = vec![0u8; freq.len()];
    let mut next = syms.iter();
    for l in (1..=limit).rev() {
        for _ in 0..count[l] {
            out[*next.next().expect("as many lengths as symbols")] = l as u8;
        }
    }
    out
}

/// RFC 1951's canonical codes for `lengths`, bit-reversed.
fn canonical(lengths: &[u8]) -> Vec<u16> {
    let max = lengths.iter().copied().max().unwrap_or(0) as usize;
    let mut count = vec![0u16; max + 1];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = vec![0u16; max + 2];
    let mut code = 0u16;
    for l in 1..=max {
        code = (code + count[l - 1]) << 1;
        next[l] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kraft(lengths: &[u8]) -> f64 {
        lengths
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 0.5f64.powi(l as i32))
            .sum()
    }

    /// Fibonacci counts make an unlimited tree as deep as it can be: the limit
    /// must hold, the code stay complete, and no rarer symbol get a shorter
    /// code than a more frequent one.
    #[test]
    fn deep_trees_are_limited_and_stay_complete() {
        let mut freq = vec![0u32; 286];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut().take(30) {
            *f = a;
            (a, b) = (b, a + b);
        }
        for limit in [7u8, 15] {
            let l = lengths(&freq, limit);
            assert!(l.iter().all(|&x| x <= limit));
            assert_eq!(kraft(&l), 1.0);
            for i in 0..30 {
                for j in 0..30 {
                    if freq[i] < freq[j] {
                        assert!(l[i] >= l[j], "{i} {j}: {} {}", l[i], l[j]);
                    }
                }
            }
        }
        // Unlimited, the same counts give a 29-bit code.
        assert_eq!(lengths(&freq, 40).iter().max(), Some(&29));
    }

    #[test]
    fn one_symbol_borrows_a_second_and_equal_counts_share_a_length() {
        let mut freq = vec![0u32; 19];
        freq[7] = 100;
        let l = lengths(&freq, 7);
        assert_eq!((l[0], l[7]), (1, 1));
        assert_eq!(l.iter().filter(|&&x| x > 0).count(), 2);
        let l = lengths(&[5; 8], 15);
        assert_eq!(l, vec![3; 8]);
    }

    /// RFC 1951 §3.2.2's example: lengths (3, 3, 3, 3, 3, 2, 4, 4) give codes
    /// 010, 011, 100, 101, 110, 00, 1110, 1111 (shown here reversed).
    #[test]
    fn canonical_codes_follow_the_rfc_example() {
        let bits = canonical(&[3, 3, 3, 3, 3, 2, 4, 4]);
        let want = [0b010u16, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111];
        let lens = [3, 3, 3, 3, 3, 2, 4, 4];
        for i in 0..8 {
            assert_eq!(bits[i], want[i].reverse_bits() >> (16 - lens[i]), "{i}");
        }
    }
}
