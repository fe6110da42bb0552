//! Field layouts of every UUID version (RFC 9562 §5): constructors that set the version and
//! variant and reject fields that do not fit, and decomposition into the RFC's named fields.
//!
//! Versions 3, 4, 5, 7 and 8 share one shape, 48 bits | ver | 12 bits | var | 62 bits, which
//! [`split`] and [`join`] handle once; versions 1, 2 and 6 have modules of their own.

pub mod v1;
pub mod v2;
pub mod v4;
pub mod v6;
pub mod v7;
pub mod v8;

use crate::{Error, ErrorKind, Result, Uuid, Variant};

/// Fails with [`ErrorKind::FieldOutOfRange`] unless `value < 2**bits`.
#[inline]
pub(crate) fn check_field(field: &'static str, value: u64, bits: u32) -> Result<()> {
    if bits < 64 && value >> bits != 0 {
        Err(Error::field_out_of_range(field, value, bits))
    } else {
        Ok(())
    }
}

/// A constructor argument: its RFC 9562 field name and its width in bits.
pub type FieldSpec = (&'static str, u32);

/// The values, if each fits the width of its [`FieldSpec`]; otherwise
/// [`ErrorKind::FieldOutOfRange`] naming the first field that does not.
pub fn check_fields<const N: usize>(specs: &[FieldSpec; N], values: [u64; N]) -> Result<[u64; N]> {
    for (&(name, bits), &value) in specs.iter().zip(&values) {
        check_field(name, value, bits)?;
    }
    Ok(values)
}

/// The low `bits` bits of `value`.
#[inline]
pub(crate) const fn low_bits(value: u64, bits: u32) -> u64 {
    value & ((1 << bits) - 1)
}

/// The three free fields of the 48 | ver | 12 | var | 62 shape (RFC 9562 §5.3-§5.5, §5.7,
/// §5.8): octets 0-5, the 12 bits after the version, the 62 bits after the variant.
#[inline]
pub const fn split(uuid: Uuid) -> (u64, u16, u64) {
    let v = uuid.as_u128();
    (
        (v >> 80) as u64,
        ((v >> 64) & 0xFFF) as u16,
        (v as u64) & ((1 << 62) - 1),
    )
}

/// Builds the 48 | ver | 12 | var | 62 shape; each field is truncated to its width.
#[inline]
pub const fn join(version: u8, a: u64, b: u16, c: u64) -> Uuid {
    let value = ((low_bits(a, 48) as u128) << 80)
        | (((b & 0xFFF) as u128) << 64)
        | (low_bits(c, 62) as u128);
    Uuid::with_version(value, version)
}

/// The widths of the 48 | ver | 12 | var | 62 shape, with the field names of one version.
pub(crate) const fn shaped(names: [&'static str; 3]) -> [FieldSpec; 3] {
    [(names[0], 48), (names[1], 12), (names[2], 62)]
}

/// Builds the 48 | ver | 12 | var | 62 shape after checking that each field fits.
pub(crate) fn join_checked(
    version: u8,
    specs: &[FieldSpec; 3],
    a: u64,
    b: u64,
    c: u64,
) -> Result<Uuid> {
    let [a, b, c] = check_fields(specs, [a, b, c])?;
    Ok(join(version, a, b as u16, c))
}

/// A UUID decomposed into the fields RFC 9562 §5 names for its version.
///
/// [`Fields::layout`] names the layout and [`Fields::named_values`] lists `(field, value)`
/// pairs in the order of the RFC's figures, `ver` and `var` included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fields {
    /// Version 1, Gregorian time-based (§5.1).
    V1(v1::Fields),
    /// Version 2, DCE Security (§5.2; DCE 1.1 Authentication and Security Services).
    V2(v2::Fields),
    /// Version 3, MD5 name-based (§5.3): `md5_high`, `md5_mid`, `md5_low`.
    V3(u64, u16, u64),
    /// Version 4, random (§5.4): `random_a`, `random_b`, `random_c`.
    V4(u64, u16, u64),
    /// Version 5, SHA-1 name-based (§5.5): `sha1_high`, `sha1_mid`, `sha1_low`.
    V5(u64, u16, u64),
    /// Version 6, reordered Gregorian time-based (§5.6).
    V6(v6::Fields),
    /// Version 7, Unix Epoch time-based (§5.7): `unix_ts_ms`, `rand_a`, `rand_b`.
    V7(u64, u16, u64),
    /// Version 8, custom (§5.8): `custom_a`, `custom_b`, `custom_c`.
    V8(u64, u16, u64),
    /// The Nil UUID (§5.9).
    Nil,
    /// The Max UUID (§5.10).
    Max,
}

impl Fields {
    /// Decomposes `uuid` by its version.
    ///
    /// # Errors
    /// [`ErrorKind::NoLayout`] for UUIDs of another variant than the RFC's (other than Nil and
    /// Max) and for the unassigned versions 0 and 9 to 15.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::{layout::Fields, Uuid};
    /// let u: Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
    /// assert_eq!(Fields::of(u).unwrap(), Fields::V7(0x017f22e279b0, 0xcc3, 0x18c4dc0c0c07398f));
    /// ```
    pub fn of(uuid: Uuid) -> Result<Self> {
        if uuid.is_nil() {
            return Ok(Self::Nil);
        }
        if uuid.is_max() {
            return Ok(Self::Max);
        }
        if uuid.variant() != Variant::Rfc9562 {
            return Err(no_layout(uuid));
        }
        let (a, b, c) = split(uuid);
        Ok(match uuid.version_field() {
            1 => Self::V1(v1::Fields::of(uuid)),
            2 => Self::V2(v2::Fields::of(uuid)),
            3 => Self::V3(a, b, c),
            4 => Self::V4(a, b, c),
            5 => Self::V5(a, b, c),
            6 => Self::V6(v6::Fields::of(uuid)),
            7 => Self::V7(a, b, c),
            8 => Self::V8(a, b, c),
            _ => return Err(no_layout(uuid)),
        })
    }

    /// The layout's name: `v1` to `v8`, `nil` or `max`.
    pub fn layout(&self) -> &'static str {
        match self {
            Self::V1(_) => "v1",
            Self::V2(_) => "v2",
            Self::V3(..) => "v3",
            Self::V4(..) => "v4",
            Self::V5(..) => "v5",
            Self::V6(_) => "v6",
            Self::V7(..) => "v7",
            Self::V8(..) => "v8",
            Self::Nil => "nil",
            Self::Max => "max",
        }
    }

    /// `(field name, value)` pairs in the order of the RFC's figure for the layout.
    pub fn named_values(&self) -> Vec<(&'static str, u64)> {
        let shaped = |version: u64, names: [&'static str; 3], a: u64, b: u16, c: u64| {
            vec![
                (names[0], a),
                ("ver", version),
                (names[1], u64::from(b)),
                ("var", 0b10),
                (names[2], c),
            ]
        };
        match *self {
            Self::V1(f) => f.named_values(),
            Self::V2(f) => f.named_values(),
            Self::V6(f) => f.named_values(),
            Self::V3(a, b, c) => shaped(3, ["md5_high", "md5_mid", "md5_low"], a, b, c),
            Self::V4(a, b, c) => shaped(4, ["random_a", "random_b", "random_c"], a, b, c),
            Self::V5(a, b, c) => shaped(5, ["sha1_high", "sha1_mid", "sha1_low"], a, b, c),
            Self::V7(a, b, c) => shaped(7, ["unix_ts_ms", "rand_a", "rand_b"], a, b, c),
            Self::V8(a, b, c) => shaped(8, ["custom_a", "custom_b", "custom_c"], a, b, c),
            Self::Nil | Self::Max => Vec::new(),
        }
    }
}

