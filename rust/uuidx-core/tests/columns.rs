//! Property tests of the column kernels (`uuidx_core::column`): each one, row by row, equals
//! the scalar function it batches (parse, format, name-based hashing, timestamps), with null
//! rows kept null and zeroed.

use proptest::prelude::*;
use uuidx_core::column::{self, OnError};
use uuidx_core::name::{self, Algorithm};
use uuidx_core::{format, parse, Uuid};

/// Rows of UUIDs, some null, built from arbitrary 128-bit values (every version and variant).
fn uuid_rows() -> impl Strategy<Value = Vec<Option<Uuid>>> {
    prop::collection::vec(prop::option::weighted(0.9, any::<u128>()), 0..40)
        .prop_map(|rows| rows.into_iter().map(|r| r.map(Uuid::from_u128)).collect())
}

/// Text rows: canonical forms of random UUIDs, and arbitrary strings (mostly not UUIDs).
fn text_rows() -> impl Strategy<Value = Vec<Option<String>>> {
    let text = prop_oneof![
        any::<u128>().prop_map(|x| Uuid::from_u128(x).to_string()),
        any::<u128>().prop_map(|x| format::encode(Uuid::from_u128(x), format::Format::Urn, true)),
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
        let nulls = column::parse(bytes(), &mut out, &mut valid, OnError::Null).unwrap();
        prop_assert_eq!(nulls, valid.iter().filter(|v| !**v).count());
        for ((row, u), ok) in rows.iter().zip(column::records(&out)).zip(&valid) {
            let scalar = row.as_deref().and_then(|s| parse::parse(s).ok());
            prop_assert_eq!(scalar.is_some(), *ok);
            prop_assert_eq!(u, scalar.unwrap_or(Uuid::NIL));
        }
        // Under Raise, the first bad row is the error's row, with the scalar parser's message.
        let first_bad = rows.iter().position(|r| r.as_deref().is_some_and(|s| parse::parse(s).is_err()));
        let raised = column::parse(bytes(), &mut out, &mut valid, OnError::Raise);
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
    fn hyphenated_equals_to_string(rows in uuid_rows()) {
        let n = rows.len();
        let (mut out, mut valid) = (vec![b'?'; 36 * n], vec![false; n]);
        column::hyphenated(rows.iter().copied(), &mut out, &mut valid).unwrap();
        for ((row, text), ok) in rows.iter().zip(out.chunks(36)).zip(&valid) {
            prop_assert_eq!(row.is_some(), *ok);
            let expected = row.map_or_else(|| "\0".repeat(36), |u| u.to_string());
            prop_assert_eq!(text, expected.as_bytes());
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
        column::name_based(ns, algorithm, rows, &mut out, &mut valid).unwrap();
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
        column::timestamps_ns(rows.iter().copied(), &mut out, &mut valid, OnError::Null).unwrap();
        for ((row, ns), ok) in rows.iter().zip(&out).zip(&valid) {
            let scalar = row
                .and_then(|u| u.timestamp_unix_ns().ok())
                .and_then(|ns| i64::try_from(ns).ok());
            prop_assert_eq!(scalar.is_some(), *ok);
            prop_assert_eq!(*ns, scalar.unwrap_or(0));
        }
    }
}
