//! `uuidx.arrow`: UUID columns as Arrow arrays, through the Arrow PyCapsule interface.
//!
//! Columns come in as a `UUIDArray` of this module, any object with `__arrow_c_array__` or
//! `__arrow_c_stream__` (pyarrow, Polars, DuckDB, nanoarrow, arro3, ...; imported by
//! `ffi/arrow_capsule.rs`, then validated here), or a Python sequence. Their rows go to the kernels of
//! `uuidx_core::column` with the GIL released. Results are a `UUIDArray` (FixedSizeBinary(16),
//! tagged with the canonical extension type `arrow.uuid` or plain) or an `ArrowArray` (strings,
//! timestamps), exported as arrow-rs's own C structs in capsules that own them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::types::TimestampNanosecondType;
use arrow_array::{
    Array, ArrayRef, FixedSizeBinaryArray, LargeBinaryArray, LargeStringArray, StringArray,
    TimestampNanosecondArray,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::extension::{EXTENSION_TYPE_METADATA_KEY, EXTENSION_TYPE_NAME_KEY};
use arrow_schema::{ArrowError, DataType, Field, TimeUnit};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyByteArray, PyBytes, PyCapsule, PyList, PySequence, PyString, PyTuple};
use uuidx_core::column::{self, OnError, RECORD_LEN};
use uuidx_core::encoding::Encoding;
use uuidx_core::generator::{fill_v4_bytes, fill_v7_bytes};
use uuidx_core::name::Algorithm;
use uuidx_core::Uuid;

use crate::column_bytes::ColumnBytes;
use crate::convert::{count_arg, host_text, short_repr, str_arg, type_error, type_name};
use crate::errors::IntoPy;
use crate::ffi::{self, new_uuid, ReadOnlyBytes};
use crate::signals::{self, Checkpoint};

/// The canonical extension type of UUID columns (Arrow's canonical extensions).
const UUID_EXTENSION: &str = "arrow.uuid";
/// The type `UUIDArray` holds.
const UUID_TYPE: DataType = DataType::FixedSizeBinary(16);

/// The field of a UUID column: FixedSizeBinary(16), nullable, with the `arrow.uuid` extension
/// (name and its empty metadata, as the canonical type requires) or without.
fn uuid_field(extension: bool) -> Field {
    let field = Field::new("", UUID_TYPE, true);
    if extension {
        field.with_metadata(HashMap::from([
            (
                EXTENSION_TYPE_NAME_KEY.to_owned(),
                UUID_EXTENSION.to_owned(),
            ),
            (EXTENSION_TYPE_METADATA_KEY.to_owned(), String::new()),
        ]))
    } else {
        field
    }
}

/// A field's type as messages show it: the extension name, then the storage type.
fn describe(field: &Field) -> String {
    match field.extension_type_name() {
        Some(name) => format!("extension {name:?} over {}", field.data_type()),
        None => field.data_type().to_string(),
    }
}

fn invalid(what: &str, err: &ArrowError) -> PyErr {
    PyValueError::new_err(format!("{what}: invalid Arrow data: {err}"))
}

// Memory that a count sizes is allocated fallibly here (arrow-rs's own constructors abort when
// memory runs out) and handed to arrow-rs, which takes a `Vec` without copying it.

fn no_memory(what: &str, len: usize) -> PyErr {
    PyMemoryError::new_err(format!("cannot allocate {what} for {len} rows"))
}

/// A zeroed vector of `len` items, or `MemoryError`.
fn zeroed<T: ffi::Zeroable>(len: usize, what: &str) -> PyResult<Vec<T>> {
    ffi::zeroed_vec(len).ok_or_else(|| no_memory(what, len))
}

