//! Text encodings of a UUID, by name: the hexadecimal forms of RFC 9562 §4 and compact forms
//! that read the 128 bits as one number or as 16 octets.
//!
//! | [`Encoding`] | length | the Max UUID (RFC 9562 §5.10) | sorts like the UUID |
//! |---|---|---|---|
//! | `hex` | 32 | `ffffffffffffffffffffffffffffffff` | yes |
//! | `hyphenated` | 36 | `ffffffff-ffff-ffff-ffff-ffffffffffff` | yes |
//! | `urn` | 45 | `urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff` | yes |
//! | `braced` | 38 | `{ffffffff-ffff-ffff-ffff-ffffffffffff}` | yes |
//! | `base32` | 26 | `7zzzzzzzzzzzzzzzzzzzzzzzzz` | yes |
//! | `ulid` | 26 | `7ZZZZZZZZZZZZZZZZZZZZZZZZZ` | yes |
//! | `base32hex` | 26 | `VVVVVVVVVVVVVVVVVVVVVVVVVS` | yes |
//! | `base58` | 22 | `YcVfxkQb6JRzqk5kF2tNLv` | yes |
//! | `base62` | 22 | `7n42DGM5Tflk9n8mt7Fhc7` | yes |
//! | `base64url` | 22 | `_____________________w` | no |
//!
//! Every encoding has a fixed length: `base32`, `ulid`, `base58` and `base62` write the UUID's
//! integer value (Python's `UUID.int`) in their base, most significant digit first, padded on
//! the left with the zero digit; `base32hex` (RFC 4648 §7) and `base64url` (RFC 4648 §5) encode
//! the 16 octets in order, with the last character's unused low bits zero and no `=` padding.
//! All but `base64url` have their alphabet in ASCII order, so the encoded strings compare
//! byte-wise exactly as the UUIDs do.
//!
//! The fixed length is a choice for `base58` and `base62`, whose common libraries write the
//! shortest form: Bitcoin's byte-string convention (Python's `base58.b58encode(u.bytes)`)
//! writes one `1` per leading zero octet and the rest of the number without padding, so its
//! text has 21 or 22 characters for most UUIDs and sorts differently. Here the 22 digits of
//! `base58` are `base58.b58encode_int(u.int).rjust(22, b"1")` in that library's terms.
//!
//! # Decoding: what is accepted
//!
//! Decoding accepts exactly one length and nothing around the text (no whitespace, padding,
//! hyphens or check symbols). It rejects, naming the input and the character position of the
//! first problem ([`crate::ErrorKind::Decode`]): a wrong length, a character outside the
//! alphabet, and a value above 2**128 - 1 (for `base32hex` and `base64url`: non-zero bits after
//! the 128th). Case and aliases:
//!
//! - `hex`, `hyphenated`, `urn`, `braced`: exactly that form, hex digits in either case, the
//!   URN prefix in any case, as [`crate::parse`] reads them. Encoded in lower case.
//! - `base32`: Crockford's base32 (<https://www.crockford.com/base32.html>), decoded as his
//!   specification says: either case, and `I`/`L` read as `1`, `O` as `0`, so text copied by
//!   a human still decodes. Encoded in lower case, which Crockford's text does not prefer but
//!   TypeID's suffix uses ([`crate::typeid`]): a `base32` string is a TypeID without prefix, and
//!   `base32` and `ulid` differ in what they produce, not only in what they accept.
//! - `ulid`: the text of a ULID (<https://github.com/ulid/spec>): Crockford's alphabet in upper
//!   case, the first character at most `7`. Decoded in either case, as the ULID specification
//!   says ("case insensitive"), without Crockford's aliases: the ULID alphabet "excludes the
//!   letters I, L, O, and U", and its reference implementations reject them.
//! - `base32hex`: upper case, as RFC 4648 §7 and PostgreSQL's `encode(..., 'base32hex')` write
//!   it; decoded in either case, as PostgreSQL's `decode` does (the lower case letters mean
//!   nothing else in this alphabet).
//! - `base58` (the Bitcoin alphabet), `base62` (`0-9A-Za-z`) and `base64url` (RFC 4648 §5)
//!   use both cases as different digits, so they are case-sensitive.
//!
//! # Examples
//!
//! ```
//! use uuidx_core::{encoding::Encoding, Uuid};
//! let u = Uuid::from_u128(0x01890a5d_ac96_774b_bcce_b302099a8057);
//! assert_eq!(Encoding::Ulid.encode(u), "01H455VB4PEX5VSKNK084SN02Q");
//! assert_eq!(Encoding::Base58.encode(u), "1BzmjTFLHWXwiSK4y3H5iW");
//! assert_eq!(Encoding::Ulid.decode("01h455vb4pex5vsknk084sn02q").unwrap(), u);
//! let err = Encoding::Base58.decode("1BzmjTFLHWXwiSK4y3H5i0").unwrap_err();
//! assert!(err.to_string().contains("'0' at position 21"));
//! ```

use crate::error::{shorten, DecodeReason, ParseReason};
use crate::{format, parse, Error, ErrorKind, Result, Uuid};
use core::fmt;

/// A text encoding of a UUID (see the [module documentation](crate::encoding) for each one's
/// rules). More may be added, so matches outside this crate need a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// 32 hex digits, Python's `UUID.hex` (RFC 9562 §4).
    Hex,
    /// The 36-character hyphenated form of RFC 9562 §4.
    Hyphenated,
    /// `urn:uuid:` and the hyphenated form, 45 characters (RFC 9562 §4).
    Urn,
    /// The hyphenated form in braces, 38 characters.
    Braced,
    /// Crockford's base32 of the integer value, 26 characters, lower case.
    Base32,
    /// The text form of a ULID: Crockford's base32 of the integer value, 26 characters, upper
    /// case.
    Ulid,
    /// RFC 4648 §7 base32hex of the 16 octets, 26 characters, upper case, no padding.
    Base32Hex,
    /// The integer value in base 58 with the Bitcoin alphabet, 22 characters.
    Base58,
    /// The integer value in base 62 (`0-9A-Za-z`), 22 characters.
    Base62,
    /// RFC 4648 §5 base64url of the 16 octets, 22 characters, no padding.
    Base64Url,
}

