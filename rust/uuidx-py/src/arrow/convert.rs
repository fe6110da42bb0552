//! Columns computed from columns: text parsed or decoded, UUIDs as text, masked and
//! unmasked v7s, timestamps.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, LargeStringArray, StringArray, TimestampNanosecondArray};
use arrow_buffer::ScalarBuffer;
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use uuidx_core::column;
use uuidx_core::encoding::Encoding;

use super::arrays::{kernel_column, ArrowColumn, UuidArray};
use super::buffers::{invalid, null_buffer, repeated_offsets, zeroed};
use super::input::{byte_chunks, on_error, uuid_chunks, uuid_column, RowValues, UuidChunks};
use crate::column_bytes::ColumnBytes;
use crate::ffi::errors::IntoPy;
use crate::signals::Checkpoint;

/// The UUID in each row of text, in the forms :func:`uuidx.parse` accepts (RFC 9562 §4:
/// hyphenated, 32 hex digits, ``{braced}``, ``urn:uuid:``; any case), so DuckDB's and
/// PostgreSQL's text forms parse as they come.
///
/// Args:
///     strings: A column of text: see :mod:`uuidx.arrow`.
///     errors: ``"raise"`` (default): the first bad row raises; ``"null"``: bad rows become
///         null. Null rows stay null either way.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     ValueError: a row is not a UUID (the message names its index, the text, shortened,
///         and the first problem), or ``errors`` is neither ``"raise"`` nor ``"null"``.
///     TypeError: ``strings`` is not a column of text, or an item of a sequence is not a
///         ``str`` or ``None``.
#[pyfunction]
#[pyo3(signature = (strings, errors=None, extension=true))]
pub(super) fn arrow_parse<'py>(
    strings: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    let py = strings.py();
    let on_error = on_error(errors)?;
    let chunks = byte_chunks(strings, "strings", RowValues::Text)?;
    kernel_column(py, chunks.len(), extension, |values, valid, checkpoint| {
        column::parse(chunks.rows(), values, valid, on_error, |_| {
            checkpoint.detached()
        })
    })
}

/// A :class:`UUIDArray` of ``uuids``: a sequence of ``uuid.UUID`` (``None`` for a null
/// row), or any Arrow ``FixedSizeBinary(16)`` array or stream (the chunks of a stream are
/// joined). A ``UUIDArray`` or a single Arrow array is shared, not copied.
///
/// Args:
///     uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     TypeError: ``uuids`` is not a column of UUIDs (wrong Arrow type or width, or neither
///         Arrow nor a sequence), or an item of a sequence is not a ``uuid.UUID`` or ``None``.
#[pyfunction]
#[pyo3(signature = (uuids, extension=true))]
pub(super) fn arrow_uuids<'py>(
    uuids: &Bound<'py, PyAny>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    let py = uuids.py();
    let UuidChunks(mut chunks) = uuid_chunks(uuids, "uuids")?;
    let array = if chunks.len() == 1 {
        chunks.swap_remove(0)
    } else {
        let len = chunks.iter().map(Array::len).sum();
        uuid_column(py, len, UuidChunks(chunks).rows().map(Ok), "uuids")?
    };
    UuidArray::create(py, array, extension)
}

/// The text of each UUID in `encoding` as an Arrow `string` column (`large_string` beyond
/// 2**31 - 1 bytes of text), written with the GIL released.
pub(super) fn text_column<'py>(
    uuids: &Bound<'py, PyAny>,
    encoding: Encoding,
) -> PyResult<Bound<'py, ArrowColumn>> {
    let py = uuids.py();
    let chunks = uuid_chunks(uuids, "uuids")?;
    let (len, width) = (chunks.len(), encoding.len());
    let size = width.checked_mul(len).ok_or_else(|| {
        crate::ffi::errors::error::<PyMemoryError>(format_args!(
            "cannot allocate text for {len} rows"
        ))
    })?;
    let mut text = ColumnBytes::zeroed(size, "text")?;
    let mut valid = zeroed::<bool>(len, "text")?;
    let nulls = py
        .detach(|| {
            let mut checkpoint = Checkpoint::new();
            column::encode(chunks.rows(), encoding, text.as_mut(), &mut valid, |_| {
                checkpoint.detached()
            })
        })
        .py_err()?;
    let nulls = if nulls > 0 {
        null_buffer(&valid, "text")?
    } else {
        None
    };
    drop(valid);
    let text = text.freeze();
    let array: ArrayRef = if i32::try_from(text.len()).is_ok() {
        let offsets = repeated_offsets::<i32>(width, len)?;
        Arc::new(StringArray::try_new(offsets, text, nulls).map_err(|e| invalid("result", &e))?)
    } else {
        let offsets = repeated_offsets::<i64>(width, len)?;
        Arc::new(
            LargeStringArray::try_new(offsets, text, nulls).map_err(|e| invalid("result", &e))?,
        )
    };
    Bound::new(py, ArrowColumn { array })
}

