//! `uuidx._core`: pyo3 bindings for `uuidx-core`.
//!
//! Each function converts its arguments (see `convert`), calls the core, and returns an exact
//! `uuid.UUID` built by `ffi::new_uuid`. Errors become `ValueError`/`TypeError` (or
//! `ClockRollbackError`) with messages that name the value. The module holds no state that
//! relies on the GIL and declares `gil_used = false` for free-threaded Python. It is imported in
//! the main interpreter only (`ffi::require_main_interpreter`): subinterpreters get an
//! `ImportError`.
//!
//! Unsafe code lives in `ffi/`, one contract per file: the crate denies it everywhere else.

#![deny(unsafe_code)]

mod arrow;
mod bulk;
mod catalogues;
mod column_bytes;
mod convert;
mod encodings;
#[allow(unsafe_code)]
mod ffi;
mod generators;
mod signals;
mod sources;

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use uuidx_core::generator;
use uuidx_core::layout::{self, Layout};
use uuidx_core::name::{self, Algorithm};
use uuidx_core::{random, Uuid};

use convert::{field_u64, masked_u64, name_bytes, type_error, uuid_value as uuid_arg};
use errors::IntoPy;
use ffi::fast_bodies as fast;
use ffi::{errors, repr};
use ffi::{new_uuid, Out, OutValue as _};

fn opt_masked(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u64>> {
    obj.filter(|o| !o.is_none())
        .map(|o| masked_u64(o, what))
        .transpose()
}

/// A version 1 UUID (RFC 9562 §5.1) from the process-wide lock-free generator.
///
/// Like Python 3.14's ``uuid.uuid1``: ``node`` must be below 2**48 (``ValueError``
/// otherwise) and ``clock_seq`` keeps its low 14 bits. Without ``node``, a random
/// 48-bit node with the multicast bit set, drawn once per process (RFC 9562 §6.10); no MAC
/// address is read.
#[pyfunction]
#[pyo3(signature = (node=None, clock_seq=None))]
fn uuid1<'py>(
    py: Python<'py>,
    node: Option<&Bound<'py, PyAny>>,
    clock_seq: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let node = node
        .filter(|o| !o.is_none())
        .map(|o| {
            let (name, bits) = layout::v1::NODE;
            field_u64(o, name, bits)
        })
        .transpose()?;
    let clock_seq = opt_masked(clock_seq, "clock_seq")?;
    new_uuid(py, generator::uuid1(node, clock_seq).py_err()?.as_u128())
}

/// A version 3 UUID (RFC 9562 §5.3): MD5 of the namespace and the name (``str`` as
/// UTF-8, or bytes).
#[pyfunction]
fn uuid3<'py>(
    namespace: &Bound<'py, PyAny>,
    name: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let ns = convert::namespace(namespace)?;
    new_uuid(namespace.py(), name::v3(ns, &name_bytes(name)?).as_u128())
}

/// A version 4 UUID (RFC 9562 §5.4) from a per-thread ChaCha12 CSPRNG seeded by the OS.
#[pyfunction]
fn uuid4(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    new_uuid(py, generator::uuid4().as_u128())
}

/// A version 5 UUID (RFC 9562 §5.5): SHA-1 of the namespace and the name (``str`` as
/// UTF-8, or bytes), truncated to 128 bits.
#[pyfunction]
fn uuid5<'py>(
    namespace: &Bound<'py, PyAny>,
    name: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let ns = convert::namespace(namespace)?;
    new_uuid(namespace.py(), name::v5(ns, &name_bytes(name)?).as_u128())
}

/// A version 6 UUID (RFC 9562 §5.6) from the process-wide lock-free generator.
///
/// Like Python 3.14's ``uuid.uuid6``: ``node`` and ``clock_seq`` keep their low 48 and
/// 14 bits. Without ``node``, the process's random multicast node (RFC 9562 §6.10).
#[pyfunction]
#[pyo3(signature = (node=None, clock_seq=None))]
fn uuid6<'py>(
    py: Python<'py>,
    node: Option<&Bound<'py, PyAny>>,
    clock_seq: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let node = opt_masked(node, "node")?;
    let clock_seq = opt_masked(clock_seq, "clock_seq")?;
    new_uuid(py, generator::uuid6(node, clock_seq).py_err()?.as_u128())
}

