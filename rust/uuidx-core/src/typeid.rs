//! TypeIDs (<https://github.com/jetify-com/typeid>, specification v0.3): a UUID with a type
//! prefix, such as `user_01h455vb4pex5vsknk084sn02q`.
//!
//! A TypeID is `prefix_suffix`, or the suffix alone when the prefix is empty:
//!
//! - the prefix is at most 63 characters, lowercase ASCII letters and underscores, and does
//!   not start or end with an underscore;
//! - the suffix is the UUID's 128-bit value (Python's `UUID.int`; [RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)) in Crockford's
//!   base32, lower case, 26 characters, the first at most `7` so that it fits 128 bits: the
//!   same text as [`crate::encoding::Encoding::Base32`] writes;
//! - a TypeID splits at its last underscore, so the suffix never holds one.
//!
//! Parsing is stricter than the `base32` encoding, as the specification's conformance cases
//! require: the suffix must be lower case, and Crockford's aliases (`i`, `l`, `o`) and hyphens
//! are rejected. Errors name the input (shortened) and the character position of the first
//! problem, from left to right: the separator, the prefix, then the suffix.
//!
//! # Examples
//!
//! ```
//! use uuidx_core::{typeid, Uuid};
//! let u = Uuid::from_u128(0x01890a5d_ac96_774b_bcce_b302099a8057);
//! assert_eq!(typeid::typeid("user", u).unwrap(), "user_01h455vb4pex5vsknk084sn02q");
//! assert_eq!(typeid::parse_typeid("user_01h455vb4pex5vsknk084sn02q").unwrap(), ("user", u));
//! assert_eq!(typeid::parse_typeid("01h455vb4pex5vsknk084sn02q").unwrap(), ("", u));
//! let err = typeid::parse_typeid("user_01H455VB4PEX5VSKNK084SN02Q").unwrap_err();
//! assert!(err.to_string().contains("'H' at position 7"));
//! ```

use crate::encoding::{crockford, crockford_decode, typeid_suffix_problem, DecodeReason};
use crate::encoding::{CROCKFORD_LOWER, TYPEID_SUFFIX};
use crate::{Error, ErrorKind, Found, Input, Result, Uuid};
use core::fmt;

/// The longest prefix, in characters.
pub const MAX_PREFIX_LEN: usize = 63;
/// The suffix's length, in characters.
pub const SUFFIX_LEN: usize = 26;
/// The longest TypeID: a prefix of [`MAX_PREFIX_LEN`], `_` and the suffix.
pub const MAX_LEN: usize = MAX_PREFIX_LEN + 1 + SUFFIX_LEN;

/// Text that is not a TypeID ([`crate::ErrorKind::TypeId`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TypeIdError {
    /// The rejected input.
    pub input: Input,
    /// What was wrong.
    pub reason: TypeIdReason,
}

/// A TypeID prefix that breaks the rules ([`crate::ErrorKind::TypeIdPrefix`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PrefixError {
    /// The rejected prefix.
    pub prefix: Input,
    /// What was wrong: one of the prefix reasons of [`TypeIdReason`].
    pub reason: TypeIdReason,
}

/// What exactly was wrong with a TypeID or its prefix (see [`TypeIdError`] and
/// [`PrefixError`]). Positions count characters from the start of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypeIdReason {
    /// A prefix longer than [`MAX_PREFIX_LEN`] characters.
    PrefixLength(usize),
    /// A prefix character other than a lowercase ASCII letter or `_`.
    PrefixChar {
        /// The character found.
        found: Found,
        /// Its position.
        position: usize,
    },
    /// A prefix that starts or ends with `_`.
    PrefixUnderscore {
        /// The underscore's position.
        position: usize,
    },
    /// A `_` separator with nothing before it: without a prefix, a TypeID is the suffix alone.
    EmptyPrefix,
    /// A suffix that is not 26 lowercase Crockford base32 characters of at most 128 bits;
    /// positions count from the start of the whole TypeID.
    Suffix(DecodeReason),
}

impl TypeIdReason {
    /// The character the reason points at, and its position, if it may be one that is not a
    /// digit of any alphabet.
    pub(crate) fn found_mut(&mut self) -> Option<(&mut Found, usize)> {
        match self {
            Self::PrefixChar { found, position } => Some((found, *position)),
            Self::Suffix(reason) => reason.found_mut(),
            _ => None,
        }
    }
}

