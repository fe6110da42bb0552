//! Name-based UUIDs ([RFC 9562 §5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3), [§5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5), [§6.5](https://www.rfc-editor.org/rfc/rfc9562#section-6.5), [Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2)): the leftmost 128 bits of a hash
//! of the namespace's 16 octets followed by the name's octets, with version and variant set.
//!
//! Every digest comes from a RustCrypto crate (`md-5`, `sha1`, `sha2`, `sha3`, `shake`).

use crate::{Error, ErrorKind, Input, Result, Uuid};
use core::fmt;
use shake::XofReader as _;

/// The DNS namespace ID ([RFC 9562 §6.6](https://www.rfc-editor.org/rfc/rfc9562#section-6.6)): `6ba7b810-9dad-11d1-80b4-00c04fd430c8`.
pub const NAMESPACE_DNS: Uuid = Uuid::from_u128(0x6ba7_b810_9dad_11d1_80b4_00c0_4fd4_30c8);
/// The URL namespace ID ([RFC 9562 §6.6](https://www.rfc-editor.org/rfc/rfc9562#section-6.6)): `6ba7b811-9dad-11d1-80b4-00c04fd430c8`.
pub const NAMESPACE_URL: Uuid = Uuid::from_u128(0x6ba7_b811_9dad_11d1_80b4_00c0_4fd4_30c8);
/// The ISO OID namespace ID ([RFC 9562 §6.6](https://www.rfc-editor.org/rfc/rfc9562#section-6.6)): `6ba7b812-9dad-11d1-80b4-00c04fd430c8`.
pub const NAMESPACE_OID: Uuid = Uuid::from_u128(0x6ba7_b812_9dad_11d1_80b4_00c0_4fd4_30c8);
/// The X.500 DN namespace ID ([RFC 9562 §6.6](https://www.rfc-editor.org/rfc/rfc9562#section-6.6)): `6ba7b814-9dad-11d1-80b4-00c04fd430c8`.
pub const NAMESPACE_X500: Uuid = Uuid::from_u128(0x6ba7_b814_9dad_11d1_80b4_00c0_4fd4_30c8);

/// A hash function for name-based UUIDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// MD5, for version 3 ([RFC 9562 §5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3)).
    Md5,
    /// SHA-1, for version 5 ([RFC 9562 §5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5)).
    Sha1,
    /// SHA-256 (FIPS 180-4), for version 8 ([Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2)).
    Sha256,
    /// SHA-512 (FIPS 180-4), for version 8.
    Sha512,
    /// SHA3-256 (FIPS 202), for version 8.
    Sha3_256,
    /// SHA3-512 (FIPS 202), for version 8.
    Sha3_512,
    /// SHAKE128 (FIPS 202) with 128 bits of output, for version 8.
    Shake128,
    /// SHAKE256 (FIPS 202) with 128 bits of output, for version 8.
    Shake256,
}

impl Algorithm {
    /// The algorithms allowed for name-based version 8 UUIDs, by their Python `hashlib` names.
    /// MD5 and SHA-1 are left out: they have versions 3 and 5 ([RFC 9562 §6.5](https://www.rfc-editor.org/rfc/rfc9562#section-6.5)).
    pub const NAMES: [&'static str; 6] = [
        "sha256",
        "sha512",
        "sha3_256",
        "sha3_512",
        "shake_128",
        "shake_256",
    ];

    /// The algorithm for a version 8 name-based UUID, by its `hashlib` name (exact, lower case).
    ///
    /// # Errors
    /// [`ErrorKind::UnknownAlgorithm`] for any name not in [`Algorithm::NAMES`].
    pub fn for_v8(name: &str) -> Result<Self> {
        Ok(match name {
            "sha256" => Self::Sha256,
            "sha512" => Self::Sha512,
            "sha3_256" => Self::Sha3_256,
            "sha3_512" => Self::Sha3_512,
            "shake_128" => Self::Shake128,
            "shake_256" => Self::Shake256,
            _ => {
                return Err(UnknownAlgorithm {
                    name: Input::new(name),
                }
                .into())
            }
        })
    }

    /// The `hashlib` name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Md5 => "md5",
            Self::Sha1 => "sha1",
            Self::Sha256 => "sha256",
            Self::Sha512 => "sha512",
            Self::Sha3_256 => "sha3_256",
            Self::Sha3_512 => "sha3_512",
            Self::Shake128 => "shake_128",
            Self::Shake256 => "shake_256",
        }
    }

    /// The leftmost 128 bits of the hash of `parts` concatenated.
    pub fn digest128(self, parts: &[&[u8]]) -> [u8; 16] {
        fn fixed<D: sha2::Digest>(parts: &[&[u8]]) -> [u8; 16] {
            let mut hasher = D::new();
            for part in parts {
                hasher.update(part);
            }
            let full = hasher.finalize();
            let mut out = [0u8; 16];
            out.copy_from_slice(&full[..16]);
            out
        }
        fn xof<X: shake::ExtendableOutput + Default>(parts: &[&[u8]]) -> [u8; 16] {
            let mut hasher = X::default();
            for part in parts {
                hasher.update(part);
            }
            let mut out = [0u8; 16];
            hasher.finalize_xof().read(&mut out);
            out
        }
        match self {
            Self::Md5 => fixed::<md5::Md5>(parts),
            Self::Sha1 => fixed::<sha1::Sha1>(parts),
            Self::Sha256 => fixed::<sha2::Sha256>(parts),
            Self::Sha512 => fixed::<sha2::Sha512>(parts),
            Self::Sha3_256 => fixed::<sha3::Sha3_256>(parts),
            Self::Sha3_512 => fixed::<sha3::Sha3_512>(parts),
            Self::Shake128 => xof::<shake::Shake128>(parts),
            Self::Shake256 => xof::<shake::Shake256>(parts),
        }
    }
}

