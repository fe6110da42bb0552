//! A deterministic stand-in for the process-wide generators, for tests of code that makes
//! UUIDs: while one is installed, `uuid1`, `uuid4`, `uuid6`, `uuid7` and `uuid8` (and their bulk
//! forms) return a reproducible sequence, the same for the same seed in every run and every
//! process.
//!
//! Each kind has its own clock and its own random stream (ChaCha12 keyed by SHA-256 of the
//! seed and the kind's name), so the UUIDs of one kind do not change when code adds calls of
//! another. A clock starts at `start` and moves `step` nanoseconds at each reading; v1 and v6
//! use a node drawn from the seed (with the multicast bit, RFC 9562 §6.10) instead of the
//! process node.
//!
//! Installing one is process-wide and affects every thread; calls from several threads
//! interleave in the order they run, so only a single thread's sequence is reproducible.
//! Independent generators (`V7Generator` and the others) are not affected.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::{GregorianGenerator, RollbackPolicy, V7Generator, V7Method};
use crate::clock::Clock;
use crate::random::{RandomSource, SeededRandom, MULTICAST_BIT};
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

/// The deterministic generators of one seed (see the module documentation).
#[derive(Debug)]
pub struct Deterministic {
    pub(crate) v1: GregorianGenerator<StepClock, SeededRandom>,
    pub(crate) v6: GregorianGenerator<StepClock, SeededRandom>,
    pub(crate) v7: V7Generator<StepClock, SeededRandom>,
    pub(crate) v4: SeededRandom,
    pub(crate) v8: SeededRandom,
}

impl Deterministic {
    /// The generators for `seed` (any bytes), with clocks starting at `start_ns` (Unix
    /// nanoseconds) and moving `step_ns` per reading.
    ///
    /// # Errors
    /// Only if the seeded random stream fails, which it does not.
    pub fn new(seed: &[u8], start_ns: u64, step_ns: u64) -> Result<Self> {
        let node =
            SeededRandom::derived(seed, "node").next_u64()? & 0xFFFF_FFFF_FFFF | MULTICAST_BIT;
        let gregorian = |version: u8, stream: &str| {
            GregorianGenerator::with_sources(
                version,
                Some(node),
                super::DEFAULT_ROLLBACK_ALLOWANCE_NS,
                RollbackPolicy::Reset,
                StepClock::new(start_ns, step_ns),
                SeededRandom::derived(seed, stream),
            )
        };
        Ok(Self {
            v1: gregorian(1, "v1")?,
            v6: gregorian(6, "v6")?,
            v7: V7Generator::with_sources(
                V7Method::DEFAULT,
                super::DEFAULT_ROLLBACK_ALLOWANCE_NS,
                RollbackPolicy::Reset,
                StepClock::new(start_ns, step_ns),
                SeededRandom::derived(seed, "v7"),
            )?,
            v4: SeededRandom::derived(seed, "v4"),
            v8: SeededRandom::derived(seed, "v8"),
        })
    }
}

/// Installed generators, innermost last, each with its token.
static STACK: Mutex<Vec<(u64, Arc<Deterministic>)>> = Mutex::new(Vec::new());
/// `true` while the stack is not empty: the one atomic load the process-wide functions pay.
static ACTIVE: AtomicBool = AtomicBool::new(false);
static TOKENS: AtomicU64 = AtomicU64::new(1);

/// Installs `generators` for the whole process until [`uninstall`] is called with the token
/// returned. Installations nest: the latest wins.
pub fn install(generators: Deterministic) -> u64 {
    let token = TOKENS.fetch_add(1, Ordering::Relaxed);
    let mut stack = STACK.lock().unwrap_or_else(PoisonError::into_inner);
    stack.push((token, Arc::new(generators)));
    ACTIVE.store(true, Ordering::SeqCst);
    token
}

/// Removes the installation `token`, wherever it is in the stack; `false` if there is none.
pub fn uninstall(token: u64) -> bool {
    let mut stack = STACK.lock().unwrap_or_else(PoisonError::into_inner);
    let before = stack.len();
    stack.retain(|(t, _)| *t != token);
    ACTIVE.store(!stack.is_empty(), Ordering::SeqCst);
    stack.len() != before
}

/// The innermost installed generators, if any: one relaxed atomic load when there are none.
#[inline(always)]
pub(crate) fn active() -> Option<Arc<Deterministic>> {
    if ACTIVE.load(Ordering::Relaxed) {
        innermost()
    } else {
        None
    }
}

#[cold]
#[inline(never)]
fn innermost() -> Option<Arc<Deterministic>> {
    STACK
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .last()
        .map(|(_, g)| Arc::clone(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Uuid;

    /// Tests that install share the process-wide stack, so they are serialised.
    static SERIAL: Mutex<()> = Mutex::new(());

    /// Runs `f` with `seed` installed.
    fn with_seed<T>(seed: &[u8], f: impl FnOnce() -> T) -> T {
        let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let token =
            install(Deterministic::new(seed, 1_700_000_000_000_000_000, 1_000_000).unwrap());
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
    fn installations_nest_and_uninstall_by_token() {
        let _guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let outer = install(Deterministic::new(b"outer", 0, 1).unwrap());
        let inner = install(Deterministic::new(b"inner", 0, 1).unwrap());
        assert!(uninstall(outer));
        assert!(active().is_some(), "the inner one is still installed");
        assert!(uninstall(inner));
        assert!(!uninstall(inner), "only once");
    }
}
