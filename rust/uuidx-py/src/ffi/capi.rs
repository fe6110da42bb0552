//! The small C-API helpers of the bindings: compact ASCII strings filled in place, integer
//! checks and masking, contiguous buffers, and `int`s that fail with `MemoryError`.
//!
//! Invariants:
//! 1. every C call here is made on an attached thread (a `Python` token or a `Bound` is in
//!    hand) with live objects;
//! 2. a call that reports failure (NULL, -1, `(unsigned long long)-1` with an exception set)
//!    becomes the interpreter's exception, or is cleared where the answer is "no";
//! 3. a string from `PyUnicode_New(len, 127)` is filled with ASCII bytes, within its `len`
//!    characters, before anyone else can see it; its characters are written right after its
//!    `PyASCIIObject` header only where [`verify_ascii_data`] found CPython's own
//!    `PyUnicode_DATA` there at import, and through `PyUnicode_DATA` otherwise (on CPython's
//!    full API only: PyPy, GraalPy and the limited API build strings with
//!    `PyUnicode_FromStringAndSize`);
//! 4. buffers are read through pyo3's safe buffer API ([`buffer_bytes`]), which releases each
//!    view once;
//! 5. an interned name ([`interned`], the [`crate::interned`] macro) is made once per call site
//!    from a NUL-terminated literal, by a call that can fail, and kept for the life of the
//!    process in the site's `PyOnceLock` (pyo3's `intern!` panics when it cannot be made).
//!
//! Tested by `tests/ffi/test_ffi_capi.py` (buffers of every format and shape, refused ones, no
//! leak), `tests/ffi/test_hostile.py` (integers and strings of every kind at the boundary),
//! `tests/encodings/test_encodings.py` (the strings built) and `tests/test_leaks.py` (each path alone,
//! counting allocated blocks).

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView};
use std::sync::atomic::{AtomicBool, Ordering};

/// A new `str` holding `ascii`, which must be ASCII (hex digits and hyphens here): allocated
/// as a compact ASCII string and filled by one copy, skipping UTF-8 decoding.
#[inline]
pub fn new_ascii_str<'py>(
    py: Python<'py>,
    ascii: &[u8],
) -> PyResult<Bound<'py, pyo3::types::PyString>> {
    debug_assert!(ascii.is_ascii());
    let len = isize::try_from(ascii.len())
        .map_err(|_| super::errors::error::<PyTypeError>(format_args!("string too long")))?;
    // Not CPython's string layout (PyPy, GraalPy) or not its whole API (the limited API):
    // the public constructor, which decodes the bytes.
    #[cfg(any(PyPy, GraalPy, Py_LIMITED_API))]
    // SAFETY: `ascii` holds `len` readable bytes; the call returns a new string or NULL with
    // an exception set.
    unsafe {
        let obj = ffi::PyUnicode_FromStringAndSize(ascii.as_ptr().cast(), len);
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, obj).cast_into_unchecked())
    }
    // SAFETY: `PyUnicode_New(len, 127)` returns a fresh compact ASCII string (or NULL with an
    // exception set) whose data area holds `len` one-byte characters plus a NUL; it is filled
    // with ASCII bytes before anyone else can see it.
    #[cfg(not(any(PyPy, GraalPy, Py_LIMITED_API)))]
    unsafe {
        let obj = ffi::PyUnicode_New(len, 127);
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        let data = ascii_data(obj);
        core::ptr::copy_nonoverlapping(ascii.as_ptr(), data, ascii.len());
        Ok(Bound::from_owned_ptr(py, obj).cast_into_unchecked())
    }
}

/// `true` once the characters of a compact ASCII string are known to follow its
/// `PyASCIIObject` header, as `PyUnicode_DATA` finds them (checked at import by
/// [`ascii_data_verified`]; CPython 3.14 made `PyUnicode_DATA` a function call).
static ASCII_DATA_AFTER_HEADER: AtomicBool = AtomicBool::new(false);

/// Records, once at import, whether compact ASCII strings may be filled right after their
/// header: only where `allowed` (CPython, not the forced fallback) and verified here.
pub(crate) fn verify_ascii_data(py: Python<'_>, allowed: bool) {
    ASCII_DATA_AFTER_HEADER.store(allowed && ascii_data_verified(py), Ordering::Relaxed);
}

/// The characters of `obj`, a compact ASCII string fresh from `PyUnicode_New(_, 127)`.
///
/// # Safety
/// `obj` must be such a string.
#[cfg(not(any(PyPy, GraalPy, Py_LIMITED_API)))]
#[inline]
unsafe fn ascii_data(obj: *mut ffi::PyObject) -> *mut u8 {
    if ASCII_DATA_AFTER_HEADER.load(Ordering::Relaxed) {
        // SAFETY: per the function's contract, and checked at import for this interpreter: the
        // characters start right after the header, inside the object.
        return unsafe { obj.cast::<ffi::PyASCIIObject>().add(1).cast::<u8>() };
    }
    // SAFETY: `obj` is a string (the function's contract).
    unsafe { ffi::PyUnicode_DATA(obj).cast::<u8>() }
}

