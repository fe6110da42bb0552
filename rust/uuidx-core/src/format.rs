//! Text forms of a UUID (RFC 9562 §4): hyphenated in lower or upper case, hex digits only,
//! braced and URN. Each encoder writes into a fixed-size byte array, so no allocation is
//! needed on the hot path.

use crate::Uuid;
use core::fmt;

const LOWER: &[u8; 16] = b"0123456789abcdef";
const UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// A text form of a UUID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `f81d4fae-7dec-11d0-a765-00a0c91e6bf6` (36 characters, RFC 9562 §4).
    Hyphenated,
    /// `f81d4fae7dec11d0a76500a0c91e6bf6` (32 characters, Python's `UUID.hex`).
    Simple,
    /// `{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}` (38 characters).
    Braced,
    /// `urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6` (45 characters, RFC 9562 §4).
    Urn,
}

impl Format {
    /// All forms, for iteration in tests and bindings.
    pub const ALL: [Self; 4] = [Self::Hyphenated, Self::Simple, Self::Braced, Self::Urn];

    /// The form's name: `hyphenated`, `simple`, `braced` or `urn`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Hyphenated => "hyphenated",
            Self::Simple => "simple",
            Self::Braced => "braced",
            Self::Urn => "urn",
        }
    }

    /// The form with this name.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an unknown name.
    pub fn from_name(name: &str) -> crate::Result<Self> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                crate::Error::new(crate::ErrorKind::InvalidOption {
                    option: "format",
                    value: format!("{:?}", crate::error::shorten(name)),
                    expected: "one of 'hyphenated', 'simple', 'braced', 'urn'",
                })
            })
    }
}

/// The two hex digits of every byte, in the case of `alphabet`: one table look-up per byte.
const fn digit_pairs(alphabet: &[u8; 16]) -> [[u8; 2]; 256] {
    let mut table = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = [alphabet[b >> 4], alphabet[b & 0xF]];
        b += 1;
    }
    table
}

const LOWER_PAIRS: [[u8; 2]; 256] = digit_pairs(LOWER);
const UPPER_PAIRS: [[u8; 2]; 256] = digit_pairs(UPPER);

/// Writes the 32 hex digits of `uuid` into `out`.
#[inline]
fn hex_into(uuid: Uuid, alphabet: &[u8; 16], out: &mut [u8; 32]) {
    let pairs = if alphabet == UPPER {
        &UPPER_PAIRS
    } else {
        &LOWER_PAIRS
    };
    for (digits, b) in out.chunks_exact_mut(2).zip(uuid.to_bytes()) {
        digits.copy_from_slice(&pairs[b as usize]);
    }
}

/// The 36-byte hyphenated form, lower case unless `upper`.
///
/// # Examples
/// ```
/// let u = uuidx_core::Uuid::from_u128(0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6);
/// assert_eq!(&uuidx_core::format::hyphenated(u, false), b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// ```
#[inline]
pub fn hyphenated(uuid: Uuid, upper: bool) -> [u8; 36] {
    let mut digits = [0u8; 32];
    hex_into(uuid, if upper { UPPER } else { LOWER }, &mut digits);
    let mut out = [b'-'; 36];
    out[0..8].copy_from_slice(&digits[0..8]);
    out[9..13].copy_from_slice(&digits[8..12]);
    out[14..18].copy_from_slice(&digits[12..16]);
    out[19..23].copy_from_slice(&digits[16..20]);
    out[24..36].copy_from_slice(&digits[20..32]);
    out
}

/// The 32 hex digits, lower case unless `upper`.
#[inline]
pub fn simple(uuid: Uuid, upper: bool) -> [u8; 32] {
    let mut out = [0u8; 32];
    hex_into(uuid, if upper { UPPER } else { LOWER }, &mut out);
    out
}

/// `uuid` in `format` and case, as a `String`.
///
/// # Examples
/// ```
/// use uuidx_core::{format::{encode, Format}, Uuid};
/// let u = Uuid::from_u128(0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6);
/// assert_eq!(encode(u, Format::Urn, false), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// assert_eq!(encode(u, Format::Braced, true), "{F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6}");
/// ```
pub fn encode(uuid: Uuid, format: Format, upper: bool) -> String {
    let text = |bytes: &[u8]| bytes.iter().map(|&b| char::from(b)).collect::<String>();
    match format {
        Format::Hyphenated => text(&hyphenated(uuid, upper)),
        Format::Simple => text(&simple(uuid, upper)),
        Format::Braced => format!("{{{}}}", text(&hyphenated(uuid, upper))),
        Format::Urn => format!("urn:uuid:{}", text(&hyphenated(uuid, upper))),
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = hyphenated(*self, false);
        f.write_str(core::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form() {
        let u = Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
        assert_eq!(
            encode(u, Format::Hyphenated, false),
            "01234567-89ab-cdef-0123-456789abcdef"
        );
        assert_eq!(
            encode(u, Format::Hyphenated, true),
            "01234567-89AB-CDEF-0123-456789ABCDEF"
        );
        assert_eq!(
            encode(u, Format::Simple, false),
            "0123456789abcdef0123456789abcdef"
        );
        assert_eq!(
            encode(u, Format::Braced, false),
            "{01234567-89ab-cdef-0123-456789abcdef}"
        );
        assert_eq!(
            encode(u, Format::Urn, false),
            "urn:uuid:01234567-89ab-cdef-0123-456789abcdef"
        );
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()).unwrap(), f);
        }
        assert!(Format::from_name("HYPHENATED").is_err());
    }
}
