//! Column kernels: one operation over many rows at once, for columnar data (Arrow arrays,
//! dataframes, batches of database rows).
//!
//! - [`parse`]: text rows to UUIDs, in the forms [`crate::parse`] accepts ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4));
//! - [`encode`] and [`decode`]: UUIDs to and from text in any [`Encoding`] (the hyphenated
//!   form of [RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4) among them);
//! - [`name_based`]: name rows to version 3, 5 or name-based 8 UUIDs ([RFC 9562 §5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3), [§5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5),
//!   [Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2));
//! - [`mask_v7`] and [`unmask_v7`]: version 7 UUIDs to and from their UUIDv47 facades;
//! - [`timestamps_ns`]: the time in version 1, 6 and 7 UUIDs as `i64` nanoseconds since 1970
//!   ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1), [§5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6), [§5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7), [§6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1)).
//!
//! No columnar format is assumed. Rows come in as an iterator of `Option`s, `None` being a null
//! row; a column of UUIDs stored as 16-byte big-endian records reads through [`records`].
//! Results go into slices the caller allocates, one slot per row, and one `bool` per row that
//! says whether the row holds a value. Each kernel returns the number of null rows, and zeroes
//! the slot of every null row. A row that cannot be converted either stops the kernel with an
//! error that names its index ([`ErrorKind::Row`], under [`OnError::Raise`]) or becomes a null
//! row ([`OnError::Null`]).
//!
//! # Progress
//! A kernel may run for seconds over a large column. Between blocks of [`CHECKPOINT_ROWS`]
//! rows it calls its `progress` callback with the number of rows done; an error from the
//! callback stops the kernel, which returns that error unchanged (a binding stops on a pending
//! signal that way, say). [`run_to_end`] never stops. The callback costs nothing per row.
//!
//! # Examples
//! ```
//! use uuidx_core::column::{self, OnError};
//! let rows = [Some(&b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"[..]), None, Some(b"nope")];
//! let (mut out, mut valid) = (vec![0u8; 16 * 3], vec![false; 3]);
//! let nulls = column::parse(rows, &mut out, &mut valid, OnError::Null, column::run_to_end).unwrap();
//! assert_eq!((nulls, valid), (2, vec![true, false, false]));
//! let err = column::parse(rows, &mut out, &mut vec![false; 3], OnError::Raise, column::run_to_end)
//!     .unwrap_err();
//! assert!(err.to_string().starts_with("row 2: invalid UUID string \"nope\""));
//! ```

use crate::encoding::Encoding;
use crate::error::shorten;
use crate::mask;
use crate::name::{self, Algorithm};
use crate::{Error, ErrorKind, Result, Uuid};

/// Bytes of one UUID record: its 16 octets in network order ([RFC 9562 §4](https://www.rfc-editor.org/rfc/rfc9562#section-4)).
pub const RECORD_LEN: usize = 16;

/// The rows a kernel converts between two calls of its `progress` callback: a few
/// milliseconds of work at most for the costliest kernel (hashing long names).
pub const CHECKPOINT_ROWS: usize = 4096;

/// A `progress` callback that never stops a kernel.
///
/// # Errors
/// Never.
pub fn run_to_end(_rows_done: usize) -> Result<()> {
    Ok(())
}

/// The range of [`timestamps_ns`]'s output, for messages: what `i64` nanoseconds since 1970
/// can hold.
const NS_RANGE: &str = "i64 nanoseconds since 1970 (1677-09-21 to 2262-04-11)";

/// What a column kernel does with a row it cannot convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnError {
    /// Stop with an error naming the row ([`ErrorKind::Row`]).
    Raise,
    /// Make the row null and go on.
    Null,
}

impl OnError {
    /// The option's names, as the bindings spell them: `"raise"` and `"null"`.
    pub const NAMES: [&'static str; 2] = ["raise", "null"];

    /// The policy named `name` (exact, lower case).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for any other name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "raise" => Ok(Self::Raise),
            "null" => Ok(Self::Null),
            _ => Err(Error::new(ErrorKind::InvalidOption {
                option: "errors",
                value: format!("{:?}", shorten(name)),
                expected: "'raise' or 'null'",
            })),
        }
    }

    /// The name of the policy.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Raise => "raise",
            Self::Null => "null",
        }
    }
}

