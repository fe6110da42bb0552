//! The compare-and-swap engine shared by every time-based generator ([RFC 9562 §6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2), [§6.3](https://www.rfc-editor.org/rfc/rfc9562#section-6.3)).
//!
//! A generator's whole state is one word in an `AtomicU128`: the last *key* it handed out (for
//! v7 the timestamp, the sub-millisecond fraction and the counter; for v1/v6 the 60-bit
//! timestamp and the clock sequence) and, in the bits above the key, its *run-ahead*: how
//! many ticks the key's timestamp is past the *anchor*, the clock reading of the step that
//! last started from the clock. Rollback is measured from the anchor, not from the key, so a
//! key that counted ahead of the clock in a burst is never taken for a clock that went back.
//!
//! [`Engine::advance`] loads the state, *then* reads the clock, classifies the reading
//! ([`Tick`]), asks the generator for the next key and installs it with one compare-and-swap.
//! The order is what makes the rollback test sound: the anchor travels in the same word as
//! the key, so it is a reading that was taken before the state was installed, and so before
//! this reading. A reading more than the allowance below it proves that the clock went back;
//! a thread descheduled for any time after loading the state or after reading the clock
//! cannot fake that, since the anchor it compares with is older than its reading. When the
//! compare-and-swap fails, the state another thread installed may be newer than the reading:
//! the retry counts on from it and is handed no reading at all ([`Tick::Overtaken`]), so no
//! generator can compare a stale reading with a newer key: it neither proves a rollback nor
//! moves the timestamp, and no retry reads the clock again. A fresh reading comes only with
//! the variants that may use it, wrapped in a [`Reading`] that only the engine makes. Hence,
//! in the order of the successful compare-and-swaps:
//!
//! - every key is greater than the one before, except a [`Tick::Reset`], installed only by a
//!   step whose reading is more than the allowance behind a reading taken before it;
//! - [`crate::ErrorKind::ClockRollback`] is returned only on the same proof;
//! - a reset installs a state whose anchor is its own reading, so a second reset needs the
//!   clock to go back beyond the allowance again, after that reading.
//!
//! The run-ahead field has 31 bits (5 above v7 Method 2's 122-bit key), counted in ticks: at
//! least 214 s for v1/v6, 524 s for v7 Method 3, 31 ms for Method 2, which takes more than
//! 2^40 UUIDs a millisecond to reach. A key that ran further ahead of its anchor than that (a
//! clock that stands still while UUIDs are made) has no known anchor until the clock passes
//! it: meanwhile no reading proves a rollback, and the generator counts on.
//!
//! A fork is noticed through a [`ForkSource`] and reported to the generator in the first
//! step that *succeeds* after it: a step that fails (a rollback error) leaves the notice
//! pending for the next call.
//!
//! The state word is reached through the [`Cells`] trait, so that a model of the engine under
//! `loom` (the `model` module, built with `--cfg loom`) can run the same code on a narrower
//! word of loom's atomics.

use core::sync::atomic::{AtomicU64, Ordering as Relaxed};
use portable_atomic::{AtomicU128, Ordering};

use super::{rollback_error, RollbackPolicy};
use crate::clock::Clock;
use crate::fork::{gate, ForkSource};
use crate::time::GREGORIAN_UNIX_OFFSET_100NS;
use crate::Result;

/// The unit of a generator's timestamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeBase {
    /// Milliseconds since 1970, followed by `fraction_bits` bits of the millisecond (v7;
    /// [§6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2) Method 3 when `fraction_bits` is 12).
    Unix {
        /// Bits of sub-millisecond fraction, 0 or 12.
        fraction_bits: u32,
    },
    /// 100-ns intervals since 1582-10-15 (v1 and v6, [§5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1)).
    Gregorian,
}

