//! Hiding the creation time of a version 7 UUID: the UUIDv47 scheme (github.com/stateless-me/
//! uuidv47). A database keeps the v7 key, which sorts by time ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7), [§6.12](https://www.rfc-editor.org/rfc/rfc9562#section-6.12)); the
//! outside sees a *facade* that looks like a version 4 UUID: its 48-bit timestamp XOR-ed with
//! a keyed SipHash-2-4 of the UUID's random bits, and the version set to 4. Unmasking is the
//! same XOR with version 7 restored.
//!
//! What it hides: the timestamp, to anyone without the key. What it does not: the 74 random
//! bits (`rand_a` and `rand_b`, the message SipHash reads) are shown unchanged, so the facade
//! is not an encryption of the UUID, the same v7 always masks to the same facade, and
//! whoever holds the key recovers the time. Security rests on the key staying secret (RFC 9562
//! [§8](https://www.rfc-editor.org/rfc/rfc9562#section-8): UUIDs are identifiers, not secrets).
//!
//! The key is 16 bytes: SipHash's `k0` as 8 little-endian bytes, then `k1`.

use core::hash::Hasher as _;
use siphasher::sip::SipHasher24;

use crate::{Error, ErrorKind, Result, Uuid};

/// The 48-bit mask for `uuid` under `key`: SipHash-2-4 of the 10 bytes
/// `[octet 6 & 0x0F, octet 7, octet 8 & 0x3F, octets 9..16]` (the random bits, without version
/// and variant), keeping its low 48 bits.
fn timestamp_mask(uuid: Uuid, key: &[u8; 16]) -> u64 {
    let b = uuid.to_bytes();
    let message = [
        b[6] & 0x0F,
        b[7],
        b[8] & 0x3F,
        b[9],
        b[10],
        b[11],
        b[12],
        b[13],
        b[14],
        b[15],
    ];
    let mut k0 = [0u8; 8];
    let mut k1 = [0u8; 8];
    k0.copy_from_slice(&key[..8]);
    k1.copy_from_slice(&key[8..]);
    let mut hasher = SipHasher24::new_with_keys(u64::from_le_bytes(k0), u64::from_le_bytes(k1));
    hasher.write(&message);
    hasher.finish() & 0xFFFF_FFFF_FFFF
}

fn with_timestamp_xor(uuid: Uuid, key: &[u8; 16], version: u8) -> Uuid {
    let mask = u128::from(timestamp_mask(uuid, key)) << 80;
    Uuid::with_version(uuid.as_u128() ^ mask, version)
}

fn check_version(uuid: Uuid, version: u8, what: &'static str) -> Result<()> {
    if uuid.version_number() == Some(version) {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::WrongVersion {
            uuid: uuid.to_string(),
            expected: what,
        }))
    }
}

/// The v4-looking facade of the version 7 UUID `uuid` under `key` (UUIDv47).
///
/// # Errors
/// [`ErrorKind::WrongVersion`] unless `uuid` is a version 7 UUID of the RFC variant.
///
/// # Examples
/// ```
/// use uuidx_core::mask::{mask_v7, unmask_v7};
/// let key = *b"0123456789abcdef";
/// let v7: uuidx_core::Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
/// let facade = mask_v7(v7, &key).unwrap();
/// assert_eq!(facade.version_number(), Some(4));
/// assert_eq!(unmask_v7(facade, &key).unwrap(), v7);
/// ```
pub fn mask_v7(uuid: Uuid, key: &[u8; 16]) -> Result<Uuid> {
    check_version(uuid, 7, "a version 7 UUID to mask")?;
    Ok(with_timestamp_xor(uuid, key, 4))
}

/// The version 7 UUID behind the facade `uuid` under `key` (UUIDv47).
///
/// # Errors
/// [`ErrorKind::WrongVersion`] unless `uuid` is a version 4 UUID of the RFC variant (a
/// facade).
pub fn unmask_v7(uuid: Uuid, key: &[u8; 16]) -> Result<Uuid> {
    check_version(uuid, 4, "a version 4 facade to unmask")?;
    Ok(with_timestamp_xor(uuid, key, 7))
}

/// A key from a byte slice.
///
/// # Errors
/// [`ErrorKind::InvalidLength`] unless `key` holds 16 bytes.
pub fn key(key: &[u8]) -> Result<[u8; 16]> {
    key.try_into()
        .map_err(|_| Error::invalid_length("a UUIDv47 key", 16, key.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_unmasks_and_checks_versions() {
        let key = [7u8; 16];
        let v7 = crate::layout::v7::new(0x0123_4567_89AB, 0xABC, 0x1234_5678).unwrap();
        let facade = mask_v7(v7, &key).unwrap();
        assert_eq!(facade.version_number(), Some(4));
        assert_eq!(
            facade.as_u128() & ((1 << 80) - 1) & !(0xF << 76),
            v7.as_u128() & ((1 << 80) - 1) & !(0xF << 76)
        );
        assert_ne!(facade.as_u128() >> 80, v7.as_u128() >> 80);
        assert_eq!(unmask_v7(facade, &key).unwrap(), v7);
        assert_ne!(mask_v7(v7, &[8u8; 16]).unwrap(), facade, "the key matters");
        let wrong = mask_v7(facade, &key).unwrap_err();
        assert!(wrong.to_string().contains(&facade.to_string()), "{wrong}");
        assert!(unmask_v7(v7, &key).is_err());
        assert!(super::key(&[0; 15])
            .unwrap_err()
            .to_string()
            .contains("16 bytes long, got 15"));
    }
}
