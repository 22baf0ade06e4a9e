//! PNG's `Up` filter taken straight from RGBA rows: each sample minus the sample
//! above it (bytewise, wrapping), alpha dropped for RGB, in one pass that reads
//! each row of the image once. Subtracting before dropping alpha is the same as
//! after: the filter works byte by byte.

use std::ops::Range;

/// `out = cur − prev` on the RGB samples of the RGBA rows `cur` and `prev`
/// (`out` holds 3 bytes a pixel), and a range of `out` outside which every
/// byte is zero (where the row repeats the one above: the deflater skips
/// those bytes without reading them). `None` when a pixel of `cur` is not
/// opaque; `out` is then unspecified.
pub(super) fn rgb(cur: &[u8], prev: &[u8], out: &mut [u8]) -> Option<Range<usize>> {
    assert!(
        cur.len().is_multiple_of(4) && prev.len() == cur.len() && out.len() == cur.len() / 4 * 3
    );
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: this CPU has AVX2 (checked just above); the lengths were checked.
        return unsafe { rgb_avx2(cur, prev, out) };
    }
    rgb_scalar(cur, prev, out).then(|| nonzero(out, 0))
}

/// The bytes of `out` from its first nonzero one at or after `from` to its
/// last nonzero one (empty at `from` if there is none).
fn nonzero(out: &[u8], from: usize) -> Range<usize> {
    match out[from..].iter().position(|&b| b != 0) {
        Some(first) => {
            let last = out.iter().rposition(|&b| b != 0).expect("a nonzero byte");
            from + first..last + 1
        }
        None => from..from,
    }
}

/// `out = cur − prev` on whole RGBA rows (the compiler vectorises it).
pub(super) fn rgba(cur: &[u8], prev: &[u8], out: &mut [u8]) {
    for ((o, c), p) in out.iter_mut().zip(cur).zip(prev) {
        *o = c.wrapping_sub(*p);
    }
}

fn rgb_scalar(cur: &[u8], prev: &[u8], out: &mut [u8]) -> bool {
    let mut alpha = 255u8;
    for ((o, c), p) in out
        .chunks_exact_mut(3)
        .zip(cur.chunks_exact(4))
        .zip(prev.chunks_exact(4))
    {
        o[0] = c[0].wrapping_sub(p[0]);
        o[1] = c[1].wrapping_sub(p[1]);
        o[2] = c[2].wrapping_sub(p[2]);
        alpha &= c[3];
    }
    alpha == 255
}

