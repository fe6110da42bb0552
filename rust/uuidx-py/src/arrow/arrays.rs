//! The columns uuidx hands out: `UUIDArray` (FixedSizeBinary(16), tagged `arrow.uuid` or
//! plain) and `ArrowArray` (strings, timestamps), their export through the Arrow PyCapsule
//! interface and their rows as Python lists.

use std::collections::HashMap;

use arrow_array::cast::AsArray;
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::types::TimestampNanosecondType;
use arrow_array::{Array, ArrayRef, FixedSizeBinaryArray};
use arrow_buffer::NullBuffer;
use arrow_data::ArrayData;
use arrow_schema::extension::{EXTENSION_TYPE_METADATA_KEY, EXTENSION_TYPE_NAME_KEY};
use arrow_schema::{DataType, Field, TimeUnit};
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyCapsule, PyList, PyString, PyTuple};
use uuidx_core::column::RECORD_LEN;
use uuidx_core::Uuid;

use super::buffers::{and_nulls, invalid, null_buffer, zeroed};
use crate::column_bytes::ColumnBytes;
use crate::errors::IntoPy;
use crate::ffi::{self, new_uuid, ReadOnlyBytes};
use crate::signals::Checkpoint;

/// The canonical extension type of UUID columns (Arrow's canonical extensions).
pub(super) const UUID_EXTENSION: &str = "arrow.uuid";
/// The type `UUIDArray` holds.
pub(super) const UUID_TYPE: DataType = DataType::FixedSizeBinary(16);

/// The field of a UUID column: FixedSizeBinary(16), nullable, with the `arrow.uuid` extension
/// (name and its empty metadata, as the canonical type requires) or without.
pub(super) fn uuid_field(extension: bool) -> Field {
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
pub(super) fn describe(field: &Field) -> String {
    match field.extension_type_name() {
        Some(name) => format!("extension {name:?} over {}", field.data_type()),
        None => field.data_type().to_string(),
    }
}

/// The `(schema, array)` capsule pair of `data` under `field`.
pub(super) fn export<'py>(
    py: Python<'py>,
    field: &Field,
    data: &ArrayData,
) -> PyResult<Bound<'py, PyTuple>> {
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

pub(super) fn schema_capsule<'py>(
    py: Python<'py>,
    field: &Field,
) -> PyResult<Bound<'py, PyCapsule>> {
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
    pub(super) array: FixedSizeBinaryArray,
    extension: bool,
}

impl UuidArray {
    /// A new `UUIDArray` object holding `array` (whose type must be FixedSizeBinary(16)).
    pub(super) fn create(
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
    fn null_count(&self) -> crate::ffi::Out<u64> {
        crate::ffi::Out(self.array.null_count() as u64)
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

    fn __repr__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyString>> {
        let text = {
            format!(
                "UUIDArray(len={}, null_count={}, extension={})",
                self.array.len(),
                self.array.null_count(),
                if self.extension { "True" } else { "False" }
            )
        };
        crate::ffi::new_str(py, &text)
    }
}

/// A column that is not made of UUIDs (the strings of ``to_str``, the timestamps of
/// ``timestamp_ns``), exported through the Arrow PyCapsule interface.
#[pyclass(frozen, module = "uuidx.arrow", name = "ArrowArray")]
pub struct ArrowColumn {
    pub(super) array: ArrayRef,
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
    fn null_count(&self) -> crate::ffi::Out<u64> {
        crate::ffi::Out(self.array.null_count() as u64)
    }

    /// The Arrow type, as pyarrow writes it: ``"string"``, ``"large_string"`` or
    /// ``"timestamp[ns, tz=UTC]"``.
    #[getter(r#type)]
    fn arrow_type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        match crate::ffi::errors::try_format(format_args!("{}", TypeName(self.array.data_type()))) {
            Some(text) => crate::ffi::new_str(py, &text),
            None => Err(crate::ffi::errors::no_memory(py)),
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

    fn __repr__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyString>> {
        let text = {
            format!(
                "ArrowArray(type='{}', len={}, null_count={})",
                TypeName(self.array.data_type()),
                self.array.len(),
                self.array.null_count()
            )
        };
        crate::ffi::new_str(py, &text)
    }
}

/// An Arrow type as pyarrow writes it.
struct TypeName<'a>(&'a DataType);

impl std::fmt::Display for TypeName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            DataType::Utf8 => f.write_str("string"),
            DataType::LargeUtf8 => f.write_str("large_string"),
            DataType::Timestamp(TimeUnit::Nanosecond, Some(tz)) => {
                write!(f, "timestamp[ns, tz={tz}]")
            }
            other => write!(f, "{other}"),
        }
    }
}

/// The rows of `array` as a list: `value(i)` for each valid row, `None` for each null.
pub(super) fn list_with_nulls<'py>(
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

/// A `UUIDArray` of `len` rows written by `kernel` (16-byte records and validity, returning
/// the count of nulls) with the GIL released, stopping at its checkpoints for a signal.
pub(super) fn kernel_column(
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
pub(super) fn uuid_array(
    py: Python<'_>,
    values: ColumnBytes,
    nulls: Option<NullBuffer>,
    extension: bool,
) -> PyResult<Bound<'_, UuidArray>> {
    let array = FixedSizeBinaryArray::try_new(16, values.freeze(), nulls)
        .map_err(|e| invalid("result", &e))?;
    UuidArray::create(py, array, extension)
}
