//! Fuzz target for the core parser (RFC 9562 §4): any input either parses to the UUID whose
//! canonical forms it spells (in some letter case), or fails with a short error; the text and
//! byte entry points agree; every formatted UUID parses back to itself, in any mix of letter
//! cases. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidx_core::encoding::Encoding;
use uuidx_core::{parse, Uuid};

fuzz_target!(|data: &[u8]| {
    let by_bytes = parse::parse_ascii(data);
    if let Ok(text) = std::str::from_utf8(data) {
        match parse::parse(text) {
            Ok(u) => {
                assert_eq!(by_bytes.as_ref().ok(), Some(&u), "text and bytes disagree");
                let lower = text.to_ascii_lowercase();
                assert!(
                    Encoding::HEX_FORMS.iter().any(|f| f.encode(u) == lower),
                    "accepted {text:?}, which is no form of {u}"
                );
            }
            Err(err) => {
                assert!(
                    by_bytes.is_err(),
                    "bytes accepted what text rejected: {text:?}"
                );
                assert!(err.to_string().len() < 400, "a long message for {text:?}");
            }
        }
    }
    if let Some((head, tail)) = data.split_first_chunk::<16>() {
        let u = Uuid::from_bytes(*head);
        let mut flips = tail
            .iter()
            .flat_map(|&b| (0..8).map(move |i| b >> i & 1 == 1));
        for f in Encoding::HEX_FORMS {
            let text = f.encode(u);
            for text in [text.to_ascii_uppercase(), text] {
                assert_eq!(parse::parse(&text).ok(), Some(u), "{text}");
            }
            // Any mix of cases, in the digits and in the URN prefix.
            let mixed: String = f
                .encode(u)
                .chars()
                .map(|c| {
                    if flips.next().unwrap_or(false) {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            assert_eq!(parse::parse(&mixed).ok(), Some(u), "{mixed}");
            assert_eq!(
                parse::parse_ascii(mixed.as_bytes()).ok(),
                Some(u),
                "{mixed}"
            );
        }
    }
});
