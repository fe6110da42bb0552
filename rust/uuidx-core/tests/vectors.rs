//! Every RFC 9562 test vector in this crate's `tests/data/rfc9562-vectors.json` (a copy of
//! `shared/spec/`: Appendix A, Appendix B, §4, §5.9, §5.10, §6.6), checked through the public
//! API of `uuidx-core`.
//!
//! The test is strict about the file: every key of every vector must be checked, and a vector
//! of a version (or a version 8 `kind`) this file does not know makes it fail, so a vector
//! added to the spec cannot be skipped silently.

use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;
use uuidx_core::encoding::Encoding;
use uuidx_core::layout::{self, Fields};
use uuidx_core::name::{self, Algorithm};
use uuidx_core::{parse::parse, time, ErrorKind, Uuid, Variant};

const VECTORS_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/rfc9562-vectors.json"
);

/// The file's text and its parsed JSON.
fn load() -> (String, Value) {
    let text = std::fs::read_to_string(VECTORS_PATH)
        .unwrap_or_else(|e| panic!("cannot read {VECTORS_PATH}: {e}"));
    let json = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{VECTORS_PATH} is not valid JSON: {e}"));
    (text, json)
}

/// A JSON object whose keys must all be read before [`Checked::finish`].
struct Checked<'a> {
    what: String,
    object: &'a Map<String, Value>,
    read: RefCell<BTreeSet<String>>,
}

impl<'a> Checked<'a> {
    fn new(what: impl Into<String>, value: &'a Value) -> Self {
        let what = what.into();
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("{what}: expected a JSON object, found {value}"));
        Self {
            what,
            object,
            read: RefCell::new(BTreeSet::new()),
        }
    }

    fn get(&self, key: &str) -> &'a Value {
        self.read.borrow_mut().insert(key.to_owned());
        self.object
            .get(key)
            .unwrap_or_else(|| panic!("{}: missing key {key:?}", self.what))
    }

    fn str(&self, key: &str) -> &'a str {
        self.get(key)
            .as_str()
            .unwrap_or_else(|| panic!("{}: {key:?} is not a string", self.what))
    }

    fn u64(&self, key: &str) -> u64 {
        self.get(key)
            .as_u64()
            .unwrap_or_else(|| panic!("{}: {key:?} is not an unsigned 64-bit integer", self.what))
    }

    fn i128(&self, key: &str) -> i128 {
        let value = self.get(key);
        value
            .as_u64()
            .map(i128::from)
            .or_else(|| value.as_i64().map(i128::from))
            .unwrap_or_else(|| panic!("{}: {key:?} is not a 64-bit integer", self.what))
    }

    fn uuid(&self, key: &str) -> Uuid {
        let text = self.str(key);
        parse(text).unwrap_or_else(|e| panic!("{}: {key:?}: {e}", self.what))
    }

    /// Fails unless every key of the object was read.
    fn finish(self) {
        let read = self.read.into_inner();
        let unread: Vec<&String> = self.object.keys().filter(|k| !read.contains(*k)).collect();
        assert!(
            unread.is_empty(),
            "{}: keys not checked by this test: {unread:?}; extend tests/vectors.rs",
            self.what
        );
    }
}

/// The value of the hex digits `hex`, which must be 32 of them.
fn hex128(hex: &str) -> u128 {
    assert_eq!(hex.len(), 32, "expected 32 hex digits: {hex:?}");
    u128::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("{hex:?}: {e}"))
}

