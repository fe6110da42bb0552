//! Version 4: random ([RFC 9562 §5.4](https://www.rfc-editor.org/rfc/rfc9562#section-5.4)).
//!
//! ```text
//! random_a (48) | ver (4) | random_b (12) | var (2) | random_c (62)
//! ```

use super::{shaped_fields, Field, Layout};
use crate::random::{RandomSource, ThreadRandom};
use crate::Uuid;

/// The layout of version 4, as the RFC's figure draws it.
pub const LAYOUT: Layout = Layout::new(
    "v4",
    Some(4),
    "Version 4, random (RFC 9562 §5.4).",
    &FIELDS_LAID_OUT,
);

const FIELDS_LAID_OUT: [Field; 5] = shaped_fields(["random_a", "random_b", "random_c"]);

/// A version 4 UUID from 16 random octets; the six version and variant bits are overwritten
/// ([RFC 9562 §5.4](https://www.rfc-editor.org/rfc/rfc9562#section-5.4)).
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
/// ([RFC 9562 §5.4](https://www.rfc-editor.org/rfc/rfc9562#section-5.4), [§6.9](https://www.rfc-editor.org/rfc/rfc9562#section-6.9)).
#[inline]
pub fn new() -> Uuid {
    Uuid::with_version(ThreadRandom.u128(), 4)
}

/// A version 4 UUID whose 122 free bits come from 16 bytes of `random`.
///
/// # Errors
/// An error of the random source.
#[inline]
pub fn new_from<R: RandomSource + ?Sized>(random: &R) -> crate::Result<Uuid> {
    let mut bytes = [0u8; 16];
    random.fill(&mut bytes)?;
    Ok(from_random_bytes(bytes))
}

/// Fills `out` with `out.len() / 16` version 4 UUIDs as 16-byte big-endian records, from one
/// call to the thread CSPRNG.
///
/// # Errors
/// [`crate::ErrorKind::InvalidLength`] unless `out.len()` is a multiple of 16.
pub fn fill_bytes(out: &mut [u8]) -> crate::Result<()> {
    fill_bytes_from(out, &ThreadRandom)
}

/// [`fill_bytes`] from `random`.
///
/// # Errors
/// [`crate::ErrorKind::InvalidLength`] unless `out.len()` is a multiple of 16; an error of the
/// random source.
pub fn fill_bytes_from<R: RandomSource + ?Sized>(out: &mut [u8], random: &R) -> crate::Result<()> {
    if !out.len().is_multiple_of(16) {
        return Err(crate::Error::invalid_length(
            "a buffer of UUIDs (a multiple of 16)",
            out.len().next_multiple_of(16),
            out.len(),
        ));
    }
    random.fill(out)?;
    set_version_bytes(out);
    Ok(())
}

/// Sets version 4 and the RFC variant in each 16-byte record.
fn set_version_bytes(out: &mut [u8]) {
    for record in out.chunks_exact_mut(16) {
        record[6] = (record[6] & 0x0F) | 0x40;
        record[8] = (record[8] & 0x3F) | 0x80;
    }
}

/// Fills `out` with version 4 UUIDs, drawing from the thread CSPRNG 4 KiB at a time.
pub fn fill(out: &mut [Uuid]) {
    const CHUNK: usize = 256;
    let mut bytes = [0u8; 16 * CHUNK];
    for chunk in out.chunks_mut(CHUNK) {
        let random = &mut bytes[..16 * chunk.len()];
        ThreadRandom.bytes(random);
        for (slot, record) in chunk.iter_mut().zip(random.chunks_exact(16)) {
            let mut octets = [0u8; 16];
            octets.copy_from_slice(record);
            *slot = from_random_bytes(octets);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bulk_records_are_version_4() {
        let mut buf = vec![0u8; 16 * 1000];
        super::fill_bytes(&mut buf).unwrap();
        for record in buf.chunks_exact(16) {
            let u = crate::Uuid::from_slice(record).unwrap();
            assert_eq!(u.version_number(), Some(4));
        }
        let mut set: Vec<&[u8]> = buf.chunks_exact(16).collect();
        set.sort_unstable();
        set.dedup();
        assert_eq!(set.len(), 1000);
        assert!(super::fill_bytes(&mut [0u8; 17]).is_err());
    }
}
