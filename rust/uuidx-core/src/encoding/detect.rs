//! Which form a text is: reading a UUID written in any of the encodings, or as a TypeID,
//! without being told which.

use super::{digits::INVALID, Encoding, FORMS};
use crate::typeid::{self, SUFFIX_LEN};
use crate::{Error, ErrorKind, Input, Result, Uuid};
use core::fmt;

/// One way to read a text as a UUID (see [`detect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading<'a> {
    /// The text is the UUID in this encoding.
    Encoded(Encoding, Uuid),
    /// The text is a TypeID: its prefix (empty for none) and its UUID.
    TypeId(&'a str, Uuid),
}

impl Reading<'_> {
    /// The form's name: the encoding's, or `typeid`.
    pub fn form(&self) -> &'static str {
        match self {
            Self::Encoded(encoding, _) => encoding.name(),
            Self::TypeId(..) => "typeid",
        }
    }

    /// The UUID.
    pub fn uuid(&self) -> Uuid {
        match *self {
            Self::Encoded(_, uuid) | Self::TypeId(_, uuid) => uuid,
        }
    }
}

/// Reads a UUID written in any form, recognised by its length, then its alphabet:
///
/// - longer than 27 characters with an underscore: a TypeID (no encoding has an underscore
///   there);
/// - a length that one form has (32 `hex`, 36 `hyphenated`, 38 `braced`, 45 `urn`): that form;
/// - 26 characters: Crockford's base32 (read with its aliases, named `ulid` when the text has
///   no lower case letter and `ulid` reads it, `base32` otherwise) and `base32hex`;
/// - 22 characters: `base58`, `base62` and `base64url`.
///
/// The rule: every form of the text's length that decodes it is a reading. The text is read
/// as a UUID only when all its readings give that one UUID (then the first is returned);
/// when they give different UUIDs, it is ambiguous and every reading is returned, for the
/// caller to refuse it and name each. So a text written in any of these forms is either read
/// as its own UUID or refused with its own UUID among the readings, never read as another
/// one. Nothing is preferred by likelihood (a version, a layout): a value with no RFC layout
/// is as much a UUID's 128 bits as one with it.
///
/// Forms whose digits differ only by their case (`base32` and `ulid`) are one reading.
///
/// # Errors
/// The error of the form the text's length names; [`ErrorKind::Undetected`] for a length no
/// form has, or a text that none of the forms of its length decodes (but the error of the one
/// form whose digits it is written in, when there is one: `8zzzzzzzzzzzzzzzzzzzzzzzzz` is
/// too large a base32 number, not a text in no form).
///
/// # Examples
/// ```
/// use uuidx_core::encoding::{detect, Encoding, Reading};
/// use uuidx_core::Uuid;
/// let u = Encoding::Ulid.decode("01H455VB4PEX5VSKNK084SN02Q").unwrap();
/// assert_eq!(detect("01H455VB4PEX5VSKNK084SN02Q").unwrap(), [Reading::Encoded(Encoding::Ulid, u)]);
/// assert_eq!(detect("user_01h455vb4pex5vsknk084sn02q").unwrap(), [Reading::TypeId("user", u)]);
/// // base58 and base62 both decode this text, into different UUIDs: ambiguous.
/// let v = Uuid::from_u128(0x0194_1f29_7c00_7000_8638_4cb0_caa3_89a2);
/// let readings = detect("1CJkdovgD4zmQRJZppjuNq").unwrap();
/// assert_eq!(readings.len(), 2);
/// assert_eq!(readings[0], Reading::Encoded(Encoding::Base58, v));
/// assert_eq!(readings[1].form(), "base62");
/// // Only base64url has '-': one reading.
/// let w = Uuid::from_u128(0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6);
/// assert_eq!(detect("-B1Prn3sEdCnZQCgyR5r9g").unwrap(), [Reading::Encoded(Encoding::Base64Url, w)]);
/// ```
pub fn detect(text: &str) -> Result<Vec<Reading<'_>>> {
    let length = text.chars().count();
    if length > SUFFIX_LEN + 1 && text.contains('_') {
        let (prefix, uuid) = typeid::parse_typeid(text)?;
        return Ok(vec![Reading::TypeId(prefix, uuid)]);
    }
    // The forms of this length, one per number system: forms whose digits are the same but
    // for their case (`base32` and `ulid`) are one, read by the form that reads most.
    let mut systems: Vec<Vec<Encoding>> = Vec::new();
    for e in Encoding::ALL {
        let form = e.form();
        if form.len != length {
            continue;
        }
        let same = |o: &Vec<Encoding>| o[0].form().alphabet.eq_ignore_ascii_case(form.alphabet);
        match systems.iter_mut().find(|o| same(o)) {
            Some(system) => system.push(e),
            None => systems.push(vec![e]),
        }
    }
    let reader = |system: &[Encoding]| -> Encoding {
        system
            .iter()
            .max_by_key(|e| e.form().aliases.len())
            .copied()
            .unwrap_or(system[0])
    };
    let read = |system: &[Encoding]| -> Result<Reading<'_>> {
        let uuid = reader(system).decode(text)?;
        Ok(Reading::Encoded(named(system, text), uuid))
    };
    match systems.as_slice() {
        [] => Err(Undetected {
            input: Input::new(text),
            length,
            tried: Vec::new(),
        }
        .into()),
        [system] => Ok(vec![read(system)?]),
        several => {
            let readings: Vec<Reading<'_>> = several.iter().filter_map(|s| read(s).ok()).collect();
            match readings.first() {
                Some(first) if readings.iter().all(|r| r.uuid() == first.uuid()) => {
                    Ok(vec![*first])
                }
                Some(_) => Ok(readings),
                None => {
                    // The one system whose digits the text is written in says what is wrong
                    // with it (a value too large, non-zero trailing bits), with its position.
                    let table = |s: &&Vec<Encoding>| reader(s).decoding_table();
                    let mut written_in = several
                        .iter()
                        .filter(|s| text.bytes().all(|b| table(s)[usize::from(b)] != INVALID));
                    if let (Some(only), None) = (written_in.next(), written_in.next()) {
                        return Ok(vec![read(only)?]);
                    }
                    Err(Undetected {
                        input: Input::new(text),
                        length,
                        tried: several.iter().flatten().copied().collect(),
                    }
                    .into())
                }
            }
        }
    }
}

