//! Columns of new UUIDs: random and time-ordered ones, and name-based ones of a column of
//! names.

use pyo3::prelude::*;
use uuidx_core::column::{self, RECORD_LEN};
use uuidx_core::generator::{fill_v4_bytes, fill_v7_bytes};
use uuidx_core::name::Algorithm;

use super::arrays::{kernel_column, uuid_array, UuidArray};
use super::input::{byte_chunks, RowValues};
use crate::column_bytes::ColumnBytes;
use crate::convert::{count_arg, str_arg};
use crate::ffi::errors::IntoPy;
use crate::signals;

/// A `UUIDArray` of `n` UUIDs written by `fill` with the GIL released.
pub(super) fn generated<'py>(
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
pub(super) fn arrow_uuid4<'py>(
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
pub(super) fn arrow_uuid7<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    extension: bool,
) -> PyResult<Bound<'py, UuidArray>> {
    generated(py, n, extension, fill_v7_bytes)
}

/// The name-based UUID of each row of ``names`` (null for a null row).
pub(super) fn name_based<'py>(
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
pub(super) fn arrow_uuid3<'py>(
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
pub(super) fn arrow_uuid5<'py>(
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
pub(super) fn arrow_uuid8_name<'py>(
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
