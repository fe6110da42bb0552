//! Version 7: Unix Epoch time-based (RFC 9562 §5.7).
//!
//! ```text
//! unix_ts_ms (48) | ver (4) | rand_a (12) | var (2) | rand_b (62)
//! ```
//!
//! Monotonic generation lives in [`crate::generator`]; this module only lays out fields.

use crate::Result;
use crate::Uuid;

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
    super::join_checked(
        7,
        ["unix_ts_ms", "rand_a", "rand_b"],
        unix_ts_ms,
        rand_a,
        rand_b,
    )
}