fn no_layout(uuid: Uuid) -> Error {
    Error::new(ErrorKind::NoLayout {
        uuid: uuid.to_string(),
    })
}

impl Uuid {
    /// Unix nanoseconds of the timestamp embedded in a version 1, 6 or 7 UUID
    /// (RFC 9562 §5.1, §5.6, §5.7). Negative before 1970.
    ///
    /// # Errors
    /// [`ErrorKind::NoTimestamp`] for every other UUID, version 2 included (its low 32
    /// timestamp bits are replaced by the local identifier).
    ///
    /// # Examples
    /// ```
    /// let u: uuidx_core::Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
    /// assert_eq!(u.timestamp_unix_ns().unwrap(), 1_645_557_742_000_000_000);
    /// ```
    pub fn timestamp_unix_ns(self) -> Result<i128> {
        self.unix_ns().ok_or_else(|| {
            Error::new(ErrorKind::NoTimestamp {
                uuid: self.to_string(),
            })
        })
    }

    /// [`Uuid::timestamp_unix_ns`] without the error: `None` for a UUID without a timestamp,
    /// and nothing allocated (for columns, where such rows are common).
    ///
    /// # Examples
    /// ```
    /// let u: uuidx_core::Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
    /// assert_eq!(u.unix_ns(), Some(1_645_557_742_000_000_000));
    /// assert_eq!(uuidx_core::Uuid::NIL.unix_ns(), None);
    /// ```
    #[inline]
    pub fn unix_ns(self) -> Option<i128> {
        match self.version_number() {
            Some(1) => Some(crate::time::gregorian_to_unix_ns(
                v1::Fields::of(self).timestamp(),
            )),
            Some(6) => Some(crate::time::gregorian_to_unix_ns(
                v6::Fields::of(self).timestamp(),
            )),
            Some(7) => Some(i128::from(split(self).0) * 1_000_000),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_join_round_trip() {
        let u = join(7, 0xFFFF_FFFF_FFFF, 0xFFF, (1 << 62) - 1);
        assert_eq!(u, Uuid::with_version(u128::MAX, 7));
        assert_eq!(split(u), (0xFFFF_FFFF_FFFF, 0xFFF, (1 << 62) - 1));
        let specs = shaped(["a", "b", "c"]);
        assert!(join_checked(8, &specs, 1 << 48, 0, 0).is_err());
        assert!(join_checked(8, &specs, 0, 1 << 12, 0).is_err());
        assert!(join_checked(8, &specs, 0, 0, 1 << 62).is_err());
    }

    #[test]
    fn no_layout_for_other_variants_and_versions() {
        let ncs = Uuid::from_u128(1);
        assert!(Fields::of(ncs).is_err());
        assert!(Fields::of(Uuid::with_version(0, 0)).is_err());
        assert!(Fields::of(Uuid::with_version(0, 9)).is_err());
        assert_eq!(Fields::of(Uuid::NIL).unwrap(), Fields::Nil);
        assert_eq!(Fields::of(Uuid::MAX).unwrap(), Fields::Max);
        assert!(Uuid::NIL.timestamp_unix_ns().is_err());
    }
}
