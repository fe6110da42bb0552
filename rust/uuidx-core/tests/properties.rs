//! Property tests of the public API of `uuidx-core` (RFC 9562 §4, §5): text and byte round
//! trips, construct-then-decompose for every layout, variant and version classification, and
//! the parser's accepted language, each against an independent computation in this file.

use proptest::prelude::*;
use proptest::sample::Index;
use uuidx_core::encoding::{hex, Encoding};
use uuidx_core::layout::{self, v2, Fields};
use uuidx_core::parse::{parse, parse_ascii};
use uuidx_core::{time, ErrorKind, Uuid, Variant};

// ---------------------------------------------------------------------------------------------
// Text and bytes
// ---------------------------------------------------------------------------------------------

/// `u` in the hexadecimal form `f`, all in upper case (the URN prefix too) if `upper`.
fn hex_form(u: Uuid, f: Encoding, upper: bool) -> String {
    let text = f.encode(u);
    if upper {
        text.to_ascii_uppercase()
    } else {
        text
    }
}

proptest! {
    #[test]
    fn format_then_parse_is_identity(x in any::<u128>()) {
        let u = Uuid::from_u128(x);
        for f in Encoding::HEX_FORMS {
            for upper in [false, true] {
                let text = hex_form(u, f, upper);
                prop_assert_eq!(parse(&text).unwrap(), u, "{}", text);
                prop_assert_eq!(parse_ascii(text.as_bytes()).unwrap(), u, "{}", text);
                prop_assert_eq!(text.len(), f.len());
                let body = text.get(9..).filter(|_| f == Encoding::Urn).unwrap_or(&text);
                let digits: String = body.chars().filter(char::is_ascii_hexdigit).collect();
                let expected = if upper {
                    format!("{x:032X}")
                } else {
                    format!("{x:032x}")
                };
                prop_assert_eq!(digits, expected);
            }
        }
        prop_assert_eq!(
            String::from_utf8(hex::hyphenated(u, true).to_vec()).unwrap(),
            Encoding::Hyphenated.encode(u).to_uppercase()
        );
        prop_assert_eq!(
            String::from_utf8(hex::digits(u, true).to_vec()).unwrap(),
            format!("{x:032X}")
        );
        prop_assert_eq!(u.to_string(), Encoding::Hyphenated.encode(u));
    }

    #[test]
    fn bytes_round_trip(x in any::<u128>()) {
        let u = Uuid::from_u128(x);
        prop_assert_eq!(u.to_bytes(), x.to_be_bytes());
        prop_assert_eq!(Uuid::from_bytes(u.to_bytes()), u);
        prop_assert_eq!(Uuid::from_slice(&u.to_bytes()).unwrap(), u);
        prop_assert_eq!(Uuid::from(u.to_bytes()), u);
        prop_assert_eq!(u128::from(u), x);
    }
}

// ---------------------------------------------------------------------------------------------
// Construct, then decompose
// ---------------------------------------------------------------------------------------------

const TS60: u64 = 1 << 60;

