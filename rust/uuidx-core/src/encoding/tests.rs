//! Unit tests of the encodings: known answers, the table against the encoders, and the
//! decoders' errors.

use super::*;
use std::collections::BTreeSet;

/// Known answers, computed independently with Python's standard library:
/// `base64.b32hexencode(u.bytes)` and `base64.urlsafe_b64encode(u.bytes)` without `=`,
/// and a plain `divmod` loop over `u.int` for the positional ones.
const KNOWN: &[(u128, [&str; 6])] = &[
    (
        0,
        [
            "00000000000000000000000000",
            "00000000000000000000000000",
            "00000000000000000000000000",
            "1111111111111111111111",
            "0000000000000000000000",
            "AAAAAAAAAAAAAAAAAAAAAA",
        ],
    ),
    (
        1,
        [
            "00000000000000000000000001",
            "00000000000000000000000001",
            "00000000000000000000000004",
            "1111111111111111111112",
            "0000000000000000000001",
            "AAAAAAAAAAAAAAAAAAAAAQ",
        ],
    ),
    (
        u128::MAX,
        [
            "7zzzzzzzzzzzzzzzzzzzzzzzzz",
            "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            "VVVVVVVVVVVVVVVVVVVVVVVVVS",
            "YcVfxkQb6JRzqk5kF2tNLv",
            "7n42DGM5Tflk9n8mt7Fhc7",
            "_____________________w",
        ],
    ),
    (
        0xf81d_4fae_7dec_11d0_a765_00a0_c91e_6bf6,
        [
            "7r3n7twzfc278aes80m34hwtzp",
            "7R3N7TWZFC278AES80M34HWTZP",
            "V0EKVBJTTG8T19R502GCI7JBUO",
            "Xe22UfxT3rxcKJEAfL5373",
            "7YBUWgZR1mKSqGyj9tVViw",
            "-B1Prn3sEdCnZQCgyR5r9g",
        ],
    ),
    (
        0x0189_0a5d_ac96_774b_bcce_b302_099a_8057,
        [
            "01h455vb4pex5vsknk084sn02q",
            "01H455VB4PEX5VSKNK084SN02Q",
            "064GKNDCIPRKNF6EMC10J6K0AS",
            "1BzmjTFLHWXwiSK4y3H5iW",
            "02tcRIyrxLXTR81B3dqdOx",
            "AYkKXayWd0u8zrMCCZqAVw",
        ],
    ),
    (
        0x0110_c853_1d09_52d8_d73e_1194_e95b_5f19,
        [
            "0123456789abcdefghjkmnpqrs",
            "0123456789ABCDEFGHJKMNPQRS",
            "048CGKOT159DHLPU26AEIMQV34",
            "18ddjipqc9anKrRprrKP4L",
            "020f2ZQDhPemJuWgGcDs3F",
            "ARDIUx0JUtjXPhGU6VtfGQ",
        ],
    ),
];

const COMPACT: [Encoding; 6] = [
    Encoding::Base32,
    Encoding::Ulid,
    Encoding::Base32Hex,
    Encoding::Base58,
    Encoding::Base62,
    Encoding::Base64Url,
];

