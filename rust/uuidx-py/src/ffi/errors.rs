//! Every exception the bindings raise, built when it is raised: core errors as Python
//! exceptions, the bindings' own, and `MemoryError` when building one fails.
//!
//! pyo3 makes a `PyErr::new_err(message)` lazily: the exception object and its message string
//! are allocated when its trampoline hands the error to the interpreter, after its panic guard,
//! where a failed allocation panics and Rust aborts the process. The exceptions here are made
//! at once, in the call that raises them, where a failure can still be answered.
//!
//! Invariants:
//! 1. a message is formatted into a `String` grown with `try_reserve` ([`try_format`]), so a
//!    failed Rust allocation is `None`, never an abort;
//! 2. the exception object is made by calling its type with the message string
//!    ([`exception`]), both through C calls that return NULL with `MemoryError` set when an
//!    allocation fails, on an attached thread with a type object that lives as long as the
//!    module (the builtin types, or those the module holds from import);
//! 3. a failure at any step is the interpreter's exception, or `PyErr_NoMemory()`'s, which
//!    CPython makes from a preallocated instance; so the `PyErr` handed to pyo3 is always
//!    normalised, and nothing is left for pyo3 to allocate when it raises it;
//! 4. an exception is made on the thread state that is current on this thread, whoever made
//!    it (an embedder's own, swapped in), never through `PyGILState_Ensure` while one is;
//! 5. the errors pyo3 makes itself (an argument of the wrong type) name the type through
//!    `PyTypeMethods`, which before CPython 3.11 (3.13 for the module) reads `__name__`,
//!    `__qualname__` and `__module__` by attribute names it interns on first use, and
//!    `PyString::intern` panics when that allocation fails: [`intern_type_names`] makes them
//!    at import.
//!
//! Tested by `tests/ffi/test_nomemory_sweep.py` (every public call with each allocation
//! failing in turn, first call and warm) and `tests/test_errors.py` (the messages).

use std::fmt::{self, Write as _};

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::PyType;
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
        ErrorKind::ClockRollback { .. } => error::<ClockRollbackError>(format_args!("{err}")),
        ErrorKind::ClockBeforeEpoch { .. } => error::<ClockError>(format_args!("{err}")),
        ErrorKind::TooLarge { .. } => error::<PyMemoryError>(format_args!("{err}")),
        _ => error::<PyValueError>(format_args!("{err}")),
    }
}

/// The `MemoryError` of an allocation that failed, naming what it was for: "cannot allocate
/// memory for {what}" (`1000 UUIDs`, `5 chunks`, `names`), after "{at}: " where the error names
/// the argument the memory was for. The one place this message is made.
pub fn cannot_allocate(at: Option<&str>, what: impl fmt::Display) -> PyErr {
    match at {
        None => error::<PyMemoryError>(format_args!("cannot allocate memory for {what}")),
        Some(at) => error::<PyMemoryError>(format_args!("{at}: cannot allocate memory for {what}")),
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

/// The exception `T(message)`, made now (see the module documentation); `MemoryError` if
/// making it fails.
pub fn error<T: PyTypeInfo>(message: fmt::Arguments<'_>) -> PyErr {
    attached(|py| match try_format(message) {
        Some(text) => exception(&T::type_object(py), &text),
        None => no_memory(py),
    })
}

/// `f` with the token of the thread state this thread runs Python code under (invariant 4):
/// the current one when there is one, which may be a thread state an embedder made and swapped
/// in, where `Python::attach` would ask `PyGILState_Ensure` for this thread's own and wait for
/// the GIL that this thread holds.
fn attached<R>(f: impl FnOnce(Python<'_>) -> R) -> R {
    // SAFETY: `PyThreadState_GetUnchecked` only reads the current thread state (NULL when
    // this thread is detached); a current thread state means this thread is attached, so the
    // token is sound for as long as `f` runs, which does not detach.
    unsafe {
        if ffi::compat::PyThreadState_GetUnchecked().is_null() {
            Python::attach(f)
        } else {
            f(Python::assume_attached())
        }
    }
}

/// Makes the attribute names pyo3 interns to name a type (invariant 5) before any call can
/// need them: at import, where a failure is the import's error. From CPython 3.13 on, pyo3
/// asks the C API for all of them instead, and this does nothing.
///
/// # Errors
/// What reading the names of `int` raises (`MemoryError`).
#[cfg_attr(Py_3_13, allow(clippy::unnecessary_wraps, unused_variables))]
pub fn intern_type_names(py: Python<'_>) -> PyResult<()> {
    #[cfg(not(Py_3_13))]
    {
        use pyo3::types::{PyInt, PyTypeMethods as _};
        let ty = py.get_type::<PyInt>();
        ty.name()?;
        ty.qualname()?;
        ty.module()?;
        ty.fully_qualified_name()?;
    }
    Ok(())
}

/// `message` formatted, or `None` when memory for it cannot be had (invariant 1).
pub fn try_format(message: fmt::Arguments<'_>) -> Option<String> {
    struct Fallible(String);
    impl fmt::Write for Fallible {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0.try_reserve(s.len()).map_err(|_| fmt::Error)?;
            self.0.push_str(s);
            Ok(())
        }
    }
    let mut out = Fallible(String::new());
    out.write_fmt(message).ok()?;
    Some(out.0)
}

/// `ty(message)`, made now; the interpreter's exception if that fails (invariants 2 and 3).
pub fn exception(ty: &Bound<'_, PyType>, message: &str) -> PyErr {
    let py = ty.py();
    let Ok(len) = ffi::Py_ssize_t::try_from(message.len()) else {
        return no_memory(py);
    };
    // SAFETY: invariant 2: `message` holds `len` bytes of UTF-8; each call returns a new
    // reference or NULL with an exception set; the string is released after the call that
    // uses it, and the exception is owned by the `Bound` made from it.
    unsafe {
        let text = ffi::PyUnicode_FromStringAndSize(message.as_ptr().cast(), len);
        if text.is_null() {
            return pending(py);
        }
        let exc = ffi::PyObject_CallOneArg(ty.as_ptr(), text);
        ffi::Py_DecRef(text);
        if exc.is_null() {
            return pending(py);
        }
        PyErr::from_value(Bound::from_owned_ptr(py, exc))
    }
}

/// The exception a failed C call set, or `MemoryError` if it set none.
pub fn pending(py: Python<'_>) -> PyErr {
    PyErr::take(py).unwrap_or_else(|| no_memory(py))
}

/// `MemoryError`, as `PyErr_NoMemory()` makes it (from a preallocated instance in CPython).
pub fn no_memory(py: Python<'_>) -> PyErr {
    // SAFETY: an attached thread (invariant 2); `PyErr_NoMemory` always sets an exception.
    unsafe {
        ffi::PyErr_NoMemory();
    }
    PyErr::take(py).unwrap_or_else(|| PyErr::from_value(PyMemoryError::type_object(py).into_any()))
}