/// Checks the text forms and introspection shared by every vector.
fn check_text_forms(what: &str, text: &str, uuid: Uuid) {
    assert_eq!(uuid.to_string(), text, "{what}: Display");
    assert_eq!(Encoding::Hyphenated.encode(uuid), text, "{what}");
    assert_eq!(Encoding::Hex.encode(uuid), text.replace('-', ""));
    assert_eq!(Encoding::Braced.encode(uuid), format!("{{{text}}}"));
    assert_eq!(Encoding::Urn.encode(uuid), format!("urn:uuid:{text}"));
    for encoding in Encoding::HEX_FORMS {
        let encoded = encoding.encode(uuid);
        for text in [encoded.clone(), encoded.to_uppercase()] {
            assert_eq!(parse(&text).unwrap(), uuid, "{what}: {text}");
        }
    }
    assert_eq!(Uuid::from_bytes(uuid.to_bytes()), uuid);
    assert_eq!(Uuid::from_u128(uuid.as_u128()), uuid);
    assert_eq!(hex128(&text.replace('-', "")), uuid.as_u128(), "{what}");
}

/// Version 1 or 6 (RFC 9562 §5.1, §5.6, Appendix A.1, A.5). Returns the UUID and its
/// `(gregorian_100ns, clock_seq, node)` for the v1 <-> v6 cross-check.
fn check_gregorian(v: &Checked, version: u8, uuid: Uuid) -> (u64, u64, u64) {
    let what = &v.what;
    let (ts, clock_seq, node) = (v.u64("gregorian_100ns"), v.u64("clock_seq"), v.u64("node"));
    let unix_ns = v.i128("unix_ns");
    assert_eq!(time::gregorian_to_unix_ns(ts), unix_ns, "{what}");
    assert_eq!(time::unix_ns_to_gregorian(unix_ns).unwrap(), ts, "{what}");
    assert_eq!(uuid.timestamp_unix_ns().unwrap(), unix_ns, "{what}");
    if version == 1 {
        assert_eq!(
            layout::v1::new(ts, clock_seq, node).unwrap(),
            uuid,
            "{what}"
        );
        let f = layout::v1::Fields::of(uuid);
        assert_eq!(
            (f.timestamp(), u64::from(f.clock_seq), f.node),
            (ts, clock_seq, node),
            "{what}"
        );
        assert_eq!(Fields::of(uuid).unwrap(), Fields::V1(f), "{what}");
        let v6 = layout::v6::from_v1(uuid).unwrap();
        assert_eq!(v6, layout::v6::new(ts, clock_seq, node).unwrap(), "{what}");
        assert_eq!(layout::v1::from_v6(v6).unwrap(), uuid, "{what}");
        assert!(
            layout::v1::from_v6(uuid).is_err(),
            "{what}: from_v6 of a v1"
        );
    } else {
        assert_eq!(
            layout::v6::new(ts, clock_seq, node).unwrap(),
            uuid,
            "{what}"
        );
        let f = layout::v6::Fields::of(uuid);
        assert_eq!(
            (f.timestamp(), u64::from(f.clock_seq), f.node),
            (ts, clock_seq, node),
            "{what}"
        );
        assert_eq!(Fields::of(uuid).unwrap(), Fields::V6(f), "{what}");
        let v1 = layout::v1::from_v6(uuid).unwrap();
        assert_eq!(v1, layout::v1::new(ts, clock_seq, node).unwrap(), "{what}");
        assert_eq!(layout::v6::from_v1(v1).unwrap(), uuid, "{what}");
        assert!(
            layout::v6::from_v1(uuid).is_err(),
            "{what}: from_v1 of a v6"
        );
    }
    (ts, clock_seq, node)
}

