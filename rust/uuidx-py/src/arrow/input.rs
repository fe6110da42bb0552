//! Columns coming in: a `UUIDArray` or `ArrowArray` of this module, an Arrow array or
//! stream (imported and validated by `ffi/arrow_import.rs`, as `ffi::Validated` chunks), or a
//! Python sequence of rows.

use std::borrow::Cow;

use arrow_array::{Array, FixedSizeBinaryArray, LargeBinaryArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PySequence, PyString};
use uuidx_core::column::{self, OnError, RECORD_LEN};
use uuidx_core::Uuid;

use super::arrays::{describe, ArrowColumn, UuidArray, UUID_EXTENSION, UUID_TYPE};
use super::buffers::{and_nulls, invalid, mapped, no_memory, null_buffer, zeroed};
use crate::column_bytes::ColumnBytes;
use crate::convert::{host_text, str_arg, type_error};
use crate::ffi;
use crate::ffi::errors::{cannot_allocate, IntoPy};
use crate::repr::{short_repr, type_name};
use crate::signals;

/// What `obj` is as a column.
pub(super) enum Import {
    /// Not an Arrow object (no `__arrow_c_array__` or `__arrow_c_stream__`).
    NotArrow,
    /// An Arrow column of a type the caller does not accept (its data left unread).
    Rejected(Field),
    /// An Arrow column of an accepted type: its field and chunks, validated.
    Accepted(Field, Vec<ffi::Validated>),
}

/// The Arrow column `obj` exports, if it exports one: `__arrow_c_array__` first (one array),
/// else `__arrow_c_stream__` (every chunk, read to the end). A table of one column (a record
/// batch, a table's stream: a struct of one field) stands for that column. Data is read only
/// when `accept` accepts the column's field.
pub(super) fn import(
    obj: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&Field) -> bool,
) -> PyResult<Import> {
    let accept_column = |f: &Field| accept(f) || only_column(f).is_some_and(&accept);
    match import_any(obj, what, accept_column)? {
        Import::Accepted(field, chunks) if !accept(&field) => {
            let column = only_column(&field).cloned().unwrap_or(field);
            let chunks = mapped(chunks, what, |table| {
                let table: arrow_array::StructArray = ffi::array_of(table, what)?;
                let data = guarded(what, || {
                    let column = table.column(0);
                    let nulls = match (table.nulls(), column.nulls()) {
                        (Some(a), Some(b)) => Some(and_nulls(a, Some(b), what)?),
                        (a, b) => a.or(b).cloned(),
                    };
                    let data = column.to_data().into_builder().nulls(nulls);
                    data.build().map_err(|e| invalid(what, &e))
                })?;
                ffi::validate(data, what)
            })?;
            Ok(Import::Accepted(column, chunks))
        }
        other => Ok(other),
    }
}

/// The one field of a table type (a struct of one field), if `field` is one.
pub(super) fn only_column(field: &Field) -> Option<&Field> {
    match field.data_type() {
        DataType::Struct(fields) if fields.len() == 1 => Some(&fields[0]),
        _ => None,
    }
}

/// [`import`] without the table case.
pub(super) fn import_any(
    obj: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&Field) -> bool,
) -> PyResult<Import> {
    let py = obj.py();
    let (field, chunks) = if obj.hasattr(crate::interned!(py, c"__arrow_c_array__")?)? {
        let pair = obj.call_method0(crate::interned!(py, c"__arrow_c_array__")?)?;
        let Ok((schema, array)) = pair.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() else {
            return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
                "{what}: __arrow_c_array__() of {} must return a (schema, array) pair of \
                 capsules, got {}",
                type_name(obj),
                short_repr(&pair)
            )));
        };
        let where_ = format!("{what} ({}.__arrow_c_array__)", type_name(obj));
        let (field, data) = ffi::import_array(&schema, &array, &where_, accept)?;
        (field, data.map(|d| vec![d]))
    } else if obj.hasattr(crate::interned!(py, c"__arrow_c_stream__")?)? {
        let capsule = obj.call_method0(crate::interned!(py, c"__arrow_c_stream__")?)?;
        let where_ = format!("{what} ({}.__arrow_c_stream__)", type_name(obj));
        ffi::import_stream(&capsule, &where_, accept)?
    } else {
        return Ok(Import::NotArrow);
    };
    Ok(match chunks {
        Some(chunks) => Import::Accepted(field, chunks),
        None => Import::Rejected(field),
    })
}