/// The validity bitmap of `valid` (`None` when every row is valid), or `MemoryError`.
fn null_buffer(valid: &[bool], what: &str) -> PyResult<Option<NullBuffer>> {
    if valid.iter().all(|&ok| ok) {
        return Ok(None);
    }
    let mut bits: Vec<u8> = Vec::new();
    bits.try_reserve_exact(valid.len().div_ceil(8))
        .map_err(|_| no_memory(what, valid.len()))?;
    bits.extend(valid.chunks(8).map(|byte| {
        byte.iter()
            .enumerate()
            .fold(0u8, |bits, (i, &ok)| bits | (u8::from(ok) << i))
    }));
    let bits = BooleanBuffer::new(Buffer::from_vec(bits), 0, valid.len());
    Ok(Some(NullBuffer::new(bits)))
}

/// `a AND b` (`a` alone without `b`) as a new bitmap at offset 0, or `MemoryError`.
fn and_nulls(a: &NullBuffer, b: Option<&NullBuffer>, what: &str) -> PyResult<NullBuffer> {
    let len = a.len();
    let a = a.inner().bit_chunks();
    let b = b.map(|b| b.inner().bit_chunks());
    let mut words: Vec<u64> = Vec::new();
    words
        .try_reserve_exact(len.div_ceil(64))
        .map_err(|_| no_memory(what, len))?;
    match &b {
        Some(b) => words.extend(a.iter().zip(b.iter()).map(|(x, y)| x & y)),
        None => words.extend(a.iter()),
    }
    if a.remainder_len() > 0 {
        let tail = b.as_ref().map_or(
            u64::MAX,
            arrow_buffer::bit_chunk_iterator::BitChunks::remainder_bits,
        );
        words.push(a.remainder_bits() & tail);
    }
    let bits = BooleanBuffer::new(Buffer::from_vec(words), 0, len);
    Ok(NullBuffer::new(bits))
}

/// `f` of each item of `items`, in a vector allocated fallibly; the first error stops it.
fn mapped<T, U>(
    items: Vec<T>,
    what: &str,
    mut f: impl FnMut(T) -> PyResult<U>,
) -> PyResult<Vec<U>> {
    let mut out = Vec::new();
    out.try_reserve_exact(items.len())
        .map_err(|_| no_memory(what, items.len()))?;
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 && i.is_multiple_of(signals::ATTACHED_EVERY) {
            // A stream of a million one-row chunks is validated here, attached: the thread
            // already is, so this only runs the pending handlers.
            // The method path is not general over the token's lifetime: a closure it is.
            #[allow(clippy::redundant_closure_for_method_calls)]
            Python::attach(|py| py.check_signals())?;
        }
        out.push(f(item)?);
    }
    Ok(out)
}

/// The offsets of `len` values of `width` bytes each, or `MemoryError`.
fn repeated_offsets<O: arrow_array::OffsetSizeTrait>(
    width: usize,
    len: usize,
) -> PyResult<OffsetBuffer<O>> {
    let mut offsets: Vec<O> = Vec::new();
    offsets
        .try_reserve_exact(len + 1)
        .map_err(|_| no_memory("offsets", len))?;
    // `count_arg` and the text buffer bound `width * len`, which fits in `O` (checked by the
    // caller).
    offsets.extend((0..=len).map(|i| O::usize_as(i * width)));
    Ok(OffsetBuffer::new(ScalarBuffer::from(offsets)))
}

/// The `(schema, array)` capsule pair of `data` under `field`.
fn export<'py>(py: Python<'py>, field: &Field, data: &ArrayData) -> PyResult<Bound<'py, PyTuple>> {
    let schema = schema_capsule(py, field)?;
    // The C interface has one offset for the values and the validity: arrow-rs copies a
    // validity bitmap whose offset differs (a slice of an imported column), infallibly.
    let aligned;
    let data = match data.nulls() {
        Some(nulls) if nulls.offset() != data.offset() && data.offset() == 0 => {
            let nulls = and_nulls(nulls, None, "the validity of an export")?;
            aligned = data
                .clone()
                .into_builder()
                .nulls(Some(nulls))
                .build()
                .map_err(|e| invalid("export", &e))?;
            &aligned
        }
        _ => data,
    };
    let array = PyCapsule::new_with_value(py, FFI_ArrowArray::new(data), ffi::ARRAY_CAPSULE)?;
    PyTuple::new(py, [schema.into_any(), array.into_any()])
}

