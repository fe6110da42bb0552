//! Every UUIDv47 vector of this crate's `tests/data/uuidv47-vectors.json` (a copy of
//! `shared/spec/uuidv47-vectors.json`): the facade of each v7 under its key, and back.

use serde_json::Value;
use uuidx_core::mask::{mask_v7, unmask_v7};
use uuidx_core::Uuid;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/uuidv47-vectors.json"
);

/// The 16-byte key: `k0` then `k1`, each as 8 little-endian bytes.
fn key(vector: &Value) -> [u8; 16] {
    let word = |name: &str| {
        let hex = vector[name].as_str().expect("hex string");
        u64::from_str_radix(hex, 16).expect("64-bit hex")
    };
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&word("k0").to_le_bytes());
    key[8..].copy_from_slice(&word("k1").to_le_bytes());
    key
}

#[test]
fn every_uuidv47_vector() {
    let text = std::fs::read_to_string(VECTORS).unwrap_or_else(|e| panic!("{VECTORS}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let vectors = json["vectors"].as_array().expect("a list of vectors");
    assert!(vectors.len() >= 3);
    for v in vectors {
        let parse = |name: &str| -> Uuid { v[name].as_str().unwrap().parse().unwrap() };
        let (v7, facade, key) = (parse("v7"), parse("facade"), key(v));
        assert_eq!(mask_v7(v7, &key).unwrap(), facade, "{v}");
        assert_eq!(unmask_v7(facade, &key).unwrap(), v7, "{v}");
    }
}
