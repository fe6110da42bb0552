//! Fuzz target for TypeIDs (`uuidx_core::typeid`), against the specification's rules written
//! out here independently: split at the last `_`; a prefix of at most 63 lowercase ASCII
//! letters and underscores, neither first nor last an underscore, not empty before a `_`; a
//! suffix that is the lower-case `base32` text of a UUID, exactly as the encoder writes it.
//!
//! - Any input is accepted exactly when it follows those rules, and then `typeid` of what
//!   was parsed gives the input back; a rejection is a short `TypeId` error whose positions
//!   and characters are those of the input.
//! - Any prefix made of `a-z` and `_` and any UUID make a TypeID exactly when the prefix
//!   follows the rules, and that TypeID parses back to them.
//!
//! Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidx_core::encoding::{DecodeReason, Encoding};
use uuidx_core::typeid::{
    check_prefix, parse_typeid, typeid, typeid_into, TypeIdError, TypeIdReason, MAX_LEN,
};
use uuidx_core::{ErrorKind, Found, Uuid};

fn valid_prefix(prefix: &str) -> bool {
    prefix.len() <= 63
        && !prefix.starts_with('_')
        && !prefix.ends_with('_')
        && prefix.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// The specification's answer for `text`: its prefix and UUID, or `None`.
fn by_the_rules(text: &str) -> Option<(&str, Uuid)> {
    let (prefix, suffix) = match text.rfind('_') {
        None => ("", text),
        Some(0) => return None,
        Some(i) => (&text[..i], &text[i + 1..]),
    };
    if !valid_prefix(prefix) {
        return None;
    }
    let u = Encoding::Base32.decode(suffix).ok()?;
    (Encoding::Base32.encode(u) == suffix).then_some((prefix, u))
}

/// The position and character a TypeID error names, if it names one.
fn located(reason: TypeIdReason) -> Option<(usize, char)> {
    match reason {
        TypeIdReason::PrefixChar {
            found: Found::Char(found),
            position,
        }
        | TypeIdReason::Suffix(
            DecodeReason::Char {
                found: Found::Char(found),
                position,
                ..
            }
            | DecodeReason::Overflow {
                found, position, ..
            }
            | DecodeReason::TrailingBits { found, position },
        ) => Some((position, found)),
        _ => None,
    }
}

fn check_input(text: &str) {
    let parsed = parse_typeid(text);
    assert_eq!(
        parsed.as_ref().ok(),
        by_the_rules(text).as_ref(),
        "{text:?}"
    );
    match parsed {
        Ok((prefix, u)) => {
            assert!(check_prefix(prefix).is_ok());
            assert_eq!(typeid(prefix, u).unwrap(), text);
        }
        Err(err) => {
            let message = err.to_string();
            assert!(
                message.len() < 600,
                "a long message for {text:?}: {message}"
            );
            let ErrorKind::TypeId(TypeIdError { reason, .. }) = *err.kind() else {
                panic!("another kind of error for {text:?}: {err:?}");
            };
            if let Some((position, found)) = located(reason) {
                assert_eq!(text.chars().nth(position), Some(found), "{message}");
            }
        }
    }
}

fn check_value(prefix: &str, u: Uuid) {
    let made = typeid(prefix, u);
    assert_eq!(made.is_ok(), valid_prefix(prefix), "{prefix:?}");
    assert_eq!(
        check_prefix(prefix).is_ok(),
        valid_prefix(prefix),
        "{prefix:?}"
    );
    let Ok(text) = made else {
        return;
    };
    assert_eq!(parse_typeid(&text).ok(), Some((prefix, u)), "{text}");
    let mut buf = [0u8; MAX_LEN];
    let n = typeid_into(prefix, u, &mut buf).unwrap();
    assert_eq!(&buf[..n], text.as_bytes());
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = core::str::from_utf8(data) {
        check_input(text);
    }
    if let Some((head, tail)) = data.split_first_chunk::<16>() {
        // 27 symbols: the letters and the underscore.
        let prefix: String = tail
            .iter()
            .map(|&b| match b % 27 {
                26 => '_',
                k => char::from(b'a' + k),
            })
            .collect();
        check_value(&prefix, Uuid::from_bytes(*head));
    }
});