#[test]
fn known_answers() {
    for &(value, texts) in KNOWN {
        let u = Uuid::from_u128(value);
        for (encoding, text) in COMPACT.into_iter().zip(texts) {
            assert_eq!(encoding.encode(u), text, "{encoding} of {u}");
            assert_eq!(encoding.decode(text).unwrap(), u, "{encoding} {text}");
            assert_eq!(encoding.decode_reference(text.as_bytes()), Ok(value));
        }
    }
    let u = Uuid::from_u128(KNOWN[3].0);
    assert_eq!(Encoding::Hex.encode(u), "f81d4fae7dec11d0a76500a0c91e6bf6");
    assert_eq!(
        Encoding::Hyphenated.encode(u),
        "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    );
    assert_eq!(
        Encoding::Braced.encode(u),
        "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}"
    );
    assert_eq!(
        Encoding::Urn.encode(u),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    );
}

#[test]
fn names_lengths_and_max() {
    for (i, e) in Encoding::ALL.into_iter().enumerate() {
        assert_eq!(e as usize, i, "ALL is in the order of the table");
        assert_eq!(
            Encoding::ALL
                .iter()
                .filter(|o| o.name() == e.name())
                .count(),
            1
        );
        assert_eq!(Encoding::from_name(e.name()).unwrap(), e);
        assert_eq!(e.to_string(), e.name());
        assert_eq!(e.encode(Uuid::MAX), e.max());
        assert_eq!(e.max().len(), e.len());
        assert!(e.len() <= Encoding::MAX_LEN);
        assert_eq!(Encoded::new(e, Uuid::MAX).as_bytes(), e.max().as_bytes());
    }
    let err = Encoding::from_name("Base58").unwrap_err().to_string();
    assert!(
        err.contains("\"Base58\"") && err.contains("'base64url'"),
        "{err}"
    );
    assert!(Encoding::from_name("simple").is_err());
}

/// Each row against its encoder: the alphabet is exactly the set of digits the encoder
/// writes (where the Nil and Max UUIDs' texts differ), the zero digit first, in the case
/// the row says, and the decoding table reads each digit as its position.
#[test]
fn rows_describe_their_encoders() {
    for e in Encoding::ALL {
        let form = e.form();
        let alphabet: BTreeSet<u8> = form.alphabet.bytes().collect();
        let (nil, max) = (e.encode(Uuid::NIL), e.encode(Uuid::MAX));
        let digit_at: Vec<bool> = nil.bytes().zip(max.bytes()).map(|(a, b)| a != b).collect();
        let mut seen = BTreeSet::new();
        let mut x = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834_u128;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645)
                .wrapping_add(0x5851_F42D_4C95_7F2D_1405_7B7E_F767_814F);
            let text = e.encode(Uuid::from_u128(x));
            for (i, c) in text.bytes().enumerate() {
                if digit_at[i] {
                    seen.insert(c);
                } else {
                    assert_eq!(c, nil.as_bytes()[i], "{e}: {text}");
                }
            }
        }
        assert_eq!(seen, alphabet, "{e}");
        let zero = form.alphabet.as_bytes()[0];
        assert!(
            nil.bytes().zip(&digit_at).all(|(c, &d)| !d || c == zero),
            "{e}"
        );
        assert!(
            form.alphabet.bytes().all(|c| match form.case {
                Case::Lower => !c.is_ascii_uppercase(),
                Case::Upper => !c.is_ascii_lowercase(),
                _ => true,
            }),
            "{e}"
        );
        for (value, digit) in form.alphabet.bytes().enumerate() {
            assert_eq!(usize::from(e.decoding_table()[usize::from(digit)]), value);
        }
    }
}

/// The module documentation's table says what the table of encodings says.
#[test]
fn documentation_table_matches() {
    let rows: Vec<Vec<String>> = include_str!("mod.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//! | `"))
        .map(|l| {
            l.split('|')
                .map(|c| c.trim().trim_matches('`').to_owned())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), Encoding::ALL.len());
    for (row, e) in rows.iter().zip(Encoding::ALL) {
        let form = e.form();
        let sorts = if form.sorts { "yes" } else { "no" };
        assert_eq!(
            row[..4],
            [form.name, &form.len.to_string(), form.max, sorts],
            "{e}"
        );
    }
}

#[test]
fn aliases_and_case() {
    let u = Uuid::from_u128(KNOWN[5].0);
    // base32: either case, I and L for 1, O for 0.
    for text in [
        "0123456789abcdefghjkmnpqrs",
        "0123456789ABCDEFGHJKMNPQRS",
        "o123456789ABCDEFGHJKMNPQRS",
        "OI23456789abcdefghjkmnpqrs",
        "oL23456789abcdefghjkmnpqrs",
        "0l23456789abcdefghjkmnpqrs",
        "0i23456789abcdefghjkmnpqrs",
    ] {
        assert_eq!(Encoding::Base32.decode(text).unwrap(), u, "{text}");
    }
    // ulid: either case, no aliases.
    assert_eq!(
        Encoding::Ulid.decode("0123456789abcdefghjkmnpqrs").unwrap(),
        u
    );
    for (text, position) in [
        ("O123456789ABCDEFGHJKMNPQRS", 0),
        ("0I23456789ABCDEFGHJKMNPQRS", 1),
        ("0123456789ABCDEFGHJKMNPQRl", 25),
    ] {
        let msg = Encoding::Ulid.decode(text).unwrap_err().to_string();
        assert!(msg.contains(&format!("at position {position}")), "{msg}");
    }
    // U is in no Crockford alphabet.
    assert!(Encoding::Base32
        .decode("u123456789abcdefghjkmnpqrs")
        .is_err());
    // base32hex: either case; W is past V.
    let hex = Uuid::from_u128(KNOWN[3].0);
    assert_eq!(
        Encoding::Base32Hex
            .decode("v0ekvbjttg8t19r502gci7jbuo")
            .unwrap(),
        hex
    );
    assert!(Encoding::Base32Hex
        .decode("W0EKVBJTTG8T19R502GCI7JBUO")
        .is_err());
    // Case-sensitive ones.
    assert_ne!(
        Encoding::Base58.decode("xE22UfxT3rxcKJEAfL5373").ok(),
        Some(hex)
    );
    assert!(Encoding::Base64Url
        .decode("-B1Prn3sEdCnZQCgyR5r9G")
        .is_err());
}