/// The UUIDs of a buffer of 16-byte big-endian records, in order (a trailing partial record
/// is ignored).
///
/// # Examples
/// ```
/// use uuidx_core::{column, Uuid};
/// let buffer = [Uuid::NIL.to_bytes(), Uuid::MAX.to_bytes()].concat();
/// assert_eq!(column::records(&buffer).collect::<Vec<_>>(), [Uuid::NIL, Uuid::MAX]);
/// ```
pub fn records(buffer: &[u8]) -> impl ExactSizeIterator<Item = Uuid> + '_ {
    buffer.chunks_exact(RECORD_LEN).map(|record| {
        let mut octets = [0u8; RECORD_LEN];
        octets.copy_from_slice(record);
        Uuid::from_bytes(octets)
    })
}

/// The one loop behind every kernel: for each row and its slot, `convert` writes the slot and
/// returns `Ok(true)`, or returns `Ok(false)` to make the row null; a null input row is null
/// without a call. Null rows get `clear`ed slots and `false` in `valid`. Errors from `convert`
/// are labelled with the row's index. The rows must be exactly as many as the slots.
/// `progress` is called between blocks of [`CHECKPOINT_ROWS`] rows (outside the loop over
/// the rows of a block, so the rows pay nothing for it).
fn each_row<'s, R, S: ?Sized + 's>(
    rows: impl IntoIterator<Item = Option<R>>,
    mut slots: impl ExactSizeIterator<Item = &'s mut S>,
    valid: &mut [bool],
    mut convert: impl FnMut(R, &mut S) -> Result<bool>,
    clear: impl Fn(&mut S),
    mut progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    let expected = valid.len();
    if slots.len() != expected {
        return Err(Error::invalid_length(
            "the output of a column kernel, in rows",
            expected,
            slots.len(),
        ));
    }
    let mut rows = rows.into_iter();
    let mut nulls = 0;
    let mut index = 0;
    for block in valid.chunks_mut(CHECKPOINT_ROWS) {
        if index > 0 {
            progress(index)?;
        }
        for (is_valid, slot) in block.iter_mut().zip(&mut slots) {
            let Some(row) = rows.next() else {
                return Err(Error::invalid_length("a column, in rows", expected, index));
            };
            let written = match row {
                Some(row) => convert(row, slot).map_err(|e| e.at_row(index))?,
                None => false,
            };
            if !written {
                clear(slot);
                nulls += 1;
            }
            *is_valid = written;
            index += 1;
        }
    }
    let extra = rows.count();
    if extra > 0 {
        return Err(Error::invalid_length(
            "a column, in rows",
            expected,
            expected + extra,
        ));
    }
    Ok(nulls)
}

/// Writes the UUID each row becomes (`convert`) as a 16-byte record into `out`: the loop of
/// every kernel whose output is UUIDs. A row `convert` refuses is an error under
/// [`OnError::Raise`] and a null row under [`OnError::Null`].
fn uuid_rows<R>(
    rows: impl IntoIterator<Item = Option<R>>,
    out: &mut [u8],
    valid: &mut [bool],
    on_error: OnError,
    mut convert: impl FnMut(R) -> Result<Uuid>,
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    each_row(
        rows,
        out.chunks_exact_mut(RECORD_LEN),
        valid,
        |row, slot| match convert(row) {
            Ok(u) => {
                slot.copy_from_slice(&u.to_bytes());
                Ok(true)
            }
            Err(_) if on_error == OnError::Null => Ok(false),
            Err(err) => Err(err),
        },
        zero,
        progress,
    )
}

