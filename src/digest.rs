//! SHA-256 as lower-case hex: the checksum of every file a run writes and reads back.

use sha2::{Digest, Sha256};

/// Hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push(char::from_digit(u32::from(b >> 4), 16).expect("a nibble"));
        hex.push(char::from_digit(u32::from(b & 0xf), 16).expect("a nibble"));
    }
    hex
}

/// FNV-1a (64 bit) of `text`'s UTF-8 bytes: a small, portable seed that follows
/// from a name (an image's id seeds its pixel steps and its sketch).
pub(crate) fn fnv1a64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The first 128 bits of the SHA-256 of `text`: a key that stands for it in a
/// table (two texts share one with probability about n²/2¹²⁹).
pub(crate) fn fingerprint(text: &str) -> u128 {
    let digest = Sha256::digest(text.as_bytes());
    u128::from_le_bytes(digest[..16].try_into().expect("16 bytes"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
