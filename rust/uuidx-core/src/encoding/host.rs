//! Text from a host language whose strings hold what no Rust string can: lone surrogates.
//!
//! Python's `str` (like JavaScript's strings and Windows file names) can hold a lone surrogate,
//! a code point from U+D800 to U+DFFF without its pair, which UTF-8 cannot encode. No UUID form
//! holds one, so such text is always rejected; [`HostText`] lets the readers of this crate
//! reject it in the same words as any other bad character, naming the surrogate and its
//! position.

use crate::parse::ParseReason;
use crate::{Error, ErrorKind, Found, Input, Result};

/// Text as a host language holds it: code points, some of which may be lone surrogates.
///
/// The readers of this crate see it with each lone surrogate replaced by U+FFFD (which no
/// alphabet holds, so lengths and positions still count the host's characters); their errors
/// name the surrogate itself ([`Found::Surrogate`]).
///
/// # Examples
/// ```
/// use uuidx_core::encoding::{Encoding, HostText};
/// let text = HostText::from_code_points("1BzmjTFLHWXwiSK4y3H5i".chars().map(u32::from).chain([0xD800]));
/// let err = text.read("'1BzmjTFLHWXwiSK4y3H5i\\ud800'", |s| Encoding::Base58.decode(s)).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid base58 UUID '1BzmjTFLHWXwiSK4y3H5i\\ud800': lone surrogate '\\ud800' at \
///      position 21: expected a base58 digit: 1-9 or a letter other than I, O and l"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostText {
    /// The text, each lone surrogate (or other code point that is no `char`) as U+FFFD.
    text: String,
    /// The position and code of each lone surrogate, in order.
    surrogates: Vec<(usize, u16)>,
}

impl HostText {
    /// The text of these code points (a host string's UTF-32, `surrogatepass` in Python's
    /// terms).
    pub fn from_code_points(code_points: impl IntoIterator<Item = u32>) -> Self {
        let mut surrogates = Vec::new();
        let text = code_points
            .into_iter()
            .enumerate()
            .map(|(position, code)| {
                char::from_u32(code).unwrap_or_else(|| {
                    if let Ok(unit @ 0xD800..=0xDFFF) = u16::try_from(code) {
                        surrogates.push((position, unit));
                    }
                    char::REPLACEMENT_CHARACTER
                })
            })
            .collect();
        Self { text, surrogates }
    }

    /// The text with each lone surrogate replaced by U+FFFD.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// [`HostText::as_str`], owned.
    pub fn into_string(self) -> String {
        self.text
    }

    /// Reads the text with `read`, one of this crate's readers ([`crate::parse::parse`],
    /// [`super::Encoding::decode`], [`crate::typeid::parse_typeid`], ...). If it fails, the
    /// error shows the input as `shown`, how the host shows this text (for Python, its
    /// `repr`), and names the lone surrogate where it reports a U+FFFD that stood for one.
    ///
    /// Parsing guesses the form from the length, which a lone surrogate leaves in doubt: a
    /// parse error of text that holds one names its first lone surrogate, whatever else is
    /// wrong.
    ///
    /// # Errors
    /// The error of `read`, amended as said.
    pub fn read<'a, T>(
        &'a self,
        shown: &str,
        read: impl FnOnce(&'a str) -> Result<T>,
    ) -> Result<T> {
        read(&self.text).map_err(|err| self.name_surrogates(err.shown_as(shown)))
    }

    /// `err` with each U+FFFD it points at that stood for a lone surrogate replaced by it.
    fn name_surrogates(&self, mut err: Error) -> Error {
        let found = match err.kind_mut() {
            ErrorKind::Parse(e) => {
                if let Some(&(position, code)) = self.surrogates.first() {
                    e.reason = ParseReason::Char {
                        found: Found::Surrogate(code),
                        position,
                    };
                }
                None
            }
            ErrorKind::Decode(e) => e.reason.found_mut(),
            ErrorKind::TypeId(e) => e.reason.found_mut(),
            ErrorKind::TypeIdPrefix(e) => e.reason.found_mut(),
            _ => None,
        };
        if let Some((found, position)) = found {
            if *found == Found::Char(char::REPLACEMENT_CHARACTER) {
                if let Some(&(_, code)) = self.surrogates.iter().find(|&&(at, _)| at == position) {
                    *found = Found::Surrogate(code);
                }
            }
        }
        err
    }
}