/// Parses each text row (as [`crate::parse::parse`] does: hyphenated, 32 hex digits, braced or
/// URN, any case) into a 16-byte record of `out`.
///
/// `out` holds `16 * valid.len()` bytes. Rows that are not UTF-8 are parsed as bytes.
///
/// # Errors
/// [`ErrorKind::Row`] wrapping [`ErrorKind::Parse`] for the first bad row under
/// [`OnError::Raise`] (positions in characters, as for a single string);
/// [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree on the count; the
/// error of `progress` (see [Progress](self#progress)).
pub fn parse<'a>(
    rows: impl IntoIterator<Item = Option<&'a [u8]>>,
    out: &mut [u8],
    valid: &mut [bool],
    on_error: OnError,
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    let convert = |text: &[u8]| {
        crate::parse::parse_ascii(text).map_err(|err| match on_error {
            // Report as for a str: positions in characters, not bytes.
            OnError::Raise => core::str::from_utf8(text)
                .ok()
                .and_then(|s| crate::parse::parse(s).err())
                .unwrap_or(err),
            OnError::Null => err,
        })
    };
    uuid_rows(rows, out, valid, on_error, convert, progress)
}

/// Decodes each text row in `encoding` (as [`Encoding::decode_ascii`] does) into a 16-byte
/// record of `out`.
///
/// `out` holds `16 * valid.len()` bytes.
///
/// # Errors
/// [`ErrorKind::Row`] wrapping [`ErrorKind::Decode`] for the first bad row under
/// [`OnError::Raise`]; [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree
/// on the count; the error of `progress` (see [Progress](self#progress)).
///
/// # Examples
/// ```
/// use uuidx_core::column::{self, run_to_end, OnError};
/// use uuidx_core::encoding::Encoding;
/// let rows = [Some(&b"01H455VB4PEX5VSKNK084SN02Q"[..]), None, Some(b"01H455VB4PEX5VSKNK084SN02U")];
/// let (mut out, mut valid) = (vec![0u8; 16 * 3], vec![false; 3]);
/// let err = column::decode(rows, Encoding::Ulid, &mut out, &mut valid, OnError::Raise, run_to_end)
///     .unwrap_err();
/// assert!(err.to_string().starts_with("row 2: "), "{err}");
/// let nulls = column::decode(rows, Encoding::Ulid, &mut out, &mut valid, OnError::Null, run_to_end)
///     .unwrap();
/// assert_eq!((nulls, valid), (2, vec![true, false, false]));
/// assert_eq!(column::records(&out).next(), Some(Encoding::Ulid.decode("01H455VB4PEX5VSKNK084SN02Q").unwrap()));
/// ```
pub fn decode<'a>(
    rows: impl IntoIterator<Item = Option<&'a [u8]>>,
    encoding: Encoding,
    out: &mut [u8],
    valid: &mut [bool],
    on_error: OnError,
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    uuid_rows(
        rows,
        out,
        valid,
        on_error,
        |text| encoding.decode_ascii(text),
        progress,
    )
}

/// Writes each UUID row in `encoding` ([`Encoding::encode_into`]) into the slots of `out`,
/// [`Encoding::len`] bytes each; null rows are zero bytes.
///
/// `out` holds `encoding.len() * valid.len()` bytes.
///
/// # Errors
/// [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree on the count; the
/// error of `progress` (see [Progress](self#progress)).
///
/// # Examples
/// ```
/// use uuidx_core::column;
/// use uuidx_core::encoding::Encoding;
/// let (mut out, mut valid) = (vec![0u8; 22 * 2], vec![false; 2]);
/// let rows = [Some(uuidx_core::Uuid::MAX), None];
/// column::encode(rows, Encoding::Base62, &mut out, &mut valid, column::run_to_end).unwrap();
/// assert_eq!(&out[..22], b"7n42DGM5Tflk9n8mt7Fhc7");
/// assert_eq!((&out[22..], valid), (&[0u8; 22][..], vec![true, false]));
/// ```
pub fn encode(
    rows: impl IntoIterator<Item = Option<Uuid>>,
    encoding: Encoding,
    out: &mut [u8],
    valid: &mut [bool],
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    each_row(
        rows,
        out.chunks_exact_mut(encoding.len()),
        valid,
        |u, slot| {
            encoding.encode_into(u, slot);
            Ok(true)
        },
        zero,
        progress,
    )
}

