//! Text encodings of a UUID, by name: the hexadecimal forms of [RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4) and compact forms
//! that read the 128 bits as one number or as 16 octets.
//!
//! | [`Encoding`] | length | the Max UUID ([RFC 9562 §5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)) | sorts like the UUID |
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
//! the left with the zero digit; `base32hex` ([RFC 4648 §7](https://www.rfc-editor.org/rfc/rfc4648#section-7)) and `base64url` ([RFC 4648 §5](https://www.rfc-editor.org/rfc/rfc4648#section-5)) encode
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
//! - `base32hex`: upper case, as [RFC 4648 §7](https://www.rfc-editor.org/rfc/rfc4648#section-7) and PostgreSQL's `encode(..., 'base32hex')` write
//!   it; decoded in either case, as PostgreSQL's `decode` does (the lower case letters mean
//!   nothing else in this alphabet).
//! - `base58` (the Bitcoin alphabet), `base62` (`0-9A-Za-z`) and `base64url` ([RFC 4648 §5](https://www.rfc-editor.org/rfc/rfc4648#section-5))
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

use crate::{Error, ErrorKind, Input, Result, Uuid};
use core::fmt;

mod base32;
mod base64;
mod decode;
mod detect;
mod digits;
pub mod hex;
mod host;
mod radix;

pub(crate) use decode::typeid_suffix_problem;
pub use decode::{DecodeError, DecodeReason};
pub use detect::{detect, Reading, Undetected};
pub use host::HostText;

use base32::{base32hex, CROCKFORD_UPPER};
pub(crate) use base32::{crockford, crockford_decode, CROCKFORD_LOWER, TYPEID_SUFFIX};
use base64::base64url;
use digits::{decoding_table, INVALID};
use radix::{radix, BASE58, BASE62};

/// A text encoding of a UUID (see the [module documentation](crate::encoding) for each one's
/// rules). More may be added, so matches outside this crate need a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// 32 hex digits, Python's `UUID.hex` ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)).
    Hex,
    /// The 36-character hyphenated form of [RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4).
    Hyphenated,
    /// `urn:uuid:` and the hyphenated form, 45 characters ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)).
    Urn,
    /// The hyphenated form in braces, 38 characters.
    Braced,
    /// Crockford's base32 of the integer value, 26 characters, lower case.
    Base32,
    /// The text form of a ULID: Crockford's base32 of the integer value, 26 characters, upper
    /// case.
    Ulid,
    /// [RFC 4648 §7](https://www.rfc-editor.org/rfc/rfc4648#section-7) base32hex of the 16 octets, 26 characters, upper case, no padding.
    Base32Hex,
    /// The integer value in base 58 with the Bitcoin alphabet, 22 characters.
    Base58,
    /// The integer value in base 62 (`0-9A-Za-z`), 22 characters.
    Base62,
    /// [RFC 4648 §5](https://www.rfc-editor.org/rfc/rfc4648#section-5) base64url of the 16 octets, 22 characters, no padding.
    Base64Url,
}

/// How an encoding writes letters, and which it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Case {
    /// Written in lower case; read in either case.
    Lower,
    /// Written in upper case; read in either case.
    Upper,
    /// Upper and lower case letters are different digits: written and read as they are.
    Sensitive,
}

impl Case {
    /// `lower`, `upper` or `sensitive`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Lower => "lower",
            Self::Upper => "upper",
            Self::Sensitive => "sensitive",
        }
    }

    /// Whether letters are read in either case.
    pub(crate) const fn folds(self) -> bool {
        matches!(self, Self::Lower | Self::Upper)
    }
}

/// One row of the table of encodings ([`Encoding::form`]): what the encoders, the decoders,
/// their error messages and the bindings (Python's names, the command line's choices) know of
/// an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Form {
    /// The name, as the bindings spell it (what Python calls a *form*).
    pub name: &'static str,
    /// The length of every encoded UUID, in characters (all ASCII, so also in bytes).
    pub len: usize,
    /// The digits, in the order of their values.
    pub alphabet: &'static str,
    /// Which letters are written, and which are read.
    pub case: Case,
    /// Other characters read as digits, `(alias, digit)`, in either case if [`Form::case`]
    /// reads letters in either case.
    pub aliases: &'static [(u8, u8)],
    /// Whether encoded texts compare byte-wise as the UUIDs do: exactly when the alphabet is
    /// in ASCII order.
    pub sorts: bool,
    /// The Max UUID ([RFC 9562 §5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)) in this encoding.
    pub max: &'static str,
    /// What a character may be, as error messages say it.
    pub expected: &'static str,
}