/// `true` when a compact ASCII string made here keeps its characters right after its
/// `PyASCIIObject` header, where CPython's own `PyUnicode_DATA` finds them.
#[cfg(not(any(PyPy, GraalPy, Py_LIMITED_API)))]
fn ascii_data_verified(py: Python<'_>) -> bool {
    // SAFETY: a new string or NULL with an exception set (cleared: the answer is then "no");
    // the string is only compared, and released by the `Bound`.
    unsafe {
        let obj = ffi::PyUnicode_New(36, 127);
        if obj.is_null() {
            drop(PyErr::take(py));
            return false;
        }
        let after_header = obj
            .cast::<ffi::PyASCIIObject>()
            .add(1)
            .cast::<core::ffi::c_void>();
        let same = ffi::PyUnicode_DATA(obj) == after_header;
        drop(Bound::from_owned_ptr(py, obj));
        same
    }
}

/// Not CPython's string layout: `PyUnicode_DATA` is always used.
#[cfg(any(PyPy, GraalPy, Py_LIMITED_API))]
fn ascii_data_verified(_: Python<'_>) -> bool {
    false
}

/// `true` for an `int` (or subclass) or an object with `__index__`; floats are not.
pub fn is_integer(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: type checks on a live object.
    unsafe { ffi::PyLong_Check(obj.as_ptr()) != 0 || ffi::PyIndex_Check(obj.as_ptr()) != 0 }
}

/// The low 64 bits of an integer in two's complement (`value & (2**64 - 1)`); the caller has
/// checked [`is_integer`].
pub fn low_64_bits(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    // SAFETY: `obj` is an int or has `__index__`; the call returns `(unsigned long long)-1`
    // with an exception set on failure, which is checked.
    let value = unsafe { ffi::PyLong_AsUnsignedLongLongMask(obj.as_ptr()) };
    if value == u64::MAX {
        if let Some(err) = PyErr::take(obj.py()) {
            return Err(err);
        }
    }
    Ok(value)
}

/// A copy of the bytes of an object that exposes a C-contiguous buffer, or `None` (no buffer,
/// a failed export, or items that do not lie one after the other), as a `PyBUF_SIMPLE` request
/// would read them. Through pyo3's buffer API, which releases the view once: bytes of format
/// `B` are copied by `PyBuffer::to_vec`, items of any other format by `memoryview.tobytes()`,
/// as they lie in memory.
pub fn buffer_bytes(obj: &Bound<'_, PyAny>) -> Option<Vec<u8>> {
    let py = obj.py();
    let buffer = PyUntypedBuffer::get(obj).ok()?;
    if !buffer.is_c_contiguous() {
        return None;
    }
    if let Ok(bytes) = buffer.as_typed::<u8>() {
        return bytes.to_vec(py).ok();
    }
    let copy = PyMemoryView::from(obj)
        .ok()?
        .call_method0(crate::interned!(py, c"tobytes").ok()?)
        .ok()?;
    Some(copy.cast::<PyBytes>().ok()?.as_bytes().to_vec())
}

/// The `int` of `value`, or the interpreter's `MemoryError` (pyo3's own conversion panics when
/// the interpreter cannot allocate it).
pub fn new_i64(py: Python<'_>, value: i64) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: the thread is attached (the token); `PyLong_FromLongLong` returns a new
    // reference, or NULL with an exception set, which `from_owned_ptr_or_err` fetches.
    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyLong_FromLongLong(value)) }
}

/// A new `str` holding `text`, or the interpreter's `MemoryError` (pyo3's `PyString::new`
/// panics when it cannot be made).
pub fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, pyo3::types::PyString>> {
    let len = isize::try_from(text.len())
        .map_err(|_| super::errors::error::<PyTypeError>(format_args!("string too long")))?;
    // SAFETY: invariant 1; `text` holds `len` bytes of UTF-8; the call returns a new reference
    // or NULL with an exception set.
    unsafe {
        let obj = ffi::PyUnicode_FromStringAndSize(text.as_ptr().cast(), len);
        if obj.is_null() {
            return Err(super::errors::pending(py));
        }
        Ok(Bound::from_owned_ptr(py, obj).cast_into_unchecked())
    }
}

/// `text` as an interned `str`, made once and kept in `cell` (invariant 5): `MemoryError`,
/// where pyo3's `intern!` panics, when it cannot be made. Use it through [`crate::interned`].
pub fn interned<'py>(
    py: Python<'py>,
    cell: &'static pyo3::sync::PyOnceLock<Py<pyo3::types::PyString>>,
    text: &'static std::ffi::CStr,
) -> PyResult<Bound<'py, pyo3::types::PyString>> {
    cell.get_or_try_init(py, || {
        // SAFETY: invariant 1; `text` is NUL-terminated; the call returns a new reference or
        // NULL with an exception set.
        unsafe {
            let obj = ffi::PyUnicode_InternFromString(text.as_ptr());
            if obj.is_null() {
                return Err(super::errors::pending(py));
            }
            Ok(Bound::from_owned_ptr(py, obj)
                .cast_into_unchecked()
                .unbind())
        }
    })
    .map(|name| name.bind(py).clone())
}

