//! The fast bodies of the hot functions (see [`super::fast_call::FastFunction`]): the common
//! shape of a call, handled without pyo3's argument parsing. Each declines (`None`) anything
//! else (keyword arguments are never seen here, other types, subclasses, lone surrogates),
//! which then goes to the full function of the same name with its usual semantics and
//! messages. A body's errors are `FastError`s, released only where pyo3 decrefs at once
//! (invariant 2 of `fast_call.rs`): `?` turns a `PyErr` into one, `decline_on_error` drops one
//! and declines.
//!
//! Safe code, next to the entry points that run it: the file denies unsafe code. Tested with
//! the entry points (`tests/test_leaks.py`, `tests/test_catalog.py`, `tests/test_errors.py`).

#![deny(unsafe_code)]
// Every body has the `FastBody` signature, whether or not it can decline.
#![allow(clippy::unnecessary_wraps)]

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyBytesMethods, PyString};
use uuidx_core::encoding::hex;
use uuidx_core::{generator, name, Uuid};

use super::errors::IntoPy;
use super::{
    decline_on_error, exact_uuid_int, new_ascii_str, new_uuid, FastError, FastResult as Out,
};

/// A UUID result, or the core's error handed to the interpreter.
fn uuid(py: Python<'_>, value: uuidx_core::Result<Uuid>) -> Result<Bound<'_, PyAny>, FastError> {
    Ok(new_uuid(py, value.py_err()?.as_u128())?)
}

/// A hyphenated string result.
fn hyphenated(
    py: Python<'_>,
    value: uuidx_core::Result<Uuid>,
) -> Result<Bound<'_, PyAny>, FastError> {
    let text = hex::hyphenated(value.py_err()?, false);
    Ok(new_ascii_str(py, &text)?.into_any())
}

/// `uuid1()`, `uuid4()`, `uuid6()`, `uuid7()`, `uuid8()`, `uuid4_str()`, `uuid7_str()` without
/// arguments.
pub fn uuid1<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    args.is_empty().then_some(())?;
    Some(uuid(py, generator::uuid1(None, None)))
}

/// See [`uuid1`].
pub fn uuid4<'py>(py: Python<'py>, _: &[&Bound<'py, PyAny>]) -> Out<'py> {
    Some(uuid(py, Ok(generator::uuid4())))
}

/// See [`uuid1`].
pub fn uuid6<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    args.is_empty().then_some(())?;
    Some(uuid(py, generator::uuid6(None, None)))
}

/// See [`uuid1`].
pub fn uuid7<'py>(py: Python<'py>, _: &[&Bound<'py, PyAny>]) -> Out<'py> {
    Some(uuid(py, generator::uuid7()))
}

/// See [`uuid1`].
pub fn uuid8<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    args.is_empty().then_some(())?;
    Some(uuid(py, Ok(generator::uuid8(None, None, None))))
}

/// See [`uuid1`].
pub fn uuid4_str<'py>(py: Python<'py>, _: &[&Bound<'py, PyAny>]) -> Out<'py> {
    Some(hyphenated(py, Ok(generator::uuid4())))
}

/// See [`uuid1`].
pub fn uuid7_str<'py>(py: Python<'py>, _: &[&Bound<'py, PyAny>]) -> Out<'py> {
    Some(hyphenated(py, generator::uuid7()))
}

/// The value of an exact `uuid.UUID` argument, read from its slot.
fn exact(arg: &Bound<'_, PyAny>) -> Option<Uuid> {
    decline_on_error(exact_uuid_int(arg))
        .flatten()
        .map(Uuid::from_u128)
}

/// `to_str(u)` of an exact `uuid.UUID`.
pub fn to_str<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    let [u] = args else { return None };
    Some(hyphenated(py, Ok(exact(u)?)))
}

/// `parse(s)` of a `str` that UTF-8 can hold.
pub fn parse<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    let [s] = args else { return None };
    let text = decline_on_error(s.cast::<PyString>().ok()?.to_str())?;
    Some(uuid(py, uuidx_core::parse::parse(text)))
}

/// The octets of an exact `str` (as UTF-8) or `bytes` name.
fn name_of<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a [u8]> {
    if let Ok(s) = obj.cast_exact::<PyString>() {
        return decline_on_error(s.to_str()).map(str::as_bytes);
    }
    obj.cast_exact::<PyBytes>()
        .ok()
        .map(PyBytesMethods::as_bytes)
}

/// `uuid3(namespace, name)` with an exact `uuid.UUID` namespace and a `str` or `bytes` name.
pub fn uuid3<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    let [namespace, name] = args else { return None };
    Some(uuid(py, Ok(name::v3(exact(namespace)?, name_of(name)?))))
}

/// `uuid5(namespace, name)`, as [`uuid3`].
pub fn uuid5<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    let [namespace, name] = args else { return None };
    Some(uuid(py, Ok(name::v5(exact(namespace)?, name_of(name)?))))
}

/// `uuid8_name(namespace, name)` with the default algorithm, as [`uuid3`].
pub fn uuid8_name<'py>(py: Python<'py>, args: &[&Bound<'py, PyAny>]) -> Out<'py> {
    let [namespace, name] = args else { return None };
    let algorithm = name::Algorithm::Sha256;
    Some(uuid(
        py,
        Ok(name::v8(exact(namespace)?, name_of(name)?, algorithm)),
    ))
}
