//! The Arrow C data interface of `uuidx.arrow`: capsules and streams imported, a column's
//! bytes lent through the buffer protocol.
//!
//! Arrow columns travel between libraries as three C structs, `ArrowSchema`, `ArrowArray` and
//! `ArrowArrayStream`, handed over in PyCapsules named "arrow_schema", "arrow_array" and
//! "arrow_array_stream" (the Arrow PyCapsule interface). The structs are arrow-rs's
//! (`arrow_schema::ffi`, `arrow_data::ffi`, `arrow_array::ffi_stream`), never redeclared here
//! ([`arrow_import_array`] reads an array's private members through the C layout, checked against
//! arrow-rs's struct).
//! Exporting needs no unsafe code: `arrow/arrays.rs` puts an arrow-rs struct in a capsule that
//! owns it, whose destructor releases it unless a consumer moved it out. Importing, reading a
//! stream and lending a column's bytes through the buffer protocol do need it, and are done
//! here. What they rely on:
//!
//! 1. A capsule is read only after its name is checked: one named "arrow_schema" points to an
//!    aligned, initialised `ArrowSchema`, "arrow_array" to an `ArrowArray`, "arrow_array_stream"
//!    to an `ArrowArrayStream` (the interface's contract with every producer), owned by the
//!    capsule, which the caller keeps alive. A capsule of another name, or not a capsule, is a
//!    `TypeError` before any read.
//! 2. A schema is borrowed, never moved: it stays its capsule's to release. It is read only
//!    while no Python code can run (so the capsule cannot be changed under it), and a released
//!    schema (`release` NULL, its strings possibly freed) is refused after reading only `release`.
//! 3. An array or a stream is *moved* out of its capsule ("moving an array" in the C data
//!    interface): the capsule is left holding a released struct, so its destructor does nothing
//!    and a second import of the same capsule finds `release` NULL and is refused (`ValueError`)
//!    instead of releasing the data twice.
//! 4. A producer is not trusted beyond what the interface cannot reveal. Every schema and
//!    array goes through the import ([`arrow_import_schema`], [`arrow_import_array`], each
//!    with its invariants, over [`arrow_import`]'s), which checks each pointer, count and
//!    string of the structures, children and dictionaries included, before reading through
//!    them or handing them to arrow-rs, and turns a panic into an error. An imported array is
//!    described by the schema it came with (the pair one `__arrow_c_array__` call returned, or
//!    the schema of its stream): buffer lengths are computed from that type, trusting the
//!    producer's memory as the interface does, and the result is validated in full before it
//!    leaves the import (`arrow_import`'s I4): the column code gets imported rows only as
//!    `Validated` chunks, which only `arrow_import` makes ([`validate`] for data of other
//!    origins), and converts them to arrow-rs arrays inside the same panic guard
//!    ([`array_of`]), so that an assertion of arrow-rs is a `ValueError` too.
//! 5. A stream's callbacks are called only while it is live (`release` set), on the struct this
//!    module owns, from one thread at a time; `get_last_error`'s string is copied at once,
//!    before the next call could free it. Dropping the struct releases the stream (arrow-rs's
//!    `Drop`), once.
//! 6. The buffer protocol lends a pointer into an immutable arrow `Buffer` held by a frozen
//!    object; the view holds a strong reference to that object (`view.obj`, set by
//!    `PyBuffer_FillInfo`), so the bytes outlive every other reference to it (NumPy's array
//!    keeps the column alive). The view is read-only: a request for a writable buffer is a
//!    `BufferError`.
//! 7. A stream's callbacks (`get_schema`, `get_next`, `get_last_error`, `release`) run with the
//!    thread detached from the interpreter (the GIL released, as pyarrow's own consumers do):
//!    a producer may wait there on threads of its own that need the GIL (pyarrow's streaming
//!    CSV reader over a Python file object; a scanner over a Python generator), and a producer
//!    written in Python attaches by itself. The closures run detached ([`detached`]) touch the
//!    stream, the C structs it fills and plain Rust values only, never a Python object or a
//!    pyo3 API, on the calling thread; signals are checked, attached, between chunks and when
//!    a callback fails.
//! 8. A callback that failed leaves no exception of its producer set on the thread: one that a
//!    producer written against the C API left there is taken ([`PyErr::take`]) before any
//!    other Python API runs. The failure is then reported as [`stream_error`] says: a
//!    `KeyboardInterrupt`, a `SystemExit` or any other exception that is not an `Exception`
//!    stays what it was (the exception itself, the exception of a signal handler that runs
//!    then, or one of the same class rebuilt from the producer's report), so that Ctrl-C in a
//!    producer is never a `ValueError` that `except Exception` swallows; every other failure
//!    is a `ValueError` with the producer's message.
//!
//! Tested by `tests/columns/test_arrow_ffi.py` (each invariant, section by section), with
//! `tests/columns/test_arrow_hostile.py` (hostile producers) and `tests/test_leaks.py`.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;