/// The result of `f`, which takes a table's column out of an imported table, with a panic of
/// arrow-rs (which asserts on data it cannot take) turned into a `ValueError` naming `what`,
/// as `ffi/arrow_import.rs` guards its own validation and conversions (its I2 and I4).
fn guarded<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned());
        Err(crate::ffi::errors::error::<PyValueError>(format_args!(
            "{what}: invalid Arrow data: arrow-rs could not convert it: {message}"
        )))
    })
}

/// A column of UUIDs: its chunks, each FixedSizeBinary(16).
pub(super) struct UuidChunks(pub(super) Vec<FixedSizeBinaryArray>);

impl UuidChunks {
    pub(super) fn len(&self) -> usize {
        self.0.iter().map(Array::len).sum()
    }

    /// The rows, `None` for nulls.
    pub(super) fn rows(&self) -> impl Iterator<Item = Option<Uuid>> + Send + '_ {
        self.0.iter().flat_map(|chunk| {
            column::records(chunk.values())
                .enumerate()
                .map(move |(i, u)| chunk.is_valid(i).then_some(u))
        })
    }
}

pub(super) const UUIDS_EXPECTED: &str = "a uuidx.arrow.UUIDArray, an Arrow array or stream of \
                              FixedSizeBinary(16) (with or without the arrow.uuid extension) \
                              or of binary values of 16 bytes, or a sequence of uuid.UUID or \
                              None";

/// The UUID column `obj` holds (see [`UUIDS_EXPECTED`]). Binary columns (Polars has no
/// fixed-size binary type: it reads FixedSizeBinary(16) as binary) are accepted when every
/// value has 16 bytes, and copied.
pub(super) fn uuid_chunks(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<UuidChunks> {
    if let Ok(ours) = obj.cast::<UuidArray>() {
        return Ok(UuidChunks(vec![ours.get().array.clone()]));
    }
    let is_text = |f: &Field| {
        matches!(
            f.data_type(),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
        )
    };
    let accept = |f: &Field| match f.extension_type_name() {
        None => f.data_type() == &UUID_TYPE || (is_bytes(f) && !is_text(f)),
        Some(name) => name == UUID_EXTENSION && f.data_type() == &UUID_TYPE,
    };
    match import(obj, what, accept)? {
        Import::Accepted(field, chunks) if field.data_type() == &UUID_TYPE => {
            let arrays = mapped(chunks, what, |chunk| ffi::array_of(chunk, what))?;
            return Ok(UuidChunks(arrays));
        }
        Import::Accepted(_, chunks) => {
            let binary = byte_chunks_of(chunks, what)?;
            return records_of(obj.py(), &binary, what).map(|a| UuidChunks(vec![a]));
        }
        Import::Rejected(field) => {
            return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
                "{what} must be {UUIDS_EXPECTED}; got an Arrow column of {} from {}",
                describe(&field),
                type_name(obj)
            )));
        }
        Import::NotArrow => {}
    }
    let items = sequence(obj, what, UUIDS_EXPECTED)?;
    let rows = items.iter().enumerate().map(|(i, item)| {
        (!item.is_none())
            .then(|| crate::convert::uuid_value(item, &format!("{what}[{i}]")))
            .transpose()
    });
    uuid_column(obj.py(), items.len(), rows, what).map(|a| UuidChunks(vec![a]))
}

