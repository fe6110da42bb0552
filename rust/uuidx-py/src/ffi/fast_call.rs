//! Entry points without pyo3's argument handling, and the check that only the main
//! interpreter imports the module.
//!
//! pyo3 wraps every function in a trampoline that parses arguments generically, counts the GIL
//! in a thread-local (a `__tls_get_addr` call in a shared library) and catches panics: as much
//! work for a two-argument call as the call itself. The hot functions
//! (`uuid4`, `uuid7`, `parse`, `to_str`, `uuid3`, `uuid5`, ...) are registered here as plain
//! `METH_FASTCALL | METH_KEYWORDS` C functions whose *fast body* handles the common shape of a
//! call; every other call (keywords, other argument counts or types, anything the body declines)
//! is forwarded unchanged to the function pyo3 generated, which gives the full semantics and
//! the usual error messages; or, for a function registered with a body for every other call
//! ([`CallBody`]: `uuid7`, whose keyword `shift` would otherwise reach pyo3's argument handling,
//! which aborts when memory runs out), to that body, which reads [`CallArgs`] itself.
//!
//! Invariants of a fast body (see [`FastBody`], the bodies are in `fast_bodies.rs`):
//! 1. it is called with the thread attached to the interpreter (CPython calls a C function
//!    only from an attached thread), with borrowed references to the arguments that live for
//!    the call;
//! 2. no reference it releases is deferred. pyo3 defers the decref of a `Py<T>` (and so of a
//!    `PyErr`, which holds them) released outside its own trampoline to a pool that only a later
//!    pyo3 call drains, and the entry points below run outside it: a `PyErr` restored or dropped
//!    there stays allocated until some other call of uuidx (a loop of failing fast calls grows
//!    without bound). So a body's error is a [`FastError`], which lets its `PyErr` go only
//!    inside pyo3's own entry point, where pyo3 decrefs at once: raised by
//!    [`FastError::raise`], the one way an error leaves these entry points, or dropped (a body
//!    that declines after an error, [`decline_on_error`]). A body that drops a `PyErr` of its
//!    own must decline: the full function it then calls drains pyo3's pool at once;
//! 3. a `FastError` is handed over ([`hand_over`]) to a function pyo3 generated
//!    (`_fast_error`), called through the interpreter, whose trampoline counts the thread as
//!    attached with its *current* thread state, and which raises or drops it there. Not
//!    `Python::attach`: outside a trampoline pyo3 attaches with `PyGILState_Ensure`, which
//!    deadlocks on a thread attached through another thread state than the one `PyGILState`
//!    knows for it (an embedder's `PyThreadState_New`); the handover goes through a
//!    thread-local slot, empty again when the call returns.
//!
//! Tested by `tests/test_leaks.py` (each entry point alone, success and every error, counting
//! allocated blocks, and each failing fast body alone), `tests/test_catalog.py` (which shapes of
//! a call take the fast path), `tests/test_errors.py` (the same errors either way) and
//! `tests/ffi/test_subinterpreters.py` (other interpreters and thread states).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// An error of a fast body (invariant 2). Only [`FastError::raise`] raises it and only its
/// `Drop` discards it, both inside pyo3's own entry point (invariant 3), so every reference the
/// `PyErr` releases (the exception's type and value, its lazily built arguments) is released at
/// once.
pub struct FastError(Option<PyErr>);

impl From<PyErr> for FastError {
    #[inline]
    fn from(err: PyErr) -> Self {
        Self(Some(err))
    }
}

impl FastError {
    /// Sets the error as the interpreter's exception; returns the NULL that reports it.
    #[cold]
    fn raise(mut self) -> *mut ffi::PyObject {
        match self.0.take() {
            Some(err) => hand_over(Handover::Raise(err)),
            None => core::ptr::null_mut(),
        }
    }
}

impl Drop for FastError {
    fn drop(&mut self) {
        if let Some(err) = self.0.take() {
            let result = hand_over(Handover::Drop(err));
            // SAFETY: invariant 1: an attached thread. `result` is a new reference to `None`,
            // or NULL with an exception that is not this body's to raise (it declines).
            unsafe {
                if result.is_null() {
                    ffi::PyErr_Clear();
                } else {
                    ffi::Py_DECREF(result);
                }
            }
        }
    }
}