impl fmt::Display for TypeIdReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::PrefixLength(n) => write!(
                f,
                "the prefix has {n} characters: expected at most {MAX_PREFIX_LEN}"
            ),
            Self::PrefixChar { found, position } => write!(
                f,
                "{} at position {position} in the prefix: \
                 expected a lowercase ASCII letter or '_'",
                found.invalid()
            ),
            Self::PrefixUnderscore { position } => write!(
                f,
                "'_' at position {position}: the prefix must not start or end with '_'"
            ),
            Self::EmptyPrefix => f.write_str(
                "'_' at position 0 with an empty prefix: without a prefix, a TypeID is the \
                 26-character suffix alone",
            ),
            Self::Suffix(reason) => write!(f, "in the suffix, {reason}"),
        }
    }
}

impl fmt::Display for TypeIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid TypeID {}: {}", self.input, self.reason)
    }
}

impl fmt::Display for PrefixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid TypeID prefix {}: {}", self.prefix, self.reason)
    }
}

impl From<TypeIdError> for Error {
    fn from(error: TypeIdError) -> Self {
        Error::new(ErrorKind::TypeId(error))
    }
}

impl From<PrefixError> for Error {
    fn from(error: PrefixError) -> Self {
        Error::new(ErrorKind::TypeIdPrefix(error))
    }
}

/// Checks that `prefix` is a valid TypeID prefix (the empty string is).
///
/// # Errors
/// [`crate::ErrorKind::TypeIdPrefix`] naming the prefix and its first problem.
///
/// # Examples
/// ```
/// use uuidx_core::typeid::check_prefix;
/// assert!(check_prefix("user_account").is_ok());
/// assert!(check_prefix("").is_ok());
/// let err = check_prefix("User").unwrap_err();
/// assert!(err.to_string().contains("'U' at position 0"));
/// ```
#[inline]
pub fn check_prefix(prefix: &str) -> Result<()> {
    if is_valid_prefix(prefix.as_bytes()) {
        Ok(())
    } else {
        Err(prefix_error(prefix))
    }
}

#[cold]
fn prefix_error(prefix: &str) -> Error {
    PrefixError {
        prefix: Input::new(prefix),
        // Never the fallback: `is_valid_prefix` and `prefix_problem` agree.
        reason: prefix_problem(prefix).unwrap_or(TypeIdReason::PrefixLength(prefix.len())),
    }
    .into()
}

/// The TypeID of `uuid` with `prefix` (the suffix alone if `prefix` is empty).
///
/// # Errors
/// [`crate::ErrorKind::TypeIdPrefix`] if the prefix breaks the rules.
pub fn typeid(prefix: &str, uuid: Uuid) -> Result<String> {
    let mut out = [0u8; MAX_LEN];
    let n = typeid_into(prefix, uuid, &mut out)?;
    // Only ASCII was written.
    Ok(out[..n].iter().map(|&b| char::from(b)).collect())
}

/// Writes the TypeID of `uuid` with `prefix` to the start of `out` and returns its length,
/// `prefix.len() + 27` (or 26 without prefix). Nothing is allocated.
///
/// # Errors
/// [`crate::ErrorKind::TypeIdPrefix`] if the prefix breaks the rules; `out` is then untouched.
///
/// # Panics
/// If the prefix is valid and `out` is too short for the TypeID ([`MAX_LEN`] is always
/// enough).
///
/// # Examples
/// ```
/// use uuidx_core::{typeid::{typeid_into, MAX_LEN}, Uuid};
/// let mut buf = [0u8; MAX_LEN];
/// let n = typeid_into("nil", Uuid::NIL, &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"nil_00000000000000000000000000");
/// ```
#[inline]
pub fn typeid_into(prefix: &str, uuid: Uuid, out: &mut [u8]) -> Result<usize> {
    check_prefix(prefix)?;
    let start = if prefix.is_empty() {
        0
    } else {
        prefix.len() + 1
    };
    let len = start + SUFFIX_LEN;
    assert!(
        out.len() >= len,
        "a TypeID with prefix {prefix:?} needs {len} bytes, the buffer has {}",
        out.len()
    );
    if start > 0 {
        out[..prefix.len()].copy_from_slice(prefix.as_bytes());
        out[prefix.len()] = b'_';
    }
    out[start..len].copy_from_slice(&crockford(uuid.as_u128(), &CROCKFORD_LOWER));
    Ok(len)
}

/// Parses a TypeID into its prefix (borrowed from `input`, empty if there is none) and its
/// UUID. Nothing is allocated unless it fails.
///
/// # Errors
/// [`crate::ErrorKind::TypeId`] naming the input (shortened) and the first problem, with its
/// character position.
#[inline]
pub fn parse_typeid(input: &str) -> Result<(&str, Uuid)> {
    match parse_fast(input) {
        Some(parsed) => Ok(parsed),
        None => Err(parse_error(input)),
    }
}

