//! Independent generators (`V7Generator`, `V6Generator`, `V1Generator`) and the v7 time
//! helpers. Each class wraps a lock-free `uuidx-core` generator and is `frozen`, so it can be
//! shared between threads (free-threaded Python included) without any lock.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use uuidx_core::generator::{GregorianGenerator, RollbackPolicy, V7Generator as CoreV7, V7Method};
use uuidx_core::layout::v7;
use uuidx_core::random::ThreadRandom;
use uuidx_core::Uuid;

use crate::convert::{count_arg, field_u64, str_arg, unix_ns_arg};
use crate::errors::IntoPy;
use crate::exact::new_uuid;

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
    crate::exact::list_of(py, values.len(), |i| new_uuid(py, values[i].as_u128()))
}

/// Runs `fill` on a buffer of `n` UUIDs with the GIL released (detached from the interpreter).
pub fn filled(
    py: Python<'_>,
    n: usize,
    fill: impl FnOnce(&mut [Uuid]) -> uuidx_core::Result<()> + Send,
) -> PyResult<Vec<Uuid>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| {
        pyo3::exceptions::PyMemoryError::new_err(format!("cannot allocate memory for {n} UUIDs"))
    })?;
    out.resize(n, Uuid::NIL);
    py.detach(|| fill(&mut out)).py_err()?;
    Ok(out)
}

/// A monotonic version 7 generator with its own state (RFC 9562 §5.7, §6.2).
///
/// ``method`` is ``"submillisecond"`` (Method 3: 12 bits of sub-millisecond time, then
/// ``bits`` counter bits, default 14; the process-wide default), ``"counter"`` (Method 1:
/// a ``bits``-bit counter, 12 to 42, default 42, CPython 3.14's layout) or
/// ``"monotonic_random"`` (Method 2: random increments of up to ``bits`` bits, default 32).
/// Within ``rollback_allowance_ns`` of clock rollback the generator stays monotonic; beyond
/// it ``rollback_policy`` ``"reset"`` follows the clock and ``"error"`` raises
/// ``ClockRollbackError``. Thread-safe and lock-free.
#[pyclass(frozen, module = "uuidx")]
pub struct V7Generator {
    /// Boxed: the core generator is 64-byte aligned (its state has a cache line of its own),
    /// which a Python object's allocation does not honour; a `Box` does.
    inner: Box<CoreV7>,
}

#[pymethods]
impl V7Generator {
    #[new]
    #[pyo3(
        signature = (method=None, bits=None, *, rollback_allowance_ns=None, rollback_policy=None),
        text_signature = "(method='submillisecond', bits=None, *, rollback_allowance_ns=10000000000, rollback_policy='reset')"
    )]
    fn new(
        method: Option<&Bound<'_, PyAny>>,
        bits: Option<&Bound<'_, PyAny>>,
        rollback_allowance_ns: Option<&Bound<'_, PyAny>>,
        rollback_policy: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let name = method.map(|m| str_arg(m, "method")).transpose()?;
        let bits = bits
            .filter(|b| !b.is_none())
            .map(|b| {
                let wide = field_u64(b, "bits", 32)?;
                u32::try_from(wide).map_err(|_| {
                    PyValueError::new_err(
                        uuidx_core::Error::field_out_of_range("bits", wide, 32).to_string(),
                    )
                })
            })
            .transpose()?;
        let method =
            V7Method::from_name(name.as_deref().unwrap_or("submillisecond"), bits).py_err()?;
        let inner = CoreV7::new(
            method,
            allowance(rollback_allowance_ns)?,
            policy_or_default(rollback_policy)?,
        )
        .py_err()?;
        Ok(Self {
            inner: Box::new(inner),
        })
    }

    /// The next UUID, greater than every UUID this generator returned before.
    fn generate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        new_uuid(py, self.inner.generate().py_err()?.as_u128())
    }

    /// ``n`` consecutive UUIDs of this generator's sequence, as a list.
    fn many<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let n = count_arg(n, "n", crate::bulk::BYTES_PER_UUID_OBJECT)?;
        let values = filled(py, n, |out| self.inner.fill(out))?;
        uuid_list(py, &values)
    }

    /// ``"counter"``, ``"monotonic_random"`` or ``"submillisecond"``.
    #[getter]
    fn method(&self) -> &'static str {
        self.inner.method().name()
    }

    /// Counter bits (Methods 1 and 3) or increment bits (Method 2).
    #[getter]
    fn bits(&self) -> u32 {
        self.inner.method().bits()
    }

    /// How far the clock may go back, in nanoseconds, before the policy applies.
    #[getter]
    fn rollback_allowance_ns(&self) -> u64 {
        self.inner.rollback_allowance_ns()
    }

    /// ``"reset"`` or ``"error"``.
    #[getter]
    fn rollback_policy(&self) -> &'static str {
        self.inner.policy().name()
    }

    fn __repr__(&self) -> String {
        format!(
            "V7Generator(method={:?}, bits={}, rollback_allowance_ns={}, rollback_policy={:?})",
            self.method(),
            self.bits(),
            self.rollback_allowance_ns(),
            self.rollback_policy()
        )
    }
}