#[test]
fn hex_forms_accept_only_their_own_form() {
    let u = Uuid::from_u128(KNOWN[3].0);
    let forms = [
        (Encoding::Hex, "F81D4FAE7DEC11D0A76500A0C91E6BF6"),
        (Encoding::Hyphenated, "F81D4FAE-7dec-11d0-a765-00a0c91e6bf6"),
        (Encoding::Braced, "{f81d4fae-7dec-11d0-a765-00A0C91E6BF6}"),
        (
            Encoding::Urn,
            "URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        ),
    ];
    for (e, text) in forms {
        assert_eq!(e.decode(text).unwrap(), u);
        for (other, other_text) in forms {
            if other != e {
                let msg = e.decode(other_text).unwrap_err().to_string();
                assert!(
                    msg.contains(&format!("expected {} characters", e.len())),
                    "{msg}"
                );
            }
        }
    }
}

/// `(encoding, input, what the message must contain)`.
const REJECTED: &[(Encoding, &str, &str)] = &[
    (Encoding::Base58, "", "expected 22 characters, found 0"),
    (
        Encoding::Base58,
        "1BzmjTFLHWXwiSK4y3H5iWW",
        "expected 22 characters, found 23",
    ),
    (
        Encoding::Base58,
        "1BzmjTFLHWXwiSK4y3H5i0",
        "invalid character '0' at position 21: expected a base58 digit",
    ),
    (
        Encoding::Base58,
        "YcVfxkQb6JRzqk5kF2tNLw",
        "'w' at position 21 makes the value exceed 2**128 - 1 \
         (the largest is \"YcVfxkQb6JRzqk5kF2tNLv\")",
    ),
    (
        Encoding::Base58,
        "Z111111111111111111111",
        "'Z' at position 0",
    ),
    (
        Encoding::Base58,
        "YcVfxkQb6JRzqk5kF3tNLv",
        "'3' at position 17",
    ),
    (
        Encoding::Base58,
        "zzzzzzzzzzzzzzzzzzzzz!",
        "'!' at position 21",
    ),
    (
        Encoding::Base62,
        "7n42DGM5Tflk9n8mt7Fhc8",
        "'8' at position 21 makes",
    ),
    (
        Encoding::Base62,
        "zzzzzzzzzzzzzzzzzzzzzz",
        "'z' at position 0 makes",
    ),
    (
        Encoding::Base62,
        "7n42DGM5Tflk9n8mt7Fhc-",
        "'-' at position 21",
    ),
    (
        Encoding::Base32,
        "8zzzzzzzzzzzzzzzzzzzzzzzzz",
        "'8' at position 0 makes",
    ),
    (
        Encoding::Ulid,
        "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "'8' at position 0 makes",
    ),
    (
        Encoding::Ulid,
        "zZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "'z' at position 0 makes",
    ),
    (
        Encoding::Ulid,
        "01H455VB4PEX5VSKNK084SN02Q ",
        "expected 26 characters, found 27",
    ),
    (
        Encoding::Base32,
        "01h455vb4pex5-sknk084sn02q",
        "invalid character '-' at position 13: expected a Crockford base32 digit",
    ),
    (
        Encoding::Base32Hex,
        "VVVVVVVVVVVVVVVVVVVVVVVVVT",
        "'T' at position 25 sets bits after the 128th",
    ),
    (
        Encoding::Base32Hex,
        "0000000000000000000000000=",
        "'=' at position 25",
    ),
    (
        Encoding::Base32Hex,
        "V0EKVBJTTG8T19R502GCI7JBUO======",
        "expected 26 characters, found 32",
    ),
    (
        Encoding::Base64Url,
        "_____________________x",
        "'x' at position 21 sets bits after the 128th",
    ),
    (
        Encoding::Base64Url,
        "+B1Prn3sEdCnZQCgyR5r9g",
        "invalid character '+' at position 0: expected a base64url digit",
    ),
    (
        Encoding::Base64Url,
        "-B1Prn3sEdCnZQCgyR5r9g==",
        "expected 22 characters, found 24",
    ),
    // Positions and lengths count characters, not bytes.
    (
        Encoding::Base58,
        "1BzmjTFLHWXwiSK4y3H5é",
        "expected 22 characters, found 21",
    ),
    (
        Encoding::Base58,
        "1BzmjTFLHWXwiSK4y3H5éW",
        "'é' at position 20",
    ),
    (
        Encoding::Base62,
        "é€zzzzzzzzzzzzzzzzzzzz",
        "'é' at position 0",
    ),
    (
        Encoding::Base32,
        "01h455vb4pex5vsknk084sn0\u{660}q",
        "'\u{660}' at position 24",
    ),
    (
        Encoding::Hex,
        "f81d4fae7dec11d0a76500a0c91e6bfé",
        "invalid character 'é' at position 31: expected a hex digit",
    ),
    (
        Encoding::Hyphenated,
        "f81d4fae-7dec-11d0-a765é00a0c91e6bf6",
        "expected '-' at position 23, found 'é'",
    ),
    (
        Encoding::Hyphenated,
        "f81d4fae-7dec-11d0-a765-00a0c91e6bf",
        "found 35",
    ),
    (
        Encoding::Braced,
        "(f81d4fae-7dec-11d0-a765-00a0c91e6bf6)",
        "expected a '{' at the start",
    ),
    (
        Encoding::Urn,
        "urn:uuix:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        "'urn:uuid:'",
    ),
    (
        Encoding::Urn,
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bfX",
        "'X' at position 44",
    ),
];

#[test]
fn rejects_with_position() {
    for &(e, input, needle) in REJECTED {
        let err = e.decode(input).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(needle), "{e} {input:?}: {msg}");
        assert!(
            msg.starts_with(&format!("invalid {} UUID {input:?}: ", e.name())),
            "{msg}"
        );
        assert!(matches!(err.kind(), ErrorKind::Decode(d) if d.encoding == e));
        assert_eq!(e.decode_ascii(input.as_bytes()).unwrap_err(), err);
    }
}