/// A version 7 UUID (RFC 9562 §5.7) from the process-wide lock-free monotonic generator:
/// each call returns a UUID greater than every earlier one in this process.
///
/// ``shift`` (a ``datetime.timedelta`` or an int of nanoseconds) moves the UUID's time (its
/// millisecond and sub-millisecond fraction, to 1/4096 ms) by that much, as PostgreSQL 18's
/// ``uuidv7(interval)`` does: the UUID is still the next of the process-wide sequence, so UUIDs
/// made with the same shift are distinct and increasing.
#[pyfunction]
#[pyo3(signature = (*, shift=None))]
fn uuid7<'py>(py: Python<'py>, shift: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    let shift = convert::shift_arg(shift)?;
    new_uuid(py, generator::uuid7_shifted(shift).py_err()?.as_u128())
}

/// Every call of `uuid7` but the plain `uuid7()` of its fast body: read here, not by pyo3's
/// argument handling, which aborts when memory runs out (see `ffi::CallBody`).
fn uuid7_other_calls<'py>(
    py: Python<'py>,
    call: ffi::CallArgs<'_, 'py>,
) -> Result<Bound<'py, PyAny>, ffi::FastError> {
    let shift = convert::keyword_only("uuid7", &call, "shift")?;
    Ok(uuid7(py, shift.as_ref())?)
}

/// A version 8 UUID (RFC 9562 §5.8) from 48, 12 and 62 bits of custom data.
///
/// Like Python 3.14's ``uuid.uuid8``: each part keeps its low 48, 12 and 62 bits; a
/// missing part is random (from the CSPRNG).
#[pyfunction]
#[pyo3(signature = (a=None, b=None, c=None))]
fn uuid8<'py>(
    py: Python<'py>,
    a: Option<&Bound<'py, PyAny>>,
    b: Option<&Bound<'py, PyAny>>,
    c: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b, c) = (
        opt_masked(a, "a")?,
        opt_masked(b, "b")?,
        opt_masked(c, "c")?,
    );
    new_uuid(py, generator::uuid8(a, b, c).as_u128())
}

/// A name-based version 8 UUID (RFC 9562 §5.8, Appendix B.2): the leftmost 128 bits of
/// ``algorithm`` over the namespace and the name. ``algorithm`` is one of hashlib's names
/// ``sha256``, ``sha512``, ``sha3_256``, ``sha3_512``, ``shake_128``, ``shake_256``.
#[pyfunction]
#[pyo3(signature = (namespace, name, algorithm=None), text_signature = "(namespace, name, algorithm='sha256')")]
fn uuid8_name<'py>(
    namespace: &Bound<'py, PyAny>,
    name: &Bound<'py, PyAny>,
    algorithm: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let algorithm = match algorithm {
        None => Algorithm::Sha256,
        Some(a) => {
            let text = a
                .cast::<PyString>()
                .map_err(|_| type_error("algorithm", "a str", a))?;
            Algorithm::for_v8(&text.to_cow()?).py_err()?
        }
    };
    let ns = convert::namespace(namespace)?;
    new_uuid(
        namespace.py(),
        name::v8(ns, &name_bytes(name)?, algorithm).as_u128(),
    )
}

/// The UUID written in ``s``: hyphenated (RFC 9562 §4), 32 hex digits, ``{braced}`` or
/// ``urn:uuid:`` (prefix in any case), hex digits in any case. ``ValueError`` naming the
/// text and the position of the first problem otherwise; ``TypeError`` for a non-str.
#[pyfunction]
fn parse<'py>(s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = convert::parse_text(s, "parse() argument")?;
    new_uuid(s.py(), value.as_u128())
}

/// Version 1 from a 60-bit timestamp (100-ns intervals since 1582-10-15), a 14-bit
/// clock sequence and a 48-bit node (RFC 9562 §5.1).
///
/// Raises:
///     TypeError: a field is not an int.
///     ValueError: a field does not fit its width.
#[pyfunction]
fn layout_v1<'py>(
    py: Python<'py>,
    time_100ns: &Bound<'py, PyAny>,
    clock_seq: &Bound<'py, PyAny>,
    node: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let [v0, v1, v2] = convert::int_fields([time_100ns, clock_seq, node], &layout::v1::FIELDS)?;
    new_uuid(py, layout::v1::new(v0, v1, v2).py_err()?.as_u128())
}

