//! The [`Uuid`] value type with variant and version introspection ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)).

use core::fmt;

/// A 128-bit UUID ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)), stored as an unsigned integer whose most significant bit is
/// the first bit of octet 0 ("network byte order"), the same value as Python's `UUID.int`.
///
/// # Examples
///
/// ```
/// use uuidx_core::{Uuid, Variant};
/// let u: Uuid = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6".parse().unwrap();
/// assert_eq!(u.variant(), Variant::Rfc9562);
/// assert_eq!(u.version_number(), Some(1));
/// assert_eq!(u.to_string(), "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Uuid(u128);

/// The variant field ([RFC 9562 §4.1](https://www.rfc-editor.org/rfc/rfc9562#section-4.1), Table 1): the most significant bits of octet 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `0xxx`: reserved, NCS backward compatibility. The Nil UUID falls here.
    Ncs,
    /// `10xx`: the variant specified by RFC 9562 (and RFC 4122 before it).
    Rfc9562,
    /// `110x`: reserved, Microsoft Corporation backward compatibility.
    Microsoft,
    /// `111x`: reserved for future definition. The Max UUID falls here.
    Future,
}

impl Variant {
    /// The variant's name as used by Python's `uuid` module constants
    /// (`reserved for NCS compatibility`, `specified in RFC 4122`, ...).
    pub fn stdlib_name(self) -> &'static str {
        match self {
            Self::Ncs => "reserved for NCS compatibility",
            Self::Rfc9562 => "specified in RFC 4122",
            Self::Microsoft => "reserved for Microsoft compatibility",
            Self::Future => "reserved for future definition",
        }
    }
}

/// Mask that clears the version nibble and the two variant bits ([RFC 9562 §4.1](https://www.rfc-editor.org/rfc/rfc9562#section-4.1), [§4.2](https://www.rfc-editor.org/rfc/rfc9562#section-4.2)).
pub(crate) const VER_VAR_MASK: u128 = !((0xF << 76) | (0b11 << 62));

impl Uuid {
    /// The Nil UUID, all 128 bits zero ([RFC 9562 §5.9](https://www.rfc-editor.org/rfc/rfc9562#section-5.9)).
    pub const NIL: Self = Self(0);
    /// The Max UUID, all 128 bits one ([RFC 9562 §5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)).
    pub const MAX: Self = Self(u128::MAX);

    /// The UUID whose integer value is `value` (Python's `UUID(int=value)`).
    #[inline]
    pub const fn from_u128(value: u128) -> Self {
        Self(value)
    }

    /// The integer value (Python's `UUID.int`).
    #[inline]
    pub const fn as_u128(self) -> u128 {
        self.0
    }

    /// The UUID made of these 16 octets in network order ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)).
    #[inline]
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(u128::from_be_bytes(bytes))
    }

    /// The 16 octets in network order (Python's `UUID.bytes`).
    #[inline]
    pub const fn to_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// The UUID made from a 16-byte slice.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidLength`] unless `bytes` holds exactly 16 bytes.
    pub fn from_slice(bytes: &[u8]) -> crate::Result<Self> {
        let array: [u8; 16] = bytes
            .try_into()
            .map_err(|_| crate::Error::invalid_length("a UUID", 16, bytes.len()))?;
        Ok(Self::from_bytes(array))
    }

    /// Sets the version nibble ([RFC 9562 §4.2](https://www.rfc-editor.org/rfc/rfc9562#section-4.2)) and the RFC variant bits `10` ([§4.1](https://www.rfc-editor.org/rfc/rfc9562#section-4.1)) on `value`,
    /// discarding whatever those six bits held.
    #[inline]
    pub const fn with_version(value: u128, version: u8) -> Self {
        Self((value & VER_VAR_MASK) | ((version as u128 & 0xF) << 76) | (0b10 << 62))
    }

    /// The variant ([RFC 9562 §4.1](https://www.rfc-editor.org/rfc/rfc9562#section-4.1)).
    #[inline]
    pub const fn variant(self) -> Variant {
        let octet8 = (self.0 >> 56) as u8;
        if octet8 & 0x80 == 0 {
            Variant::Ncs
        } else if octet8 & 0x40 == 0 {
            Variant::Rfc9562
        } else if octet8 & 0x20 == 0 {
            Variant::Microsoft
        } else {
            Variant::Future
        }
    }

    /// The 4-bit version field ([RFC 9562 §4.2](https://www.rfc-editor.org/rfc/rfc9562#section-4.2)), whatever the variant.
    #[inline]
    pub const fn version_field(self) -> u8 {
        ((self.0 >> 76) & 0xF) as u8
    }

    /// The version when the variant is the RFC one, `None` otherwise; the same rule as Python's
    /// `UUID.version`. Nil and Max therefore have no version.
    #[inline]
    pub const fn version_number(self) -> Option<u8> {
        match self.variant() {
            Variant::Rfc9562 => Some(self.version_field()),
            _ => None,
        }
    }

    /// `true` for the Nil UUID ([RFC 9562 §5.9](https://www.rfc-editor.org/rfc/rfc9562#section-5.9)).
    #[inline]
    pub const fn is_nil(self) -> bool {
        self.0 == 0
    }

    /// `true` for the Max UUID ([RFC 9562 §5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)).
    #[inline]
    pub const fn is_max(self) -> bool {
        self.0 == u128::MAX
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid({self})")
    }
}

impl From<u128> for Uuid {
    fn from(value: u128) -> Self {
        Self(value)
    }
}

impl From<Uuid> for u128 {
    fn from(value: Uuid) -> Self {
        value.0
    }
}

impl From<[u8; 16]> for Uuid {
    fn from(value: [u8; 16]) -> Self {
        Self::from_bytes(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_follow_table_1() {
        let with_octet8 = |b: u8| Uuid::from_u128((b as u128) << 56);
        for b in 0x00..=0x7F {
            assert_eq!(with_octet8(b).variant(), Variant::Ncs);
        }
        for b in 0x80..=0xBF {
            assert_eq!(with_octet8(b).variant(), Variant::Rfc9562);
        }
        for b in 0xC0..=0xDF {
            assert_eq!(with_octet8(b).variant(), Variant::Microsoft);
        }
        for b in 0xE0..=0xFF {
            assert_eq!(with_octet8(b).variant(), Variant::Future);
        }
        assert_eq!(Uuid::NIL.variant(), Variant::Ncs);
        assert_eq!(Uuid::MAX.variant(), Variant::Future);
        assert_eq!(Uuid::NIL.version_number(), None);
        assert_eq!(Uuid::MAX.version_number(), None);
    }

    #[test]
    fn with_version_sets_only_six_bits() {
        for v in 0..16u8 {
            let u = Uuid::with_version(u128::MAX, v);
            assert_eq!(u.version_number(), Some(v));
            assert_eq!(u.as_u128() | !VER_VAR_MASK, u128::MAX);
            let z = Uuid::with_version(0, v);
            assert_eq!(z.as_u128() & VER_VAR_MASK, 0);
        }
    }

    #[test]
    fn bytes_round_trip() {
        let b: [u8; 16] = core::array::from_fn(|i| i as u8);
        let u = Uuid::from_bytes(b);
        assert_eq!(u.to_bytes(), b);
        assert_eq!(Uuid::from_slice(&b).unwrap(), u);
        assert!(Uuid::from_slice(&b[..15]).is_err());
    }
}
