//! Conversion of Python arguments, with error messages that name the value and what was
//! expected. No UUID logic lives here: ranges and layouts are checked by `uuidx-core`.

use std::borrow::Cow;

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString, PyTuple, PyType};
use uuidx_core::Uuid;

use crate::exact;

/// `repr(obj)`, shortened for messages.
pub fn short_repr(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map_or_else(|_| "<unrepresentable object>".to_owned(), |r| r.to_string());
    if text.chars().count() > 80 {
        format!("{}...", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

/// `TypeError: {what} must be {expected}, got {type}: {repr}`.
pub fn type_error(what: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let type_name = obj
        .get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |n| n.to_string());
    PyTypeError::new_err(format!(
        "{what} must be {expected}, got {type_name}: {}",
        short_repr(obj)
    ))
}

/// The low 64 bits of an integer in two's complement: Python's `value & (2**64 - 1)`, for the
/// arguments the stdlib masks (`uuid6` node and clock_seq, `uuid8` parts, `uuid1` clock_seq).
pub fn masked_u64(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if !exact::is_integer(obj) {
        return Err(type_error(what, "an int", obj));
    }
    exact::low_64_bits(obj)
}

/// A non-negative integer below 2**64 for a field of `bits` bits; `ValueError` naming the
/// field for negative or larger values (the core checks the exact width).
pub fn field_u64(obj: &Bound<'_, PyAny>, field: &'static str, bits: u32) -> PyResult<u64> {
    if !exact::is_integer(obj) {
        return Err(type_error(field, "an int", obj));
    }
    obj.extract::<u64>().map_err(|err| {
        if err.is_instance_of::<PyOverflowError>(obj.py()) {
            PyValueError::new_err(
                uuidx_core::Error::field_out_of_range(field, short_repr(obj), bits).to_string(),
            )
        } else {
            err
        }
    })
}

/// Each argument as [`field_u64`] for the field named and sized by the core's spec.
pub fn int_fields<const N: usize>(
    args: [&Bound<'_, PyAny>; N],
    specs: &[uuidx_core::layout::FieldSpec; N],
) -> PyResult<[u64; N]> {
    let mut values = [0u64; N];
    for ((value, arg), &(name, bits)) in values.iter_mut().zip(args).zip(specs) {
        *value = field_u64(arg, name, bits)?;
    }
    Ok(values)
}

/// The octets of a name: `str` as UTF-8 (strict, as the stdlib's `bytes(name, "utf-8")`),
/// `bytes`, or any object with the buffer protocol.
pub fn name_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Cow::Borrowed(s.to_str()?.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    buffer_bytes(obj)
        .map(Cow::Owned)
        .ok_or_else(|| type_error("name", "a str or a bytes-like object", obj))
}

pub use exact::buffer_bytes;

static NAMESPACE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `uuidx.NamespaceTypeError`, a subclass of both `TypeError` and `AttributeError`: the stdlib
/// raises `AttributeError` for a namespace without `.bytes`, and `TypeError` is what a wrong
/// type deserves; `except` clauses written for either keep working.
pub fn namespace_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    NAMESPACE_ERROR
        .get_or_try_init(py, || {
            let bases = PyTuple::new(
                py,
                [
                    py.get_type::<PyTypeError>(),
                    py.get_type::<pyo3::exceptions::PyAttributeError>(),
                ],
            )?;
            let dict = pyo3::types::PyDict::new(py);
            dict.set_item("__module__", "uuidx")?;
            dict.set_item(
                "__doc__",
                "A namespace that is not a UUID: both a TypeError and, as in the stdlib, an AttributeError.",
            )?;
            py.get_type::<PyType>()
                .call1(("NamespaceTypeError", bases, dict))?
                .cast_into::<PyType>()
                .map(Bound::unbind)
                .map_err(PyErr::from)
        })
        .map(|t| t.bind(py))
}

/// A namespace: a `uuid.UUID`, or any object whose `.bytes` is 16 bytes (the stdlib only
/// reads `namespace.bytes`).
pub fn namespace(obj: &Bound<'_, PyAny>) -> PyResult<Uuid> {
    if let Some(value) = exact::uuid_int(obj)? {
        return Ok(Uuid::from_u128(value));
    }
    let py = obj.py();
    let not_a_uuid = |obj: &Bound<'_, PyAny>| -> PyErr {
        match namespace_error_type(py) {
            Ok(ty) => PyErr::from_type(
                ty.clone(),
                format!(
                    "namespace must be a uuid.UUID, got {}: {}",
                    obj.get_type()
                        .name()
                        .map_or_else(|_| "object".to_owned(), |n| n.to_string()),
                    short_repr(obj)
                ),
            ),
            Err(err) => err,
        }
    };
    let Ok(bytes) = obj.getattr("bytes") else {
        return Err(not_a_uuid(obj));
    };
    let raw = buffer_bytes(&bytes).ok_or_else(|| not_a_uuid(obj))?;
    Uuid::from_slice(&raw).map_err(|_| not_a_uuid(obj))
}

/// A `str` argument, or `TypeError` naming it.
pub fn str_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, str>> {
    obj.cast::<PyString>()
        .map_err(|_| type_error(what, "a str", obj))?
        .to_cow()
}

/// A count of items: an int from 0 to 2**64 - 1 that fits in memory's address space.
pub fn count_arg(obj: &Bound<'_, PyAny>, what: &'static str) -> PyResult<usize> {
    let n = field_u64(obj, what, 64)?;
    usize::try_from(n).map_err(|_| {
        PyValueError::new_err(
            uuidx_core::Error::field_out_of_range(what, n, usize::BITS).to_string(),
        )
    })
}

/// Nanoseconds since the Unix epoch, any sign; values beyond `i128` are reported as out of
/// range (`ValueError`) like any other instant a layout cannot hold.
pub fn unix_ns_arg(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    if !exact::is_integer(obj) {
        return Err(type_error(
            "unix_ns",
            "an int (nanoseconds since 1970)",
            obj,
        ));
    }
    obj.extract::<i128>().map_err(|err| {
        if err.is_instance_of::<PyOverflowError>(obj.py()) {
            PyValueError::new_err(uuidx_core::time::v7_out_of_range(short_repr(obj)).to_string())
        } else {
            err
        }
    })
}