impl Encoding {
    /// Every encoding, in the order of the module documentation.
    pub const ALL: [Self; 10] = [
        Self::Hex,
        Self::Hyphenated,
        Self::Urn,
        Self::Braced,
        Self::Base32,
        Self::Ulid,
        Self::Base32Hex,
        Self::Base58,
        Self::Base62,
        Self::Base64Url,
    ];

    /// The longest encoded length, that of [`Encoding::Urn`].
    pub const MAX_LEN: usize = 45;

    /// The encoding's name, as bindings spell it: `hex`, `hyphenated`, `urn`, `braced`,
    /// `base32`, `ulid`, `base32hex`, `base58`, `base62` or `base64url`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Hex => "hex",
            Self::Hyphenated => "hyphenated",
            Self::Urn => "urn",
            Self::Braced => "braced",
            Self::Base32 => "base32",
            Self::Ulid => "ulid",
            Self::Base32Hex => "base32hex",
            Self::Base58 => "base58",
            Self::Base62 => "base62",
            Self::Base64Url => "base64url",
        }
    }

    /// The encoding with this name (exactly as [`Encoding::name`] spells it).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for any other name.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| {
                Error::new(ErrorKind::InvalidOption {
                    option: "encoding",
                    value: format!("{:?}", shorten(name)),
                    expected: "one of 'hex', 'hyphenated', 'urn', 'braced', 'base32', 'ulid', \
                               'base32hex', 'base58', 'base62', 'base64url'",
                })
            })
    }

    /// The length of every encoded UUID, in characters (all ASCII, so also in bytes).
    #[allow(clippy::len_without_is_empty)] // The length of every encoded text, not a collection's.
    pub const fn len(self) -> usize {
        match self {
            Self::Hex => 32,
            Self::Hyphenated => 36,
            Self::Urn => 45,
            Self::Braced => 38,
            Self::Base32 | Self::Ulid | Self::Base32Hex => 26,
            Self::Base58 | Self::Base62 | Self::Base64Url => 22,
        }
    }

    /// Writes `uuid` in this encoding to the first [`Encoding::len`] bytes of `out`, which are
    /// ASCII, and returns that length. Nothing is allocated: this is the loop body for
    /// encoding many UUIDs into one buffer.
    ///
    /// # Panics
    /// If `out` is shorter than [`Encoding::len`].
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::{encoding::Encoding, Uuid};
    /// let mut buf = [0u8; Encoding::MAX_LEN];
    /// let n = Encoding::Base62.encode_into(Uuid::MAX, &mut buf);
    /// assert_eq!(&buf[..n], b"7n42DGM5Tflk9n8mt7Fhc7");
    /// ```
    #[inline]
    pub fn encode_into(self, uuid: Uuid, out: &mut [u8]) -> usize {
        let len = self.len();
        assert!(
            out.len() >= len,
            "a {} UUID needs {len} bytes, the buffer has {}",
            self.name(),
            out.len()
        );
        let v = uuid.as_u128();
        match self {
            Self::Hex => out[..32].copy_from_slice(&format::simple(uuid, false)),
            Self::Hyphenated => out[..36].copy_from_slice(&format::hyphenated(uuid, false)),
            Self::Urn => {
                out[..9].copy_from_slice(b"urn:uuid:");
                out[9..45].copy_from_slice(&format::hyphenated(uuid, false));
            }
            Self::Braced => {
                out[0] = b'{';
                out[1..37].copy_from_slice(&format::hyphenated(uuid, false));
                out[37] = b'}';
            }
            Self::Base32 => out[..26].copy_from_slice(&crockford(v, CROCKFORD_LOWER)),
            Self::Ulid => out[..26].copy_from_slice(&crockford(v, CROCKFORD_UPPER)),
            Self::Base32Hex => out[..26].copy_from_slice(&base32hex(v)),
            Self::Base58 => out[..22].copy_from_slice(&radix(v, &BASE58)),
            Self::Base62 => out[..22].copy_from_slice(&radix(v, &BASE62)),
            Self::Base64Url => out[..22].copy_from_slice(&base64url(v)),
        }
        len
    }

    /// `uuid` in this encoding, as a `String`. [`Encoded::new`] does the same on the stack.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::{encoding::Encoding, Uuid};
    /// let u = Uuid::from_u128(0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6);
    /// assert_eq!(Encoding::Base32.encode(u), "7r3n7twzfc278aes80m34hwtzp");
    /// assert_eq!(Encoding::Base32Hex.encode(u), "V0EKVBJTTG8T19R502GCI7JBUO");
    /// assert_eq!(Encoding::Base64Url.encode(u), "-B1Prn3sEdCnZQCgyR5r9g");
    /// assert_eq!(Encoding::Urn.encode(u), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
    /// ```
    pub fn encode(self, uuid: Uuid) -> String {
        Encoded::new(self, uuid).as_str().to_owned()
    }

    /// Decodes text in this encoding (see the [module documentation](crate::encoding) for what is
    /// accepted).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Decode`] naming the input (shortened) and the first problem, with
    /// its character position.
    #[inline]
    pub fn decode(self, input: &str) -> Result<Uuid> {
        self.decode_ascii(input.as_bytes())
    }

    /// Decodes a byte string in this encoding, which must be ASCII text, as
    /// [`Encoding::decode`] does.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Decode`] naming the input (shortened, invalid UTF-8 replaced) and
    /// the first problem, with its character position.
    #[inline]
    pub fn decode_ascii(self, input: &[u8]) -> Result<Uuid> {
        match self.decode_fast(input) {
            Some(v) => Ok(Uuid::from_u128(v)),
            None => Err(self.decode_error(input)),
        }
    }

    /// The decoder of the hot path: `None` for any invalid input, without saying why.
    #[inline]
    fn decode_fast(self, s: &[u8]) -> Option<u128> {
        match self {
            Self::Hex | Self::Hyphenated | Self::Urn | Self::Braced => {
                // `parse` tells the forms apart by their length alone, so a text of this form's
                // length is parsed as this form and nothing else.
                if s.len() == self.len() {
                    parse::parse_ascii(s).ok().map(Uuid::as_u128)
                } else {
                    None
                }
            }
            Self::Base32 => crockford_decode(s.try_into().ok()?, &CROCKFORD_ALIASED),
            Self::Ulid => crockford_decode(s.try_into().ok()?, &CROCKFORD_ANY_CASE),
            Self::Base32Hex => base32hex_decode(s.try_into().ok()?),
            Self::Base58 => radix_decode(s.try_into().ok()?, &BASE58),
            Self::Base62 => radix_decode(s.try_into().ok()?, &BASE62),
            Self::Base64Url => base64url_decode(s.try_into().ok()?),
        }
    }

    /// The error for an input that [`Encoding::decode_fast`] rejected: the input is decoded
    /// again, by [`Encoding::decode_reference`], with each character narrowed to one byte
    /// (non-ASCII ones to `0xFF`), so that lengths and positions count characters.
    #[cold]
    #[inline(never)]
    fn decode_error(self, input: &[u8]) -> Error {
        let text = String::from_utf8_lossy(input);
        let found = text.chars().count();
        let reason = if found == self.len() {
            let narrowed = narrow(&text);
            // The fast decoder accepts what the reference one does, and neither accepts a
            // non-ASCII character, so there is always an error; the fallback keeps this total.
            let reason =
                self.decode_reference(&narrowed)
                    .err()
                    .unwrap_or_else(|| DecodeReason::Char {
                        found: '\u{FFFD}',
                        position: narrowed.iter().position(|&b| b == INVALID).unwrap_or(0),
                        expected: self.expected(),
                    });
            with_found_char(reason, &text)
        } else {
            DecodeReason::Length {
                expected: self.len(),
                found,
            }
        };
        Error::new(ErrorKind::Decode {
            input: shorten(&text),
            encoding: self,
            reason,
        })
    }

    /// A plain decoder, independent of the fast one, that finds the first problem from left to
    /// right: the length, then characters outside the alphabet, then the value's range. Used
    /// for error messages and, in tests, as the reference the fast decoders must agree with.
    fn decode_reference(self, s: &[u8]) -> core::result::Result<u128, DecodeReason> {
        if s.len() != self.len() {
            return Err(DecodeReason::Length {
                expected: self.len(),
                found: s.len(),
            });
        }
        // The table, the base, and whether the digits hold the octets (followed by zero bits)
        // rather than the integer.
        let (table, base, octets): (&[u8; 256], u32, bool) = match self {
            Self::Hex | Self::Hyphenated | Self::Urn | Self::Braced => {
                return parse::parse_ascii(s)
                    .map(Uuid::as_u128)
                    .map_err(|e| self.reason_of_parse_error(&e));
            }
            Self::Base32 => (&CROCKFORD_ALIASED, 32, false),
            Self::Ulid => (&CROCKFORD_ANY_CASE, 32, false),
            Self::Base32Hex => (&BASE32HEX_ANY_CASE, 32, true),
            Self::Base58 => (&BASE58.decode, 58, false),
            Self::Base62 => (&BASE62.decode, 62, false),
            Self::Base64Url => (&BASE64URL_DECODE, 64, true),
        };
        let digits = digits_of(s, table, self.expected())?;
        if octets {
            // 128 bits, then `spare` zero bits to fill the last digit.
            let bits = base.trailing_zeros();
            let spare = digits.len() as u32 * bits - 128;
            let (&last, head) = digits.split_last().unwrap_or((&0, &[]));
            if u32::from(last) & ((1 << spare) - 1) != 0 {
                let position = s.len() - 1;
                return Err(DecodeReason::TrailingBits {
                    found: s[position] as char,
                    position,
                });
            }
            let head = head.iter().fold(0u128, |v, &d| (v << bits) | u128::from(d));
            Ok((head << (bits - spare)) | u128::from(last >> spare))
        } else {
            digits
                .iter()
                .try_fold(0u128, |v, &d| {
                    v.checked_mul(u128::from(base))?.checked_add(u128::from(d))
                })
                .ok_or_else(|| overflow(s, &digits, table, self.max()))
        }
    }

    /// The Max UUID in this encoding (RFC 9562 §5.10); tests check it against the encoder.
    const fn max(self) -> &'static str {
        match self {
            Self::Hex => "ffffffffffffffffffffffffffffffff",
            Self::Hyphenated => "ffffffff-ffff-ffff-ffff-ffffffffffff",
            Self::Urn => "urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff",
            Self::Braced => "{ffffffff-ffff-ffff-ffff-ffffffffffff}",
            Self::Base32 => "7zzzzzzzzzzzzzzzzzzzzzzzzz",
            Self::Ulid => "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            Self::Base32Hex => "VVVVVVVVVVVVVVVVVVVVVVVVVS",
            Self::Base58 => "YcVfxkQb6JRzqk5kF2tNLv",
            Self::Base62 => "7n42DGM5Tflk9n8mt7Fhc7",
            Self::Base64Url => "_____________________w",
        }
    }

    /// What a character of this encoding may be, for error messages.
    const fn expected(self) -> &'static str {
        match self {
            Self::Hex | Self::Hyphenated | Self::Urn | Self::Braced => "a hex digit",
            Self::Base32 => {
                "a Crockford base32 digit: 0-9 or a letter other than U, in either case \
                 (I and L read as 1, O as 0)"
            }
            Self::Ulid => {
                "a Crockford base32 digit: 0-9 or a letter other than I, L, O and U, \
                 in either case"
            }
            Self::Base32Hex => "a base32hex digit: 0-9 or A-V, in either case",
            Self::Base58 => "a base58 digit: 1-9 or a letter other than I, O and l",
            Self::Base62 => "a base62 digit: 0-9, A-Z or a-z",
            Self::Base64Url => "a base64url digit: A-Z, a-z, 0-9, '-' or '_'",
        }
    }

    /// The reason of a [`crate::parse`] error, for the hexadecimal forms.
    fn reason_of_parse_error(self, error: &Error) -> DecodeReason {
        match *error.kind() {
            ErrorKind::Parse {
                reason: ParseReason::Char { found, position },
                ..
            } => DecodeReason::Char {
                found,
                position,
                expected: self.expected(),
            },
            ErrorKind::Parse { reason, .. } => DecodeReason::Syntax(reason),
            // Unreachable: parsing fails with nothing else.
            _ => DecodeReason::Length {
                expected: self.len(),
                found: 0,
            },
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The digit values of `s` under `table`, or the first character outside the alphabet.
fn digits_of(
    s: &[u8],
    table: &[u8; 256],
    expected: &'static str,
) -> core::result::Result<Vec<u8>, DecodeReason> {
    s.iter()
        .enumerate()
        .map(|(position, &b)| match table[b as usize] {
            INVALID => Err(DecodeReason::Char {
                found: b as char,
                position,
                expected,
            }),
            d => Ok(d),
        })
        .collect()
}

/// What a character of a TypeID suffix may be.
const TYPEID_SUFFIX_EXPECTED: &str =
    "a lowercase Crockford base32 digit: 0-9 or a letter other than i, l, o and u";

/// The first problem of a TypeID suffix (26 lower case Crockford digits of at most 128 bits),
/// with positions moved on by `offset` characters (where the suffix starts in the TypeID), or
/// `None` if it is valid.
#[cold]
#[inline(never)]
pub(crate) fn typeid_suffix_problem(suffix: &str, offset: usize) -> Option<DecodeReason> {
    let found = suffix.chars().count();
    if found != 26 {
        return Some(DecodeReason::Length {
            expected: 26,
            found,
        });
    }
    let narrowed = narrow(suffix);
    let table = &CROCKFORD_LOWER_ONLY;
    let reason = match digits_of(&narrowed, table, TYPEID_SUFFIX_EXPECTED) {
        Err(reason) => reason,
        Ok(_) if crockford_decode(narrowed.as_slice().try_into().ok()?, table).is_some() => {
            return None
        }
        Ok(digits) => overflow(&narrowed, &digits, table, Encoding::Base32.max()),
    };
    Some(match with_found_char(reason, suffix) {
        DecodeReason::Char {
            found,
            position,
            expected,
        } => DecodeReason::Char {
            found,
            position: position + offset,
            expected,
        },
        DecodeReason::Overflow {
            found,
            position,
            max,
        } => DecodeReason::Overflow {
            found,
            position: position + offset,
            max,
        },
        other => other,
    })
}

/// Each character of `text` as one byte: itself if ASCII, `0xFF` (never a digit) otherwise.
fn narrow(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| if c.is_ascii() { c as u8 } else { INVALID })
        .collect()
}

/// The [`DecodeReason::Overflow`] of digits whose value is above 2**128 - 1: since every
/// text has the same length, it is the first position where they exceed those of `max`, the
/// Max UUID in the same encoding.
fn overflow(s: &[u8], digits: &[u8], table: &[u8; 256], max: &'static str) -> DecodeReason {
    let position = digits
        .iter()
        .zip(max.bytes())
        .position(|(&d, m)| d != table[m as usize])
        .unwrap_or(0);
    DecodeReason::Overflow {
        found: s[position] as char,
        position,
        max,
    }
}

/// `reason` with the character it names taken from `text` (the narrowed input that found it
/// holds `0xFF` for every non-ASCII character).
fn with_found_char(reason: DecodeReason, text: &str) -> DecodeReason {
    let at = |position: usize| text.chars().nth(position).unwrap_or('\u{FFFD}');
    match reason {
        DecodeReason::Char {
            position, expected, ..
        } => DecodeReason::Char {
            found: at(position),
            position,
            expected,
        },
        DecodeReason::Overflow { position, max, .. } => DecodeReason::Overflow {
            found: at(position),
            position,
            max,
        },
        DecodeReason::TrailingBits { position, .. } => DecodeReason::TrailingBits {
            found: at(position),
            position,
        },
        DecodeReason::Syntax(ParseReason::Hyphen { position, .. }) => {
            DecodeReason::Syntax(ParseReason::Hyphen {
                found: at(position),
                position,
            })
        }
        other => other,
    }
}

/// A UUID in one of the encodings, on the stack: what [`Encoding::encode`] returns, without
/// the allocation.
///
/// # Examples
/// ```
/// use uuidx_core::{encoding::{Encoded, Encoding}, Uuid};
/// let text = Encoded::new(Encoding::Base58, Uuid::NIL);
/// assert_eq!(text.as_str(), "1111111111111111111111");
/// assert_eq!(text.to_string(), "1111111111111111111111");
/// ```
#[derive(Clone, Copy)]
pub struct Encoded {
    bytes: [u8; Encoding::MAX_LEN],
    len: u8,
}

impl Encoded {
    /// `uuid` in `encoding`.
    #[inline]
    pub fn new(encoding: Encoding, uuid: Uuid) -> Self {
        let mut bytes = [0u8; Encoding::MAX_LEN];
        let len = encoding.encode_into(uuid, &mut bytes) as u8;
        Self { bytes, len }
    }

    /// The text's bytes, all ASCII.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        // Every encoder writes ASCII only, so this never fails; the check is a few
        // nanoseconds, and `as_bytes` skips it.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl AsRef<str> for Encoded {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Encoded {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Display for Encoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Encoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Encoded").field(&self.as_str()).finish()
    }
}

