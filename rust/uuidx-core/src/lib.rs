//! # uuidx-core
//!
//! A pure-Rust implementation of RFC 9562, *Universally Unique IDentifiers (UUIDs)*:
//!
//! - the [`Uuid`] value with variant ([§4.1](https://www.rfc-editor.org/rfc/rfc9562#section-4.1)) and version ([§4.2](https://www.rfc-editor.org/rfc/rfc9562#section-4.2)) introspection;
//! - every layout in [`layout`]: v1 ([§5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)), v2 DCE Security ([§5.2](https://www.rfc-editor.org/rfc/rfc9562#section-5.2)), v3/v5 and name-based v8 in
//!   [`name`] ([§5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3), [§5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5), [Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2)), v4 ([§5.4](https://www.rfc-editor.org/rfc/rfc9562#section-5.4)), v6 ([§5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6)), v7 ([§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)), v8 ([§5.8](https://www.rfc-editor.org/rfc/rfc9562#section-5.8)),
//!   Nil ([§5.9](https://www.rfc-editor.org/rfc/rfc9562#section-5.9)) and Max ([§5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10));
//! - text: the encodings by name in [`encoding`], from one table of forms (the hexadecimal
//!   forms of [§4](https://www.rfc-editor.org/rfc/rfc9562#section-4), Crockford base32, ULID, base32hex, base58, base62, base64url), parsing any
//!   hexadecimal form in [`parse`], and TypeIDs in [`typeid`];
//! - time bases in [`time`] ([§5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1), [§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7));
//! - lock-free monotonic generators in [`generator`] ([§6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1)-[§6.3](https://www.rfc-editor.org/rfc/rfc9562#section-6.3)), fed by a [`clock::Clock`],
//!   a [`random::RandomSource`] and a [`fork::ForkSource`];
//! - v7 timestamps hidden behind a v4-looking facade (UUIDv47) in [`mask`];
//! - the memory bound of bulk requests in [`memory`];
//! - column kernels (many rows per call: parse, format, name-based, timestamps) in [`column`](mod@column).
//!
//! It has no Python dependency; the `uuidx-py` crate binds it to Python.

#![deny(missing_docs)]

// The README's example (crates.io's page), compiled and run with the doctests; the crate's
// documentation is the text above, not the README.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod clock;
pub mod column;
pub mod encoding;
mod error;
pub mod fork;
pub mod generator;
pub mod layout;
pub mod mask;
pub mod memory;
pub mod name;
pub mod parse;
pub mod random;
pub mod time;
pub mod typeid;
mod uuid;

pub use error::{Error, External, Found, Input, Result};
pub use uuid::{Uuid, Variant};

/// The failure cases of this crate, what [`Error::kind`] returns. The errors of reading text
/// are defined, and their messages written, by the modules that read it; the others are
/// plain data. More may be added, so matches need a wildcard arm.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Text that is not one of the accepted UUID forms ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)).
    Parse(parse::ParseError),
    /// Text that is not a UUID in the named [`encoding::Encoding`].
    Decode(encoding::DecodeError),
    /// A name that is no [`encoding::Encoding`]'s.
    UnknownForm(encoding::UnknownForm),
    /// Text in no form that [`encoding::detect`] recognises.
    Undetected(encoding::Undetected),
    /// Text that is not a TypeID (see [`typeid`]).
    TypeId(typeid::TypeIdError),
    /// A TypeID prefix that breaks the TypeID rules (see [`typeid`]).
    TypeIdPrefix(typeid::PrefixError),
    /// A hash algorithm name that this crate does not offer for name-based UUIDs.
    UnknownAlgorithm(name::UnknownAlgorithm),
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
    /// and the generator's policy is to report it ([RFC 9562 §6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2), "Monotonic Error Checking").
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
    /// [§6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1) leaves "altered or incorrect" clocks to the implementation; uuidx refuses them
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
    /// One row of a column operation failed (see [`column`](mod@column)).
    Row {
        /// The zero-based index of the row in the column.
        index: usize,
        /// What was wrong with it.
        error: Box<Error>,
    },
}
