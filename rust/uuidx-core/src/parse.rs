//! Parsing the text forms of a UUID ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4); URN namespace of [RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4) / RFC 8141).
//!
//! Accepted, hex digits in either case:
//!
//! | form | length | example |
//! |---|---|---|
//! | hyphenated (the [§4](https://www.rfc-editor.org/rfc/rfc8141#section-4) ABNF) | 36 | `f81d4fae-7dec-11d0-a765-00a0c91e6bf6` |
//! | hex digits only | 32 | `f81d4fae7dec11d0a76500a0c91e6bf6` |
//! | braced hyphenated | 38 | `{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}` |
//! | URN, prefix in any case | 45 | `urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6` |
//!
//! Everything else is rejected with an error that names the input, what was expected and the
//! character position of the first problem.

use crate::encoding::Encoding;
use crate::{Error, Found, Input, Result, Uuid};
use core::fmt;

/// Text that is not one of the accepted UUID forms ([`crate::ErrorKind::Parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// The rejected input.
    pub input: Input,
    /// What was wrong.
    pub reason: ParseReason,
}

/// What exactly was wrong with a UUID string (see [`ParseError`]). Positions count characters
/// from the start of the input, starting at zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseReason {
    /// The length matches none of the accepted forms (36, 32, 38 or 45 characters).
    Length(usize),
    /// A character that is not a hexadecimal digit where one was expected.
    Char {
        /// The character found.
        found: Found,
        /// Its position.
        position: usize,
    },
    /// A hyphen missing at one of the group boundaries (positions 8, 13, 18, 23 of the
    /// hyphenated form).
    Hyphen {
        /// What was found instead.
        found: Found,
        /// Its position.
        position: usize,
    },
    /// A `{` without the closing `}` or the reverse.
    Braces,
    /// A 45-character string that does not start with `urn:uuid:`.
    UrnPrefix,
}

impl ParseReason {
    /// The character the reason points at, and its position, if it points at one.
    pub(crate) fn found_mut(&mut self) -> Option<(&mut Found, usize)> {
        match self {
            Self::Char { found, position } | Self::Hyphen { found, position } => {
                Some((found, *position))
            }
            _ => None,
        }
    }
}

impl fmt::Display for ParseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Length(n) => write!(
                f,
                "expected 36 characters (hyphenated), 32 (hex digits only), 38 ({{braced}}) \
                 or 45 (urn:uuid:), found {n}"
            ),
            Self::Char { found, position } => write!(
                f,
                "{} at position {position}: expected a hex digit",
                found.invalid()
            ),
            Self::Hyphen { found, position } => {
                write!(f, "expected '-' at position {position}, found {found}")
            }
            Self::Braces => f.write_str("expected a '{' at the start and a '}' at the end"),
            Self::UrnPrefix => f.write_str("a 45-character UUID must start with 'urn:uuid:'"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid UUID string {}: {}", self.input, self.reason)
    }
}

impl From<ParseError> for Error {
    fn from(error: ParseError) -> Self {
        Error::new(crate::ErrorKind::Parse(error))
    }
}

/// Value of each byte as a hex digit, or `0xFF`.
static HEX: &[u8; 256] = Encoding::Hex.decoding_table();

/// Byte offsets of the 16 digit pairs in the hyphenated form.
const HYPHENATED_PAIRS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/// Byte offsets of the hyphens in the hyphenated form.
const HYPHENS: [usize; 4] = [8, 13, 18, 23];

const URN_PREFIX: &[u8; 9] = b"urn:uuid:";

/// Parses any accepted form (see the module documentation).
///
/// # Errors
/// [`crate::ErrorKind::Parse`] describing the first problem.
///
/// # Examples
/// ```
/// use uuidx_core::parse::parse;
/// let a = parse("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").unwrap();
/// let b = parse("{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}").unwrap();
/// assert_eq!(a, b);
/// let err = parse("f81d4fae-7dec-11d0-a765-00a0c91e6bfg").unwrap_err();
/// assert!(err.to_string().contains("position 35"));
/// ```
pub fn parse(input: &str) -> Result<Uuid> {
    parse_bytes(input.as_bytes()).map_err(|reason| {
        if input.is_ascii() {
            parse_error(input, reason)
        } else {
            non_ascii_error(input)
        }
    })
}

