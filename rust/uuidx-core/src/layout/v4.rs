//! Version 4: random (RFC 9562 §5.4).
//!
//! ```text
//! random_a (48) | ver (4) | random_b (12) | var (2) | random_c (62)
//! ```

use crate::random::{RandomSource, ThreadRandom};
use crate::Uuid;

/// A version 4 UUID from 16 random octets; the six version and variant bits are overwritten
/// (RFC 9562 §5.4).
///
/// # Examples
/// ```
/// // RFC 9562 Appendix A.3.
/// let random = 0x919108f752d133205bacf847db4148a8_u128.to_be_bytes();
/// let u = uuidx_core::layout::v4::from_random_bytes(random);
/// assert_eq!(u.to_string(), "919108f7-52d1-4320-9bac-f847db4148a8");
/// ```
#[inline]
pub const fn from_random_bytes(random: [u8; 16]) -> Uuid {
    Uuid::with_version(u128::from_be_bytes(random), 4)
}

/// A version 4 UUID whose 122 free bits come from the calling thread's CSPRNG
/// (RFC 9562 §5.4, §6.9).
#[inline]
pub fn new() -> Uuid {
    new_from(&ThreadRandom)
}

/// A version 4 UUID whose 122 free bits come from `random`.
#[inline]
pub fn new_from<R: RandomSource + ?Sized>(random: &R) -> Uuid {
    let mut bytes = [0u8; 16];
    random.fill(&mut bytes);
    from_random_bytes(bytes)
}
