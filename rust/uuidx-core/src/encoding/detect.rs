//! Which form a text is: reading a UUID written in any of the encodings, or as a TypeID,
//! without being told which.

use super::{Encoding, FORMS};
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
/// - 26 characters: Crockford's base32, read with its aliases, as `ulid` when the text has no
///   lower case letter and as `base32` otherwise. `base32hex` has the same length and is never
///   guessed ([`Form::guessed`](super::Form::guessed));
/// - 22 characters: `base58`, `base62` or `base64url`, whichever of them decodes the text.
///   Their alphabets share most digits, so several often do, with different UUIDs: then the
///   one reading whose UUID has the RFC's layout ([`is_laid_out`]) is taken. The text of a UUID
///   with that layout is thus never read as another UUID, and is read as its own unless
///   another reading has the layout too (a value read in the wrong base has it by chance, 1
///   time in 8). When no reading or more than one has the layout, the text is ambiguous and
///   every reading is returned.
///
/// # Errors
/// The error of the form the text's length names; [`ErrorKind::Undetected`] for a length no
/// form has, or a text that none of the forms of its length decodes.
///
/// # Examples
/// ```
/// use uuidx_core::encoding::{detect, Encoding, Reading};
/// use uuidx_core::Uuid;
/// let u = Encoding::Ulid.decode("01H455VB4PEX5VSKNK084SN02Q").unwrap();
/// assert_eq!(detect("01H455VB4PEX5VSKNK084SN02Q").unwrap(), [Reading::Encoded(Encoding::Ulid, u)]);
/// assert_eq!(detect("user_01h455vb4pex5vsknk084sn02q").unwrap(), [Reading::TypeId("user", u)]);
/// // base58 and base62 both decode this text; as base62 it has no version: base58 it is.
/// let v = Uuid::from_u128(0x0194_1f29_7c00_7000_8638_4cb0_caa3_89a2);
/// assert_eq!(detect("1CJkdovgD4zmQRJZppjuNq").unwrap(), [Reading::Encoded(Encoding::Base58, v)]);
/// // The base58 text of `u` reads as a v7 in base62 too: ambiguous, both readings returned.
/// assert_eq!(detect(&Encoding::Base58.encode(u)).unwrap().len(), 2);
/// ```
pub fn detect(text: &str) -> Result<Vec<Reading<'_>>> {
    let length = text.chars().count();
    if length > SUFFIX_LEN + 1 && text.contains('_') {
        let (prefix, uuid) = typeid::parse_typeid(text)?;
        return Ok(vec![Reading::TypeId(prefix, uuid)]);
    }
    // The guessed forms of this length, one per number system: forms whose digits are the
    // same but for their case (`base32` and `ulid`) are one, read by the form that reads most.
    let mut systems: Vec<Vec<Encoding>> = Vec::new();
    for e in Encoding::ALL {
        let form = e.form();
        if form.len != length || !form.guessed {
            continue;
        }
        let same = |o: &Vec<Encoding>| o[0].form().alphabet.eq_ignore_ascii_case(form.alphabet);
        match systems.iter_mut().find(|o| same(o)) {
            Some(system) => system.push(e),
            None => systems.push(vec![e]),
        }
    }
    let read = |system: &[Encoding]| -> Result<Reading<'_>> {
        let reader = system
            .iter()
            .max_by_key(|e| e.form().aliases.len())
            .copied()
            .unwrap_or(system[0]);
        let uuid = reader.decode(text)?;
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
                None => Err(Undetected {
                    input: Input::new(text),
                    length,
                    tried: several.iter().flatten().copied().collect(),
                }
                .into()),
                Some(first) if readings.iter().all(|r| r.uuid() == first.uuid()) => {
                    Ok(vec![*first])
                }
                Some(_) => {
                    let mut laid_out = readings.iter().filter(|r| is_laid_out(r.uuid()));
                    match (laid_out.next(), laid_out.next()) {
                        (Some(only), None) => Ok(vec![*only]),
                        _ => Ok(readings),
                    }
                }
            }
        }
    }
}