/// The error for text with non-ASCII characters, with lengths and positions in characters:
/// the input is parsed again with each character as one byte (non-ASCII ones as `0xFF`).
#[cold]
fn non_ascii_error(input: &str) -> Error {
    let narrowed: Vec<u8> = input
        .chars()
        .map(|c| if c.is_ascii() { c as u8 } else { 0xFF })
        .collect();
    let fix = |position: usize| input.chars().nth(position).unwrap_or('\u{FFFD}');
    let reason = match parse_bytes(&narrowed) {
        Err(ParseReason::Char { position, .. }) => ParseReason::Char {
            found: Found::Char(fix(position)),
            position,
        },
        Err(ParseReason::Hyphen { position, .. }) => ParseReason::Hyphen {
            found: Found::Char(fix(position)),
            position,
        },
        Err(other) => other,
        // Unreachable: a non-ASCII character is never accepted; report it all the same.
        Ok(_) => {
            let position = narrowed.iter().position(|&b| b == 0xFF).unwrap_or(0);
            ParseReason::Char {
                found: Found::Char(fix(position)),
                position,
            }
        }
    };
    ParseError {
        input: Input::new(input),
        reason,
    }
    .into()
}

/// Parses a byte string holding one of the accepted forms.
///
/// # Errors
/// [`crate::ErrorKind::Parse`] describing the first problem; positions count bytes.
pub fn parse_ascii(input: &[u8]) -> Result<Uuid> {
    parse_bytes(input).map_err(|reason| parse_error(&String::from_utf8_lossy(input), reason))
}

fn parse_error(input: &str, reason: ParseReason) -> Error {
    // Positions were computed on bytes; report them in characters.
    let reason = match reason {
        ParseReason::Char { position, .. } | ParseReason::Hyphen { position, .. } => {
            let found = input.get(position..).and_then(|s| s.chars().next());
            let char_pos = input
                .get(..position)
                .map_or(position, |s| s.chars().count());
            match (reason, found) {
                (ParseReason::Hyphen { .. }, Some(found)) => ParseReason::Hyphen {
                    found: Found::Char(found),
                    position: char_pos,
                },
                (_, Some(found)) => ParseReason::Char {
                    found: Found::Char(found),
                    position: char_pos,
                },
                _ => reason,
            }
        }
        ParseReason::Length(_) => ParseReason::Length(input.chars().count()),
        other => other,
    };
    ParseError {
        input: Input::new(input),
        reason,
    }
    .into()
}

#[inline]
fn parse_bytes(s: &[u8]) -> core::result::Result<Uuid, ParseReason> {
    match fast(s) {
        Some(u) => Ok(u),
        None => reason(s),
    }
}

/// A byte of value `b` in each of the 16 bytes of a `u128`.
const fn splat(b: u8) -> u128 {
    u128::from_ne_bytes([b; 16])
}

