//! Stand-ins for the process-wide generators, for tests of code that makes UUIDs: while one is
//! installed, `uuid1`, `uuid4`, `uuid6`, `uuid7` and `uuid8` (and their bulk forms) use its
//! generators instead of the real ones. There are two kinds ([`StandIn`]):
//!
//! - *seeded* ([`StandIn::seeded`]): a reproducible sequence, the same for the same seed in every
//!   run and every process. Each kind has its own clock and its own random stream (ChaCha12
//!   keyed by SHA-256 of the seed and the kind's name), so the UUIDs of one kind do not change
//!   when code adds calls of another. A clock starts at `start` and moves `step` nanoseconds at
//!   each reading; v1 and v6 use a node drawn from the seed (with the multicast bit,
//!   [RFC 9562 §6.10](https://www.rfc-editor.org/rfc/rfc9562#section-6.10)) instead of the
//!   process node.
//! - *on a given clock* ([`StandIn::on_clock`]): fresh generators of the process-wide layouts
//!   that read a clock the caller gives (the bindings give one that calls Python's
//!   `time.time_ns()`, so that a test's frozen clock moves them), with the thread CSPRNG and the
//!   process node, as the real ones. Within one clock reading they count, so the UUIDs stay
//!   unique and increasing while the clock stands still.
//!
//! Installing one is process-wide and affects every thread; calls from several threads
//! interleave in the order they run, so only a single thread's seeded sequence is reproducible.
//! Independent generators (`V7Generator` and the others) are not affected.
//!
//! A child forked while a stand-in is installed continues from its parent's state, also
//! when other threads were inside calls at the fork: neither the installed stack nor the
//! generators, clocks and seeded streams take a lock that such a thread could have left held.

use core::ptr;
use core::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use super::{GregorianGenerator, RollbackPolicy, V7Generator, V7Method};
use crate::clock::Clock;
use crate::random::{RandomSource, SeededRandom, ThreadRandom, MULTICAST_BIT};
use crate::Result;

/// A clock that starts at a given instant and moves a fixed step at each reading.
#[derive(Debug)]
pub struct StepClock {
    next: AtomicU64,
    step: u64,
}

impl StepClock {
    /// Reads `start` first, then `start + step`, `start + 2 * step`...
    pub const fn new(start: u64, step: u64) -> Self {
        Self {
            next: AtomicU64::new(start),
            step,
        }
    }
}

impl Clock for StepClock {
    /// The next reading. The clock stops at 2**64 - 1 ns (in 2554) rather than wrap to 1970,
    /// which would take every time-based UUID back: the generators go on increasing past a
    /// clock that stands still.
    fn now_unix_ns(&self) -> Result<u64> {
        let step = self.step;
        let previous = self
            .next
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |t| {
                Some(t.saturating_add(step))
            })
            .unwrap_or_else(|t| t);
        Ok(previous)
    }
}

/// A clock a stand-in reads.
pub type StandInClock = Box<dyn Clock>;
/// A random source a stand-in draws from.
pub type StandInRandom = Box<dyn RandomSource>;

/// The generators that replace the process-wide ones while installed (see the module
/// documentation): seeded, or on a clock of the caller's.
pub struct StandIn {
    pub(crate) v1: GregorianGenerator<StandInClock, StandInRandom>,
    pub(crate) v6: GregorianGenerator<StandInClock, StandInRandom>,
    pub(crate) v7: V7Generator<StandInClock, StandInRandom>,
    pub(crate) v4: StandInRandom,
    pub(crate) v8: StandInRandom,
}

impl core::fmt::Debug for StandIn {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StandIn").finish_non_exhaustive()
    }
}

impl StandIn {
    /// The reproducible generators for `seed` (any bytes), with clocks starting at `start_ns`
    /// (Unix nanoseconds) and moving `step_ns` per reading.
    ///
    /// # Errors
    /// Only if the seeded random stream fails, which it does not.
    pub fn seeded(seed: &[u8], start_ns: u64, step_ns: u64) -> Result<Self> {
        let node =
            SeededRandom::derived(seed, "node").next_u64()? & 0xFFFF_FFFF_FFFF | MULTICAST_BIT;
        let stream = |name: &str| -> StandInRandom { Box::new(SeededRandom::derived(seed, name)) };
        let clock = || -> StandInClock { Box::new(StepClock::new(start_ns, step_ns)) };
        Self::build(Some(node), clock, stream)
    }

