//! The results of bulk calls: lists allocated once at their final size and filled in place,
//! `bytes` filled chunk by chunk with the GIL released, and the cycle collector paused while
//! many objects are made.
//!
//! Invariants:
//! 1. a list from `PyList_New(n)` has `n` NULL slots, each filled exactly once with an owned
//!    reference (`PyList_SET_ITEM` steals it) before the list is handed out; on an error it is
//!    dropped with NULL slots left, which `list_dealloc` allows. It is untracked by the
//!    collector while it is filled (nothing can reach it) and tracked again before it is
//!    handed out;
//! 2. a `bytes` from `PyBytes_FromStringAndSize(NULL, n)` is unshared until returned; each
//!    chunk of it is zeroed before a `&mut [u8]` is made over it, so no byte is seen
//!    uninitialised, and the object stays owned by the frame while detached;
//! 3. the collector is paused ([`GcPause`]) only for loops that run no Python code, on GIL
//!    builds: no other thread runs meanwhile, and a signal handler runs with the collector as
//!    the program left it ([`GcPause::check_signals`]); the previous state is restored on drop,
//!    also on an error or a panic;
//! 4. pending signal handlers run between blocks of items, and an exception of theirs, like
//!    any error, frees what was made and is raised.
//!
//! Tested by `tests/ffi/test_signals.py` (signals in bulk calls, handlers run with the collector
//! as the program left it), `tests/ffi/test_nomemory.py` and `tests/columns/test_arrow_memory.py`
//! (allocation failures mid-list) and `tests/test_leaks.py`.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;

/// Items a loop that runs attached handles between two checks for signals (the checkpoints
/// of `crate::signals`, and this file's list fill).
pub const ATTACHED_EVERY: usize = 4096;

/// The cycle collector, paused for the life of this value where it is safe to (GIL builds of
/// CPython 3.10+): creating many untracked objects still counts as allocation for the
/// collector, which would otherwise run one generation-0 pass per 700 of them and, every 100
/// of those, a pass over every tracked object of the interpreter, none of which can find
/// anything the bulk call made. Restored on drop (also on an error or a panic).
///
/// Only for loops that run no Python code: then no other thread can run either (the GIL is
/// held throughout) and nothing can enable or disable the collector in between. The one
/// exception, a signal handler, runs through [`GcPause::check_signals`], with the collector
/// as the program left it.
pub struct GcPause(
    /// Whether the collector was enabled, to enable it again (read only where it is paused).
    #[cfg_attr(not(all(Py_3_10, not(Py_GIL_DISABLED))), allow(dead_code))]
    bool,
);

impl GcPause {
    /// Pauses the collector if it is enabled.
    #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
    pub fn new(_: Python<'_>) -> Self {
        // SAFETY: the thread is attached (the token); returns the previous state.
        Self(unsafe { ffi::PyGC_Disable() } != 0)
    }

    /// Nothing to pause on this interpreter.
    #[cfg(not(all(Py_3_10, not(Py_GIL_DISABLED))))]
    pub fn new(_: Python<'_>) -> Self {
        Self(false)
    }
}

impl GcPause {
    /// Runs pending signal handlers (`Python::check_signals`) with the collector restored
    /// while they run, then pauses it again, unless a handler disabled it.
    #[cfg_attr(not(all(Py_3_10, not(Py_GIL_DISABLED))), allow(clippy::unused_self))]
    pub fn check_signals(&mut self, py: Python<'_>) -> PyResult<()> {
        #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
        if self.0 {
            // SAFETY: attached (the token); the collector was enabled when paused.
            unsafe { ffi::PyGC_Enable() };
        }
        let result = py.check_signals();
        #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
        if self.0 {
            // SAFETY: as above; the previous state says whether to enable it again on drop.
            self.0 = unsafe { ffi::PyGC_Disable() } != 0;
        }
        result
    }
}

impl Drop for GcPause {
    fn drop(&mut self) {
        #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
        if self.0 {
            // SAFETY: the value was made on an attached thread that still holds the GIL (it
            // is dropped where it was made, before the call returns).
            unsafe {
                ffi::PyGC_Enable();
            }
        }
    }
}