impl Error {
    /// This error, showing the input it names as `shown`: how the program that passed the
    /// input shows it (for Python, its `repr`), for bindings whose users know their values in
    /// that form. Errors that name no input are returned as they are.
    #[must_use]
    pub fn shown_as(mut self, shown: &str) -> Self {
        let input = match self.kind_mut() {
            ErrorKind::Parse(e) => &mut e.input,
            ErrorKind::Decode(e) => &mut e.input,
            ErrorKind::UnknownForm(e) => &mut e.name,
            ErrorKind::Undetected(e) => &mut e.input,
            ErrorKind::TypeId(e) => &mut e.input,
            ErrorKind::TypeIdPrefix(e) => &mut e.prefix,
            ErrorKind::UnknownAlgorithm(e) => &mut e.name,
            _ => return self,
        };
        *input = Input::Shown(shown.to_owned());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::Encoding;
    use crate::{parse, typeid};

    fn host(text: &str, surrogates: &[(usize, u16)]) -> HostText {
        let mut points: Vec<u32> = text.chars().map(u32::from).collect();
        for &(at, code) in surrogates {
            points.insert(at, u32::from(code));
        }
        HostText::from_code_points(points)
    }

    #[test]
    fn surrogates_are_named_where_the_readers_point() {
        type Read = fn(&str) -> Result<()>;
        let cases: [(HostText, Read, &str); 6] = [
            (
                host("01H455VB4PEX5VSKNK084SN02", &[(24, 0xDC80)]),
                |s| Encoding::Ulid.decode(s).map(drop),
                "invalid ulid UUID S: lone surrogate '\\udc80' at position 24: expected a \
                 Crockford base32 digit: 0-9 or a letter other than I, L, O and U, in either case",
            ),
            (
                host("f81d4fae7dec-11d0-a765-00a0c91e6bf6", &[(8, 0xD800)]),
                |s| Encoding::Hyphenated.decode(s).map(drop),
                "invalid hyphenated UUID S: expected '-' at position 8, found lone surrogate \
                 '\\ud800'",
            ),
            (
                host("", &[(0, 0xD800)]),
                |s| Encoding::Hex.decode(s).map(drop),
                "invalid hex UUID S: expected 32 characters, found 1",
            ),
            (
                host("{", &[(1, 0xDBFF)]),
                |s| parse::parse(s).map(drop),
                "invalid UUID string S: lone surrogate '\\udbff' at position 1: expected a hex \
                 digit",
            ),
            (
                host("pre_01h455vb4pex5vsknk084sn02q", &[(3, 0xD800)]),
                |s| typeid::parse_typeid(s).map(drop),
                "invalid TypeID S: lone surrogate '\\ud800' at position 3 in the prefix: expected \
                 a lowercase ASCII letter or '_'",
            ),
            (
                host("pre_01h455vb4pex5vsknk084sn02", &[(29, 0xDFFF)]),
                |s| typeid::parse_typeid(s).map(drop),
                "invalid TypeID S: in the suffix, lone surrogate '\\udfff' at position 29: \
                 expected a lowercase Crockford base32 digit: 0-9 or a letter other than i, l, \
                 o and u",
            ),
        ];
        for (text, read, message) in cases {
            let err = text.read("S", read).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
    }

    #[test]
    fn a_real_replacement_character_is_not_a_surrogate() {
        let text = host("\u{FFFD}", &[(1, 0xD800)]);
        assert_eq!(text.as_str(), "\u{FFFD}\u{FFFD}");
        let err = text.read("S", |s| Encoding::Base58.decode(s)).unwrap_err();
        assert!(err.to_string().ends_with("found 2"), "{err}");
        let text = host("1BzmjTFLHWXwiSK4y3H5\u{FFFD}", &[(21, 0xD800)]);
        let err = text.read("S", |s| Encoding::Base58.decode(s)).unwrap_err();
        assert!(
            err.to_string()
                .contains("invalid character '\u{FFFD}' at position 20"),
            "{err}"
        );
    }

    #[test]
    fn shown_as_replaces_the_input_only() {
        let err = Encoding::from_name("base36")
            .unwrap_err()
            .shown_as("'base36'");
        assert!(err
            .to_string()
            .starts_with("unknown form 'base36': expected one of 'hex', "));
        let err = crate::Error::invalid_length("x", 1, 2);
        assert_eq!(err.clone().shown_as("'x'"), err);
    }
}