impl TimeBase {
    /// The clock reading `unix_ns` in ticks of this base.
    /// (64-bit arithmetic: a 128-bit division would cost more than the rest of the call.)
    #[inline]
    pub(crate) fn ticks(self, unix_ns: u64) -> u64 {
        match self {
            Self::Unix { fraction_bits: 0 } => unix_ns / 1_000_000,
            // §6.2 Method 3: the fraction of a millisecond times 4096, rounded down. The
            // millisecond count has at most 45 bits until the year 2554 (the end of u64 ns).
            Self::Unix { fraction_bits } => {
                let fraction = (unix_ns % 1_000_000) * (1 << fraction_bits) / 1_000_000;
                ((unix_ns / 1_000_000) << fraction_bits) | fraction
            }
            Self::Gregorian => unix_ns / 100 + GREGORIAN_UNIX_OFFSET_100NS,
        }
    }

    /// Nanoseconds in `ticks` ticks of this base (saturating).
    #[inline]
    pub(crate) fn ns(self, ticks: u64) -> u64 {
        match self {
            Self::Unix { fraction_bits } => {
                u64::try_from((u128::from(ticks) * 1_000_000) >> fraction_bits).unwrap_or(u64::MAX)
            }
            Self::Gregorian => ticks.saturating_mul(100),
        }
    }

    /// Ticks of this base in `ns` nanoseconds, rounded down.
    #[inline]
    const fn ticks_in(self, ns: u64) -> u64 {
        match self {
            Self::Unix { fraction_bits } => (((ns as u128) << fraction_bits) / 1_000_000) as u64,
            Self::Gregorian => ns / 100,
        }
    }
}

/// A clock reading in ticks of a generator's time base, taken by [`Engine::advance`] after it
/// loaded the state it classifies, and so newer than that state's anchor. Only the engine
/// makes one: a step that carries a `Reading` may compare it with its last key; a step whose
/// reading another thread's state overtook ([`Tick::Overtaken`]) carries none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reading(u64);

impl Reading {
    /// The reading, in ticks.
    #[inline]
    pub(crate) const fn ticks(self) -> u64 {
        self.0
    }
}

/// How this step stands with the clock and the last key: what a generator may build on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tick {
    /// No key yet: start from the clock.
    First {
        /// The clock.
        now: Reading,
    },
    /// The clock is past the last key's tick: start from the clock.
    New {
        /// The clock, past `last`'s tick.
        now: Reading,
        /// The last key.
        last: u128,
    },
    /// The clock is at or behind the last key's tick, by no more than the allowance behind
    /// the anchor: count on from the last key. The reading is fresh: comparing it with the
    /// last key tells how far the key is ahead of the clock.
    Behind {
        /// The clock, at or behind `last`'s tick.
        now: Reading,
        /// The last key.
        last: u128,
    },
    /// Another thread installed the last key after this step read the clock: count on from
    /// it. The reading is left out: older than the state, it says nothing of where the clock
    /// is now, and taken for the clock it would look like a clock that went back.
    Overtaken {
        /// The last key.
        last: u128,
    },
    /// The clock went back beyond the allowance and the policy is
    /// [`RollbackPolicy::Reset`]: start again from the clock.
    Reset {
        /// The clock, more than the allowance behind the anchor.
        now: Reading,
        /// The last key.
        last: u128,
    },
}

impl Tick {
    /// The last key, `None` before the first.
    #[inline]
    pub(crate) const fn last(self) -> Option<u128> {
        match self {
            Self::First { .. } => None,
            Self::New { last, .. }
            | Self::Behind { last, .. }
            | Self::Overtaken { last }
            | Self::Reset { last, .. } => Some(last),
        }
    }
}

/// What the generator sees when it computes the next key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// Where the step stands (see [`Tick`]).
    pub tick: Tick,
    /// `true` in the first successful step after a fork (possibly in several racing threads).
    pub forked: bool,
}

/// The atomic cells of an engine: its state word and the fork epoch of its last successful
/// step. Loads of the state acquire and successful exchanges release it, so that a reading
/// taken before a state was installed happens before every reading taken after it is loaded.
pub(crate) trait Cells: Send + Sync {
    /// Width of the state word.
    const BITS: u32;
    /// The state (acquire).
    fn load(&self) -> u128;
    /// Replaces `current` by `new` (acquire and release; may fail spuriously); on failure,
    /// the state found.
    fn compare_exchange(&self, current: u128, new: u128) -> core::result::Result<(), u128>;
    /// Sets the state (release).
    fn store(&self, state: u128);
    /// The fork epoch of the last successful step.
    fn fork_seen(&self) -> u64;
    /// Records the fork epoch of a successful step.
    fn set_fork_seen(&self, epoch: u64);
}