/// The rows of a binary column as one FixedSizeBinary(16) array; `ValueError` naming the
/// first value that is not 16 bytes long.
pub(super) fn records_of(
    py: Python<'_>,
    binary: &ByteChunks,
    what: &str,
) -> PyResult<FixedSizeBinaryArray> {
    let rows = binary.rows().enumerate().map(|(i, row)| {
        row.map(|bytes| {
            Uuid::from_slice(bytes).map_err(|_| {
                crate::ffi::errors::error::<PyValueError>(format_args!(
                    "{what}: row {i} of a binary column holds {} bytes; a UUID holds 16",
                    bytes.len()
                ))
            })
        })
        .transpose()
    });
    uuid_column(py, binary.len(), rows, what)
}

/// A FixedSizeBinary(16) array of the `len` `rows` (`None` for a null row); the first error
/// of a row stops it.
pub(super) fn uuid_column(
    py: Python<'_>,
    len: usize,
    rows: impl Iterator<Item = PyResult<Option<Uuid>>>,
    what: &str,
) -> PyResult<FixedSizeBinaryArray> {
    let mut values = ColumnBytes::zeroed(RECORD_LEN * len, &format!("{len} UUIDs"))?;
    let mut valid = zeroed::<bool>(len, "UUIDs")?;
    let slots = values.as_mut().chunks_exact_mut(RECORD_LEN);
    for (i, (row, (slot, ok))) in rows.zip(slots.zip(valid.iter_mut())).enumerate() {
        signals::attached(py, i)?;
        if let Some(u) = row? {
            slot.copy_from_slice(&u.to_bytes());
            *ok = true;
        }
    }
    let nulls = null_buffer(&valid, "UUIDs")?;
    FixedSizeBinaryArray::try_new(16, values.freeze(), nulls).map_err(|e| invalid(what, &e))
}

/// The items of `obj`, a sequence of rows: a list, a tuple or any `collections.abc.Sequence`
/// other than text and bytes (which are one value, not a column).
pub(super) fn sequence<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    expected: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let one_value = obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>();
    let seq = match obj.cast::<PySequence>() {
        Ok(seq) if !one_value => seq,
        _ => return Err(type_error(what, expected, obj)),
    };
    let mut items = Vec::new();
    let hint = seq.len().unwrap_or(0);
    items
        .try_reserve_exact(hint)
        .map_err(|_| no_memory(what, hint))?;
    for item in seq.try_iter()? {
        signals::attached(obj.py(), items.len())?;
        if items.len() == items.capacity() {
            items
                .try_reserve(1)
                .map_err(|_| no_memory(what, items.len() + 1))?;
        }
        items.push(item?);
    }
    Ok(items)
}

/// A column of names or text, as bytes: its chunks, all of one binary type (an imported view
/// column arrives as large offsets: `ffi::arrow_import_array`'s I8).
pub(super) enum ByteChunks {
    Binary(Vec<arrow_array::BinaryArray>),
    Large(Vec<LargeBinaryArray>),
}

impl ByteChunks {
    pub(super) fn len(&self) -> usize {
        match self {
            Self::Binary(c) => c.iter().map(Array::len).sum(),
            Self::Large(c) => c.iter().map(Array::len).sum(),
        }
    }

    /// The rows, `None` for nulls.
    pub(super) fn rows(&self) -> Box<dyn Iterator<Item = Option<&[u8]>> + Send + '_> {
        match self {
            Self::Binary(c) => Box::new(c.iter().flat_map(|a| a.iter())),
            Self::Large(c) => Box::new(c.iter().flat_map(|a| a.iter())),
        }
    }
}

/// `true` for the text and binary types a [`ByteChunks`] holds.
pub(super) fn is_bytes(field: &Field) -> bool {
    matches!(
        field.data_type(),
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    )
}

