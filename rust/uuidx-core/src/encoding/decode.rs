//! Decoding: the fast decoders of the hot path, and the reference decoder that finds the
//! first problem of a rejected input, with the reasons it reports.

use super::base32::{base32hex_decode, crockford_decode, TYPEID_SUFFIX};
use super::base64::base64url_decode;
use super::digits::INVALID;
use super::radix::{radix_decode, BASE58, BASE62};
use super::{Encoding, FORMS};
use crate::parse::{self, ParseReason};
use crate::{Error, ErrorKind, Found, Input, Uuid};
use core::fmt;

impl Encoding {
    /// The decoder of the hot path: `None` for any invalid input, without saying why.
    #[inline]
    pub(super) fn decode_fast(self, s: &[u8]) -> Option<u128> {
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
            Self::Base32 | Self::Ulid => {
                crockford_decode(s.try_into().ok()?, self.decoding_table())
            }
            Self::Base32Hex => base32hex_decode(s.try_into().ok()?, self.decoding_table()),
            Self::Base58 => radix_decode(s.try_into().ok()?, &BASE58),
            Self::Base62 => radix_decode(s.try_into().ok()?, &BASE62),
            Self::Base64Url => base64url_decode(s.try_into().ok()?, self.decoding_table()),
        }
    }

    /// The error for an input that [`Encoding::decode_fast`] rejected: the input is decoded
    /// again, by [`Encoding::decode_reference`], with each character narrowed to one byte
    /// (non-ASCII ones to `0xFF`), so that lengths and positions count characters.
    #[cold]
    #[inline(never)]
    pub(super) fn decode_error(self, input: &[u8]) -> Error {
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
                        found: Found::Char('\u{FFFD}'),
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
        DecodeError {
            input: Input::new(&text),
            encoding: self,
            reason,
        }
        .into()
    }

    /// A plain decoder, independent of the fast one, that finds the first problem from left to
    /// right: the length, then characters outside the alphabet, then the value's range. Used
    /// for error messages and, in tests, as the reference the fast decoders must agree with.
    pub(super) fn decode_reference(self, s: &[u8]) -> core::result::Result<u128, DecodeReason> {
        if s.len() != self.len() {
            return Err(DecodeReason::Length {
                expected: self.len(),
                found: s.len(),
            });
        }
        // Whether the digits hold the octets (followed by zero bits) rather than the integer.
        let octets = match self {
            Self::Hex | Self::Hyphenated | Self::Urn | Self::Braced => {
                return parse::parse_ascii(s)
                    .map(Uuid::as_u128)
                    .map_err(|e| self.reason_of_parse_error(&e));
            }
            Self::Base32 | Self::Ulid | Self::Base58 | Self::Base62 => false,
            Self::Base32Hex | Self::Base64Url => true,
        };
        let table = self.decoding_table();
        let base = self.form().alphabet.len() as u32;
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

    /// The Max UUID in this encoding.
    pub(super) const fn max(self) -> &'static str {
        FORMS[self as usize].max
    }

    /// What a character of this encoding may be, for error messages.
    const fn expected(self) -> &'static str {
        FORMS[self as usize].expected
    }

    /// The reason of a [`crate::parse`] error, for the hexadecimal forms.
    fn reason_of_parse_error(self, error: &Error) -> DecodeReason {
        match error.kind() {
            ErrorKind::Parse(parse::ParseError {
                reason: ParseReason::Char { found, position },
                ..
            }) => DecodeReason::Char {
                found: *found,
                position: *position,
                expected: self.expected(),
            },
            ErrorKind::Parse(e) => DecodeReason::Syntax(e.reason),
            // Unreachable: parsing fails with nothing else.
            _ => DecodeReason::Length {
                expected: self.len(),
                found: 0,
            },
        }
    }
}

/// Text that is not a UUID in the named encoding ([`crate::ErrorKind::Decode`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeError {
    /// The rejected input.
    pub input: Input,
    /// The encoding it was decoded with.
    pub encoding: Encoding,
    /// What was wrong.
    pub reason: DecodeReason,
}

/// What exactly was wrong with an encoded UUID (see [`DecodeError`]). Positions count
/// characters (not bytes) from the start of the input, starting at zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeReason {
    /// The text is not as long as the encoding's fixed length.
    Length {
        /// The encoding's length, in characters.
        expected: usize,
        /// The input's length, in characters.
        found: usize,
    },
    /// A character outside the encoding's alphabet.
    Char {
        /// The character found.
        found: Found,
        /// Its position.
        position: usize,
        /// What the encoding accepts there ([`super::Form::expected`]).
        expected: &'static str,
    },
    /// Digits whose value is above 2**128 - 1: the first position where the input exceeds the
    /// largest encoded UUID, `max`.
    Overflow {
        /// The character found.
        found: char,
        /// Its position.
        position: usize,
        /// The encoding of the Max UUID ([RFC 9562 §5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)).
        max: &'static str,
    },
    /// A last character that sets bits after the 128th, which a canonical encoding leaves at
    /// zero ([RFC 4648 §3.5](https://www.rfc-editor.org/rfc/rfc4648#section-3.5)).
    TrailingBits {
        /// The character found.
        found: char,
        /// Its position.
        position: usize,
    },
    /// A structural problem in one of the hexadecimal forms (a missing hyphen, brace or URN
    /// prefix), as reported by [`crate::parse`].
    Syntax(ParseReason),
}

impl DecodeReason {
    /// The character the reason points at, and its position, if it may be one that is not a
    /// digit of any alphabet.
    pub(crate) fn found_mut(&mut self) -> Option<(&mut Found, usize)> {
        match self {
            Self::Char {
                found, position, ..
            } => Some((found, *position)),
            Self::Syntax(reason) => reason.found_mut(),
            _ => None,
        }
    }
}

impl fmt::Display for DecodeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Length { expected, found } => {
                write!(f, "expected {expected} characters, found {found}")
            }
            Self::Char {
                found,
                position,
                expected,
            } => write!(
                f,
                "{} at position {position}: expected {expected}",
                found.invalid()
            ),
            Self::Overflow {
                found,
                position,
                max,
            } => write!(
                f,
                "{found:?} at position {position} makes the value exceed 2**128 - 1 \
                 (the largest is {max:?})"
            ),
            Self::TrailingBits { found, position } => write!(
                f,
                "{found:?} at position {position} sets bits after the 128th, which must be zero"
            ),
            Self::Syntax(reason) => reason.fmt(f),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} UUID {}: {}",
            self.encoding, self.input, self.reason
        )
    }
}

impl From<DecodeError> for Error {
    fn from(error: DecodeError) -> Self {
        Error::new(ErrorKind::Decode(error))
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
                found: Found::Char(b as char),
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
    let table = &TYPEID_SUFFIX;
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
            found: Found::Char(at(position)),
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
                found: Found::Char(at(position)),
                position,
            })
        }
        other => other,
    }
}