/// The hyphenated lower-case text of each UUID (``str(u)``, RFC 9562 §4) as an Arrow
/// ``string`` column (``large_string`` when the text exceeds 2**31 - 1 bytes, that is beyond
/// 59,652,323 rows); null rows stay null.
///
/// Args:
///     uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
///
/// Raises:
///     TypeError: ``uuids`` is not a column of UUIDs.
#[pyfunction]
pub(super) fn arrow_to_str<'py>(uuids: &Bound<'py, PyAny>) -> PyResult<Bound<'py, ArrowColumn>> {
    text_column(uuids, Encoding::Hyphenated)
}

/// Each UUID in the text encoding ``form``, row by row equal to :func:`uuidx.encode`, as
/// an Arrow ``string`` column (``large_string`` when the text exceeds 2**31 - 1 bytes); null
/// rows stay null.
///
/// Args:
///     uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
///     form: ``"hex"``, ``"hyphenated"``, ``"urn"``, ``"braced"``, ``"base32"``, ``"ulid"``,
///         ``"base32hex"``, ``"base58"``, ``"base62"`` or ``"base64url"`` (see
///         :func:`uuidx.encode`).
///
/// Raises:
///     TypeError: ``uuids`` is not a column of UUIDs, or ``form`` is not a str.
///     ValueError: ``form`` is not one of the names above.
#[pyfunction]
pub(super) fn arrow_encode<'py>(
    uuids: &Bound<'py, PyAny>,
    form: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, ArrowColumn>> {
    text_column(uuids, crate::encodings::form_arg(form)?)
}

/// The UUID in each row of text written in the encoding ``form``, row by row equal to
/// :func:`uuidx.decode` (the same lengths, alphabets and case rules).
///
/// Args:
///     strings: A column of text: see :mod:`uuidx.arrow`.
///     form: One of the names :func:`encode` takes.
///     errors: ``"raise"`` (default): the first bad row raises; ``"null"``: bad rows become
///         null. Null rows stay null either way.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     ValueError: a row is not a UUID in ``form`` (the message names its index, the text,
///         shortened, and the first problem with its position), ``form`` is unknown, or
///         ``errors`` is neither ``"raise"`` nor ``"null"``.
///     TypeError: ``strings`` is not a column of text, an item of a sequence is not a
///         ``str`` or ``None``, or ``form`` is not a str.
#[pyfunction]
#[pyo3(signature = (strings, form, errors=None, extension=true))]
pub(super) fn arrow_decode<'py>(
    strings: &Bound<'py, PyAny>,
    form: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    let py = strings.py();
    let encoding = crate::encodings::form_arg(form)?;
    let on_error = on_error(errors)?;
    let chunks = byte_chunks(strings, "strings", RowValues::Text)?;
    kernel_column(py, chunks.len(), extension, |values, valid, checkpoint| {
        column::decode(chunks.rows(), encoding, values, valid, on_error, |_| {
            checkpoint.detached()
        })
    })
}

/// Whether [`masked`] hides or reveals the time of version 7 UUIDs.
#[derive(Clone, Copy)]
pub(super) enum Mask {
    Hide,
    Reveal,
}

/// The UUIDv47 facades of `uuids` (`Mask::Hide`) or the version 7 UUIDs behind them
/// (`Mask::Reveal`), computed with the GIL released.
pub(super) fn masked<'py>(
    uuids: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
    extension: bool,
    mask: Mask,
) -> PyResult<Bound<'py, UuidArray>> {
    let py = uuids.py();
    let key = crate::mask_key(key)?;
    let on_error = on_error(errors)?;
    let chunks = uuid_chunks(uuids, "uuids")?;
    kernel_column(
        py,
        chunks.len(),
        extension,
        |values, valid, checkpoint| match mask {
            Mask::Hide => column::mask_v7(chunks.rows(), &key, values, valid, on_error, |_| {
                checkpoint.detached()
            }),
            Mask::Reveal => column::unmask_v7(chunks.rows(), &key, values, valid, on_error, |_| {
                checkpoint.detached()
            }),
        },
    )
}

