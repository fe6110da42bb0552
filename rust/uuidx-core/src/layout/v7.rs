//! Version 7: Unix Epoch time-based ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)).
//!
//! ```text
//! unix_ts_ms (48) | ver (4) | rand_a (12) | var (2) | rand_b (62)
//! ```
//!
//! Monotonic generation lives in [`crate::generator`]; this module only lays out fields.

use super::{shaped_fields, Field, Layout};
use crate::Result;
use crate::Uuid;

/// The layout of version 7, as the RFC's figure draws it.
pub const LAYOUT: Layout = Layout::new(
    "v7",
    Some(7),
    "Version 7, Unix Epoch time-based (RFC 9562 §5.7).",
    &FIELDS_LAID_OUT,
);

const FIELDS_LAID_OUT: [Field; 5] = shaped_fields(["unix_ts_ms", "rand_a", "rand_b"]);

/// The arguments of [`new`]: names and widths in bits.
pub const FIELDS: [super::FieldSpec; 3] = super::shaped(&LAYOUT);

/// Builds a version 7 UUID from a 48-bit Unix millisecond timestamp, 12 bits of `rand_a` and
/// 62 bits of `rand_b` ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)).
///
/// # Errors
/// [`crate::ErrorKind::FieldOutOfRange`] when a field does not fit its width.
///
/// # Examples
/// ```
/// // RFC 9562 Appendix A.6.
/// let u = uuidx_core::layout::v7::new(0x017F22E279B0, 0xCC3, 0x18C4DC0C0C07398F).unwrap();
/// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
/// ```
pub fn new(unix_ts_ms: u64, rand_a: u64, rand_b: u64) -> Result<Uuid> {
    super::join_checked(7, &FIELDS, unix_ts_ms, rand_a, rand_b)
}

/// A version 7 UUID for the instant `unix_ns` (nanoseconds since 1970): the millisecond in
/// `unix_ts_ms`, the fraction of the millisecond in `rand_a` ([§6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2) Method 3, as the default
/// generator does) and 62 random bits in `rand_b`. Not part of any monotonic sequence.
///
/// # Errors
/// [`crate::ErrorKind::TimestampOutOfRange`] before 1970 or after the year 10889; an error of
/// the random source.
pub fn at_unix_ns<R: crate::random::RandomSource + ?Sized>(
    unix_ns: i128,
    random: &R,
) -> Result<Uuid> {
    let ms = crate::time::unix_ns_to_unix_ms(unix_ns)?;
    let fraction = (unix_ns.rem_euclid(1_000_000) * 4096 / 1_000_000) as u64;
    Ok(super::join(7, ms, fraction as u16, random.next_u64()?))
}

/// The smallest version 7 UUID of the millisecond that contains `unix_ns`: `rand_a` and
/// `rand_b` all zero. With [`max_at_unix_ns`] it bounds every v7 of an interval, for range
/// queries and partition boundaries ([RFC 9562 §6.13](https://www.rfc-editor.org/rfc/rfc9562#section-6.13)).
///
/// # Errors
/// [`crate::ErrorKind::TimestampOutOfRange`] before 1970 or after the year 10889.
///
/// # Examples
/// ```
/// use uuidx_core::layout::v7;
/// let lo = v7::min_at_unix_ns(1_645_557_742_000_000_000).unwrap();
/// let hi = v7::max_at_unix_ns(1_645_557_742_000_999_999).unwrap();
/// assert_eq!(lo.to_string(), "017f22e2-79b0-7000-8000-000000000000");
/// assert_eq!(hi.to_string(), "017f22e2-79b0-7fff-bfff-ffffffffffff");
/// ```
pub fn min_at_unix_ns(unix_ns: i128) -> Result<Uuid> {
    Ok(super::join(
        7,
        crate::time::unix_ns_to_unix_ms(unix_ns)?,
        0,
        0,
    ))
}

