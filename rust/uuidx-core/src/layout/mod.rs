//! Field layouts of every UUID version ([RFC 9562 §5](https://www.rfc-editor.org/rfc/rfc9562#section-5)): constructors that set the version and
//! variant and reject fields that do not fit, and decomposition into the RFC's named fields.
//!
//! Each layout is one table ([`Layout`]: its fields' names, widths and positions, as the RFC's
//! figure draws them), which decomposition reads and the bindings export; [`LAYOUTS`] lists
//! them. Versions 3, 4, 5, 7 and 8 share one shape, 48 bits | ver | 12 bits | var | 62 bits,
//! which [`split`] and [`join`] handle once; versions 1, 2 and 6 have modules of their own.

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

/// The constructor argument of the 60-bit Gregorian timestamp of versions 1, 2 and 6:
/// 100-ns intervals since 1582-10-15 ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
pub const TIME_100NS: FieldSpec = ("time_100ns", 60);

/// A field of a layout: its RFC 9562 name, its width and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Field {
    /// The name the RFC gives it; `ver` and `var` for the version and variant bits.
    pub name: &'static str,
    /// Its width, in bits.
    pub bits: u32,
    /// Its first bit, counted from the most significant one (bit 0), as the RFC's figures
    /// number them.
    pub offset: u32,
}

impl Field {
    /// The field's value in `uuid`.
    #[inline]
    pub const fn of(&self, uuid: Uuid) -> u64 {
        let shift = 128 - self.offset - self.bits;
        ((uuid.as_u128() >> shift) & ((1 << self.bits) - 1)) as u64
    }

    /// The field as a constructor argument.
    pub const fn spec(&self) -> FieldSpec {
        (self.name, self.bits)
    }
}

/// A UUID layout: its fields left to right, `ver` and `var` included, as the RFC's figure for
/// the layout draws them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Layout {
    /// `v1` to `v8`, `nil` or `max`.
    pub name: &'static str,
    /// The version, for `v1` to `v8`.
    pub version: Option<u8>,
    /// What the layout is, with its RFC 9562 section, in a sentence.
    pub title: &'static str,
    /// The fields, left to right; together they cover the 128 bits (none for Nil and Max).
    pub fields: &'static [Field],
}

impl Layout {
    /// A layout of version `version` with these fields.
    const fn new(
        name: &'static str,
        version: Option<u8>,
        title: &'static str,
        fields: &'static [Field],
    ) -> Self {
        Self {
            name,
            version,
            title,
            fields,
        }
    }

    /// The field called `name`; in a constant, a compile-time error if there is none.
    ///
    /// # Panics
    /// If the layout has no such field.
    pub const fn field(&self, name: &str) -> Field {
        let mut i = 0;
        while i < self.fields.len() {
            if str_eq(self.fields[i].name, name) {
                return self.fields[i];
            }
            i += 1;
        }
        panic!("no field of that name in this layout")
    }

    /// The layout of `uuid` (see [`Fields::of`]).
    ///
    /// # Errors
    /// [`ErrorKind::NoLayout`] as [`Fields::of`].
    pub fn of(uuid: Uuid) -> Result<&'static Self> {
        Fields::of(uuid).map(|f| f.layout())
    }

    /// `(field name, value)` of each field of `uuid`, left to right.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::{layout::v7, Uuid};
    /// let u: Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
    /// let values: Vec<_> = v7::LAYOUT.values(u).collect();
    /// assert_eq!(values, [
    ///     ("unix_ts_ms", 0x017F22E279B0), ("ver", 7), ("rand_a", 0xCC3), ("var", 2),
    ///     ("rand_b", 0x18C4DC0C0C07398F),
    /// ]);
    /// ```
    pub fn values(&self, uuid: Uuid) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.fields.iter().map(move |f| (f.name, f.of(uuid)))
    }
}

