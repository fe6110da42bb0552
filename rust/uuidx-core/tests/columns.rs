//! Property tests of the column kernels (`uuidx_core::column`): each one, row by row, equals
//! the scalar function it batches (parse, every encoding both ways, name-based hashing,
//! UUIDv47 masking, timestamps), with null rows kept null and zeroed.

use proptest::prelude::*;
use uuidx_core::column::{self, OnError};
use uuidx_core::encoding::Encoding;
use uuidx_core::name::{self, Algorithm};
use uuidx_core::{mask, parse, Uuid};

/// Rows of UUIDs, some null, built from arbitrary 128-bit values (every version and variant).
fn uuid_rows() -> impl Strategy<Value = Vec<Option<Uuid>>> {
    prop::collection::vec(prop::option::weighted(0.9, any::<u128>()), 0..40)
        .prop_map(|rows| rows.into_iter().map(|r| r.map(Uuid::from_u128)).collect())
}

/// Text rows: canonical forms of random UUIDs, and arbitrary strings (mostly not UUIDs).
fn text_rows() -> impl Strategy<Value = Vec<Option<String>>> {
    let text = prop_oneof![
        any::<u128>().prop_map(|x| Uuid::from_u128(x).to_string()),
        any::<u128>().prop_map(|x| Encoding::Urn.encode(Uuid::from_u128(x)).to_uppercase()),
        "[0-9a-fA-F-]{30,40}",
        ".{0,50}",
    ];
    prop::collection::vec(prop::option::weighted(0.9, text), 0..40)
}