/// The UUIDv47 facade of each version 7 UUID under ``key``, row by row equal to
/// :func:`uuidx.mask_v7`: what to show outside while the database keeps the v7 keys.
///
/// Args:
///     uuids: A column of version 7 UUIDs: see :mod:`uuidx.arrow`.
///     key: 16 bytes, kept secret.
///     errors: ``"raise"`` (default): a row that is not a version 7 UUID raises; ``"null"``:
///         such rows become null. Null rows stay null either way.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     ValueError: a row is not a version 7 UUID (the message names its index and the
///         UUID), ``key`` is not 16 bytes long, or ``errors`` is unknown.
///     TypeError: ``uuids`` is not a column of UUIDs, or ``key`` is not bytes-like.
#[pyfunction]
#[pyo3(signature = (uuids, key, errors=None, extension=true))]
pub(super) fn arrow_mask_v7<'py>(
    uuids: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    masked(uuids, key, errors, extension, Mask::Hide)
}

/// The version 7 UUID behind each UUIDv47 facade under ``key``, row by row equal to
/// :func:`uuidx.unmask_v7`.
///
/// Args:
///     uuids: A column of facades (version 4 UUIDs): see :mod:`uuidx.arrow`.
///     key: The 16 bytes :func:`mask_v7` used.
///     errors: ``"raise"`` (default): a row that is not a version 4 UUID raises; ``"null"``:
///         such rows become null. Null rows stay null either way.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     ValueError: a row is not a version 4 UUID (the message names its index and the
///         UUID), ``key`` is not 16 bytes long, or ``errors`` is unknown.
///     TypeError: ``uuids`` is not a column of UUIDs, or ``key`` is not bytes-like.
#[pyfunction]
#[pyo3(signature = (uuids, key, errors=None, extension=true))]
pub(super) fn arrow_unmask_v7<'py>(
    uuids: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    masked(uuids, key, errors, extension, Mask::Reveal)
}

/// The time in each version 1, 6 and 7 UUID (RFC 9562 §5.1, §5.6, §5.7, §6.1) as an Arrow
/// ``timestamp[ns, tz=UTC]`` column; rows of other versions (and Nil, Max, other variants)
/// and null rows are null. ``ArrowArray.to_pylist()`` gives ints, the values
/// :func:`uuidx.timestamp_ns` returns.
///
/// Nanoseconds in an ``int64`` reach from 1677-09-21 to 2262-04-11; a v1 or v6 timestamp can
/// lie from 1582 to 5236 and a v7 one up to the year 10889. Such a row raises by default,
/// rather than being confused with a row that has no timestamp.
///
/// Args:
///     uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
///     errors: ``"raise"`` (default): a timestamp outside the ``int64`` range raises;
///         ``"null"``: such rows become null.
///
/// Raises:
///     ValueError: a timestamp outside the range (the message names the row, the
///         nanoseconds and the UUID), or ``errors`` is neither ``"raise"`` nor ``"null"``.
///     TypeError: ``uuids`` is not a column of UUIDs.
#[pyfunction]
#[pyo3(signature = (uuids, errors=None))]
pub(super) fn arrow_timestamp_ns<'py>(
    uuids: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, ArrowColumn>> {
    let py = uuids.py();
    let on_error = on_error(errors)?;
    let chunks = uuid_chunks(uuids, "uuids")?;
    let len = chunks.len();
    let mut times = zeroed::<i64>(len, "timestamps")?;
    let mut valid = zeroed::<bool>(len, "timestamps")?;
    let nulls = py
        .detach(|| {
            let mut checkpoint = Checkpoint::new();
            column::timestamps_ns(chunks.rows(), &mut times, &mut valid, on_error, |_| {
                checkpoint.detached()
            })
        })
        .py_err()?;
    let nulls = if nulls > 0 {
        null_buffer(&valid, "timestamps")?
    } else {
        None
    };
    let array = TimestampNanosecondArray::try_new(ScalarBuffer::from(times), nulls)
        .map_err(|e| invalid("result", &e))?
        .with_timezone("UTC");
    Bound::new(
        py,
        ArrowColumn {
            array: Arc::new(array),
        },
    )
}