/// A name-based vector (RFC 9562 §5.3, §5.5, Appendix A.2, A.4, B.2).
fn check_name_based(v: &Checked, version: u8, algorithm: Algorithm, uuid: Uuid) {
    let what = &v.what;
    let namespace = v.uuid("namespace");
    assert!(
        [
            name::NAMESPACE_DNS,
            name::NAMESPACE_URL,
            name::NAMESPACE_OID,
            name::NAMESPACE_X500
        ]
        .contains(&namespace),
        "{what}: namespace {namespace} is not one of RFC 9562 §6.6"
    );
    let name_bytes = v.str("name").as_bytes();
    let built = match version {
        3 => name::v3(namespace, name_bytes),
        5 => name::v5(namespace, name_bytes),
        _ => name::v8(namespace, name_bytes, algorithm),
    };
    assert_eq!(built, uuid, "{what}");

    let digest = v.str("digest");
    let full_hex_len = match algorithm {
        Algorithm::Md5 => 32,
        Algorithm::Sha1 => 40,
        Algorithm::Sha256 => 64,
        other => panic!("{what}: no digest length known for {other:?}"),
    };
    assert_eq!(
        digest.len(),
        full_hex_len,
        "{what}: digest is not a whole {algorithm:?} hash"
    );
    let leading = algorithm.digest128(&[&namespace.to_bytes(), name_bytes]);
    assert_eq!(
        u128::from_be_bytes(leading),
        hex128(&digest[..32]),
        "{what}: leading 128 bits of the digest"
    );
    assert_eq!(
        Uuid::with_version(u128::from_be_bytes(leading), version),
        uuid,
        "{what}: digest with version and variant set"
    );
    let expected_fields = match version {
        3 => Fields::V3,
        5 => Fields::V5,
        _ => Fields::V8,
    };
    let (a, b, c) = layout::split(uuid);
    assert_eq!(
        Fields::of(uuid).unwrap(),
        expected_fields(a, b, c),
        "{what}"
    );
    assert!(uuid.timestamp_unix_ns().is_err(), "{what}: no timestamp");
}

/// Version 4 (RFC 9562 §5.4, Appendix A.3).
fn check_v4(v: &Checked, uuid: Uuid) {
    let random = hex128(v.str("random_bytes")).to_be_bytes();
    assert_eq!(layout::v4::from_random_bytes(random), uuid, "{}", v.what);
    let (a, b, c) = layout::split(uuid);
    assert_eq!(Fields::of(uuid).unwrap(), Fields::V4(a, b, c), "{}", v.what);
}

/// Version 7 (RFC 9562 §5.7, Appendix A.6).
fn check_v7(v: &Checked, uuid: Uuid) {
    let what = &v.what;
    let (ms, rand_a, rand_b) = (v.u64("unix_ts_ms"), v.u64("rand_a"), v.u64("rand_b"));
    assert_eq!(layout::v7::new(ms, rand_a, rand_b).unwrap(), uuid, "{what}");
    assert_eq!(
        Fields::of(uuid).unwrap(),
        Fields::V7(ms, rand_a as u16, rand_b),
        "{what}"
    );
    assert_eq!(
        uuid.timestamp_unix_ns().unwrap(),
        i128::from(ms) * 1_000_000,
        "{what}"
    );
}

/// Time-based version 8 (RFC 9562 §5.8, Appendix B.1): a 60-bit count of 10 ns since the Unix
/// epoch in `custom_a` and `custom_b`, random bits in `custom_c`.
fn check_v8_time(v: &Checked, uuid: Uuid) {
    let what = &v.what;
    let (a, b, c) = (v.u64("custom_a"), v.u64("custom_b"), v.u64("custom_c"));
    assert_eq!(layout::v8::new(a, b, c).unwrap(), uuid, "{what}");
    assert_eq!(layout::v8::new_truncated(a, b, c), uuid, "{what}");
    assert_eq!(
        Fields::of(uuid).unwrap(),
        Fields::V8(a, b as u16, c),
        "{what}"
    );
    // The 60-bit count of 10 ns, as the code splits the UUID and as it builds one from it.
    let unix_10ns = v.u64("unix_10ns");
    let (split_a, split_b, _) = layout::split(uuid);
    assert_eq!(
        (split_a << 12) | u64::from(split_b),
        unix_10ns,
        "{what}: unix_10ns"
    );
    assert_eq!(
        layout::v8::new(unix_10ns >> 12, unix_10ns & 0xFFF, c).unwrap(),
        uuid,
        "{what}: built from unix_10ns"
    );
    assert!(uuid.timestamp_unix_ns().is_err(), "{what}: no timestamp");
}