/// The cells of every real generator: a 128-bit word (`cmpxchg16b` on x86-64, `casp` or an
/// LL/SC pair on AArch64) and a 64-bit epoch. Where the word takes a lock, each operation on
/// it is a passage through the fork gate ([`gate`]), so that no fork copies the lock held.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Native {
    state: AtomicU128,
    fork_seen: AtomicU64,
}

impl Native {
    pub(crate) const fn new() -> Self {
        Self {
            state: AtomicU128::new(0),
            fork_seen: AtomicU64::new(0),
        }
    }
}

impl Native {
    /// Whether these cells take no lock on this machine: the 128-bit word as portable-atomic
    /// answers (`cmpxchg16b` on x86-64, known only at run time; no 128-bit instruction on
    /// 32-bit targets, where it takes one of its global seqlocks), and the 64-bit epoch.
    pub(crate) fn is_lock_free() -> bool {
        AtomicU128::is_lock_free() && super::ATOMIC_U64_IS_LOCK_FREE
    }
}

impl Cells for Native {
    const BITS: u32 = 128;

    #[inline]
    fn load(&self) -> u128 {
        gate::through(|| self.state.load(Ordering::Acquire))
    }

    #[inline]
    fn compare_exchange(&self, current: u128, new: u128) -> core::result::Result<(), u128> {
        gate::through(|| {
            self.state
                .compare_exchange_weak(current, new, Ordering::AcqRel, Ordering::Acquire)
                .map(|_| ())
        })
    }

    fn store(&self, state: u128) {
        gate::through(|| self.state.store(state, Ordering::Release));
    }

    #[inline]
    fn fork_seen(&self) -> u64 {
        self.fork_seen.load(Relaxed::Relaxed)
    }

    #[inline]
    fn set_fork_seen(&self, epoch: u64) {
        self.fork_seen.store(epoch, Relaxed::Relaxed);
    }
}

/// Where a key and its run-ahead lie in the state word, and the time base of its ticks: all
/// that [`Engine::advance_in`] needs to know of a layout. A generator whose layout is fixed
/// when it is compiled passes a constant, so that no shift or mask of its step is by a width
/// read from memory; the others pass the engine's own ([`Engine::advance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    base: TimeBase,
    /// The bits of a key in the state.
    key_mask: u128,
    /// Where the run-ahead field starts: 31 bits below `STARTED`, or right above a key too
    /// wide for that (v7 Method 2's, which leaves 5).
    field_shift: u32,
    /// The largest run-ahead the field records; it stands for "this much or more", an
    /// unknown anchor.
    cap: u64,
    /// A key's tick is `key >> tick_shift`.
    tick_shift: u32,
}

impl Geometry {
    /// Keys of `key_bits` bits in ticks of `base`, whose tick is `key >> tick_shift`, in a
    /// state word of `word_bits` bits.
    pub(crate) const fn new(
        base: TimeBase,
        key_bits: u32,
        tick_shift: u32,
        word_bits: u32,
    ) -> Self {
        assert!(
            key_bits < word_bits - 1,
            "a key leaves no room for the run-ahead"
        );
        let field_shift = if key_bits > word_bits - 32 {
            key_bits
        } else {
            word_bits - 32
        };
        Self {
            base,
            key_mask: (1 << key_bits) - 1,
            field_shift,
            cap: (1 << (word_bits - 1 - field_shift)) - 1,
            tick_shift,
        }
    }

    /// [`Geometry::new`] in the 128-bit word of every real generator.
    pub(crate) const fn native(base: TimeBase, key_bits: u32, tick_shift: u32) -> Self {
        Self::new(base, key_bits, tick_shift, Native::BITS)
    }

    /// The width of a key.
    pub(crate) const fn key_bits(self) -> u32 {
        self.key_mask.count_ones()
    }
}