impl PartialEq for Encoded {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Encoded {}

// ---------------------------------------------------------------------------------------------
// Alphabets and decoding tables
// ---------------------------------------------------------------------------------------------

/// The value of a byte that is not a digit, in every decoding table.
const INVALID: u8 = 0xFF;

/// Crockford's base32 alphabet, lower case (TypeID's suffix and the `base32` encoding).
pub(crate) const CROCKFORD_LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
/// Crockford's base32 alphabet, upper case (the `ulid` encoding).
const CROCKFORD_UPPER: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// RFC 4648 §7, Table 4: the "Extended Hex" base32 alphabet.
const BASE32HEX: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
/// RFC 4648 §5, Table 2: the "URL and Filename safe" base64 alphabet.
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The decoding table of `alphabet`; with `fold_case`, letters decode in either case.
const fn decoding_table(alphabet: &[u8], fold_case: bool) -> [u8; 256] {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < alphabet.len() {
        let c = alphabet[i];
        table[c as usize] = i as u8;
        if fold_case {
            table[c.to_ascii_lowercase() as usize] = i as u8;
            table[c.to_ascii_uppercase() as usize] = i as u8;
        }
        i += 1;
    }
    table
}

/// TypeID's suffix: lower case only, no aliases.
pub(crate) const CROCKFORD_LOWER_ONLY: [u8; 256] = decoding_table(CROCKFORD_LOWER, false);
/// `ulid`: either case, no aliases.
const CROCKFORD_ANY_CASE: [u8; 256] = decoding_table(CROCKFORD_LOWER, true);
/// `base32`: either case, and Crockford's aliases `I`, `L` for 1 and `O` for 0.
const CROCKFORD_ALIASED: [u8; 256] = {
    let mut table = CROCKFORD_ANY_CASE;
    table[b'I' as usize] = 1;
    table[b'i' as usize] = 1;
    table[b'L' as usize] = 1;
    table[b'l' as usize] = 1;
    table[b'O' as usize] = 0;
    table[b'o' as usize] = 0;
    table
};
const BASE32HEX_ANY_CASE: [u8; 256] = decoding_table(BASE32HEX, true);
const BASE64URL_DECODE: [u8; 256] = decoding_table(BASE64URL, false);

// ---------------------------------------------------------------------------------------------
// Base 32: Crockford (the integer) and base32hex (the octets)
// ---------------------------------------------------------------------------------------------

/// Writes the low `out.len() * bits` bits of `x` as digits of `bits` bits each.
#[inline(always)]
fn put_digits(x: u64, bits: usize, alphabet: &[u8], out: &mut [u8]) {
    let n = out.len();
    let mask = (1 << bits) - 1;
    for (i, o) in out.iter_mut().enumerate() {
        *o = alphabet[((x >> (bits * (n - 1 - i))) & mask) as usize];
    }
}

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
fn base32hex(v: u128) -> [u8; 26] {
    base32_digits(
        (v >> 98) as u64,
        ((v >> 48) & MASK50) as u64,
        ((v << 2) & MASK50) as u64,
        BASE32HEX,
    )
}

/// Folds digits into a number, `bits` per digit, returning it and the OR of all digit values,
/// whose top bit is set if any byte was not a digit.
#[inline(always)]
fn fold_bits(s: &[u8], table: &[u8; 256], bits: u32) -> (u64, u8) {
    let mut value = 0u64;
    let mut seen = 0u8;
    for &b in s {
        let d = table[b as usize];
        seen |= d;
        value = (value << bits) | u64::from(d);
    }
    (value, seen)
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
fn base32hex_decode(s: &[u8; 26]) -> Option<u128> {
    let (hi, mid, lo) = base32_fold(s, &BASE32HEX_ANY_CASE)?;
    (lo.trailing_zeros() >= 2)
        .then(|| (u128::from(hi) << 98) | (u128::from(mid) << 48) | u128::from(lo >> 2))
}

// ---------------------------------------------------------------------------------------------
// Base 64url: the octets, then four zero bits
// ---------------------------------------------------------------------------------------------

#[inline]
fn base64url(v: u128) -> [u8; 22] {
    // 132 bits: 60, 60 and 12 of them, the last four zero.
    let mut out = [0u8; 22];
    put_digits((v >> 68) as u64, 6, BASE64URL, &mut out[..10]);
    put_digits(
        ((v >> 8) as u64) & ((1 << 60) - 1),
        6,
        BASE64URL,
        &mut out[10..20],
    );
    put_digits(((v as u64) & 0xFF) << 4, 6, BASE64URL, &mut out[20..]);
    out
}

#[inline]
fn base64url_decode(s: &[u8; 22]) -> Option<u128> {
    let (a, sa) = fold_bits(&s[..10], &BASE64URL_DECODE, 6);
    let (b, sb) = fold_bits(&s[10..20], &BASE64URL_DECODE, 6);
    let (c, sc) = fold_bits(&s[20..], &BASE64URL_DECODE, 6);
    ((sa | sb | sc) & 0x80 == 0 && c.trailing_zeros() >= 4)
        .then(|| (u128::from(a) << 68) | (u128::from(b) << 8) | u128::from(c >> 4))
}

// ---------------------------------------------------------------------------------------------
// Base 58 and base 62: the integer, without a bignum
// ---------------------------------------------------------------------------------------------
//
// 22 digits cover 128 bits in both bases. The value splits into three chunks of base**10
// (which fits in 60 bits): c0 (2 digits) * base**20 + c1 * base**10 + c2. Dividing the u128 by
// base**10 uses a multiplication by a precomputed reciprocal (Granlund and Montgomery,
// "Division by Invariant Integers using Multiplication", 1994, §4), which is faster than a
// 128-bit division and needs no division instruction on any target; the second division has a
// dividend below 2**71 and uses that base**10 is a multiple of 2**10. Each chunk then splits
// into two five-digit halves, written as one digit and two digit pairs from a table.

/// A positional number system with an alphabet in ASCII order.
struct Radix {
    base: u32,
    /// The digit pairs `00` to `(base-1)(base-1)`, as text.
    pairs: &'static [[u8; 2]],
    decode: [u8; 256],
    /// `base**10`, a multiple of 2**10 below 2**64.
    chunk: u64,
    /// Granlund-Montgomery multiplier and shift for dividing a u128 by `chunk`.
    magic: u128,
    shift: u32,
}

/// Bitcoin's base58 alphabet.
const BASE58_ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// Base 62: digits, upper case, lower case.
const BASE62_ALPHABET: &[u8; 62] =
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static BASE58_PAIRS: [[u8; 2]; 58 * 58] = digit_pairs(BASE58_ALPHABET);
static BASE62_PAIRS: [[u8; 2]; 62 * 62] = digit_pairs(BASE62_ALPHABET);

const BASE58: Radix = Radix::new(BASE58_ALPHABET, &BASE58_PAIRS);
const BASE62: Radix = Radix::new(BASE62_ALPHABET, &BASE62_PAIRS);

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
    const fn new(alphabet: &[u8], pairs: &'static [[u8; 2]]) -> Self {
        let base = alphabet.len() as u64;
        let chunk = base.pow(10);
        assert!(chunk % 1024 == 0 && pairs.len() as u64 == base * base);
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
            decode: decoding_table(alphabet, false),
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
fn radix(v: u128, r: &Radix) -> [u8; 22] {
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
fn radix_decode(s: &[u8; 22], r: &Radix) -> Option<u128> {
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

    /// Known answers, computed independently with Python's standard library:
    /// `base64.b32hexencode(u.bytes)` and `base64.urlsafe_b64encode(u.bytes)` without `=`,
    /// and a plain `divmod` loop over `u.int` for the positional ones.
    const KNOWN: &[(u128, [&str; 6])] = &[
        (
            0,
            [
                "00000000000000000000000000",
                "00000000000000000000000000",
                "00000000000000000000000000",
                "1111111111111111111111",
                "0000000000000000000000",
                "AAAAAAAAAAAAAAAAAAAAAA",
            ],
        ),
        (
            1,
            [
                "00000000000000000000000001",
                "00000000000000000000000001",
                "00000000000000000000000004",
                "1111111111111111111112",
                "0000000000000000000001",
                "AAAAAAAAAAAAAAAAAAAAAQ",
            ],
        ),
        (
            u128::MAX,
            [
                "7zzzzzzzzzzzzzzzzzzzzzzzzz",
                "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
                "VVVVVVVVVVVVVVVVVVVVVVVVVS",
                "YcVfxkQb6JRzqk5kF2tNLv",
                "7n42DGM5Tflk9n8mt7Fhc7",
                "_____________________w",
            ],
        ),
        (
            0xf81d_4fae_7dec_11d0_a765_00a0_c91e_6bf6,
            [
                "7r3n7twzfc278aes80m34hwtzp",
                "7R3N7TWZFC278AES80M34HWTZP",
                "V0EKVBJTTG8T19R502GCI7JBUO",
                "Xe22UfxT3rxcKJEAfL5373",
                "7YBUWgZR1mKSqGyj9tVViw",
                "-B1Prn3sEdCnZQCgyR5r9g",
            ],
        ),
        (
            0x0189_0a5d_ac96_774b_bcce_b302_099a_8057,
            [
                "01h455vb4pex5vsknk084sn02q",
                "01H455VB4PEX5VSKNK084SN02Q",
                "064GKNDCIPRKNF6EMC10J6K0AS",
                "1BzmjTFLHWXwiSK4y3H5iW",
                "02tcRIyrxLXTR81B3dqdOx",
                "AYkKXayWd0u8zrMCCZqAVw",
            ],
        ),
        (
            0x0110_c853_1d09_52d8_d73e_1194_e95b_5f19,
            [
                "0123456789abcdefghjkmnpqrs",
                "0123456789ABCDEFGHJKMNPQRS",
                "048CGKOT159DHLPU26AEIMQV34",
                "18ddjipqc9anKrRprrKP4L",
                "020f2ZQDhPemJuWgGcDs3F",
                "ARDIUx0JUtjXPhGU6VtfGQ",
            ],
        ),
    ];

    const COMPACT: [Encoding; 6] = [
        Encoding::Base32,
        Encoding::Ulid,
        Encoding::Base32Hex,
        Encoding::Base58,
        Encoding::Base62,
        Encoding::Base64Url,
    ];

    #[test]
    fn known_answers() {
        for &(value, texts) in KNOWN {
            let u = Uuid::from_u128(value);
            for (encoding, text) in COMPACT.into_iter().zip(texts) {
                assert_eq!(encoding.encode(u), text, "{encoding} of {u}");
                assert_eq!(encoding.decode(text).unwrap(), u, "{encoding} {text}");
                assert_eq!(encoding.decode_reference(text.as_bytes()), Ok(value));
            }
        }
        let u = Uuid::from_u128(KNOWN[3].0);
        assert_eq!(Encoding::Hex.encode(u), "f81d4fae7dec11d0a76500a0c91e6bf6");
        assert_eq!(
            Encoding::Hyphenated.encode(u),
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
        );
        assert_eq!(
            Encoding::Braced.encode(u),
            "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}"
        );
        assert_eq!(
            Encoding::Urn.encode(u),
            "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
        );
    }

    #[test]
    fn names_lengths_and_max() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_name(e.name()).unwrap(), e);
            assert_eq!(e.to_string(), e.name());
            assert_eq!(e.encode(Uuid::MAX), e.max());
            assert_eq!(e.max().len(), e.len());
            assert!(e.len() <= Encoding::MAX_LEN);
            assert_eq!(Encoded::new(e, Uuid::MAX).as_bytes(), e.max().as_bytes());
        }
        let err = Encoding::from_name("Base58").unwrap_err().to_string();
        assert!(
            err.contains("\"Base58\"") && err.contains("'base64url'"),
            "{err}"
        );
        assert!(Encoding::from_name("simple").is_err());
    }

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

    #[test]
    fn aliases_and_case() {
        let u = Uuid::from_u128(KNOWN[5].0);
        // base32: either case, I and L for 1, O for 0.
        for text in [
            "0123456789abcdefghjkmnpqrs",
            "0123456789ABCDEFGHJKMNPQRS",
            "o123456789ABCDEFGHJKMNPQRS",
            "OI23456789abcdefghjkmnpqrs",
            "oL23456789abcdefghjkmnpqrs",
            "0l23456789abcdefghjkmnpqrs",
            "0i23456789abcdefghjkmnpqrs",
        ] {
            assert_eq!(Encoding::Base32.decode(text).unwrap(), u, "{text}");
        }
        // ulid: either case, no aliases.
        assert_eq!(
            Encoding::Ulid.decode("0123456789abcdefghjkmnpqrs").unwrap(),
            u
        );
        for (text, position) in [
            ("O123456789ABCDEFGHJKMNPQRS", 0),
            ("0I23456789ABCDEFGHJKMNPQRS", 1),
            ("0123456789ABCDEFGHJKMNPQRl", 25),
        ] {
            let msg = Encoding::Ulid.decode(text).unwrap_err().to_string();
            assert!(msg.contains(&format!("at position {position}")), "{msg}");
        }
        // U is in no Crockford alphabet.
        assert!(Encoding::Base32
            .decode("u123456789abcdefghjkmnpqrs")
            .is_err());
        // base32hex: either case; W is past V.
        let hex = Uuid::from_u128(KNOWN[3].0);
        assert_eq!(
            Encoding::Base32Hex
                .decode("v0ekvbjttg8t19r502gci7jbuo")
                .unwrap(),
            hex
        );
        assert!(Encoding::Base32Hex
            .decode("W0EKVBJTTG8T19R502GCI7JBUO")
            .is_err());
        // Case-sensitive ones.
        assert_ne!(
            Encoding::Base58.decode("xE22UfxT3rxcKJEAfL5373").ok(),
            Some(hex)
        );
        assert!(Encoding::Base64Url
            .decode("-B1Prn3sEdCnZQCgyR5r9G")
            .is_err());
    }

    #[test]
    fn hex_forms_accept_only_their_own_form() {
        let u = Uuid::from_u128(KNOWN[3].0);
        let forms = [
            (Encoding::Hex, "F81D4FAE7DEC11D0A76500A0C91E6BF6"),
            (Encoding::Hyphenated, "F81D4FAE-7dec-11d0-a765-00a0c91e6bf6"),
            (Encoding::Braced, "{f81d4fae-7dec-11d0-a765-00A0C91E6BF6}"),
            (
                Encoding::Urn,
                "URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            ),
        ];
        for (e, text) in forms {
            assert_eq!(e.decode(text).unwrap(), u);
            for (other, other_text) in forms {
                if other != e {
                    let msg = e.decode(other_text).unwrap_err().to_string();
                    assert!(
                        msg.contains(&format!("expected {} characters", e.len())),
                        "{msg}"
                    );
                }
            }
        }
    }

    /// `(encoding, input, what the message must contain)`.
    const REJECTED: &[(Encoding, &str, &str)] = &[
        (Encoding::Base58, "", "expected 22 characters, found 0"),
        (
            Encoding::Base58,
            "1BzmjTFLHWXwiSK4y3H5iWW",
            "expected 22 characters, found 23",
        ),
        (
            Encoding::Base58,
            "1BzmjTFLHWXwiSK4y3H5i0",
            "invalid character '0' at position 21: expected a base58 digit",
        ),
        (
            Encoding::Base58,
            "YcVfxkQb6JRzqk5kF2tNLw",
            "'w' at position 21 makes the value exceed 2**128 - 1 \
             (the largest is \"YcVfxkQb6JRzqk5kF2tNLv\")",
        ),
        (
            Encoding::Base58,
            "Z111111111111111111111",
            "'Z' at position 0",
        ),
        (
            Encoding::Base58,
            "YcVfxkQb6JRzqk5kF3tNLv",
            "'3' at position 17",
        ),
        (
            Encoding::Base58,
            "zzzzzzzzzzzzzzzzzzzzz!",
            "'!' at position 21",
        ),
        (
            Encoding::Base62,
            "7n42DGM5Tflk9n8mt7Fhc8",
            "'8' at position 21 makes",
        ),
        (
            Encoding::Base62,
            "zzzzzzzzzzzzzzzzzzzzzz",
            "'z' at position 0 makes",
        ),
        (
            Encoding::Base62,
            "7n42DGM5Tflk9n8mt7Fhc-",
            "'-' at position 21",
        ),
        (
            Encoding::Base32,
            "8zzzzzzzzzzzzzzzzzzzzzzzzz",
            "'8' at position 0 makes",
        ),
        (
            Encoding::Ulid,
            "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            "'8' at position 0 makes",
        ),
        (
            Encoding::Ulid,
            "zZZZZZZZZZZZZZZZZZZZZZZZZZ",
            "'z' at position 0 makes",
        ),
        (
            Encoding::Ulid,
            "01H455VB4PEX5VSKNK084SN02Q ",
            "expected 26 characters, found 27",
        ),
        (
            Encoding::Base32,
            "01h455vb4pex5-sknk084sn02q",
            "invalid character '-' at position 13: expected a Crockford base32 digit",
        ),
        (
            Encoding::Base32Hex,
            "VVVVVVVVVVVVVVVVVVVVVVVVVT",
            "'T' at position 25 sets bits after the 128th",
        ),
        (
            Encoding::Base32Hex,
            "0000000000000000000000000=",
            "'=' at position 25",
        ),
        (
            Encoding::Base32Hex,
            "V0EKVBJTTG8T19R502GCI7JBUO======",
            "expected 26 characters, found 32",
        ),
        (
            Encoding::Base64Url,
            "_____________________x",
            "'x' at position 21 sets bits after the 128th",
        ),
        (
            Encoding::Base64Url,
            "+B1Prn3sEdCnZQCgyR5r9g",
            "invalid character '+' at position 0: expected a base64url digit",
        ),
        (
            Encoding::Base64Url,
            "-B1Prn3sEdCnZQCgyR5r9g==",
            "expected 22 characters, found 24",
        ),
        // Positions and lengths count characters, not bytes.
        (
            Encoding::Base58,
            "1BzmjTFLHWXwiSK4y3H5é",
            "expected 22 characters, found 21",
        ),
        (
            Encoding::Base58,
            "1BzmjTFLHWXwiSK4y3H5éW",
            "'é' at position 20",
        ),
        (
            Encoding::Base62,
            "é€zzzzzzzzzzzzzzzzzzzz",
            "'é' at position 0",
        ),
        (
            Encoding::Base32,
            "01h455vb4pex5vsknk084sn0\u{660}q",
            "'\u{660}' at position 24",
        ),
        (
            Encoding::Hex,
            "f81d4fae7dec11d0a76500a0c91e6bfé",
            "invalid character 'é' at position 31: expected a hex digit",
        ),
        (
            Encoding::Hyphenated,
            "f81d4fae-7dec-11d0-a765é00a0c91e6bf6",
            "expected '-' at position 23, found 'é'",
        ),
        (
            Encoding::Hyphenated,
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf",
            "found 35",
        ),
        (
            Encoding::Braced,
            "(f81d4fae-7dec-11d0-a765-00a0c91e6bf6)",
            "expected a '{' at the start",
        ),
        (
            Encoding::Urn,
            "urn:uuix:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "'urn:uuid:'",
        ),
        (
            Encoding::Urn,
            "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bfX",
            "'X' at position 44",
        ),
    ];

    #[test]
    fn rejects_with_position() {
        for &(e, input, needle) in REJECTED {
            let err = e.decode(input).unwrap_err();
            let msg = err.to_string();
            assert!(msg.contains(needle), "{e} {input:?}: {msg}");
            assert!(
                msg.starts_with(&format!("invalid {} UUID {input:?}: ", e.name())),
                "{msg}"
            );
            assert!(matches!(err.kind(), ErrorKind::Decode { encoding, .. } if *encoding == e));
            assert_eq!(e.decode_ascii(input.as_bytes()).unwrap_err(), err);
        }
    }

    #[test]
    fn long_and_invalid_utf8_inputs() {
        let long = "z".repeat(1 << 20);
        let msg = Encoding::Base62.decode(&long).unwrap_err().to_string();
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.contains("found 1048576"), "{msg}");
        let msg = Encoding::Base58
            .decode_ascii(b"1BzmjTFLHWXwiSK4y3H5i\xFF")
            .unwrap_err()
            .to_string();
        assert!(msg.contains("'\u{FFFD}' at position 21"), "{msg}");
    }

    #[test]
    fn encode_into_a_shared_buffer() {
        let mut buf = Vec::new();
        for e in Encoding::ALL {
            let start = buf.len();
            buf.resize(start + e.len(), 0);
            assert_eq!(e.encode_into(Uuid::MAX, &mut buf[start..]), e.len());
        }
        let all: String = Encoding::ALL.iter().map(|e| e.max()).collect();
        assert_eq!(buf, all.as_bytes());
    }

    proptest::proptest! {
        /// The fast decoders accept exactly what the reference decoder accepts.
        #[test]
        fn fast_and_reference_decoders_agree(
            e in proptest::sample::select(Encoding::ALL.to_vec()),
            s in "[0-9A-Za-z_-]{22}|[0-9A-Za-z]{26}|[0-9a-f-]{36}|[0-9a-fA-F]{32}|.{0,46}",
        ) {
            proptest::prop_assert_eq!(
                e.decode_fast(s.as_bytes()),
                e.decode_reference(s.as_bytes()).ok()
            );
        }
    }

    #[test]
    #[should_panic(expected = "a base58 UUID needs 22 bytes, the buffer has 21")]
    fn encode_into_a_short_buffer_panics() {
        Encoding::Base58.encode_into(Uuid::NIL, &mut [0; 21]);
    }
}