/// Version 2, DCE Security: an 8-bit local domain (0 person, 1 group, 2 org), a 32-bit
/// local id (a POSIX UID/GID), a 60-bit timestamp of which the high 28 bits are kept, a
/// 6-bit clock sequence and a 48-bit node (RFC 9562 §5.2; DCE 1.1).
///
/// Raises:
///     TypeError: a field is not an int.
///     ValueError: a field does not fit its width.
#[pyfunction]
fn layout_v2<'py>(
    py: Python<'py>,
    local_domain: &Bound<'py, PyAny>,
    local_id: &Bound<'py, PyAny>,
    time_100ns: &Bound<'py, PyAny>,
    clock_seq: &Bound<'py, PyAny>,
    node: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let [v0, v1, v2, v3, v4] = convert::int_fields(
        [local_domain, local_id, time_100ns, clock_seq, node],
        &layout::v2::FIELDS,
    )?;
    new_uuid(py, layout::v2::new(v0, v1, v2, v3, v4).py_err()?.as_u128())
}

/// Version 4 from 16 random bytes; the version and variant bits are overwritten
/// (RFC 9562 §5.4).
///
/// Raises:
///     TypeError: ``random`` is not bytes-like.
///     ValueError: ``random`` is not 16 bytes long.
#[pyfunction]
fn layout_v4<'py>(py: Python<'py>, random: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let bytes =
        convert::buffer_bytes(random).ok_or_else(|| type_error("random", "16 bytes", random))?;
    let u = Uuid::from_slice(&bytes).py_err()?;
    new_uuid(py, layout::v4::from_random_bytes(u.to_bytes()).as_u128())
}

/// Version 6 from a 60-bit timestamp (100-ns intervals since 1582-10-15), a 14-bit
/// clock sequence and a 48-bit node (RFC 9562 §5.6).
///
/// Raises:
///     TypeError: a field is not an int.
///     ValueError: a field does not fit its width.
#[pyfunction]
fn layout_v6<'py>(
    py: Python<'py>,
    time_100ns: &Bound<'py, PyAny>,
    clock_seq: &Bound<'py, PyAny>,
    node: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let [v0, v1, v2] = convert::int_fields([time_100ns, clock_seq, node], &layout::v6::FIELDS)?;
    new_uuid(py, layout::v6::new(v0, v1, v2).py_err()?.as_u128())
}

/// Version 7 from a 48-bit Unix millisecond timestamp, 12 bits of ``rand_a`` and 62 bits
/// of ``rand_b`` (RFC 9562 §5.7).
///
/// Raises:
///     TypeError: a field is not an int.
///     ValueError: a field does not fit its width.
#[pyfunction]
fn layout_v7<'py>(
    py: Python<'py>,
    unix_ts_ms: &Bound<'py, PyAny>,
    rand_a: &Bound<'py, PyAny>,
    rand_b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let [v0, v1, v2] = convert::int_fields([unix_ts_ms, rand_a, rand_b], &layout::v7::FIELDS)?;
    new_uuid(py, layout::v7::new(v0, v1, v2).py_err()?.as_u128())
}

/// Version 8 from 48, 12 and 62 bits of custom data (RFC 9562 §5.8).
///
/// Raises:
///     TypeError: a field is not an int.
///     ValueError: a field does not fit its width.
#[pyfunction]
fn layout_v8<'py>(
    py: Python<'py>,
    custom_a: &Bound<'py, PyAny>,
    custom_b: &Bound<'py, PyAny>,
    custom_c: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let [v0, v1, v2] = convert::int_fields([custom_a, custom_b, custom_c], &layout::v8::FIELDS)?;
    new_uuid(py, layout::v8::new(v0, v1, v2).py_err()?.as_u128())
}