#[test]
fn long_and_invalid_utf8_inputs() {
    let long = "z".repeat(1 << 20);
    let msg = Encoding::Base62.decode(&long).unwrap_err().to_string();
    assert!(msg.len() < 200, "{msg}");
    assert!(msg.contains("found 1048576"), "{msg}");
    let msg = Encoding::Base58
        .decode_ascii(b"1BzmjTFLHWXwiSK4y3H5i\xFF")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("'\u{FFFD}' at position 21"), "{msg}");
}

#[test]
fn encode_into_a_shared_buffer() {
    let mut buf = Vec::new();
    for e in Encoding::ALL {
        let start = buf.len();
        buf.resize(start + e.len(), 0);
        assert_eq!(e.encode_into(Uuid::MAX, &mut buf[start..]), e.len());
    }
    let all: String = Encoding::ALL.iter().map(|e| e.max()).collect();
    assert_eq!(buf, all.as_bytes());
}

proptest::proptest! {
    /// The fast decoders accept exactly what the reference decoder accepts.
    #[test]
    fn fast_and_reference_decoders_agree(
        e in proptest::sample::select(Encoding::ALL.to_vec()),
        s in "[0-9A-Za-z_-]{22}|[0-9A-Za-z]{26}|[0-9a-f-]{36}|[0-9a-fA-F]{32}|.{0,46}",
    ) {
        proptest::prop_assert_eq!(
            e.decode_fast(s.as_bytes()),
            e.decode_reference(s.as_bytes()).ok()
        );
    }
}

#[test]
#[should_panic(expected = "a base58 UUID needs 22 bytes, the buffer has 21")]
fn encode_into_a_short_buffer_panics() {
    Encoding::Base58.encode_into(Uuid::NIL, &mut [0; 21]);
}