/// The interned `str` of a literal, made once at this call site by a call that can fail
/// (`PyResult<&Bound<PyString>>`); pyo3's `intern!` panics instead.
#[macro_export]
macro_rules! interned {
    ($py:expr, $text:literal) => {{
        static NAME: pyo3::sync::PyOnceLock<pyo3::Py<pyo3::types::PyString>> =
            pyo3::sync::PyOnceLock::new();
        $crate::ffi::interned($py, &NAME, $text)
    }};
}

/// A Python object made from a plain Rust value by calls that can fail: the `MemoryError` of a
/// failed allocation where pyo3's own conversions of these types panic. A function returns
/// `Out(value)` (or `PyResult<Out<T>>`) for ints, names, their options and tuples of them.
#[derive(Clone, Copy, Debug)]
pub struct Out<T>(pub T);

/// A value [`Out`] converts.
pub trait OutValue {
    /// The object, or the interpreter's exception.
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>>;
}

impl<'py, T: OutValue> IntoPyObject<'py> for Out<T> {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.0.make(py)
    }
}

/// `ptr`, a new reference returned by a C call, or the exception it set (invariant 2).
///
/// # Safety
/// `ptr` is NULL or a new reference, on an attached thread.
unsafe fn owned(py: Python<'_>, ptr: *mut ffi::PyObject) -> PyResult<Bound<'_, PyAny>> {
    if ptr.is_null() {
        Err(super::errors::pending(py))
    } else {
        // SAFETY: a new reference (the caller's contract).
        Ok(unsafe { Bound::from_owned_ptr(py, ptr) })
    }
}

impl OutValue for u64 {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        // SAFETY: invariant 1; a new reference or NULL with an exception set.
        unsafe { owned(py, ffi::PyLong_FromUnsignedLongLong(self)) }
    }
}

impl OutValue for u32 {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        u64::from(self).make(py)
    }
}

impl OutValue for i128 {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        if let Ok(small) = i64::try_from(self) {
            return new_i64(py, small);
        }
        // `(high << 64) | low`: Python's ints have two's complement bit operations, so this
        // holds for a negative `high` too.
        let high = new_i64(py, (self >> 64) as i64)?;
        let low = (self.cast_unsigned() as u64).make(py)?;
        let shift = 64u64.make(py)?;
        // SAFETY: invariant 1; live operands; each call returns a new reference or NULL with
        // an exception set.
        unsafe {
            let shifted = owned(py, ffi::PyNumber_Lshift(high.as_ptr(), shift.as_ptr()))?;
            owned(py, ffi::PyNumber_Or(shifted.as_ptr(), low.as_ptr()))
        }
    }
}

impl OutValue for u128 {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        match i128::try_from(self) {
            Ok(value) => value.make(py),
            // Above 2**127: no UUID field is that wide.
            Err(_) => Err(super::errors::error::<pyo3::exceptions::PyOverflowError>(
                format_args!("{self} does not fit in 127 bits"),
            )),
        }
    }
}

impl OutValue for &str {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        new_str(py, self).map(Bound::into_any)
    }
}

impl<T: OutValue> OutValue for Option<T> {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        match self {
            Some(value) => value.make(py),
            None => Ok(py.None().into_bound(py)),
        }
    }
}

impl OutValue for Bound<'_, PyAny> {
    fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        Ok(self.unbind().into_bound(py))
    }
}

/// A tuple of `items`, made by calls that can fail (pyo3's panics when `PyTuple_New` does).
pub fn new_tuple<'py>(
    py: Python<'py>,
    items: impl ExactSizeIterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let len = isize::try_from(items.len())
        .map_err(|_| super::errors::error::<PyTypeError>(format_args!("tuple too long")))?;
    // SAFETY: invariant 1; a new tuple of `len` NULL items or NULL with an exception set.
    let tuple = unsafe { owned(py, ffi::PyTuple_New(len))? };
    for (i, item) in (0..len).zip(items) {
        // SAFETY: `i < len`, the fresh tuple is not shared yet, and `PyTuple_SetItem` steals
        // the item's reference (a tuple left with NULL items is freed safely on an error).
        unsafe {
            ffi::PyTuple_SetItem(tuple.as_ptr(), i, item?.into_ptr());
        }
    }
    // SAFETY: made by `PyTuple_New` above.
    Ok(unsafe { tuple.cast_into_unchecked() })
}

macro_rules! out_tuple {
    ($($name:ident),+) => {
        impl<$($name: OutValue),+> OutValue for ($($name,)+) {
            #[allow(non_snake_case)]
            fn make(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
                let ($($name,)+) = self;
                new_tuple(py, [$($name.make(py)),+].into_iter()).map(Bound::into_any)
            }
        }
    };
}
out_tuple!(A, B);
out_tuple!(A, B, C);
out_tuple!(A, B, C, D, E);
