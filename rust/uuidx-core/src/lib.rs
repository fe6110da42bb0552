//! # uuidx-core
//!
//! A pure-Rust implementation of RFC 9562, *Universally Unique IDentifiers (UUIDs)*:
//!
//! - the [`Uuid`] value with variant (§4.1) and version (§4.2) introspection;
//! - every layout in [`layout`]: v1 (§5.1), v2 DCE Security (§5.2), v3/v5 and name-based v8 in
//!   [`name`] (§5.3, §5.5, Appendix B.2), v4 (§5.4), v6 (§5.6), v7 (§5.7), v8 (§5.8),
//!   Nil (§5.9) and Max (§5.10);
//! - text forms in [`parse`] and [`format`](mod@format) (§4);
//! - compact encodings by name in [`encoding`] (Crockford base32, ULID, base32hex, base58,
//!   base62, base64url) and TypeIDs in [`typeid`];
//! - time bases in [`time`] (§5.1, §5.7);
//! - lock-free monotonic generators in [`generator`] (§6.1-§6.3), fed by a [`clock::Clock`],
//!   a [`random::RandomSource`] and a [`fork::ForkSource`];
//! - v7 timestamps hidden behind a v4-looking facade (UUIDv47) in [`mask`];
//! - the memory bound of bulk requests in [`memory`];
//! - column kernels (many rows per call: parse, format, name-based, timestamps) in [`column`](mod@column).
//!
//! It has no Python dependency; the `uuidx-py` crate binds it to Python.

#![deny(missing_docs)]

pub mod clock;
pub mod column;
pub mod encoding;
mod error;
pub mod fork;
pub mod format;
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

pub use error::{DecodeReason, TypeIdReason};
pub use error::{Error, ErrorKind, External, ParseReason, Result};
pub use uuid::{Uuid, Variant};