/// Whether two strings are equal, in a constant.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Fields of these names and widths, laid out left to right from bit 0; they must cover the
/// 128 bits.
const fn laid_out<const N: usize>(widths: [(&'static str, u32); N]) -> [Field; N] {
    let mut fields = [Field {
        name: "",
        bits: 0,
        offset: 0,
    }; N];
    let mut offset = 0;
    let mut i = 0;
    while i < N {
        let (name, bits) = widths[i];
        fields[i] = Field { name, bits, offset };
        offset += bits;
        i += 1;
    }
    assert!(offset == 128, "the fields must cover the 128 bits");
    fields
}

/// The fields of the 48 | ver | 12 | var | 62 shape, with the names of one version.
const fn shaped_fields(names: [&'static str; 3]) -> [Field; 5] {
    laid_out([
        (names[0], 48),
        ("ver", 4),
        (names[1], 12),
        ("var", 2),
        (names[2], 62),
    ])
}

/// Version 3, MD5 name-based.
pub const V3: Layout = Layout::new(
    "v3",
    Some(3),
    "Version 3, MD5 name-based (RFC 9562 §5.3).",
    &shaped_fields(["md5_high", "md5_mid", "md5_low"]),
);

/// Version 5, SHA-1 name-based.
pub const V5: Layout = Layout::new(
    "v5",
    Some(5),
    "Version 5, SHA-1 name-based (RFC 9562 §5.5).",
    &shaped_fields(["sha1_high", "sha1_mid", "sha1_low"]),
);

/// The Nil UUID: no fields.
pub const NIL: Layout = Layout::new("nil", None, "The Nil UUID (RFC 9562 §5.9): no fields.", &[]);

/// The Max UUID: no fields.
pub const MAX: Layout = Layout::new(
    "max",
    None,
    "The Max UUID (RFC 9562 §5.10): no fields.",
    &[],
);

/// Every layout, by version, then Nil and Max: the catalogue the bindings export.
pub const LAYOUTS: [&Layout; 10] = [
    &v1::LAYOUT,
    &v2::LAYOUT,
    &V3,
    &v4::LAYOUT,
    &V5,
    &v6::LAYOUT,
    &v7::LAYOUT,
    &v8::LAYOUT,
    &NIL,
    &MAX,
];

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

/// The three free fields of the 48 | ver | 12 | var | 62 shape ([RFC 9562 §5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3)-[§5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5), [§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7),
/// [§5.8](https://www.rfc-editor.org/rfc/rfc9562#section-5.8)): octets 0-5, the 12 bits after the version, the 62 bits after the variant.
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

/// The constructor arguments of the 48 | ver | 12 | var | 62 shape of `layout`.
pub(crate) const fn shaped(layout: &Layout) -> [FieldSpec; 3] {
    [
        layout.fields[0].spec(),
        layout.fields[2].spec(),
        layout.fields[4].spec(),
    ]
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

/// A UUID decomposed into the fields [RFC 9562 §5](https://www.rfc-editor.org/rfc/rfc9562#section-5) names for its version.
///
/// [`Fields::layout`] is the layout's table, whose [`Layout::values`] lists `(field, value)`
/// pairs in the order of the RFC's figures, `ver` and `var` included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fields {
    /// Version 1, Gregorian time-based ([§5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
    V1(v1::Fields),
    /// Version 2, DCE Security ([§5.2](https://www.rfc-editor.org/rfc/rfc9562#section-5.2); DCE 1.1 Authentication and Security Services).
    V2(v2::Fields),
    /// Version 3, MD5 name-based ([§5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3)): `md5_high`, `md5_mid`, `md5_low`.
    V3(u64, u16, u64),
    /// Version 4, random ([§5.4](https://www.rfc-editor.org/rfc/rfc9562#section-5.4)): `random_a`, `random_b`, `random_c`.
    V4(u64, u16, u64),
    /// Version 5, SHA-1 name-based ([§5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5)): `sha1_high`, `sha1_mid`, `sha1_low`.
    V5(u64, u16, u64),
    /// Version 6, reordered Gregorian time-based ([§5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6)).
    V6(v6::Fields),
    /// Version 7, Unix Epoch time-based ([§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)): `unix_ts_ms`, `rand_a`, `rand_b`.
    V7(u64, u16, u64),
    /// Version 8, custom ([§5.8](https://www.rfc-editor.org/rfc/rfc9562#section-5.8)): `custom_a`, `custom_b`, `custom_c`.
    V8(u64, u16, u64),
    /// The Nil UUID ([§5.9](https://www.rfc-editor.org/rfc/rfc9562#section-5.9)).
    Nil,
    /// The Max UUID ([§5.10](https://www.rfc-editor.org/rfc/rfc9562#section-5.10)).
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

    /// The layout's table.
    pub fn layout(&self) -> &'static Layout {
        match self {
            Self::V1(_) => &v1::LAYOUT,
            Self::V2(_) => &v2::LAYOUT,
            Self::V3(..) => &V3,
            Self::V4(..) => &v4::LAYOUT,
            Self::V5(..) => &V5,
            Self::V6(_) => &v6::LAYOUT,
            Self::V7(..) => &v7::LAYOUT,
            Self::V8(..) => &v8::LAYOUT,
            Self::Nil => &NIL,
            Self::Max => &MAX,
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
    /// ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1), [§5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6), [§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)). Negative before 1970.
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
        let specs = shaped(&v8::LAYOUT);
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

    /// Each table against the typed decomposition, on UUIDs whose bits are all different
    /// (the reassembly and the version and variant bits are checked in `tests/properties.rs`).
    #[test]
    fn tables_agree_with_the_typed_fields() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834_u128;
        for _ in 0..1000 {
            seed = seed
                .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645)
                .wrapping_add(0x5851_F42D_4C95_7F2D_1405_7B7E_F767_814F);
            for version in 1..=8 {
                let uuid = Uuid::with_version(seed, version);
                let layout = Layout::of(uuid).unwrap();
                assert_eq!(layout.version, Some(version));
                let value = |name| layout.field(name).of(uuid);
                let typed: Vec<(&str, u64)> = match Fields::of(uuid).unwrap() {
                    Fields::V1(f) => vec![
                        ("time_low", f.time_low.into()),
                        ("time_mid", f.time_mid.into()),
                        ("time_high", f.time_high.into()),
                        ("clock_seq", f.clock_seq.into()),
                        ("node", f.node),
                    ],
                    Fields::V2(f) => vec![
                        ("local_id", f.local_id.into()),
                        ("time_mid", f.time_mid.into()),
                        ("time_high", f.time_high.into()),
                        ("clock_seq", f.clock_seq.into()),
                        ("local_domain", f.local_domain.into()),
                        ("node", f.node),
                    ],
                    Fields::V6(f) => vec![
                        ("time_high", f.time_high.into()),
                        ("time_mid", f.time_mid.into()),
                        ("time_low", f.time_low.into()),
                        ("clock_seq", f.clock_seq.into()),
                        ("node", f.node),
                    ],
                    Fields::V3(a, b, c)
                    | Fields::V4(a, b, c)
                    | Fields::V5(a, b, c)
                    | Fields::V7(a, b, c)
                    | Fields::V8(a, b, c) => {
                        let names = shaped(layout);
                        vec![(names[0].0, a), (names[1].0, b.into()), (names[2].0, c)]
                    }
                    other => panic!("{other:?}"),
                };
                for (name, typed) in typed {
                    assert_eq!(value(name), typed, "{name} of {uuid}");
                }
            }
        }
        assert_eq!(Layout::of(Uuid::NIL).unwrap().values(Uuid::NIL).count(), 0);
        let names: Vec<&str> = LAYOUTS.iter().map(|l| l.name).collect();
        assert_eq!(
            names,
            ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "nil", "max"]
        );
    }
}