    /// Generators of the process-wide layouts on clocks made by `clock` (one for each of v1, v6
    /// and v7), drawing from the thread CSPRNG, v1 and v6 with the process node: the real
    /// generators, started afresh on another clock.
    ///
    /// # Errors
    /// None in practice: the layouts are the process-wide generators' own.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::clock::ManualClock;
    /// use uuidx_core::generator::{deterministic::{self, StandIn}, uuid7};
    /// use std::sync::Arc;
    ///
    /// let clock = Arc::new(ManualClock::new(1_700_000_000_000_000_000));
    /// let token = deterministic::install(
    ///     StandIn::on_clock(|| Box::new(Arc::clone(&clock))).unwrap(),
    /// );
    /// let (a, b) = (uuid7().unwrap(), uuid7().unwrap());
    /// assert!(deterministic::uninstall(token));
    /// // The clock stood still: both carry its millisecond, and they still increase.
    /// assert_eq!(uuidx_core::layout::split(a).0, 1_700_000_000_000);
    /// assert!(a < b);
    /// ```
    pub fn on_clock(clock: impl Fn() -> StandInClock) -> Result<Self> {
        Self::build(None, clock, |_| Box::new(ThreadRandom))
    }

    fn build(
        node: Option<u64>,
        clock: impl Fn() -> StandInClock,
        random: impl Fn(&str) -> StandInRandom,
    ) -> Result<Self> {
        let gregorian = |version: u8, stream: &str| {
            GregorianGenerator::with_sources(
                version,
                node,
                super::DEFAULT_ROLLBACK_ALLOWANCE_NS,
                RollbackPolicy::Reset,
                clock(),
                random(stream),
            )
        };
        Ok(Self {
            v1: gregorian(1, "v1")?,
            v6: gregorian(6, "v6")?,
            v7: V7Generator::with_sources(
                V7Method::DEFAULT,
                super::DEFAULT_ROLLBACK_ALLOWANCE_NS,
                RollbackPolicy::Reset,
                clock(),
                random("v7"),
            )?,
            v4: random("v4"),
            v8: random("v8"),
        })
    }
}

// The installed generators form a stack shared by every thread, read on every call while
// one is installed. It takes no lock, so that no thread (in particular one that no longer
// exists in a forked child) can hold up another:
//
// - The stack is an immutable list of `Installed` nodes, innermost first; `TOP` holds one
//   counted reference (`Arc::into_raw`) to the innermost, or null. Installing and
//   uninstalling build a new list (sharing the unchanged tail) and swap it in by
//   compare-and-swap, retrying if another thread changed the stack meanwhile.
// - A reader takes its own reference inside a *read section*: it counts itself in `READERS`,
//   loads `TOP` and increments that node's count, then leaves the section. A thread that
//   swapped a node out of `TOP` releases `TOP`'s reference to it only once it has seen
//   `READERS` at zero after the swap: every reader that could still have loaded the old
//   pointer has then taken its own reference (all four steps are `SeqCst`).
// - Read sections are a few instructions long, so the wait is short. A fork can strand one
//   (another thread was inside it): the `pthread_atfork` child handler resets `READERS` to
//   zero, which is exact in the child, where the forking thread is the only thread and is not
//   inside one.
// - Since a list is only freed when no reference remains, and every retry holds a reference
//   to the list it compares against, a freed node's address cannot come back as `TOP` during
//   a compare-and-swap (no ABA).

/// One installed set of generators and the installations below it.
#[derive(Debug)]
struct Installed {
    token: u64,
    generators: Arc<StandIn>,
    below: Option<Arc<Installed>>,
}

/// The innermost installation (an `Arc::into_raw` reference), or null.
static TOP: AtomicPtr<Installed> = AtomicPtr::new(ptr::null_mut());
/// How many threads are inside a read section.
static READERS: AtomicUsize = AtomicUsize::new(0);
static TOKENS: AtomicU64 = AtomicU64::new(1);

/// The generators installed when it was taken; they stay usable (and the same) even if they
/// are uninstalled meanwhile.
#[derive(Debug)]
pub(crate) struct Active(Arc<Installed>);

