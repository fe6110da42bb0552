//! The crate's single error type, and the plain data its kinds share.
//!
//! [`Error`] wraps an [`ErrorKind`], which the crate root declares: each module that raises an
//! error defines its reasons and renders their messages itself (for example
//! [`crate::parse::ParseError`], [`crate::encoding::DecodeError`],
//! [`crate::typeid::TypeIdError`]), so this module imports nothing from them. The kind is
//! `#[non_exhaustive]`, so new failure cases can be added without breaking callers. Every
//! message names the offending value and what was expected.

use core::fmt;
use std::sync::Arc;

use crate::ErrorKind;

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

/// An input as an error message shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Input {
    /// Text, shortened to at most 64 characters as displayed and shown as Rust's `{:?}` shows
    /// it: in double quotes, with escapes.
    Text(String),
    /// The input as the program that passed it shows it (a Python `repr`, for example; see
    /// [`Error::shown_as`]), written as it is.
    Shown(String),
}

impl Input {
    /// `text`, shortened for display.
    pub(crate) fn new(text: &str) -> Self {
        Self::Text(shorten(text))
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Text(text) => write!(f, "{text:?}"),
            Self::Shown(shown) => f.write_str(shown),
        }
    }
}

/// A character that a reason points at, as the input had it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// A character, shown as Rust's `{:?}` shows it (`'x'`).
    Char(char),
    /// A lone surrogate, U+D800 to U+DFFF without its pair, which text from a host language
    /// can hold (Python's `str` can) and no Rust string can (see
    /// [`crate::encoding::HostText`]); shown as `lone surrogate '\ud800'`.
    Surrogate(u16),
}

impl Found {
    /// The character, introduced as a bad one: `invalid character 'x'`, or the surrogate as
    /// [`Found`]'s `Display` shows it.
    pub(crate) fn invalid(self) -> impl fmt::Display {
        struct Invalid(Found);
        impl fmt::Display for Invalid {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.0 {
                    Found::Char(c) => write!(f, "invalid character {c:?}"),
                    surrogate @ Found::Surrogate(_) => surrogate.fmt(f),
                }
            }
        }
        Invalid(self)
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Char(c) => write!(f, "{c:?}"),
            Self::Surrogate(code) => write!(f, "lone surrogate '\\u{code:04x}'"),
        }
    }
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

    /// What went wrong, to amend.
    pub(crate) fn kind_mut(&mut self) -> &mut ErrorKind {
        &mut self.0
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

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(e) => e.fmt(f),
            Self::Decode(e) => e.fmt(f),
            Self::UnknownForm(e) => e.fmt(f),
            Self::Undetected(e) => e.fmt(f),
            Self::TypeId(e) => e.fmt(f),
            Self::TypeIdPrefix(e) => e.fmt(f),
            Self::UnknownAlgorithm(e) => e.fmt(f),
            Self::FieldOutOfRange { field, value, bits } => write!(
                f,
                "{field} out of range: {value} does not fit in {bits} bits \
                 (expected 0 <= {field} < 2**{bits})"
            ),
            Self::InvalidLength {
                what,
                expected,
                found,
            } => write!(f, "{what} must be {expected} bytes long, got {found}"),
            Self::NoTimestamp { uuid } => write!(
                f,
                "UUID {uuid} has no timestamp: only versions 1, 6 and 7 carry one"
            ),
            Self::WrongVersion { uuid, expected } => {
                write!(f, "UUID {uuid} is not {expected}")
            }
            Self::NoLayout { uuid } => write!(
                f,
                "UUID {uuid} has no RFC 9562 field layout \
                 (expected the RFC variant with a version from 1 to 8, or Nil or Max)"
            ),
            Self::ClockRollback {
                behind_ns,
                allowance_ns,
            } => write!(
                f,
                "the clock went back {behind_ns} ns, more than the allowance of {allowance_ns} ns"
            ),
            Self::InvalidOption {
                option,
                value,
                expected,
            } => write!(f, "invalid {option} {value}: expected {expected}"),
            Self::TimestampOutOfRange { layout, value } => {
                write!(f, "timestamp {value} is out of range for {layout}")
            }
            Self::ClockBeforeEpoch { before_ns } => write!(
                f,
                "the clock reads {before_ns} ns before 1970-01-01 (the Unix epoch): \
                 time-based UUIDs need a clock that is set"
            ),
            Self::TooLarge {
                count,
                bytes,
                limit,
            } => write!(
                f,
                "cannot make {count} UUIDs: they would take at least {bytes} bytes, \
                 more than the {limit} bytes of memory this process can have"
            ),
            Self::External(External(err)) => write!(f, "{err}"),
            Self::Row { index, error } => write!(f, "row {index}: {error}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
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
        let controls = "\u{5}".repeat(80);
        let shown = format!("{:?}", shorten(&controls));
        assert!(shown.len() < 80, "{shown}");
    }

    #[test]
    fn found_and_input_as_messages_show_them() {
        assert_eq!(Found::Char('x').to_string(), "'x'");
        assert_eq!(
            Found::Char('x').invalid().to_string(),
            "invalid character 'x'"
        );
        let surrogate = Found::Surrogate(0xD800);
        assert_eq!(surrogate.to_string(), "lone surrogate '\\ud800'");
        assert_eq!(surrogate.invalid().to_string(), surrogate.to_string());
        assert_eq!(Input::new("a\"b").to_string(), "\"a\\\"b\"");
        assert_eq!(Input::Shown("'a'".into()).to_string(), "'a'");
    }
}
