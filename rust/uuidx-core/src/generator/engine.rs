//! The compare-and-swap engine shared by every time-based generator (RFC 9562 §6.2, §6.3).
//!
//! A generator's whole state is one *key* in an `AtomicU128`: for v7 the timestamp, the
//! sub-millisecond fraction and the counter; for v1/v6 the 60-bit timestamp and the clock
//! sequence. [`Engine::advance`] reads the clock, classifies the reading against the last key
//! ([`Tick`]: a new tick, the same tick or a rollback within the allowance, or a rollback
//! beyond it), asks the generator for the next key, and installs it with one
//! compare-and-swap, retrying with backoff when another thread won. Rollback is measured from
//! the *anchor*, the clock reading of the last new tick, not from the last key, so a key that
//! counted ahead of the clock in a burst is never taken for a clock that went back.
//!
//! A fork is noticed through a [`ForkSource`] and reported to the generator in the first
//! step that *succeeds* after it: a step that fails (a rollback error) leaves the notice
//! pending for the next call.

use core::sync::atomic::{AtomicU64, Ordering as Relaxed};
use portable_atomic::{AtomicU128, Ordering};

use super::{rollback_error, RollbackPolicy};
use crate::clock::Clock;
use crate::fork::ForkSource;
use crate::time::GREGORIAN_UNIX_OFFSET_100NS;
use crate::Result;

/// Set in the state once a first key is installed, so that "no key yet" is not confused with
/// a key of 0. No key reaches bit 127 (the widest, v7's, has 48 + 12 + 30 bits).
const STARTED: u128 = 1 << 127;

/// The unit of a generator's timestamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeBase {
    /// Milliseconds since 1970, followed by `fraction_bits` bits of the millisecond (v7;
    /// §6.2 Method 3 when `fraction_bits` is 12).
    Unix {
        /// Bits of sub-millisecond fraction, 0 or 12.
        fraction_bits: u32,
    },
    /// 100-ns intervals since 1582-10-15 (v1 and v6, §5.1).
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

/// How the clock reading relates to the last key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tick {
    /// The clock is past the last key's tick (or there is no key yet): start from the clock.
    New,
    /// The clock is at or behind the last key's tick, within the rollback allowance: count on
    /// from the last key.
    Same,
    /// The clock went back beyond the allowance and the policy is
    /// [`RollbackPolicy::Reset`]: start again from the clock.
    Reset,
}

/// What the generator sees when it computes the next key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// The last key, `None` before the first.
    pub last: Option<u128>,
    /// The clock, in ticks of the generator's time base.
    pub now: u64,
    /// How `now` relates to `last`.
    pub tick: Tick,
    /// `true` in the first successful step after a fork (possibly in several racing threads).
    pub forked: bool,
}

/// The state, anchor and sources of one generator (see the module documentation).
// `repr(C)` keeps `state` and `anchor` first and adjacent: the generators that embed the
// engine first and are 64-byte aligned then have both in one cache line of their own.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Engine<C, F> {
    /// `STARTED | key` of the last key handed out; 0 before the first.
    state: AtomicU128,
    /// The clock, in ticks, at the last new tick: what rollback is measured against.
    anchor: AtomicU64,
    /// The fork epoch of the last successful step.
    fork_seen: AtomicU64,
    base: TimeBase,
    allowance_ns: u64,
    allowance_ticks: u64,
    policy: RollbackPolicy,
    clock: C,
    fork: F,
}