impl core::ops::Deref for Active {
    type Target = StandIn;
    fn deref(&self) -> &StandIn {
        &self.0.generators
    }
}

/// A counted reference to the current top of the stack (a read section).
fn load_top() -> Option<Arc<Installed>> {
    READERS.fetch_add(1, Ordering::SeqCst);
    let top = TOP.load(Ordering::SeqCst);
    let out = (!top.is_null()).then(|| {
        // SAFETY: `top` came from `Arc::into_raw` and `TOP`'s reference to it is only
        // released after `READERS` was seen at zero following its removal from `TOP`; this
        // section is counted in `READERS` and loaded it from `TOP`, so that reference is
        // still held.
        unsafe {
            Arc::increment_strong_count(top);
            Arc::from_raw(top)
        }
    });
    READERS.fetch_sub(1, Ordering::SeqCst);
    out
}

/// Replaces the stack `current` (as loaded by [`load_top`]) by `new`; `false` (and `new`
/// dropped) if another thread changed the stack first.
fn swap_top(current: Option<&Arc<Installed>>, new: Option<Arc<Installed>>) -> bool {
    let expected = current.map_or(ptr::null_mut(), |c| Arc::as_ptr(c).cast_mut());
    let raw = new.map_or(ptr::null_mut(), |n| Arc::into_raw(n).cast_mut());
    let Ok(old) = TOP.compare_exchange(expected, raw, Ordering::SeqCst, Ordering::SeqCst) else {
        if !raw.is_null() {
            // SAFETY: `raw` came from `Arc::into_raw` just above and was not stored.
            drop(unsafe { Arc::from_raw(raw) });
        }
        return false;
    };
    if !old.is_null() {
        // Wait out the read sections that may have loaded `old` (see above).
        while READERS.load(Ordering::SeqCst) != 0 {
            std::thread::yield_now();
        }
        // SAFETY: `TOP`'s reference to `old`, which it no longer holds; every reader that
        // loaded `old` has taken its own reference.
        unsafe { Arc::decrement_strong_count(old) };
    }
    true
}

/// Forgets the read sections of threads that did not survive a fork: called in the child
/// only, where the one thread is the one that forked.
#[cfg(any(unix, test))]
pub(crate) fn after_fork_in_child() {
    READERS.store(0, Ordering::SeqCst);
}

/// Installs `generators` for the whole process until [`uninstall`] is called with the token
/// returned. Installations nest: the latest wins.
pub fn install(generators: StandIn) -> u64 {
    crate::fork::install_handler();
    let token = TOKENS.fetch_add(1, Ordering::Relaxed);
    let generators = Arc::new(generators);
    loop {
        let current = load_top();
        let node = Arc::new(Installed {
            token,
            generators: Arc::clone(&generators),
            below: current.clone(),
        });
        if swap_top(current.as_ref(), Some(node)) {
            return token;
        }
    }
}

/// Removes the installation `token`, wherever it is in the stack; `false` if there is none.
pub fn uninstall(token: u64) -> bool {
    loop {
        let current = load_top();
        // The nodes above `token`'s are copied onto the list below it.
        let mut above = Vec::new();
        let mut node = current.as_ref();
        let below = loop {
            let Some(n) = node else {
                return false;
            };
            if n.token == token {
                break n.below.clone();
            }
            above.push(n);
            node = n.below.as_ref();
        };
        let rest = above.iter().rev().fold(below, |below, n| {
            Some(Arc::new(Installed {
                token: n.token,
                generators: Arc::clone(&n.generators),
                below,
            }))
        });
        if swap_top(current.as_ref(), rest) {
            return true;
        }
    }
}

/// The innermost installed generators, if any: one relaxed atomic load when there are none.
#[inline(always)]
pub(crate) fn active() -> Option<Active> {
    if TOP.load(Ordering::Relaxed).is_null() {
        None
    } else {
        innermost()
    }
}

