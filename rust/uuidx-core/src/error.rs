//! The crate's single error type.
//!
//! [`Error`] wraps an [`ErrorKind`]; the kind is `#[non_exhaustive]`, so new failure cases can be
//! added without breaking callers. Every message names the offending value and what was expected.

use core::fmt;
use std::sync::Arc;

/// Why a UUID operation failed. Inspect it with [`Error::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(ErrorKind);

/// An error raised by a caller-supplied clock or random source (see [`Error::external`]),
/// carried through the generators unchanged so that bindings can hand the original back.
/// Two `External` errors are equal when they wrap the same error object.
#[derive(Clone, Debug)]
pub struct External(pub Arc<dyn std::error::Error + Send + Sync>);

impl PartialEq for External {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for External {}

/// The failure cases of this crate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Text that is not one of the accepted UUID forms (RFC 9562 §4).
    Parse {
        /// The rejected input, possibly shortened for display.
        input: String,
        /// What was wrong.
        reason: ParseReason,
    },
    /// Text that is not a UUID in the named [`crate::encoding::Encoding`].
    Decode {
        /// The rejected input, possibly shortened for display.
        input: String,
        /// The encoding it was decoded with.
        encoding: crate::encoding::Encoding,
        /// What was wrong.
        reason: DecodeReason,
    },
    /// Text that is not a TypeID (see [`crate::typeid`]).
    TypeId {
        /// The rejected input, possibly shortened for display.
        input: String,
        /// What was wrong.
        reason: TypeIdReason,
    },
    /// A TypeID prefix that breaks the TypeID rules (see [`crate::typeid`]).
    TypeIdPrefix {
        /// The rejected prefix, possibly shortened for display.
        prefix: String,
        /// What was wrong: one of the prefix reasons of [`TypeIdReason`].
        reason: TypeIdReason,
    },
    /// A layout field does not fit its bit width.
    FieldOutOfRange {
        /// RFC 9562 name of the field, e.g. `node` or `unix_ts_ms`.
        field: &'static str,
        /// The rejected value, as text (it may be larger than any Rust integer).
        value: String,
        /// Width of the field in bits.
        bits: u32,
    },
    /// A byte string of the wrong length.
    InvalidLength {
        /// What the bytes were for.
        what: &'static str,
        /// Expected number of bytes.
        expected: usize,
        /// Number of bytes received.
        found: usize,
    },
    /// A hash algorithm name that this crate does not offer for name-based UUIDs.
    UnknownAlgorithm(String),
    /// The UUID's layout carries no timestamp (only versions 1, 6 and 7 do).
    NoTimestamp {
        /// The UUID, hyphenated.
        uuid: String,
    },
    /// The UUID is not of the version an operation needs.
    WrongVersion {
        /// The UUID, hyphenated.
        uuid: String,
        /// What was expected, e.g. "a version 7 UUID to mask".
        expected: &'static str,
    },
    /// The UUID has no RFC 9562 field layout (not the RFC variant, or an unassigned version).
    NoLayout {
        /// The UUID, hyphenated.
        uuid: String,
    },
    /// The clock is behind the last timestamp a generator used by more than its allowance,
    /// and the generator's policy is to report it (RFC 9562 §6.2, "Monotonic Error Checking").
    ClockRollback {
        /// How far behind, in nanoseconds.
        behind_ns: u64,
        /// The configured allowance, in nanoseconds.
        allowance_ns: u64,
    },
    /// A generator option outside its valid range.
    InvalidOption {
        /// The option's name.
        option: &'static str,
        /// The rejected value.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A timestamp outside what the layout can hold (for example before the Unix epoch for v7).
    TimestampOutOfRange {
        /// The layout.
        layout: &'static str,
        /// The rejected timestamp, as text.
        value: String,
    },
    /// A clock reading before the Unix epoch, 1970-01-01: a clock that is not set (RFC 9562
    /// §6.1 leaves "altered or incorrect" clocks to the implementation; uuidx refuses them
    /// rather than make UUIDs that claim 1970).
    ClockBeforeEpoch {
        /// How far before the epoch, in nanoseconds (saturated at `u64::MAX`).
        before_ns: u64,
    },
    /// A bulk request whose result could never fit in this machine's memory.
    TooLarge {
        /// The number of UUIDs asked for.
        count: u64,
        /// The bytes they would take, at least (saturated at `u64::MAX`).
        bytes: u64,
        /// The memory this process can have, in bytes.
        limit: u64,
    },
    /// A caller-supplied clock or random source failed, or returned something unusable; the
    /// error is its own (see [`Error::external`]).
    External(External),
    /// One row of a column operation failed (see [`crate::column`]).
    Row {
        /// The zero-based index of the row in the column.
        index: usize,
        /// What was wrong with it.
        error: Box<Error>,
    },
}

/// What exactly was wrong with a UUID string (see [`ErrorKind::Parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseReason {
    /// The length matches none of the accepted forms (36, 32, 38 or 45 characters).
    Length(usize),
    /// A character that is not a hexadecimal digit where one was expected.
    Char {
        /// The character found.
        found: char,
        /// Its zero-based character position in the input.
        position: usize,
    },
    /// A hyphen missing at one of the group boundaries (positions 8, 13, 18, 23 of the
    /// hyphenated form).
    Hyphen {
        /// What was found instead.
        found: char,
        /// Its zero-based character position in the input.
        position: usize,
    },
    /// A `{` without the closing `}` or the reverse.
    Braces,
    /// A 45-character string that does not start with `urn:uuid:`.
    UrnPrefix,
}