proptest! {
    #[test]
    fn v1_construct_decompose(ts in 0..TS60, clock_seq in 0..1u64 << 14, node in 0..1u64 << 48) {
        let u = layout::v1::new(ts, clock_seq, node).unwrap();
        prop_assert_eq!(u.version_number(), Some(1));
        let f = layout::v1::Fields::of(u);
        prop_assert_eq!((f.timestamp(), u64::from(f.clock_seq), f.node), (ts, clock_seq, node));
        prop_assert_eq!(Fields::of(u).unwrap(), Fields::V1(f));
        prop_assert_eq!(u.timestamp_unix_ns().unwrap(), time::gregorian_to_unix_ns(ts));
        let six = layout::v6::from_v1(u).unwrap();
        prop_assert_eq!(six, layout::v6::new(ts, clock_seq, node).unwrap());
        prop_assert_eq!(layout::v1::from_v6(six).unwrap(), u);
    }

    #[test]
    fn v6_construct_decompose(ts in 0..TS60, clock_seq in 0..1u64 << 14, node in 0..1u64 << 48) {
        let u = layout::v6::new(ts, clock_seq, node).unwrap();
        prop_assert_eq!(u.version_number(), Some(6));
        let f = layout::v6::Fields::of(u);
        prop_assert_eq!((f.timestamp(), u64::from(f.clock_seq), f.node), (ts, clock_seq, node));
        prop_assert_eq!(Fields::of(u).unwrap(), Fields::V6(f));
        prop_assert_eq!(u.timestamp_unix_ns().unwrap(), time::gregorian_to_unix_ns(ts));
        // §5.6: v6 sorts by time. Its top 60 non-version bits are the timestamp, high first.
        prop_assert_eq!(((u.as_u128() >> 80) << 12) | ((u.as_u128() >> 64) & 0xFFF), u128::from(ts));
        let one = layout::v1::from_v6(u).unwrap();
        prop_assert_eq!(one, layout::v1::new(ts, clock_seq, node).unwrap());
        prop_assert_eq!(layout::v6::from_v1(one).unwrap(), u);
    }

    #[test]
    fn v2_construct_decompose(
        domain in 0..1u64 << 8,
        local_id in 0..1u64 << 32,
        ts in 0..TS60,
        clock_seq in 0..1u64 << 6,
        node in 0..1u64 << 48,
    ) {
        let u = v2::new(domain, local_id, ts, clock_seq, node).unwrap();
        prop_assert_eq!(u.version_number(), Some(2));
        let f = v2::Fields::of(u);
        prop_assert_eq!(
            (u64::from(f.local_domain), u64::from(f.local_id), u64::from(f.clock_seq), f.node),
            (domain, local_id, clock_seq, node)
        );
        prop_assert_eq!(f.timestamp_high_bits(), ts & !0xFFFF_FFFF);
        prop_assert_eq!(f.domain(), v2::Domain::from_octet(domain as u8));
        prop_assert_eq!(Fields::of(u).unwrap(), Fields::V2(f));
        prop_assert!(u.timestamp_unix_ns().is_err());
    }

    #[test]
    fn v7_construct_decompose(ms in 0..1u64 << 48, a in 0..1u64 << 12, b in 0..1u64 << 62) {
        let u = layout::v7::new(ms, a, b).unwrap();
        prop_assert_eq!(u.version_number(), Some(7));
        prop_assert_eq!(Fields::of(u).unwrap(), Fields::V7(ms, a as u16, b));
        prop_assert_eq!(layout::split(u), (ms, a as u16, b));
        prop_assert_eq!(u.timestamp_unix_ns().unwrap(), i128::from(ms) * 1_000_000);
    }

    #[test]
    fn v8_construct_decompose(a in 0..1u64 << 48, b in 0..1u64 << 12, c in 0..1u64 << 62) {
        let u = layout::v8::new(a, b, c).unwrap();
        prop_assert_eq!(u.version_number(), Some(8));
        prop_assert_eq!(Fields::of(u).unwrap(), Fields::V8(a, b as u16, c));
        prop_assert!(u.timestamp_unix_ns().is_err());
    }

    #[test]
    fn v8_truncated_keeps_the_low_bits_of_any_value(a: u64, b: u64, c: u64) {
        let checked = layout::v8::new(a & ((1 << 48) - 1), b & 0xFFF, c & ((1 << 62) - 1));
        prop_assert_eq!(layout::v8::new_truncated(a, b, c), checked.unwrap());
    }
}

/// A constructor taking its fields as a slice, in the order of [`Constructor::fields`].
type Build = fn(&[u64]) -> uuidx_core::Result<Uuid>;

/// A layout's checked constructor with the name and width of each argument.
struct Constructor {
    layout: &'static str,
    fields: &'static [(&'static str, u32)],
    build: Build,
}

const CONSTRUCTORS: [Constructor; 5] = [
    Constructor {
        layout: "v1",
        fields: &[("time_100ns", 60), ("clock_seq", 14), ("node", 48)],
        build: |f| layout::v1::new(f[0], f[1], f[2]),
    },
    Constructor {
        layout: "v2",
        fields: &[
            ("local_domain", 8),
            ("local_id", 32),
            ("time_100ns", 60),
            ("clock_seq", 6),
            ("node", 48),
        ],
        build: |f| v2::new(f[0], f[1], f[2], f[3], f[4]),
    },
    Constructor {
        layout: "v6",
        fields: &[("time_100ns", 60), ("clock_seq", 14), ("node", 48)],
        build: |f| layout::v6::new(f[0], f[1], f[2]),
    },
    Constructor {
        layout: "v7",
        fields: &[("unix_ts_ms", 48), ("rand_a", 12), ("rand_b", 62)],
        build: |f| layout::v7::new(f[0], f[1], f[2]),
    },
    Constructor {
        layout: "v8",
        fields: &[("custom_a", 48), ("custom_b", 12), ("custom_c", 62)],
        build: |f| layout::v8::new(f[0], f[1], f[2]),
    },
];

