//! The TypeID specification's conformance cases (github.com/jetify-com/typeid, `spec/`,
//! copied unchanged to this crate's `tests/data/`): every valid case round-trips both ways,
//! prefix and UUID, and every invalid case is rejected.
//!
//! The test is strict about the files: each case must have exactly the keys this file reads,
//! so a changed format cannot be skipped silently.

use serde_json::Value;
use uuidx_core::encoding::Encoding;
use uuidx_core::typeid::{parse_typeid, typeid};
use uuidx_core::{parse::parse, ErrorKind};

const VALID_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/typeid-valid.json");
const INVALID_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/typeid-invalid.json"
);

/// The cases of a file, each with exactly `keys`, as `name -> values in the order of keys`.
fn cases(path: &str, keys: &[&str]) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let json: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not valid JSON: {e}"));
    let list = json
        .as_array()
        .unwrap_or_else(|| panic!("{path}: expected a JSON array"));
    assert!(!list.is_empty(), "{path}: no cases");
    list.iter()
        .map(|case| {
            let object = case
                .as_object()
                .unwrap_or_else(|| panic!("{path}: {case} is not an object"));
            let mut found: Vec<&str> = object.keys().map(String::as_str).collect();
            let mut expected = keys.to_vec();
            found.sort_unstable();
            expected.sort_unstable();
            assert_eq!(found, expected, "{path}: keys of {case}");
            keys.iter()
                .map(|k| {
                    object[*k]
                        .as_str()
                        .unwrap_or_else(|| panic!("{path}: {k} of {case} is not a string"))
                        .to_owned()
                })
                .collect()
        })
        .collect()
}

#[test]
fn valid_cases_round_trip() {
    let valid = cases(VALID_PATH, &["name", "typeid", "prefix", "uuid"]);
    assert_eq!(valid.len(), 9);
    for case in &valid {
        let [name, text, prefix, uuid] = &case[..] else {
            unreachable!()
        };
        let u = parse(uuid).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (parsed_prefix, parsed) = parse_typeid(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((parsed_prefix, parsed), (prefix.as_str(), u), "{name}");
        assert_eq!(&typeid(prefix, u).unwrap(), text, "{name}");
        // The suffix is the `base32` encoding, which reads it back too.
        let suffix = text.rsplit('_').next().unwrap_or(text);
        assert_eq!(Encoding::Base32.encode(u), suffix, "{name}");
        assert_eq!(Encoding::Base32.decode(suffix).unwrap(), u, "{name}");
    }
}

#[test]
fn invalid_cases_are_rejected() {
    let invalid = cases(INVALID_PATH, &["name", "typeid", "description"]);
    assert_eq!(invalid.len(), 21);
    for case in &invalid {
        let [name, text, description] = &case[..] else {
            unreachable!()
        };
        match parse_typeid(text) {
            Ok(parsed) => panic!("{name} ({description}): {text:?} parsed as {parsed:?}"),
            Err(e) => {
                assert!(
                    matches!(e.kind(), ErrorKind::TypeId { .. }),
                    "{name}: {e:?}"
                );
                // The input, or its first 64 characters when longer.
                let shown: String = text.chars().take(64).collect();
                let shown = format!("{shown:?}");
                let message = e.to_string();
                assert!(
                    message.starts_with(&format!("invalid TypeID {}", &shown[..shown.len() - 1])),
                    "{name}: {message}"
                );
            }
        }
    }
}
