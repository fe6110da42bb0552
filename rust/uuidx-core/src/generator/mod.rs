//! Lock-free monotonic generators for the time-based versions (RFC 9562 §6.1-§6.3).
//!
//! Each generator keeps its state in one 128-bit atomic word (`portable_atomic::AtomicU128`:
//! `cmpxchg16b` on x86-64, `casp`/LL-SC pairs on AArch64) advanced by compare-and-swap, plus a
//! 64-bit anchor (the clock reading of the last new tick) that rollback is measured against; no
//! mutex, read-write lock or spin lock is taken on the generation path. The successful CAS
//! orders all calls: every UUID a generator returns is strictly greater than every UUID it
//! returned before, across all threads, except after a rollback beyond the allowance under
//! [`RollbackPolicy::Reset`], which follows the clock back by design.
//!
//! Time and randomness come in through [`crate::clock::Clock`] and [`crate::random::RandomSource`], so tests drive the
//! generators with a [`crate::clock::ManualClock`] and a [`crate::random::ScriptedRandom`].
//!
//! The process-wide generators used by `uuid1()`, `uuid6()` and `uuid7()` are [`GLOBAL_V1`],
//! [`GLOBAL_V6`] and [`GLOBAL_V7`].

pub mod gregorian;
pub mod v7;

pub use gregorian::GregorianGenerator;
pub use v7::{V7Generator, V7Method};

use crate::clock::SystemClock;
use crate::random::ThreadRandom;
use crate::{Error, ErrorKind, Result, Uuid};
use core::sync::atomic::{AtomicU64, Ordering};

/// What a generator does when the clock is behind its last timestamp by more than the
/// rollback allowance (RFC 9562 §6.2, "Monotonic Error Checking").
///
/// Within the allowance a generator always stays monotonic by reusing its last timestamp and
/// advancing the counter; this policy only decides the larger jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollbackPolicy {
    /// Follow the clock back: the next UUID is built from the new, earlier time (v1 and v6
    /// draw a new clock sequence, §6.3). Uniqueness holds; ordering against earlier UUIDs
    /// does not. The default.
    Reset,
    /// Refuse: generation fails with [`ErrorKind::ClockRollback`] until the clock has caught
    /// up to within the allowance.
    Error,
}

impl RollbackPolicy {
    /// The policy's name: `reset` or `error`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Reset => "reset",
            Self::Error => "error",
        }
    }

    /// The policy with this name.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for any other name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "reset" => Ok(Self::Reset),
            "error" => Ok(Self::Error),
            _ => Err(Error::new(ErrorKind::InvalidOption {
                option: "rollback policy",
                value: format!("{:?}", crate::error::shorten(name)),
                expected: "'reset' or 'error'",
            })),
        }
    }
}

/// The default rollback allowance: 10 seconds.
pub const DEFAULT_ROLLBACK_ALLOWANCE_NS: u64 = 10_000_000_000;

/// The process-wide version 7 generator: default method, 10 s allowance, reset policy.
pub static GLOBAL_V7: V7Generator<SystemClock, ThreadRandom> = V7Generator::const_default();
/// The process-wide version 6 generator: process node, 10 s allowance, reset policy.
pub static GLOBAL_V6: GregorianGenerator<SystemClock, ThreadRandom> =
    GregorianGenerator::const_default(6);
/// The process-wide version 1 generator: process node, 10 s allowance, reset policy.
pub static GLOBAL_V1: GregorianGenerator<SystemClock, ThreadRandom> =
    GregorianGenerator::const_default(1);

/// Python 3.14's `uuid.uuid7()`, from the process-wide generator.
///
/// # Errors
/// Only after the year 10889, when 48 bits of milliseconds run out.
#[inline]
pub fn uuid7() -> Result<Uuid> {
    GLOBAL_V7.generate()
}

