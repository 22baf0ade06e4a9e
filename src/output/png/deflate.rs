//! The zlib stream of a PNG's filtered rows: runs of one repeated byte become
//! deflate matches at distance 1, every other byte a literal, with Huffman codes
//! built for the image (RFC 1950, RFC 1951).
//!
//! Up-filtered diagrams are mostly runs: zeros where a row repeats the row above,
//! and one repeated value across a horizontal edge or along a gray one. fdeflate,
//! which this replaces, also codes zero runs, but with one fixed Huffman table
//! for any PNG and no other runs; the image's own codes and runs of any byte
//! take the default sweep's diagrams from 22.2 to 12.3 KB (zlib's `Z_RLE`
//! strategy makes a stream of the same kind). The rows are scanned into literals
//! and matches while their symbols are counted; every 64 Ki of them (a diagram
//! has about 15 Ki), and at the end, the codes are built from the counts and a
//! block written, so memory stays bounded whatever the image.

use super::huffman::Code;
use std::ops::Range;

/// Longest deflate match.
const MAX_MATCH: u32 = 258;
/// End-of-block symbol.
const EOB: usize = 256;
/// Literals and matches a block holds before it is written.
const BLOCK: usize = 1 << 16;
/// Tokens from here on are matches.
const MATCH: u16 = 256;

/// Each match length's symbol (257..=285) and extra bits: `(symbol, count, value)`.
const LENGTHS: [(u16, u8, u16); 259] = length_table();

const fn length_table() -> [(u16, u8, u16); 259] {
    // RFC 1951 §3.2.5: the first length of each symbol and its extra bits.
    const BASE: [u16; 29] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ];
    const EXTRA: [u8; 29] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ];
    let mut t = [(0u16, 0u8, 0u16); 259];
    let mut s = 0;
    let mut len = 3;
    while len <= 258 {
        while s + 1 < 29 && BASE[s + 1] <= len as u16 {
            s += 1;
        }
        t[len] = (257 + s as u16, EXTRA[s], len as u16 - BASE[s]);
        len += 1;
    }
    t
}

/// Order in which the code-length code's lengths are stored.
const CL_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Scans rows into literals and runs, and writes them a block at a time.
pub(super) struct Deflater {
    out: BitWriter,
    /// The block so far: a literal byte (< 256), or a match of `t - 253`
    /// bytes (`MATCH + length - 3`).
    tokens: Vec<u16>,
    freq: [u32; 286],
    adler: simd_adler32::Adler32,
    /// The last byte seen (`None` before the first).
    last: Option<u8>,
    /// Copies of `last` seen since its literal, not yet a match.
    run: u32,
    /// Zero bytes written but not yet added to `adler`.
    zeros: u64,
}

impl Deflater {
    /// A deflater expecting about `bytes` of output.
    pub(super) fn new(bytes: usize) -> Self {
        let mut out = BitWriter::new(bytes);
        // The zlib header: deflate with a 32 KiB window, no dictionary.
        out.reserve(2);
        out.put(0x0178, 16);
        Deflater {
            out,
            tokens: Vec::with_capacity(bytes.min(BLOCK)),
            freq: [0; 286],
            adler: simd_adler32::Adler32::new(),
            last: None,
            run: 0,
            zeros: 0,
        }
    }

    /// Appends a filtered row: its filter byte, then `row`, all of whose bytes
    /// outside `span` are zero. Those zeros are not read: the Adler-32 of
    /// zeros is arithmetic (its sum `a` stays, `b` grows by `n·a`), and they
    /// extend a zero run; the zeros after `span` are added to the checksum
    /// with the next row's.
    pub(super) fn write_row(&mut self, filter: u8, row: &[u8], span: Range<usize>) {
        self.fold(Some(filter), span.start);
        self.adler.write(&row[span.clone()]);
        self.zeros = (row.len() - span.end) as u64;
        self.bytes(&[filter]);
        self.zero_run(span.start);
        self.scan(&row[span.clone()]);
        self.zero_run(row.len() - span.end);
        self.after_row();
    }

