//! The hexadecimal writers behind the `hex`, `hyphenated`, `urn` and `braced` encodings
//! ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)), in lower or upper case. Each writes into a fixed-size byte array, so no
//! allocation is needed on the hot path; [`crate::parse`] reads them back.

use crate::Uuid;
use core::fmt;

/// A byte of value `b` in each of the 16 bytes of a `u128`.
const fn splat(b: u8) -> u128 {
    u128::from_ne_bytes([b; 16])
}

/// The 16 hex digits of `x`, most significant first, computed in one 128-bit register
/// (SWAR): each nibble is spread to a byte of its own, then turned into ASCII with a per-byte
/// comparison instead of a table lookup per nibble.
#[inline]
fn hex16(x: u64, upper: bool) -> [u8; 16] {
    let mut v = u128::from(x);
    v = ((v << 32) | v) & 0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF;
    v = ((v << 16) | v) & 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    v = ((v << 8) | v) & 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    v = ((v << 4) | v) & splat(0x0F);
    // Byte k now holds nibble k (from the least significant). A nibble of 10 or more sets bit 7
    // of its byte once 0x76 is added (no byte carries: 15 + 0x76 < 0x100).
    let letters = ((v + splat(0x76)) >> 7) & splat(0x01);
    let gap = if upper {
        b'A' - b'9' - 1
    } else {
        b'a' - b'9' - 1
    };
    let ascii = v + splat(b'0') + letters * u128::from(gap);
    ascii.to_be_bytes()
}

/// The 32 hex digits of `uuid`, most significant first.
#[inline]
fn hex32(uuid: Uuid, upper: bool) -> [u8; 32] {
    let value = uuid.as_u128();
    let mut out = [0u8; 32];
    out[..16].copy_from_slice(&hex16((value >> 64) as u64, upper));
    out[16..].copy_from_slice(&hex16(value as u64, upper));
    out
}

/// The 36-byte hyphenated form, lower case unless `upper`.
///
/// # Examples
/// ```
/// let u = uuidx_core::Uuid::from_u128(0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6);
/// assert_eq!(&uuidx_core::encoding::hex::hyphenated(u, false), b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// ```
#[inline]
pub fn hyphenated(uuid: Uuid, upper: bool) -> [u8; 36] {
    let digits = hex32(uuid, upper);
    let mut out = [b'-'; 36];
    out[0..8].copy_from_slice(&digits[0..8]);
    out[9..13].copy_from_slice(&digits[8..12]);
    out[14..18].copy_from_slice(&digits[12..16]);
    out[19..23].copy_from_slice(&digits[16..20]);
    out[24..36].copy_from_slice(&digits[20..32]);
    out
}

/// The 32 hex digits (Python's `UUID.hex`), lower case unless `upper`.
///
/// # Examples
/// ```
/// let u = uuidx_core::Uuid::from_u128(0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6);
/// assert_eq!(&uuidx_core::encoding::hex::digits(u, true), b"F81D4FAE7DEC11D0A76500A0C91E6BF6");
/// ```
#[inline]
pub fn digits(uuid: Uuid, upper: bool) -> [u8; 32] {
    hex32(uuid, upper)
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
    fn hyphenated_in_either_case() {
        let u = Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
        assert_eq!(
            &hyphenated(u, false),
            b"01234567-89ab-cdef-0123-456789abcdef"
        );
        assert_eq!(
            &hyphenated(u, true),
            b"01234567-89AB-CDEF-0123-456789ABCDEF"
        );
        assert_eq!(u.to_string(), "01234567-89ab-cdef-0123-456789abcdef");
    }

    #[test]
    fn swar_hex_matches_the_standard_library_on_every_nibble_position() {
        // Each nibble value in each position, and the edges.
        let mut values = vec![0u128, u128::MAX, 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210];
        for position in 0..32 {
            for nibble in 0..16u128 {
                values.push(nibble << (4 * position));
                values.push(u128::MAX ^ (nibble << (4 * position)));
            }
        }
        for v in values {
            let u = Uuid::from_u128(v);
            assert_eq!(digits(u, false), format!("{v:032x}").as_bytes(), "{v:x}");
            assert_eq!(digits(u, true), format!("{v:032X}").as_bytes(), "{v:x}");
        }
    }
}