/// The largest version 7 UUID of the millisecond that contains `unix_ns`: `rand_a` and
/// `rand_b` all ones.
///
/// # Errors
/// [`crate::ErrorKind::TimestampOutOfRange`] before 1970 or after the year 10889.
pub fn max_at_unix_ns(unix_ns: i128) -> Result<Uuid> {
    Ok(super::join(
        7,
        crate::time::unix_ns_to_unix_ms(unix_ns)?,
        0xFFF,
        u64::MAX,
    ))
}

/// `uuid` (a version 7 UUID laid out by [§6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2)
/// Method 3, a 12-bit fraction in `rand_a`) with its time moved by `shift_ns`: the millisecond
/// and the fraction together, as one count of 1/4096 ms, moved by `shift_ns` in those units
/// (rounded towards minus infinity; a whole number of milliseconds moves exactly). The counter
/// and random bits are kept, so UUIDs of one monotonic sequence moved by the same shift keep
/// their order and stay distinct. This is how PostgreSQL 18's `uuidv7(interval)` relates to
/// `uuidv7()`.
///
/// # Errors
/// [`crate::ErrorKind::TimestampOutOfRange`] when the moved time is before 1970 or after the
/// year 10889.
///
/// # Examples
/// ```
/// use uuidx_core::layout::v7;
/// let u: uuidx_core::Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
/// let day = 86_400_000_000_000;
/// let earlier = v7::shifted(u, -day).unwrap();
/// assert_eq!(earlier.to_string(), "017f1dbc-1db0-7cc3-98c4-dc0c0c07398f");
/// assert_eq!(v7::shifted(earlier, day).unwrap(), u);
/// ```
pub fn shifted(uuid: Uuid, shift_ns: i64) -> Result<Uuid> {
    let (ms, fraction, _) = super::split(uuid);
    let ticks = (i128::from(ms) << 12) | i128::from(fraction);
    let moved = ticks + (i128::from(shift_ns) << 12).div_euclid(1_000_000);
    match u64::try_from(moved) {
        Ok(t) if t >> 12 <= crate::time::MAX_UNIX_TS_MS => {
            let kept = uuid.as_u128() & !(((1u128 << 48) - 1) << 80 | 0xFFF << 64);
            let time = u128::from(t >> 12) << 80 | u128::from(t & 0xFFF) << 64;
            Ok(Uuid::from_u128(kept | time))
        }
        _ => Err(crate::time::v7_out_of_range(
            i128::from(ms) * 1_000_000 + i128::from(shift_ns),
        )),
    }
}

/// A version 7 UUID read as a monotonic generator laid it out ([RFC 9562 §6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2), [§6.4](https://www.rfc-editor.org/rfc/rfc9562#section-6.4)): the 74
/// bits after `unix_ts_ms` (`rand_a` then `rand_b`, the version and variant bits skipped)
/// split, left to right, into `fraction`, `counter`, `node` and the fresh `random` bits.
/// See [`crate::generator::V7Method::widths`] for each method's widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneratorFields {
    /// Milliseconds since 1970.
    pub unix_ts_ms: u64,
    /// The sub-millisecond fraction (Method 3), in units of 2**-`fraction_bits` ms.
    pub fraction: u64,
    /// The counter (Methods 1 and 3; all 74 bits for Method 2).
    pub counter: u128,
    /// The fixed node id ([RFC 9562 §6.4](https://www.rfc-editor.org/rfc/rfc9562#section-6.4)), 0 when there is none.
    pub node: u64,
    /// The fresh random bits.
    pub random: u64,
}