/// The form of `system` that `text` is written in and that decodes it: of those that decode
/// it, the upper case one for a text without a lower case letter, else the lower case one
/// (`ulid` is named only for a text `ulid` itself reads, without Crockford's aliases, so that
/// `--from` with that name reads it too).
fn named(system: &[Encoding], text: &str) -> Encoding {
    let case = if text.bytes().any(|b| b.is_ascii_lowercase()) {
        super::Case::Lower
    } else {
        super::Case::Upper
    };
    let decodes = |e: &&Encoding| e.decode_fast(text.as_bytes()).is_some();
    system
        .iter()
        .filter(decodes)
        .find(|e| e.form().case == case)
        .or_else(|| system.iter().find(decodes))
        .copied()
        .unwrap_or(system[0])
}

/// A text in no form ([`ErrorKind::Undetected`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Undetected {
    /// The rejected input.
    pub input: Input,
    /// Its length, in characters.
    pub length: usize,
    /// The encodings of this length that were tried, none of which decodes it; empty when no
    /// form has this length.
    pub tried: Vec<Encoding>,
}

impl fmt::Display for Undetected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (input, length) = (&self.input, self.length);
        if let Some((last, rest)) = self.tried.split_last() {
            let rest: Vec<&str> = rest.iter().map(|e| e.name()).collect();
            let or = if rest.is_empty() { "" } else { " or " };
            return write!(
                f,
                "invalid UUID {input}: {length} characters, but not {}{or}{last}",
                rest.join(", ")
            );
        }
        let mut lengths: Vec<usize> = Vec::new();
        for form in &FORMS {
            if !lengths.contains(&form.len) {
                lengths.push(form.len);
            }
        }
        let forms: Vec<String> = lengths
            .into_iter()
            .map(|len| {
                let names: Vec<&str> = FORMS
                    .iter()
                    .filter(|form| form.len == len)
                    .map(|form| form.name)
                    .collect();
                format!("{len} ({})", names.join(", "))
            })
            .collect();
        write!(
            f,
            "invalid UUID {input}: {length} characters; expected {} or a TypeID (prefix, '_' \
             and {SUFFIX_LEN})",
            forms.join(", ")
        )
    }
}

