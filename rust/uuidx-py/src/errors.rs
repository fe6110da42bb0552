//! Core errors as Python exceptions.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

create_exception!(
    uuidx,
    ClockRollbackError,
    PyRuntimeError,
    "The clock went back further than a generator's rollback allowance and its policy is 'error'."
);

/// `ClockRollbackError` for a clock rollback, `ValueError` for everything else (all other core
/// errors are about argument values).
pub fn to_py(err: &uuidx_core::Error) -> PyErr {
    if err.is_clock_rollback() {
        ClockRollbackError::new_err(err.to_string())
    } else {
        PyValueError::new_err(err.to_string())
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