use super::{arrow_import, arrow_import_array, arrow_import_schema};
pub use arrow_import::Validated;

/// The capsule names of the Arrow PyCapsule interface.
pub const SCHEMA_CAPSULE: &std::ffi::CStr = c"arrow_schema";
/// See [`SCHEMA_CAPSULE`].
pub const ARRAY_CAPSULE: &std::ffi::CStr = c"arrow_array";
/// See [`SCHEMA_CAPSULE`].
pub const STREAM_CAPSULE: &std::ffi::CStr = c"arrow_array_stream";

/// The pointer held by `obj`, a capsule named `name` (invariant 1); `TypeError` naming `what`
/// otherwise.
fn capsule_pointer<T>(
    obj: &Bound<'_, PyAny>,
    name: &std::ffi::CStr,
    what: &str,
) -> PyResult<core::ptr::NonNull<T>> {
    use pyo3::types::{PyCapsule, PyCapsuleMethods};
    let wrong = || {
        super::errors::error::<PyTypeError>(format_args!(
            "{what} must be a PyCapsule named {:?}, got {}",
            name.to_string_lossy(),
            super::repr::short_repr(obj)
        ))
    };
    let capsule = obj.cast::<PyCapsule>().map_err(|_| wrong())?;
    if !capsule.is_valid_checked(Some(name)) {
        return Err(wrong());
    }
    Ok(capsule.pointer_checked(Some(name))?.cast())
}

fn released(what: &str, kind: &str) -> PyErr {
    super::errors::error::<pyo3::exceptions::PyValueError>(format_args!(
        "{what}: the Arrow {kind} in the capsule was already released or imported \
         (a capsule can be imported once)"
    ))
}

/// `err` of `arrow_import` as a Python exception: `MemoryError` or `ValueError`.
fn import_err(what: &str, err: &arrow_import::Error) -> PyErr {
    if err.is_out_of_memory() {
        super::errors::error::<pyo3::exceptions::PyMemoryError>(format_args!("{what}: {err}"))
    } else {
        super::errors::error::<pyo3::exceptions::PyValueError>(format_args!(
            "{what}: invalid Arrow data: {err}"
        ))
    }
}

/// `data` validated in full (invariant 4: `arrow_import::validated`), for data that did not
/// come through a capsule; `ValueError` naming `what` otherwise.
pub fn validate(data: arrow_data::ArrayData, what: &str) -> PyResult<Validated> {
    arrow_import::validated(data).map_err(|e| import_err(what, &e))
}

/// `chunk` as the arrow-rs array `T`, converted inside the panic guard (invariant 4).
pub fn array_of<T: From<arrow_data::ArrayData>>(chunk: Validated, what: &str) -> PyResult<T> {
    chunk.into_array().map_err(|e| import_err(what, &e))
}

/// The field described by `obj`, an "arrow_schema" capsule, which keeps its schema (invariants 1,
/// 2, 4).
pub fn import_field(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<arrow_schema::Field> {
    let schema = capsule_pointer::<arrow_schema::ffi::FFI_ArrowSchema>(obj, SCHEMA_CAPSULE, what)?;
    // SAFETY: invariant 1: the pointer of a capsule named "arrow_schema" is an aligned, initialised
    // `ArrowSchema` owned by the capsule, which `obj` keeps alive. Invariant 2: it is borrowed for
    // this function only, which runs no Python code; `release` is read before anything else.
    let schema = unsafe { schema.as_ref() };
    if schema.release.is_none() {
        return Err(released(what, "schema"));
    }
    // SAFETY: invariant 4: the producer's promise I1 of `arrow_import_schema`, which checks
    // the rest.
    unsafe { arrow_import_schema::import_field(schema) }.map_err(|e| import_err(what, &e))
}

/// The field and the data of an "arrow_schema" and an "arrow_array" capsule returned together
/// by one `__arrow_c_array__` call, if `accept` accepts the field (the array is then moved out
/// of its capsule, invariant 3, and validated, invariant 4); only the field otherwise.
pub fn import_array(
    schema: &Bound<'_, PyAny>,
    array: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&arrow_schema::Field) -> bool,
) -> PyResult<(arrow_schema::Field, Option<Validated>)> {
    use arrow_data::ffi::FFI_ArrowArray;
    let field = import_field(schema, what)?;
    if !accept(&field) {
        return Ok((field, None));
    }
    let pointer = capsule_pointer::<FFI_ArrowArray>(array, ARRAY_CAPSULE, what)?;
    // SAFETY: invariant 1: an aligned, initialised `ArrowArray` owned by the live capsule.
    // Invariant 3: `from_raw` moves it out and leaves a released struct in its place.
    let moved = unsafe { FFI_ArrowArray::from_raw(pointer.as_ptr()) };
    if moved.is_released() {
        return Err(released(what, "array"));
    }
    // SAFETY: invariant 4: the array was exported with this schema; `arrow_import_array` takes
    // ownership of it (released when the last buffer is dropped), checks what the interface can
    // reveal, computes buffer lengths from the type and validates the result.
    let data = unsafe { arrow_import_array::import_array(moved, field.data_type()) }
        .map_err(|e| import_err(what, &e))?;
    Ok((field, Some(data)))
}