/// The value of 16 hex digits (either case), most significant first, or `None` if any byte is
/// not a hex digit: checked and converted in one 128-bit register (SWAR) rather than one table
/// lookup and one branch per character.
#[inline]
fn hex16(chunk: &[u8; 16]) -> Option<u64> {
    const HIGH: u128 = splat(0x80);
    let x = u128::from_le_bytes(*chunk);
    // For bytes below 0x80, adding 0x80 - c sets bit 7 exactly when the byte is c or more,
    // without a carry into the next byte (a byte of 0x80 or more fails below whatever the
    // sums give, so they may wrap).
    let at_least = |v: u128, c: u8| v.wrapping_add(splat(0x80 - c)) & HIGH;
    let digit = at_least(x, b'0') & !at_least(x, b'9' + 1);
    let lower = x | splat(0x20);
    let letter = at_least(lower, b'a') & !at_least(lower, b'f' + 1);
    if x & HIGH != 0 || digit | letter != HIGH {
        return None;
    }
    // A digit's value is its low nibble, plus 9 for a letter (bit 6 set).
    let nibbles = (x & splat(0x0F)) + ((x >> 6) & splat(0x01)) * 9;
    // Characters 2j and 2j + 1 make byte j: (first << 4) | second, in the low byte of lane j.
    let mask16 = 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    let mut v = ((nibbles & mask16) << 4) | ((nibbles >> 8) & mask16);
    v = (v | (v >> 8)) & 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    v = (v | (v >> 16)) & 0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF;
    v = (v | (v >> 32)) & 0xFFFF_FFFF_FFFF_FFFF;
    // Byte 0 holds the first two characters: the most significant byte.
    Some((v as u64).swap_bytes())
}

/// The UUID of 32 hex digits (either case), most significant first, or `None` if any byte is
/// not a hex digit. Every step is the same branch-free operation on each of the 32 bytes, in
/// indexed loops over fixed-size arrays, so the compiler turns both loops into a few vector
/// instructions (SSE2 is part of x86-64's baseline); the validity test is a `|` of two
/// comparisons, not a short-circuit `&&`, which would be a branch per byte. Out of line and
/// returning bytes: inlined into its caller, or building the `u128` itself, the pairing loop
/// is no longer vectorised.
#[inline(never)]
fn hex32(digits: &[u8; 32]) -> Option<[u8; 16]> {
    let mut nibbles = [0u8; 32];
    let mut bad = 0u8;
    let mut i = 0;
    while i < 32 {
        let c = digits[i];
        let digit = c.wrapping_sub(b'0');
        // `| 0x20` folds upper case onto lower case; other bytes fail both tests.
        let letter = (c | 0x20).wrapping_sub(b'a');
        let (is_digit, is_letter) = (digit < 10, letter < 6);
        nibbles[i] = if is_digit {
            digit
        } else {
            letter.wrapping_add(10)
        };
        bad |= u8::from(!(is_digit | is_letter));
        i += 1;
    }
    if bad != 0 {
        return None;
    }
    let mut bytes = [0u8; 16];
    let mut j = 0;
    while j < 16 {
        bytes[j] = (nibbles[2 * j] << 4) | nibbles[2 * j + 1];
        j += 1;
    }
    Some(bytes)
}

/// The UUID of the 36-character hyphenated form.
#[inline]
fn hyphenated_fast(s: &[u8]) -> Option<Uuid> {
    let s: &[u8; 36] = s.try_into().ok()?;
    if (s[8] ^ b'-') | (s[13] ^ b'-') | (s[18] ^ b'-') | (s[23] ^ b'-') != 0 {
        return None;
    }
    let mut digits = [0u8; 32];
    digits[0..8].copy_from_slice(&s[0..8]);
    digits[8..12].copy_from_slice(&s[9..13]);
    digits[12..16].copy_from_slice(&s[14..18]);
    digits[16..20].copy_from_slice(&s[19..23]);
    digits[20..32].copy_from_slice(&s[24..36]);
    let (hi, lo) = digits.split_at(16);
    let hi = hex16(hi.try_into().ok()?)?;
    let lo = hex16(lo.try_into().ok()?)?;
    Some(Uuid::from_u128((u128::from(hi) << 64) | u128::from(lo)))
}

/// `true` for `urn:uuid:` in any case (letters only: the colons are exact).
#[inline]
fn urn_prefix(s: &[u8]) -> bool {
    let mut head = [0u8; 8];
    head.copy_from_slice(&s[..8]);
    // ORing 0x20 into the letter positions folds upper case onto lower case; a byte that is
    // not a letter cannot fold onto one of these letters.
    let folded =
        u64::from_le_bytes(head) | u64::from_le_bytes(*b"\x20\x20\x20\x00\x20\x20\x20\x20");
    folded == u64::from_le_bytes(*b"urn:uuid") && s[8] == b':'
}