#[cold]
#[inline(never)]
fn innermost() -> Option<Active> {
    load_top().map(Active)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Uuid;
    use core::sync::atomic::AtomicBool;
    use std::sync::{Mutex, PoisonError};

    /// Tests that install share the process-wide stack, so they are serialised.
    static SERIAL: Mutex<()> = Mutex::new(());

    /// Runs `f` with `seed` installed.
    fn with_seed<T>(seed: &[u8], f: impl FnOnce() -> T) -> T {
        let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let token = install(StandIn::seeded(seed, 1_700_000_000_000_000_000, 1_000_000).unwrap());
        let out = f();
        assert!(uninstall(token));
        out
    }

    fn sample() -> Vec<Uuid> {
        let mut out = vec![
            super::super::uuid7().unwrap(),
            super::super::uuid4(),
            super::super::uuid6(None, None).unwrap(),
            super::super::uuid1(None, None).unwrap(),
            super::super::uuid8(None, None, None),
        ];
        let mut batch = vec![Uuid::NIL; 3];
        super::super::fill_v7(&mut batch).unwrap();
        out.extend(batch);
        out
    }

    #[test]
    fn the_same_seed_gives_the_same_uuids() {
        let a = with_seed(b"seed", sample);
        let b = with_seed(b"seed", sample);
        let c = with_seed(b"other", sample);
        assert_eq!(a, b);
        assert!(a.iter().zip(&c).all(|(x, y)| x != y));
        // The first v7 is the start instant.
        assert_eq!(crate::layout::split(a[0]).0, 1_700_000_000_000);
        assert!(a[0] < a[5] && a[5] < a[6] && a[6] < a[7]);
        // Outside, the real generators again.
        assert_ne!(super::super::uuid4(), a[1]);
    }

    #[test]
    fn kinds_do_not_disturb_each_other() {
        let v7_alone = with_seed(b"k", || super::super::uuid7().unwrap());
        let v7_after_others = with_seed(b"k", || {
            let _ = super::super::uuid4();
            let _ = super::super::uuid6(None, None);
            super::super::uuid7().unwrap()
        });
        assert_eq!(v7_alone, v7_after_others);
    }

    #[test]
    fn the_step_clock_stops_at_its_end_instead_of_wrapping() {
        let clock = StepClock::new(u64::MAX - 5, 1 << 62);
        let readings: Vec<u64> = (0..4).map(|_| clock.now_unix_ns().unwrap()).collect();
        assert_eq!(readings, [u64::MAX - 5, u64::MAX, u64::MAX, u64::MAX]);
    }

    #[test]
    fn threads_install_uninstall_and_read_the_stack_at_once() {
        // Writers install and uninstall their own generators while a reader generates from
        // whatever is innermost: no reading sees freed generators (Miri checks that), each
        // token uninstalls exactly once, and nothing is left installed or counted.
        let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let rounds = if cfg!(miri) { 4 } else { 300 };
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let reader = {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut seen = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    if let Some(d) = active() {
                        let u = d.v7.generate().unwrap();
                        assert_eq!(u.version_number(), Some(7));
                        seen += 1;
                    }
                    std::thread::yield_now();
                }
                seen
            })
        };
        let writers: Vec<_> = (0..3u8)
            .map(|w| {
                std::thread::spawn(move || {
                    for _ in 0..rounds {
                        let token = install(StandIn::seeded(&[w], 0, 1).unwrap());
                        assert!(active().is_some());
                        assert!(uninstall(token));
                        assert!(!uninstall(token));
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
        reader.join().unwrap();
        assert!(active().is_none(), "everything uninstalled");
        assert_eq!(READERS.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_read_section_stranded_by_a_fork_is_forgotten_in_the_child() {
        // A thread that was inside a read section when the process forked does not exist in
        // the child, and its count would hold up every uninstall there for ever.
        let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let token = install(StandIn::seeded(b"stranded", 0, 1).unwrap());
        READERS.fetch_add(1, Ordering::SeqCst);
        after_fork_in_child();
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(uninstall(token)).unwrap());
        let limit = std::time::Duration::from_secs(if cfg!(miri) { 600 } else { 20 });
        assert_eq!(finished.recv_timeout(limit), Ok(true), "uninstall waited");
    }

    #[test]
    fn installations_nest_and_uninstall_by_token() {
        let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let outer = install(StandIn::seeded(b"outer", 0, 1).unwrap());
        let inner = install(StandIn::seeded(b"inner", 0, 1).unwrap());
        assert!(uninstall(outer));
        assert!(active().is_some(), "the inner one is still installed");
        assert!(uninstall(inner));
        assert!(!uninstall(inner), "only once");
    }
}
