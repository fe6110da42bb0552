//! Fuzz target for the core parser (RFC 9562 §4): any input either parses to the UUID whose
//! canonical forms it spells (in some letter case), or fails with a short error; the text and
//! byte entry points agree; every formatted UUID parses back to itself. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidx_core::format::{encode, Format};
use uuidx_core::{parse, Uuid};

fuzz_target!(|data: &[u8]| {
    let by_bytes = parse::parse_ascii(data);
    if let Ok(text) = std::str::from_utf8(data) {
        match parse::parse(text) {
            Ok(u) => {
                assert_eq!(by_bytes.as_ref().ok(), Some(&u), "text and bytes disagree");
                let lower = text.to_ascii_lowercase();
                assert!(
                    Format::ALL.iter().any(|&f| encode(u, f, false) == lower),
                    "accepted {text:?}, which is no form of {u}"
                );
            }
            Err(err) => {
                assert!(by_bytes.is_err(), "bytes accepted what text rejected: {text:?}");
                assert!(err.to_string().len() < 400, "a long message for {text:?}");
            }
        }
    }
    if let Some(head) = data.get(..16) {
        let u = Uuid::from_slice(head).expect("16 bytes");
        for f in Format::ALL {
            for upper in [false, true] {
                let text = encode(u, f, upper);
                assert_eq!(parse::parse(&text).ok(), Some(u), "{text}");
            }
        }
    }
});
