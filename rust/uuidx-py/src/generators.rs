//! Independent generators (`V7Generator`, `V6Generator`, `V1Generator`) and the v7 time
//! helpers. Each class wraps a `uuidx-core` generator (lock-free where its `lock_free` says so)
//! and is `frozen`, so it can be shared between threads (free-threaded Python included)
//! without a lock of its own. A class holding
//! Python callables (`clock=`, `random=`) reports them to the cycle collector and lets it clear
//! them (`sources::Held`), so a generator in a reference cycle is freed like any object.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use uuidx_core::clock::{Clock, Shifted};
use uuidx_core::generator::{GregorianGenerator, RollbackPolicy, V7Generator as CoreV7, V7Method};
use uuidx_core::layout::v7;
use uuidx_core::random::RandomSource;
use uuidx_core::random::ThreadRandom;
use uuidx_core::Uuid;

use crate::convert::{count_arg, field_u64, str_arg, unix_ns_arg};
use crate::ffi::errors::IntoPy;
use crate::ffi::{new_uuid, Out};
use crate::sources::{
    clock_arg, clock_or_system, random_arg, random_or_thread, DynClock, DynRandom, Held,
};

fn policy(name: &Bound<'_, PyAny>) -> PyResult<RollbackPolicy> {
    RollbackPolicy::from_name(&str_arg(name, "rollback_policy")?).py_err()
}

fn allowance(ns: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    ns.map_or(
        Ok(uuidx_core::generator::DEFAULT_ROLLBACK_ALLOWANCE_NS),
        |ns| field_u64(ns, "rollback_allowance_ns", 64),
    )
}

fn policy_or_default(name: Option<&Bound<'_, PyAny>>) -> PyResult<RollbackPolicy> {
    name.map_or(Ok(RollbackPolicy::Reset), policy)
}

/// The UUIDs of `values` as a list of exact `uuid.UUID`.
pub fn uuid_list<'py>(py: Python<'py>, values: &[Uuid]) -> PyResult<Bound<'py, PyList>> {
    // On the fast path no Python code runs while the list is filled: the collector may pause.
    let mut pause = crate::ffi::UuidType::get(py)?
        .uses_slots()
        .then(|| crate::ffi::GcPause::new(py));
    crate::ffi::list_of(py, values.len(), pause.as_mut(), |i| {
        new_uuid(py, values[i].as_u128())
    })
}

/// A zeroed buffer of `n` UUIDs, or `MemoryError`.
fn buffer_of(n: usize) -> PyResult<Vec<Uuid>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| crate::ffi::errors::cannot_allocate(None, format_args!("{n} UUIDs")))?;
    out.resize(n, Uuid::NIL);
    Ok(out)
}

/// Runs `fill` on a buffer of `n` UUIDs with the GIL released (detached from the interpreter),
/// chunk after chunk, running pending signal handlers between chunks.
pub fn filled(
    py: Python<'_>,
    n: usize,
    fill: impl FnMut(&mut [Uuid]) -> uuidx_core::Result<()> + Send,
) -> PyResult<Vec<Uuid>> {
    crate::signals::uuids_detached(py, n, fill)
}

/// Runs `fill` on a buffer of `n` UUIDs without releasing the GIL (for sources that call
/// Python).
fn filled_attached(
    n: usize,
    fill: impl FnOnce(&mut [Uuid]) -> uuidx_core::Result<()>,
) -> PyResult<Vec<Uuid>> {
    let mut out = buffer_of(n)?;
    fill(&mut out).py_err()?;
    Ok(out)
}

/// Returns `$body` with `$g` bound to the core generator inside `$inner`, whichever sources
/// it was built with (the system's, boxed as a concrete type, or the caller's, boxed as trait
/// objects).
macro_rules! with_core {
    ($inner:expr, $g:ident => $body:expr) => {
        match $inner {
            Inner::System($g) => $body,
            Inner::Custom($g) => $body,
        }
    };
}

/// A core generator on the system clock and the thread CSPRNG (the lock-free fast path), or
/// on caller-supplied sources.
enum Inner<S, C> {
    System(S),
    Custom(C),
}