/// The parser of the hot path, `None` for any invalid input. It takes the last 26 bytes as the
/// suffix without searching for the separator: a valid suffix holds no underscore, so when it
/// decodes, the separator, if any, is the byte before it, as splitting at the last underscore
/// would find.
#[inline]
fn parse_fast(input: &str) -> Option<(&str, Uuid)> {
    let bytes = input.as_bytes();
    let head_len = bytes.len().checked_sub(SUFFIX_LEN)?;
    let (head, suffix) = bytes.split_at(head_len);
    let value = crockford_decode(suffix.try_into().ok()?, &TYPEID_SUFFIX)?;
    let prefix = match head {
        [] => "",
        [prefix @ .., b'_'] if !prefix.is_empty() && is_valid_prefix(prefix) => {
            // ASCII, so these are character boundaries.
            input.get(..prefix.len())?
        }
        _ => return None,
    };
    Some((prefix, Uuid::from_u128(value)))
}

/// The error for an input that [`parse_fast`] rejected: the TypeID split at its last
/// underscore, then the first problem from left to right.
#[cold]
#[inline(never)]
fn parse_error(input: &str) -> Error {
    let (prefix, suffix, offset) = match input.bytes().rposition(|b| b == b'_') {
        None => ("", input, 0),
        Some(0) => return typeid_error(input, TypeIdReason::EmptyPrefix),
        Some(i) => (&input[..i], &input[i + 1..], i + 1),
    };
    if let Some(reason) = prefix_problem(prefix) {
        return typeid_error(input, reason);
    }
    // The prefix is ASCII: `offset` counts characters too. With a valid prefix, only the
    // suffix can be at fault (`parse_fast` accepts every valid TypeID); if it were not, the
    // suffix is reported all the same.
    let reason = typeid_suffix_problem(suffix, offset).unwrap_or(DecodeReason::Length {
        expected: SUFFIX_LEN,
        found: suffix.chars().count(),
    });
    typeid_error(input, TypeIdReason::Suffix(reason))
}

fn typeid_error(input: &str, reason: TypeIdReason) -> Error {
    TypeIdError {
        input: Input::new(input),
        reason,
    }
    .into()
}

/// Whether `prefix` is valid: what [`prefix_problem`] checks, as one pass.
#[inline]
fn is_valid_prefix(prefix: &[u8]) -> bool {
    prefix.len() <= MAX_PREFIX_LEN
        && prefix.first() != Some(&b'_')
        && prefix.last() != Some(&b'_')
        && prefix.iter().all(|&b| b.is_ascii_lowercase() || b == b'_')
}

