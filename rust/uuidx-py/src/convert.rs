//! Conversion of Python arguments, with error messages that name the value (shortened) and
//! what was expected. No UUID logic lives here: ranges and layouts are checked by `uuidx-core`.
//!
//! UUID arguments are read the way the stdlib would read them: the `int` slot of an exact
//! `uuid.UUID` (through `ffi/uuid_object.rs`), and the public attributes of everything else, validated:
//! `.bytes` for a namespace (the stdlib hashes `namespace.bytes`), `.int` elsewhere
//! ([`uuid_value`], the one rule of every function that takes a UUID).

use std::borrow::Cow;

use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyInt, PyString, PyTuple, PyType};
use uuidx_core::encoding::HostText;
use uuidx_core::Uuid;

use crate::ffi;
use crate::repr::{short_repr, type_name};

/// `TypeError: {what} must be {expected}, got {type}: {repr}`.
pub fn type_error(what: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    crate::ffi::errors::error::<PyTypeError>(format_args!(
        "{what} must be {expected}, got {}: {}",
        type_name(obj),
        short_repr(obj)
    ))
}

/// The one keyword argument `name` of a call of `func`, a function whose only parameter is
/// keyword-only, as the hot functions' entry points pass it ([`ffi::CallArgs`]). A positional
/// argument or another keyword is the `TypeError` pyo3 would raise, in its words, but made as
/// every error of the bindings is (`ffi::errors`): with memory exhausted it is a `MemoryError`,
/// where pyo3's own argument errors abort the process (their message is made after its panic
/// guard).
pub fn keyword_only<'py>(
    func: &str,
    call: &ffi::CallArgs<'_, 'py>,
    name: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let given = call.positional();
    if given > 0 {
        let verb = if given == 1 { "was" } else { "were" };
        return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
            "{func}() takes 0 positional arguments but {given} {verb} given"
        )));
    }
    let mut found = None;
    for (key, value) in call.keywords() {
        match key
            .cast::<PyString>()
            .ok()
            .map(|k| k.to_str())
            .transpose()?
        {
            Some(k) if k == name => found = Some(value.clone()),
            _ => {
                return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
                    "{func}() got an unexpected keyword argument {}",
                    short_repr(&key)
                )))
            }
        }
    }
    Ok(found)
}

/// The `shift=` argument as nanoseconds: `None` for none, a `datetime.timedelta`, or an int of
/// nanoseconds (not a bool); a `ValueError` beyond 2**63 - 1 ns (about 292 years) either way.
///
/// A timedelta is recognised and read through Python (`isinstance`, `.days`, `.seconds`,
/// `.microseconds`), not through pyo3's `PyDelta`: that imports the `datetime` C API on first use
/// and reads its table unguarded when the import fails (out of memory), and importing it with
/// uuidx would load `datetime` for every program that imports uuidx.
pub fn shift_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<i64> {
    use pyo3::types::PyBool;
    let Some(o) = obj.filter(|o| !o.is_none()) else {
        return Ok(0);
    };
    let ns = if o.cast::<PyInt>().is_ok() && o.cast::<PyBool>().is_err() {
        o.extract::<i128>().ok()
    } else {
        let py = o.py();
        let datetime = py.import(crate::interned!(py, c"datetime")?)?;
        let timedelta = datetime.getattr(crate::interned!(py, c"timedelta")?)?;
        if !o.is_instance(&timedelta)? {
            return Err(type_error(
                "shift",
                "a datetime.timedelta or an int of nanoseconds, or None",
                o,
            ));
        }
        let part = |name: Bound<'_, PyString>| o.getattr(name)?.extract::<i64>();
        let days = part(crate::interned!(py, c"days")?)?;
        let seconds = part(crate::interned!(py, c"seconds")?)?;
        let microseconds = part(crate::interned!(py, c"microseconds")?)?;
        let seconds = i128::from(days) * 86_400 + i128::from(seconds);
        Some(seconds * 1_000_000_000 + i128::from(microseconds) * 1_000)
    };
    ns.and_then(|ns| i64::try_from(ns).ok()).ok_or_else(|| {
        crate::ffi::errors::error::<PyValueError>(format_args!(
            "shift {} is out of range: at most 2**63 - 1 ns (about 292 years) either way",
            short_repr(o)
        ))
    })
}