/// What [`hand_over`] asks `_fast_error` to do with an error.
enum Handover {
    Raise(PyErr),
    Drop(PyErr),
}

thread_local! {
    /// The error being handed over, for the length of one call of `_fast_error` (invariant 3).
    static HANDOVER: core::cell::Cell<Option<Handover>> = const { core::cell::Cell::new(None) };
}

/// `_fast_error`, made by the first import (see [`add_fast_functions`]).
static FAST_ERROR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Raises or drops the error handed over by [`hand_over`], inside pyo3's trampoline (invariant
/// 3). Not part of the module's namespace.
#[pyfunction]
fn _fast_error() -> PyResult<()> {
    match HANDOVER.with(core::cell::Cell::take) {
        Some(Handover::Raise(err)) => Err(err),
        Some(Handover::Drop(err)) => {
            drop(err);
            Ok(())
        }
        None => Err(super::errors::error::<pyo3::exceptions::PySystemError>(
            format_args!("uuidx: no fast error was handed over"),
        )),
    }
}

/// Calls `_fast_error` with `handover` (invariant 3): for `Raise`, the NULL that reports the
/// error, now set; for `Drop`, what `_fast_error` returned.
#[cold]
fn hand_over(handover: Handover) -> *mut ffi::PyObject {
    // SAFETY: invariant 1: fast bodies and their errors live only in the entry points below,
    // on a thread CPython attached.
    let py = unsafe { Python::assume_attached() };
    let mut pending = Some(handover);
    let receiver = FAST_ERROR
        .get(py)
        .filter(|_| HANDOVER.try_with(|slot| slot.set(pending.take())).is_ok());
    match (receiver, pending) {
        (Some(receiver), None) => {
            // SAFETY: a call of a live callable with no arguments from an attached thread; the
            // result is a new reference or NULL with an exception set.
            let result = unsafe {
                ffi::PyObject_Vectorcall(
                    receiver.as_ptr(),
                    core::ptr::null(),
                    0,
                    core::ptr::null_mut(),
                )
            };
            // A call refused before it ran (at the recursion limit, which then is the
            // exception) leaves the error in the slot: dropped here, its decrefs deferred to
            // pyo3's pool, which the next call of uuidx drains.
            drop(HANDOVER.try_with(core::cell::Cell::take));
            result
        }
        (_, pending) => {
            // Unreachable in practice: the entry points exist only once `add_fast_functions`
            // made the receiver, and a thread's locals outlive its Python calls. Attaching with
            // `PyGILState_Ensure` is then the one way left.
            // SAFETY: invariant 1: the interpreter is initialised, and on a thread that
            // `PyGILState` knows, attaching again only counts.
            unsafe {
                Python::attach_unchecked(|py| match pending {
                    Some(Handover::Raise(err)) => err.restore(py),
                    Some(Handover::Drop(err)) => drop(err),
                    None => {}
                });
            }
            core::ptr::null_mut()
        }
    }
}

/// The value of `result`, or `None` (the body declines the call) with the error released at
/// once (invariant 2).
#[inline]
pub fn decline_on_error<T>(result: PyResult<T>) -> Option<T> {
    result.map_err(FastError::from).ok()
}

/// What a fast body returns: `None` declines the call (it then goes to the full function),
/// `Some` is the result.
pub type FastResult<'py> = Option<Result<Bound<'py, PyAny>, FastError>>;