/// The name-based UUID of each name row under `namespace`, into a 16-byte record of `out`:
/// version 3 for [`Algorithm::Md5`] ([RFC 9562 §5.3](https://www.rfc-editor.org/rfc/rfc9562#section-5.3)), version 5 for [`Algorithm::Sha1`]
/// ([§5.5](https://www.rfc-editor.org/rfc/rfc9562#section-5.5)), name-based version 8 for the others ([Appendix B.2](https://www.rfc-editor.org/rfc/rfc9562#appendix-B.2)); the same UUIDs as
/// [`name::v3`], [`name::v5`] and [`name::v8`], row by row.
///
/// `out` holds `16 * valid.len()` bytes.
///
/// # Errors
/// [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree on the count; the
/// error of `progress` (see [Progress](self#progress)).
///
/// # Examples
/// ```
/// use uuidx_core::column;
/// use uuidx_core::name::{self, Algorithm};
/// let (mut out, mut valid) = (vec![0u8; 16], vec![false]);
/// column::name_based(name::NAMESPACE_DNS, Algorithm::Sha1, [Some(&b"www.example.com"[..])],
///     &mut out, &mut valid, column::run_to_end).unwrap();
/// assert_eq!(column::records(&out).next(), Some(name::v5(name::NAMESPACE_DNS, b"www.example.com")));
/// ```
pub fn name_based<'a>(
    namespace: Uuid,
    algorithm: Algorithm,
    rows: impl IntoIterator<Item = Option<&'a [u8]>>,
    out: &mut [u8],
    valid: &mut [bool],
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    let convert = |name: &[u8]| {
        Ok(match algorithm {
            Algorithm::Md5 => name::v3(namespace, name),
            Algorithm::Sha1 => name::v5(namespace, name),
            other => name::v8(namespace, name, other),
        })
    };
    uuid_rows(rows, out, valid, OnError::Raise, convert, progress)
}

/// The UUIDv47 facade ([`mask::mask_v7`]) of each version 7 UUID row under `key`, into a
/// 16-byte record of `out`.
///
/// `out` holds `16 * valid.len()` bytes.
///
/// # Errors
/// [`ErrorKind::Row`] wrapping [`ErrorKind::WrongVersion`] for the first row that is not a
/// version 7 UUID under [`OnError::Raise`] (a null row under [`OnError::Null`]);
/// [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree on the count; the
/// error of `progress` (see [Progress](self#progress)).
///
/// # Examples
/// ```
/// use uuidx_core::{column::{self, run_to_end, OnError}, mask, Uuid};
/// let key = *b"0123456789abcdef";
/// let v7: Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
/// let (mut out, mut valid) = (vec![0u8; 32], vec![false; 2]);
/// let rows = [Some(v7), Some(Uuid::MAX)];
/// let err = column::mask_v7(rows, &key, &mut out, &mut valid, OnError::Raise, run_to_end)
///     .unwrap_err();
/// assert!(err.to_string().starts_with("row 1: "), "{err}");
/// column::mask_v7([Some(v7), None], &key, &mut out, &mut valid, OnError::Raise, run_to_end)
///     .unwrap();
/// assert_eq!(column::records(&out).next(), Some(mask::mask_v7(v7, &key).unwrap()));
/// ```
pub fn mask_v7(
    rows: impl IntoIterator<Item = Option<Uuid>>,
    key: &[u8; 16],
    out: &mut [u8],
    valid: &mut [bool],
    on_error: OnError,
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    uuid_rows(
        rows,
        out,
        valid,
        on_error,
        |u| mask::mask_v7(u, key),
        progress,
    )
}

/// The version 7 UUID behind each UUIDv47 facade row under `key` ([`mask::unmask_v7`]), into
/// a 16-byte record of `out`.
///
/// `out` holds `16 * valid.len()` bytes.
///
/// # Errors
/// [`ErrorKind::Row`] wrapping [`ErrorKind::WrongVersion`] for the first row that is not a
/// version 4 UUID under [`OnError::Raise`] (a null row under [`OnError::Null`]);
/// [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree on the count; the
/// error of `progress` (see [Progress](self#progress)).
pub fn unmask_v7(
    rows: impl IntoIterator<Item = Option<Uuid>>,
    key: &[u8; 16],
    out: &mut [u8],
    valid: &mut [bool],
    on_error: OnError,
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    uuid_rows(
        rows,
        out,
        valid,
        on_error,
        |u| mask::unmask_v7(u, key),
        progress,
    )
}