/// The low 64 bits of an integer in two's complement: Python's `value & (2**64 - 1)`, for the
/// arguments the stdlib masks (`uuid6` node and clock_seq, `uuid8` parts, `uuid1` clock_seq).
pub fn masked_u64(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if !ffi::is_integer(obj) {
        return Err(type_error(what, "an int", obj));
    }
    ffi::low_64_bits(obj)
}

/// A non-negative integer below 2**64 for a field of `bits` bits; `ValueError` naming the
/// field for negative or larger values (the core checks the exact width).
pub fn field_u64(obj: &Bound<'_, PyAny>, field: &'static str, bits: u32) -> PyResult<u64> {
    if !ffi::is_integer(obj) {
        return Err(type_error(field, "an int", obj));
    }
    obj.extract::<u64>().map_err(|err| {
        if err.is_instance_of::<PyOverflowError>(obj.py()) {
            crate::ffi::errors::to_py(&uuidx_core::Error::field_out_of_range(
                field,
                short_repr(obj),
                bits,
            ))
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

pub use ffi::buffer_bytes;

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
                    py.get_type::<PyAttributeError>(),
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

fn not_a_namespace(obj: &Bound<'_, PyAny>, why: &str) -> PyErr {
    let py = obj.py();
    let ty = match namespace_error_type(py) {
        Ok(ty) => ty,
        Err(err) => return err,
    };
    match crate::ffi::errors::try_format(format_args!(
        "namespace must be a uuid.UUID, got {}: {}{why}",
        type_name(obj),
        short_repr(obj)
    )) {
        Some(message) => crate::ffi::errors::exception(ty, &message),
        None => crate::ffi::errors::no_memory(py),
    }
}

/// A namespace, hashed as the stdlib hashes it: the `int` slot of an exact `uuid.UUID`, and
/// `namespace.bytes` of anything else (a subclass that overrides `bytes` hashes what it
/// returns). `NamespaceTypeError` when there is no `.bytes` or it is not 16 bytes; any other
/// exception raised by `.bytes` propagates unchanged, as in the stdlib.
pub fn namespace(obj: &Bound<'_, PyAny>) -> PyResult<Uuid> {
    if let Some(value) = ffi::exact_uuid_int(obj)? {
        return Ok(Uuid::from_u128(value));
    }
    let bytes = match obj.getattr(crate::interned!(obj.py(), c"bytes")?) {
        Ok(bytes) => bytes,
        Err(err) if err.is_instance_of::<PyAttributeError>(obj.py()) => {
            return Err(not_a_namespace(obj, ""));
        }
        Err(err) => return Err(err),
    };
    let raw = buffer_bytes(&bytes).ok_or_else(|| {
        not_a_namespace(
            obj,
            &format!(" whose .bytes is not bytes: {}", short_repr(&bytes)),
        )
    })?;
    Uuid::from_slice(&raw).map_err(|_| {
        not_a_namespace(
            obj,
            &format!(" whose .bytes has {} bytes, not 16", raw.len()),
        )
    })
}

/// The value of a UUID argument, by the one rule every function that takes a UUID follows:
/// the `int` slot of an exact `uuid.UUID`, and the public `.int` of anything else (a subclass
/// instance, another library's UUID such as `uuid_utils.UUID` or `fastuuid.UUID`, a look-alike),
/// which must be an `int` from 0 to 2**128 - 1. `TypeError` naming `what` for an object without
/// `.int` or with another `.int`; any other exception raised by `.int` propagates. (Namespaces
/// are read as the stdlib reads them, through `.bytes`: [`namespace`].)
pub fn uuid_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Uuid> {
    if let Some(value) = ffi::exact_uuid_int(obj)? {
        return Ok(Uuid::from_u128(value));
    }
    let py = obj.py();
    let int = match obj.getattr(crate::interned!(py, c"int")?) {
        Ok(int) => int,
        Err(err) if err.is_instance_of::<PyAttributeError>(py) => {
            return Err(type_error(what, "a uuid.UUID", obj));
        }
        Err(err) => return Err(err),
    };
    if int.cast::<PyInt>().is_err() {
        return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
            "{what} must be a uuid.UUID or have an int .int, got {}: {} with .int {}",
            type_name(obj),
            short_repr(obj),
            short_repr(&int)
        )));
    }
    int.extract::<u128>().map(Uuid::from_u128).map_err(|_| {
        crate::ffi::errors::error::<PyTypeError>(format_args!(
            "{what} must be a uuid.UUID or have an .int from 0 to 2**128 - 1, got {}: {} with .int {}",
            type_name(obj),
            short_repr(obj),
            short_repr(&int)
        ))
    })
}

/// A `str` argument, or `TypeError` naming it.
pub fn str_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, str>> {
    obj.cast::<PyString>()
        .map_err(|_| type_error(what, "a str", obj))?
        .to_cow()
}

/// A count of UUIDs whose result, at `bytes_per_uuid` bytes each, could fit in this machine's
/// memory: `TypeError` for a non-int, `ValueError` for a negative one, `MemoryError` naming the
/// count (before anything is allocated) for one that could never fit.
pub fn count_arg(
    obj: &Bound<'_, PyAny>,
    what: &'static str,
    bytes_per_uuid: u64,
) -> PyResult<usize> {
    if !ffi::is_integer(obj) {
        return Err(type_error(what, "an int", obj));
    }
    let count = match obj.extract::<u64>() {
        Ok(count) => count,
        Err(err) if !err.is_instance_of::<PyOverflowError>(obj.py()) => return Err(err),
        // Negative: a ValueError. Beyond 2**64: more than any memory holds.
        Err(_) if obj.lt(0)? => {
            return Err(crate::ffi::errors::error::<PyValueError>(format_args!(
                "{what} must be 0 or more, got {}",
                short_repr(obj)
            )))
        }
        Err(_) => {
            return Err(
                crate::ffi::errors::error::<pyo3::exceptions::PyMemoryError>(format_args!(
                    "cannot make {} UUIDs: more than any memory holds",
                    short_repr(obj)
                )),
            )
        }
    };
    uuidx_core::memory::check_bulk(count, bytes_per_uuid).map_err(|e| crate::ffi::errors::to_py(&e))
}

/// Nanoseconds since the Unix epoch, any sign; values beyond `i128` are reported as out of
/// range (`ValueError`) like any other instant a layout cannot hold.
pub fn unix_ns_arg(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    if !ffi::is_integer(obj) {
        return Err(type_error(
            "unix_ns",
            "an int (nanoseconds since 1970)",
            obj,
        ));
    }
    obj.extract::<i128>().map_err(|err| {
        if err.is_instance_of::<PyOverflowError>(obj.py()) {
            crate::ffi::errors::to_py(&uuidx_core::time::v7_out_of_range(short_repr(obj)))
        } else {
            err
        }
    })
}

/// The UUID a text argument holds (`parse`).
pub fn parse_text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Uuid> {
    read_text(obj, what, uuidx_core::parse::parse)
}

/// Runs the core reader `read` on the text of `obj` (a `str`, else `TypeError` naming `what`).
/// Text that holds lone surrogates, which no Rust string can, is read as the core's
/// [`HostText`], whose errors name the surrogate and show the text as Python does.
pub fn read_text<T>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    read: impl FnOnce(&str) -> uuidx_core::Result<T>,
) -> PyResult<T> {
    let text = obj
        .cast::<PyString>()
        .map_err(|_| type_error(what, "a str", obj))?;
    match text.to_str() {
        Ok(s) => read(s).map_err(|e| crate::ffi::errors::to_py(&e)),
        Err(_) => host_text(text)?
            .read(&short_repr(obj), read)
            .map_err(|e| crate::ffi::errors::to_py(&e)),
    }
}

/// The code points of a `str` that holds lone surrogates, as the core reads them.
#[cold]
pub fn host_text(text: &Bound<'_, PyString>) -> PyResult<HostText> {
    let py = text.py();
    let wide = text
        .call_method1(
            crate::interned!(py, c"encode")?,
            (
                crate::interned!(py, c"utf-32-le")?,
                crate::interned!(py, c"surrogatepass")?,
            ),
        )?
        .cast_into::<PyBytes>()?;
    Ok(HostText::from_code_points(
        wide.as_bytes()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    ))
}