/// The fast body of a hot function (see [`FastResult`]).
pub type FastBody = for<'py> fn(Python<'py>, &[&Bound<'py, PyAny>]) -> FastResult<'py>;

/// The arguments of a call that a hot function's fast body does not take (keywords, or more
/// positional arguments than `max_args`), as CPython passed them: borrowed for the call.
#[derive(Clone, Copy)]
pub struct CallArgs<'a, 'py> {
    positional: usize,
    kwnames: Option<&'a Bound<'py, pyo3::types::PyTuple>>,
    keyword_values: *const *mut ffi::PyObject,
}

impl<'py> CallArgs<'_, 'py> {
    /// How many positional arguments the call has.
    pub fn positional(&self) -> usize {
        self.positional
    }

    /// The call's keyword arguments, `(name, value)` in the order given.
    pub fn keywords(&self) -> impl Iterator<Item = (Bound<'py, PyAny>, &Bound<'py, PyAny>)> + '_ {
        let names = self.kwnames.map_or(0, pyo3::types::PyTupleMethods::len);
        (0..names).filter_map(move |i| {
            let name = self.kwnames?.get_borrowed_item(i).ok()?.to_owned();
            // SAFETY: CPython passes one value per keyword name right after the positional
            // arguments, borrowed for the call (the shim's contract); `i` is below the count
            // of names.
            let value = unsafe { Bound::ref_from_ptr(name.py(), &*self.keyword_values.add(i)) };
            Some((name, value))
        })
    }
}

/// The body that takes every call of a hot function its fast body does not (see
/// [`CallArgs`]): it reads them itself and never declines, so that no call reaches pyo3's
/// argument handling, whose errors and `**kwargs` dictionary cannot be made when memory runs
/// out (it then aborts).
pub type CallBody =
    for<'a, 'py> fn(Python<'py>, CallArgs<'a, 'py>) -> Result<Bound<'py, PyAny>, FastError>;

/// A hot function: its public name, the most positional arguments its fast body takes, the
/// body, the body for every other call if it has one, and the full pyo3 function every other
/// call goes to otherwise (whose docstring and text signature it takes).
pub struct FastFunction<'py> {
    /// The function's name, as in `uuidx._core`.
    pub name: &'static core::ffi::CStr,
    /// Calls with up to this many positional arguments and no keywords go to `body`.
    pub max_args: usize,
    /// The fast path.
    pub body: FastBody,
    /// Every other call, when set; otherwise `full` takes them.
    pub other_calls: Option<CallBody>,
    /// The full function (`wrap_pyfunction!`).
    pub full: Bound<'py, PyAny>,
}

struct Registered {
    max_args: usize,
    body: FastBody,
    other_calls: Option<CallBody>,
    full: Py<PyAny>,
    def: Definition,
    name: &'static core::ffi::CStr,
}