/// `f`, run with this thread detached from the interpreter (invariant 7).
fn detached<T>(py: Python<'_>, f: impl FnOnce() -> T) -> T {
    /// A value carried into and out of `Python::detach`, which asks for `Send` so that no
    /// Python object crosses into code that runs without the GIL.
    struct Carried<T>(T);
    // SAFETY: invariant 7: what is carried (a closure over a stream's C structs and plain
    // values, and its result) holds no Python object, and it runs on this same thread.
    unsafe impl<T> Send for Carried<T> {}
    impl<T> Carried<T> {
        fn into_inner(self) -> T {
            self.0
        }
    }
    let f = Carried(f);
    py.detach(move || Carried(f.into_inner()())).into_inner()
}

/// The field of an "arrow_array_stream" capsule and, if `accept` accepts it, every array of
/// the stream, read to its end. The stream is moved out of its capsule (invariant 3), read through
/// its callbacks (invariants 5 and 7) and released; each array is validated (invariant 4).
pub fn import_stream(
    obj: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&arrow_schema::Field) -> bool,
) -> PyResult<(arrow_schema::Field, Option<Vec<Validated>>)> {
    use arrow_array::ffi_stream::FFI_ArrowArrayStream;
    let pointer = capsule_pointer::<FFI_ArrowArrayStream>(obj, STREAM_CAPSULE, what)?;
    // SAFETY: invariant 1: an aligned, initialised `ArrowArrayStream` owned by the live capsule.
    // Invariant 3: `from_raw` moves it out and leaves a released struct in its place; dropping
    // `stream` below releases it (invariant 5).
    let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(pointer.as_ptr()) };
    if stream.release.is_none() {
        return Err(released(what, "stream"));
    }
    let read = read_stream(obj.py(), &mut stream, what, accept);
    // A producer may join its threads when released (invariant 7).
    detached(obj.py(), move || drop(stream));
    read
}

/// [`import_stream`] of a live stream, which the caller releases.
fn read_stream(
    py: Python<'_>,
    stream: &mut arrow_array::ffi_stream::FFI_ArrowArrayStream,
    what: &str,
    accept: impl Fn(&arrow_schema::Field) -> bool,
) -> PyResult<(arrow_schema::Field, Option<Vec<Validated>>)> {
    use arrow_data::ffi::FFI_ArrowArray;
    use arrow_schema::ffi::FFI_ArrowSchema;
    let (Some(get_schema), Some(get_next)) = (stream.get_schema, stream.get_next) else {
        return Err(super::errors::error::<pyo3::exceptions::PyValueError>(
            format_args!(
                "{what}: invalid Arrow data: the stream has no get_schema or get_next callback"
            ),
        ));
    };
    let mut schema = FFI_ArrowSchema::empty();
    // SAFETY: invariant 5: the stream is live and owned by the caller; `get_schema` fills
    // `schema`, which is then ours and released when dropped, or returns an error code and
    // leaves it released. Invariant 7: detached, touching the C structs alone.
    let code = detached(py, || unsafe {
        get_schema(&raw mut *stream, &raw mut schema)
    });
    if code != 0 {
        return Err(stream_error(py, stream, code, what));
    }
    if schema.release.is_none() {
        return Err(super::errors::error::<pyo3::exceptions::PyValueError>(
            format_args!(
                "{what}: invalid Arrow data: the stream's get_schema gave a released schema"
            ),
        ));
    }
    // SAFETY: invariant 4: the producer's promise I1 of `arrow_import_schema`, which checks
    // the rest.
    let field =
        unsafe { arrow_import_schema::import_field(&schema) }.map_err(|e| import_err(what, &e))?;
    if !accept(&field) {
        return Ok((field, None));
    }
    let mut arrays = Vec::new();
    loop {
        // A stream may never end: a signal handler's exception stops it.
        py.check_signals()?;
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: invariants 5 and 7, as for `get_schema`: `array` is filled with an array we
        // own, or left released at the end of the stream.
        let code = detached(py, || unsafe { get_next(&raw mut *stream, &raw mut array) });
        if code != 0 {
            return Err(stream_error(py, stream, code, what));
        }
        if array.is_released() {
            return Ok((field, Some(arrays)));
        }
        arrays.try_reserve(1).map_err(|_| {
            super::errors::cannot_allocate(Some(what), format_args!("{} chunks", arrays.len() + 1))
        })?;
        // SAFETY: invariant 4: every array of a stream has the stream's schema;
        // `arrow_import_array` checks what the interface can reveal and validates the result.
        let data = unsafe { arrow_import_array::import_array(array, field.data_type()) }
            .map_err(|e| import_err(what, &e))?;
        arrays.push(data);
    }
}

