//! The wait-free state of the version 7 layouts whose key fits in 64 bits: one `fetch_add` per
//! UUID ([RFC 9562 §6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2), Methods 1 and 3).
//!
//! A key is `tick << C | counter`, where a tick is a millisecond since 1970 followed by `F`
//! bits of its fraction (Method 3: `F` = 12) and `C` is the counter's width; the key has
//! `42 + F + C <= 64` bits while the clock is in the *window*, 2^42 ms from 1970 (to
//! 2109-05-15). The state word holds the *next* key. A call reads the clock, then takes
//! `fetch_add(n)`: the old value is its first key, valid when its tick is not older than the
//! reading (and not ahead of it by more than the rollback allowance). That is the whole hot
//! path; nothing else is read or written.
//!
//! A key older than the reading (the first call of a new tick) installs `now << C | seed`
//! (`seed` random, top bit clear) with a compare-and-swap, from the value its `fetch_add`
//! left, and stores the reading as the *anchor*. The swap is retried only while the word is
//! below the new key and has moved as other threads' `fetch_add`s or a newer install move it;
//! once the word is at or above the new key, some thread installed a tick at least as new,
//! and this call takes one more `fetch_add`, whose key is then valid. A word that moved down,
//! or to a tick more than the allowance behind the reading, may be a reset this reading
//! predates: the call counts on from it rather than lift the word back above the reset. Every key handed out is one value of the word,
//! taken by one `fetch_add` or one swap, and the word only moves up (except on a reset, below),
//! so keys are unique and each is greater than every key handed out before it began.
//!
//! A key ahead of the reading by more than the allowance is either a run-ahead (a counter
//! that carried past a clock that stood still) or a clock that went back. The cold path tells
//! them apart as the 128-bit engine does, on proof: it loads the anchor, *then* reads the
//! clock again; the anchor is a reading some call took before storing it, so before this
//! second reading, and a second reading more than the allowance behind it proves the clock
//! went back. Without proof the key stands. With proof, [`RollbackPolicy::Error`] fails the
//! call and [`RollbackPolicy::Reset`] swaps the word down to the second reading's tick
//! (unless another thread already did) and makes that reading the anchor. A call delayed for
//! any time between its reading and its `fetch_add` cannot fake a rollback: the proof uses
//! only the anchor and a reading taken after it.
//!
//! Readings at or after the end of the window are not this state's: the generator hands them
//! to its 128-bit engine ([`Outcome::Wide`]), whose keys are all greater than the word's.
//!
//! A fork is noticed as in the 128-bit engine: the first call after it in the child skips a
//! random number of keys (`jump`), so that parent and child, which continue from the same
//! word, do not step through the same counter values.
//!
//! The cells are reached through [`WordCells`], so that the `loom` model (`model`, built with
//! `--cfg loom`) runs this code on loom's atomics.

use core::sync::atomic::{AtomicU64, Ordering};

use super::{rollback_error, RollbackPolicy};
use crate::clock::Clock;
use crate::fork::ForkSource;
use crate::Result;

/// Milliseconds in the window of a word key: from 1970 to 2109-05-15 (2^42 ms), less one
/// second, which no counter carries past.
pub(crate) const WINDOW_MS: u64 = (1 << 42) - 1_000;

/// The widths of a key: `F` fraction bits after the millisecond, `C` counter bits; known at
/// compile time on the default generator's path (see `V7Generator::generate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Bits of sub-millisecond fraction: 0 (Method 1) or 12 (Method 3).
    pub fraction_bits: u32,
    /// Counter bits.
    pub counter_bits: u32,
}

impl Shape {
    /// The shape of a layout with `fraction_bits` and `counter_bits`, if its key fits the word.
    pub(crate) const fn fitting(fraction_bits: u32, counter_bits: u32) -> Option<Self> {
        if 42 + fraction_bits + counter_bits <= 64 {
            Some(Self {
                fraction_bits,
                counter_bits,
            })
        } else {
            None
        }
    }

    /// The tick of a reading inside the window, `None` past it.
    #[inline(always)]
    pub(crate) const fn tick(self, unix_ns: u64) -> Option<u64> {
        let ms = unix_ns / 1_000_000;
        if ms >= WINDOW_MS {
            return None;
        }
        let fraction = if self.fraction_bits == 0 {
            0
        } else {
            (unix_ns % 1_000_000) * (1 << self.fraction_bits) / 1_000_000
        };
        Some((ms << self.fraction_bits) | fraction)
    }

    /// Ticks in `ns` nanoseconds, rounded down (`u64::MAX` for `u64::MAX`: no allowance ends).
    pub(crate) const fn ticks_in(self, ns: u64) -> u64 {
        if ns == u64::MAX {
            return u64::MAX;
        }
        (((ns as u128) << self.fraction_bits) / 1_000_000) as u64
    }

    /// Nanoseconds in `ticks` ticks (saturating).
    pub(crate) fn ns(self, ticks: u64) -> u64 {
        u64::try_from((u128::from(ticks) * 1_000_000) >> self.fraction_bits).unwrap_or(u64::MAX)
    }
}