impl From<Undetected> for Error {
    fn from(error: Undetected) -> Self {
        Error::new(ErrorKind::Undetected(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V7: u128 = 0x0189_0a5d_ac96_774b_bcce_b302_099a_8057;

    fn one(text: &str) -> (&'static str, Uuid) {
        match detect(text).unwrap().as_slice() {
            [reading] => (reading.form(), reading.uuid()),
            several => panic!("{text:?}: {several:?}"),
        }
    }

    #[test]
    fn each_form_is_recognised() {
        let u = Uuid::from_u128(V7);
        for e in Encoding::ALL {
            let text = e.encode(u);
            let readings = detect(&text).unwrap();
            assert!(readings.iter().any(|r| r.uuid() == u), "{e}: {readings:?}");
        }
        assert_eq!(
            one(&Encoding::Hyphenated.encode(u).to_uppercase()),
            ("hyphenated", u)
        );
        assert_eq!(one("01H455VB4PEX5VSKNK084SN02Q"), ("ulid", u));
        assert_eq!(one("01h455vb4pex5vsknk084sn02q"), ("base32", u));
        assert_eq!(one("01h455VB4PEX5VSKNK084SN02Q"), ("base32", u));
        // Crockford's alias: `ulid` does not read it, so the reading is named `base32`.
        assert_eq!(one("O1H455VB4PEX5VSKNK084SN02Q"), ("base32", u));
        assert_eq!(one(&Encoding::Base64Url.encode(u)), ("base64url", u));
    }

    #[test]
    fn typeids_of_any_length() {
        let u = Uuid::from_u128(V7);
        for prefix in [
            "a",
            "users",
            "user_account",
            "abcdefghijk",
            "abcdefghijklmnopqr",
        ] {
            let text = typeid::typeid(prefix, u).unwrap();
            assert_eq!(
                detect(&text).unwrap(),
                [Reading::TypeId(prefix, u)],
                "{text}"
            );
        }
        let err = detect("pre_01H455VB4PEX5VSKNK084SN02Q").unwrap_err();
        assert!(err.to_string().contains("'H' at position 6"), "{err}");
    }

    /// Issue 34: the base32hex text of a v4 was read as a ULID, another UUID.
    #[test]
    fn base32hex_that_crockford_reads_too_is_ambiguous() {
        let u = Uuid::from_u128(0x0189_0a5d_ac96_474b_bcce_b302_099a_8057);
        let text = Encoding::Base32Hex.encode(u);
        assert!(text.starts_with("064GKNDC"), "{text}");
        let readings = detect(&text).unwrap();
        let crockford = Encoding::Base32.decode(&text).unwrap();
        // The text has Crockford's aliases (I, L, O), which `ulid` does not read: `base32`.
        assert_eq!(
            readings,
            [
                Reading::Encoded(Encoding::Base32, crockford),
                Reading::Encoded(Encoding::Base32Hex, u)
            ]
        );
        assert_ne!(crockford, u);
    }

    #[test]
    fn base32hex_that_only_it_reads_is_read() {
        // 'U' is no Crockford digit, nor an alias of one.
        let text = "U".repeat(25) + "0";
        let u = Encoding::Base32Hex.decode(&text).unwrap();
        assert_eq!(one(&text), ("base32hex", u));
        assert_eq!(one(&text.to_lowercase()), ("base32hex", u));
    }

    #[test]
    fn different_readings_are_ambiguous_whatever_their_layout() {
        // Its base62 reading has no version: before, the base58 one was taken; a base62 text
        // of that value would then have been read as another UUID.
        let u = Uuid::from_u128(0x0194_1f29_7c00_7000_8638_4cb0_caa3_89a2);
        let text = Encoding::Base58.encode(u);
        let base62 = Encoding::Base62.decode(&text).unwrap();
        assert_eq!(
            detect(&text).unwrap(),
            [
                Reading::Encoded(Encoding::Base58, u),
                Reading::Encoded(Encoding::Base62, base62)
            ]
        );
        assert_eq!(
            detect(&Encoding::Base62.encode(base62)).unwrap(),
            detect(&text).unwrap()
        );
    }

    #[test]
    fn readings_that_agree_are_one() {
        // All 26-character readings of the Nil UUID are zero.
        assert_eq!(
            detect(&"0".repeat(26)).unwrap(),
            [Reading::Encoded(Encoding::Ulid, Uuid::NIL)]
        );
    }

    #[test]
    fn errors() {
        let message = |text: &str| detect(text).unwrap_err().to_string();
        assert_eq!(
            message("nope"),
            "invalid UUID \"nope\": 4 characters; expected 32 (hex), 36 (hyphenated), 45 (urn), \
             38 (braced), 26 (base32, ulid, base32hex), 22 (base58, base62, base64url) or a \
             TypeID (prefix, '_' and 26)"
        );
        assert_eq!(
            message(&"!".repeat(22)),
            "invalid UUID \"!!!!!!!!!!!!!!!!!!!!!!\": 22 characters, but not base58, base62 or \
             base64url"
        );
        assert_eq!(
            message(&"!".repeat(26)),
            "invalid UUID \"!!!!!!!!!!!!!!!!!!!!!!!!!!\": 26 characters, but not base32, ulid or \
             base32hex"
        );
        // Only Crockford's digits: its error, with the position.
        assert!(message("8zzzzzzzzzzzzzzzzzzzzzzzzz")
            .starts_with("invalid base32 UUID \"8zzzzzzzzzzzzzzzzzzzzzzzzz\": '8' at position 0"));
        // Only base32hex's digits ('U'), a trailing bit set.
        assert!(message(&("U".repeat(25) + "1")).starts_with("invalid base32hex UUID "));
        assert!(
            message("f81d4fae-7dec-11d0-a765-00a0c91e6bfg").starts_with("invalid hyphenated UUID ")
        );
        assert!(message(&"x".repeat(10_000)).len() < 400);
    }
}