fn schema_capsule<'py>(py: Python<'py>, field: &Field) -> PyResult<Bound<'py, PyCapsule>> {
    let schema = FFI_ArrowSchema::try_from(field).map_err(|e| invalid("schema", &e))?;
    PyCapsule::new_with_value(py, schema, ffi::SCHEMA_CAPSULE)
}

/// A column of UUIDs: Arrow FixedSizeBinary(16), each value a UUID's 16 octets in network
/// order (RFC 9562 §4), tagged with the canonical extension type ``arrow.uuid`` unless made
/// with ``extension=False``.
///
/// Exported through the Arrow PyCapsule interface (``__arrow_c_array__``,
/// ``__arrow_c_schema__``), so pyarrow, Polars, DuckDB and pandas read it without a copy, and
/// through the buffer protocol as ``16 * len`` read-only bytes (the null rows of the columns
/// uuidx makes are zero bytes).
#[pyclass(extends = ReadOnlyBytes, frozen, module = "uuidx.arrow", name = "UUIDArray")]
pub struct UuidArray {
    array: FixedSizeBinaryArray,
    extension: bool,
}

impl UuidArray {
    /// A new `UUIDArray` object holding `array` (whose type must be FixedSizeBinary(16)).
    fn create(
        py: Python<'_>,
        array: FixedSizeBinaryArray,
        extension: bool,
    ) -> PyResult<Bound<'_, Self>> {
        let bytes = ReadOnlyBytes::new(array.values().clone());
        Bound::new(
            py,
            PyClassInitializer::from(bytes).add_subclass(Self { array, extension }),
        )
    }

    fn field(&self) -> Field {
        uuid_field(self.extension)
    }
}

#[pymethods]
impl UuidArray {
    fn __len__(&self) -> usize {
        self.array.len()
    }

    /// ``True`` when the column is tagged ``arrow.uuid``, ``False`` for plain
    /// FixedSizeBinary(16).
    #[getter]
    fn extension(&self) -> bool {
        self.extension
    }

    /// The number of null rows.
    #[getter]
    fn null_count(&self) -> usize {
        self.array.null_count()
    }

    /// The Arrow schema of the column (PyCapsule interface).
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.field())
    }

    /// The Arrow schema and array of the column (PyCapsule interface). A
    /// ``requested_schema`` of FixedSizeBinary(16) chooses between the extension type and the
    /// plain type; any other request is ignored, as the interface allows.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut field = self.field();
        if let Some(requested) = requested_schema.filter(|r| !r.is_none()) {
            let wanted = ffi::import_field(requested, "requested_schema")?;
            if wanted.data_type() == &UUID_TYPE {
                field = uuid_field(wanted.extension_type_name() == Some(UUID_EXTENSION));
            }
        }
        export(py, &field, &self.array.to_data())
    }

    /// The UUIDs as a list of exact ``uuid.UUID`` objects, ``None`` for null rows.
    fn to_pylist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let values = self.array.values();
        list_with_nulls(py, &self.array, |i| {
            let record = &values[RECORD_LEN * i..RECORD_LEN * (i + 1)];
            let u = Uuid::from_slice(record).map_err(|e| crate::errors::to_py(&e))?;
            new_uuid(py, u.as_u128())
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "UUIDArray(len={}, null_count={}, extension={})",
            self.array.len(),
            self.array.null_count(),
            if self.extension { "True" } else { "False" }
        )
    }
}

/// A column that is not made of UUIDs (the strings of ``to_str``, the timestamps of
/// ``timestamp_ns``), exported through the Arrow PyCapsule interface.
#[pyclass(frozen, module = "uuidx.arrow", name = "ArrowArray")]
pub struct ArrowColumn {
    array: ArrayRef,
}

impl ArrowColumn {
    fn field(&self) -> Field {
        Field::new("", self.array.data_type().clone(), true)
    }
}

#[pymethods]
impl ArrowColumn {
    fn __len__(&self) -> usize {
        self.array.len()
    }

    /// The number of null rows.
    #[getter]
    fn null_count(&self) -> usize {
        self.array.null_count()
    }

