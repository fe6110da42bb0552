//! Parsing the text forms of a UUID (RFC 9562 §4; URN namespace of RFC 9562 §4 / RFC 8141).
//!
//! Accepted, hex digits in either case:
//!
//! | form | length | example |
//! |---|---|---|
//! | hyphenated (the §4 ABNF) | 36 | `f81d4fae-7dec-11d0-a765-00a0c91e6bf6` |
//! | hex digits only | 32 | `f81d4fae7dec11d0a76500a0c91e6bf6` |
//! | braced hyphenated | 38 | `{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}` |
//! | URN, prefix in any case | 45 | `urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6` |
//!
//! Everything else is rejected with an error that names the input, what was expected and the
//! character position of the first problem.

use crate::error::{shorten, ParseReason};
use crate::{Error, ErrorKind, Result, Uuid};

/// Value of each byte as a hex digit, or `0xFF`.
const HEX: [u8; 256] = {
    let mut table = [0xFF_u8; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

/// Byte offsets of the 16 digit pairs in the hyphenated form.
const HYPHENATED_PAIRS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/// Byte offsets of the hyphens in the hyphenated form.
const HYPHENS: [usize; 4] = [8, 13, 18, 23];

const URN_PREFIX: &[u8; 9] = b"urn:uuid:";

/// Parses any accepted form (see the module documentation).
///
/// # Errors
/// [`ErrorKind::Parse`] describing the first problem.
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
            found: fix(position),
            position,
        },
        Err(ParseReason::Hyphen { position, .. }) => ParseReason::Hyphen {
            found: fix(position),
            position,
        },
        Err(other) => other,
        // Unreachable: a non-ASCII character is never accepted; report it all the same.
        Ok(_) => {
            let position = narrowed.iter().position(|&b| b == 0xFF).unwrap_or(0);
            ParseReason::Char {
                found: fix(position),
                position,
            }
        }
    };
    Error::new(ErrorKind::Parse {
        input: shorten(input),
        reason,
    })
}

/// Parses a byte string holding one of the accepted forms.
///
/// # Errors
/// [`ErrorKind::Parse`] describing the first problem; positions count bytes.
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
                    found,
                    position: char_pos,
                },
                (_, Some(found)) => ParseReason::Char {
                    found,
                    position: char_pos,
                },
                _ => reason,
            }
        }
        ParseReason::Length(_) => ParseReason::Length(input.chars().count()),
        other => other,
    };
    Error::new(ErrorKind::Parse {
        input: shorten(input),
        reason,
    })
}

#[inline]
fn parse_bytes(s: &[u8]) -> core::result::Result<Uuid, ParseReason> {
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
    // One length check here, none per character below.
    let Ok(s) = <&[u8; 32]>::try_from(s) else {
        return Err(ParseReason::Length(s.len()));
    };
    // Every pair is decoded and the invalid ones detected together (`HEX` maps them to 0xFF),
    // with one branch for the whole input; the first bad pair is found again when there is one.
    let mut bytes = [0u8; 16];
    let mut seen = 0u8;
    for (i, out) in bytes.iter_mut().enumerate() {
        let (hi, lo) = (HEX[s[2 * i] as usize], HEX[s[2 * i + 1] as usize]);
        seen |= hi | lo;
        *out = (hi << 4) | lo;
    }
    if seen & 0xF0 != 0 {
        return Err(first_bad_digit(s, (0..32).step_by(2), 0));
    }
    Ok(Uuid::from_bytes(bytes))
}

/// Parses the 36-character hyphenated form; `offset` is where it starts in the whole input.
#[inline]
fn hyphenated(s: &[u8], offset: usize) -> core::result::Result<Uuid, ParseReason> {
    let Ok(s) = <&[u8; 36]>::try_from(s) else {
        return Err(ParseReason::Length(s.len() + offset));
    };
    for &h in &HYPHENS {
        if s[h] != b'-' {
            return Err(ParseReason::Hyphen {
                found: s[h] as char,
                position: h + offset,
            });
        }
    }
    let mut bytes = [0u8; 16];
    let mut seen = 0u8;
    for (out, &p) in bytes.iter_mut().zip(&HYPHENATED_PAIRS) {
        let (hi, lo) = (HEX[s[p] as usize], HEX[s[p + 1] as usize]);
        seen |= hi | lo;
        *out = (hi << 4) | lo;
    }
    if seen & 0xF0 != 0 {
        return Err(first_bad_digit(s, HYPHENATED_PAIRS.into_iter(), offset));
    }
    Ok(Uuid::from_bytes(bytes))
}

/// The error for the first pair among `pairs` (byte offsets) holding a non-hex character.
#[cold]
fn first_bad_digit(s: &[u8], mut pairs: impl Iterator<Item = usize>, offset: usize) -> ParseReason {
    let pair = pairs
        .find(|&p| (HEX[s[p] as usize] | HEX[s[p + 1] as usize]) & 0xF0 != 0)
        .unwrap_or(0);
    bad_digit(s, pair, offset)
}

#[cold]
fn bad_digit(s: &[u8], pair: usize, offset: usize) -> ParseReason {
    let at = if HEX[s[pair] as usize] == 0xFF {
        pair
    } else {
        pair + 1
    };
    ParseReason::Char {
        found: s[at] as char,
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
    }
}