/// What exactly was wrong with an encoded UUID (see [`ErrorKind::Decode`]). Positions count
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
        found: char,
        /// Its position.
        position: usize,
        /// What the encoding accepts there.
        expected: &'static str,
    },
    /// Digits whose value is above 2**128 - 1: the first position where the input exceeds the
    /// largest encoded UUID, `max`.
    Overflow {
        /// The character found.
        found: char,
        /// Its position.
        position: usize,
        /// The encoding of the Max UUID (RFC 9562 §5.10).
        max: &'static str,
    },
    /// A last character that sets bits after the 128th, which a canonical encoding leaves at
    /// zero (RFC 4648 §3.5).
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

/// What exactly was wrong with a TypeID or its prefix (see [`ErrorKind::TypeId`] and
/// [`ErrorKind::TypeIdPrefix`]). Positions count characters from the start of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypeIdReason {
    /// A prefix longer than 63 characters.
    PrefixLength(usize),
    /// A prefix character other than a lowercase ASCII letter or `_`.
    PrefixChar {
        /// The character found.
        found: char,
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

impl Error {
    /// Wraps a kind.
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Self(kind)
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }

    /// A field that does not fit in `bits` bits. Public so that bindings that receive values
    /// wider than any Rust integer report them in the same words.
    pub fn field_out_of_range(field: &'static str, value: impl fmt::Display, bits: u32) -> Self {
        Self(ErrorKind::FieldOutOfRange {
            field,
            value: value.to_string(),
            bits,
        })
    }

    /// A byte string of the wrong length.
    pub fn invalid_length(what: &'static str, expected: usize, found: usize) -> Self {
        Self(ErrorKind::InvalidLength {
            what,
            expected,
            found,
        })
    }

    /// The error `self` at row `index` of a column ([`ErrorKind::Row`]).
    pub(crate) fn at_row(self, index: usize) -> Self {
        Self(ErrorKind::Row {
            index,
            error: Box::new(self),
        })
    }

    /// `true` for [`ErrorKind::ClockRollback`], which bindings may map to a distinct exception.
    pub fn is_clock_rollback(&self) -> bool {
        matches!(self.0, ErrorKind::ClockRollback { .. })
    }

    /// A clock reading `before_ns` nanoseconds before 1970 ([`ErrorKind::ClockBeforeEpoch`]);
    /// public for caller-supplied clocks that can read negative times.
    pub fn clock_before_epoch(before_ns: u64) -> Self {
        Self(ErrorKind::ClockBeforeEpoch { before_ns })
    }

    /// Wraps an error of a caller-supplied clock or random source, to be returned unchanged by
    /// the generator that called it ([`ErrorKind::External`]).
    pub fn external(err: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(ErrorKind::External(External(Arc::new(err))))
    }

    /// The error of a caller-supplied source carried by [`ErrorKind::External`], if it is one
    /// of type `E`.
    pub fn external_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match &self.0 {
            ErrorKind::External(External(err)) => err.downcast_ref::<E>(),
            _ => None,
        }
    }
}