/// The timestamp of each UUID row as nanoseconds since 1970 ([RFC 9562 §6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1): v1 and v6 in
/// 100-ns ticks since 1582, v7 in milliseconds since 1970), into `out`.
///
/// Rows of other versions (and Nil, Max, non-RFC variants) are null. A timestamp outside
/// `i64` nanoseconds, 1677-09-21 to 2262-04-11 (v1 and v6 reach from 1582 to 5236, v7 to
/// 10889), is an error under [`OnError::Raise`] and null under [`OnError::Null`].
///
/// # Errors
/// [`ErrorKind::Row`] wrapping [`ErrorKind::TimestampOutOfRange`] for the first such row under
/// [`OnError::Raise`]; [`ErrorKind::InvalidLength`] when the rows, `out` and `valid` disagree
/// on the count; the error of `progress` (see [Progress](self#progress)).
pub fn timestamps_ns(
    rows: impl IntoIterator<Item = Option<Uuid>>,
    out: &mut [i64],
    valid: &mut [bool],
    on_error: OnError,
    progress: impl FnMut(usize) -> Result<()>,
) -> Result<usize> {
    each_row(
        rows,
        out.iter_mut(),
        valid,
        |u, slot| {
            let Some(ns) = u.unix_ns() else {
                return Ok(false);
            };
            match (i64::try_from(ns), on_error) {
                (Ok(ns), _) => {
                    *slot = ns;
                    Ok(true)
                }
                (Err(_), OnError::Null) => Ok(false),
                (Err(_), OnError::Raise) => Err(Error::new(ErrorKind::TimestampOutOfRange {
                    layout: NS_RANGE,
                    value: format!("{ns} ns since 1970 (in UUID {u})"),
                })),
            }
        },
        |slot| *slot = 0,
        progress,
    )
}