/// A hot function's C definition, leaked: every function object made from it refers to it.
struct Definition(&'static ffi::PyMethodDef);

// SAFETY: the definition is never written after `register` made it (CPython only reads it),
// and its pointers are to 'static data.
unsafe impl Send for Definition {}
// SAFETY: as above.
unsafe impl Sync for Definition {}

/// The registered hot functions, indexed as their shims: made by the first import of the
/// module and kept for the life of the process (a later import in the main interpreter
/// reuses them, see [`require_main_interpreter`]).
static REGISTERED: PyOnceLock<Vec<Registered>> = PyOnceLock::new();

/// How many hot functions there can be: one shim is instantiated per index.
const MAX_FAST: usize = 16;

/// The C entry point of hot function `I`.
///
/// # Safety
/// Called by CPython as a `METH_FASTCALL | METH_KEYWORDS` function: an attached thread,
/// `args` pointing to `nargs` borrowed references followed by `len(kwnames)` keyword values.
unsafe extern "C" fn shim<const I: usize>(
    _module: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: invariant 1: CPython calls C functions from an attached thread.
    let py = unsafe { Python::assume_attached() };
    let Some(f) = REGISTERED.get(py).and_then(|all| all.get(I)) else {
        let err = super::errors::error::<pyo3::exceptions::PySystemError>(format_args!(
            "uuidx: an unregistered fast function"
        ));
        return FastError::from(err).raise();
    };
    // A count is never negative; a negative one goes on to the full function as 0 would.
    let count = usize::try_from(nargs).unwrap_or(0);
    if kwnames.is_null() && count <= f.max_args && count <= 3 {
        // SAFETY: `args` holds `nargs` borrowed references valid for the call (invariant 1);
        // `ref_from_ptr` views each slot as a `&Bound` without touching its count.
        let result = unsafe {
            let arg = |i: usize| Bound::ref_from_ptr(py, &*args.add(i));
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match count {
                0 => (f.body)(py, &[]),
                1 => (f.body)(py, &[arg(0)]),
                2 => (f.body)(py, &[arg(0), arg(1)]),
                _ => (f.body)(py, &[arg(0), arg(1), arg(2)]),
            }))
        };
        match result {
            Ok(Some(outcome)) => {
                #[cfg(debug_assertions)]
                FAST_CALLS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
                return match outcome {
                    Ok(obj) => obj.into_ptr(),
                    Err(err) => err.raise(),
                };
            }
            Ok(None) => {}
            Err(panic) => return raise_panic(&panic),
        }
    }
    if let Some(other_calls) = f.other_calls {
        let kwnames_ptr = kwnames;
        // SAFETY: `args` holds `nargs` positional references then one value per keyword name,
        // all borrowed for the call (invariant 1); `kwnames` is NULL or a tuple of str.
        let result = unsafe {
            let kwnames = (!kwnames_ptr.is_null()).then(|| {
                Bound::ref_from_ptr(py, &kwnames_ptr).cast_unchecked::<pyo3::types::PyTuple>()
            });
            let call = CallArgs {
                positional: count,
                kwnames,
                keyword_values: args.add(count),
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| other_calls(py, call)))
        };
        return match result {
            Ok(Ok(obj)) => obj.into_ptr(),
            Ok(Err(err)) => err.raise(),
            Err(panic) => raise_panic(&panic),
        };
    }
    // SAFETY: forwarding the call unchanged: the same arguments, count (without the
    // PY_VECTORCALL_ARGUMENTS_OFFSET flag, so the callee may not write before `args`) and
    // keyword names, to a live callable.
    unsafe { ffi::PyObject_Vectorcall(f.full.as_ptr(), args, count, kwnames) }
}

/// Raises a panic caught in a body as pyo3's `PanicException`.
#[cold]
fn raise_panic(panic: &Box<dyn core::any::Any + Send>) -> *mut ffi::PyObject {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic in uuidx".to_owned());
    // Raising attaches, which also releases what the unwinding deferred.
    FastError::from(pyo3::panic::PanicException::new_err(message)).raise()
}

/// Calls that a fast body handled (it did not decline them), counted in debug builds only:
/// the test suite checks which shapes of a call take the fast path (`tests/test_catalog.py`).
static FAST_CALLS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);

/// How many calls fast bodies have handled so far; `None` in release builds, which do not count.
pub fn fast_calls() -> Option<u64> {
    cfg!(debug_assertions).then(|| FAST_CALLS.load(core::sync::atomic::Ordering::Relaxed))
}

/// One shim per index.
const SHIMS: [ffi::PyCFunctionFastWithKeywords; MAX_FAST] = [
    shim::<0>, shim::<1>, shim::<2>, shim::<3>, shim::<4>, shim::<5>, shim::<6>, shim::<7>,
    shim::<8>, shim::<9>, shim::<10>, shim::<11>, shim::<12>, shim::<13>, shim::<14>, shim::<15>,
];

/// `ImportError` unless this thread runs the main interpreter.
///
/// The module keeps state for the life of the process that belongs to the interpreter that made
/// it: the hot functions' registry, `uuid.UUID` as it resolved it, pyo3's class objects. Another
/// interpreter would use the main interpreter's objects, or leave its own behind for the main
/// one, so the main interpreter alone imports uuidx, whenever it does (also after a
/// subinterpreter tried first), and every other one gets this error before anything is kept.
#[cfg_attr(
    PyPy,
    allow(
        clippy::unnecessary_wraps,
        reason = "PyPy has one interpreter: the check that can fail is CPython's"
    )
)]
pub fn require_main_interpreter(_attached: Python<'_>) -> PyResult<()> {
    #[cfg(not(PyPy))]
    {
        // SAFETY: plain reads of interpreter pointers, on a thread CPython attached to run the
        // module's initialisation (`_attached`).
        let (current, main) = unsafe {
            (
                ffi::PyInterpreterState_Get(),
                ffi::PyInterpreterState_Main(),
            )
        };
        if current != main {
            // SAFETY: as above; `current` is this thread's live interpreter.
            let id = unsafe { ffi::PyInterpreterState_GetID(current) };
            return Err(super::errors::error::<pyo3::exceptions::PyImportError>(
                format_args!(
                "uuidx does not support subinterpreters: import it in the main interpreter only \
                 (this is interpreter {id}; under mod_wsgi, run the application in the main \
                 interpreter with WSGIApplicationGroup %{{GLOBAL}})"
            ),
            ));
        }
    }
    Ok(())
}