/// A constructor, the index of one of its fields, a value too wide for that field and
/// in-range values for the others.
fn one_field_out_of_range() -> impl Strategy<Value = (usize, usize, u64, Vec<u64>)> {
    (0..CONSTRUCTORS.len())
        .prop_flat_map(|c| (Just(c), 0..CONSTRUCTORS[c].fields.len()))
        .prop_flat_map(|(c, i)| {
            let min = 1u64 << CONSTRUCTORS[c].fields[i].1;
            let others: Vec<_> = CONSTRUCTORS[c]
                .fields
                .iter()
                .map(|&(_, bits)| 0..1u64 << bits)
                .collect();
            (
                Just(c),
                Just(i),
                prop_oneof![Just(min), Just(u64::MAX), min..=u64::MAX],
                others,
            )
        })
}

proptest! {
    #[test]
    fn out_of_range_field_is_named((c, i, bad, mut values) in one_field_out_of_range()) {
        let ctor = &CONSTRUCTORS[c];
        let (name, width) = ctor.fields[i];
        prop_assert!(bad >> width != 0);
        prop_assert!((ctor.build)(&values).is_ok(), "{} in range: {:?}", ctor.layout, values);
        values[i] = bad;
        let err = (ctor.build)(&values).unwrap_err();
        let message = err.to_string();
        prop_assert!(message.contains(name), "{}: {}", ctor.layout, message);
        prop_assert!(message.contains(&bad.to_string()), "{}: {}", ctor.layout, message);
        match err.kind() {
            ErrorKind::FieldOutOfRange { field, value, bits } => {
                prop_assert_eq!(*field, name);
                prop_assert_eq!(value, &bad.to_string());
                prop_assert_eq!(*bits, width);
            }
            other => prop_assert!(false, "{}: unexpected error kind {:?}", ctor.layout, other),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Decomposition of every version, and variants
// ---------------------------------------------------------------------------------------------

/// The fields of each version's figure in RFC 9562 §5, most significant first, with widths.
fn figure(version: u8) -> &'static [(&'static str, u32)] {
    const fn shaped(names: [&'static str; 3]) -> [(&'static str, u32); 5] {
        [
            (names[0], 48),
            ("ver", 4),
            (names[1], 12),
            ("var", 2),
            (names[2], 62),
        ]
    }
    const V3: [(&str, u32); 5] = shaped(["md5_high", "md5_mid", "md5_low"]);
    const V4: [(&str, u32); 5] = shaped(["random_a", "random_b", "random_c"]);
    const V5: [(&str, u32); 5] = shaped(["sha1_high", "sha1_mid", "sha1_low"]);
    const V7: [(&str, u32); 5] = shaped(["unix_ts_ms", "rand_a", "rand_b"]);
    const V8: [(&str, u32); 5] = shaped(["custom_a", "custom_b", "custom_c"]);
    match version {
        1 => &[
            ("time_low", 32),
            ("time_mid", 16),
            ("ver", 4),
            ("time_high", 12),
            ("var", 2),
            ("clock_seq", 14),
            ("node", 48),
        ],
        2 => &[
            ("local_id", 32),
            ("time_mid", 16),
            ("ver", 4),
            ("time_high", 12),
            ("var", 2),
            ("clock_seq", 6),
            ("local_domain", 8),
            ("node", 48),
        ],
        3 => &V3,
        4 => &V4,
        5 => &V5,
        6 => &[
            ("time_high", 32),
            ("time_mid", 16),
            ("ver", 4),
            ("time_low", 12),
            ("var", 2),
            ("clock_seq", 14),
            ("node", 48),
        ],
        7 => &V7,
        8 => &V8,
        _ => unreachable!("version {version}"),
    }
}

/// The variant of Table 1 (RFC 9562 §4.1), by the count of leading one bits of octet 8.
fn variant_of_octet8(octet8: u8) -> Variant {
    match octet8.leading_ones() {
        0 => Variant::Ncs,
        1 => Variant::Rfc9562,
        2 => Variant::Microsoft,
        _ => Variant::Future,
    }
}

proptest! {
    #[test]
    fn every_version_decomposes_and_reassembles(x in any::<u128>(), version in 1u8..=8) {
        let u = Uuid::with_version(x, version);
        let fields = Fields::of(u).unwrap();
        prop_assert_eq!(fields.layout().name, format!("v{version}"));
        let named: Vec<(&str, u64)> = fields.layout().values(u).collect();
        let spec = figure(version);
        let names: Vec<&str> = named.iter().map(|&(n, _)| n).collect();
        let spec_names: Vec<&str> = spec.iter().map(|&(n, _)| n).collect();
        prop_assert_eq!(names, spec_names);
        prop_assert_eq!(spec.iter().map(|&(_, w)| w).sum::<u32>(), 128);
        let mut reassembled = 0u128;
        for (&(name, value), &(_, width)) in named.iter().zip(spec) {
            prop_assert!(u128::from(value) >> width == 0, "{} = {} is wider than {} bits", name, value, width);
            reassembled = (reassembled << width) | u128::from(value);
        }
        prop_assert_eq!(reassembled, u.as_u128());
        let get = |n: &str| named.iter().find(|&&(k, _)| k == n).map(|&(_, v)| v);
        prop_assert_eq!(get("ver"), Some(u64::from(version)));
        prop_assert_eq!(get("var"), Some(0b10));
        // Only the six version and variant bits changed.
        let six_bits = (0xF_u128 << 76) | (0b11 << 62);
        prop_assert_eq!(u.as_u128() & !six_bits, x & !six_bits);
    }

    #[test]
    fn variant_and_version_follow_octets_8_and_6(x in any::<u128>()) {
        let u = Uuid::from_u128(x);
        let bytes = x.to_be_bytes();
        let variant = variant_of_octet8(bytes[8]);
        prop_assert_eq!(u.variant(), variant);
        prop_assert_eq!(u.version_field(), bytes[6] >> 4);
        let version = (variant == Variant::Rfc9562).then_some(bytes[6] >> 4);
        prop_assert_eq!(u.version_number(), version);
        match version {
            _ if x == 0 => prop_assert_eq!(Fields::of(u).unwrap(), Fields::Nil),
            _ if x == u128::MAX => prop_assert_eq!(Fields::of(u).unwrap(), Fields::Max),
            Some(1..=8) => prop_assert!(Fields::of(u).is_ok()),
            _ => {
                let no_layout = matches!(Fields::of(u).unwrap_err().kind(), ErrorKind::NoLayout { .. });
                prop_assert!(no_layout);
            }
        }
    }

    #[test]
    fn variant_of_every_octet8(x in any::<u128>(), octet8 in any::<u8>()) {
        let mut bytes = x.to_be_bytes();
        bytes[8] = octet8;
        prop_assert_eq!(Uuid::from_bytes(bytes).variant(), variant_of_octet8(octet8));
    }
}

// ---------------------------------------------------------------------------------------------
// The parser's language
// ---------------------------------------------------------------------------------------------

/// An independent reading of the accepted forms (RFC 9562 §4): 36-character hyphenated, 32
/// hex digits, 38-character braced hyphenated, or 45 characters starting with `urn:uuid:` in
/// any case followed by the hyphenated form. Hex digits in either case.
fn reference_parse(s: &str) -> Option<u128> {
    fn hex_only(b: &[u8]) -> Option<u128> {
        if b.iter().all(u8::is_ascii_hexdigit) {
            u128::from_str_radix(std::str::from_utf8(b).ok()?, 16).ok()
        } else {
            None
        }
    }
    fn hyphenated(b: &[u8]) -> Option<u128> {
        if b.len() != 36 || [8, 13, 18, 23].iter().any(|&i| b[i] != b'-') {
            return None;
        }
        let digits: Vec<u8> = b
            .iter()
            .enumerate()
            .filter(|&(i, _)| ![8, 13, 18, 23].contains(&i))
            .map(|(_, &c)| c)
            .collect();
        hex_only(&digits)
    }
    let b = s.as_bytes();
    match b.len() {
        32 => hex_only(b),
        36 => hyphenated(b),
        38 if b[0] == b'{' && b[37] == b'}' => hyphenated(&b[1..37]),
        45 if b[..9].eq_ignore_ascii_case(b"urn:uuid:") => hyphenated(&b[9..]),
        _ => None,
    }
}

/// Checks `parse` on `s` against [`reference_parse`] and the error message rules.
fn check_parse(s: &str) -> Result<(), TestCaseError> {
    let expected = reference_parse(s);
    match parse(s) {
        Ok(u) => {
            prop_assert_eq!(Some(u.as_u128()), expected, "accepted {:?}", s);
            prop_assert!([32, 36, 38, 45].contains(&s.chars().count()));
        }
        Err(e) => {
            prop_assert_eq!(expected, None, "rejected {:?}: {}", s, e);
            let ErrorKind::Parse { .. } = e.kind() else {
                return Err(TestCaseError::fail(format!("{s:?}: kind {:?}", e.kind())));
            };
            let message = e.to_string();
            // The input is shown whole, or cut once its escaped width would pass 64.
            let mut width = 0;
            let head: String = s
                .chars()
                .take_while(|c| {
                    width += c.escape_debug().count();
                    width <= 64
                })
                .collect();
            if head.len() == s.len() {
                prop_assert!(message.contains(&format!("{s:?}")), "{:?}: {}", s, message);
            } else {
                let quoted = format!("{head:?}");
                prop_assert!(
                    message.contains(&format!("{}...\"", &quoted[..quoted.len() - 1])),
                    "{:?}: {}",
                    s,
                    message
                );
            }
            prop_assert!(message.chars().count() < 300, "{}", message);
        }
    }
    // The byte-string parser agrees.
    prop_assert_eq!(parse_ascii(s.as_bytes()).ok().map(Uuid::as_u128), expected);
    Ok(())
}

/// Up to 100 arbitrary `char`s: control characters, non-ASCII, surrogate-free Unicode.
fn arbitrary_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<char>(), 0..100).prop_map(|v| v.into_iter().collect())
}