/// The error of a stream callback that returned `code` (an errno value), in this order
/// (invariant 8):
/// - an exception the producer left set on this thread, if it is not an `Exception`;
/// - the exception of a signal handler, run now: a signal that arrived while the producer ran
///   detached (what stopped it, perhaps) has the last word, as it has between chunks (a
///   producer that runs Python code when it fails, as pyarrow's do to format the exception
///   they report, runs the handler there itself, and loses its exception);
/// - a new exception of the class and with the message of the Python exception that is not an
///   `Exception` that the stream's message reports ([`reported_exception`]): Ctrl-C in a Python
///   generator behind pyarrow's `RecordBatchReader`, which keeps the exception itself from its
///   C consumers;
/// - a `ValueError` with the stream's own message when it has one, caused by the exception
///   the producer left set, if any.
fn stream_error(
    py: Python<'_>,
    stream: &mut arrow_array::ffi_stream::FFI_ArrowArrayStream,
    code: std::ffi::c_int,
    what: &str,
) -> PyErr {
    let left = match PyErr::take(py) {
        Some(err) if !err.is_instance_of::<pyo3::exceptions::PyException>(py) => return err,
        left => left,
    };
    // Before `get_last_error`: a producer that runs Python code there would run the handler
    // inside its callback, where the handler's exception is lost.
    if let Err(err) = py.check_signals() {
        return err;
    }
    let message = stream.get_last_error.and_then(|get_last_error| {
        // SAFETY: invariant 5: the stream is live; the callback returns NULL or a NUL-terminated
        // string valid until the next call on the stream, which is copied before anything else.
        // Invariant 7: detached, touching the stream and a Rust string alone.
        detached(py, || unsafe {
            let text = get_last_error(stream);
            (!text.is_null()).then(|| {
                std::ffi::CStr::from_ptr(text)
                    .to_string_lossy()
                    .into_owned()
            })
        })
    });
    if let Some(err) = message.as_deref().and_then(|m| reported_exception(py, m)) {
        return err;
    }
    let err = super::errors::error::<pyo3::exceptions::PyValueError>(format_args!(
        "{what}: the Arrow stream failed (error code {code}): {}",
        message.as_deref().unwrap_or("no message")
    ));
    err.set_cause(py, left);
    err
}

/// A new exception like the Python exception that `report`, a stream's message, reports, if
/// that one was not an `Exception` (`KeyboardInterrupt`, `SystemExit`, `GeneratorExit`, a
/// `BaseException` of the program's own).
///
/// Arrow C++ reports a Python exception that a producer raised (pyarrow's readers over Python
/// code) by its text alone: `"<status>: <str(exc)>. Detail: Python exception: <traceback>"`, the
/// traceback that `traceback.format_exception` writes, whose last line is `<class>` (when
/// `str(exc)` is empty) or `<class>: <str(exc)>`, after the last frame's indented lines, the
/// class qualified by its module unless it is a built-in or `__main__`'s. The message must be
/// the same in both places, so that an exception whose message merely ends in a class name is
/// not taken for that class (nor is one with notes, which follow that line: the report of an
/// exception with notes stays a `ValueError`). The class is looked up among the modules already
/// imported (`sys.modules`: nothing is imported) and called with the message (an int for
/// `SystemExit`, whose message is its exit status); a class that cannot be found or called
/// leaves the report a `ValueError`.
fn reported_exception(py: Python<'_>, report: &str) -> Option<PyErr> {
    let (class, message) = python_exception_in(report)?;
    let class = imported_class(py, class)?;
    let base = class.is_subclass_of::<pyo3::exceptions::PyBaseException>();
    let ordinary = class.is_subclass_of::<pyo3::exceptions::PyException>();
    if !matches!((base, ordinary), (Ok(true), Ok(false))) {
        return None;
    }
    let made = if message.is_empty() {
        class.call0()
    } else if let (true, Ok(status)) = (
        class.is(py.get_type::<pyo3::exceptions::PySystemExit>()),
        message.parse::<i64>(),
    ) {
        class.call1((status,))
    } else {
        super::new_str(py, message).and_then(|message| class.call1((message,)))
    };
    made.ok().map(PyErr::from_value)
}