macro_rules! gregorian_class {
    ($name:ident, $version:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// Timestamps are 100-ns ticks kept strictly increasing; the clock sequence is random
        /// at start and drawn again after a rollback beyond ``rollback_allowance_ns`` (policy
        /// ``"reset"``; ``"error"`` raises ``ClockRollbackError``) and in a forked child.
        /// ``node`` defaults to the process's random multicast node (RFC 9562 §6.10).
        #[pyclass(frozen, module = "uuidx")]
        pub struct $name {
            /// Boxed: the core generator is 64-byte aligned, which a Python object's
            /// allocation does not honour; a `Box` does.
            inner: Box<GregorianGenerator>,
        }

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(
                signature = (node=None, *, rollback_allowance_ns=None, rollback_policy=None),
                text_signature = "(node=None, *, rollback_allowance_ns=10000000000, rollback_policy='reset')"
            )]
            fn new(
                node: Option<&Bound<'_, PyAny>>,
                rollback_allowance_ns: Option<&Bound<'_, PyAny>>,
                rollback_policy: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Self> {
                let (name, bits) = uuidx_core::layout::v1::FIELDS[2];
                let node = node.filter(|n| !n.is_none()).map(|n| field_u64(n, name, bits)).transpose()?;
                let inner = GregorianGenerator::new($version, node, allowance(rollback_allowance_ns)?, policy_or_default(rollback_policy)?).py_err()?;
                Ok(Self { inner: Box::new(inner) })
            }

            /// The next UUID; its timestamp is later than every earlier one of this generator.
            fn generate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                new_uuid(py, self.inner.generate().py_err()?.as_u128())
            }

            /// The 48-bit node in use.
            #[getter]
            fn node(&self) -> u64 {
                self.inner.node()
            }

            /// How far the clock may go back, in nanoseconds, before the policy applies.
            #[getter]
            fn rollback_allowance_ns(&self) -> u64 {
                self.inner.rollback_allowance_ns()
            }

            /// ``"reset"`` or ``"error"``.
            #[getter]
            fn rollback_policy(&self) -> &'static str {
                self.inner.policy().name()
            }

            fn __repr__(&self) -> String {
                format!(
                    "{}(node={:#014x}, rollback_allowance_ns={}, rollback_policy={:?})",
                    stringify!($name),
                    self.node(),
                    self.rollback_allowance_ns(),
                    self.rollback_policy()
                )
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

/// The smallest version 7 UUID of the millisecond containing ``unix_ns``.
#[pyfunction]
pub fn min_uuid7_ns<'py>(unix_ns: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    new_uuid(
        unix_ns.py(),
        v7::min_at_unix_ns(unix_ns_arg(unix_ns)?)
            .py_err()?
            .as_u128(),
    )
}

/// The largest version 7 UUID of the millisecond containing ``unix_ns``.
#[pyfunction]
pub fn max_uuid7_ns<'py>(unix_ns: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    new_uuid(
        unix_ns.py(),
        v7::max_at_unix_ns(unix_ns_arg(unix_ns)?)
            .py_err()?
            .as_u128(),
    )
}

/// Adds the classes and time helpers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<V7Generator>()?;
    m.add_class::<V6Generator>()?;
    m.add_class::<V1Generator>()?;
    m.add_function(wrap_pyfunction!(uuid7_at_ns, m)?)?;
    m.add_function(wrap_pyfunction!(min_uuid7_ns, m)?)?;
    m.add_function(wrap_pyfunction!(max_uuid7_ns, m)?)?;
    Ok(())
}