/// The state, settings and sources of one generator (see the module documentation).
// `repr(C)` keeps the cells first: the generators that embed the engine first and are
// 64-byte aligned then have them in one cache line of their own.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Engine<C, F, S = Native> {
    /// `STARTED | run-ahead << field_shift | key` of the last key handed out; 0 before the
    /// first.
    cells: S,
    /// The layout of the state.
    geometry: Geometry,
    allowance_ns: u64,
    allowance_ticks: u64,
    policy: RollbackPolicy,
    clock: C,
    fork: F,
}

impl<C, F, S: Cells> Engine<C, F, S> {
    /// Set once a first key is installed, so that "no key yet" is not confused with a key
    /// of 0.
    const STARTED: u128 = 1 << (S::BITS - 1);
}

impl<C: Clock, F: ForkSource> Engine<C, F> {
    /// An engine for keys laid out as `geometry` says (see [`Geometry::native`]); an
    /// `allowance_ns` of `u64::MAX` is infinite (no reading proves a rollback).
    pub(crate) const fn new(
        geometry: Geometry,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        fork: F,
    ) -> Self {
        Self::with_cells(geometry, allowance_ns, policy, clock, fork, Native::new())
    }

    /// Whether this engine's state takes no lock on this machine (see [`Native::is_lock_free`]).
    pub(crate) fn is_lock_free() -> bool {
        Native::is_lock_free()
    }

    /// Replaces the fork source (the engine is fresh: nothing to carry over but its settings).
    pub(crate) fn with_fork<G: ForkSource>(self, fork: G) -> Engine<C, G> {
        Engine::new(
            self.geometry,
            self.allowance_ns,
            self.policy,
            self.clock,
            fork,
        )
    }
}

impl<C: Clock, F: ForkSource, S: Cells> Engine<C, F, S> {
    /// [`Engine::new`] on `cells`: the 128-bit word of the real generators, or the loom
    /// model's narrower one.
    pub(crate) const fn with_cells(
        geometry: Geometry,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        fork: F,
        cells: S,
    ) -> Self {
        Self {
            cells,
            geometry,
            allowance_ns,
            // No finite reading is behind an allowance of `u64::MAX` ns (the `cpython`
            // method's: it never follows the clock back, however far).
            allowance_ticks: if allowance_ns == u64::MAX {
                u64::MAX
            } else {
                geometry.base.ticks_in(allowance_ns)
            },
            policy,
            clock,
            fork,
        }
    }

    pub(crate) fn allowance_ns(&self) -> u64 {
        self.allowance_ns
    }

    pub(crate) fn policy(&self) -> RollbackPolicy {
        self.policy
    }

    pub(crate) fn clock(&self) -> &C {
        &self.clock
    }

    pub(crate) fn fork_source(&self) -> &F {
        &self.fork
    }

    #[inline(always)]
    fn tick_of(g: Geometry, key: u128) -> u64 {
        (key >> g.tick_shift) as u64
    }

    /// The key and run-ahead of a started state.
    #[inline(always)]
    fn unpack(g: Geometry, state: u128) -> (u128, u64) {
        let run_ahead = if S::BITS == 128 {
            // The field is in the high half: a 64-bit shift.
            ((state >> 64) as u64 >> (g.field_shift - 64)) & g.cap
        } else {
            (state >> g.field_shift) as u64 & g.cap
        };
        (state & g.key_mask, run_ahead)
    }

    /// The state for `key` with `run_ahead` (at most `cap`).
    #[inline(always)]
    fn pack(g: Geometry, key: u128, run_ahead: u64) -> u128 {
        let field = if S::BITS == 128 {
            u128::from(run_ahead << (g.field_shift - 64)) << 64
        } else {
            u128::from(run_ahead) << g.field_shift
        };
        Self::STARTED | field | key
    }

    /// The key, if it fits the key's bits; checked in every build, since a wider key would
    /// spill into the run-ahead field and the started flag.
    #[inline(always)]
    fn checked(g: Geometry, key: u128) -> Result<u128> {
        if key & !g.key_mask == 0 {
            Ok(key)
        } else {
            Err(super::out_of_range(
                "the generator's state (a key wider than its layout)",
                format_args!("{key:#x}"),
            ))
        }
    }