/// A hash algorithm name that this crate does not offer for name-based version 8 UUIDs
/// ([`crate::ErrorKind::UnknownAlgorithm`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownAlgorithm {
    /// The rejected name.
    pub name: Input,
}

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown algorithm {}: expected one of {}",
            self.name,
            Algorithm::NAMES.join(", ")
        )
    }
}

impl From<UnknownAlgorithm> for Error {
    fn from(error: UnknownAlgorithm) -> Self {
        Error::new(ErrorKind::UnknownAlgorithm(error))
    }
}

/// The name-based UUID of `version` for `namespace` and `name` hashed with `algorithm`.
#[inline]
fn hashed(version: u8, algorithm: Algorithm, namespace: Uuid, name: &[u8]) -> Uuid {
    let digest = algorithm.digest128(&[&namespace.to_bytes(), name]);
    Uuid::with_version(u128::from_be_bytes(digest), version)
}

/// A version 3 UUID: MD5 of the namespace and the name ([RFC 9562 §5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3)).
///
/// # Examples
/// ```
/// use uuidx_core::name;
/// // RFC 9562 Appendix A.2.
/// let u = name::v3(name::NAMESPACE_DNS, b"www.example.com");
/// assert_eq!(u.to_string(), "5df41881-3aed-3515-88a7-2f4a814cf09e");
/// ```
pub fn v3(namespace: Uuid, name: &[u8]) -> Uuid {
    hashed(3, Algorithm::Md5, namespace, name)
}

/// A version 5 UUID: SHA-1 of the namespace and the name, truncated to 128 bits
/// ([RFC 9562 §5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5)).
///
/// # Examples
/// ```
/// use uuidx_core::name;
/// // RFC 9562 Appendix A.4.
/// let u = name::v5(name::NAMESPACE_DNS, b"www.example.com");
/// assert_eq!(u.to_string(), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
/// ```
pub fn v5(namespace: Uuid, name: &[u8]) -> Uuid {
    hashed(5, Algorithm::Sha1, namespace, name)
}

/// A name-based version 8 UUID ([RFC 9562 §5.8](https://www.rfc-editor.org/rfc/rfc9562#section-5.8), [Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2)): the leftmost 128 bits of
/// `algorithm` over the namespace and the name, with version 8 and the RFC variant.
///
/// # Examples
/// ```
/// use uuidx_core::name::{self, Algorithm};
/// // RFC 9562 Appendix B.2 (SHA-256).
/// let u = name::v8(name::NAMESPACE_DNS, b"www.example.com", Algorithm::Sha256);
/// assert_eq!(u.to_string(), "5c146b14-3c52-8afd-938a-375d0df1fbf6");
/// ```
pub fn v8(namespace: Uuid, name: &[u8], algorithm: Algorithm) -> Uuid {
    hashed(8, algorithm, namespace, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8; 16]) -> String {
        crate::encoding::Encoding::Hex.encode(Uuid::from_bytes(*bytes))
    }

    #[test]
    fn known_digests_of_abc() {
        // FIPS 180-4 / FIPS 202 test vectors for "abc", leftmost 128 bits.
        let cases = [
            (Algorithm::Md5, "900150983cd24fb0d6963f7d28e17f72"),
            (Algorithm::Sha1, "a9993e364706816aba3e25717850c26c"),
            (Algorithm::Sha256, "ba7816bf8f01cfea414140de5dae2223"),
            (Algorithm::Sha512, "ddaf35a193617abacc417349ae204131"),
            (Algorithm::Sha3_256, "3a985da74fe225b2045c172d6bd390bd"),
            (Algorithm::Sha3_512, "b751850b1a57168a5693cd924b6b096e"),
            (Algorithm::Shake128, "5881092dd818bf5cf8a3ddb793fbcba7"),
            (Algorithm::Shake256, "483366601360a8771c6863080cc4114d"),
        ];
        for (algorithm, expected) in cases {
            assert_eq!(
                hex(&algorithm.digest128(&[b"a", b"bc"])),
                expected,
                "{algorithm:?}"
            );
        }
    }

    #[test]
    fn v8_names_are_exact() {
        for name in Algorithm::NAMES {
            assert_eq!(Algorithm::for_v8(name).unwrap().name(), name);
        }
        for bad in ["md5", "sha1", "SHA256", "sha-256", "", "blake2b"] {
            let err = Algorithm::for_v8(bad).unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
    }
}