/// ``(layout, names, values)`` of a UUID's RFC 9562 fields, ``layout`` being ``"v1"`` to
/// ``"v8"``, ``"nil"`` or ``"max"``; ``ValueError`` for UUIDs without an RFC layout.
#[pyfunction]
fn fields<'py>(py: Python<'py>, u: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let u = uuid_arg(u, "u")?;
    let layout = Layout::of(u).py_err()?;
    let (names, values): (Vec<&str>, Vec<u64>) = layout.values(u).unzip();
    let names = ffi::new_tuple(py, names.into_iter().map(|n| n.make(py)))?;
    let values = ffi::new_tuple(py, values.into_iter().map(|v| v.make(py)))?;
    ffi::new_tuple(
        py,
        [
            layout.name.make(py),
            Ok(names.into_any()),
            Ok(values.into_any()),
        ]
        .into_iter(),
    )
}

/// Nanoseconds since the Unix epoch of the timestamp in a version 1, 6 or 7 UUID
/// (negative before 1970); ``ValueError`` for any other UUID.
#[pyfunction]
fn timestamp_ns(u: &Bound<'_, PyAny>) -> PyResult<ffi::Out<i128>> {
    uuid_arg(u, "u")?.timestamp_unix_ns().py_err().map(ffi::Out)
}

/// The version 6 UUID with the timestamp, clock sequence and node of version 1 UUID ``u``
/// (RFC 9562 §5.6).
#[pyfunction]
fn v1_to_v6<'py>(u: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    new_uuid(
        u.py(),
        layout::v6::from_v1(uuid_arg(u, "u")?).py_err()?.as_u128(),
    )
}

/// The version 1 UUID with the timestamp, clock sequence and node of version 6 UUID ``u``.
#[pyfunction]
fn v6_to_v1<'py>(u: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    new_uuid(
        u.py(),
        layout::v1::from_v6(uuid_arg(u, "u")?).py_err()?.as_u128(),
    )
}

/// The random 48-bit multicast node this process uses for v1 and v6 (RFC 9562 §6.10).
#[pyfunction]
fn process_node() -> ffi::Out<u64> {
    ffi::Out(random::process_node())
}

/// Marks this process as a forked child (once per process id): every random source reseeds
/// and a new process node is drawn. Registered with ``os.register_at_fork``; the core's
/// ``pthread_atfork`` handler calls the same function for any fork, so one fork counts once.
#[pyfunction]
fn _after_fork_in_child() {
    uuidx_core::fork::note_fork_once();
}

/// ``True`` when UUIDs are built by storing ``uuid.UUID``'s slots directly (the fast path),
/// ``False`` when the module fell back to calling ``uuid.UUID(int=...)``.
#[pyfunction]
fn _uses_slot_stores(py: Python<'_>) -> PyResult<bool> {
    Ok(ffi::UuidType::get(py)?.uses_slots())
}

/// ``True`` when ints are built and read through their 30-bit digits (CPython, layout verified
/// at import, and not on the fallback path).
#[pyfunction]
fn _uses_int_digits(py: Python<'_>) -> PyResult<bool> {
    Ok(ffi::UuidType::get(py)?.uses_digits())
}

/// ``True`` when ``uuid.UUID`` instances are allocated with ``PyObject_GC_New`` (GIL builds
/// of CPython whose ``uuid.UUID`` uses ``PyType_GenericAlloc``).
#[pyfunction]
fn _uses_gc_new(py: Python<'_>) -> PyResult<bool> {
    Ok(ffi::UuidType::get(py)?.uses_gc_new())
}

/// ``True`` when the extension was built with Rust debug assertions (the test suite's third
/// pass: misaligned pointers and integer overflow abort instead of passing silently).
#[pyfunction]
fn _debug_build() -> bool {
    cfg!(debug_assertions)
}

/// How many calls the fast bodies of the hot functions have handled (not declined) so far, in
/// a debug build; ``None`` in a release build, which does not count them.
#[pyfunction]
fn _fast_calls() -> Option<u64> {
    ffi::fast_calls()
}

/// The 16 bytes of a UUIDv47 key, or `TypeError`/`ValueError` naming it.
pub(crate) fn mask_key(key: &Bound<'_, PyAny>) -> PyResult<[u8; 16]> {
    let bytes = convert::buffer_bytes(key).ok_or_else(|| type_error("key", "16 bytes", key))?;
    uuidx_core::mask::key(&bytes).py_err()
}