    /// The Arrow type, as pyarrow writes it: ``"string"``, ``"large_string"`` or
    /// ``"timestamp[ns, tz=UTC]"``.
    #[getter(r#type)]
    fn arrow_type(&self) -> String {
        match self.array.data_type() {
            DataType::Utf8 => "string".to_owned(),
            DataType::LargeUtf8 => "large_string".to_owned(),
            DataType::Timestamp(TimeUnit::Nanosecond, Some(tz)) => {
                format!("timestamp[ns, tz={tz}]")
            }
            other => other.to_string(),
        }
    }

    /// The Arrow schema of the column (PyCapsule interface).
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.field())
    }

    /// The Arrow schema and array of the column (PyCapsule interface); ``requested_schema``
    /// is ignored, as the interface allows.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        export(py, &self.field(), &self.array.to_data())
    }

    /// The values as a list: ``str`` for strings, ``int`` nanoseconds since 1970 for
    /// timestamps (what ``uuidx.timestamp_ns`` returns for one UUID), ``None`` for nulls.
    fn to_pylist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let array = self.array.as_ref();
        match array.data_type() {
            DataType::Utf8 => {
                let strings = array.as_string::<i32>();
                list_with_nulls(py, array, |i| {
                    Ok(PyString::from_bytes(py, strings.value(i).as_bytes())?.into_any())
                })
            }
            DataType::LargeUtf8 => {
                let strings = array.as_string::<i64>();
                list_with_nulls(py, array, |i| {
                    Ok(PyString::from_bytes(py, strings.value(i).as_bytes())?.into_any())
                })
            }
            _ => {
                let times = array.as_primitive::<TimestampNanosecondType>();
                list_with_nulls(py, array, |i| ffi::new_i64(py, times.value(i)))
            }
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "ArrowArray(type='{}', len={}, null_count={})",
            self.arrow_type(),
            self.array.len(),
            self.array.null_count()
        )
    }
}