    /// Bounds what a row leaves pending: a long run is coded so far (it goes
    /// on after its matches), and a full block is written.
    fn after_row(&mut self) {
        if self.run >= 1 << 30 {
            self.code_run();
        }
        if self.tokens.len() >= BLOCK {
            self.write_block(false);
        }
    }

    /// Adds to the checksum the zeros not yet in it, then `byte` (if any) and
    /// `zeros` more zero bytes, without reading them.
    fn fold(&mut self, byte: Option<u8>, zeros: usize) {
        const MOD: u64 = 65_521;
        let sum = self.adler.finish();
        let (mut a, mut b) = (u64::from(sum & 0xffff), u64::from(sum >> 16));
        b += std::mem::take(&mut self.zeros) % MOD * a;
        if let Some(byte) = byte {
            a = (a + u64::from(byte)) % MOD;
            b += a;
        }
        b += zeros as u64 % MOD * a;
        self.adler = simd_adler32::Adler32::from_checksum(((b % MOD) << 16 | a) as u32);
    }

    /// Appends `data` (a filtered row, filter byte first) to the stream.
    pub(super) fn write(&mut self, data: &[u8]) {
        self.fold(None, 0);
        self.adler.write(data);
        self.scan(data);
        self.after_row();
    }

    /// Codes `data`.
    ///
    /// While a run lasts, 32 bytes at a time are compared with it. Otherwise
    /// eight bytes at a time are each compared with the byte before it (a
    /// shifted copy of the chunk, XOR): all equal extends the run, all
    /// different is eight literals, and only a mixed chunk goes byte by byte.
    fn scan(&mut self, data: &[u8]) {
        let data = match (self.last, data.split_first()) {
            (None, Some((&first, rest))) => {
                self.literal(first);
                rest
            }
            _ => data,
        };
        let Some(mut last) = self.last else { return };
        let word = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().expect("8 bytes"));
        let mut i = 0;
        while i + 8 <= data.len() {
            let chunk = &data[i..i + 8];
            let x = word(i);
            let diff = x ^ (x << 8 | u64::from(last));
            if diff == 0 {
                // The run goes on: skip ahead over whole blocks of it.
                let same = data[i + 8..]
                    .chunks_exact(32)
                    .take_while(|b| b.iter().fold(0, |acc, &x| acc | (x ^ last)) == 0)
                    .count();
                self.run += 8 + 32 * same as u32;
                i += 8 + 32 * same;
                continue;
            } else if !has_zero_byte(diff) {
                self.end_run();
                self.tokens.extend(chunk.iter().map(|&b| u16::from(b)));
                for &b in chunk {
                    self.freq[b as usize] += 1;
                }
                self.last = Some(chunk[7]);
            } else {
                self.bytes(chunk);
            }
            last = chunk[7];
            i += 8;
        }
        self.bytes(&data[i..]);
    }

    /// Codes `n` zero bytes.
    fn zero_run(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        if self.last == Some(0) {
            self.run += n as u32;
        } else {
            self.end_run();
            self.literal(0);
            self.run += n as u32 - 1;
        }
    }

    /// `data` byte by byte (the first byte of the stream is a literal).
    fn bytes(&mut self, data: &[u8]) {
        for &b in data {
            if Some(b) == self.last {
                self.run += 1;
                continue;
            }
            // A run of 1 or 2 (a gray pixel's equal samples, commonly) is
            // too short for a match: `code_run` makes it literals.
            self.end_run();
            self.literal(b);
        }
    }

    fn literal(&mut self, b: u8) {
        self.tokens.push(u16::from(b));
        self.freq[b as usize] += 1;
        self.last = Some(b);
    }

    /// Codes the pending run of `last`: matches of up to 258 bytes, and
    /// literals for a remainder shorter than deflate's shortest match (3).
    #[inline]
    fn end_run(&mut self) {
        if self.run > 0 {
            self.code_run();
        }
    }

    fn code_run(&mut self) {
        let mut run = std::mem::take(&mut self.run);
        while run >= 3 {
            let len = run.min(MAX_MATCH);
            // Not leaving 1 or 2 bytes that a shorter match would have covered.
            let len = if run - len > 0 && run - len < 3 {
                len - 3
            } else {
                len
            };
            self.tokens.push(MATCH + (len - 3) as u16);
            self.freq[LENGTHS[len as usize].0 as usize] += 1;
            run -= len;
        }
        if run > 0 {
            let last = self.last.expect("a run follows a literal");
            self.tokens
                .extend(std::iter::repeat_n(u16::from(last), run as usize));
            self.freq[last as usize] += run;
        }
    }

    /// The whole zlib stream: header, the blocks, Adler-32.
    pub(super) fn finish(mut self) -> Vec<u8> {
        self.fold(None, 0);
        self.end_run();
        self.write_block(true);
        let mut bytes = self.out.finish();
        bytes.extend_from_slice(&self.adler.finish().to_be_bytes());
        bytes
    }

    /// Writes what was scanned so far as one block with codes made for it. A
    /// run still pending goes to the next block (its matches may reach back).
    fn write_block(&mut self, last: bool) {
        self.freq[EOB] += 1;
        let lit = Code::new(&self.freq, 15);
        // A local writer, so that its state stays in registers.
        let mut out = std::mem::replace(&mut self.out, BitWriter::new(0));
        // The header, then room for the worst case: 15 bits a literal, 21 a
        // match, 15 for the end of the block.
        out.reserve(1024);
        // BFINAL, then BTYPE = 2 (dynamic Huffman codes).
        out.put(u64::from(last) | 0b100, 3);
        write_codes(&mut out, &lit.lengths);
        out.reserve((21 * self.tokens.len() + 15) / 8 + 8);
        // Each token's bits and their count (bits 24..): a literal's code, or a
        // match length's code, extra bits and distance code (0, one zero bit).
        let mut table = [0u32; 512];
        for (b, t) in table.iter_mut().enumerate().take(256) {
            *t = u32::from(lit.bits[b]) | u32::from(lit.lengths[b]) << 24;
        }
        for len in 3..=MAX_MATCH as usize {
            let (sym, extra, value) = LENGTHS[len];
            let n = u32::from(lit.lengths[sym as usize]);
            let bits = u32::from(lit.bits[sym as usize]) | u32::from(value) << n;
            table[usize::from(MATCH) + len - 3] = bits | (n + u32::from(extra) + 1) << 24;
        }
        // Two tokens a `put`: at most 2 × 21 bits.
        let mut pairs = self.tokens.chunks_exact(2);
        for p in &mut pairs {
            let (a, b) = (table[usize::from(p[0])], table[usize::from(p[1])]);
            let na = a >> 24;
            out.put(
                u64::from(a & 0xff_ffff) | u64::from(b & 0xff_ffff) << na,
                na + (b >> 24),
            );
        }
        for &t in pairs.remainder() {
            let a = table[usize::from(t)];
            out.put(u64::from(a & 0xff_ffff), a >> 24);
        }
        out.put(u64::from(lit.bits[EOB]), u32::from(lit.lengths[EOB]));
        self.out = out;
        self.tokens.clear();
        self.freq = [0; 286];
    }
}