/// A char that is likely to matter to the parser, or any char.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        proptest::char::ranges(vec!['0'..='9', 'a'..='g', 'A'..='G'].into()),
        prop::sample::select(vec![
            '-',
            '{',
            '}',
            ':',
            'u',
            'r',
            'n',
            'U',
            'R',
            'N',
            'i',
            'd',
            'é',
            '\u{10FFFF}',
            ' ',
            '+'
        ]),
        any::<char>(),
    ]
}

/// A valid text form of a random UUID, with the URN prefix in random case, then possibly
/// mutated: one character replaced, inserted or removed.
fn near_valid_text() -> impl Strategy<Value = String> {
    (
        any::<u128>(),
        prop::sample::select(Encoding::HEX_FORMS.to_vec()),
        any::<bool>(),
        any::<[bool; 9]>(),
        0..4u8,
        any::<Index>(),
        interesting_char(),
    )
        .prop_map(|(x, f, upper, prefix_case, mutation, at, c)| {
            let mut chars: Vec<char> = hex_form(Uuid::from_u128(x), f, upper).chars().collect();
            if f == Encoding::Urn {
                for (ch, up) in chars.iter_mut().zip(prefix_case) {
                    if up {
                        *ch = ch.to_ascii_uppercase();
                    }
                }
            }
            match mutation {
                1 => {
                    let i = at.index(chars.len());
                    chars[i] = c;
                }
                2 => chars.insert(at.index(chars.len() + 1), c),
                3 => {
                    chars.remove(at.index(chars.len()));
                }
                _ => {}
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #[test]
    fn parse_arbitrary_text(s in arbitrary_text()) {
        check_parse(&s)?;
    }

    #[test]
    fn parse_near_valid_text(s in near_valid_text()) {
        check_parse(&s)?;
    }

    #[test]
    fn parse_uuid_alphabet(s in "[0-9a-fA-F{}:urnidURNID-]{30,46}") {
        check_parse(&s)?;
    }

    #[test]
    fn parse_ascii_arbitrary_bytes(b in proptest::collection::vec(any::<u8>(), 0..50)) {
        let result = parse_ascii(&b);
        match std::str::from_utf8(&b) {
            Ok(s) => prop_assert_eq!(result.ok().map(Uuid::as_u128), reference_parse(s)),
            // Every accepted form is ASCII.
            Err(_) => prop_assert!(result.is_err()),
        }
    }
}