/// The `clock` and `random` options shared by the generator classes; the callables among
/// them are added to `held`.
fn sources(
    clock: Option<&Bound<'_, PyAny>>,
    random: Option<&Bound<'_, PyAny>>,
    held: &mut Held,
) -> PyResult<Option<(DynClock, DynRandom)>> {
    let (clock, random) = (clock_arg(clock, held)?, random_arg(random, held)?);
    Ok((clock.is_some() || random.is_some())
        .then(|| (clock_or_system(clock), random_or_thread(random))))
}

/// A monotonic version 7 generator with its own state (RFC 9562 §5.7, §6.2).
///
/// ``method`` is ``"submillisecond"`` (Method 3: 12 bits of sub-millisecond time, then
/// ``bits`` counter bits, default 10; the process-wide default), ``"counter"`` (Method 1:
/// a ``bits``-bit counter, 12 to 42, default 42, CPython 3.14's layout),
/// ``"monotonic_random"`` (Method 2: random increments of up to ``bits`` bits, default 32)
/// or ``"cpython"`` (CPython 3.14's ``uuid.uuid7()`` algorithm, step for step, including
/// how it asks for random bytes and how it handles a clock that goes back).
/// Within ``rollback_allowance_ns`` of clock rollback the generator stays monotonic; beyond
/// it ``rollback_policy`` ``"reset"`` follows the clock and ``"error"`` raises
/// ``ClockRollbackError`` (the ``"cpython"`` method has neither).
/// ``clock`` (a callable returning nanoseconds since 1970) and ``random`` (a callable
/// ``random(n) -> bytes``, or an int seed for a reproducible stream) replace the system clock
/// and the CSPRNG, for tests. ``node`` with ``node_bits`` (1 to 32) places a fixed node id
/// after the counter (RFC 9562 §6.4). ``shift`` (a ``datetime.timedelta`` or an int of
/// nanoseconds) moves every clock reading by that much, as PostgreSQL 18's
/// ``uuidv7(interval)`` does. ``V7Generator("postgresql")`` is PostgreSQL 18's ``uuidv7()``
/// layout (``"submillisecond"`` with no counter bits). Thread-safe and, with the default
/// sources, lock-free where ``lock_free`` says so.
#[pyclass(frozen, weakref, module = "uuidx")]
pub struct V7Generator {
    /// Boxed: the core generator is 64-byte aligned (its state has a cache line of its own),
    /// which a Python object's allocation does not honour; a `Box` does.
    inner: Box<Inner<CoreV7, CoreV7<DynClock, DynRandom>>>,
    /// The Python callables among the sources, shared with `inner`.
    held: Held,
    /// How far every clock reading is moved, in nanoseconds.
    shift_ns: i64,
    /// Whether `clock` or `random` was given (for the repr: a shift alone also needs `Custom`).
    sources_given: bool,
}