/// A version 1 or 6 vector: its version, `(timestamp, clock_seq, node)` and UUID.
type Gregorian = (u8, (u64, u64, u64), Uuid);

/// Checks one entry of `vectors`; returns it as [`Gregorian`] for versions 1 and 6.
fn check_vector(index: usize, value: &Value) -> Option<Gregorian> {
    let v = Checked::new(format!("vectors[{index}]"), value);
    let version = u8::try_from(v.u64("version")).expect("version fits in a u8");
    let text = v.str("uuid");
    let uuid = v.uuid("uuid");
    let what = format!("vectors[{index}] (v{version}, {text})");
    let v = Checked { what, ..v };
    check_text_forms(&v.what, text, uuid);
    assert_eq!(uuid.variant(), Variant::Rfc9562, "{}", v.what);
    assert_eq!(uuid.version_number(), Some(version), "{}", v.what);
    assert_eq!(
        Fields::of(uuid).unwrap().layout().name,
        format!("v{version}"),
        "{}",
        v.what
    );

    let mut gregorian = None;
    match version {
        1 | 6 => gregorian = Some((version, check_gregorian(&v, version, uuid), uuid)),
        3 => check_name_based(&v, 3, Algorithm::Md5, uuid),
        4 => check_v4(&v, uuid),
        5 => check_name_based(&v, 5, Algorithm::Sha1, uuid),
        7 => check_v7(&v, uuid),
        8 => match v.str("kind") {
            "time-based (Appendix B.1)" => check_v8_time(&v, uuid),
            "name-based SHA-256 (Appendix B.2)" => {
                check_name_based(&v, 8, Algorithm::Sha256, uuid);
            }
            other => panic!(
                "{}: version 8 vector of unknown kind {other:?}; extend tests/vectors.rs",
                v.what
            ),
        },
        other => panic!(
            "{}: no check for version {other} vectors; extend tests/vectors.rs",
            v.what
        ),
    }
    // A "kind" on another version is left unread, and `finish` reports it.
    v.finish();
    gregorian
}

#[test]
fn every_vector() {
    let (_, json) = load();
    let vectors = json["vectors"].as_array().expect("\"vectors\" is an array");
    assert!(
        vectors.len() >= 8,
        "only {} vectors in {VECTORS_PATH}",
        vectors.len()
    );
    let mut versions = BTreeSet::new();
    let mut v1 = Vec::new();
    let mut v6 = Vec::new();
    for (index, value) in vectors.iter().enumerate() {
        versions.insert(value["version"].as_u64());
        match check_vector(index, value) {
            Some((1, fields, uuid)) => v1.push((fields, uuid)),
            Some((_, fields, uuid)) => v6.push((fields, uuid)),
            None => {}
        }
    }
    let expected: BTreeSet<Option<u64>> = [1, 3, 4, 5, 6, 7, 8].into_iter().map(Some).collect();
    assert_eq!(versions, expected, "versions present in the file");

    // Appendix A.1 and A.5 describe the same instant, clock sequence and node: the v6 vector
    // must be the v1 vector reordered, in both directions.
    let mut pairs = 0;
    for (fields, one) in &v1 {
        for (_, six) in v6.iter().filter(|(f, _)| f == fields) {
            assert_eq!(layout::v6::from_v1(*one).unwrap(), *six);
            assert_eq!(layout::v1::from_v6(*six).unwrap(), *one);
            pairs += 1;
        }
    }
    assert!(pairs >= 1, "no v1/v6 vector pair with the same fields");
}

/// The decimal digits of the only `"int"` number in the file. `serde_json` (without its
/// `arbitrary_precision` feature) reads integers wider than 64 bits as `f64`, so the 128-bit
/// value is read from the text.
fn raw_int(text: &str) -> u128 {
    let key = "\"int\"";
    let starts: Vec<usize> = text.match_indices(key).map(|(i, _)| i).collect();
    assert_eq!(
        starts.len(),
        1,
        "expected exactly one {key} key in the file"
    );
    let rest = text[starts[0] + key.len()..].trim_start();
    let rest = rest
        .strip_prefix(':')
        .expect("':' after \"int\"")
        .trim_start();
    let digits: &str = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    serde_json::from_str::<u128>(digits).unwrap_or_else(|e| panic!("\"int\" {digits:?}: {e}"))
}

