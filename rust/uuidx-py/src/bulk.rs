//! Fast paths: UUIDs straight to strings, and bulk generation as lists or one `bytes` buffer
//! (filled with the GIL released, in chunks between which pending signal handlers run: see
//! `signals.rs`).

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use uuidx_core::encoding::hex;
use uuidx_core::generator;
use uuidx_core::Uuid;

use crate::convert::count_arg;
use crate::ffi::errors::IntoPy;
use crate::ffi::new_ascii_str;
use crate::generators::uuid_list;
use crate::signals::{self, Checkpoint};

/// Bytes one UUID takes in each result form, at least: the 16-byte staging record, plus for a
/// list its pointer and the objects (a `uuid.UUID` of 48 bytes with its 16-byte GC header and
/// a 44-byte int; an ASCII `str` of 85 bytes).
pub const BYTES_PER_RECORD: u64 = 16;
/// See [`BYTES_PER_RECORD`].
pub const BYTES_PER_UUID_OBJECT: u64 = 16 + 8 + 64 + 44;
/// See [`BYTES_PER_RECORD`].
pub const BYTES_PER_STR: u64 = 16 + 8 + 85;

fn hyphenated(py: Python<'_>, u: Uuid) -> PyResult<Bound<'_, PyString>> {
    new_ascii_str(py, &hex::hyphenated(u, false))
}

/// The canonical string of ``u`` (``str(u)``, RFC 9562 §4), computed in Rust.
#[pyfunction]
pub(crate) fn to_str<'py>(u: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
    hyphenated(u.py(), crate::convert::uuid_value(u, "u")?)
}

/// ``str(uuid4())`` without making the ``UUID`` object.
#[pyfunction]
pub(crate) fn uuid4_str(py: Python<'_>) -> PyResult<Bound<'_, PyString>> {
    hyphenated(py, generator::uuid4())
}

/// ``str(uuid7())`` without making the ``UUID`` object; part of the same monotonic sequence.
#[pyfunction]
pub(crate) fn uuid7_str(py: Python<'_>) -> PyResult<Bound<'_, PyString>> {
    hyphenated(py, generator::uuid7().py_err()?)
}

fn v4_batch(py: Python<'_>, n: usize) -> PyResult<Vec<Uuid>> {
    signals::uuids_detached(py, n, |out| {
        generator::fill_v4(out);
        Ok(())
    })
}

fn v7_batch(py: Python<'_>, n: usize) -> PyResult<Vec<Uuid>> {
    signals::uuids_detached(py, n, generator::fill_v7)
}

fn str_list<'py>(py: Python<'py>, values: &[Uuid]) -> PyResult<Bound<'py, PyList>> {
    crate::ffi::list_of(py, values.len(), None, |i| {
        Ok(hyphenated(py, values[i])?.into_any())
    })
}

/// ``n`` version 4 UUIDs as a list.
#[pyfunction]
fn uuid4_many<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    uuid_list(
        py,
        &v4_batch(py, count_arg(n, "n", BYTES_PER_UUID_OBJECT)?)?,
    )
}

/// ``n`` version 7 UUIDs of the process-wide sequence as a list: strictly increasing, and
/// greater than every UUID of the sequence returned before the call (another thread's
/// ``uuid7()`` during the call may fall between them).
#[pyfunction]
fn uuid7_many<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    uuid_list(
        py,
        &v7_batch(py, count_arg(n, "n", BYTES_PER_UUID_OBJECT)?)?,
    )
}

/// ``n`` version 4 UUIDs as a list of canonical strings.
#[pyfunction]
fn uuid4_str_many<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    str_list(py, &v4_batch(py, count_arg(n, "n", BYTES_PER_STR)?)?)
}

/// ``n`` version 7 UUIDs of the process-wide sequence as a list of canonical strings:
/// strictly increasing, and greater than every UUID of the sequence returned before the call
/// (another thread's ``uuid7()`` during the call may fall between them).
#[pyfunction]
fn uuid7_str_many<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    str_list(py, &v7_batch(py, count_arg(n, "n", BYTES_PER_STR)?)?)
}

fn buffer(
    py: Python<'_>,
    n: usize,
    fill: impl Fn(&mut [u8]) -> uuidx_core::Result<()> + Sync,
) -> PyResult<Bound<'_, PyBytes>> {
    // `count_arg` bounded `n` by the machine's memory, so 16 * n fits.
    let mut checkpoint = Checkpoint::new();
    crate::ffi::bytes_in_chunks(py, 16 * n, 16 * signals::CHUNK_UUIDS, |part| {
        fill(part)?;
        checkpoint.detached()
    })
    .map_err(|e| crate::ffi::errors::naming_the_count(py, e, n))
}

/// ``n`` version 4 UUIDs as one ``bytes`` of ``16 * n`` bytes (each UUID's 16 octets in
/// network order), generated with the GIL released.
#[pyfunction]
fn uuid4_bytes<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    buffer(
        py,
        count_arg(n, "n", BYTES_PER_RECORD)?,
        generator::fill_v4_bytes,
    )
}

/// ``n`` version 7 UUIDs of the process-wide sequence as one ``bytes`` of ``16 * n`` bytes,
/// generated with the GIL released: strictly increasing, and greater than every UUID of the
/// sequence returned before the call (another thread's ``uuid7()`` during the call may fall
/// between them).
#[pyfunction]
fn uuid7_bytes<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    buffer(
        py,
        count_arg(n, "n", BYTES_PER_RECORD)?,
        generator::fill_v7_bytes,
    )
}

/// Adds the fast paths to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(uuid4_many, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_many, m)?)?;
    m.add_function(wrap_pyfunction!(uuid4_str_many, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_str_many, m)?)?;
    m.add_function(wrap_pyfunction!(uuid4_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_bytes, m)?)?;
    Ok(())
}