/// Eight pixels a step: subtract, then one byte shuffle per 128-bit lane packs
/// its four pixels' RGB into the lane's first 12 bytes; each lane is stored as
/// 16 bytes, the last 4 of which the next store overwrites. The steps whose
/// difference is not all zero bound the range returned. The rest of the row
/// goes through [`rgb_scalar`].
///
/// # Safety
/// The CPU must have AVX2; `prev.len() == cur.len() == 4n`, `out.len() == 3n`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rgb_avx2(cur: &[u8], prev: &[u8], out: &mut [u8]) -> Option<Range<usize>> {
    use std::arch::x86_64::*;
    let n = cur.len() / 4;
    #[rustfmt::skip]
    let pack = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
    );
    let alpha = _mm256_set1_epi32(0xff00_0000_u32 as i32);
    let mut all = _mm256_set1_epi8(-1);
    // Pixels [first, last) hold every nonzero step so far.
    let (mut first, mut last) = (usize::MAX, 0);
    let mut i = 0;
    // A step writes out[3i .. 3i + 28]: in bounds while 3i + 28 <= 3n.
    while i + 10 <= n {
        // SAFETY: pixels i..i + 8 are in `cur` and `prev` (i + 10 <= n), and
        // 3i + 28 <= 3n bytes of `out`; unaligned loads and stores.
        unsafe {
            let c = _mm256_loadu_si256(cur.as_ptr().add(4 * i).cast());
            let p = _mm256_loadu_si256(prev.as_ptr().add(4 * i).cast());
            all = _mm256_and_si256(all, c);
            let diff = _mm256_sub_epi8(c, p);
            if _mm256_testz_si256(diff, diff) == 0 {
                first = first.min(i);
                last = i + 8;
            }
            let d = _mm256_shuffle_epi8(diff, pack);
            let o = out.as_mut_ptr().add(3 * i);
            _mm_storeu_si128(o.cast(), _mm256_castsi256_si128(d));
            _mm_storeu_si128(o.add(12).cast(), _mm256_extracti128_si256::<1>(d));
        }
        i += 8;
    }
    let opaque = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(all, alpha), alpha)) == -1;
    if !(rgb_scalar(&cur[4 * i..], &prev[4 * i..], &mut out[3 * i..]) && opaque) {
        return None;
    }
    // The tail, from the scalar pass, is scanned.
    let tail = nonzero(out, 3 * i);
    Some(if first == usize::MAX {
        tail
    } else if tail.is_empty() {
        3 * first..3 * last
    } else {
        3 * first..tail.end
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row length from 0 to 40 pixels (the wide steps and every tail), and a
    /// translucent pixel at each position, against the scalar pass.
    #[test]
    fn the_wide_pass_matches_the_scalar_one() {
        for n in 0..40usize {
            let cur: Vec<u8> = (0..4 * n)
                .map(|i| {
                    if i % 4 == 3 {
                        255
                    } else {
                        (i * 53 % 251) as u8
                    }
                })
                .collect();
            let prev: Vec<u8> = (0..4 * n).map(|i| (i * 29 % 256) as u8).collect();
            let mut want = vec![0u8; 3 * n];
            assert!(rgb_scalar(&cur, &prev, &mut want));
            for (k, w) in want.iter().enumerate() {
                assert_eq!(
                    *w,
                    cur[k / 3 * 4 + k % 3].wrapping_sub(prev[k / 3 * 4 + k % 3])
                );
            }
            let mut got = vec![7u8; 3 * n];
            assert!(rgb(&cur, &prev, &mut got).is_some(), "{n} px");
            assert_eq!(got, want, "{n} px");
            for t in 0..n {
                let mut translucent = cur.clone();
                translucent[4 * t + 3] = 254;
                assert!(
                    rgb(&translucent, &prev, &mut got).is_none(),
                    "{n} px, pixel {t}"
                );
            }
        }
    }

    /// Rows equal to the one above but for one pixel (or none), at every
    /// position: every byte outside the range returned is zero.
    #[test]
    fn the_range_holds_every_nonzero_byte() {
        for n in [0usize, 1, 9, 10, 17, 40] {
            let prev: Vec<u8> = (0..4 * n)
                .map(|i| if i % 4 == 3 { 255 } else { i as u8 })
                .collect();
            for t in (0..n).map(Some).chain([None]) {
                let mut cur = prev.clone();
                if let Some(t) = t {
                    cur[4 * t + 1] ^= 0x40;
                }
                let mut out = vec![7u8; 3 * n];
                let range = rgb(&cur, &prev, &mut out).expect("opaque");
                assert!(range.start <= range.end && range.end <= out.len());
                let outside = out[..range.start].iter().chain(&out[range.end..]);
                assert!(outside.into_iter().all(|&b| b == 0), "{n} px, pixel {t:?}");
                match t {
                    Some(t) => assert!(range.contains(&(3 * t + 1)), "{n} px, pixel {t}"),
                    None => assert!(range.is_empty() || out[range].iter().all(|&b| b == 0)),
                }
            }
        }
    }

    #[test]
    fn rgba_rows_subtract_every_byte() {
        let (cur, prev) = ([1u8, 2, 3, 4, 0, 200], [2u8, 2, 1, 4, 1, 100]);
        let mut out = [0u8; 6];
        rgba(&cur, &prev, &mut out);
        assert_eq!(out, [255, 0, 2, 0, 255, 100]);
    }
}