/// The class name and the message of the Python exception that `report` gives in Arrow C++'s
/// form (see [`reported_exception`]), if it is in that form.
fn python_exception_in(report: &str) -> Option<(&str, &str)> {
    let (head, detail) = report.split_once(". Detail: Python exception: ")?;
    let (_status, message) = head.split_once(": ")?;
    let detail = detail.strip_suffix('\n').unwrap_or(detail);
    let last = if message.is_empty() {
        detail
    } else {
        detail.strip_suffix(message)?.strip_suffix(": ")?
    };
    // The class line stands alone or follows the traceback's last frame (an indented line), not
    // a note added to another exception.
    let (before, class) = last.rsplit_once('\n').unwrap_or(("", last));
    let frame = before.rsplit('\n').next().unwrap_or("");
    if !(frame.is_empty() || frame.starts_with(' ')) {
        return None;
    }
    let identifier = |part: &str| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    class.split('.').all(identifier).then_some((class, message))
}

/// The class that `name` (`KeyboardInterrupt`, `Cancelled`, `package.module.Outer.Inner`)
/// names among the modules already imported: a built-in or `__main__`'s when it has no module,
/// else found under the longest module prefix of `name` that `sys.modules` holds.
fn imported_class<'py>(py: Python<'py>, name: &str) -> Option<Bound<'py, pyo3::types::PyType>> {
    let modules = py
        .import(crate::interned!(py, c"sys").ok()?)
        .ok()?
        .getattr(crate::interned!(py, c"modules").ok()?)
        .ok()?;
    let splits = name
        .rmatch_indices('.')
        .map(|(i, _)| (&name[..i], &name[i + 1..]));
    [("builtins", name), ("__main__", name)]
        .into_iter()
        .chain(splits)
        .find_map(|(module, path)| {
            let mut found = modules.get_item(super::new_str(py, module).ok()?).ok()?;
            for part in path.split('.') {
                found = found.getattr(super::new_str(py, part).ok()?).ok()?;
            }
            found.cast_into::<pyo3::types::PyType>().ok()
        })
}

/// The read-only bytes behind a column object, lent through the buffer protocol
/// (`memoryview(column)`, `numpy.frombuffer(column, dtype="V16")`); `uuidx.arrow.UUIDArray`
/// extends it. The bytes are one arrow `Buffer`, immutable and shared, never copied (invariant 6).
#[pyclass(subclass, frozen, module = "uuidx.arrow", name = "_ReadOnlyBytes")]
pub struct ReadOnlyBytes {
    bytes: arrow_buffer::Buffer,
}

impl ReadOnlyBytes {
    /// Lends `bytes`.
    pub fn new(bytes: arrow_buffer::Buffer) -> Self {
        Self { bytes }
    }
}

#[pymethods]
impl ReadOnlyBytes {
    /// A one-dimensional, read-only view of unsigned bytes.
    unsafe fn __getbuffer__(
        slf: &Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: std::ffi::c_int,
    ) -> PyResult<()> {
        let bytes = &slf.get().bytes;
        let len = isize::try_from(bytes.len())
            .map_err(|_| super::errors::error::<PyTypeError>(format_args!("buffer too long")))?;
        // SAFETY: invariant 6. `view` is the interpreter's to fill. `PyBuffer_FillInfo` stores a
        // new reference to `slf` in `view.obj` (dropped by `PyBuffer_Release`), marks the view
        // read-only and refuses `PyBUF_WRITABLE` with a BufferError; the pointer is never
        // written through. `bytes` lives as long as `slf`, whose field cannot change (frozen).
        let code = unsafe {
            ffi::PyBuffer_FillInfo(
                view,
                slf.as_ptr(),
                bytes.as_ptr().cast_mut().cast(),
                len,
                1,
                flags,
            )
        };
        if code == 0 {
            Ok(())
        } else {
            Err(PyErr::fetch(slf.py()))
        }
    }
}