/// Shortens long inputs so that error messages stay readable: at most 64 characters *as
/// displayed*, counting each escaped character (a control character shows as `\u{5}`) at its
/// escaped width, so that no input can make a long message.
pub(crate) fn shorten(input: &str) -> String {
    const MAX: usize = 64;
    let mut width = 0;
    for (i, c) in input.char_indices() {
        width += c.escape_debug().count();
        if width > MAX {
            return format!("{}...", &input[..i]);
        }
    }
    input.to_owned()
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
                "invalid character {found:?} at position {position}: expected a hex digit"
            ),
            Self::Hyphen { found, position } => {
                write!(f, "expected '-' at position {position}, found {found:?}")
            }
            Self::Braces => f.write_str("expected a '{' at the start and a '}' at the end"),
            Self::UrnPrefix => f.write_str("a 45-character UUID must start with 'urn:uuid:'"),
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
                "invalid character {found:?} at position {position}: expected {expected}"
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

impl fmt::Display for TypeIdReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::PrefixLength(n) => write!(
                f,
                "the prefix has {n} characters: expected at most {}",
                crate::typeid::MAX_PREFIX_LEN
            ),
            Self::PrefixChar { found, position } => write!(
                f,
                "invalid character {found:?} at position {position} in the prefix: \
                 expected a lowercase ASCII letter or '_'"
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ErrorKind::Parse { input, reason } => {
                write!(f, "invalid UUID string {input:?}: {reason}")
            }
            ErrorKind::Decode {
                input,
                encoding,
                reason,
            } => write!(f, "invalid {} UUID {input:?}: {reason}", encoding.name()),
            ErrorKind::TypeId { input, reason } => {
                write!(f, "invalid TypeID {input:?}: {reason}")
            }
            ErrorKind::TypeIdPrefix { prefix, reason } => {
                write!(f, "invalid TypeID prefix {prefix:?}: {reason}")
            }
            ErrorKind::FieldOutOfRange { field, value, bits } => write!(
                f,
                "{field} out of range: {value} does not fit in {bits} bits \
                 (expected 0 <= {field} < 2**{bits})"
            ),
            ErrorKind::InvalidLength {
                what,
                expected,
                found,
            } => write!(f, "{what} must be {expected} bytes long, got {found}"),
            ErrorKind::UnknownAlgorithm(name) => write!(
                f,
                "unknown algorithm {name:?}: expected one of {}",
                crate::name::Algorithm::NAMES.join(", ")
            ),
            ErrorKind::NoTimestamp { uuid } => write!(
                f,
                "UUID {uuid} has no timestamp: only versions 1, 6 and 7 carry one"
            ),
            ErrorKind::WrongVersion { uuid, expected } => {
                write!(f, "UUID {uuid} is not {expected}")
            }
            ErrorKind::NoLayout { uuid } => write!(
                f,
                "UUID {uuid} has no RFC 9562 field layout \
                 (expected the RFC variant with a version from 1 to 8, or Nil or Max)"
            ),
            ErrorKind::ClockRollback {
                behind_ns,
                allowance_ns,
            } => write!(
                f,
                "the clock went back {behind_ns} ns, more than the allowance of {allowance_ns} ns"
            ),
            ErrorKind::InvalidOption {
                option,
                value,
                expected,
            } => write!(f, "invalid {option} {value}: expected {expected}"),
            ErrorKind::TimestampOutOfRange { layout, value } => {
                write!(f, "timestamp {value} is out of range for {layout}")
            }
            ErrorKind::ClockBeforeEpoch { before_ns } => write!(
                f,
                "the clock reads {before_ns} ns before 1970-01-01 (the Unix epoch): \
                 time-based UUIDs need a clock that is set"
            ),
            ErrorKind::TooLarge {
                count,
                bytes,
                limit,
            } => write!(
                f,
                "cannot make {count} UUIDs: they would take at least {bytes} bytes, \
                 more than the {limit} bytes of memory this process can have"
            ),
            ErrorKind::External(External(err)) => write!(f, "{err}"),
            ErrorKind::Row { index, error } => write!(f, "row {index}: {error}"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = core::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_counts_escaped_width() {
        assert_eq!(shorten("abc"), "abc");
        let long = "x".repeat(100);
        assert_eq!(shorten(&long), format!("{}...", "x".repeat(64)));
        // Found by fuzzing: 80 control characters made a 500-character message.
        let controls = "\u{5}".repeat(80);
        let shown = format!("{:?}", shorten(&controls));
        assert!(shown.len() < 80, "{shown}");
        let e = crate::parse::parse(&controls).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
    }
}