/// `true` for a UUID of the RFC's layout: the variant `10` with a version it defines, 1 to 8
/// ([RFC 9562 §4.1](https://www.rfc-editor.org/rfc/rfc9562#section-4.1),
/// [§4.2](https://www.rfc-editor.org/rfc/rfc9562#section-4.2)), or the Nil or Max UUID
/// ([§5.9](https://www.rfc-editor.org/rfc/rfc9562#section-5.9),
/// [§5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)). [`detect`] takes, of a
/// text's several readings, the one that is.
pub fn is_laid_out(uuid: Uuid) -> bool {
    matches!(uuid.version_number(), Some(1..=8)) || uuid.is_nil() || uuid.is_max()
}

/// The form of `system` that `text` is written in: the upper case one for a text without a
/// lower case letter, else the lower case one.
fn named(system: &[Encoding], text: &str) -> Encoding {
    let case = if text.bytes().any(|b| b.is_ascii_lowercase()) {
        super::Case::Lower
    } else {
        super::Case::Upper
    };
    system
        .iter()
        .find(|e| e.form().case == case)
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
            if e.form().guessed {
                assert!(
                    readings.contains(&Reading::Encoded(e, u)),
                    "{e}: {readings:?}"
                );
            } else {
                assert!(readings.iter().all(|r| r.form() != e.name()), "{e}");
            }
        }
        assert_eq!(
            one(&Encoding::Hyphenated.encode(u).to_uppercase()),
            ("hyphenated", u)
        );
        assert_eq!(one("01H455VB4PEX5VSKNK084SN02Q"), ("ulid", u));
        assert_eq!(one("01h455vb4pex5vsknk084sn02q"), ("base32", u));
        assert_eq!(one("01h455VB4PEX5VSKNK084SN02Q"), ("base32", u));
        assert_eq!(one("O1H455VB4PEX5VSKNK084SN02Q"), ("ulid", u));
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

    #[test]
    fn the_reading_with_the_rfc_layout_is_taken() {
        let u = Uuid::from_u128(0x0194_1f29_7c00_7000_8638_4cb0_caa3_89a2);
        let text = Encoding::Base58.encode(u);
        let base62 = Encoding::Base62.decode(&text).unwrap();
        assert!(!is_laid_out(base62), "{base62:?}");
        assert_eq!(one(&text), ("base58", u));
    }

    #[test]
    fn ambiguous_text_has_every_reading() {
        // Both readings of this base58 text have the RFC's layout: a v7, and as base62 a v7.
        let u = Uuid::from_u128(V7);
        let text = Encoding::Base58.encode(u);
        let readings = detect(&text).unwrap();
        let forms: Vec<&str> = readings.iter().map(Reading::form).collect();
        assert_eq!(forms, ["base58", "base62"], "{text}");
        assert_eq!(readings[0].uuid(), u);
        assert!(
            readings.iter().all(|r| is_laid_out(r.uuid())),
            "{readings:?}"
        );
        assert_ne!(readings[0].uuid(), readings[1].uuid());
    }

    #[test]
    fn laid_out() {
        assert!(is_laid_out(Uuid::NIL) && is_laid_out(Uuid::MAX));
        assert!(is_laid_out(Uuid::from_u128(V7)));
        assert!(!is_laid_out(Uuid::from_u128(V7 & !(0xF << 76)))); // version 0
        assert!(!is_laid_out(Uuid::from_u128(V7 | (0xF << 76)))); // version 15
        assert!(!is_laid_out(Uuid::from_u128(V7 & !(1 << 63)))); // NCS variant
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
        assert!(message("8zzzzzzzzzzzzzzzzzzzzzzzzz")
            .starts_with("invalid base32 UUID \"8zzzzzzzzzzzzzzzzzzzzzzzzz\": '8' at position 0"));
        assert!(
            message("f81d4fae-7dec-11d0-a765-00a0c91e6bfg").starts_with("invalid hyphenated UUID ")
        );
        assert!(message(&"x".repeat(10_000)).len() < 400);
    }
}
