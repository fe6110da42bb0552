//! [RFC 4648 §5](https://www.rfc-editor.org/rfc/rfc4648#section-5) base64url of the 16 octets, then four zero bits.

use super::digits::{fold_bits, put_digits};
use super::{alphabet, Encoding};

/// [RFC 4648 §5](https://www.rfc-editor.org/rfc/rfc4648#section-5), Table 2: the "URL and Filename safe" base64 alphabet.
const BASE64URL: [u8; 64] = alphabet(Encoding::Base64Url);

#[inline]
pub(super) fn base64url(v: u128) -> [u8; 22] {
    // 132 bits: 60, 60 and 12 of them, the last four zero.
    let mut out = [0u8; 22];
    put_digits((v >> 68) as u64, 6, &BASE64URL, &mut out[..10]);
    put_digits(
        ((v >> 8) as u64) & ((1 << 60) - 1),
        6,
        &BASE64URL,
        &mut out[10..20],
    );
    put_digits(((v as u64) & 0xFF) << 4, 6, &BASE64URL, &mut out[20..]);
    out
}

#[inline]
pub(super) fn base64url_decode(s: &[u8; 22], table: &[u8; 256]) -> Option<u128> {
    let (a, sa) = fold_bits(&s[..10], table, 6);
    let (b, sb) = fold_bits(&s[10..20], table, 6);
    let (c, sc) = fold_bits(&s[20..], table, 6);
    ((sa | sb | sc) & 0x80 == 0 && c.trailing_zeros() >= 4)
        .then(|| (u128::from(a) << 68) | (u128::from(b) << 8) | u128::from(c >> 4))
}
