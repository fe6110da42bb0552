//! Version 2: DCE Security ([RFC 9562 §5.2](https://www.rfc-editor.org/rfc/rfc9562#section-5.2), which defers to DCE 1.1 Authentication and Security
//! Services, §11.5.1.1).
//!
//! Version 2 is version 1 with the low 32 timestamp bits replaced by a local identifier (a
//! POSIX UID or GID, for example) and the low 8 clock-sequence bits replaced by the local
//! domain:
//!
//! ```text
//! local_id (32) | time_mid (16) | ver (4) | time_high (12) | var (2) | clock_seq (6) | local_domain (8) | node (48)
//! ```

use super::{check_fields, laid_out, Field, FieldSpec, Layout, TIME_100NS};
use crate::{Result, Uuid};

/// The layout of version 2, as DCE 1.1 draws it.
pub const LAYOUT: Layout = Layout::new(
    "v2",
    Some(2),
    "Version 2, DCE Security (RFC 9562 §5.2; DCE 1.1).",
    &FIELDS_LAID_OUT,
);

const FIELDS_LAID_OUT: [Field; 8] = laid_out([
    ("local_id", 32),
    ("time_mid", 16),
    ("ver", 4),
    ("time_high", 12),
    ("var", 2),
    ("clock_seq", 6),
    ("local_domain", 8),
    ("node", 48),
]);

/// The local domains DCE 1.1 defines; other values are site-defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// 0: the local identifier is a POSIX user id.
    Person,
    /// 1: the local identifier is a POSIX group id.
    Group,
    /// 2: the local identifier is an organisation id.
    Org,
    /// Any other value.
    Other(u8),
}

impl Domain {
    /// The domain of a `local_domain` octet.
    pub const fn from_octet(octet: u8) -> Self {
        match octet {
            0 => Self::Person,
            1 => Self::Group,
            2 => Self::Org,
            n => Self::Other(n),
        }
    }

    /// The lower-case DCE name (`person`, `group`, `org`), or `None` for other values.
    pub const fn name(self) -> Option<&'static str> {
        match self {
            Self::Person => Some("person"),
            Self::Group => Some("group"),
            Self::Org => Some("org"),
            Self::Other(_) => None,
        }
    }
}

/// The fields of a version 2 UUID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// The 32-bit local identifier (in place of `time_low`).
    pub local_id: u32,
    /// The middle 16 bits of the timestamp.
    pub time_mid: u16,
    /// The most significant 12 bits of the timestamp.
    pub time_high: u16,
    /// The 6-bit clock sequence.
    pub clock_seq: u8,
    /// The local domain octet (in place of `clock_seq_low`).
    pub local_domain: u8,
    /// The 48-bit node.
    pub node: u64,
}

impl Fields {
    /// Decomposes any UUID as if it were version 2.
    pub const fn of(uuid: Uuid) -> Self {
        let v = uuid.as_u128();
        Self {
            local_id: (v >> 96) as u32,
            time_mid: (v >> 80) as u16,
            time_high: ((v >> 64) & 0xFFF) as u16,
            clock_seq: ((v >> 56) & 0x3F) as u8,
            local_domain: (v >> 48) as u8,
            node: (v as u64) & 0xFFFF_FFFF_FFFF,
        }
    }

    /// The local domain.
    pub const fn domain(&self) -> Domain {
        Domain::from_octet(self.local_domain)
    }

    /// The 60-bit timestamp with its low 32 bits, which version 2 does not keep, set to zero.
    pub const fn timestamp_high_bits(&self) -> u64 {
        ((self.time_high as u64) << 48) | ((self.time_mid as u64) << 32)
    }
}

/// The arguments of [`new`]: names and widths in bits.
pub const FIELDS: [FieldSpec; 5] = [
    LAYOUT.field("local_domain").spec(),
    LAYOUT.field("local_id").spec(),
    TIME_100NS,
    LAYOUT.field("clock_seq").spec(),
    LAYOUT.field("node").spec(),
];

/// Builds a version 2 UUID: the local domain and identifier, a 60-bit Gregorian timestamp of
/// which the high 28 bits are kept, a 6-bit clock sequence and a 48-bit node.
///
/// # Errors
/// [`crate::ErrorKind::FieldOutOfRange`] when a field does not fit its width.
///
/// # Examples
/// ```
/// use uuidx_core::layout::v2::{self, Domain};
/// let u = v2::new(0, 1000, 138_648_505_420_000_000, 0x33, 0x9F6B_DECE_D846).unwrap();
/// let f = v2::Fields::of(u);
/// assert_eq!((f.domain(), f.local_id, f.clock_seq), (Domain::Person, 1000, 0x33));
/// assert_eq!(u.version_number(), Some(2));
/// ```
pub fn new(
    local_domain: u64,
    local_id: u64,
    timestamp: u64,
    clock_seq: u64,
    node: u64,
) -> Result<Uuid> {
    let [local_domain, local_id, timestamp, clock_seq, node] = check_fields(
        &FIELDS,
        [local_domain, local_id, timestamp, clock_seq, node],
    )?;
    let ts = timestamp as u128;
    let value = ((local_id as u128) << 96)
        | (((ts >> 32) & 0xFFFF) << 80)
        | (((ts >> 48) & 0xFFF) << 64)
        | ((clock_seq as u128) << 56)
        | ((local_domain as u128) << 48)
        | node as u128;
    Ok(Uuid::with_version(value, 2))
}