/// The rows of `array` as a list: `value(i)` for each valid row, `None` for each null.
fn list_with_nulls<'py>(
    py: Python<'py>,
    array: &dyn Array,
    mut value: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    ffi::list_of(py, array.len(), None, |i| {
        if array.is_valid(i) {
            value(i)
        } else {
            Ok(py.None().into_bound(py))
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Input

/// What `obj` is as a column.
enum Import {
    /// Not an Arrow object (no `__arrow_c_array__` or `__arrow_c_stream__`).
    NotArrow,
    /// An Arrow column of a type the caller does not accept (its data left unread).
    Rejected(Field),
    /// An Arrow column of an accepted type: its field and chunks, not yet validated.
    Accepted(Field, Vec<ArrayData>),
}

/// The Arrow column `obj` exports, if it exports one: `__arrow_c_array__` first (one array),
/// else `__arrow_c_stream__` (every chunk, read to the end). A table of one column (a record
/// batch, a table's stream: a struct of one field) stands for that column. Data is read only
/// when `accept` accepts the column's field.
fn import(obj: &Bound<'_, PyAny>, what: &str, accept: impl Fn(&Field) -> bool) -> PyResult<Import> {
    let accept_column = |f: &Field| accept(f) || only_column(f).is_some_and(&accept);
    match import_any(obj, what, accept_column)? {
        Import::Accepted(field, chunks) if !accept(&field) => {
            let column = only_column(&field).cloned().unwrap_or(field);
            let chunks = mapped(chunks, what, |table| {
                let table = arrow_array::StructArray::from(validated(table, what)?);
                let column = table.column(0);
                let nulls = match (table.nulls(), column.nulls()) {
                    (Some(a), Some(b)) => Some(and_nulls(a, Some(b), what)?),
                    (a, b) => a.or(b).cloned(),
                };
                let data = column.to_data().into_builder().nulls(nulls);
                data.build().map_err(|e| invalid(what, &e))
            })?;
            Ok(Import::Accepted(column, chunks))
        }
        other => Ok(other),
    }
}

/// The one field of a table type (a struct of one field), if `field` is one.
fn only_column(field: &Field) -> Option<&Field> {
    match field.data_type() {
        DataType::Struct(fields) if fields.len() == 1 => Some(&fields[0]),
        _ => None,
    }
}

/// [`import`] without the table case.
fn import_any(
    obj: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&Field) -> bool,
) -> PyResult<Import> {
    let py = obj.py();
    let (field, chunks) = if obj.hasattr(intern!(py, "__arrow_c_array__"))? {
        let pair = obj.call_method0(intern!(py, "__arrow_c_array__"))?;
        let Ok((schema, array)) = pair.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() else {
            return Err(PyTypeError::new_err(format!(
                "{what}: __arrow_c_array__() of {} must return a (schema, array) pair of \
                 capsules, got {}",
                type_name(obj),
                short_repr(&pair)
            )));
        };
        let where_ = format!("{what} ({}.__arrow_c_array__)", type_name(obj));
        let (field, data) = ffi::import_array(&schema, &array, &where_, accept)?;
        (field, data.map(|d| vec![d]))
    } else if obj.hasattr(intern!(py, "__arrow_c_stream__"))? {
        let capsule = obj.call_method0(intern!(py, "__arrow_c_stream__"))?;
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

/// `data` after full validation (buffer sizes, offsets, views, null counts: invariant 4 of
/// `ffi/arrow_capsule.rs`), with text types read as their binary counterparts (rows are bytes
/// to the kernels, so UTF-8 is not checked).
fn validated(data: ArrayData, what: &str) -> PyResult<ArrayData> {
    let as_bytes = match data.data_type() {
        DataType::Utf8 => DataType::Binary,
        DataType::LargeUtf8 => DataType::LargeBinary,
        DataType::Utf8View => DataType::BinaryView,
        other => other.clone(),
    };
    data.into_builder()
        .data_type(as_bytes)
        .build()
        .map_err(|e| invalid(what, &e))
}

/// A column of UUIDs: its chunks, each FixedSizeBinary(16).
struct UuidChunks(Vec<FixedSizeBinaryArray>);

impl UuidChunks {
    fn len(&self) -> usize {
        self.0.iter().map(Array::len).sum()
    }

    /// The rows, `None` for nulls.
    fn rows(&self) -> impl Iterator<Item = Option<Uuid>> + Send + '_ {
        self.0.iter().flat_map(|chunk| {
            column::records(chunk.values())
                .enumerate()
                .map(move |(i, u)| chunk.is_valid(i).then_some(u))
        })
    }
}

const UUIDS_EXPECTED: &str = "a uuidx.arrow.UUIDArray, an Arrow array or stream of \
                              FixedSizeBinary(16) (with or without the arrow.uuid extension) \
                              or of binary values of 16 bytes, or a sequence of uuid.UUID or \
                              None";

/// The UUID column `obj` holds (see [`UUIDS_EXPECTED`]). Binary columns (Polars has no
/// fixed-size binary type: it reads FixedSizeBinary(16) as binary) are accepted when every
/// value has 16 bytes, and copied.
fn uuid_chunks(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<UuidChunks> {
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
            let arrays = mapped(chunks, what, |data| {
                validated(data, what).map(FixedSizeBinaryArray::from)
            })?;
            return Ok(UuidChunks(arrays));
        }
        Import::Accepted(field, chunks) => {
            let binary = byte_chunks_of(&field, chunks, what)?;
            return records_of(obj.py(), &binary, what).map(|a| UuidChunks(vec![a]));
        }
        Import::Rejected(field) => {
            return Err(PyTypeError::new_err(format!(
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
fn records_of(py: Python<'_>, binary: &ByteChunks, what: &str) -> PyResult<FixedSizeBinaryArray> {
    let rows = binary.rows().enumerate().map(|(i, row)| {
        row.map(|bytes| {
            Uuid::from_slice(bytes).map_err(|_| {
                PyValueError::new_err(format!(
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
fn uuid_column(
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
fn sequence<'py>(
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

/// A column of names or text, as bytes: its chunks, all of one binary type.
enum ByteChunks {
    Binary(Vec<arrow_array::BinaryArray>),
    Large(Vec<LargeBinaryArray>),
    View(Vec<arrow_array::BinaryViewArray>),
}

impl ByteChunks {
    fn len(&self) -> usize {
        match self {
            Self::Binary(c) => c.iter().map(Array::len).sum(),
            Self::Large(c) => c.iter().map(Array::len).sum(),
            Self::View(c) => c.iter().map(Array::len).sum(),
        }
    }

    /// The rows, `None` for nulls.
    fn rows(&self) -> Box<dyn Iterator<Item = Option<&[u8]>> + Send + '_> {
        match self {
            Self::Binary(c) => Box::new(c.iter().flat_map(|a| a.iter())),
            Self::Large(c) => Box::new(c.iter().flat_map(|a| a.iter())),
            Self::View(c) => Box::new(c.iter().flat_map(|a| a.iter())),
        }
    }
}

/// `true` for the text and binary types a [`ByteChunks`] holds.
fn is_bytes(field: &Field) -> bool {
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

/// The imported `chunks` of `field`, a type [`is_bytes`] accepts, as bytes, validated.
fn byte_chunks_of(field: &Field, chunks: Vec<ArrayData>, what: &str) -> PyResult<ByteChunks> {
    fn checked<T: From<ArrayData>>(what: &str) -> impl Fn(ArrayData) -> PyResult<T> + '_ {
        move |data| validated(data, what).map(T::from)
    }
    Ok(match field.data_type() {
        DataType::Utf8 | DataType::Binary => {
            ByteChunks::Binary(mapped(chunks, what, checked(what))?)
        }
        DataType::LargeUtf8 | DataType::LargeBinary => {
            ByteChunks::Large(mapped(chunks, what, checked(what))?)
        }
        _ => ByteChunks::View(mapped(chunks, what, checked(what))?),
    })
}

/// Which Python values a sequence of rows may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowValues {
    /// `str`, `bytes` or other bytes-like objects, hashed as their octets (names).
    Names,
    /// `str` only (text to parse).
    Text,
}

/// The column of names or text `obj` holds: an Arrow string, large_string, string_view,
/// binary, large_binary or binary_view column, or a sequence of `values` and `None`.
fn byte_chunks(obj: &Bound<'_, PyAny>, what: &str, values: RowValues) -> PyResult<ByteChunks> {
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
            let data = validated(column.to_data(), what)?;
            return Ok(match data.data_type() {
                DataType::Binary => ByteChunks::Binary(vec![data.into()]),
                _ => ByteChunks::Large(vec![data.into()]),
            });
        }
    }
    match import(obj, what, is_bytes)? {
        Import::Accepted(field, chunks) => return byte_chunks_of(&field, chunks, what),
        Import::Rejected(field) => {
            return Err(PyTypeError::new_err(format!(
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
                        PyTypeError::new_err(format!("{what}[{i}]: {}", e.value(item.py())))
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
            bytes.try_reserve(row.len()).map_err(|_| {
                PyMemoryError::new_err(format!("cannot allocate memory for {what}"))
            })?;
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

// ---------------------------------------------------------------------------------------------
// Functions

fn on_error(errors: Option<&Bound<'_, PyAny>>) -> PyResult<OnError> {
    errors.map_or(Ok(OnError::Raise), |e| {
        OnError::from_name(&str_arg(e, "errors")?).py_err()
    })
}

/// A `UUIDArray` of `n` UUIDs written by `fill` with the GIL released.
fn generated<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    extension: bool,
    fill: fn(&mut [u8]) -> uuidx_core::Result<()>,
) -> PyResult<Bound<'py, UuidArray>> {
    let n = count_arg(n, "n", RECORD_LEN as u64)?;
    let mut values = ColumnBytes::zeroed(RECORD_LEN * n, &format!("{n} UUIDs"))?;
    signals::fill_detached(py, values.as_mut(), RECORD_LEN * signals::CHUNK_UUIDS, fill)?;
    uuid_array(py, values, None, extension)
}

/// ``n`` random version 4 UUIDs (RFC 9562 §5.4) from the per-thread CSPRNG (§6.9).
///
/// Args:
///     n: How many.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain
///         ``FixedSizeBinary(16)``.
///
/// Raises:
///     TypeError: ``n`` is not an int.
///     ValueError: ``n`` is negative.
///     MemoryError: ``16 * n`` bytes could never fit in this machine's memory, or memory ran
///         out.
#[pyfunction]
#[pyo3(signature = (n, extension=true))]
fn arrow_uuid4<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    generated(py, n, extension, fill_v4_bytes)
}

/// ``n`` version 7 UUIDs (RFC 9562 §5.7, §6.2) of the process-wide sequence.
///
/// The column is strictly increasing and continues the sequence of :func:`uuidx.uuid7`: every
/// UUID in it is greater than every v7 this process made before the call, and smaller than
/// every one it makes after the call returns; a v7 that another thread makes during the call
/// may fall between its values. Sorting by these keys (bytes, or ``ORDER BY`` on a UUID column) is generation
/// order.
///
/// Args:
///     n: How many.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     TypeError: ``n`` is not an int.
///     ValueError: ``n`` is negative.
///     MemoryError: ``16 * n`` bytes could never fit in this machine's memory, or memory ran
///         out.
///     uuidx.ClockError: the clock reads before 1970.
#[pyfunction]
#[pyo3(signature = (n, extension=true))]
fn arrow_uuid7<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    generated(py, n, extension, fill_v7_bytes)
}

/// The name-based UUID of each row of ``names`` (null for a null row).
fn name_based<'py>(
    namespace: &Bound<'py, PyAny>,
    names: &Bound<'py, PyAny>,
    algorithm: Algorithm,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    let py = names.py();
    let ns = crate::convert::namespace(namespace)?;
    let chunks = byte_chunks(names, "names", RowValues::Names)?;
    kernel_column(py, chunks.len(), extension, |values, valid, checkpoint| {
        column::name_based(ns, algorithm, chunks.rows(), values, valid, |_| {
            checkpoint.detached()
        })
    })
}

/// A `UUIDArray` of `len` rows written by `kernel` (16-byte records and validity, returning
/// the count of nulls) with the GIL released, stopping at its checkpoints for a signal.
fn kernel_column(
    py: Python<'_>,
    len: usize,
    extension: bool,
    kernel: impl FnOnce(&mut [u8], &mut [bool], &mut Checkpoint) -> uuidx_core::Result<usize> + Send,
) -> PyResult<Bound<'_, UuidArray>> {
    let mut values = ColumnBytes::zeroed(RECORD_LEN * len, &format!("{len} UUIDs"))?;
    let mut valid = zeroed::<bool>(len, "UUIDs")?;
    let nulls = py
        .detach(|| kernel(values.as_mut(), &mut valid, &mut Checkpoint::new()))
        .py_err()?;
    let nulls = if nulls > 0 {
        null_buffer(&valid, "UUIDs")?
    } else {
        None
    };
    uuid_array(py, values, nulls, extension)
}

/// A `UUIDArray` of the 16-byte records in `values`.
fn uuid_array(
    py: Python<'_>,
    values: ColumnBytes,
    nulls: Option<NullBuffer>,
    extension: bool,
) -> PyResult<Bound<'_, UuidArray>> {
    let array = FixedSizeBinaryArray::try_new(16, values.freeze(), nulls)
        .map_err(|e| invalid("result", &e))?;
    UuidArray::create(py, array, extension)
}

/// Version 3 UUIDs (RFC 9562 §5.3, MD5) of ``namespace`` and each name, row by row equal to
/// :func:`uuidx.uuid3`; a null name gives a null UUID.
///
/// Args:
///     namespace: A ``uuid.UUID``, read as :func:`uuidx.uuid3` reads it.
///     names: Text (hashed as UTF-8) or binary names: see :mod:`uuidx.arrow`.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
///     TypeError: ``names`` is not a column of names (the message names what it is).
#[pyfunction]
#[pyo3(signature = (namespace, names, extension=true))]
fn arrow_uuid3<'py>(
    namespace: &Bound<'py, PyAny>,
    names: &Bound<'py, PyAny>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    name_based(namespace, names, Algorithm::Md5, extension)
}

/// Version 5 UUIDs (RFC 9562 §5.5, SHA-1) of ``namespace`` and each name, row by row
/// equal to :func:`uuidx.uuid5`; a null name gives a null UUID. Deterministic keys from
/// natural keys, a column at a time.
///
/// Args:
///     namespace: A ``uuid.UUID``, read as :func:`uuidx.uuid5` reads it.
///     names: Text (hashed as UTF-8) or binary names: see :mod:`uuidx.arrow`.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
///     TypeError: ``names`` is not a column of names (the message names what it is).
#[pyfunction]
#[pyo3(signature = (namespace, names, extension=true))]
fn arrow_uuid5<'py>(
    namespace: &Bound<'py, PyAny>,
    names: &Bound<'py, PyAny>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    name_based(namespace, names, Algorithm::Sha1, extension)
}

/// Name-based version 8 UUIDs (RFC 9562 §5.8, Appendix B.2) of ``namespace`` and each
/// name, row by row equal to :func:`uuidx.uuid8_name`; a null name gives a null UUID.
///
/// Args:
///     namespace: A ``uuid.UUID``.
///     names: Text (hashed as UTF-8) or binary names: see :mod:`uuidx.arrow`.
///     algorithm: One of hashlib's ``sha256``, ``sha512``, ``sha3_256``, ``sha3_512``,
///         ``shake_128``, ``shake_256``.
///     extension: Tag the column ``arrow.uuid`` (default) or leave it plain.
///
/// Raises:
///     uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
///     TypeError: ``names`` is not a column of names, or ``algorithm`` is not a str.
///     ValueError: ``algorithm`` is not one of the six.
#[pyfunction]
#[pyo3(signature = (namespace, names, algorithm=None, extension=true))]
fn arrow_uuid8_name<'py>(
    namespace: &Bound<'py, PyAny>,
    names: &Bound<'py, PyAny>,
    algorithm: Option<&Bound<'py, PyAny>>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    let algorithm = match algorithm {
        None => Algorithm::Sha256,
        Some(a) => Algorithm::for_v8(&str_arg(a, "algorithm")?).py_err()?,
    };
    name_based(namespace, names, algorithm, extension)
}

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
fn arrow_parse<'py>(
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
fn arrow_uuids<'py>(uuids: &Bound<'py, PyAny>, extension: bool) -> PyResult<Bound<'py, UuidArray>> {
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
fn text_column<'py>(
    uuids: &Bound<'py, PyAny>,
    encoding: Encoding,
) -> PyResult<Bound<'py, ArrowColumn>> {
    let py = uuids.py();
    let chunks = uuid_chunks(uuids, "uuids")?;
    let (len, width) = (chunks.len(), encoding.len());
    let size = width
        .checked_mul(len)
        .ok_or_else(|| PyMemoryError::new_err(format!("cannot allocate text for {len} rows")))?;
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
fn arrow_to_str<'py>(uuids: &Bound<'py, PyAny>) -> PyResult<Bound<'py, ArrowColumn>> {
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
fn arrow_encode<'py>(
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
fn arrow_decode<'py>(
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
enum Mask {
    Hide,
    Reveal,
}

/// The UUIDv47 facades of `uuids` (`Mask::Hide`) or the version 7 UUIDs behind them
/// (`Mask::Reveal`), computed with the GIL released.
fn masked<'py>(
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
fn arrow_mask_v7<'py>(
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
fn arrow_unmask_v7<'py>(
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
fn arrow_timestamp_ns<'py>(
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

/// Adds `UUIDArray`, `ArrowArray` and the column functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UuidArray>()?;
    m.add_class::<ArrowColumn>()?;
    m.add_function(wrap_pyfunction!(arrow_uuid4, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid7, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid3, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid5, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid8_name, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_parse, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuids, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_encode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_decode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_mask_v7, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_unmask_v7, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_timestamp_ns, m)?)?;
    Ok(())
}
