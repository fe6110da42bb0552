//! Base 58 and base 62: the integer, without a bignum.
//!
//! 22 digits cover 128 bits in both bases. The value splits into three chunks of base**10
//! (which fits in 60 bits): c0 (2 digits) * base**20 + c1 * base**10 + c2. Dividing the u128 by
//! base**10 uses a multiplication by a precomputed reciprocal (Granlund and Montgomery,
//! "Division by Invariant Integers using Multiplication", 1994, §4), which is faster than a
//! 128-bit division and needs no division instruction on any target; the second division has a
//! dividend below 2**71 and uses that base**10 is a multiple of 2**10. Each chunk then splits
//! into two five-digit halves, written as one digit and two digit pairs from a table.

use super::digits::decoding_table;
use super::{alphabet, Encoding, FORMS};

/// A positional number system with an alphabet in ASCII order.
pub(super) struct Radix {
    pub(super) base: u32,
    /// The digit pairs `00` to `(base-1)(base-1)`, as text.
    pairs: &'static [[u8; 2]],
    pub(super) decode: [u8; 256],
    /// `base**10`, a multiple of 2**10 below 2**64.
    pub(super) chunk: u64,
    /// Granlund-Montgomery multiplier and shift for dividing a u128 by `chunk`.
    magic: u128,
    shift: u32,
}

static BASE58_PAIRS: [[u8; 2]; 58 * 58] = digit_pairs(&alphabet::<58>(Encoding::Base58));
static BASE62_PAIRS: [[u8; 2]; 62 * 62] = digit_pairs(&alphabet::<62>(Encoding::Base62));

pub(super) const BASE58: Radix = Radix::new(Encoding::Base58, &BASE58_PAIRS);
pub(super) const BASE62: Radix = Radix::new(Encoding::Base62, &BASE62_PAIRS);

const fn digit_pairs<const N: usize>(alphabet: &[u8]) -> [[u8; 2]; N] {
    let base = alphabet.len();
    let mut pairs = [[0u8; 2]; N];
    let mut i = 0;
    while i < N {
        pairs[i] = [alphabet[i / base], alphabet[i % base]];
        i += 1;
    }
    pairs
}

impl Radix {
    /// The number system of `encoding`'s row, its digit pairs written out in `pairs`.
    const fn new(encoding: Encoding, pairs: &'static [[u8; 2]]) -> Self {
        let form = &FORMS[encoding as usize];
        let base = form.alphabet.len() as u64;
        let chunk = base.pow(10);
        assert!(chunk.is_multiple_of(1024) && pairs.len() as u64 == base * base);
        // Granlund-Montgomery, Figure 4.1 with N = 128: l = ceil(log2(d)), and
        // m' = floor(2**128 * (2**l - d) / d) + 1, by long division one bit at a time.
        let l = 64 - (chunk - 1).leading_zeros();
        let d = chunk as u128;
        let mut rem = (1u128 << l) - d;
        let mut quotient = 0u128;
        let mut i = 0;
        while i < 128 {
            // `rem < d < 2**64`, so the shift cannot overflow.
            rem <<= 1;
            quotient <<= 1;
            if rem >= d {
                rem -= d;
                quotient |= 1;
            }
            i += 1;
        }
        Self {
            base: base as u32,
            pairs,
            decode: decoding_table(form.alphabet, form.case.folds(), form.aliases),
            chunk,
            magic: quotient + 1,
            shift: l,
        }
    }

    /// `(n / chunk, n % chunk)` for any u128 `n`.
    #[inline(always)]
    fn div_rem_chunk(&self, n: u128) -> (u128, u64) {
        let t = mul_high(n, self.magic);
        let q = (t + ((n - t) >> 1)) >> (self.shift - 1);
        (q, (n - q * u128::from(self.chunk)) as u64)
    }

    /// Five digits of `r < base**5`.
    #[inline(always)]
    fn five(&self, r: u32, out: &mut [u8]) {
        let b2 = self.base * self.base;
        let (first, rest) = (r / (b2 * b2), r % (b2 * b2));
        // The pair "0<first>", whose second character is the digit.
        out[0] = self.pairs[first as usize][1];
        out[1..3].copy_from_slice(&self.pairs[(rest / b2) as usize]);
        out[3..5].copy_from_slice(&self.pairs[(rest % b2) as usize]);
    }