impl<C: Clock, F: ForkSource> Engine<C, F> {
    pub(crate) const fn new(
        base: TimeBase,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        fork: F,
    ) -> Self {
        Self {
            state: AtomicU128::new(0),
            anchor: AtomicU64::new(0),
            fork_seen: AtomicU64::new(0),
            base,
            allowance_ns,
            allowance_ticks: base.ticks_in(allowance_ns),
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

    /// Replaces the fork source (the engine is fresh: nothing to carry over but its settings).
    pub(crate) fn with_fork<G: ForkSource>(self, fork: G) -> Engine<C, G> {
        Engine::new(self.base, self.allowance_ns, self.policy, self.clock, fork)
    }

    /// The clock in ticks.
    #[inline]
    fn now(&self) -> Result<u64> {
        Ok(self.base.ticks(self.clock.now_unix_ns()?))
    }

    /// Installs the next key. `tick_of(key)` is the tick a key belongs to; `next(step)` returns
    /// the key to install and the value to hand back (it may be called again, with a newer
    /// `last`, when another thread won the race).
    ///
    /// # Errors
    /// A clock error; [`crate::ErrorKind::ClockRollback`] under [`RollbackPolicy::Error`];
    /// whatever `next` returns (the state is then unchanged).
    #[inline]
    pub(crate) fn advance<T>(
        &self,
        tick_of: impl Fn(u128) -> u64,
        mut next: impl FnMut(&Step) -> Result<(u128, T)>,
    ) -> Result<T> {
        let epoch = self.fork.epoch();
        let forked = epoch != self.fork_seen.load(Relaxed::Relaxed);
        let mut now = self.now()?;
        let mut reread = false;
        let mut state = self.state.load(Ordering::Acquire);
        let mut backoff = Backoff::default();
        loop {
            let last = (state & STARTED != 0).then_some(state & !STARTED);
            let tick = match last {
                Some(key) if now <= tick_of(key) => {
                    let behind = self.anchor.load(Relaxed::Relaxed).saturating_sub(now);
                    if behind <= self.allowance_ticks {
                        Tick::Same
                    } else if !reread {
                        // A thread descheduled since it read the clock would see a rollback
                        // that never happened: read the clock again before deciding.
                        reread = true;
                        now = self.now()?;
                        continue;
                    } else if self.policy == RollbackPolicy::Reset {
                        Tick::Reset
                    } else {
                        return Err(rollback_error(self.base.ns(behind), self.allowance_ns));
                    }
                }
                _ => Tick::New,
            };
            let step = Step {
                last,
                now,
                tick,
                forked,
            };
            let (key, out) = next(&step)?;
            debug_assert_eq!(key & STARTED, 0, "a key reached bit 127");
            match self.state.compare_exchange_weak(
                state,
                key | STARTED,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => {
                    self.record(tick, now);
                    if forked {
                        self.fork_seen.store(epoch, Relaxed::Relaxed);
                    }
                    return Ok(out);
                }
                Err(current) => {
                    backoff.pause();
                    state = current;
                }
            }
        }
    }

    /// Installs `key` as the last key handed out, as a step would have (the anchor and the
    /// fork epoch are left as they are).
    pub(crate) fn restore(&self, key: u128) {
        debug_assert_eq!(key & STARTED, 0, "a key reached bit 127");
        self.state.store(key | STARTED, Ordering::Release);
    }

    /// Updates the anchor after a successful step at clock `now`.
    #[inline]
    fn record(&self, tick: Tick, now: u64) {
        match tick {
            // A racing thread may store a slightly older reading; the anchor then
            // underestimates the clock, which only makes rollback detection more lenient.
            Tick::New if self.anchor.load(Relaxed::Relaxed) < now => {
                self.anchor.store(now, Relaxed::Relaxed);
            }
            Tick::Reset => self.anchor.store(now, Relaxed::Relaxed),
            Tick::New | Tick::Same => {}
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use crate::fork::ManualFork;
    use crate::ErrorKind;

    fn engine(policy: RollbackPolicy) -> Engine<ManualClock, ManualFork> {
        Engine::new(
            TimeBase::Unix { fraction_bits: 0 },
            10_000_000,
            policy,
            ManualClock::new(1_000_000_000),
            ManualFork::new(),
        )
    }

    /// Keys are plain millisecond counters: the next key is `now` or `last + 1`.
    fn step(e: &Engine<ManualClock, ManualFork>) -> Result<Step> {
        e.advance(
            |key| key as u64,
            |s| {
                let key = match (s.tick, s.last) {
                    (Tick::Same, Some(last)) => last + 1,
                    _ => u128::from(s.now),
                };
                Ok((key, *s))
            },
        )
    }

    #[test]
    fn classifies_ticks_against_the_anchor() {
        let e = engine(RollbackPolicy::Error);
        let first = step(&e).unwrap();
        assert_eq!((first.last, first.now, first.tick), (None, 1000, Tick::New));
        assert_eq!(step(&e).unwrap().tick, Tick::Same);
        e.clock.advance(5_000_000);
        assert_eq!(step(&e).unwrap().tick, Tick::New);
        e.clock.rewind(9_000_000); // 4 ms behind the last new tick: within 10 ms
        assert_eq!(step(&e).unwrap().tick, Tick::Same);
        e.clock.rewind(20_000_000);
        let err = step(&e).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::ClockRollback {
                behind_ns: 29_000_000,
                allowance_ns: 10_000_000
            }
        );
        let e = engine(RollbackPolicy::Reset);
        step(&e).unwrap();
        e.clock.rewind(20_000_000);
        let reset = step(&e).unwrap();
        assert_eq!((reset.tick, reset.now), (Tick::Reset, 980));
    }

    #[test]
    fn a_key_of_zero_is_a_key() {
        let e = Engine::new(
            TimeBase::Unix { fraction_bits: 0 },
            0,
            RollbackPolicy::Error,
            ManualClock::new(0),
            ManualFork::new(),
        );
        assert_eq!(step(&e).unwrap().last, None);
        assert_eq!(step(&e).unwrap().last, Some(0));
    }

    #[test]
    fn a_fork_is_reported_once_by_the_first_step_that_succeeds() {
        let e = engine(RollbackPolicy::Error);
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
        let failed: Result<()> = e.advance(
            |k| k as u64,
            |_| Err(crate::Error::invalid_length("x", 1, 2)),
        );
        assert!(failed.is_err());
        assert!(step(&e).unwrap().forked);
    }

    #[test]
    fn a_failing_step_leaves_the_state_unchanged() {
        let e = engine(RollbackPolicy::Error);
        step(&e).unwrap();
        let before = e.state.load(Ordering::SeqCst);
        let failed: Result<()> = e.advance(
            |k| k as u64,
            |_| Err(crate::Error::invalid_length("x", 1, 2)),
        );
        assert!(failed.is_err());
        assert_eq!(e.state.load(Ordering::SeqCst), before);
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