/// What a reservation gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The first of the keys reserved.
    Keys(u64),
    /// The reading is past the window: the 128-bit engine serves this call.
    Wide,
}

/// The atomic cells of a word state: the next key, the anchor and the fork epoch of the last
/// successful call. The word's read-modify-writes acquire and release it; the anchor is
/// stored with release after the swap that installs its tick and loaded with acquire before
/// the reading it is compared with.
pub(crate) trait WordCells: Send + Sync {
    /// `fetch_add(n)`: the word before the addition.
    fn fetch_add(&self, n: u64) -> u64;
    /// The word (acquire).
    fn load(&self) -> u64;
    /// Replaces `current` by `new` (may fail spuriously); on failure, the word found.
    fn compare_exchange(&self, current: u64, new: u64) -> core::result::Result<(), u64>;
    /// The anchor: the tick of the reading of the last install.
    fn anchor(&self) -> u64;
    /// Stores the anchor.
    fn set_anchor(&self, tick: u64);
    /// The fork epoch of the last successful call.
    fn fork_seen(&self) -> u64;
    /// Records the fork epoch of a successful call.
    fn set_fork_seen(&self, epoch: u64);
}

/// The cells of every real generator: three 64-bit atomics in one cache line.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct NativeWord {
    word: AtomicU64,
    anchor: AtomicU64,
    fork_seen: AtomicU64,
}

impl NativeWord {
    pub(crate) const fn new() -> Self {
        Self {
            word: AtomicU64::new(0),
            anchor: AtomicU64::new(0),
            fork_seen: AtomicU64::new(0),
        }
    }

    /// Whether these cells take no lock on this machine: they are 64-bit atomics.
    pub(crate) const fn is_lock_free() -> bool {
        super::ATOMIC_U64_IS_LOCK_FREE
    }
}

impl WordCells for NativeWord {
    #[inline(always)]
    fn fetch_add(&self, n: u64) -> u64 {
        self.word.fetch_add(n, Ordering::AcqRel)
    }

    #[inline]
    fn load(&self) -> u64 {
        self.word.load(Ordering::Acquire)
    }

    #[inline]
    fn compare_exchange(&self, current: u64, new: u64) -> core::result::Result<(), u64> {
        self.word
            .compare_exchange_weak(current, new, Ordering::AcqRel, Ordering::Acquire)
            .map(|_| ())
    }

    #[inline]
    fn anchor(&self) -> u64 {
        self.anchor.load(Ordering::Acquire)
    }

    #[inline]
    fn set_anchor(&self, tick: u64) {
        self.anchor.store(tick, Ordering::Release);
    }

    #[inline(always)]
    fn fork_seen(&self) -> u64 {
        self.fork_seen.load(Ordering::Relaxed)
    }

    #[inline]
    fn set_fork_seen(&self, epoch: u64) {
        self.fork_seen.store(epoch, Ordering::Relaxed);
    }
}

/// A word state and its rollback settings (see the module documentation).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Word<S = NativeWord> {
    cells: S,
}

/// The settings a reservation needs besides the cells: fixed for a generator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    pub shape: Shape,
    pub allowance_ns: u64,
    pub allowance_ticks: u64,
    pub policy: RollbackPolicy,
}

impl Word {
    pub(crate) const fn new() -> Self {
        Self {
            cells: NativeWord::new(),
        }
    }

    /// Whether this word takes no lock on this machine (see [`NativeWord::is_lock_free`]).
    pub(crate) const fn is_lock_free() -> bool {
        NativeWord::is_lock_free()
    }
}

impl<S: WordCells> Word<S> {
    #[cfg(all(test, loom))]
    pub(crate) const fn with_cells(cells: S) -> Self {
        Self { cells }
    }

    /// Reserves `n` (at least 1) consecutive keys and returns the first, or [`Outcome::Wide`].
    /// `seed` is the counter's seed for an install (top bit clear); `jump` draws the keys a
    /// forked child skips.
    ///
    /// # Errors
    /// A clock error, [`crate::ErrorKind::ClockRollback`] under [`RollbackPolicy::Error`], or
    /// `jump`'s error.
    #[inline(always)]
    pub(crate) fn reserve<C: Clock, F: ForkSource>(
        &self,
        rules: Rules,
        n: u64,
        seed: u64,
        clock: &C,
        fork: &F,
        jump: impl FnOnce() -> Result<u64>,
    ) -> Result<Outcome> {
        let epoch = fork.epoch();
        let forked = epoch != self.cells.fork_seen();
        let Some(now) = rules.shape.tick(clock.now_unix_ns()?) else {
            return Ok(Outcome::Wide);
        };
        let skip = if forked { jump()? } else { 0 };
        let c = rules.shape.counter_bits;
        let key = self.cells.fetch_add(n + skip) + skip;
        let tick = key >> c;
        let out = if tick >= now && tick - now <= rules.allowance_ticks {
            // The key's tick is the reading's, or newer by less than the allowance.
            Outcome::Keys(key)
        } else if tick < now
            && now - tick <= rules.allowance_ticks
            && self
                .cells
                .compare_exchange(key + n, (now << c | seed) + n)
                .is_ok()
        {
            // A new tick, installed from the word this call's `fetch_add` left.
            self.cells.set_anchor(now);
            Outcome::Keys(now << c | seed)
        } else {
            self.settle(rules, n, seed, now, key, clock)?
        };
        if forked {
            self.cells.set_fork_seen(epoch);
        }
        Ok(out)
    }

