//! Time bases of the UUID layouts ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1), [§5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6), [§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7), [§6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1)).
//!
//! Versions 1 and 6 count 100-nanosecond intervals since the Gregorian reform,
//! 1582-10-15 00:00:00 UTC, in 60 bits; version 7 counts milliseconds since the Unix epoch in
//! 48 bits. These helpers convert between them and Unix nanoseconds, which may be negative
//! (before 1970) and are therefore `i128`.

use crate::{Error, ErrorKind, Result};

/// 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch (1970-01-01):
/// `0x01B21DD213814000` ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1), [Appendix A](https://www.rfc-editor.org/rfc/rfc9562#appendix-A)).
pub const GREGORIAN_UNIX_OFFSET_100NS: u64 = 0x01B2_1DD2_1381_4000;

/// The largest 60-bit Gregorian timestamp ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
pub const MAX_GREGORIAN_100NS: u64 = (1 << 60) - 1;

/// The largest 48-bit Unix millisecond timestamp of a version 7 UUID ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)).
pub const MAX_UNIX_TS_MS: u64 = (1 << 48) - 1;

/// Unix nanoseconds for a 60-bit Gregorian timestamp in 100-ns units ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
///
/// # Examples
/// ```
/// // RFC 9562 Appendix A.1: 2022-02-22 19:22:22 UTC.
/// assert_eq!(uuidx_core::time::gregorian_to_unix_ns(138_648_505_420_000_000), 1_645_557_742_000_000_000);
/// ```
#[inline]
pub const fn gregorian_to_unix_ns(gregorian_100ns: u64) -> i128 {
    (gregorian_100ns as i128 - GREGORIAN_UNIX_OFFSET_100NS as i128) * 100
}

/// The 60-bit Gregorian timestamp (100-ns units, rounded down) for Unix nanoseconds
/// ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
///
/// # Errors
/// [`ErrorKind::TimestampOutOfRange`] before 1582-10-15 or after the year 5236.
pub fn unix_ns_to_gregorian(unix_ns: i128) -> Result<u64> {
    let ticks = unix_ns.div_euclid(100) + GREGORIAN_UNIX_OFFSET_100NS as i128;
    match u64::try_from(ticks) {
        Ok(ticks) if ticks <= MAX_GREGORIAN_100NS => Ok(ticks),
        _ => Err(Error::new(ErrorKind::TimestampOutOfRange {
            layout: "a 60-bit Gregorian timestamp (1582-10-15 to 5236-03-31)",
            value: format!("{unix_ns} ns since the Unix epoch"),
        })),
    }
}

/// The 48-bit millisecond timestamp of a version 7 UUID for Unix nanoseconds, rounded down
/// ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7)).
///
/// # Errors
/// [`ErrorKind::TimestampOutOfRange`] before 1970 or after the year 10889.
pub fn unix_ns_to_unix_ms(unix_ns: i128) -> Result<u64> {
    let ms = unix_ns.div_euclid(1_000_000);
    match u64::try_from(ms) {
        Ok(ms) if ms <= MAX_UNIX_TS_MS => Ok(ms),
        _ => Err(v7_out_of_range(unix_ns)),
    }
}

/// What a version 7 UUID's timestamp is, in errors for values it cannot hold.
pub(crate) const V7_TIMESTAMP: &str = "a version 7 UUID (48-bit milliseconds since 1970)";

/// The error for an instant outside what a version 7 UUID holds (1970 to the year 10889);
/// public so that bindings report values wider than `i128` in the same words.
pub fn v7_out_of_range(unix_ns: impl core::fmt::Display) -> Error {
    Error::new(ErrorKind::TimestampOutOfRange {
        layout: V7_TIMESTAMP,
        value: format!("{unix_ns} ns since the Unix epoch"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's
    /// `days_from_civil`), an independent derivation of the offset.
    fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    #[test]
    fn offset_is_the_gregorian_reform() {
        let days = days_from_civil(1970, 1, 1) - days_from_civil(1582, 10, 15);
        assert_eq!(days, 141_427);
        assert_eq!(
            GREGORIAN_UNIX_OFFSET_100NS,
            u64::try_from(days).unwrap() * 86_400 * 10_000_000
        );
        // 1582-10-15 00:00:00 UTC is Unix time -12219292800 s.
        assert_eq!(gregorian_to_unix_ns(0), -12_219_292_800 * 1_000_000_000);
        // RFC 9562 Appendix A.1 and A.5: 2022-02-22 19:22:22 UTC.
        assert_eq!(
            (days_from_civil(2022, 2, 22) * 86_400 + 19 * 3600 + 22 * 60 + 22) * 10_000_000,
            i64::try_from(gregorian_to_unix_ns(138_648_505_420_000_000) / 100).unwrap()
        );
    }

    #[test]
    fn round_trips_and_bounds() {
        for ns in [0_i128, 1, 99, 100, -100, 1_645_557_742_000_000_000] {
            let g = unix_ns_to_gregorian(ns).unwrap();
            assert_eq!(gregorian_to_unix_ns(g), ns.div_euclid(100) * 100);
        }
        assert!(unix_ns_to_gregorian(gregorian_to_unix_ns(0) - 1).is_err());
        assert!(unix_ns_to_gregorian(gregorian_to_unix_ns(MAX_GREGORIAN_100NS)).is_ok());
        assert!(unix_ns_to_gregorian(gregorian_to_unix_ns(MAX_GREGORIAN_100NS) + 100).is_err());
        assert!(unix_ns_to_unix_ms(-1).is_err());
        assert_eq!(unix_ns_to_unix_ms(1_999_999).unwrap(), 1);
        assert!(unix_ns_to_unix_ms((MAX_UNIX_TS_MS as i128 + 1) * 1_000_000).is_err());
    }
}
