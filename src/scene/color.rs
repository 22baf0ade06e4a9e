//! sRGB colours as written in Scenes: `#rrggbb` or `#rrggbbaa`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A non-premultiplied sRGB colour with 8-bit channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Color {
    pub(crate) const BLACK: Color = Color::rgb(0, 0, 0);
    pub(crate) const WHITE: Color = Color::rgb(255, 255, 255);

    pub(crate) const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    pub(crate) const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Self {
        Color { r, g, b, a }
    }

    /// `#rrggbb` when opaque, `#rrggbbaa` otherwise.
    pub(crate) fn to_hex(self) -> String {
        if self.a == 255 {
            format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
        } else {
            format!("#{:02x}{:02x}{:02x}{:02x}", self.r, self.g, self.b, self.a)
        }
    }
}

/// Why a colour string was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad colour {0:?}: expected #rrggbb or #rrggbbaa (hex digits)")]
pub struct ColorParseError(pub String);

impl FromStr for Color {
    type Err = ColorParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ColorParseError(s.to_string());
        let hex = s.strip_prefix('#').ok_or_else(err)?;
        if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(err());
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| err());
        let a = if hex.len() == 8 { byte(6)? } else { 255 };
        Ok(Color::rgba(byte(0)?, byte(2)?, byte(4)?, a))
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rgb_and_rgba() {
        assert_eq!("#4d80e6".parse(), Ok(Color::rgb(0x4d, 0x80, 0xe6)));
        assert_eq!("#FF000080".parse(), Ok(Color::rgba(255, 0, 0, 128)));
    }

    #[test]
    fn rejects_bad_colours() {
        for bad in [
            "", "#", "red", "#fff", "#12345", "#1234567", "#gg0000", "4d80e6", "#+1+2+3",
        ] {
            assert_eq!(
                bad.parse::<Color>(),
                Err(ColorParseError(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn hex_round_trips() {
        for c in [Color::rgb(1, 2, 3), Color::rgba(250, 128, 0, 7)] {
            assert_eq!(c.to_hex().parse(), Ok(c));
        }
    }
}