    /// Ten digits of `c < base**10`.
    #[inline(always)]
    fn ten(&self, c: u64, out: &mut [u8]) {
        let b5 = u64::from(self.base.pow(5));
        self.five((c / b5) as u32, &mut out[..5]);
        self.five((c % b5) as u32, &mut out[5..10]);
    }
}

/// The high 128 bits of the 256-bit product `x * y`.
#[inline(always)]
fn mul_high(x: u128, y: u128) -> u128 {
    let (x0, x1) = (x as u64 as u128, x >> 64);
    let (y0, y1) = (y as u64 as u128, y >> 64);
    let (p00, p01, p10, p11) = (x0 * y0, x0 * y1, x1 * y0, x1 * y1);
    let middle = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    p11 + (p01 >> 64) + (p10 >> 64) + (middle >> 64)
}

/// The 22 digits of `v`.
#[inline(always)]
pub(super) fn radix(v: u128, r: &Radix) -> [u8; 22] {
    let (q, c2) = r.div_rem_chunk(v);
    // q < 2**128 / chunk < 2**71, and chunk is a multiple of 2**10.
    let c0 = ((q >> 10) as u64) / (r.chunk >> 10);
    let c1 = (q - u128::from(c0) * u128::from(r.chunk)) as u64;
    let mut out = [0u8; 22];
    out[..2].copy_from_slice(&r.pairs[c0 as usize]);
    r.ten(c1, &mut out[2..12]);
    r.ten(c2, &mut out[12..22]);
    out
}

/// The value of at most five digits, and the OR of their table entries, whose top bit is set
/// if a byte was not a digit (the value is then meaningless).
#[inline(always)]
fn fold_digits(s: &[u8], r: &Radix) -> (u32, u8) {
    let mut value = 0u32;
    let mut seen = 0u8;
    for &b in s {
        let d = r.decode[b as usize];
        seen |= d;
        value = value.wrapping_mul(r.base).wrapping_add(u32::from(d));
    }
    (value, seen)
}

/// Decodes 22 digits whose value is at most 2**128 - 1.
#[inline(always)]
pub(super) fn radix_decode(s: &[u8; 22], r: &Radix) -> Option<u128> {
    let b5 = u64::from(r.base.pow(5));
    let (c0, s0) = fold_digits(&s[..2], r);
    let (c1a, s1a) = fold_digits(&s[2..7], r);
    let (c1b, s1b) = fold_digits(&s[7..12], r);
    let (c2a, s2a) = fold_digits(&s[12..17], r);
    let (c2b, s2b) = fold_digits(&s[17..], r);
    if (s0 | s1a | s1b | s2a | s2b) & 0x80 != 0 {
        return None;
    }
    let c1 = u64::from(c1a) * b5 + u64::from(c1b);
    let c2 = u64::from(c2a) * b5 + u64::from(c2b);
    let high = u128::from(c0) * u128::from(r.chunk) + u128::from(c1);
    // high * chunk + c2 <= u128::MAX, without overflowing to find out.
    let (max_high, max_low) = (
        u128::MAX / u128::from(r.chunk),
        u128::MAX % u128::from(r.chunk),
    );
    if high > max_high || (high == max_high && u128::from(c2) > max_low) {
        return None;
    }
    Some(high * u128::from(r.chunk) + u128::from(c2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_chunk_is_exact() {
        for r in [&BASE58, &BASE62] {
            let d = u128::from(r.chunk);
            let edges = [
                0,
                1,
                d - 1,
                d,
                d + 1,
                d * d - 1,
                d * d,
                u128::MAX,
                u128::MAX - 1,
                u128::MAX / d * d,
                u128::MAX / d * d - 1,
                1 << 127,
                (1 << 127) - 1,
                u128::from(u64::MAX),
                u128::from(u64::MAX) + 1,
            ];
            for n in edges {
                assert_eq!(r.div_rem_chunk(n), (n / d, (n % d) as u64), "{n}");
            }
            let mut x = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834_u128;
            for _ in 0..100_000 {
                x = x
                    .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645)
                    .wrapping_add(0x5851_F42D_4C95_7F2D_1405_7B7E_F767_814F);
                for n in [x, x >> 40, x >> 70, x >> 100] {
                    assert_eq!(r.div_rem_chunk(n), (n / d, (n % d) as u64), "{n}");
                }
            }
        }
    }
}