/// A new `bytes` of `len` bytes, written by `fill` with the GIL released, chunk after chunk of
/// at most `chunk` bytes, each zeroed just before it is handed over (while in cache: the
/// buffer is never zeroed whole first, and no byte is ever seen uninitialised). An error of
/// `fill` stops it and drops the object; `MemoryError` if it cannot be had.
pub fn bytes_in_chunks(
    py: Python<'_>,
    len: usize,
    chunk: usize,
    mut fill: impl FnMut(&mut [u8]) -> uuidx_core::Result<()> + Send,
) -> PyResult<Bound<'_, pyo3::types::PyBytes>> {
    let size = isize::try_from(len).map_err(|_| {
        super::errors::error::<pyo3::exceptions::PyMemoryError>(format_args!("bytes too long"))
    })?;
    // SAFETY: `PyBytes_FromStringAndSize(NULL, size)` returns a new, unshared `bytes` of
    // `size` uninitialised bytes (or NULL with an exception). Nothing else can reach it until
    // it is returned; its buffer is written only here, chunk by chunk, each zeroed before a
    // `&mut [u8]` is made over it, so every byte is initialised once `fill` has seen it all.
    // The object stays owned by this frame while detached (no reference count changes).
    unsafe {
        let bytes = Bound::from_owned_ptr_or_err(
            py,
            ffi::PyBytes_FromStringAndSize(core::ptr::null(), size),
        )
        // Allocating is all the call does, so its error is a failed allocation: PyPy's cpyext
        // reports one as a `SystemError` around its own `MemoryError`, CPython as `MemoryError`.
        .map_err(|_| {
            super::errors::error::<pyo3::exceptions::PyMemoryError>(format_args!(
                "cannot allocate the bytes"
            ))
        })?
        .cast_into_unchecked::<pyo3::types::PyBytes>();
        let buffer = ffi::PyBytes_AsString(bytes.as_ptr()).cast::<u8>() as usize;
        py.detach(|| {
            let mut start = 0;
            while start < len {
                let end = len.min(start + chunk.max(1));
                let part = (buffer as *mut u8).add(start);
                part.write_bytes(0, end - start);
                fill(core::slice::from_raw_parts_mut(part, end - start))?;
                start = end;
            }
            Ok(())
        })
        .map_err(|e| super::errors::to_py(&e))?;
        Ok(bytes)
    }
}

/// A list of `len` items made by `item(i)`, allocated once at its final size. Pending signal
/// handlers run every [`ATTACHED_EVERY`] items (through `pause`, if the collector is
/// paused); an exception of theirs, like any error, frees the items made and is raised.
pub fn list_of<'py>(
    py: Python<'py>,
    len: usize,
    mut pause: Option<&mut GcPause>,
    mut item: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let size = isize::try_from(len)
        .map_err(|_| super::errors::error::<PyTypeError>(format_args!("list too long")))?;
    // SAFETY: `PyList_New(size)` returns a new list with `size` NULL slots (or NULL with an
    // exception). Each slot is filled exactly once with an owned reference by
    // `PyList_SET_ITEM`, which steals it; the list is only handed out once every slot is set.
    // If `item` fails, the list is dropped with NULL slots left, which `list_dealloc` allows.
    //
    // The list is untracked by the cycle collector while it is filled: the items' allocations
    // trigger collections, and each would traverse the growing list (quadratic in its length).
    // Nothing can reach it meanwhile, and it is tracked again before it is handed out.
    unsafe {
        let list = ffi::PyList_New(size);
        if list.is_null() {
            return Err(super::errors::naming_the_count(py, PyErr::fetch(py), len));
        }
        ffi::PyObject_GC_UnTrack(list.cast());
        let list = Bound::from_owned_ptr(py, list);
        // Blocks of items, the signal check between them: the loop over a block's items is
        // the same as without any check.
        let mut start = 0;
        while start < len {
            if start > 0 {
                let checked = match pause.as_deref_mut() {
                    Some(pause) => pause.check_signals(py),
                    None => py.check_signals(),
                };
                if let Err(err) = checked {
                    drop(list);
                    return Err(err);
                }
            }
            let end = len.min(start + ATTACHED_EVERY);
            for i in start..end {
                match item(i) {
                    #[allow(clippy::cast_possible_wrap)]
                    Ok(value) => {
                        ffi::PyList_SET_ITEM(list.as_ptr(), i as isize, value.into_ptr());
                    }
                    Err(err) => {
                        // Free the items made so far before the message is formatted: when
                        // they took the last of the memory, Rust's allocator would abort.
                        drop(list);
                        return Err(super::errors::naming_the_count(py, err, len));
                    }
                }
            }
            start = end;
        }
        ffi::PyObject_GC_Track(list.as_ptr().cast());
        Ok(list.cast_into_unchecked())
    }
}