    /// Installs the next key. `next(step)` returns the key to install and the value to hand
    /// back (it may be called again, with a newer last key, when another thread won the race).
    ///
    /// # Errors
    /// A clock error; [`crate::ErrorKind::ClockRollback`] under [`RollbackPolicy::Error`];
    /// whatever `next` returns, or a key wider than the layout (the state is then unchanged).
    #[inline]
    pub(crate) fn advance<T>(&self, next: impl FnMut(&Step) -> Result<(u128, T)>) -> Result<T> {
        self.advance_in(self.geometry, next)
    }

    /// [`Engine::advance`] with the engine's geometry given as `g`, a constant of the caller's
    /// that the compiler folds into the step (it must be the engine's own).
    ///
    /// # Errors
    /// As [`Engine::advance`].
    #[inline(always)]
    pub(crate) fn advance_in<T>(
        &self,
        g: Geometry,
        mut next: impl FnMut(&Step) -> Result<(u128, T)>,
    ) -> Result<T> {
        debug_assert_eq!(
            g, self.geometry,
            "a step in another layout than the engine's"
        );
        let epoch = self.fork.epoch();
        let forked = epoch != self.cells.fork_seen();
        // The state first: its anchor must be a reading taken before this one. If the state
        // moves on before the compare-and-swap, that fails and the retry is `Overtaken`; if
        // it succeeds, the state was installed before the reading. (A second load after the
        // reading would learn of a move one compare-and-swap sooner, at the price of a
        // 128-bit load in every call.)
        let mut state = self.cells.load();
        let now = Reading(g.base.ticks(self.clock.now_unix_ns()?));
        let mut fresh = true;
        let cap = g.cap;
        let mut backoff = Backoff::default();
        loop {
            let (tick, last_tick, run_ahead) = if state & Self::STARTED == 0 {
                // No key was ever installed: the reading is newer than everything.
                (Tick::First { now }, 0, 0)
            } else {
                let (last, run_ahead) = Self::unpack(g, state);
                let last_tick = Self::tick_of(g, last);
                let tick = if !fresh {
                    Tick::Overtaken { last }
                } else if now.0 > last_tick {
                    Tick::New { now, last }
                } else {
                    // `anchor <= last_tick`: with `now <= last_tick`, no overflow below.
                    let anchor = last_tick - run_ahead;
                    if run_ahead < cap && anchor - now.0.min(anchor) > self.allowance_ticks {
                        if self.policy == RollbackPolicy::Error {
                            return Err(rollback_error(
                                g.base.ns(anchor - now.0),
                                self.allowance_ns,
                            ));
                        }
                        Tick::Reset { now, last }
                    } else {
                        Tick::Behind { now, last }
                    }
                };
                (tick, last_tick, run_ahead)
            };
            let (key, out) = next(&Step { tick, forked })?;
            let key_tick = Self::tick_of(g, Self::checked(g, key)?);
            let run_ahead = match tick {
                Tick::First { now } | Tick::New { now, .. } | Tick::Reset { now, .. } => {
                    key_tick.saturating_sub(now.0).min(cap)
                }
                Tick::Behind { .. } | Tick::Overtaken { .. } if run_ahead == cap => cap,
                Tick::Behind { .. } | Tick::Overtaken { .. } => run_ahead
                    .saturating_add(key_tick.saturating_sub(last_tick))
                    .min(cap),
            };
            match self
                .cells
                .compare_exchange(state, Self::pack(g, key, run_ahead))
            {
                Ok(()) => {
                    if forked {
                        self.cells.set_fork_seen(epoch);
                    }
                    return Ok(out);
                }
                Err(current) => {
                    backoff.pause();
                    // A spurious failure (LL/SC) leaves the state, and the reading, as they
                    // were; any other means a newer state than the reading.
                    fresh &= current == state;
                    state = current;
                }
            }
        }
    }

