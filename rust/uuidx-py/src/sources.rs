//! Caller-supplied clocks and random sources for the independent generators: a Python
//! callable returning nanoseconds since 1970, a callable returning `n` random bytes, or an int
//! seed for a reproducible CSPRNG stream. An exception raised by a callable reaches the
//! caller unchanged; a result of the wrong type or length is a `TypeError`/`ValueError` that
//! names it. Both are carried through the core as `uuidx_core::Error::external`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;
use uuidx_core::clock::{Clock, SystemClock};
use uuidx_core::random::{RandomSource, SeededRandom, ThreadRandom};

use crate::convert::{buffer_bytes, short_repr, type_error, type_name};
use crate::exact;

/// A clock the core can hold: the system's, or a Python callable.
pub type DynClock = Box<dyn Clock>;
/// A random source the core can hold: the thread CSPRNG, a Python callable or a seed.
pub type DynRandom = Box<dyn RandomSource>;

/// A Python callable that returns the time as an int of nanoseconds since the Unix epoch.
pub struct PyClock(Py<PyAny>);

impl Clock for PyClock {
    /// The callable's reading. A negative one is a clock before 1970, as from the system
    /// clock (`ClockError`); a non-int (a bool included) is a `TypeError`, one of 2**64 or
    /// more a `ValueError`.
    fn now_unix_ns(&self) -> uuidx_core::Result<u64> {
        let reading = Python::attach(|py| {
            let clock = self.0.bind(py);
            let value = clock.call0()?;
            // A bool is an int to Python, but `True` is no time: refused, as `random=True` is.
            if !exact::is_integer(&value)
                || value.cast::<PyInt>().is_err()
                || value.cast::<pyo3::types::PyBool>().is_ok()
            {
                return Err(PyTypeError::new_err(format!(
                    "clock {} must return an int of nanoseconds since 1970, got {}: {}",
                    short_repr(clock),
                    type_name(&value),
                    short_repr(&value)
                )));
            }
            if let Ok(before) = value.neg().and_then(|v| v.extract::<u64>()) {
                if before > 0 {
                    return Ok(Err(before));
                }
            }
            value.extract::<u64>().map(Ok).map_err(|_| {
                PyValueError::new_err(format!(
                    "clock {} returned {}: expected nanoseconds since 1970, below 2**64",
                    short_repr(clock),
                    short_repr(&value)
                ))
            })
        })
        .map_err(uuidx_core::Error::external)?;
        reading.map_err(uuidx_core::Error::clock_before_epoch)
    }
}

/// A Python callable that takes a byte count and returns that many random bytes.
pub struct PyRandom(Py<PyAny>);

impl RandomSource for PyRandom {
    fn fill(&self, dest: &mut [u8]) -> uuidx_core::Result<()> {
        Python::attach(|py| {
            let random = self.0.bind(py);
            let value = random.call1((dest.len(),))?;
            let bytes = buffer_bytes(&value).ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "random {} must return bytes, got {}: {}",
                    short_repr(random),
                    type_name(&value),
                    short_repr(&value)
                ))
            })?;
            if bytes.len() != dest.len() {
                return Err(PyValueError::new_err(format!(
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

/// The `clock=` argument: `None` for the system clock, or a callable.
pub fn clock_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DynClock>> {
    match obj.filter(|o| !o.is_none()) {
        None => Ok(None),
        Some(o) if o.is_callable() => Ok(Some(Box::new(PyClock(o.clone().unbind())))),
        Some(o) => Err(type_error(
            "clock",
            "a callable returning nanoseconds since 1970, or None",
            o,
        )),
    }
}

/// The `random=` argument: `None` for the thread CSPRNG, a callable `random(n) -> bytes`, or
/// an int seed from 0 to 2**256 - 1 for a reproducible ChaCha12 stream (its 32 little-endian
/// bytes are the key).
pub fn random_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DynRandom>> {
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
        let key = seed
            .call_method1("to_bytes", (32, "little"))
            .ok()
            .and_then(|b| buffer_bytes(&b))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "random seed {} is out of range: expected an int from 0 to 2**256 - 1",
                    short_repr(o)
                ))
            })?;
        let mut bytes = [0u8; 32];
        bytes.copy_from_slice(&key);
        return Ok(Some(Box::new(SeededRandom::new(bytes))));
    }
    if o.is_callable() {
        return Ok(Some(Box::new(PyRandom(o.clone().unbind()))));
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
