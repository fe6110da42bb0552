//! Clocks for the time-based generators ([RFC 9562 §6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1)).
//!
//! Generators take their time through the [`Clock`] trait so that tests can drive them with a
//! [`ManualClock`]: clock rollback, counter overflow and the RFC vectors become deterministic.
//! A reading is fallible: a clock set before 1970 is reported
//! ([`crate::ErrorKind::ClockBeforeEpoch`]) rather than turned into UUIDs that claim 1970, and a
//! caller-supplied clock may fail with an error of its own ([`crate::ErrorKind::External`]).

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

#[cfg(test)]
use crate::ErrorKind;
use crate::{Error, Result};

/// A source of wall-clock time.
pub trait Clock: Send + Sync {
    /// Nanoseconds since the Unix epoch, 1970-01-01 00:00:00 UTC.
    ///
    /// # Errors
    /// [`crate::ErrorKind::ClockBeforeEpoch`] for a reading before 1970; whatever a caller-supplied
    /// clock reports.
    fn now_unix_ns(&self) -> Result<u64>;
}

/// The system's real-time clock (`CLOCK_REALTIME` on Unix), the clock Python's `time.time_ns()`
/// reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn now_unix_ns(&self) -> Result<u64> {
        realtime_ns()
    }
}

/// `CLOCK_REALTIME` read directly (a vDSO call on Linux): `SystemTime::now()` reads the same
/// clock and then normalises a `Timespec` it would only convert back.
#[cfg(unix)]
#[inline]
fn realtime_ns() -> Result<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_REALTIME always exists.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &raw mut ts) };
    if rc != 0 {
        return unix_ns(SystemTime::now());
    }
    // i64 on 64-bit targets, narrower on some 32-bit ones.
    #[allow(clippy::useless_conversion)]
    let (sec, nsec) = (i64::from(ts.tv_sec), i64::from(ts.tv_nsec));
    from_timespec(sec, nsec)
}

#[cfg(not(unix))]
#[inline]
fn realtime_ns() -> Result<u64> {
    unix_ns(SystemTime::now())
}

/// Nanoseconds since 1970 of a `timespec` (seconds, and nanoseconds from 0 to 999 999 999).
#[cfg(any(unix, test))]
#[inline]
fn from_timespec(sec: i64, nsec: i64) -> Result<u64> {
    // The common case in 64-bit arithmetic: a second count from 1970 to 2554 and a
    // normalised nanosecond field.
    if let (Ok(s @ 0..=18_446_744_072), Ok(n @ 0..=999_999_999)) =
        (u64::try_from(sec), u64::try_from(nsec))
    {
        return Ok(s * 1_000_000_000 + n);
    }
    let ns = i128::from(sec) * 1_000_000_000 + i128::from(nsec);
    u64::try_from(ns).or_else(|_| {
        if ns < 0 {
            Err(Error::clock_before_epoch(
                u64::try_from(-ns).unwrap_or(u64::MAX),
            ))
        } else {
            // Past the year 2554: saturate, as the layouts report their own range errors.
            Ok(u64::MAX)
        }
    })
}

/// Nanoseconds since the Unix epoch of `t`.
///
/// # Errors
/// [`crate::ErrorKind::ClockBeforeEpoch`] before 1970.
///
/// # Examples
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use uuidx_core::clock::unix_ns;
/// assert_eq!(unix_ns(UNIX_EPOCH + Duration::from_nanos(5)).unwrap(), 5);
/// assert!(unix_ns(UNIX_EPOCH - Duration::from_secs(1)).is_err());
/// ```
#[inline]
pub fn unix_ns(t: SystemTime) -> Result<u64> {
    match t.duration_since(UNIX_EPOCH) {
        // u64 nanoseconds last until the year 2554, past every layout but v7's 10889;
        // saturating keeps a clock beyond that an error of the layout, not a wrap.
        Ok(d) => Ok(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)),
        Err(before) => Err(Error::clock_before_epoch(
            u64::try_from(before.duration().as_nanos()).unwrap_or(u64::MAX),
        )),
    }
}