/// Whether any of the eight bytes of `x` is zero.
fn has_zero_byte(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    x.wrapping_sub(ONES) & !x & (ONES << 7) != 0
}

/// The block header after BTYPE: the literal/length code's lengths and the
/// distance code's (one code, distance 1, of one bit, which RFC 1951 §3.2.7
/// allows), run-length coded with the code-length code.
fn write_codes(out: &mut BitWriter, lit: &[u8]) {
    let nlit = 257.max(lit.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1));
    let mut lengths = lit[..nlit].to_vec();
    lengths.push(1);
    let ops = run_length(&lengths);
    let mut freq = [0u32; 19];
    for &(sym, _) in &ops {
        freq[sym as usize] += 1;
    }
    let cl = Code::new(&freq, 7);
    let ncl = 4.max(
        CL_ORDER
            .iter()
            .rposition(|&s| cl.lengths[s] > 0)
            .map_or(0, |i| i + 1),
    );
    out.put((nlit - 257) as u64, 5);
    out.put(0, 5); // one distance code
    out.put((ncl - 4) as u64, 4);
    for &s in &CL_ORDER[..ncl] {
        out.put(u64::from(cl.lengths[s]), 3);
    }
    for (sym, extra) in ops {
        let s = sym as usize;
        out.put(u64::from(cl.bits[s]), u32::from(cl.lengths[s]));
        let n = match sym {
            16 => 2,
            17 => 3,
            18 => 7,
            _ => 0,
        };
        out.put(u64::from(extra), n);
    }
}

