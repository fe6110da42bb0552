//! Property tests of `encoding` and `typeid` against independent computations in this file:
//! encoders written the plain way (repeated division of the integer; the octets as a string
//! of bits, RFC 4648 §5 and §7), decoders that apply each encoding's documented case and alias
//! rules literally, exact round trips, and the order of the encoded strings.

use proptest::prelude::*;
use proptest::sample::Index;
use uuidx_core::encoding::{detect, Case, Encoded, Encoding};
use uuidx_core::encoding::{DecodeError, DecodeReason};
use uuidx_core::parse::parse;
use uuidx_core::typeid::{parse_typeid, typeid, typeid_into, MAX_LEN};
use uuidx_core::typeid::{TypeIdError, TypeIdReason};
use uuidx_core::{ErrorKind, Found, Input, Uuid};

const CROCKFORD: &str = "0123456789abcdefghjkmnpqrstvwxyz";
const BASE32HEX: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
const BASE58: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE62: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The compact encodings whose strings sort like the UUIDs, as the table says.
fn ordered() -> Vec<Encoding> {
    Encoding::ALL
        .into_iter()
        .filter(|e| e.form().sorts && !Encoding::HEX_FORMS.contains(e))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Independent encoders and decoders
// ---------------------------------------------------------------------------------------------

/// `x` in `alphabet`'s base, by repeated division, padded with the zero digit to `width`.
fn positional(mut x: u128, alphabet: &str, width: usize) -> String {
    let digits: Vec<char> = alphabet.chars().collect();
    let base = digits.len() as u128;
    let mut out = Vec::new();
    while x > 0 {
        out.push(digits[(x % base) as usize]);
        x /= base;
    }
    out.resize(width, digits[0]);
    out.iter().rev().collect()
}

/// The 16 octets as bits, zero bits appended to a multiple of `bits`, one digit per group:
/// RFC 4648 without padding.
fn octets(x: u128, alphabet: &str, bits: usize) -> String {
    let digits: Vec<char> = alphabet.chars().collect();
    let mut stream: Vec<u8> = x
        .to_be_bytes()
        .iter()
        .flat_map(|b| (0..8).rev().map(move |i| (b >> i) & 1))
        .collect();
    stream.resize(stream.len().div_ceil(bits) * bits, 0);
    stream
        .chunks(bits)
        .map(|g| digits[g.iter().fold(0, |v, &b| v * 2 + usize::from(b))])
        .collect()
}

fn reference_encode(e: Encoding, x: u128) -> String {
    match e {
        Encoding::Hex => format!("{x:032x}"),
        Encoding::Hyphenated | Encoding::Braced | Encoding::Urn => {
            let h = format!("{x:032x}");
            let hyphenated = format!(
                "{}-{}-{}-{}-{}",
                &h[..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..]
            );
            match e {
                Encoding::Braced => format!("{{{hyphenated}}}"),
                Encoding::Urn => format!("urn:uuid:{hyphenated}"),
                _ => hyphenated,
            }
        }
        Encoding::Base32 => positional(x, CROCKFORD, 26),
        Encoding::Ulid => positional(x, CROCKFORD, 26).to_uppercase(),
        Encoding::Base32Hex => octets(x, BASE32HEX, 5),
        Encoding::Base58 => positional(x, BASE58, 22),
        Encoding::Base62 => positional(x, BASE62, 22),
        Encoding::Base64Url => octets(x, BASE64URL, 6),
        _ => unreachable!("an encoding this test does not know: {e}"),
    }
}

/// The digits of `s` after the documented case and alias rules, or `None`.
fn normalise(e: Encoding, s: &str) -> Option<(Vec<u32>, u32)> {
    let (alphabet, text) = match e {
        // Either case, I and L for 1, O for 0 (Crockford).
        Encoding::Base32 => (
            CROCKFORD,
            s.to_ascii_lowercase()
                .replace(['i', 'l'], "1")
                .replace('o', "0"),
        ),
        // Either case, no aliases (the ULID spec).
        Encoding::Ulid => (CROCKFORD, s.to_ascii_lowercase()),
        // Either case (PostgreSQL's decode).
        Encoding::Base32Hex => (BASE32HEX, s.to_ascii_uppercase()),
        Encoding::Base58 => (BASE58, s.to_owned()),
        Encoding::Base62 => (BASE62, s.to_owned()),
        Encoding::Base64Url => (BASE64URL, s.to_owned()),
        _ => return None,
    };
    let digits = text
        .chars()
        .map(|c| alphabet.find(c).map(|d| d as u32))
        .collect::<Option<Vec<u32>>>()?;
    Some((digits, alphabet.len() as u32))
}

/// An independent decoder: `None` for anything the documented rules reject.
fn reference_decode(e: Encoding, s: &str) -> Option<u128> {
    if s.chars().count() != e.len() {
        return None;
    }
    if matches!(
        e,
        Encoding::Hex | Encoding::Hyphenated | Encoding::Urn | Encoding::Braced
    ) {
        // `parse` is tested against its own reference in `properties.rs`; of its forms, one
        // has this length.
        return parse(s).ok().map(Uuid::as_u128);
    }
    let (digits, base) = normalise(e, s)?;
    if base.is_power_of_two() && matches!(e, Encoding::Base32Hex | Encoding::Base64Url) {
        // The octets: a stream of bits whose bits after the 128th are zero.
        let bits = base.trailing_zeros();
        let stream: Vec<u32> = digits
            .iter()
            .flat_map(|d| (0..bits).rev().map(move |i| (d >> i) & 1))
            .collect();
        if stream[128..].iter().any(|&b| b != 0) {
            return None;
        }
        return Some(
            stream[..128]
                .iter()
                .fold(0, |v, &b| (v << 1) | u128::from(b)),
        );
    }
    digits.iter().try_fold(0u128, |v, &d| {
        v.checked_mul(u128::from(base))?.checked_add(u128::from(d))
    })
}

/// Checks `decode` on `s` against [`reference_decode`] and the error rules: the kind, the
/// input shortened to 64 characters, and a position that points at the problem.
fn check_decode(e: Encoding, s: &str) -> Result<(), TestCaseError> {
    let expected = reference_decode(e, s);
    let result = e.decode(s);
    prop_assert_eq!(
        e.decode_ascii(s.as_bytes()).ok(),
        result.as_ref().ok().copied()
    );
    match result {
        Ok(u) => prop_assert_eq!(Some(u.as_u128()), expected, "{} accepted {:?}", e, s),
        Err(err) => {
            prop_assert_eq!(expected, None, "{} rejected {:?}: {}", e, s, err);
            let ErrorKind::Decode(DecodeError {
                input: Input::Text(input),
                encoding,
                reason,
                ..
            }) = err.kind()
            else {
                return Err(TestCaseError::fail(format!("{s:?}: {:?}", err.kind())));
            };
            prop_assert_eq!(*encoding, e);
            // The input, or its start followed by `...`, at most 64 characters as displayed.
            let shown = input.strip_suffix("...").unwrap_or(input);
            let width: usize = shown.chars().map(|c| c.escape_debug().count()).sum();
            prop_assert!(
                s.starts_with(shown) && (input == s || width <= 64),
                "{:?}",
                input
            );
            let chars: Vec<char> = s.chars().collect();
            match *reason {
                DecodeReason::Length { expected, found } => {
                    prop_assert_eq!(expected, e.len());
                    prop_assert_eq!(found, chars.len());
                }
                DecodeReason::Char {
                    found, position, ..
                } => {
                    prop_assert_eq!(chars.len(), e.len());
                    prop_assert_eq!(Found::Char(chars[position]), found);
                    if normalise(e, "").is_some() {
                        // The first character outside the alphabet.
                        let at = |i: usize| normalise(e, &chars[i].to_string()).is_some();
                        prop_assert!(!at(position) && (0..position).all(at), "{}", err);
                    }
                }
                DecodeReason::Overflow {
                    found,
                    position,
                    max,
                } => {
                    prop_assert_eq!(chars[position], found);
                    prop_assert_eq!(max, e.encode(Uuid::MAX));
                    // Where the text first exceeds the Max UUID's text.
                    let (digits, _) = normalise(e, s).unwrap();
                    let (top, _) = normalise(e, max).unwrap();
                    prop_assert_eq!(&digits[..position], &top[..position]);
                    prop_assert!(digits[position] > top[position]);
                }
                DecodeReason::TrailingBits { found, position } => {
                    prop_assert_eq!(position, e.len() - 1);
                    prop_assert_eq!(chars[position], found);
                }
                DecodeReason::Syntax(_) => prop_assert!(normalise(e, "").is_none()),
                _ => return Err(TestCaseError::fail(format!("new reason: {reason:?}"))),
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Encoding: exact, fixed-length, round trips, order
// ---------------------------------------------------------------------------------------------

/// Values with long runs of zero or one bits as well as uniform ones.
fn value() -> impl Strategy<Value = u128> {
    prop_oneof![
        any::<u128>(),
        (any::<u128>(), 0..128u32).prop_map(|(x, s)| x >> s),
        (any::<u128>(), 0..128u32).prop_map(|(x, s)| !(x >> s)),
        Just(0),
        Just(u128::MAX),
    ]
}

proptest! {
    #[test]
    fn encode_matches_the_plain_computation(x in value()) {
        let u = Uuid::from_u128(x);
        for e in Encoding::ALL {
            let text = e.encode(u);
            prop_assert_eq!(&text, &reference_encode(e, x), "{}", e);
            prop_assert_eq!(text.len(), e.len());
            let encoded = Encoded::new(e, u);
            prop_assert_eq!(encoded.as_str(), text.as_str());
            let mut buf = [0xAA; Encoding::MAX_LEN + 1];
            prop_assert_eq!(e.encode_into(u, &mut buf), e.len());
            prop_assert_eq!(&buf[..e.len()], text.as_bytes());
            prop_assert!(buf[e.len()..].iter().all(|&b| b == 0xAA));
        }
    }

    #[test]
    fn round_trips_are_exact(x in value()) {
        let u = Uuid::from_u128(x);
        for e in Encoding::ALL {
            let text = e.encode(u);
            prop_assert_eq!(e.decode(&text).unwrap(), u, "{} {}", e, text);
            prop_assert_eq!(e.decode_ascii(text.as_bytes()).unwrap(), u);
            prop_assert_eq!(Encoding::from_name(e.name()).unwrap(), e);
        }
        // The documented case rules.
        let upper = |e: Encoding| e.encode(u).to_uppercase();
        let lower = |e: Encoding| e.encode(u).to_lowercase();
        prop_assert_eq!(Encoding::Base32.decode(&upper(Encoding::Base32)).unwrap(), u);
        prop_assert_eq!(Encoding::Ulid.decode(&lower(Encoding::Ulid)).unwrap(), u);
        prop_assert_eq!(Encoding::Base32Hex.decode(&lower(Encoding::Base32Hex)).unwrap(), u);
        for e in [Encoding::Hex, Encoding::Hyphenated, Encoding::Braced, Encoding::Urn] {
            prop_assert_eq!(e.decode(&upper(e)).unwrap(), u);
        }
    }

    #[test]
    fn strings_sort_like_uuids(x in value(), y in value(), bit in 0..128u32, near in any::<bool>()) {
        // Neighbours share long prefixes, which is where an order bug would hide.
        let y = if near { x ^ (1 << bit) } else { y };
        for e in Encoding::ALL.into_iter().filter(|e| e.form().sorts) {
            let (a, b) = (e.encode(Uuid::from_u128(x)), e.encode(Uuid::from_u128(y)));
            prop_assert_eq!(a.as_bytes().cmp(b.as_bytes()), x.cmp(&y), "{} {} {}", e, a, b);
        }
    }
}

#[test]
fn the_encodings_that_do_not_sort_do_not() {
    // '_' (0x5F) is the digit 63 and 'a' (0x61) the digit 26.
    let (a, b) = (Uuid::from_u128(26 << 122), Uuid::from_u128(63 << 122));
    for e in Encoding::ALL.into_iter().filter(|e| !e.form().sorts) {
        assert!(e.encode(a) > e.encode(b), "{e}");
    }
    assert_eq!(ordered().len(), 5);
}

// ---------------------------------------------------------------------------------------------
// Decoding: the accepted language and the errors
// ---------------------------------------------------------------------------------------------

/// A char likely to matter to some decoder, or any char.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        proptest::char::ranges(vec!['0'..='9', 'a'..='z', 'A'..='Z'].into()),
        prop::sample::select(vec![
            '-',
            '_',
            '=',
            '+',
            '/',
            '{',
            '}',
            ':',
            ' ',
            'é',
            '\u{660}',
            '\u{10FFFF}',
            '\u{0}'
        ]),
        any::<char>(),
    ]
}

/// An encoding of a random UUID, then possibly changed: its case flipped at random positions,
/// one character replaced, inserted or removed.
fn near_valid_text() -> impl Strategy<Value = (Encoding, String)> {
    (
        prop::sample::select(Encoding::ALL.to_vec()),
        value(),
        any::<u64>(),
        0..4u8,
        any::<Index>(),
        interesting_char(),
    )
        .prop_map(|(e, x, flips, mutation, at, c)| {
            let mut chars: Vec<char> = e.encode(Uuid::from_u128(x)).chars().collect();
            for (i, ch) in chars.iter_mut().enumerate() {
                if flips >> (i % 64) & 1 == 1 && i % 3 == 0 {
                    *ch = if ch.is_ascii_lowercase() {
                        ch.to_ascii_uppercase()
                    } else {
                        ch.to_ascii_lowercase()
                    };
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
            (e, chars.into_iter().collect())
        })
}

proptest! {
    #[test]
    fn decode_near_valid_text((e, s) in near_valid_text()) {
        check_decode(e, &s)?;
    }

    #[test]
    fn decode_digits_of_the_right_length(
        e in prop::sample::select(Encoding::ALL.to_vec()),
        s in "[0-9A-Za-z_-]{22}|[0-9A-Za-z]{26}",
    ) {
        // Mostly overflows, wrong cases and aliases: every text of the right length whose
        // characters are in the alphabet.
        check_decode(e, &s)?;
    }

    #[test]
    fn decode_near_the_maximum(
        e in prop::sample::select(ordered()),
        // Half the time the last digit, which makes 2**128 exactly.
        keep in prop_oneof![Just(None), any::<Index>().prop_map(Some)],
        delta in -1i32..=1,
        rest_from_max in any::<bool>(),
        tail in prop::collection::vec(any::<Index>(), 26),
    ) {
        // The Max UUID's digits, one of them moved by `delta` and those after it kept or
        // random: values just above and below 2**128 - 1.
        let max = e.encode(Uuid::MAX);
        let (mut digits, base) = normalise(e, &max).unwrap();
        let keep = keep.map_or(e.len() - 1, |i| i.index(e.len()));
        digits[keep] = digits[keep].saturating_add_signed(delta).min(base - 1);
        if !rest_from_max {
            for (d, i) in digits[keep + 1..].iter_mut().zip(&tail) {
                *d = i.index(base as usize) as u32;
            }
        }
        let alphabet: Vec<char> = match e {
            Encoding::Ulid => CROCKFORD.to_uppercase().chars().collect(),
            Encoding::Base32 => CROCKFORD.chars().collect(),
            Encoding::Base32Hex => BASE32HEX.chars().collect(),
            Encoding::Base58 => BASE58.chars().collect(),
            _ => BASE62.chars().collect(),
        };
        let text: String = digits.iter().map(|&d| alphabet[d as usize]).collect();
        check_decode(e, &text)?;
    }

    #[test]
    fn decode_arbitrary_text(
        e in prop::sample::select(Encoding::ALL.to_vec()),
        s in proptest::collection::vec(any::<char>(), 0..70),
    ) {
        check_decode(e, &s.into_iter().collect::<String>())?;
    }

    #[test]
    fn decode_arbitrary_bytes(
        e in prop::sample::select(Encoding::ALL.to_vec()),
        b in proptest::collection::vec(any::<u8>(), 20..46),
    ) {
        let result = e.decode_ascii(&b).ok().map(Uuid::as_u128);
        // Every encoding is ASCII, so invalid UTF-8 is never accepted.
        let expected = std::str::from_utf8(&b).ok().and_then(|s| reference_decode(e, s));
        prop_assert_eq!(result, expected);
    }
}

// ---------------------------------------------------------------------------------------------
// TypeID
// ---------------------------------------------------------------------------------------------

/// An independent reading of the TypeID rules (the specification, v0.3).
fn reference_typeid(s: &str) -> Option<(&str, u128)> {
    let (prefix, suffix) = match s.rfind('_') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => ("", s),
    };
    if s.contains('_') && prefix.is_empty() {
        return None;
    }
    let prefix_ok = prefix.len() <= 63
        && prefix.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        && !prefix.starts_with('_')
        && !prefix.ends_with('_');
    let suffix_ok = suffix.len() == 26
        && suffix.chars().all(|c| CROCKFORD.contains(c))
        && suffix.as_bytes()[0] <= b'7';
    if !(prefix_ok && suffix_ok) {
        return None;
    }
    let value = suffix.chars().fold(0u128, |v, c| {
        (v << 5) | CROCKFORD.find(c).map_or(0, |d| d as u128)
    });
    Some((prefix, value))
}

fn prefix() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z]", "[a-z][a-z_]{0,61}[a-z]"]
}

proptest! {
    #[test]
    fn typeid_round_trips(p in prefix(), x in value()) {
        let u = Uuid::from_u128(x);
        let text = typeid(&p, u).unwrap();
        let suffix = positional(x, CROCKFORD, 26);
        let expected = if p.is_empty() { suffix.clone() } else { format!("{p}_{suffix}") };
        prop_assert_eq!(&text, &expected);
        prop_assert_eq!(parse_typeid(&text).unwrap(), (p.as_str(), u));
        let mut buf = [0u8; MAX_LEN];
        let n = typeid_into(&p, u, &mut buf).unwrap();
        prop_assert_eq!(&buf[..n], text.as_bytes());
        // Upper case is never accepted in the suffix.
        if suffix.bytes().any(|b| b.is_ascii_alphabetic()) {
            let shouting = format!("{}{}", &text[..text.len() - 26], suffix.to_uppercase());
            prop_assert!(parse_typeid(&shouting).is_err());
        }
    }

    #[test]
    fn typeid_parse_near_valid(
        p in prefix(),
        x in value(),
        mutation in 0..4u8,
        at in any::<Index>(),
        c in prop_oneof![interesting_char(), Just('_'), Just('i'), Just('8')],
    ) {
        let mut chars: Vec<char> = typeid(&p, Uuid::from_u128(x)).unwrap().chars().collect();
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
        let s: String = chars.into_iter().collect();
        let expected = reference_typeid(&s);
        match parse_typeid(&s) {
            Ok((prefix, u)) => prop_assert_eq!(Some((prefix, u.as_u128())), expected),
            Err(err) => {
                prop_assert_eq!(expected, None, "rejected {:?}: {}", s, err);
                let ErrorKind::TypeId(TypeIdError { reason, .. }) = err.kind() else {
                    return Err(TestCaseError::fail(format!("{s:?}: {:?}", err.kind())));
                };
                let chars: Vec<char> = s.chars().collect();
                let position = match *reason {
                    TypeIdReason::PrefixChar { position, found }
                    | TypeIdReason::Suffix(DecodeReason::Char {
                        position, found, ..
                    }) => {
                        prop_assert_eq!(Found::Char(chars[position]), found);
                        Some(position)
                    }
                    TypeIdReason::PrefixUnderscore { position } => Some(position),
                    TypeIdReason::Suffix(DecodeReason::Overflow { position, found, .. }) => {
                        prop_assert_eq!(chars[position], found);
                        Some(position)
                    }
                    _ => None,
                };
                if let Some(position) = position {
                    let needle = format!("position {position}");
                    prop_assert!(err.to_string().contains(&needle), "{}", err);
                }
            }
        }
    }
}

/// What `detect` makes of `text`, written for `u`: read as `u` alone, or ambiguous with `u`
/// among readings that do not all agree. Never another UUID alone.
fn read_as_itself_or_refused(text: &str, u: Uuid) -> Result<(), TestCaseError> {
    let readings = detect(text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert!(
        readings.iter().any(|r| r.uuid() == u),
        "{}: {:?}",
        text,
        readings
    );
    if readings.len() > 1 {
        prop_assert!(
            readings.iter().any(|r| r.uuid() != u),
            "{}: readings that agree are one: {:?}",
            text,
            readings
        );
    }
    Ok(())
}

/// Values of every kind: any 128 bits, the RFC's layouts of each version, and numbers with
/// leading zero bits (as v7s of our years have, and short base58/base62 texts).
fn any_value() -> impl Strategy<Value = Uuid> {
    prop_oneof![
        any::<u128>().prop_map(Uuid::from_u128),
        (any::<u128>(), 1..=8u8).prop_map(|(x, v)| Uuid::with_version(x, v)),
        (any::<u128>(), 0..128u32).prop_map(|(x, shift)| Uuid::from_u128(x >> shift)),
        Just(Uuid::NIL),
        Just(Uuid::MAX),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// The text of any value in any form, or as a TypeID, is never read as another UUID:
    /// `detect` returns it alone, or refuses it (several readings that differ), its own
    /// among them.
    #[test]
    fn detect_never_misreads(u in any_value()) {
        for e in Encoding::ALL {
            let text = e.encode(u);
            read_as_itself_or_refused(&text, u)?;
            read_as_itself_or_refused(&text.to_uppercase(), u).or_else(|err| {
                // Upper case is another text for the case-sensitive forms.
                if e.form().case == Case::Sensitive { Ok(()) } else { Err(err) }
            })?;
        }
        for prefix in ["", "user"] {
            read_as_itself_or_refused(&typeid(prefix, u).unwrap(), u)?;
        }
    }

    /// A text that one form alone decodes, or that all forms decoding it read as one UUID, is
    /// read; one that forms read differently is refused: checked against each form's decoder.
    #[test]
    fn detect_refuses_exactly_the_texts_forms_disagree_on(u in any_value(), e in 4..10usize) {
        let e = Encoding::ALL[e];
        let text = e.encode(u);
        let values: Vec<Uuid> = Encoding::ALL
            .into_iter()
            .filter(|o| o.len() == e.len())
            .filter_map(|o| o.decode(&text).ok())
            .collect();
        let readings = detect(&text).unwrap();
        let agree = values.iter().all(|v| *v == values[0]);
        prop_assert_eq!(readings.len() == 1, agree, "{}: {:?}", text, readings);
        for r in &readings {
            prop_assert!(values.contains(&r.uuid()));
            prop_assert_eq!(Encoding::from_name(r.form()).unwrap().decode(&text).ok(), Some(r.uuid()));
        }
    }
}
