//! Noticing `fork()`: a forked child is a new process that starts with a copy of its parent's
//! memory, random generator states and UUID generator states included ([RFC 9562 §6.9](https://www.rfc-editor.org/rfc/rfc9562#section-6.9): a
//! child must not replay its parent's random stream).
//!
//! `pthread_atfork` handlers, installed with the first thread random generator, the first
//! deterministic installation or the first passage through the fork gate (the private `gate`
//! module):
//!
//! - in the child, one bumps a process-wide *fork epoch* once per new process id
//!   ([`note_fork_once`]; Python's `os.register_at_fork` calls it too, and one fork counts
//!   once), and releases what the threads that did not survive the fork held in the lock-free
//!   deterministic stack ([`crate::generator::deterministic`]) and in the gate. Random
//!   generators reseed when the epoch moves; UUID generators watch it through a
//!   [`ForkSource`], which tests replace by a [`ManualFork`];
//! - before and after the fork, they close and open the gate, so that no fork copies held one
//!   of the locks that the generators' 128-bit words take where they are not lock-free.

#[cfg(unix)]
use core::sync::atomic::AtomicU32;
use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

#[cfg(unix)]
pub(crate) mod gate;

/// Where no process forks, nothing to guard: the operation itself.
#[cfg(not(unix))]
pub(crate) mod gate {
    #[inline(always)]
    pub(crate) fn through<T>(op: impl FnOnce() -> T) -> T {
        op()
    }
}

static FORK_EPOCH: AtomicU64 = AtomicU64::new(0);
#[cfg(unix)]
static NOTED_PID: AtomicU32 = AtomicU32::new(0);
static ATFORK: Once = Once::new();

/// Records that the process has forked: every thread's random generator reseeds on its next
/// use, the process node is drawn again and UUID generators take the steps they take in a
/// child. Called automatically in a forked child (see [`note_fork_once`]).
pub fn note_fork() {
    FORK_EPOCH.fetch_add(1, Ordering::SeqCst);
    crate::random::forget_process_node();
}

/// [`note_fork`], once per process id: the `pthread_atfork` child handler and Python's
/// `os.register_at_fork` hook both call it after one fork, and only the first counts.
pub fn note_fork_once() {
    #[cfg(unix)]
    {
        // SAFETY: getpid has no preconditions and is async-signal-safe.
        let pid = unsafe { libc::getpid() }.unsigned_abs();
        if NOTED_PID.swap(pid, Ordering::SeqCst) == pid {
            return;
        }
    }
    note_fork();
}

/// How many forks this process descends from since it loaded the crate (see [`note_fork`]).
#[inline]
pub fn fork_epoch() -> u64 {
    FORK_EPOCH.load(Ordering::Relaxed)
}

#[cfg(unix)]
#[cfg_attr(miri, allow(dead_code))] // Miri cannot fork: the handlers are not installed there.
extern "C" fn atfork_prepare() {
    // Where the 128-bit words are lock-free no passage is ever under way: closing costs two
    // atomic operations.
    gate::GATE.close();
}

#[cfg(unix)]
#[cfg_attr(miri, allow(dead_code))]
extern "C" fn atfork_parent() {
    gate::GATE.open();
}

#[cfg(unix)]
#[cfg_attr(miri, allow(dead_code))]
extern "C" fn atfork_child() {
    gate::GATE.reset();
    crate::generator::deterministic::after_fork_in_child();
    note_fork_once();
}

/// Installs the `pthread_atfork` handlers (once per process; later calls do nothing).
pub(crate) fn install_handler() {
    ATFORK.call_once(|| {
        // Miri has no `pthread_atfork` (and cannot fork).
        #[cfg(all(unix, not(miri)))]
        // SAFETY: registers plain functions with no captured state. `atfork_prepare` and
        // `atfork_parent` only perform atomic operations (and yield while passages end);
        // `atfork_child` only atomic operations and getpid, which are async-signal-safe as a
        // forked child requires.
        unsafe {
            libc::pthread_atfork(
                Some(atfork_prepare),
                Some(atfork_parent),
                Some(atfork_child),
            );
        }
    });
}

/// Where a UUID generator learns that the process forked: a counter that moves once per fork.
pub trait ForkSource: Send + Sync {
    /// The current fork epoch; a change since the last reading means a fork happened.
    fn epoch(&self) -> u64;
}

/// The real process: the epoch [`note_fork_once`] bumps in every forked child.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProcessFork;

impl ForkSource for ProcessFork {
    #[inline]
    fn epoch(&self) -> u64 {
        fork_epoch()
    }
}

/// A fork epoch moved by hand, for tests that simulate a fork without touching the process's
/// own epoch (which every other generator in the process watches).
#[derive(Debug, Default)]
pub struct ManualFork(AtomicU64);

impl ManualFork {
    /// An epoch starting at 0.
    pub const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// Simulates one fork.
    pub fn fork(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl ForkSource for ManualFork {
    fn epoch(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

impl<F: ForkSource + ?Sized> ForkSource for std::sync::Arc<F> {
    #[inline]
    fn epoch(&self) -> u64 {
        (**self).epoch()
    }
}

impl<F: ForkSource + ?Sized> ForkSource for &F {
    #[inline]
    fn epoch(&self) -> u64 {
        (**self).epoch()
    }
}