#[pymethods]
impl V7Generator {
    #[new]
    #[pyo3(
        signature = (method=None, bits=None, *, rollback_allowance_ns=None, rollback_policy=None, clock=None, random=None, node=None, node_bits=None, shift=None),
        text_signature = "(method='submillisecond', bits=None, *, rollback_allowance_ns=10000000000, rollback_policy='reset', clock=None, random=None, node=None, node_bits=None, shift=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        method: Option<&Bound<'_, PyAny>>,
        bits: Option<&Bound<'_, PyAny>>,
        rollback_allowance_ns: Option<&Bound<'_, PyAny>>,
        rollback_policy: Option<&Bound<'_, PyAny>>,
        clock: Option<&Bound<'_, PyAny>>,
        random: Option<&Bound<'_, PyAny>>,
        node: Option<&Bound<'_, PyAny>>,
        node_bits: Option<&Bound<'_, PyAny>>,
        shift: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let name = method.map(|m| str_arg(m, "method")).transpose()?;
        let method = v7_method(name.as_deref(), bits)?;
        if method == V7Method::CPython
            && (rollback_allowance_ns.is_some_and(|a| !a.is_none())
                || rollback_policy.is_some_and(|p| !p.is_none()))
        {
            return Err(crate::ffi::errors::error::<PyValueError>(format_args!(
                "the cpython method takes no rollback_allowance_ns or rollback_policy: \
                 it handles a clock that goes back as CPython 3.14 does"
            )));
        }
        let (allowance, policy) = (
            allowance(rollback_allowance_ns)?,
            policy_or_default(rollback_policy)?,
        );
        let node = node_option(node, node_bits)?;
        let shift_ns = crate::convert::shift_arg(shift)?;
        let mut held = Held::default();
        let given = sources(clock, random, &mut held)?;
        let sources_given = given.is_some();
        let sources = match given {
            None if shift_ns == 0 => None,
            None => Some((clock_or_system(None), random_or_thread(None))),
            Some(sources) => Some(sources),
        };
        let inner = match sources {
            None => Inner::System(with_node(CoreV7::new(method, allowance, policy), node)?),
            Some((clock, random)) => {
                let clock: DynClock = if shift_ns == 0 {
                    clock
                } else {
                    Box::new(Shifted::new(clock, shift_ns))
                };
                Inner::Custom(with_node(
                    CoreV7::with_sources(method, allowance, policy, clock, random),
                    node,
                )?)
            }
        };
        Ok(Self {
            inner: Box::new(inner),
            held,
            shift_ns,
            sources_given,
        })
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        self.held.traverse(&visit)
    }

    fn __clear__(&self) {
        self.held.clear();
    }

    /// The next UUID, greater than every UUID this generator returned before.
    fn generate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let u = with_core!(&*self.inner, g => g.generate()).py_err()?;
        new_uuid(py, u.as_u128())
    }

    /// ``n`` UUIDs of this generator's sequence, as a list: strictly increasing, and greater
    /// than every UUID it returned before the call (another thread's call on it during this
    /// one may fall between them).
    fn many<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let n = count_arg(n, "n", crate::bulk::BYTES_PER_UUID_OBJECT)?;
        let values = match &*self.inner {
            Inner::System(g) => filled(py, n, |out| g.fill(out))?,
            // Caller-supplied sources are Python callables: no point in releasing the GIL.
            Inner::Custom(g) => filled_attached(n, |out| g.fill(out))?,
        };
        uuid_list(py, &values)
    }

    /// The fields of ``u`` as this generator lays them out: ``(unix_ts_ms, fraction,
    /// counter, node, random)`` (see ``uuidx.layout.fields``).
    fn fields(&self, u: &Bound<'_, PyAny>) -> PyResult<Out<V7Fields>> {
        let (fraction, counter, _) = self.core_method().widths();
        v7_fields(u, fraction, counter, self.node_bits().0)
    }

    /// For tests: puts a ``"cpython"`` generator in the state CPython 3.14's module is in after
    /// a ``uuid7()`` that used ``timestamp_ms`` and ``counter`` (its ``_last_timestamp_v7`` and
    /// ``_last_counter_v7``), to compare the counter's overflow, which no input reaches.
    fn _resume_cpython(&self, timestamp_ms: u64, counter: u64) -> PyResult<()> {
        with_core!(&*self.inner, g => g.resume_cpython(timestamp_ms, counter)).py_err()
    }

    /// ``"counter"``, ``"monotonic_random"``, ``"submillisecond"`` or ``"cpython"``.
    #[getter]
    fn method(&self) -> Out<&'static str> {
        Out(self.core_method().name())
    }

    /// Counter bits (Methods 1 and 3, ``cpython``) or increment bits (Method 2).
    #[getter]
    fn bits(&self) -> Out<u32> {
        Out(self.core_method().bits())
    }

    /// How far the clock may go back, in nanoseconds, before the policy applies (``None``
    /// for the ``"cpython"`` method, which has no allowance).
    #[getter]
    fn rollback_allowance_ns(&self) -> Out<Option<u64>> {
        Out((self.core_method() != V7Method::CPython)
            .then(|| with_core!(&*self.inner, g => g.rollback_allowance_ns())))
    }

    /// ``"reset"`` or ``"error"`` (``None`` for the ``"cpython"`` method).
    #[getter]
    fn rollback_policy(&self) -> Out<Option<&'static str>> {
        Out((self.core_method() != V7Method::CPython)
            .then(|| with_core!(&*self.inner, g => g.policy()).name()))
    }

    /// The fixed node id, or ``None``.
    #[getter]
    fn node(&self) -> Out<Option<u64>> {
        let (node, bits) = with_core!(&*self.inner, g => g.node());
        Out((bits > 0).then_some(node))
    }

    /// The node id's width in bits, 0 without one.
    #[getter]
    fn node_bits(&self) -> Out<u32> {
        Out(with_core!(&*self.inner, g => g.node()).1)
    }

    /// How far every clock reading is moved, in nanoseconds (0 without a shift).
    #[getter]
    fn shift_ns(&self) -> Out<i128> {
        Out(i128::from(self.shift_ns))
    }

    /// Whether the generator's state takes no lock on this machine: ``True`` for the layouts
    /// kept in one 64-bit word on every platform, and for the others where the processor has a
    /// 128-bit compare-and-swap (x86-64 with ``cmpxchg16b``, ARM64, ppc64le, s390x); ``False``
    /// on 32-bit platforms, where a lock inside portable-atomic guards them. ``clock`` and
    /// ``random`` callables are Python code, which this does not cover.
    #[getter]
    fn lock_free(&self) -> bool {
        with_core!(&*self.inner, g => g.is_lock_free())
    }

    fn __repr__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyString>> {
        let text = {
            use std::fmt::Write as _;
            let mut text = format!(
                "V7Generator(method='{}', bits={}",
                self.method().0,
                self.bits().0
            );
            if let (Some(allowance), Some(policy)) =
                (self.rollback_allowance_ns().0, self.rollback_policy().0)
            {
                let _ = write!(
                    text,
                    ", rollback_allowance_ns={allowance}, rollback_policy='{policy}'"
                );
            }
            if let Some(node) = self.node().0 {
                let _ = write!(text, ", node={node}, node_bits={}", self.node_bits().0);
            }
            if self.shift_ns != 0 {
                let _ = write!(text, ", shift={}", self.shift_ns);
            }
            if self.sources_given {
                text += ", custom sources";
            }
            text + ")"
        };
        crate::ffi::new_str(py, &text)
    }
}