/// The fast path: the accepted forms, or `None` for anything else (the slow path then finds
/// the first problem).
#[inline]
fn fast(s: &[u8]) -> Option<Uuid> {
    match s.len() {
        32 => hex32(s.try_into().ok()?).map(Uuid::from_bytes),
        36 => hyphenated_fast(s),
        38 if s[0] == b'{' && s[37] == b'}' => hyphenated_fast(&s[1..37]),
        45 if urn_prefix(s) => hyphenated_fast(&s[9..]),
        _ => None,
    }
}

/// The first problem of an input the fast path rejected, found character by character.
#[cold]
#[inline(never)]
fn reason(s: &[u8]) -> core::result::Result<Uuid, ParseReason> {
    match s.len() {
        36 => hyphenated(s, 0),
        32 => simple(s),
        38 => {
            if s[0] == b'{' && s[37] == b'}' {
                hyphenated(&s[1..37], 1)
            } else {
                Err(ParseReason::Braces)
            }
        }
        45 => {
            if s[..9].eq_ignore_ascii_case(URN_PREFIX) {
                hyphenated(&s[9..], 9)
            } else {
                Err(ParseReason::UrnPrefix)
            }
        }
        n => Err(ParseReason::Length(n)),
    }
}

/// Parses 32 hex digits.
#[inline]
fn simple(s: &[u8]) -> core::result::Result<Uuid, ParseReason> {
    let mut bytes = [0u8; 16];
    for (i, out) in bytes.iter_mut().enumerate() {
        let (hi, lo) = (HEX[s[2 * i] as usize], HEX[s[2 * i + 1] as usize]);
        if (hi | lo) & 0xF0 != 0 {
            return Err(bad_digit(s, 2 * i, 0));
        }
        *out = (hi << 4) | lo;
    }
    Ok(Uuid::from_bytes(bytes))
}

/// Parses the 36-character hyphenated form; `offset` is where it starts in the whole input.
#[inline]
fn hyphenated(s: &[u8], offset: usize) -> core::result::Result<Uuid, ParseReason> {
    for &h in &HYPHENS {
        if s[h] != b'-' {
            return Err(ParseReason::Hyphen {
                found: Found::Char(s[h] as char),
                position: h + offset,
            });
        }
    }
    let mut bytes = [0u8; 16];
    for (out, &p) in bytes.iter_mut().zip(&HYPHENATED_PAIRS) {
        let (hi, lo) = (HEX[s[p] as usize], HEX[s[p + 1] as usize]);
        if (hi | lo) & 0xF0 != 0 {
            return Err(bad_digit(s, p, offset));
        }
        *out = (hi << 4) | lo;
    }
    Ok(Uuid::from_bytes(bytes))
}

#[cold]
fn bad_digit(s: &[u8], pair: usize, offset: usize) -> ParseReason {
    let at = if HEX[s[pair] as usize] == 0xFF {
        pair
    } else {
        pair + 1
    };
    ParseReason::Char {
        found: Found::Char(s[at] as char),
        position: at + offset,
    }
}

impl core::str::FromStr for Uuid {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANON: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
    const VALUE: u128 = 0xf81d_4fae_7dec_11d0_a765_00a0_c91e_6bf6;

    #[test]
    fn accepts_every_form_in_any_case() {
        let forms = [
            CANON.to_owned(),
            CANON.to_uppercase(),
            CANON.replace('-', ""),
            format!("{{{CANON}}}"),
            format!("urn:uuid:{CANON}"),
            format!("URN:UUID:{}", CANON.to_uppercase()),
            format!("Urn:Uuid:{CANON}"),
        ];
        for form in &forms {
            assert_eq!(parse(form).unwrap().as_u128(), VALUE, "{form}");
            assert_eq!(parse_ascii(form.as_bytes()).unwrap().as_u128(), VALUE);
        }
    }