/// A clock that reads whatever it was last set to: for deterministic tests.
///
/// # Examples
/// ```
/// use uuidx_core::clock::{Clock, ManualClock};
/// let clock = ManualClock::new(1_000);
/// clock.advance(500);
/// assert_eq!(clock.now_unix_ns().unwrap(), 1_500);
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
    fn now_unix_ns(&self) -> Result<u64> {
        Ok(self.0.load(Ordering::SeqCst))
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    #[inline]
    fn now_unix_ns(&self) -> Result<u64> {
        (**self).now_unix_ns()
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    #[inline]
    fn now_unix_ns(&self) -> Result<u64> {
        (**self).now_unix_ns()
    }
}

impl<C: Clock + ?Sized> Clock for Box<C> {
    #[inline]
    fn now_unix_ns(&self) -> Result<u64> {
        (**self).now_unix_ns()
    }
}

/// A clock read `shift_ns` nanoseconds later (earlier when negative) than `C` reads: for
/// UUIDs whose time is moved by a fixed duration, as PostgreSQL 18's `uuidv7(interval)` moves
/// `uuidv7()`'s.
///
/// # Examples
/// ```
/// use uuidx_core::clock::{Clock, ManualClock, Shifted};
/// let clock = Shifted::new(ManualClock::new(5_000), -2_000);
/// assert_eq!(clock.now_unix_ns().unwrap(), 3_000);
/// assert!(Shifted::new(ManualClock::new(5_000), -6_000).now_unix_ns().is_err());
/// ```
#[derive(Debug)]
pub struct Shifted<C> {
    clock: C,
    shift_ns: i64,
}

impl<C: Clock> Shifted<C> {
    /// `clock` moved by `shift_ns`.
    pub const fn new(clock: C, shift_ns: i64) -> Self {
        Self { clock, shift_ns }
    }

    /// The shift, in nanoseconds.
    pub const fn shift_ns(&self) -> i64 {
        self.shift_ns
    }
}

impl<C: Clock> Clock for Shifted<C> {
    /// The clock's reading moved by the shift: [`crate::ErrorKind::ClockBeforeEpoch`] when that
    /// is before 1970, and past the year 2554 the reading saturates (as the system clock's does).
    #[inline]
    fn now_unix_ns(&self) -> Result<u64> {
        let moved = i128::from(self.clock.now_unix_ns()?) + i128::from(self.shift_ns);
        match u64::try_from(moved) {
            Ok(ns) => Ok(ns),
            Err(_) if moved < 0 => Err(Error::clock_before_epoch(
                u64::try_from(-moved).unwrap_or(u64::MAX),
            )),
            Err(_) => Ok(u64::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn system_clock_is_after_2020() {
        assert!(SystemClock.now_unix_ns().unwrap() > 1_577_836_800_000_000_000);
    }

    #[test]
    fn timespecs_convert_both_sides_of_the_epoch() {
        assert_eq!(from_timespec(1, 5).unwrap(), 1_000_000_005);
        assert_eq!(from_timespec(0, 0).unwrap(), 0);
        let before = from_timespec(-2, 500_000_000).unwrap_err();
        assert_eq!(
            before.kind(),
            &ErrorKind::ClockBeforeEpoch {
                before_ns: 1_500_000_000
            }
        );
        assert_eq!(from_timespec(i64::MAX, 0).unwrap(), u64::MAX);
        // The direct read agrees with the standard library's.
        let std_ns = unix_ns(SystemTime::now()).unwrap();
        let ours = realtime_ns().unwrap();
        assert!(
            ours >= std_ns && ours - std_ns < 1_000_000_000,
            "{std_ns} {ours}"
        );
    }

    #[test]
    fn a_clock_before_1970_is_an_error_not_the_epoch() {
        let err = unix_ns(UNIX_EPOCH - Duration::from_millis(1500)).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::ClockBeforeEpoch {
                before_ns: 1_500_000_000
            }
        );
        assert!(
            err.to_string().contains("1500000000 ns before 1970"),
            "{err}"
        );
        assert_eq!(unix_ns(UNIX_EPOCH).unwrap(), 0);
    }

    #[test]
    fn manual_clock_moves_both_ways() {
        let c = ManualClock::new(10);
        c.rewind(20);
        assert_eq!(c.now_unix_ns().unwrap(), 0);
        c.set(5);
        c.advance(1);
        assert_eq!(Arc::new(c).now_unix_ns().unwrap(), 6);
    }
}
