//! What every digit codec shares: decoding tables, and digits of a fixed number of bits.

/// The value of a byte that is not a digit, in every decoding table.
pub(super) const INVALID: u8 = 0xFF;

/// The decoding table of `alphabet`: each byte's value as a digit, or [`INVALID`]. With
/// `fold_case`, letters decode in either case; each `(alias, digit)` reads `alias` (in either
/// case too, with `fold_case`) as `digit`.
pub(super) const fn decoding_table(
    alphabet: &str,
    fold_case: bool,
    aliases: &[(u8, u8)],
) -> [u8; 256] {
    let alphabet = alphabet.as_bytes();
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < alphabet.len() {
        set(&mut table, alphabet[i], i as u8, fold_case);
        i += 1;
    }
    let mut i = 0;
    while i < aliases.len() {
        let (alias, digit) = aliases[i];
        let value = table[digit as usize];
        set(&mut table, alias, value, fold_case);
        i += 1;
    }
    table
}

/// Reads `c` (and with `fold_case`, its other case) as `value`.
const fn set(table: &mut [u8; 256], c: u8, value: u8, fold_case: bool) {
    table[c as usize] = value;
    if fold_case {
        table[c.to_ascii_lowercase() as usize] = value;
        table[c.to_ascii_uppercase() as usize] = value;
    }
}

/// Writes the low `out.len() * bits` bits of `x` as digits of `bits` bits each.
#[inline(always)]
pub(super) fn put_digits(x: u64, bits: usize, alphabet: &[u8], out: &mut [u8]) {
    let n = out.len();
    let mask = (1 << bits) - 1;
    for (i, o) in out.iter_mut().enumerate() {
        *o = alphabet[((x >> (bits * (n - 1 - i))) & mask) as usize];
    }
}

/// Folds digits into a number, `bits` per digit, returning it and the OR of all digit values,
/// whose top bit is set if any byte was not a digit.
#[inline(always)]
pub(super) fn fold_bits(s: &[u8], table: &[u8; 256], bits: u32) -> (u64, u8) {
    let mut value = 0u64;
    let mut seen = 0u8;
    for &b in s {
        let d = table[b as usize];
        seen |= d;
        value = (value << bits) | u64::from(d);
    }
    (value, seen)
}
