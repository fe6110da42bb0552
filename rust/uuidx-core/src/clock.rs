//! Clocks for the time-based generators (RFC 9562 §6.1).
//!
//! Generators take their time through the [`Clock`] trait so that tests can drive them with a
//! [`ManualClock`]: clock rollback, counter overflow and the RFC vectors become deterministic.

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// A source of wall-clock time.
pub trait Clock: Send + Sync {
    /// Nanoseconds since the Unix epoch, 1970-01-01 00:00:00 UTC (0 for any earlier time).
    fn now_unix_ns(&self) -> u64;
}

/// The system's real-time clock (`CLOCK_REALTIME` on Unix), the clock Python's `time.time_ns()`
/// reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn now_unix_ns(&self) -> u64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
            d.as_secs() * 1_000_000_000 + u64::from(d.subsec_nanos())
        })
    }
}

/// A clock that reads whatever it was last set to: for deterministic tests.
///
/// # Examples
/// ```
/// use uuidx_core::clock::{Clock, ManualClock};
/// let clock = ManualClock::new(1_000);
/// clock.advance(500);
/// assert_eq!(clock.now_unix_ns(), 1_500);
/// ```
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// A clock reading `unix_ns`.
    pub const fn new(unix_ns: u64) -> Self {
        Self(AtomicU64::new(unix_ns))
    }

    /// Sets the reading, forwards or backwards.
    pub fn set(&self, unix_ns: u64) {
        self.0.store(unix_ns, Ordering::SeqCst);
    }

    /// Moves the reading forwards by `ns`.
    pub fn advance(&self, ns: u64) {
        self.0.fetch_add(ns, Ordering::SeqCst);
    }

    /// Moves the reading backwards by `ns` (saturating at the epoch).
    pub fn rewind(&self, ns: u64) {
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |t| {
                Some(t.saturating_sub(ns))
            });
    }
}

impl Clock for ManualClock {
    fn now_unix_ns(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    #[inline]
    fn now_unix_ns(&self) -> u64 {
        (**self).now_unix_ns()
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    #[inline]
    fn now_unix_ns(&self) -> u64 {
        (**self).now_unix_ns()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_clock_is_after_2020() {
        assert!(SystemClock.now_unix_ns() > 1_577_836_800_000_000_000);
    }

    #[test]
    fn manual_clock_moves_both_ways() {
        let c = ManualClock::new(10);
        c.rewind(20);
        assert_eq!(c.now_unix_ns(), 0);
        c.set(5);
        c.advance(1);
        assert_eq!(Arc::new(c).now_unix_ns(), 6);
    }
}