/// Clears the slot of a null row.
fn zero(slot: &mut [u8]) {
    slot.fill(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout;

    const CANON: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";

    fn run_parse(rows: &[Option<&str>], on_error: OnError) -> Result<(Vec<u8>, Vec<bool>, usize)> {
        let mut out = vec![0xAA; 16 * rows.len()];
        let mut valid = vec![true; rows.len()];
        let nulls = parse(
            rows.iter().map(|r| r.map(str::as_bytes)),
            &mut out,
            &mut valid,
            on_error,
            run_to_end,
        )?;
        Ok((out, valid, nulls))
    }

    #[test]
    fn parse_rows_like_the_scalar_parser() {
        let upper = CANON.to_uppercase();
        let urn = format!("urn:uuid:{CANON}");
        let rows = [Some(CANON), None, Some(upper.as_str()), Some(urn.as_str())];
        let (out, valid, nulls) = run_parse(&rows, OnError::Raise).unwrap();
        assert_eq!(nulls, 1);
        assert_eq!(valid, [true, false, true, true]);
        let expected = crate::parse::parse(CANON).unwrap();
        let got: Vec<Uuid> = records(&out).collect();
        assert_eq!(
            got,
            [expected, Uuid::NIL, expected, expected],
            "null rows are zeroed"
        );
    }

    #[test]
    fn parse_errors_name_the_row_or_become_null() {
        let rows = [
            Some(CANON),
            Some("f81d4fae-7dec-11d0-a765-00a0c91e6bfé"),
            Some("x"),
        ];
        let err = run_parse(&rows, OnError::Raise).unwrap_err();
        let ErrorKind::Row { index, error } = err.kind() else {
            panic!("{err:?}")
        };
        assert_eq!(*index, 1);
        // Positions count characters, as for one string.
        assert_eq!(**error, crate::parse::parse(rows[1].unwrap()).unwrap_err());
        assert!(
            err.to_string().starts_with("row 1: invalid UUID string"),
            "{err}"
        );
        let (_, valid, nulls) = run_parse(&rows, OnError::Null).unwrap();
        assert_eq!((valid, nulls), (vec![true, false, false], 2));
        // Bytes that are not UTF-8 are reported as well.
        let mut out = [0u8; 16];
        let err = parse(
            [Some(&[0xFF_u8; 36][..])],
            &mut out,
            &mut [false],
            OnError::Raise,
            run_to_end,
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("row 0: invalid UUID string"),
            "{err}"
        );
    }

    #[test]
    fn row_counts_must_agree() {
        let mut out = [0u8; 32];
        let one = [Some(CANON.as_bytes())];
        let three = [Some(CANON.as_bytes()); 3];
        for err in [
            parse(one, &mut out, &mut [false; 2], OnError::Raise, run_to_end).unwrap_err(),
            parse(three, &mut out, &mut [false; 2], OnError::Raise, run_to_end).unwrap_err(),
            parse(one, &mut out, &mut [false; 1], OnError::Raise, run_to_end).unwrap_err(),
        ] {
            assert!(
                matches!(err.kind(), ErrorKind::InvalidLength { .. }),
                "{err}"
            );
        }
        assert_eq!(
            parse([], &mut [], &mut [], OnError::Raise, run_to_end).unwrap(),
            0,
            "an empty column is fine"
        );
    }

    #[test]
    fn hyphenated_rows_round_trip() {
        let values = [layout::v4::new(), Uuid::MAX, Uuid::NIL];
        let rows = [Some(values[0]), None, Some(values[1]), Some(values[2])];
        let mut out = vec![b'?'; 36 * rows.len()];
        let mut valid = vec![false; rows.len()];
        let nulls = encode(rows, Encoding::Hyphenated, &mut out, &mut valid, run_to_end).unwrap();
        assert_eq!(nulls, 1);
        assert_eq!(valid, [true, false, true, true]);
        let texts: Vec<&[u8]> = out.chunks(36).collect();
        assert_eq!(texts[0], crate::encoding::hex::hyphenated(values[0], false));
        assert_eq!(texts[1], [0u8; 36]);
        assert_eq!(texts[2], b"ffffffff-ffff-ffff-ffff-ffffffffffff");
        let back = run_parse(
            &texts
                .iter()
                .map(|t| core::str::from_utf8(t).ok())
                .collect::<Vec<_>>(),
            OnError::Null,
        )
        .unwrap();
        assert_eq!(back.2, 1);
    }

    #[test]
    fn name_based_rows_equal_the_scalar_functions() {
        let names: [&[u8]; 3] = [b"www.example.com", b"", "\u{e9}t\u{e9}".as_bytes()];
        let ns = name::NAMESPACE_URL;
        for algorithm in [Algorithm::Md5, Algorithm::Sha1, Algorithm::Sha3_256] {
            let mut out = vec![0u8; 16 * 4];
            let mut valid = vec![false; 4];
            let rows = names.iter().map(|&n| Some(n)).chain([None]);
            assert_eq!(
                name_based(ns, algorithm, rows, &mut out, &mut valid, run_to_end).unwrap(),
                1
            );
            let got: Vec<Uuid> = records(&out).collect();
            for (name, u) in names.iter().zip(&got) {
                let scalar = match algorithm {
                    Algorithm::Md5 => name::v3(ns, name),
                    Algorithm::Sha1 => name::v5(ns, name),
                    a => name::v8(ns, name, a),
                };
                assert_eq!(*u, scalar, "{algorithm:?} {name:?}");
            }
            assert_eq!(got[3], Uuid::NIL);
        }
    }

    #[test]
    fn timestamps_for_time_based_versions_only() {
        let v7 = layout::v7::new(1_645_557_742_000, 0, 0).unwrap();
        let v1 = layout::v1::new(0x1EC_9414_C232_AB00, 0, 0).unwrap();
        let v6 = layout::v6::from_v1(v1).unwrap();
        let rows = [
            Some(v7),
            Some(v1),
            Some(v6),
            Some(layout::v4::new()),
            Some(Uuid::NIL),
            None,
        ];
        let mut out = vec![-1; rows.len()];
        let mut valid = vec![false; rows.len()];
        let nulls = timestamps_ns(rows, &mut out, &mut valid, OnError::Raise, run_to_end).unwrap();
        assert_eq!(nulls, 3);
        assert_eq!(valid, [true, true, true, false, false, false]);
        assert_eq!(out[0], 1_645_557_742_000_000_000);
        assert_eq!(i128::from(out[1]), v1.timestamp_unix_ns().unwrap());
        assert_eq!(out[1], out[2]);
        assert_eq!(&out[3..], [0, 0, 0]);
    }

    #[test]
    fn timestamps_outside_i64_nanoseconds() {
        // The first and last instants that fit, then one step beyond each.
        let v7_last = layout::v7::new(9_223_372_036_854, 0, 0).unwrap(); // 2262-04-11
        let v7_beyond = layout::v7::new(9_223_372_036_855, 0, 0).unwrap();
        let v1_1582 = layout::v1::new(0, 0, 0).unwrap();
        let rows = [Some(v7_last), Some(v7_beyond), Some(v1_1582)];
        let mut out = [0i64; 3];
        let mut valid = [false; 3];
        let err =
            timestamps_ns(rows, &mut out, &mut valid, OnError::Raise, run_to_end).unwrap_err();
        let message = err.to_string();
        assert!(
            message.starts_with("row 1: timestamp 9223372036855000000 ns"),
            "{message}"
        );
        assert!(message.contains(&v7_beyond.to_string()), "{message}");
        assert!(message.contains("2262-04-11"), "{message}");
        let nulls = timestamps_ns(rows, &mut out, &mut valid, OnError::Null, run_to_end).unwrap();
        assert_eq!((nulls, valid), (2, [true, false, false]));
        assert_eq!(out[0], 9_223_372_036_854_000_000);
    }

    #[test]
    fn progress_is_called_between_blocks_and_stops_the_kernel() {
        let n = 2 * CHECKPOINT_ROWS + 1;
        let rows = || (0..n).map(|i| Some(Uuid::from_u128(i as u128)));
        let (mut out, mut valid) = (vec![0u8; 36 * n], vec![false; n]);
        let mut calls = Vec::new();
        let record = |done: usize| {
            calls.push(done);
            Ok(())
        };
        encode(rows(), Encoding::Hyphenated, &mut out, &mut valid, record).unwrap();
        assert_eq!(calls, [CHECKPOINT_ROWS, 2 * CHECKPOINT_ROWS]);
        // An error of the callback stops the kernel, unchanged: the rows after are not done.
        let (mut out, mut valid) = (vec![0u8; 36 * n], vec![false; n]);
        let stop = |done: usize| {
            if done == CHECKPOINT_ROWS {
                Err(Error::invalid_length("stop", 1, 2))
            } else {
                Ok(())
            }
        };
        let err = encode(rows(), Encoding::Hyphenated, &mut out, &mut valid, stop).unwrap_err();
        assert_eq!(err, Error::invalid_length("stop", 1, 2));
        assert!(valid[..CHECKPOINT_ROWS].iter().all(|&v| v));
        assert!(!valid[CHECKPOINT_ROWS]);
        // One block exactly: no call; rows keep their indices across blocks.
        let mut none = |_: usize| -> Result<()> { panic!("called") };
        let (mut out, mut valid) = (
            vec![0u8; 16 * CHECKPOINT_ROWS],
            vec![false; CHECKPOINT_ROWS],
        );
        let texts = vec![Some(&b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"[..]); CHECKPOINT_ROWS];
        parse(
            texts.iter().copied(),
            &mut out,
            &mut valid,
            OnError::Raise,
            &mut none,
        )
        .unwrap();
        let mut texts = vec![Some(&b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"[..]); n];
        texts[CHECKPOINT_ROWS + 5] = Some(b"nope");
        let (mut out, mut valid) = (vec![0u8; 16 * n], vec![false; n]);
        let err = parse(texts, &mut out, &mut valid, OnError::Raise, run_to_end).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("row {}: ", CHECKPOINT_ROWS + 5)),
            "{err}"
        );
    }

    #[test]
    fn error_policy_names() {
        for name in OnError::NAMES {
            assert_eq!(OnError::from_name(name).unwrap().name(), name);
        }
        let err = OnError::from_name("ignore").unwrap_err();
        assert!(err.to_string().contains("\"ignore\""), "{err}");
    }
}
