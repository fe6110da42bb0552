//! Fuzz target for every text encoding of `uuidx_core::encoding` through its public decoder,
//! `Encoding::decode_ascii` (and `decode` for UTF-8 input). The first byte picks the encoding.
//!
//! - Any input either decodes to the UUID whose canonical text it spells (`encode` of the
//!   value is the input with its case and Crockford's aliases normalised as the encoding
//!   allows), or fails with a short error whose position and character are those of the input.
//! - Any 16 bytes are a UUID whose text decodes back to it, also when respelt in any way the
//!   encoding accepts (letter case, Crockford's `I`/`L`/`O`, the URN prefix's case); the
//!   encoders agree with each other; the encodings that sort do so like the UUIDs.
//!
//! Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidx_core::encoding::{DecodeError, DecodeReason, Encoded, Encoding};
use uuidx_core::parse::ParseReason;
use uuidx_core::{ErrorKind, Found, Uuid};

/// The canonical text that an accepted `text` spells: what `encode` returns for its value.
fn canonical(encoding: Encoding, text: &str) -> String {
    match encoding {
        Encoding::Hex | Encoding::Hyphenated | Encoding::Urn | Encoding::Braced => {
            text.to_ascii_lowercase()
        }
        Encoding::Base32 => text
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                'i' | 'l' => '1',
                'o' => '0',
                c => c,
            })
            .collect(),
        Encoding::Ulid | Encoding::Base32Hex => text.to_ascii_uppercase(),
        _ => text.to_owned(),
    }
}

/// Another spelling of the canonical `text` that the encoding accepts, each character's
/// variant picked by a byte of `choice` (cycled).
fn respell(encoding: Encoding, text: &str, choice: &[u8]) -> String {
    let mut picks = choice.iter().copied().cycle();
    let case_free = matches!(
        encoding,
        Encoding::Hex
            | Encoding::Hyphenated
            | Encoding::Urn
            | Encoding::Braced
            | Encoding::Base32
            | Encoding::Ulid
            | Encoding::Base32Hex
    );
    text.chars()
        .map(|c| {
            let pick = picks.next().unwrap_or(0);
            match (encoding, c) {
                (Encoding::Base32, '1') => ['1', 'i', 'I', 'l', 'L'][usize::from(pick % 5)],
                (Encoding::Base32, '0') => ['0', 'o', 'O'][usize::from(pick % 3)],
                _ if case_free && pick & 1 == 1 => {
                    if c.is_ascii_lowercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    }
                }
                _ => c,
            }
        })
        .collect()
}

/// The position and character an error names, if it names one.
fn located(reason: DecodeReason) -> Option<(usize, char)> {
    match reason {
        DecodeReason::Char {
            found: Found::Char(found),
            position,
            ..
        }
        | DecodeReason::Overflow {
            found, position, ..
        }
        | DecodeReason::TrailingBits { found, position }
        | DecodeReason::Syntax(
            ParseReason::Char {
                found: Found::Char(found),
                position,
            }
            | ParseReason::Hyphen {
                found: Found::Char(found),
                position,
            },
        ) => Some((position, found)),
        _ => None,
    }
}

fn check_input(encoding: Encoding, input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    match encoding.decode_ascii(input) {
        Ok(u) => {
            assert!(input.is_ascii(), "accepted non-ASCII {text:?}");
            assert_eq!(
                encoding.encode(u),
                canonical(encoding, &text),
                "{encoding} accepted {text:?}, which does not spell {u}"
            );
        }
        Err(err) => {
            let message = err.to_string();
            assert!(
                message.len() < 600,
                "a long message for {text:?}: {message}"
            );
            let ErrorKind::Decode(DecodeError {
                encoding: named,
                reason,
                ..
            }) = *err.kind()
            else {
                panic!("{encoding} failed with another kind of error: {err:?}");
            };
            assert_eq!(named, encoding);
            let chars = text.chars().count();
            if let DecodeReason::Length { expected, found } = reason {
                assert_eq!((expected, found), (encoding.len(), chars), "{message}");
            } else {
                assert_eq!(chars, encoding.len(), "{message}");
            }
            if let Some((position, found)) = located(reason) {
                assert_eq!(text.chars().nth(position), Some(found), "{message}");
            }
        }
    }
    if let Ok(s) = core::str::from_utf8(input) {
        assert_eq!(
            encoding.decode(s).ok(),
            encoding.decode_ascii(input).ok(),
            "str and bytes disagree on {s:?}"
        );
    }
}

fn check_value(encoding: Encoding, u: Uuid, choice: &[u8]) {
    let text = encoding.encode(u);
    assert_eq!(text.len(), encoding.len());
    assert_eq!(Encoded::new(encoding, u).as_str(), text);
    let mut buf = [0u8; Encoding::MAX_LEN];
    let n = encoding.encode_into(u, &mut buf);
    assert_eq!(&buf[..n], text.as_bytes());
    assert_eq!(encoding.decode(&text).ok(), Some(u), "{text}");
    let other = respell(encoding, &text, choice);
    assert_eq!(
        encoding.decode(&other).ok(),
        Some(u),
        "{other} (for {text})"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let encoding = Encoding::ALL[usize::from(pick) % Encoding::ALL.len()];
    check_input(encoding, rest);
    if rest.len() >= 32 {
        let a = Uuid::from_slice(&rest[..16]).expect("16 bytes");
        let b = Uuid::from_slice(&rest[16..32]).expect("16 bytes");
        let choice = if rest.len() > 32 { &rest[32..] } else { &[0] };
        check_value(encoding, a, choice);
        check_value(encoding, b, &[1]);
        if encoding != Encoding::Base64Url {
            assert_eq!(
                a.cmp(&b),
                encoding.encode(a).cmp(&encoding.encode(b)),
                "{encoding} does not sort like the UUIDs"
            );
        }
    }
});