impl V7Generator {
    fn core_method(&self) -> V7Method {
        with_core!(&*self.inner, g => g.method())
    }
}

/// The generator `g`, with the node id `node` if there is one.
fn with_node<C: Clock, R: RandomSource>(
    g: uuidx_core::Result<CoreV7<C, R>>,
    node: Option<(u64, u32)>,
) -> PyResult<CoreV7<C, R>> {
    let g = g.py_err()?;
    match node {
        Some((node, bits)) => g.with_node(node, bits).py_err(),
        None => Ok(g),
    }
}

/// The method named `name` (default `submillisecond`) with width `bits`.
fn v7_method(name: Option<&str>, bits: Option<&Bound<'_, PyAny>>) -> PyResult<V7Method> {
    let bits = bits
        .filter(|b| !b.is_none())
        .map(|b| {
            let wide = field_u64(b, "bits", 32)?;
            u32::try_from(wide).map_err(|_| {
                crate::ffi::errors::to_py(&uuidx_core::Error::field_out_of_range("bits", wide, 32))
            })
        })
        .transpose()?;
    V7Method::from_name(name.unwrap_or("submillisecond"), bits).py_err()
}

/// The argument, unless it is missing or `None`.
fn present<'a, 'py>(obj: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    obj.filter(|o| !o.is_none())
}

