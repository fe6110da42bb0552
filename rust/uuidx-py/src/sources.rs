//! Caller-supplied clocks and random sources for the independent generators: a Python
//! callable returning nanoseconds since 1970, a callable returning `n` random bytes, or an int
//! seed for a reproducible CSPRNG stream. An exception raised by a callable reaches the
//! caller unchanged; a result of the wrong type or length is a `TypeError`/`ValueError` that
//! names it. Both are carried through the core as `uuidx_core::Error::external`.
//!
//! The callables are [`Held`] by the generator's Python object too, which shows them to the
//! cycle collector (`__traverse__`) and lets it drop them (`__clear__`): a generator whose clock
//! is a method of the object that holds the generator is freed like any other cycle.

use std::sync::{Arc, Mutex, PoisonError, TryLockError};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;
use pyo3::{PyTraverseError, PyVisit};
use uuidx_core::clock::{Clock, SystemClock};
use uuidx_core::random::{RandomSource, SeededRandom, ThreadRandom};

use crate::convert::{buffer_bytes, type_error};
use crate::ffi;
use crate::repr::{short_repr, type_name};

/// A clock the core can hold: the system's, or a Python callable.
pub type DynClock = Box<dyn Clock>;
/// A random source the core can hold: the thread CSPRNG, a Python callable or a seed.
pub type DynRandom = Box<dyn RandomSource>;

/// A Python object shared by a generator's Python object, which reports it to the cycle
/// collector and clears it, and by the core generator, which calls it. The lock is held only to
/// copy or take the reference, never while Python code runs.
#[derive(Clone)]
pub struct Shared(Arc<Mutex<Option<Py<PyAny>>>>);

impl Shared {
    fn new(obj: &Bound<'_, PyAny>) -> Self {
        Self(Arc::new(Mutex::new(Some(obj.clone().unbind()))))
    }

    /// The object, or a `RuntimeError` naming `what` once the collector has cleared it (which
    /// it does only to objects it is about to free).
    fn get<'py>(&self, py: Python<'py>, what: &str) -> PyResult<Bound<'py, PyAny>> {
        let guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        guard
            .as_ref()
            .map(|obj| obj.bind(py).clone())
            .ok_or_else(|| {
                crate::ffi::errors::error::<PyRuntimeError>(format_args!(
                    "this generator's {what} was released by the garbage collector"
                ))
            })
    }
}

/// The Python objects among a generator's sources, for its `__traverse__` and `__clear__`.
#[derive(Default)]
pub struct Held(Vec<Shared>);

impl Held {
    /// Reports each object to the collector. One whose lock another thread holds (only for the
    /// instant of copying a reference) is not reported, which can only keep it alive longer.
    pub fn traverse(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        for shared in &self.0 {
            match shared.0.try_lock() {
                Ok(guard) => visit.call(guard.as_ref())?,
                Err(TryLockError::Poisoned(poisoned)) => visit.call(poisoned.get_ref().as_ref())?,
                Err(TryLockError::WouldBlock) => {}
            }
        }
        Ok(())
    }

    /// Drops every reference (the collector breaking a cycle), each after its lock is released:
    /// dropping one may run Python code that uses the generator.
    pub fn clear(&self) {
        for shared in &self.0 {
            let taken = shared
                .0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            drop(taken);
        }
    }
}

/// A Python callable that returns the time as an int of nanoseconds since the Unix epoch.
pub struct PyClock(Shared);

impl Clock for PyClock {
    /// The callable's reading (see [`reading`]).
    fn now_unix_ns(&self) -> uuidx_core::Result<u64> {
        let result = Python::attach(|py| {
            let clock = &self.0.get(py, "clock")?;
            reading(clock, &clock.call0()?)
        });
        into_core(result)
    }
}

/// Python's `time.time_ns()`, looked up in the `time` module at each reading, so that what a
/// test put there (freezegun's replacement, time-machine's patched function) is what is read.
/// The process-wide stand-in of `uuidx.testing.follow_python_clock` reads it.
pub struct PythonTime;

impl Clock for PythonTime {
    /// `time.time_ns()` (see [`reading`]).
    fn now_unix_ns(&self) -> uuidx_core::Result<u64> {
        let result = Python::attach(|py| {
            let time = py.import(crate::interned!(py, c"time")?)?;
            let time_ns = &time.getattr(crate::interned!(py, c"time_ns")?)?;
            reading(time_ns, &time_ns.call0()?)
        });
        into_core(result)
    }
}