impl GeneratorFields {
    /// Splits `uuid` with these widths; the random part is what is left of the 74 bits.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when the widths do not fit in 74 bits (at most 12
    /// bits of fraction, 32 of node), or when `uuid` is not version 7
    /// ([`crate::ErrorKind::NoLayout`]).
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::layout::v7::GeneratorFields;
    /// // RFC 9562 Appendix A.6, read as Method 3 without a counter.
    /// let u: uuidx_core::Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
    /// let f = GeneratorFields::of(u, 12, 0, 0).unwrap();
    /// assert_eq!((f.unix_ts_ms, f.fraction, f.random), (0x017F22E279B0, 0xCC3, 0x18C4DC0C0C07398F));
    /// ```
    pub fn of(uuid: Uuid, fraction_bits: u32, counter_bits: u32, node_bits: u32) -> Result<Self> {
        if uuid.version_number() != Some(7) {
            return Err(crate::Error::new(crate::ErrorKind::NoLayout {
                uuid: uuid.to_string(),
            }));
        }
        let fits = fraction_bits <= 12
            && node_bits <= 32
            && fraction_bits + counter_bits + node_bits <= 74;
        if !fits {
            return Err(crate::Error::new(crate::ErrorKind::InvalidOption {
                option: "v7 field widths",
                value: format!("{fraction_bits} + {counter_bits} + {node_bits}"),
                expected: "at most 74 bits: fraction 0 to 12, node 0 to 32",
            }));
        }
        let (unix_ts_ms, rand_a, rand_b) = super::split(uuid);
        let payload = (u128::from(rand_a) << 62) | u128::from(rand_b);
        let random_bits = 74 - fraction_bits - counter_bits - node_bits;
        let take = |shift: u32, bits: u32| (payload >> shift) & ((1u128 << bits) - 1);
        Ok(Self {
            unix_ts_ms,
            fraction: take(74 - fraction_bits, fraction_bits) as u64,
            counter: take(random_bits + node_bits, counter_bits),
            node: take(random_bits, node_bits) as u64,
            random: take(0, random_bits) as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A shift by whole milliseconds moves the millisecond alone and comes back exactly;
        /// any shift keeps the bits after the fraction, the version and the variant.
        #[test]
        fn shifts_move_the_time_only(
            ms in 0u64..(1 << 47),
            fraction in 0u16..4096,
            tail in any::<u64>(),
            shift_ms in -(1i64 << 40)..(1i64 << 40),
            extra_ns in -999_999i64..1_000_000,
        ) {
            let u = super::super::join(7, ms, fraction, tail);
            let shift = shift_ms * 1_000_000;
            match shifted(u, shift) {
                Ok(moved) => {
                    let (m, f, t) = super::super::split(moved);
                    prop_assert_eq!(i128::from(m), i128::from(ms) + i128::from(shift_ms));
                    prop_assert_eq!((f, t), (fraction, tail & ((1 << 62) - 1)));
                    prop_assert_eq!(shifted(moved, -shift).unwrap(), u);
                }
                Err(_) => prop_assert!(i128::from(ms) + i128::from(shift_ms) < 0),
            }
            if let Ok(moved) = shifted(u, shift + extra_ns) {
                prop_assert_eq!(moved.version_number(), Some(7));
                prop_assert_eq!(moved.as_u128() & ((1 << 64) - 1), u.as_u128() & ((1 << 64) - 1));
                let ticks = |v: Uuid| {
                    let (m, f, _) = super::super::split(v);
                    (i128::from(m) << 12) | i128::from(f)
                };
                // In 1/4096 ms ticks, rounded towards minus infinity.
                let expected = (i128::from(shift + extra_ns) << 12).div_euclid(1_000_000);
                prop_assert_eq!(ticks(moved) - ticks(u), expected);
            }
        }
    }

    #[test]
    fn shifts_outside_1970_to_10889_are_errors() {
        let first = super::super::join(7, 0, 0, 0);
        let last = super::super::join(7, (1 << 48) - 1, 0xFFF, 0);
        assert!(shifted(first, -1).is_err());
        assert_eq!(shifted(first, 0).unwrap(), first);
        assert!(shifted(last, 1_000_000).is_err());
        assert_eq!(
            shifted(last, -1_000_000).unwrap(),
            super::super::join(7, (1 << 48) - 2, 0xFFF, 0)
        );
    }
}