/// The imported `chunks` of a field of a type [`is_bytes`] accepts, as bytes: binary or
/// large binary, by the chunks' own type (views arrive as large offsets, and text as binary).
pub(super) fn byte_chunks_of(chunks: Vec<ffi::Validated>, what: &str) -> PyResult<ByteChunks> {
    fn checked<T: From<ArrayData>>(what: &str) -> impl Fn(ffi::Validated) -> PyResult<T> + '_ {
        move |chunk| ffi::array_of(chunk, what)
    }
    Ok(match chunks.first().map(|c| c.data().data_type()) {
        Some(DataType::Binary) => ByteChunks::Binary(mapped(chunks, what, checked(what))?),
        _ => ByteChunks::Large(mapped(chunks, what, checked(what))?),
    })
}

/// Which Python values a sequence of rows may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RowValues {
    /// `str`, `bytes` or other bytes-like objects, hashed as their octets (names).
    Names,
    /// `str` only (text to parse).
    Text,
}

/// The column of names or text `obj` holds: an Arrow string, large_string, string_view,
/// binary, large_binary or binary_view column, or a sequence of `values` and `None`.
pub(super) fn byte_chunks(
    obj: &Bound<'_, PyAny>,
    what: &str,
    values: RowValues,
) -> PyResult<ByteChunks> {
    let expected = match values {
        RowValues::Names => {
            "an Arrow array or stream of string, large_string, string_view, binary or \
             large_binary, or a sequence of str, bytes or None"
        }
        RowValues::Text => {
            "an Arrow array or stream of string, large_string or string_view, or a sequence of \
             str or None"
        }
    };
    if let Some(column) = obj
        .cast::<ArrowColumn>()
        .ok()
        .map(|c| c.get().array.clone())
    {
        if let DataType::Utf8 | DataType::LargeUtf8 = column.data_type() {
            let data = ffi::validate(column.to_data(), what)?;
            return Ok(match data.data().data_type() {
                DataType::Binary => ByteChunks::Binary(vec![ffi::array_of(data, what)?]),
                _ => ByteChunks::Large(vec![ffi::array_of(data, what)?]),
            });
        }
    }
    match import(obj, what, is_bytes)? {
        Import::Accepted(_, chunks) => return byte_chunks_of(chunks, what),
        Import::Rejected(field) => {
            return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
                "{what} must be {expected}; got an Arrow column of {} from {}",
                describe(&field),
                type_name(obj)
            )));
        }
        Import::NotArrow => {}
    }
    let items = sequence(obj, what, expected)?;
    let len = items.len();
    let mut offsets = zeroed::<i64>(len + 1, what)?;
    let mut valid = zeroed::<bool>(len, what)?;
    let mut bytes: Vec<u8> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        signals::attached(obj.py(), i)?;
        if !item.is_none() {
            let row = match values {
                RowValues::Names => crate::convert::name_bytes(item).map_err(|e| {
                    if e.is_instance_of::<PyTypeError>(item.py()) {
                        crate::ffi::errors::error::<PyTypeError>(format_args!(
                            "{what}[{i}]: {}",
                            e.value(item.py())
                        ))
                    } else {
                        e
                    }
                })?,
                RowValues::Text => match item.cast::<PyString>() {
                    Ok(text) => match text.to_str() {
                        Ok(s) => Cow::Borrowed(s.as_bytes()),
                        Err(_) => Cow::Owned(host_text(text)?.into_string().into_bytes()),
                    },
                    Err(_) => {
                        return Err(type_error(&format!("{what}[{i}]"), "a str or None", item))
                    }
                },
            };
            bytes
                .try_reserve(row.len())
                .map_err(|_| cannot_allocate(None, what))?;
            bytes.extend_from_slice(&row);
            valid[i] = true;
        }
        offsets[i + 1] = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
    }
    let nulls = null_buffer(&valid, what)?;
    let array = LargeBinaryArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Buffer::from_vec(bytes),
        nulls,
    )
    .map_err(|e| invalid(what, &e))?;
    Ok(ByteChunks::Large(vec![array]))
}

pub(super) fn on_error(errors: Option<&Bound<'_, PyAny>>) -> PyResult<OnError> {
    errors.map_or(Ok(OnError::Raise), |e| {
        OnError::from_name(&str_arg(e, "errors")?).py_err()
    })
}