/// Adds the hot functions to the module, each a C function whose docstring and text signature
/// are the full function's. The first import registers them; a later one in the main
/// interpreter (after `del sys.modules[...]`) adds functions made from the same definitions.
pub fn add_fast_functions(
    m: &Bound<'_, PyModule>,
    functions: Vec<FastFunction<'_>>,
) -> PyResult<()> {
    let py = m.py();
    // A thread-local that needs a destructor has it registered with the C library on its first
    // use, which aborts the process when that allocation fails (glibc: "failed to register TLS
    // destructor"): the importing thread's is registered now, not in an error path under a
    // memory cap.
    HANDOVER.set(None);
    FAST_ERROR.get_or_try_init(py, || {
        Ok::<_, PyErr>(wrap_pyfunction!(_fast_error, m)?.into_any().unbind())
    })?;
    let registered = REGISTERED.get_or_try_init(py, || register(functions))?;
    let module_name = m.name()?;
    for r in registered {
        // SAFETY: a valid, 'static method definition; the module object and its name are
        // live; the result is a new reference or NULL with an exception set.
        let function = unsafe {
            let raw = ffi::PyCFunction_NewEx(
                core::ptr::from_ref(r.def.0).cast_mut(),
                m.as_ptr(),
                module_name.as_ptr(),
            );
            if raw.is_null() {
                return Err(PyErr::fetch(py));
            }
            Bound::from_owned_ptr(py, raw)
        };
        m.add(r.name.to_str().unwrap_or("?"), function)?;
    }
    Ok(())
}

/// The registry of `functions`, with their method definitions leaked (once per process).
fn register(functions: Vec<FastFunction<'_>>) -> PyResult<Vec<Registered>> {
    if functions.len() > MAX_FAST {
        return Err(super::errors::error::<pyo3::exceptions::PySystemError>(
            format_args!("uuidx: too many fast functions"),
        ));
    }
    let mut registered = Vec::with_capacity(functions.len());
    for (i, f) in functions.into_iter().enumerate() {
        let signature: Option<String> = f
            .full
            .getattr("__text_signature__")
            .ok()
            .and_then(|s| s.extract().ok());
        let doc: Option<String> = f
            .full
            .getattr("__doc__")
            .ok()
            .and_then(|d| d.extract().ok());
        let text = match signature {
            Some(sig) => format!(
                "{}{sig}\n--\n\n{}",
                f.name.to_string_lossy(),
                doc.unwrap_or_default()
            ),
            None => doc.unwrap_or_default(),
        };
        let doc = std::ffi::CString::new(text).map_err(|_| {
            super::errors::error::<pyo3::exceptions::PySystemError>(format_args!(
                "a docstring with a NUL"
            ))
        })?;
        // The method definition must outlive every function object made from it: it is
        // leaked, once per process (the registry is made once).
        let def: &'static ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: f.name.as_ptr(),
            ml_meth: ffi::PyMethodDefPointer {
                PyCFunctionFastWithKeywords: SHIMS[i],
            },
            ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            ml_doc: doc.into_raw(),
        }));
        registered.push(Registered {
            max_args: f.max_args,
            body: f.body,
            other_calls: f.other_calls,
            full: f.full.unbind(),
            def: Definition(def),
            name: f.name,
        });
    }
    Ok(registered)
}
