//! Core errors as Python exceptions, and the bindings' own `MemoryError`.

use std::fmt;

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::{PyErr, Python};
use uuidx_core::ErrorKind;

create_exception!(
    uuidx,
    ClockError,
    PyRuntimeError,
    "The clock cannot give a time-based UUID a timestamp: it reads before 1970, or (the subclass ClockRollbackError) it went back further than a generator allows."
);

create_exception!(
    uuidx,
    ClockRollbackError,
    ClockError,
    "The clock went back further than a generator's rollback allowance and its policy is 'error'."
);

/// The Python exception for a core error:
/// - the original exception of a caller-supplied clock or random source, unchanged;
/// - `ClockRollbackError` for a rollback beyond the allowance, `ClockError` for a clock
///   before 1970;
/// - `MemoryError` for a bulk count that could never fit in memory;
/// - `ValueError` for everything else (all other core errors are about argument values).
pub fn to_py(err: &uuidx_core::Error) -> PyErr {
    if let Some(original) = err.external_ref::<PyErr>() {
        return Python::attach(|py| original.clone_ref(py));
    }
    match err.kind() {
        ErrorKind::ClockRollback { .. } => ClockRollbackError::new_err(err.to_string()),
        ErrorKind::ClockBeforeEpoch { .. } => ClockError::new_err(err.to_string()),
        ErrorKind::TooLarge { .. } => PyMemoryError::new_err(err.to_string()),
        _ => PyValueError::new_err(err.to_string()),
    }
}

/// The `MemoryError` of an allocation that failed, naming what it was for: "cannot allocate
/// memory for {what}" (`1000 UUIDs`, `5 chunks`, `names`), after "{at}: " where the error names
/// the argument the memory was for. The one place this message is made.
pub fn cannot_allocate(at: Option<&str>, what: impl fmt::Display) -> PyErr {
    match at {
        None => PyMemoryError::new_err(format!("cannot allocate memory for {what}")),
        Some(at) => PyMemoryError::new_err(format!("{at}: cannot allocate memory for {what}")),
    }
}

/// `err`, or, for a `MemoryError` (CPython raises one without a word when an allocation
/// fails, under `ulimit -v` for example), one that names the count the call was making.
pub fn naming_the_count(py: Python<'_>, err: PyErr, n: usize) -> PyErr {
    if err.is_instance_of::<PyMemoryError>(py) {
        cannot_allocate(None, format_args!("{n} UUIDs"))
    } else {
        err
    }
}

/// `.map_err(to_py)` for core results.
pub trait IntoPy<T> {
    /// The value, or the error as a Python exception.
    fn py_err(self) -> pyo3::PyResult<T>;
}

impl<T> IntoPy<T> for uuidx_core::Result<T> {
    #[inline]
    fn py_err(self) -> pyo3::PyResult<T> {
        self.map_err(|e| to_py(&e))
    }
}