/// The first problem of a prefix, from left to right, or `None` if it is valid.
#[inline]
fn prefix_problem(prefix: &str) -> Option<TypeIdReason> {
    let bytes = prefix.as_bytes();
    if let Some(position) = bytes
        .iter()
        .position(|&b| !(b.is_ascii_lowercase() || b == b'_'))
    {
        // Every byte before it is ASCII, so `position` is a character boundary and counts
        // characters.
        let found = prefix[position..].chars().next().unwrap_or('\u{FFFD}');
        return Some(TypeIdReason::PrefixChar {
            found: Found::Char(found),
            position,
        });
    }
    if bytes.first() == Some(&b'_') {
        return Some(TypeIdReason::PrefixUnderscore { position: 0 });
    }
    if bytes.last() == Some(&b'_') {
        return Some(TypeIdReason::PrefixUnderscore {
            position: bytes.len() - 1,
        });
    }
    (bytes.len() > MAX_PREFIX_LEN).then_some(TypeIdReason::PrefixLength(bytes.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const U: u128 = 0x0189_0a5d_ac96_774b_bcce_b302_099a_8057;
    const SUFFIX: &str = "01h455vb4pex5vsknk084sn02q";

    #[test]
    fn round_trips() {
        let u = Uuid::from_u128(U);
        for prefix in ["", "a", "user", "pre_fix", "a_b_c", &"x".repeat(63)] {
            let text = typeid(prefix, u).unwrap();
            let expected = if prefix.is_empty() {
                SUFFIX.to_owned()
            } else {
                format!("{prefix}_{SUFFIX}")
            };
            assert_eq!(text, expected);
            assert_eq!(parse_typeid(&text).unwrap(), (prefix, u));
        }
    }

    /// `(input, the reason)`; positions count characters of the whole TypeID.
    fn rejected() -> Vec<(String, TypeIdReason)> {
        let suffix_char = |found, position| {
            TypeIdReason::Suffix(DecodeReason::Char {
                found: Found::Char(found),
                position,
                expected: "a lowercase Crockford base32 digit: 0-9 or a letter other than \
                           i, l, o and u",
            })
        };
        let long = "a".repeat(64);
        vec![
            (
                String::new(),
                TypeIdReason::Suffix(DecodeReason::Length {
                    expected: 26,
                    found: 0,
                }),
            ),
            ("_".into(), TypeIdReason::EmptyPrefix),
            (format!("_{SUFFIX}"), TypeIdReason::EmptyPrefix),
            (
                format!("Pre_{SUFFIX}"),
                TypeIdReason::PrefixChar {
                    found: Found::Char('P'),
                    position: 0,
                },
            ),
            (
                format!("pré_{SUFFIX}"),
                TypeIdReason::PrefixChar {
                    found: Found::Char('é'),
                    position: 2,
                },
            ),
            (
                format!("a1_{SUFFIX}"),
                TypeIdReason::PrefixChar {
                    found: Found::Char('1'),
                    position: 1,
                },
            ),
            (
                format!("_pre_{SUFFIX}"),
                TypeIdReason::PrefixUnderscore { position: 0 },
            ),
            (
                format!("pre__{SUFFIX}"),
                TypeIdReason::PrefixUnderscore { position: 3 },
            ),
            (format!("{long}_{SUFFIX}"), TypeIdReason::PrefixLength(64)),
            (
                "pre_".into(),
                TypeIdReason::Suffix(DecodeReason::Length {
                    expected: 26,
                    found: 0,
                }),
            ),
            (
                format!("pre_{SUFFIX}é"),
                TypeIdReason::Suffix(DecodeReason::Length {
                    expected: 26,
                    found: 27,
                }),
            ),
            (
                format!("pre_{}", SUFFIX.to_uppercase()),
                suffix_char('H', 6),
            ),
            ("pre_0i23456789abcdefghjkmnpqrs".into(), suffix_char('i', 5)),
            (
                "pre_01234567890abcdefghjkmnpqé".into(),
                suffix_char('é', 29),
            ),
            ("é1234567890abcdefghjkmnpqr".into(), suffix_char('é', 0)),
            (
                "pre_8zzzzzzzzzzzzzzzzzzzzzzzzz".into(),
                TypeIdReason::Suffix(DecodeReason::Overflow {
                    found: '8',
                    position: 4,
                    max: "7zzzzzzzzzzzzzzzzzzzzzzzzz",
                }),
            ),
        ]
    }

    #[test]
    fn rejects_with_reason_and_position() {
        for (input, reason) in rejected() {
            let err = parse_typeid(&input).unwrap_err();
            assert_eq!(
                err.kind(),
                &ErrorKind::TypeId(TypeIdError {
                    input: Input::new(&input),
                    reason
                }),
                "{input:?}: {err}"
            );
            assert!(
                err.to_string()
                    .starts_with(&format!("invalid TypeID {}: ", Input::new(&input))),
                "{err}"
            );
        }
    }

    #[test]
    fn messages() {
        let msg = |s: &str| parse_typeid(s).unwrap_err().to_string();
        assert_eq!(
            msg("PREFIX_00000000000000000000000000"),
            "invalid TypeID \"PREFIX_00000000000000000000000000\": invalid character 'P' at \
             position 0 in the prefix: expected a lowercase ASCII letter or '_'"
        );
        assert_eq!(
            msg("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz"),
            "invalid TypeID \"prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz\": in the suffix, '8' at \
             position 7 makes the value exceed 2**128 - 1 (the largest is \
             \"7zzzzzzzzzzzzzzzzzzzzzzzzz\")"
        );
        assert_eq!(
            msg("_"),
            "invalid TypeID \"_\": '_' at position 0 with an empty prefix: without a prefix, \
             a TypeID is the 26-character suffix alone"
        );
        assert!(msg(&"a".repeat(100_000)).len() < 200);
    }

    #[test]
    fn invalid_prefixes_are_refused_when_encoding() {
        let err = typeid("user_", Uuid::NIL).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid TypeID prefix \"user_\": '_' at position 4: the prefix must not start or \
             end with '_'"
        );
        for prefix in ["User", "_x", "x_", "a-b", "é", &"a".repeat(64)] {
            let err = typeid(prefix, Uuid::NIL).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::TypeIdPrefix { .. }),
                "{err}"
            );
        }
        let mut buf = [7u8; MAX_LEN];
        assert!(typeid_into("A", Uuid::NIL, &mut buf).is_err());
        assert_eq!(buf, [7u8; MAX_LEN]);
    }

    #[test]
    #[should_panic(expected = "needs 30 bytes, the buffer has 29")]
    fn typeid_into_a_short_buffer_panics() {
        let _ = typeid_into("pre", Uuid::NIL, &mut [0; 29]);
    }
}
