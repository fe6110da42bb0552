//! Signals during long calls: a bulk or column call that runs for seconds still runs Python's
//! signal handlers (Ctrl-C's `KeyboardInterrupt`, a `signal.signal` handler) within a few
//! milliseconds, stops, frees what it made and raises what the handler raised.
//!
//! CPython runs a handler only on the main thread, and only when that thread checks for
//! pending signals (`PyErr_CheckSignals`), which needs the thread to be attached. Work done
//! with the GIL released goes in chunks; between chunks, a [`Checkpoint`] attaches and checks
//! at most every [`INTERVAL`] of work, and only on the main thread (elsewhere the check is
//! never due, and attaching would only contend for the GIL). Loops that run attached check
//! every [`ATTACHED_EVERY`] items, which costs a read of a flag each time. Calls short enough
//! to fit in one chunk never reach a checkpoint.

use std::time::{Duration, Instant};

use pyo3::prelude::*;
use uuidx_core::Uuid;

use crate::ffi::errors::IntoPy;

/// The most work done with the GIL released between two checks for signals.
pub const INTERVAL: Duration = Duration::from_millis(5);
pub use crate::ffi::ATTACHED_EVERY;
/// UUIDs generated between two checkpoints (1 MiB of them: well under a millisecond).
pub const CHUNK_UUIDS: usize = 1 << 16;

/// Where work done with the GIL released may stop for a pending signal.
#[derive(Default)]
pub struct Checkpoint {
    /// When the next check is due; unset until the first checkpoint.
    next: Option<Instant>,
    /// Whether this thread is the main thread, learnt at the first check.
    main: Option<bool>,
}

impl Checkpoint {
    /// A checkpoint for one call: its first call checks at once (a signal may have come
    /// while the call was setting up), the later ones every [`INTERVAL`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Called between chunks of work, detached: when a check is due (every [`INTERVAL`]),
    /// attaches and runs pending signal handlers; the exception a handler raised comes back as
    /// the error, to stop the work (`uuidx_core::Error::external`, which the bindings turn
    /// back into that very exception).
    pub fn detached(&mut self) -> uuidx_core::Result<()> {
        let now = Instant::now();
        if self.next.is_some_and(|next| now < next) {
            return Ok(());
        }
        self.next = Some(now + INTERVAL);
        if self.main == Some(false) {
            return Ok(());
        }
        Python::attach(|py| -> PyResult<()> {
            // Off the main thread this does nothing; on it, it runs the handlers.
            py.check_signals()?;
            if self.main.is_none() {
                self.main = Some(is_main_thread(py)?);
            }
            Ok(())
        })
        .map_err(uuidx_core::Error::external)
    }
}

/// Whether the calling thread is the one that runs signal handlers: `threading.main_thread()`,
/// or `true` if `threading` was never imported (no other thread runs Python code then, and
/// importing it would cost more than the whole check). That runs Python code, where a handler
/// may run and raise: its exception is returned, never lost.
fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    let modules = py
        .import(crate::interned!(py, c"sys")?)?
        .getattr(crate::interned!(py, c"modules")?)?;
    let Ok(threading) = modules.get_item(crate::interned!(py, c"threading")?) else {
        return Ok(true);
    };
    let main: u64 = threading
        .call_method0(crate::interned!(py, c"main_thread")?)?
        .getattr(crate::interned!(py, c"ident")?)?
        .extract()?;
    let this: u64 = threading
        .call_method0(crate::interned!(py, c"get_ident")?)?
        .extract()?;
    Ok(main == this)
}

/// In a loop that runs attached, before item `i`: runs pending signal handlers every
/// [`ATTACHED_EVERY`] items.
#[inline]
pub fn attached(py: Python<'_>, i: usize) -> PyResult<()> {
    if i.is_multiple_of(ATTACHED_EVERY) && i > 0 {
        py.check_signals()
    } else {
        Ok(())
    }
}

/// Runs `fill` over `out` in chunks of `chunk` items with the GIL released, with a
/// [`Checkpoint`] between chunks; the first error (of `fill` or of a signal handler) stops it.
pub fn fill_detached<T: Send>(
    py: Python<'_>,
    out: &mut [T],
    chunk: usize,
    mut fill: impl FnMut(&mut [T]) -> uuidx_core::Result<()> + Send,
) -> PyResult<()> {
    py.detach(|| {
        let mut checkpoint = Checkpoint::new();
        for part in out.chunks_mut(chunk.max(1)) {
            fill(part)?;
            checkpoint.detached()?;
        }
        Ok(())
    })
    .py_err()
}

/// `n` UUIDs written by `fill` with the GIL released, in chunks of [`CHUNK_UUIDS`] (each
/// zeroed just before it is filled, while in cache) with a [`Checkpoint`] between them;
/// `MemoryError` if they cannot be had. A generator fills each chunk after the one before,
/// so the sequence of one call is as it would be in one piece.
pub fn uuids_detached(
    py: Python<'_>,
    n: usize,
    mut fill: impl FnMut(&mut [Uuid]) -> uuidx_core::Result<()> + Send,
) -> PyResult<Vec<Uuid>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| crate::ffi::errors::cannot_allocate(None, format_args!("{n} UUIDs")))?;
    py.detach(|| {
        let mut checkpoint = Checkpoint::new();
        while out.len() < n {
            let start = out.len();
            out.resize(start + CHUNK_UUIDS.min(n - start), Uuid::NIL);
            fill(&mut out[start..])?;
            checkpoint.detached()?;
        }
        Ok(())
    })
    .py_err()?;
    Ok(out)
}
