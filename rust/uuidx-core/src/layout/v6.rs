//! Version 6: reordered Gregorian time-based ([RFC 9562 §5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6)).
//!
//! ```text
//! time_high (32) | time_mid (16) | ver (4) | time_low (12) | var (2) | clock_seq (14) | node (48)
//! ```

use super::{check_fields, laid_out, Field, FieldSpec, Layout, TIME_100NS};
use crate::{Error, ErrorKind, Result, Uuid};

/// The layout of version 6, as the RFC's figure draws it.
pub const LAYOUT: Layout = Layout::new(
    "v6",
    Some(6),
    "Version 6, reordered Gregorian time-based (RFC 9562 §5.6).",
    &FIELDS_LAID_OUT,
);

const FIELDS_LAID_OUT: [Field; 7] = laid_out([
    ("time_high", 32),
    ("time_mid", 16),
    ("ver", 4),
    ("time_low", 12),
    ("var", 2),
    ("clock_seq", 14),
    ("node", 48),
]);

/// The fields of a version 6 UUID, named as in [RFC 9562 §5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// The most significant 32 bits of the 60-bit timestamp.
    pub time_high: u32,
    /// The middle 16 bits of the timestamp.
    pub time_mid: u16,
    /// The least significant 12 bits of the timestamp.
    pub time_low: u16,
    /// The 14-bit clock sequence.
    pub clock_seq: u16,
    /// The 48-bit node.
    pub node: u64,
}

impl Fields {
    /// Decomposes any UUID as if it were version 6.
    pub const fn of(uuid: Uuid) -> Self {
        let v = uuid.as_u128();
        Self {
            time_high: (v >> 96) as u32,
            time_mid: (v >> 80) as u16,
            time_low: ((v >> 64) & 0xFFF) as u16,
            clock_seq: ((v >> 48) & 0x3FFF) as u16,
            node: (v as u64) & 0xFFFF_FFFF_FFFF,
        }
    }

    /// The 60-bit timestamp, 100-ns intervals since 1582-10-15 ([RFC 9562 §5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6)).
    pub const fn timestamp(&self) -> u64 {
        ((self.time_high as u64) << 28) | ((self.time_mid as u64) << 12) | self.time_low as u64
    }
}

/// The arguments of [`new`]: names and widths in bits.
pub const FIELDS: [FieldSpec; 3] = [
    TIME_100NS,
    LAYOUT.field("clock_seq").spec(),
    LAYOUT.field("node").spec(),
];

/// Builds a version 6 UUID from a 60-bit timestamp (100-ns intervals since 1582-10-15), a
/// 14-bit clock sequence and a 48-bit node ([RFC 9562 §5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6)).
///
/// # Errors
/// [`ErrorKind::FieldOutOfRange`] when a field does not fit its width.
///
/// # Examples
/// ```
/// // RFC 9562 Appendix A.5.
/// let u = uuidx_core::layout::v6::new(138_648_505_420_000_000, 0x33C8, 0x9F6B_DECE_D846).unwrap();
/// assert_eq!(u.to_string(), "1ec9414c-232a-6b00-b3c8-9f6bdeced846");
/// ```
pub fn new(timestamp: u64, clock_seq: u64, node: u64) -> Result<Uuid> {
    let [timestamp, clock_seq, node] = check_fields(&FIELDS, [timestamp, clock_seq, node])?;
    Ok(build(timestamp, clock_seq as u16, node))
}

/// Builds a version 6 UUID, keeping the low 60, 14 and 48 bits of the fields.
#[inline]
pub(crate) const fn build(timestamp: u64, clock_seq: u16, node: u64) -> Uuid {
    let ts = (timestamp & ((1 << 60) - 1)) as u128;
    let value = ((ts >> 12) << 80)
        | ((ts & 0xFFF) << 64)
        | (((clock_seq & 0x3FFF) as u128) << 48)
        | (node & 0xFFFF_FFFF_FFFF) as u128;
    Uuid::with_version(value, 6)
}

/// Rewrites a version 1 UUID as the version 6 UUID with the same timestamp, clock sequence
/// and node ([RFC 9562 §5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6)).
///
/// # Errors
/// [`ErrorKind::InvalidOption`] unless `uuid` is version 1.
///
/// # Examples
/// ```
/// use uuidx_core::{layout, Uuid};
/// let v1: Uuid = "c232ab00-9414-11ec-b3c8-9f6bdeced846".parse().unwrap();
/// let v6 = layout::v6::from_v1(v1).unwrap();
/// assert_eq!(v6.to_string(), "1ec9414c-232a-6b00-b3c8-9f6bdeced846");
/// assert_eq!(layout::v1::from_v6(v6).unwrap(), v1);
/// ```
pub fn from_v1(uuid: Uuid) -> Result<Uuid> {
    require(uuid, 1)?;
    let f = super::v1::Fields::of(uuid);
    Ok(build(f.timestamp(), f.clock_seq, f.node))
}

pub(crate) fn require(uuid: Uuid, version: u8) -> Result<()> {
    if uuid.version_number() == Some(version) {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::InvalidOption {
            option: "UUID",
            value: uuid.to_string(),
            expected: if version == 1 {
                "a version 1 UUID"
            } else {
                "a version 6 UUID"
            },
        }))
    }
}