proptest! {
    #[test]
    fn parse_equals_the_scalar_parser(rows in text_rows()) {
        let n = rows.len();
        let (mut out, mut valid) = (vec![0xEE; 16 * n], vec![false; n]);
        let bytes = || rows.iter().map(|r| r.as_deref().map(str::as_bytes));
        let nulls = column::parse(bytes(), &mut out, &mut valid, OnError::Null, column::run_to_end).unwrap();
        prop_assert_eq!(nulls, valid.iter().filter(|v| !**v).count());
        for ((row, u), ok) in rows.iter().zip(column::records(&out)).zip(&valid) {
            let scalar = row.as_deref().and_then(|s| parse::parse(s).ok());
            prop_assert_eq!(scalar.is_some(), *ok);
            prop_assert_eq!(u, scalar.unwrap_or(Uuid::NIL));
        }
        // Under Raise, the first bad row is the error's row, with the scalar parser's message.
        let first_bad = rows.iter().position(|r| r.as_deref().is_some_and(|s| parse::parse(s).is_err()));
        let raised = column::parse(bytes(), &mut out, &mut valid, OnError::Raise, column::run_to_end);
        match first_bad {
            None => prop_assert_eq!(raised.unwrap(), nulls),
            Some(i) => {
                let err = raised.unwrap_err();
                let expected = parse::parse(rows[i].as_deref().unwrap()).unwrap_err();
                prop_assert_eq!(err.to_string(), format!("row {i}: {expected}"));
            }
        }
    }

    #[test]
    fn encode_and_decode_equal_the_scalar_functions(rows in uuid_rows(), which in 0..Encoding::ALL.len()) {
        let encoding = Encoding::ALL[which];
        let (n, width) = (rows.len(), encoding.len());
        let (mut text, mut valid) = (vec![b'?'; width * n], vec![false; n]);
        column::encode(rows.iter().copied(), encoding, &mut text, &mut valid, column::run_to_end).unwrap();
        for ((row, slot), ok) in rows.iter().zip(text.chunks(width)).zip(&valid) {
            prop_assert_eq!(row.is_some(), *ok);
            let expected = row.map_or_else(|| "\0".repeat(width), |u| encoding.encode(u));
            prop_assert_eq!(slot, expected.as_bytes());
        }
        // Back: every valid row decodes to its UUID; the zeroed null rows are not text of the
        // encoding, so they are errors (null under OnError::Null).
        let texts = text.chunks(width).zip(&valid).map(|(t, ok)| ok.then_some(t));
        let (mut out, mut back) = (vec![0xAA; 16 * n], vec![false; n]);
        let nulls = column::decode(texts.clone(), encoding, &mut out, &mut back, OnError::Raise, column::run_to_end).unwrap();
        prop_assert_eq!(nulls, rows.iter().filter(|r| r.is_none()).count());
        let decoded: Vec<Option<Uuid>> = column::records(&out).zip(&back).map(|(u, ok)| ok.then_some(u)).collect();
        prop_assert_eq!(&decoded, &rows);
        let raw = text.chunks(width).map(Some);
        match rows.iter().position(Option::is_none) {
            None => prop_assert_eq!(column::decode(raw, encoding, &mut out, &mut back, OnError::Raise, column::run_to_end).unwrap(), 0),
            Some(i) => {
                let err = column::decode(raw, encoding, &mut out, &mut back, OnError::Raise, column::run_to_end).unwrap_err();
                let expected = encoding.decode_ascii(&vec![0u8; width]).unwrap_err();
                prop_assert_eq!(err.to_string(), format!("row {i}: {expected}"));
            }
        }
    }

    #[test]
    fn mask_and_unmask_equal_the_scalar_functions(rows in uuid_rows(), key in any::<[u8; 16]>()) {
        // Most rows version 7 (the rest, of any version, are errors or nulls).
        let rows: Vec<Option<Uuid>> = rows.iter().enumerate()
            .map(|(i, r)| r.map(|u| if i % 4 == 3 { u } else { Uuid::with_version(u.as_u128(), 7) }))
            .collect();
        let n = rows.len();
        let (mut out, mut valid) = (vec![0u8; 16 * n], vec![false; n]);
        let nulls = column::mask_v7(rows.iter().copied(), &key, &mut out, &mut valid, OnError::Null, column::run_to_end).unwrap();
        let mut masked = 0;
        for ((row, u), ok) in rows.iter().zip(column::records(&out)).zip(&valid) {
            let expected = row.and_then(|r| mask::mask_v7(r, &key).ok());
            prop_assert_eq!(expected, ok.then_some(u));
            masked += usize::from(expected.is_some());
        }
        prop_assert_eq!(nulls, n - masked);
        let facades: Vec<Option<Uuid>> = column::records(&out).zip(&valid).map(|(u, ok)| ok.then_some(u)).collect();
        let mut back = vec![0u8; 16 * n];
        column::unmask_v7(facades.iter().copied(), &key, &mut back, &mut valid, OnError::Raise, column::run_to_end).unwrap();
        for ((row, u), ok) in rows.iter().zip(column::records(&back)).zip(&valid) {
            if *ok {
                prop_assert_eq!(Some(u), *row);
            }
        }
        if let Some(i) = rows.iter().position(|r| r.is_some_and(|u| u.version_number() != Some(7))) {
            let err = column::mask_v7(rows.iter().copied(), &key, &mut out, &mut valid, OnError::Raise, column::run_to_end).unwrap_err();
            prop_assert!(err.to_string().starts_with(&format!("row {i}: ")), "{}", err);
        }
    }

    #[test]
    fn name_based_equals_the_scalar_functions(
        names in prop::collection::vec(prop::option::weighted(0.9, prop::collection::vec(any::<u8>(), 0..80)), 0..30),
        ns in any::<u128>(),
        which in 0..8usize,
    ) {
        let algorithm = [
            Algorithm::Md5, Algorithm::Sha1, Algorithm::Sha256, Algorithm::Sha512,
            Algorithm::Sha3_256, Algorithm::Sha3_512, Algorithm::Shake128, Algorithm::Shake256,
        ][which];
        let ns = Uuid::from_u128(ns);
        let n = names.len();
        let (mut out, mut valid) = (vec![0xEE; 16 * n], vec![false; n]);
        let rows = names.iter().map(|r| r.as_deref());
        column::name_based(ns, algorithm, rows, &mut out, &mut valid, column::run_to_end).unwrap();
        for ((name, u), ok) in names.iter().zip(column::records(&out)).zip(&valid) {
            let scalar = name.as_deref().map(|name| match algorithm {
                Algorithm::Md5 => name::v3(ns, name),
                Algorithm::Sha1 => name::v5(ns, name),
                a => name::v8(ns, name, a),
            });
            prop_assert_eq!(scalar.is_some(), *ok);
            prop_assert_eq!(u, scalar.unwrap_or(Uuid::NIL));
        }
    }

    #[test]
    fn timestamps_equal_timestamp_unix_ns(rows in uuid_rows()) {
        let n = rows.len();
        let (mut out, mut valid) = (vec![-1; n], vec![false; n]);
        column::timestamps_ns(rows.iter().copied(), &mut out, &mut valid, OnError::Null, column::run_to_end).unwrap();
        for ((row, ns), ok) in rows.iter().zip(&out).zip(&valid) {
            let scalar = row
                .and_then(|u| u.timestamp_unix_ns().ok())
                .and_then(|ns| i64::try_from(ns).ok());
            prop_assert_eq!(scalar.is_some(), *ok);
            prop_assert_eq!(*ns, scalar.unwrap_or(0));
        }
    }
}