/// Code lengths as code-length symbols with their extra bits: 0–15 a length,
/// 16 the previous length 3–6 times, 17 zero 3–10 times, 18 zero 11–138 times.
fn run_length(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut ops = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let n = lengths[i..].iter().take_while(|&&x| x == l).count();
        i += n;
        let mut left = n;
        if l == 0 {
            while left >= 11 {
                let k = left.min(138);
                ops.push((18, (k - 11) as u8));
                left -= k;
            }
            if left >= 3 {
                ops.push((17, (left - 3) as u8));
                left = 0;
            }
        } else {
            ops.push((l, 0));
            left -= 1;
            while left >= 3 {
                let k = left.min(6);
                ops.push((16, (k - 3) as u8));
                left -= k;
            }
        }
        ops.extend(std::iter::repeat_n((l, 0), left));
    }
    ops
}

/// Bits packed least significant first, as deflate wants them.
///
/// Each `put` stores the whole 64-bit accumulator at the end of the written
/// bytes and then advances past the complete bytes only: no branch on how
/// many bits are pending.
struct BitWriter {
    bytes: Vec<u8>,
    /// Complete bytes written.
    len: usize,
    acc: u64,
    /// Bits pending in `acc` (< 8 between calls).
    n: u32,
}

impl BitWriter {
    fn new(capacity: usize) -> Self {
        BitWriter {
            bytes: vec![0; capacity],
            len: 0,
            acc: 0,
            n: 0,
        }
    }

    /// Makes room for `bytes` more bytes (and the 8 that `put` stores).
    fn reserve(&mut self, bytes: usize) {
        let want = self.len + bytes + 8;
        if self.bytes.len() < want {
            self.bytes.resize(want.max(2 * self.bytes.len()), 0);
        }
    }

    /// Appends the low `n` (≤ 56) bits of `bits`, within the room reserved.
    #[inline]
    fn put(&mut self, bits: u64, n: u32) {
        debug_assert!(n <= 56 && bits >> n == 0);
        self.acc |= bits << self.n;
        self.n += n;
        self.bytes[self.len..self.len + 8].copy_from_slice(&self.acc.to_le_bytes());
        let whole = self.n / 8;
        self.len += whole as usize;
        self.acc >>= 8 * whole;
        self.n -= 8 * whole;
    }