#[test]
fn format_example() {
    let (text, json) = load();
    let f = Checked::new("format_example", &json["format_example"]);
    let string = f.str("string");
    let int = raw_int(&text);
    let approx = f.get("int").as_f64().expect("\"int\" is a number");
    #[allow(clippy::cast_precision_loss)]
    let int_f64 = int as f64;
    assert!(
        (approx - int_f64).abs() <= int_f64 * 1e-15,
        "the \"int\" read from the text ({int}) is not the JSON value ({approx})"
    );
    let urn = f.str("urn");
    f.finish();

    let uuid = parse(string).unwrap();
    assert_eq!(uuid.as_u128(), int);
    assert_eq!(Uuid::from_u128(int).to_string(), string);
    assert_eq!(parse(urn).unwrap(), uuid);
    assert_eq!(Encoding::Urn.encode(uuid), urn);
    check_text_forms("format_example", string, uuid);
    // §4's example is a version 1 UUID of the RFC variant.
    assert_eq!(uuid.variant(), Variant::Rfc9562);
    assert_eq!(uuid.version_number(), Some(1));
}

#[test]
fn nil_and_max() {
    let (_, json) = load();
    let nil_text = json["nil"].as_str().expect("\"nil\" is a string");
    let max_text = json["max"].as_str().expect("\"max\" is a string");
    for (text, expected, layout_fields) in [
        (nil_text, Uuid::NIL, Fields::Nil),
        (max_text, Uuid::MAX, Fields::Max),
    ] {
        let uuid = parse(text).unwrap();
        assert_eq!(uuid, expected, "{text}");
        check_text_forms(text, text, uuid);
        assert_eq!(uuid.version_number(), None, "{text}");
        assert_eq!(Fields::of(uuid).unwrap(), layout_fields, "{text}");
        assert_eq!(Fields::of(uuid).unwrap().layout().values(uuid).count(), 0);
        assert!(matches!(
            uuid.timestamp_unix_ns().unwrap_err().kind(),
            ErrorKind::NoTimestamp { .. }
        ));
    }
    let nil = parse(nil_text).unwrap();
    let max = parse(max_text).unwrap();
    assert!(nil.is_nil() && !nil.is_max());
    assert!(max.is_max() && !max.is_nil());
    assert_eq!(nil.as_u128(), 0);
    assert_eq!(max.as_u128(), u128::MAX);
    // §5.9: Nil is of the NCS variant (octet 8 is 0); §5.10: Max of the reserved one.
    assert_eq!(nil.variant(), Variant::Ncs);
    assert_eq!(max.variant(), Variant::Future);
}

#[test]
fn namespaces() {
    let (_, json) = load();
    let ns = Checked::new("namespaces", &json["namespaces"]);
    for (key, constant) in [
        ("dns", name::NAMESPACE_DNS),
        ("url", name::NAMESPACE_URL),
        ("oid", name::NAMESPACE_OID),
        ("x500", name::NAMESPACE_X500),
    ] {
        let text = ns.str(key);
        let uuid = ns.uuid(key);
        assert_eq!(uuid, constant, "namespace {key}");
        check_text_forms(key, text, uuid);
        // §6.6: the namespace IDs are themselves version 1 UUIDs.
        assert_eq!(uuid.version_number(), Some(1), "namespace {key}");
    }
    ns.finish();
}

#[test]
fn no_unchecked_sections() {
    let (_, json) = load();
    let top = Checked::new("top level", &json);
    for key in [
        "source",
        "format_example",
        "nil",
        "max",
        "namespaces",
        "vectors",
    ] {
        top.get(key);
    }
    top.finish();
}