/// The v4-looking facade of version 7 UUID ``u`` under the 16-byte ``key`` (UUIDv47): the
/// timestamp XOR-ed with a keyed SipHash-2-4 of the random bits, the version set to 4.
/// ``ValueError`` unless ``u`` is version 7 and ``key`` 16 bytes.
#[pyfunction]
fn mask_v7<'py>(u: &Bound<'py, PyAny>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = uuid_arg(u, "u")?;
    let masked = uuidx_core::mask::mask_v7(value, &mask_key(key)?).py_err()?;
    new_uuid(u.py(), masked.as_u128())
}

/// The version 7 UUID behind the facade ``u`` under the 16-byte ``key`` (UUIDv47).
/// ``ValueError`` unless ``u`` is version 4 and ``key`` 16 bytes.
#[pyfunction]
fn unmask_v7<'py>(u: &Bound<'py, PyAny>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = uuid_arg(u, "u")?;
    let unmasked = uuidx_core::mask::unmask_v7(value, &mask_key(key)?).py_err()?;
    new_uuid(u.py(), unmasked.as_u128())
}

/// Installs deterministic process-wide generators for ``seed`` (bytes), clocks starting at
/// ``start_ns`` and moving ``step_ns`` per reading; returns a token for
/// ``_stand_in_uninstall``. Used by ``uuidx.testing.deterministic``.
#[pyfunction]
fn _stand_in_install_seeded(
    seed: &Bound<'_, PyAny>,
    start_ns: &Bound<'_, PyAny>,
    step_ns: &Bound<'_, PyAny>,
) -> PyResult<Out<u64>> {
    let seed = convert::buffer_bytes(seed).ok_or_else(|| type_error("seed", "bytes", seed))?;
    let start = field_u64(start_ns, "start_ns", 64)?;
    let step = field_u64(step_ns, "step_ns", 64)?;
    let generators = generator::deterministic::StandIn::seeded(&seed, start, step).py_err()?;
    Ok(Out(generator::deterministic::install(generators)))
}

/// Installs fresh process-wide time-based generators that read ``time.time_ns()`` through
/// Python at each reading; returns a token for ``_stand_in_uninstall``. Used by
/// ``uuidx.testing.follow_python_clock``.
#[pyfunction]
fn _stand_in_install_python_clock() -> PyResult<Out<u64>> {
    let generators =
        generator::deterministic::StandIn::on_clock(|| Box::new(sources::PythonTime)).py_err()?;
    Ok(Out(generator::deterministic::install(generators)))
}

/// Removes the stand-in installed with ``token``; ``False`` if none was.
#[pyfunction]
fn _stand_in_uninstall(token: u64) -> bool {
    generator::deterministic::uninstall(token)
}

/// ``repr(obj)`` shortened for error messages (at most about 80 characters, never built in
/// full), as the extension's own messages show values.
#[pyfunction]
fn _short_repr<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
    ffi::new_str(obj.py(), &repr::short_repr(obj))
}