    /// The bytes, the last one padded with zero bits.
    fn finish(mut self) -> Vec<u8> {
        self.bytes.truncate(self.len + self.n.div_ceil(8) as usize);
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn deflate(rows: &[&[u8]]) -> Vec<u8> {
        let mut d = Deflater::new(16);
        for r in rows {
            d.write(r);
        }
        d.finish()
    }

    /// Inflated by flate2 (an independent decoder), which also checks the
    /// Adler-32.
    fn inflate(z: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(z)
            .read_to_end(&mut out)
            .expect("a valid zlib stream");
        out
    }

    #[test]
    fn runs_of_every_length_and_byte_round_trip() {
        let mut data = Vec::new();
        for len in 0..600 {
            let b = (len % 7) as u8 * 40;
            data.extend(std::iter::repeat_n(b, len));
            data.push(b.wrapping_add(1));
        }
        // Split at odd places: runs continue across writes.
        let rows: Vec<&[u8]> = data.chunks(997).collect();
        assert!(data.len() > 170_000);
        let z = deflate(&rows);
        assert_eq!(inflate(&z), data);
        assert!(z.len() < data.len() / 20, "{} of {}", z.len(), data.len());
    }

    #[test]
    fn noise_a_single_byte_and_zeros_round_trip() {
        let mut x = 7u32;
        let noise: Vec<u8> = (0..100_000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (x >> 16) as u8
            })
            .collect();
        // The noise spans blocks (one write of 100,000 tokens, then more).
        let rows: Vec<&[u8]> = vec![&noise, &noise[..50_000], &noise[..70_000]];
        assert_eq!(
            inflate(&deflate(&rows)),
            [&noise[..], &noise[..50_000], &noise[..70_000]].concat()
        );
        for data in [vec![2], vec![0; 1 << 20], vec![9, 9]] {
            assert_eq!(inflate(&deflate(&[&data])), data);
        }
    }

    /// Rows given with the span outside which they are zero, as the encoder
    /// gives them: the zeros are counted, not read, and the checksum still
    /// matches (flate2 checks it); rows mixed with plain writes.
    #[test]
    fn rows_with_zero_margins_round_trip() {
        let mut x = 99u32;
        let mut next = move |m: u32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 16) % m
        };
        let mut d = Deflater::new(16);
        let mut want = Vec::new();
        for r in 0..300 {
            let len = 1 + next(700) as usize;
            let (a, b) = (next(len as u32) as usize, next(len as u32) as usize);
            let span = a.min(b)..a.max(b);
            let mut row = vec![0u8; len];
            for v in &mut row[span.clone()] {
                // Runs of a few values, and zeros inside the span too.
                *v = [0, 0, 7, 7, 7, 200][next(6) as usize];
            }
            if r % 7 == 3 {
                want.push(1);
                want.extend_from_slice(&row);
                d.write(&[&[1], &row[..]].concat());
            } else {
                want.push(2);
                want.extend_from_slice(&row);
                d.write_row(2, &row, span);
            }
        }
        assert_eq!(inflate(&d.finish()), want);
    }

    #[test]
    fn length_symbols_follow_the_rfc_table() {
        assert_eq!(LENGTHS[3], (257, 0, 0));
        assert_eq!(LENGTHS[10], (264, 0, 0));
        assert_eq!(LENGTHS[12], (265, 1, 1));
        assert_eq!(LENGTHS[130], (280, 4, 15));
        assert_eq!(LENGTHS[257], (284, 5, 30));
        assert_eq!(LENGTHS[258], (285, 0, 0));
    }

    #[test]
    fn code_lengths_are_run_length_coded_and_expand_back() {
        let lengths: Vec<u8> =
            [vec![8; 20], vec![0; 150], vec![5; 2], vec![0; 4], vec![9]].concat();
        let ops = run_length(&lengths);
        let mut back: Vec<u8> = Vec::new();
        for (sym, extra) in ops {
            match sym {
                16 => {
                    let l = *back.last().unwrap();
                    back.extend(std::iter::repeat_n(l, 3 + extra as usize));
                }
                17 => back.extend(std::iter::repeat_n(0, 3 + extra as usize)),
                18 => back.extend(std::iter::repeat_n(0, 11 + extra as usize)),
                l => back.push(l),
            }
        }
        assert_eq!(back, lengths);
    }
}