/// `(node, node_bits)`: both or neither.
fn node_option(
    node: Option<&Bound<'_, PyAny>>,
    node_bits: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(u64, u32)>> {
    match (present(node), present(node_bits)) {
        (None, None) => Ok(None),
        (Some(node), Some(bits)) => {
            let bits = field_u64(bits, "node_bits", 6)?;
            let node = field_u64(node, "node", 32)?;
            Ok(Some((node, bits as u32)))
        }
        _ => Err(crate::ffi::errors::error::<PyValueError>(format_args!(
            "node and node_bits go together: give both or neither"
        ))),
    }
}

/// `(unix_ts_ms, fraction, counter, node, random)`, as `v7_fields` returns them.
type V7Fields = (u64, u64, u128, u64, u64);

/// `(unix_ts_ms, fraction, counter, node, random)` of a v7 `u` for these widths.
fn v7_fields(
    u: &Bound<'_, PyAny>,
    fraction_bits: u32,
    counter_bits: u32,
    node_bits: u32,
) -> PyResult<Out<V7Fields>> {
    let f = v7::GeneratorFields::of(
        crate::convert::uuid_value(u, "u")?,
        fraction_bits,
        counter_bits,
        node_bits,
    )
    .py_err()?;
    Ok(Out((f.unix_ts_ms, f.fraction, f.counter, f.node, f.random)))
}

/// The fields of a version 7 UUID as a generator with ``method``, ``bits`` and
/// ``node_bits`` lays them out: ``(unix_ts_ms, fraction, counter, node, random)``.
#[pyfunction]
#[pyo3(signature = (u, method, bits=None, node_bits=None))]
pub fn v7_generator_fields(
    u: &Bound<'_, PyAny>,
    method: &Bound<'_, PyAny>,
    bits: Option<&Bound<'_, PyAny>>,
    node_bits: Option<&Bound<'_, PyAny>>,
) -> PyResult<Out<V7Fields>> {
    let method = v7_method(Some(&str_arg(method, "method")?), bits)?;
    let node_bits = present(node_bits).map_or(Ok(0), |b| field_u64(b, "node_bits", 6))? as u32;
    let (fraction, counter, _) = method.widths();
    v7_fields(u, fraction, counter, node_bits)
}

macro_rules! gregorian_class {
    ($name:ident, $version:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// Timestamps are 100-ns ticks kept strictly increasing; the clock sequence is random
        /// at start and drawn again after a rollback beyond ``rollback_allowance_ns`` (policy
        /// ``"reset"``; ``"error"`` raises ``ClockRollbackError``) and in a forked child.
        /// ``node`` defaults to the process's random multicast node (RFC 9562 §6.10).
        /// ``clock`` and ``random`` replace the system clock and the CSPRNG, for tests (see
        /// ``V7Generator``).
        #[pyclass(frozen, weakref, module = "uuidx")]
        pub struct $name {
            /// Boxed: the core generator is 64-byte aligned, which a Python object's
            /// allocation does not honour; a `Box` does.
            inner: Box<Inner<GregorianGenerator, GregorianGenerator<DynClock, DynRandom>>>,
            /// The Python callables among the sources, shared with `inner`.
            held: Held,
        }

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(
                signature = (node=None, *, rollback_allowance_ns=None, rollback_policy=None, clock=None, random=None),
                text_signature = "(node=None, *, rollback_allowance_ns=10000000000, rollback_policy='reset', clock=None, random=None)"
            )]
            fn new(
                node: Option<&Bound<'_, PyAny>>,
                rollback_allowance_ns: Option<&Bound<'_, PyAny>>,
                rollback_policy: Option<&Bound<'_, PyAny>>,
                clock: Option<&Bound<'_, PyAny>>,
                random: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Self> {
                let (name, bits) = uuidx_core::layout::v1::NODE;
                let node = node.filter(|n| !n.is_none()).map(|n| field_u64(n, name, bits)).transpose()?;
                let (allowance, policy) = (allowance(rollback_allowance_ns)?, policy_or_default(rollback_policy)?);
                let mut held = Held::default();
                let inner = match sources(clock, random, &mut held)? {
                    None => Inner::System(GregorianGenerator::new($version, node, allowance, policy).py_err()?),
                    Some((clock, random)) => Inner::Custom(
                        GregorianGenerator::with_sources($version, node, allowance, policy, clock, random).py_err()?,
                    ),
                };
                Ok(Self { inner: Box::new(inner), held })
            }

            fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
                self.held.traverse(&visit)
            }

            fn __clear__(&self) {
                self.held.clear();
            }

            /// The next UUID; its timestamp is later than every earlier one of this generator.
            fn generate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                let u = with_core!(&*self.inner, g => g.generate()).py_err()?;
                new_uuid(py, u.as_u128())
            }

            /// The 48-bit node in use.
            #[getter]
            fn node(&self) -> Out<u64> {
                Out(with_core!(&*self.inner, g => g.node()))
            }

            /// How far the clock may go back, in nanoseconds, before the policy applies.
            #[getter]
            fn rollback_allowance_ns(&self) -> Out<u64> {
                Out(with_core!(&*self.inner, g => g.rollback_allowance_ns()))
            }

            /// ``"reset"`` or ``"error"``.
            #[getter]
            fn rollback_policy(&self) -> Out<&'static str> {
                Out(with_core!(&*self.inner, g => g.policy()).name())
            }

            /// Whether the generator's 128-bit state takes no lock on this machine: ``True``
            /// where the processor has a 128-bit compare-and-swap (x86-64 with
            /// ``cmpxchg16b``, ARM64, ppc64le, s390x), ``False`` on 32-bit platforms, where a
            /// lock inside portable-atomic guards it.
            #[getter]
            fn lock_free(&self) -> bool {
                with_core!(&*self.inner, g => g.is_lock_free())
            }

            fn __repr__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<Bound<'py, pyo3::types::PyString>> {
                let text = format!(
                    "{}(node={:#014x}, rollback_allowance_ns={}, rollback_policy='{}'{})",
                    stringify!($name),
                    self.node().0,
                    self.rollback_allowance_ns().0,
                    self.rollback_policy().0,
                    if matches!(&*self.inner, Inner::Custom(_)) { ", custom sources" } else { "" },
                );
                crate::ffi::new_str(py, &text)
            }
        }
    };
}