    /// The paths off the hot one: `key` (from a `fetch_add(n)` after reading `now`) is older
    /// than the reading, or ahead of it by more than the allowance.
    ///
    /// The reading `now` may predate a state the `fetch_add` saw (a thread delayed between
    /// the two), so it installs a tick only when the key is behind it by no more than the
    /// allowance (a reading older than a reset is more than that ahead of the state the reset
    /// installed). Everything else is settled by one more reading, `later`, taken after
    /// loading the anchor: it installs a tick, proves a rollback, or lets the key stand.
    #[inline(never)]
    fn settle<C: Clock>(
        &self,
        rules: Rules,
        n: u64,
        seed: u64,
        now: u64,
        key: u64,
        clock: &C,
    ) -> Result<Outcome> {
        let c = rules.shape.counter_bits;
        let allowance = rules.allowance_ticks;
        let mut key = key;
        // A key of 0 is the first: no state was installed before this reading was taken.
        if key >> c < now && (now - (key >> c) <= allowance || key == 0) {
            match self.install(rules, ((now << c) | seed, now, n), key.wrapping_add(n)) {
                Installed::Yes(first) => return Ok(Outcome::Keys(first)),
                Installed::Newer => {
                    key = self.cells.fetch_add(n);
                    let tick = key >> c;
                    if tick >= now && tick - now <= allowance {
                        return Ok(Outcome::Keys(key));
                    }
                }
                Installed::Moved => key = self.cells.fetch_add(n),
            }
        }
        let anchor = self.cells.anchor();
        let Some(later) = rules.shape.tick(clock.now_unix_ns()?) else {
            return Ok(Outcome::Wide);
        };
        let tick = key >> c;
        let first = (later << c) | seed;
        let found = if tick < later {
            // A new tick, on a reading taken after the state was seen.
            self.install(rules, (first, later, n), key.wrapping_add(n))
        } else if tick - later <= allowance || anchor.saturating_sub(later) <= allowance {
            // Within the allowance, or ahead without proof (a run-ahead, or a delayed
            // reading): the key stands.
            return Ok(Outcome::Keys(key));
        } else if rules.policy == RollbackPolicy::Error {
            return Err(rollback_error(
                rules.shape.ns(anchor - later),
                rules.allowance_ns,
            ));
        } else {
            // The clock went back beyond the allowance: follow it, unless another thread
            // already did.
            let mut word = self.cells.load();
            loop {
                if (word >> c).saturating_sub(later) <= allowance {
                    break Installed::Moved;
                }
                match self.cells.compare_exchange(word, first + n) {
                    Ok(()) => {
                        self.cells.set_anchor(later);
                        break Installed::Yes(first);
                    }
                    Err(now_found) => word = now_found,
                }
            }
        };
        match found {
            Installed::Yes(first) => Ok(Outcome::Keys(first)),
            // Another thread installed a state after this reading was taken: count on from
            // it (comparing the reading with it would take an older reading for the clock).
            Installed::Newer | Installed::Moved => Ok(Outcome::Keys(self.cells.fetch_add(n))),
        }
    }

    /// Swaps the word from `word` (what this thread last saw) to `n` keys from `first`, of
    /// the tick of the reading `now`, unless another thread installed a tick at least as new,
    /// or the word moved in a way this reading may predate.
    ///
    /// A failed swap retries on the word it found when that word is the same tick counted on
    /// by other threads' `fetch_add`s, or a newer tick installed within the allowance of the
    /// reading. A word that moved down, or to a tick more than the allowance behind the
    /// reading, may be a reset taken after this reading (even one that moved the word up
    /// first and then down past where this thread saw it): the call gives up its reading and
    /// counts on from the word ([`Installed::Moved`]).
    fn install(&self, rules: Rules, (first, now, n): (u64, u64, u64), mut word: u64) -> Installed {
        let c = rules.shape.counter_bits;
        while word <= first {
            match self.cells.compare_exchange(word, first + n) {
                Ok(()) => {
                    self.cells.set_anchor(now);
                    return Installed::Yes(first);
                }
                // A spurious failure (LL/SC, or Miri's weak compare-and-swap): try again.
                Err(found) if found == word => {}
                Err(found) => {
                    let (was, is) = (word >> c, found >> c);
                    if found < word || (is != was && now - is.min(now) > rules.allowance_ticks) {
                        return Installed::Moved;
                    }
                    word = found;
                }
            }
        }
        Installed::Newer
    }
}

/// What an install found.
enum Installed {
    /// The keys from this first one are this call's.
    Yes(u64),
    /// A tick at least as new is installed.
    Newer,
    /// The word moved in a way this call's reading may predate (another thread followed the
    /// clock back): count on from it.
    Moved,
}

#[cfg(all(test, loom))]
mod model;

#[cfg(test)]
mod tests;