/// A hot function for `ffi::add_fast_functions`.
fn hot<'py>(
    name: &'static std::ffi::CStr,
    max_args: usize,
    body: ffi::FastBody,
    full: Bound<'py, pyo3::types::PyCFunction>,
) -> ffi::FastFunction<'py> {
    ffi::FastFunction {
        name,
        max_args,
        body,
        other_calls: None,
        full: full.into_any(),
    }
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // Before anything is kept for the life of the process.
    ffi::require_main_interpreter(py)?;
    ffi::errors::intern_type_names(py)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The hot functions: a C entry point with a fast body, and the full function behind it.
    ffi::add_fast_functions(
        m,
        vec![
            hot(c"uuid1", 0, fast::uuid1, wrap_pyfunction!(uuid1, m)?),
            hot(c"uuid3", 2, fast::uuid3, wrap_pyfunction!(uuid3, m)?),
            hot(c"uuid4", 0, fast::uuid4, wrap_pyfunction!(uuid4, m)?),
            hot(c"uuid5", 2, fast::uuid5, wrap_pyfunction!(uuid5, m)?),
            hot(c"uuid6", 0, fast::uuid6, wrap_pyfunction!(uuid6, m)?),
            // Every other call of uuid7 (its keyword) is read by uuidx, not pyo3.
            ffi::FastFunction {
                other_calls: Some(uuid7_other_calls),
                ..hot(c"uuid7", 0, fast::uuid7, wrap_pyfunction!(uuid7, m)?)
            },
            hot(c"uuid8", 0, fast::uuid8, wrap_pyfunction!(uuid8, m)?),
            hot(
                c"uuid8_name",
                2,
                fast::uuid8_name,
                wrap_pyfunction!(uuid8_name, m)?,
            ),
            hot(c"parse", 1, fast::parse, wrap_pyfunction!(parse, m)?),
            hot(
                c"to_str",
                1,
                fast::to_str,
                wrap_pyfunction!(bulk::to_str, m)?,
            ),
            hot(
                c"uuid4_str",
                0,
                fast::uuid4_str,
                wrap_pyfunction!(bulk::uuid4_str, m)?,
            ),
            hot(
                c"uuid7_str",
                0,
                fast::uuid7_str,
                wrap_pyfunction!(bulk::uuid7_str, m)?,
            ),
        ],
    )?;
    m.add_function(wrap_pyfunction!(layout_v1, m)?)?;
    m.add_function(wrap_pyfunction!(layout_v2, m)?)?;
    m.add_function(wrap_pyfunction!(layout_v4, m)?)?;
    m.add_function(wrap_pyfunction!(layout_v6, m)?)?;
    m.add_function(wrap_pyfunction!(layout_v7, m)?)?;
    m.add_function(wrap_pyfunction!(layout_v8, m)?)?;
    m.add_function(wrap_pyfunction!(fields, m)?)?;
    m.add_function(wrap_pyfunction!(timestamp_ns, m)?)?;
    m.add_function(wrap_pyfunction!(v1_to_v6, m)?)?;
    m.add_function(wrap_pyfunction!(v6_to_v1, m)?)?;
    m.add_function(wrap_pyfunction!(process_node, m)?)?;
    m.add_function(wrap_pyfunction!(_after_fork_in_child, m)?)?;
    m.add_function(wrap_pyfunction!(_uses_slot_stores, m)?)?;
    m.add_function(wrap_pyfunction!(_uses_int_digits, m)?)?;
    m.add_function(wrap_pyfunction!(_uses_gc_new, m)?)?;
    m.add_function(wrap_pyfunction!(_short_repr, m)?)?;
    m.add_function(wrap_pyfunction!(_debug_build, m)?)?;
    m.add_function(wrap_pyfunction!(_fast_calls, m)?)?;
    m.add_function(wrap_pyfunction!(mask_v7, m)?)?;
    m.add_function(wrap_pyfunction!(unmask_v7, m)?)?;
    m.add_function(wrap_pyfunction!(_stand_in_install_seeded, m)?)?;
    m.add_function(wrap_pyfunction!(_stand_in_install_python_clock, m)?)?;
    m.add_function(wrap_pyfunction!(_stand_in_uninstall, m)?)?;
    // pyo3 checks every exception it fetches against PanicException's type: make it now, so
    // that no later call has to (nor can fail to, out of memory).
    py.get_type::<pyo3::panic::PanicException>();
    // pyo3 reads `thread::current()` when it normalises an error, and the standard library
    // registers that thread-local's destructor with the C library on first use, which aborts
    // when the allocation fails: register the importing thread's now.
    let _ = std::thread::current();
    random::prepare_thread();
    // pyo3 imports `collections.abc` on the first `cast::<PySequence>()` of an object that is
    // not a list or tuple (the Arrow inputs): import it now, for the same reason.
    let _ = py.None().into_bound(py).cast::<pyo3::types::PySequence>();
    m.add("ClockError", py.get_type::<errors::ClockError>())?;
    m.add(
        "ClockRollbackError",
        py.get_type::<errors::ClockRollbackError>(),
    )?;
    m.add("NamespaceTypeError", convert::namespace_error_type(py)?)?;
    generators::register(m)?;
    bulk::register(m)?;
    encodings::register(m)?;
    catalogues::register(m)?;
    arrow::register(m)?;
    // Resolve uuid.UUID now, so that a broken environment fails at import, not mid-request.
    ffi::UuidType::get(py)?;
    Ok(())
}