gregorian_class!(
    V6Generator,
    6,
    "A monotonic version 6 generator with its own state (RFC 9562 §5.6, §6.1)."
);
gregorian_class!(
    V1Generator,
    1,
    "A monotonic version 1 generator with its own state (RFC 9562 §5.1, §6.1)."
);

/// A version 7 UUID for ``unix_ns`` (nanoseconds since 1970): its millisecond, the
/// sub-millisecond fraction in ``rand_a`` and 62 random bits. Not part of the monotonic
/// sequence of ``uuid7()``.
#[pyfunction]
pub fn uuid7_at_ns<'py>(unix_ns: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let u = v7::at_unix_ns(unix_ns_arg(unix_ns)?, &ThreadRandom).py_err()?;
    new_uuid(unix_ns.py(), u.as_u128())
}

/// The smallest version 7 UUID of the millisecond containing ``unix_ns`` (nanoseconds
/// since 1970): ``unix_ts_ms`` of that millisecond, every other bit but the version and variant
/// 0 (RFC 9562 §5.7, §6.13). ``ValueError`` before 1970 or after the year 10889.
#[pyfunction]
pub fn min_uuid7_ns<'py>(unix_ns: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    new_uuid(
        unix_ns.py(),
        v7::min_at_unix_ns(unix_ns_arg(unix_ns)?)
            .py_err()?
            .as_u128(),
    )
}

/// The largest version 7 UUID of the millisecond containing ``unix_ns`` (nanoseconds
/// since 1970): ``unix_ts_ms`` of that millisecond, every other bit but the version and variant
/// 1 (RFC 9562 §5.7, §6.13). ``ValueError`` before 1970 or after the year 10889.
#[pyfunction]
pub fn max_uuid7_ns<'py>(unix_ns: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    new_uuid(
        unix_ns.py(),
        v7::max_at_unix_ns(unix_ns_arg(unix_ns)?)
            .py_err()?
            .as_u128(),
    )
}

/// Whether the process-wide generators take no lock on this machine, by the function each
/// serves: ``(("uuid7", ...), ("uuid6", ...), ("uuid1", ...))`` (see ``V7Generator.lock_free``).
#[pyfunction]
fn _lock_free(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, uuidx_core::generator::process_wide_lock_free())
}

/// Adds the classes and time helpers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<V7Generator>()?;
    m.add_class::<V6Generator>()?;
    m.add_class::<V1Generator>()?;
    m.add_function(wrap_pyfunction!(uuid7_at_ns, m)?)?;
    m.add_function(wrap_pyfunction!(v7_generator_fields, m)?)?;
    m.add_function(wrap_pyfunction!(min_uuid7_ns, m)?)?;
    m.add_function(wrap_pyfunction!(max_uuid7_ns, m)?)?;
    m.add_function(wrap_pyfunction!(_lock_free, m)?)?;
    Ok(())
}
