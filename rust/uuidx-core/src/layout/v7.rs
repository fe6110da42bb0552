//! Version 7: Unix Epoch time-based (RFC 9562 §5.7).
//!
//! ```text
//! unix_ts_ms (48) | ver (4) | rand_a (12) | var (2) | rand_b (62)
//! ```
//!
//! Monotonic generation lives in [`crate::generator`]; this module only lays out fields.

use crate::Result;
use crate::Uuid;

/// The arguments of [`new`]: names and widths in bits.
pub const FIELDS: [super::FieldSpec; 3] = super::shaped(["unix_ts_ms", "rand_a", "rand_b"]);

/// Builds a version 7 UUID from a 48-bit Unix millisecond timestamp, 12 bits of `rand_a` and
/// 62 bits of `rand_b` (RFC 9562 §5.7).
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
/// `unix_ts_ms`, the fraction of the millisecond in `rand_a` (§6.2 Method 3, as the default
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
/// queries and partition boundaries (RFC 9562 §6.13).
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