    /// Installs `key` as the last key handed out, with its own tick as the anchor (the fork
    /// epoch is left as it is).
    ///
    /// # Errors
    /// A key wider than the layout (the state is then unchanged).
    pub(crate) fn restore(&self, key: u128) -> Result<()> {
        let g = self.geometry;
        self.cells.store(Self::pack(g, Self::checked(g, key)?, 0));
        Ok(())
    }
}

/// Exponential backoff after a failed compare-and-swap: 1, 2, 4 ... 64 pause instructions. Under
/// contention, retrying at once only bounces the cache line between cores; pausing lets the
/// winner finish and gives the next attempt a better chance.
#[derive(Debug, Default)]
struct Backoff(u32);

impl Backoff {
    #[inline]
    fn pause(&mut self) {
        for _ in 0..1u32 << self.0 {
            core::hint::spin_loop();
        }
        self.0 = (self.0 + 1).min(6);
    }
}

#[cfg(all(test, loom))]
mod model;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use crate::fork::ManualFork;
    use crate::ErrorKind;

    type Test = Engine<ManualClock, ManualFork>;

    /// Keys are plain millisecond counters (64 bits, the tick is the key).
    fn engine(policy: RollbackPolicy, allowance_ns: u64, key_bits: u32) -> Test {
        Engine::new(
            Geometry::native(TimeBase::Unix { fraction_bits: 0 }, key_bits, 0),
            allowance_ns,
            policy,
            ManualClock::new(1_000_000_000),
            ManualFork::new(),
        )
    }

    /// The next key is the clock or `last + 1`.
    fn step(e: &Test) -> Result<Step> {
        e.advance(|s| {
            let key = match s.tick {
                Tick::Behind { last, .. } | Tick::Overtaken { last } => last + 1,
                Tick::First { now } | Tick::New { now, .. } | Tick::Reset { now, .. } => {
                    u128::from(now.ticks())
                }
            };
            Ok((key, *s))
        })
    }

    /// The classification of the next step, by variant, and its reading if it has one.
    fn kind(e: &Test) -> (&'static str, Option<u64>) {
        match step(e).unwrap().tick {
            Tick::First { now } => ("first", Some(now.ticks())),
            Tick::New { now, .. } => ("new", Some(now.ticks())),
            Tick::Behind { now, .. } => ("behind", Some(now.ticks())),
            Tick::Overtaken { .. } => ("overtaken", None),
            Tick::Reset { now, .. } => ("reset", Some(now.ticks())),
        }
    }

    #[test]
    fn classifies_ticks_against_the_anchor() {
        let e = engine(RollbackPolicy::Error, 10_000_000, 64);
        let first = step(&e).unwrap();
        assert_eq!(first.tick, Tick::First { now: Reading(1000) });
        assert_eq!(first.tick.last(), None);
        assert_eq!(kind(&e), ("behind", Some(1000)));
        e.clock.advance(5_000_000);
        assert_eq!(kind(&e), ("new", Some(1005)));
        e.clock.rewind(9_000_000); // 4 ms behind the last new tick: within 10 ms
        assert_eq!(kind(&e), ("behind", Some(996)));
        e.clock.rewind(20_000_000);
        let err = step(&e).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::ClockRollback {
                behind_ns: 29_000_000,
                allowance_ns: 10_000_000
            }
        );
        let e = engine(RollbackPolicy::Reset, 10_000_000, 64);
        step(&e).unwrap();
        e.clock.rewind(20_000_000);
        assert_eq!(kind(&e), ("reset", Some(980)));
        // The reset is the new anchor: 5 ms further back is within the allowance of it.
        e.clock.rewind(5_000_000);
        assert_eq!(kind(&e), ("behind", Some(975)));
    }

    #[test]
    fn the_anchor_survives_a_run_ahead() {
        // A frozen clock: 50 steps carry the key 50 ms past the anchor, which stays the
        // reading of the first step.
        let e = engine(RollbackPolicy::Error, 10_000_000, 64);
        for _ in 0..50 {
            step(&e).unwrap();
        }
        assert_eq!(step(&e).unwrap().tick.last(), Some(1049));
        e.clock.rewind(10_000_000);
        assert_eq!(kind(&e).0, "behind", "10 ms: within");
        e.clock.rewind(1_000_000);
        let err = step(&e).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::ClockRollback {
                behind_ns: 11_000_000,
                allowance_ns: 10_000_000
            }
        );
    }

    #[test]
    fn a_run_ahead_beyond_the_field_forgets_the_anchor_until_the_clock_passes() {
        // 122-bit keys leave 5 bits: run-ahead up to 30 ms is known, 31 means "31 or more".
        let e = engine(RollbackPolicy::Error, 1_000_000, 122);
        assert_eq!(e.geometry.cap, 31);
        for _ in 0..=30 {
            step(&e).unwrap();
        }
        e.clock.rewind(2_000_000);
        assert!(step(&e).unwrap_err().is_clock_rollback(), "30 ms: known");
        e.clock.advance(2_000_000);
        step(&e).unwrap(); // 31 ms ahead: the anchor is forgotten
        e.clock.rewind(2_000_000);
        assert_eq!(kind(&e).0, "behind", "no proof without it");
        // A clock past the key starts a new tick with a known anchor again.
        e.clock.advance(100_000_000);
        assert_eq!(kind(&e).0, "new");
        e.clock.rewind(2_000_000);
        assert!(step(&e).unwrap_err().is_clock_rollback());
    }

    #[test]
    fn a_key_of_zero_is_a_key() {
        let e = Engine::new(
            Geometry::native(TimeBase::Unix { fraction_bits: 0 }, 64, 0),
            0,
            RollbackPolicy::Error,
            ManualClock::new(0),
            ManualFork::new(),
        );
        assert_eq!(step(&e).unwrap().tick.last(), None);
        assert_eq!(step(&e).unwrap().tick.last(), Some(0));
    }

    #[test]
    fn a_fork_is_reported_once_by_the_first_step_that_succeeds() {
        let e = engine(RollbackPolicy::Error, 10_000_000, 64);
        assert!(!step(&e).unwrap().forked);
        e.fork.fork();
        // The first step after the fork fails: the notice must survive it.
        e.clock.rewind(50_000_000);
        assert!(step(&e).is_err());
        assert!(step(&e).is_err());
        e.clock.advance(60_000_000);
        assert!(
            step(&e).unwrap().forked,
            "the notice was lost with the failed step"
        );
        assert!(!step(&e).unwrap().forked, "reported once");
        // A failure from the generator itself leaves the notice pending too.
        e.fork.fork();
        let failed: Result<()> = e.advance(|_| Err(crate::Error::invalid_length("x", 1, 2)));
        assert!(failed.is_err());
        assert!(step(&e).unwrap().forked);
    }

    #[test]
    fn a_failing_step_leaves_the_state_unchanged() {
        let e = engine(RollbackPolicy::Error, 10_000_000, 64);
        step(&e).unwrap();
        let before = e.cells.load();
        let failed: Result<()> = e.advance(|_| Err(crate::Error::invalid_length("x", 1, 2)));
        assert!(failed.is_err());
        assert_eq!(e.cells.load(), before);
    }

    #[test]
    fn time_bases_convert_both_ways() {
        let method3 = TimeBase::Unix { fraction_bits: 12 };
        // RFC 9562 Appendix A.6: rand_a 0xCC3 is 797_608 ns into the millisecond.
        assert_eq!(method3.ticks(1_645_557_742_000_797_608) & 0xFFF, 0xCC3);
        assert_eq!(
            method3.ticks(1_645_557_742_000_797_608) >> 12,
            1_645_557_742_000
        );
        assert_eq!(method3.ns(4096), 1_000_000);
        assert_eq!(method3.ticks_in(1_000_000), 4096);
        let gregorian = TimeBase::Gregorian;
        // RFC 9562 Appendix A.1: 2022-02-22 19:22:22 UTC.
        assert_eq!(
            gregorian.ticks(1_645_557_742_000_000_000),
            138_648_505_420_000_000
        );
        assert_eq!(gregorian.ns(7), 700);
        assert_eq!(gregorian.ticks_in(1_000), 10);
    }
}
