//! Version 1: Gregorian time-based ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
//!
//! ```text
//! time_low (32) | time_mid (16) | ver (4) | time_high (12) | var (2) | clock_seq (14) | node (48)
//! ```

use super::{check_fields, laid_out, Field, FieldSpec, Layout, TIME_100NS};
use crate::{Result, Uuid};

/// The layout of version 1, as the RFC's figure draws it.
pub const LAYOUT: Layout = Layout::new(
    "v1",
    Some(1),
    "Version 1, Gregorian time-based (RFC 9562 §5.1).",
    &FIELDS_LAID_OUT,
);

const FIELDS_LAID_OUT: [Field; 7] = laid_out([
    ("time_low", 32),
    ("time_mid", 16),
    ("ver", 4),
    ("time_high", 12),
    ("var", 2),
    ("clock_seq", 14),
    ("node", 48),
]);

/// The `node` argument of [`new`] (and of the v1 and v6 generators).
pub const NODE: FieldSpec = LAYOUT.field("node").spec();

/// The fields of a version 1 UUID, named as in [RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// The least significant 32 bits of the 60-bit timestamp.
    pub time_low: u32,
    /// The middle 16 bits of the timestamp.
    pub time_mid: u16,
    /// The most significant 12 bits of the timestamp.
    pub time_high: u16,
    /// The 14-bit clock sequence.
    pub clock_seq: u16,
    /// The 48-bit node.
    pub node: u64,
}

impl Fields {
    /// Decomposes any UUID as if it were version 1.
    pub const fn of(uuid: Uuid) -> Self {
        let v = uuid.as_u128();
        Self {
            time_low: (v >> 96) as u32,
            time_mid: (v >> 80) as u16,
            time_high: ((v >> 64) & 0xFFF) as u16,
            clock_seq: ((v >> 48) & 0x3FFF) as u16,
            node: (v as u64) & 0xFFFF_FFFF_FFFF,
        }
    }

    /// The 60-bit timestamp, 100-ns intervals since 1582-10-15 ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
    pub const fn timestamp(&self) -> u64 {
        ((self.time_high as u64) << 48) | ((self.time_mid as u64) << 32) | self.time_low as u64
    }
}

/// The arguments of [`new`]: names and widths in bits.
pub const FIELDS: [FieldSpec; 3] = [TIME_100NS, LAYOUT.field("clock_seq").spec(), NODE];

/// Builds a version 1 UUID from a 60-bit timestamp (100-ns intervals since 1582-10-15), a
/// 14-bit clock sequence and a 48-bit node ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
///
/// # Errors
/// [`crate::ErrorKind::FieldOutOfRange`] when a field does not fit its width.
///
/// # Examples
/// ```
/// // RFC 9562 Appendix A.1.
/// let u = uuidx_core::layout::v1::new(138_648_505_420_000_000, 0x33C8, 0x9F6B_DECE_D846).unwrap();
/// assert_eq!(u.to_string(), "c232ab00-9414-11ec-b3c8-9f6bdeced846");
/// ```
pub fn new(timestamp: u64, clock_seq: u64, node: u64) -> Result<Uuid> {
    let [timestamp, clock_seq, node] = check_fields(&FIELDS, [timestamp, clock_seq, node])?;
    Ok(build(timestamp, clock_seq as u16, node))
}

/// Builds a version 1 UUID from fields already known to fit.
#[inline]
pub(crate) const fn build(timestamp: u64, clock_seq: u16, node: u64) -> Uuid {
    let ts = timestamp as u128;
    let value = ((ts & 0xFFFF_FFFF) << 96)
        | (((ts >> 32) & 0xFFFF) << 80)
        | (((ts >> 48) & 0xFFF) << 64)
        | (((clock_seq & 0x3FFF) as u128) << 48)
        | (node & 0xFFFF_FFFF_FFFF) as u128;
    Uuid::with_version(value, 1)
}

/// Rewrites a version 6 UUID as the version 1 UUID with the same timestamp, clock sequence
/// and node ([RFC 9562 §5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6): v6 is v1 with the timestamp bytes reordered).
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] unless `uuid` is version 6.
pub fn from_v6(uuid: Uuid) -> Result<Uuid> {
    super::v6::require(uuid, 6)?;
    let f = super::v6::Fields::of(uuid);
    Ok(build(f.timestamp(), f.clock_seq, f.node))
}
