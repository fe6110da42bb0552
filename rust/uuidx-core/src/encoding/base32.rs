//! Base 32: Crockford's (the integer: `base32`, `ulid`, TypeID suffixes) and [RFC 4648 §7](https://www.rfc-editor.org/rfc/rfc4648#section-7)
//! base32hex (the octets).

use super::digits::{decoding_table, fold_bits, put_digits};
use super::{alphabet, Encoding, CROCKFORD};

/// Crockford's base32 alphabet, lower case (TypeID's suffix and the `base32` encoding).
pub(crate) const CROCKFORD_LOWER: [u8; 32] = alphabet(Encoding::Base32);
/// Crockford's base32 alphabet, upper case (the `ulid` encoding).
pub(super) const CROCKFORD_UPPER: [u8; 32] = alphabet(Encoding::Ulid);
/// [RFC 4648 §7](https://www.rfc-editor.org/rfc/rfc4648#section-7), Table 4: the "Extended Hex" base32 alphabet.
const BASE32HEX: [u8; 32] = alphabet(Encoding::Base32Hex);

/// TypeID's suffix: Crockford's digits in lower case only, no aliases.
pub(crate) static TYPEID_SUFFIX: [u8; 256] = decoding_table(CROCKFORD, false, &[]);

/// The 26 digits of a 130-bit number `w = hi << 100 | mid << 50 | lo`.
#[inline(always)]
fn base32_digits(hi: u64, mid: u64, lo: u64, alphabet: &[u8; 32]) -> [u8; 26] {
    let mut out = [0u8; 26];
    put_digits(hi, 5, alphabet, &mut out[..6]);
    put_digits(mid, 5, alphabet, &mut out[6..16]);
    put_digits(lo, 5, alphabet, &mut out[16..]);
    out
}

const MASK50: u128 = (1 << 50) - 1;

/// The value in Crockford's base32, 26 digits (the first one at most `7`).
#[inline]
pub(crate) fn crockford(v: u128, alphabet: &[u8; 32]) -> [u8; 26] {
    base32_digits(
        (v >> 100) as u64,
        ((v >> 50) & MASK50) as u64,
        (v & MASK50) as u64,
        alphabet,
    )
}

/// The 16 octets in base32hex: the value followed by two zero bits.
#[inline]
pub(super) fn base32hex(v: u128) -> [u8; 26] {
    base32_digits(
        (v >> 98) as u64,
        ((v >> 48) & MASK50) as u64,
        ((v << 2) & MASK50) as u64,
        &BASE32HEX,
    )
}

/// The 130-bit number of 26 base32 digits, as `(hi, mid, lo)` of 30, 50 and 50 bits, or
/// `None` if a byte is not a digit.
#[inline(always)]
fn base32_fold(s: &[u8; 26], table: &[u8; 256]) -> Option<(u64, u64, u64)> {
    let (hi, a) = fold_bits(&s[..6], table, 5);
    let (mid, b) = fold_bits(&s[6..16], table, 5);
    let (lo, c) = fold_bits(&s[16..], table, 5);
    ((a | b | c) & 0x80 == 0).then_some((hi, mid, lo))
}

/// Decodes 26 Crockford digits of at most 128 bits (the first digit at most `7`).
#[inline]
pub(crate) fn crockford_decode(s: &[u8; 26], table: &[u8; 256]) -> Option<u128> {
    let (hi, mid, lo) = base32_fold(s, table)?;
    (hi >> 28 == 0).then(|| (u128::from(hi) << 100) | (u128::from(mid) << 50) | u128::from(lo))
}

/// Decodes 26 base32hex digits whose last two bits are zero.
#[inline]
pub(super) fn base32hex_decode(s: &[u8; 26], table: &[u8; 256]) -> Option<u128> {
    let (hi, mid, lo) = base32_fold(s, table)?;
    (lo.trailing_zeros() >= 2)
        .then(|| (u128::from(hi) << 98) | (u128::from(mid) << 48) | u128::from(lo >> 2))
}