    #[test]
    fn every_byte_in_every_position() {
        // The fast paths (vector and SWAR) against the definition: a byte is accepted where a hex digit
        // belongs exactly when it is one, and then has its value.
        let base = *b"0123456789abcdefABCDEF0123456789";
        for position in 0..32 {
            for byte in 0..=255u8 {
                let mut text = base;
                text[position] = byte;
                let got = parse_ascii(&text).ok().map(Uuid::as_u128);
                let expected = (byte as char).to_digit(16).map(|_| {
                    u128::from_str_radix(core::str::from_utf8(&text).unwrap(), 16).unwrap()
                });
                assert_eq!(got, expected, "byte {byte:#04x} at {position}");
            }
        }
        let hyphenated = *b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
        for position in 0..36 {
            for byte in 0..=255u8 {
                let mut text = hyphenated;
                text[position] = byte;
                let ok = parse_ascii(&text).is_ok();
                let hyphen_slot = [8, 13, 18, 23].contains(&position);
                let expected = if hyphen_slot {
                    byte == b'-'
                } else {
                    byte.is_ascii_hexdigit()
                };
                assert_eq!(ok, expected, "byte {byte:#04x} at {position}");
            }
        }
    }

    #[test]
    fn urn_prefix_folds_letters_only() {
        let tail = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
        for prefix in ["urn:uuid:", "URN:UUID:", "uRn:UuId:"] {
            assert!(parse(&format!("{prefix}{tail}")).is_ok(), "{prefix}");
        }
        // 0x1A | 0x20 is ':', and '\x15' | 0x20 is '5': neither may pass for a colon or letter.
        for prefix in [
            "urn\u{1a}uuid:",
            "urn:uuid\u{1a}",
            "\u{15}rn:uuid:",
            "urn:uuie:",
            "urn_uuid:",
        ] {
            assert!(parse(&format!("{prefix}{tail}")).is_err(), "{prefix:?}");
        }
    }

    #[test]
    fn rejects_with_position() {
        let cases: &[(&str, &str)] = &[
            ("", "found 0"),
            ("f81d4fae-7dec-11d0-a765-00a0c91e6bf", "found 35"),
            (
                "f81d4fae_7dec-11d0-a765-00a0c91e6bf6",
                "expected '-' at position 8, found '_'",
            ),
            ("f81d4fae-7dec-11d0-a765-00a0c91e6bfx", "'x' at position 35"),
            ("x81d4fae7dec11d0a76500a0c91e6bf6", "'x' at position 0"),
            ("f81d4fae7dec11d0a76500a0c91e6bfé", "'é' at position 31"),
            (
                "f81d4fae-7dec-11d0-a765-00a0c91e6bf\u{660}",
                "at position 35",
            ),
            ("éf81d4fae-7dec-11d0-a765-00a0c91e6b", "found 35"),
            (
                "{f81d4fae-7dec-11d0-a765-00a0c91e6bfé}",
                "'é' at position 36",
            ),
            ("f81d4fae7dec11d0a76500a0c91e6bé", "found 31"),
            ("(f81d4fae-7dec-11d0-a765-00a0c91e6bf6)", "'{'"),
            ("urn:uuix:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:uuid:"),
            (
                "{f81d4fae-7dec-11d0-a765-00a0c91e6bfZ}",
                "'Z' at position 36",
            ),
            (
                "urn:uuid:f81d4fae-7dec-11d0+a765-00a0c91e6bf6",
                "position 27",
            ),
            ("+81d4fae-7dec-11d0-a765-00a0c91e6bf6", "'+' at position 0"),
            ("f81d4fae-7dec-11d0-a765-00a0c91e6bf ", "' ' at position 35"),
        ];
        for (input, needle) in cases {
            let msg = parse(input).unwrap_err().to_string();
            assert!(msg.contains(needle), "{input:?}: {msg}");
            assert!(msg.contains(&format!("{input:?}")), "{msg}");
        }
        let controls = "\u{5}".repeat(80);
        let msg = parse(&controls).unwrap_err().to_string();
        assert!(msg.len() < 200, "{msg}");
    }
}