/// What `clock` returned, checked: `Ok(Ok(ns))`, or `Ok(Err(before_ns))` for a reading before
/// 1970 (a clock error, as from the system clock). A non-int (a bool included) is a
/// `TypeError`, one of 2**64 or more a `ValueError`.
fn reading(clock: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<Result<u64, u64>> {
    // A bool is an int to Python, but `True` is no time: refused, as `random=True` is.
    if !ffi::is_integer(value)
        || value.cast::<PyInt>().is_err()
        || value.cast::<pyo3::types::PyBool>().is_ok()
    {
        return Err(crate::ffi::errors::error::<PyTypeError>(format_args!(
            "clock {} must return an int of nanoseconds since 1970, got {}: {}",
            short_repr(clock),
            type_name(value),
            short_repr(value)
        )));
    }
    if let Ok(before) = value.neg().and_then(|v| v.extract::<u64>()) {
        if before > 0 {
            return Ok(Err(before));
        }
    }
    value.extract::<u64>().map(Ok).map_err(|_| {
        crate::ffi::errors::error::<PyValueError>(format_args!(
            "clock {} returned {}: expected nanoseconds since 1970, below 2**64",
            short_repr(clock),
            short_repr(value)
        ))
    })
}

/// A checked reading as the core takes it.
fn into_core(result: PyResult<Result<u64, u64>>) -> uuidx_core::Result<u64> {
    result
        .map_err(uuidx_core::Error::external)?
        .map_err(uuidx_core::Error::clock_before_epoch)
}

/// A Python callable that takes a byte count and returns that many random bytes.
pub struct PyRandom(Shared);

impl RandomSource for PyRandom {
    fn fill(&self, dest: &mut [u8]) -> uuidx_core::Result<()> {
        Python::attach(|py| {
            let random = &self.0.get(py, "random source")?;
            let value = random.call1((dest.len(),))?;
            let bytes = buffer_bytes(&value).ok_or_else(|| {
                crate::ffi::errors::error::<PyTypeError>(format_args!(
                    "random {} must return bytes, got {}: {}",
                    short_repr(random),
                    type_name(&value),
                    short_repr(&value)
                ))
            })?;
            if bytes.len() != dest.len() {
                return Err(crate::ffi::errors::error::<PyValueError>(format_args!(
                    "random {}({}) returned {} bytes: expected {}",
                    short_repr(random),
                    dest.len(),
                    bytes.len(),
                    dest.len()
                )));
            }
            dest.copy_from_slice(&bytes);
            Ok(())
        })
        .map_err(uuidx_core::Error::external)
    }
}

/// The `clock=` argument: `None` for the system clock, or a callable (added to `held`).
pub fn clock_arg(obj: Option<&Bound<'_, PyAny>>, held: &mut Held) -> PyResult<Option<DynClock>> {
    match obj.filter(|o| !o.is_none()) {
        None => Ok(None),
        Some(o) if o.is_callable() => {
            let shared = Shared::new(o);
            held.0.push(shared.clone());
            Ok(Some(Box::new(PyClock(shared))))
        }
        Some(o) => Err(type_error(
            "clock",
            "a callable returning nanoseconds since 1970, or None",
            o,
        )),
    }
}

/// The `random=` argument: `None` for the thread CSPRNG, a callable `random(n) -> bytes`, or
/// an int seed from 0 to 2**256 - 1 for a reproducible ChaCha12 stream (its 32 little-endian
/// bytes are the key). A callable is added to `held`.
pub fn random_arg(obj: Option<&Bound<'_, PyAny>>, held: &mut Held) -> PyResult<Option<DynRandom>> {
    let Some(o) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if o.cast::<pyo3::types::PyBool>().is_ok() {
        return Err(type_error(
            "random",
            "a callable random(n) -> bytes, an int seed, or None",
            o,
        ));
    }
    if let Ok(seed) = o.cast::<PyInt>() {
        // to_bytes raises OverflowError for a negative seed or one of more than 256 bits.
        let py = o.py();
        let bytes = match seed.call_method1(
            crate::interned!(py, c"to_bytes")?,
            (32, crate::interned!(py, c"little")?),
        ) {
            Ok(bytes) => Some(bytes),
            Err(err) if err.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => None,
            Err(err) => return Err(err),
        };
        let key = bytes.and_then(|b| buffer_bytes(&b)).ok_or_else(|| {
            crate::ffi::errors::error::<PyValueError>(format_args!(
                "random seed {} is out of range: expected an int from 0 to 2**256 - 1",
                short_repr(o)
            ))
        })?;
        let mut bytes = [0u8; 32];
        bytes.copy_from_slice(&key);
        return Ok(Some(Box::new(SeededRandom::new(bytes))));
    }
    if o.is_callable() {
        let shared = Shared::new(o);
        held.0.push(shared.clone());
        return Ok(Some(Box::new(PyRandom(shared))));
    }
    Err(type_error(
        "random",
        "a callable random(n) -> bytes, an int seed, or None",
        o,
    ))
}

/// The clock, or the system clock boxed.
pub fn clock_or_system(clock: Option<DynClock>) -> DynClock {
    clock.unwrap_or_else(|| Box::new(SystemClock))
}

/// The random source, or the thread CSPRNG boxed.
pub fn random_or_thread(random: Option<DynRandom>) -> DynRandom {
    random.unwrap_or_else(|| Box::new(ThreadRandom))
}