impl Form {
    /// A row; [`Form::sorts`] is computed from the alphabet.
    const fn new(
        name: &'static str,
        len: usize,
        (alphabet, case, aliases): (&'static str, Case, &'static [(u8, u8)]),
        max: &'static str,
        expected: &'static str,
    ) -> Self {
        Self {
            name,
            len,
            alphabet,
            case,
            aliases,
            sorts: ascending(alphabet.as_bytes()),
            max,
            expected,
        }
    }
}

/// Whether `bytes` are in strictly increasing order.
const fn ascending(bytes: &[u8]) -> bool {
    let mut i = 1;
    while i < bytes.len() {
        if bytes[i - 1] >= bytes[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Hex digits, written in lower case and read in either.
const HEX: (&str, Case, &[(u8, u8)]) = ("0123456789abcdef", Case::Lower, &[]);
/// What a character of the hexadecimal forms may be.
const HEX_EXPECTED: &str = "a hex digit";
/// Crockford's base32 digits, lower case.
const CROCKFORD: &str = "0123456789abcdefghjkmnpqrstvwxyz";

/// The table of encodings, in the order of [`Encoding`]'s variants.
const FORMS: [Form; 10] = [
    Form::new("hex", 32, HEX, MAX_HEX, HEX_EXPECTED),
    Form::new("hyphenated", 36, HEX, MAX_HYPHENATED, HEX_EXPECTED),
    Form::new("urn", 45, HEX, MAX_URN, HEX_EXPECTED),
    Form::new("braced", 38, HEX, MAX_BRACED, HEX_EXPECTED),
    Form::new(
        "base32",
        26,
        (
            CROCKFORD,
            Case::Lower,
            &[(b'i', b'1'), (b'l', b'1'), (b'o', b'0')],
        ),
        "7zzzzzzzzzzzzzzzzzzzzzzzzz",
        "a Crockford base32 digit: 0-9 or a letter other than U, in either case \
         (I and L read as 1, O as 0)",
    ),
    Form::new(
        "ulid",
        26,
        ("0123456789ABCDEFGHJKMNPQRSTVWXYZ", Case::Upper, &[]),
        "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "a Crockford base32 digit: 0-9 or a letter other than I, L, O and U, in either case",
    ),
    Form::new(
        "base32hex",
        26,
        ("0123456789ABCDEFGHIJKLMNOPQRSTUV", Case::Upper, &[]),
        "VVVVVVVVVVVVVVVVVVVVVVVVVS",
        "a base32hex digit: 0-9 or A-V, in either case",
    ),
    Form::new(
        "base58",
        22,
        (
            "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
            Case::Sensitive,
            &[],
        ),
        "YcVfxkQb6JRzqk5kF2tNLv",
        "a base58 digit: 1-9 or a letter other than I, O and l",
    ),
    Form::new(
        "base62",
        22,
        (
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            Case::Sensitive,
            &[],
        ),
        "7n42DGM5Tflk9n8mt7Fhc7",
        "a base62 digit: 0-9, A-Z or a-z",
    ),
    Form::new(
        "base64url",
        22,
        (
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
            Case::Sensitive,
            &[],
        ),
        "_____________________w",
        "a base64url digit: A-Z, a-z, 0-9, '-' or '_'",
    ),
];

const MAX_HEX: &str = "ffffffffffffffffffffffffffffffff";
const MAX_HYPHENATED: &str = "ffffffff-ffff-ffff-ffff-ffffffffffff";
const MAX_URN: &str = "urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff";
const MAX_BRACED: &str = "{ffffffff-ffff-ffff-ffff-ffffffffffff}";

/// [`FORMS`] where a reference to a row must live as long as the program.
static ROWS: [Form; 10] = FORMS;

/// The decoding table of each row: each byte's value as a digit, or [`digits::INVALID`].
static DECODE: [[u8; 256]; 10] = {
    let mut tables = [[INVALID; 256]; 10];
    let mut i = 0;
    while i < FORMS.len() {
        let form = &FORMS[i];
        tables[i] = decoding_table(form.alphabet, form.case.folds(), form.aliases);
        i += 1;
    }
    tables
};

/// The alphabet of `encoding`, as the `N` bytes its encoder indexes.
const fn alphabet<const N: usize>(encoding: Encoding) -> [u8; N] {
    let text = FORMS[encoding as usize].alphabet.as_bytes();
    assert!(text.len() == N);
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = text[i];
        i += 1;
    }
    out
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

    /// The hexadecimal forms of [RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4), which [`crate::parse::parse`] reads (telling
    /// them apart by their lengths).
    pub const HEX_FORMS: [Self; 4] = [Self::Hex, Self::Hyphenated, Self::Urn, Self::Braced];

    /// The longest encoded length, that of [`Encoding::Urn`].
    pub const MAX_LEN: usize = 45;

    /// The encoding's row in the table of encodings.
    #[inline]
    pub fn form(self) -> &'static Form {
        &ROWS[self as usize]
    }

    /// The encoding's name, as bindings spell it: `hex`, `hyphenated`, `urn`, `braced`,
    /// `base32`, `ulid`, `base32hex`, `base58`, `base62` or `base64url`.
    pub const fn name(self) -> &'static str {
        FORMS[self as usize].name
    }

    /// The encoding with this name (exactly as [`Encoding::name`] spells it).
    ///
    /// # Errors
    /// [`crate::ErrorKind::UnknownForm`] for any other name, listing the names.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| {
                UnknownForm {
                    name: Input::new(name),
                }
                .into()
            })
    }

    /// The length of every encoded UUID, in characters (all ASCII, so also in bytes).
    #[allow(clippy::len_without_is_empty)] // The length of every encoded text, not a collection's.
    #[inline]
    pub const fn len(self) -> usize {
        FORMS[self as usize].len
    }

    /// The decoding table: each byte's value as a digit, or [`digits::INVALID`].
    #[inline]
    pub(crate) const fn decoding_table(self) -> &'static [u8; 256] {
        &DECODE[self as usize]
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
        let v = uuid.as_u128();
        match self {
            Self::Hex => self.put(out, &hex::digits(uuid, false)),
            Self::Hyphenated => self.put(out, &hex::hyphenated(uuid, false)),
            Self::Urn => {
                let mut text = [0u8; 45];
                text[..9].copy_from_slice(b"urn:uuid:");
                text[9..].copy_from_slice(&hex::hyphenated(uuid, false));
                self.put(out, &text)
            }
            Self::Braced => {
                let mut text = [b'}'; 38];
                text[0] = b'{';
                text[1..37].copy_from_slice(&hex::hyphenated(uuid, false));
                self.put(out, &text)
            }
            Self::Base32 => self.put(out, &crockford(v, &CROCKFORD_LOWER)),
            Self::Ulid => self.put(out, &crockford(v, &CROCKFORD_UPPER)),
            Self::Base32Hex => self.put(out, &base32hex(v)),
            Self::Base58 => self.put(out, &radix(v, &BASE58)),
            Self::Base62 => self.put(out, &radix(v, &BASE62)),
            Self::Base64Url => self.put(out, &base64url(v)),
        }
    }

    /// Copies the `N` bytes of `text`, this encoding's text of some UUID, to the start of
    /// `out`, and returns `N`. The length is the encoder's, known where it is called, rather
    /// than [`Encoding::len`]'s, which the compiler would read from the table.
    ///
    /// # Panics
    /// If `out` is shorter than `N`.
    #[inline(always)]
    fn put<const N: usize>(self, out: &mut [u8], text: &[u8; N]) -> usize {
        debug_assert_eq!(N, self.len());
        assert!(
            out.len() >= N,
            "a {} UUID needs {N} bytes, the buffer has {}",
            self.name(),
            out.len()
        );
        out[..N].copy_from_slice(text);
        N
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
}

/// A name that is no encoding's ([`crate::ErrorKind::UnknownForm`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownForm {
    /// The rejected name.
    pub name: Input,
}

impl fmt::Display for UnknownForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown form {}: expected one of ", self.name)?;
        for (i, e) in Encoding::ALL.iter().enumerate() {
            let comma = if i == 0 { "" } else { ", " };
            write!(f, "{comma}'{e}'")?;
        }
        Ok(())
    }
}

impl From<UnknownForm> for Error {
    fn from(error: UnknownForm) -> Self {
        Error::new(ErrorKind::UnknownForm(error))
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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

#[cfg(test)]
mod tests;