/// Python 3.14's `uuid.uuid1(node, clock_seq)` from the process-wide generator: the
/// timestamp always comes from the generator; `clock_seq` keeps its low 14 bits (the stdlib
/// masks it too) and `node` must fit in 48 bits. Without a node, the process node.
///
/// # Errors
/// [`ErrorKind::FieldOutOfRange`] for a node of 48 bits or more.
pub fn uuid1(node: Option<u64>, clock_seq: Option<u64>) -> Result<Uuid> {
    if let Some(node) = node {
        crate::layout::check_fields(&[crate::layout::v1::FIELDS[2]], [node])?;
    }
    GLOBAL_V1.generate_with(node, clock_seq)
}

/// Python 3.14's `uuid.uuid6(node, clock_seq)` from the process-wide generator: `node` and
/// `clock_seq` keep their low 48 and 14 bits (the stdlib masks both).
///
/// # Errors
/// Only after the year 5236, when 60 bits of Gregorian time run out.
pub fn uuid6(node: Option<u64>, clock_seq: Option<u64>) -> Result<Uuid> {
    GLOBAL_V6.generate_with(node, clock_seq)
}

/// Python 3.14's `uuid.uuid8(a, b, c)`: each part keeps its low 48, 12 and 62 bits; a missing
/// part is random (from the thread CSPRNG, where the stdlib uses `random.getrandbits`).
pub fn uuid8(a: Option<u64>, b: Option<u64>, c: Option<u64>) -> Uuid {
    use crate::random::RandomSource as _;
    let random = if a.is_none() || b.is_none() || c.is_none() {
        ThreadRandom.next_u128()
    } else {
        0
    };
    crate::layout::v8::new_truncated(
        a.unwrap_or((random >> 64) as u64),
        b.unwrap_or((random >> 52) as u64),
        c.unwrap_or(random as u64),
    )
}

/// Tracks the fork epoch a generator last saw, to notice that it runs in a forked child.
#[derive(Debug)]
pub(crate) struct ForkWatch(AtomicU64);

impl ForkWatch {
    pub(crate) const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// `true` exactly once per thread race after the process forked.
    #[inline]
    pub(crate) fn forked(&self) -> bool {
        let epoch = crate::random::fork_epoch();
        epoch != self.0.load(Ordering::Relaxed) && self.0.swap(epoch, Ordering::Relaxed) != epoch
    }
}

/// Exponential backoff after a failed compare-and-swap: 1, 2, 4 ... 64 pause instructions. Under
/// contention, retrying at once only bounces the cache line between cores; pausing lets the
/// winner finish and gives the next attempt a better chance.
#[derive(Debug, Default)]
pub(crate) struct Backoff(u32);

impl Backoff {
    #[inline]
    pub(crate) fn pause(&mut self) {
        for _ in 0..1u32 << self.0 {
            core::hint::spin_loop();
        }
        self.0 = (self.0 + 1).min(6);
    }
}

/// How a successful compare-and-swap chose its timestamp, for the rollback anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tick {
    /// From the clock, later than the last timestamp: the anchor moves up to it.
    New,
    /// Counting on from the last timestamp: the anchor stays.
    Same,
    /// From the clock after a rollback beyond the allowance: the anchor moves down to it.
    Reset,
}

impl Tick {
    /// Updates `anchor`, the clock reading of the last new tick, after a successful CAS.
    #[inline]
    pub(crate) fn record(self, anchor: &AtomicU64, clock: u64) {
        match self {
            // A racing thread may store a slightly older reading; the anchor then
            // underestimates the clock, which only makes rollback detection more lenient.
            Self::New if anchor.load(Ordering::Relaxed) < clock => {
                anchor.store(clock, Ordering::Relaxed);
            }
            Self::Reset => anchor.store(clock, Ordering::Relaxed),
            Self::New | Self::Same => {}
        }
    }
}

pub(crate) fn rollback_error(behind_ns: u64, allowance_ns: u64) -> Error {
    Error::new(ErrorKind::ClockRollback {
        behind_ns,
        allowance_ns,
    })
}

pub(crate) fn out_of_range(layout: &'static str, value: impl core::fmt::Display) -> Error {
    Error::new(ErrorKind::TimestampOutOfRange {
        layout,
        value: value.to_string(),
    })
}
