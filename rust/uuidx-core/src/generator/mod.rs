//! Lock-free monotonic generators for the time-based versions ([RFC 9562 §6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1)-[§6.3](https://www.rfc-editor.org/rfc/rfc9562#section-6.3)).
//!
//! The default v7 generator, and the v7 layouts whose key fits 64 bits, keep their state in one
//! `AtomicU64` advanced by `fetch_add` (the private `word` module: one atomic operation per
//! UUID, a compare-and-swap at each new tick, a cold path for rollbacks). Every other generator
//! keeps its state in one 128-bit atomic word (`portable_atomic::AtomicU128`: `cmpxchg16b` on
//! x86-64, `casp`/LL-SC pairs on AArch64) advanced by compare-and-swap: the last key and, above
//! it, how far that key ran ahead of the anchor (the clock reading of the last new tick) that
//! rollback is measured against. No mutex, read-write lock or spin lock of this crate is
//! taken on the generation path; on targets without a 128-bit compare-and-swap (32-bit ARM
//! and x86, an x86-64 processor without `cmpxchg16b`) portable-atomic guards the 128-bit word
//! with a lock of its own, as [`V7Generator::is_lock_free`],
//! [`GregorianGenerator::is_lock_free`] and [`process_wide_lock_free`] report. One engine (the private `engine` module) runs that
//! loop for every version; the versions differ only in how they compute the next key from the
//! last one.
//! A clock rollback beyond the allowance is declared only on proof: a reading more than the
//! allowance below one taken before it, however long the thread was descheduled in between.
//!
//! The atomic operations that hand out the keys order all calls of one generator. For v6 and v7 every UUID it returns
//! is strictly greater than every UUID it returned before, across all threads; for v1, whose
//! layout puts `time_low` first, the *timestamps* strictly increase but the UUIDs do not sort
//! by them. The one exception is a rollback beyond the allowance under
//! [`RollbackPolicy::Reset`], which follows the clock back by design.
//!
//! Time, randomness and fork notices come in through [`crate::clock::Clock`],
//! [`crate::random::RandomSource`] and [`crate::fork::ForkSource`], so tests drive the
//! generators with a [`crate::clock::ManualClock`], a [`crate::random::ScriptedRandom`] and a
//! [`crate::fork::ManualFork`].
//!
//! The process-wide generators used by `uuid1()`, `uuid6()` and `uuid7()` are [`GLOBAL_V1`],
//! [`GLOBAL_V6`] and [`GLOBAL_V7`]. The functions of this module ([`uuid1`], [`uuid4`],
//! [`uuid6`], [`uuid7`], [`uuid8`] and the `fill_*` bulk forms) use them, unless a
//! [`deterministic`] set of generators is installed for a test.

pub mod deterministic;
mod engine;
pub mod gregorian;
#[cfg(test)]
mod interleavings;
#[cfg(all(test, loom))]
mod model_support;
pub mod v7;
mod word;

pub use gregorian::GregorianGenerator;
pub use v7::{V7Generator, V7Method};

use crate::clock::SystemClock;
use crate::random::{RandomSource as _, ThreadRandom};
use crate::{Error, ErrorKind, Result, Uuid};

/// What a generator does when the clock is behind its last timestamp by more than the
/// rollback allowance ([RFC 9562 §6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2), "Monotonic Error Checking").
///
/// Within the allowance a generator always stays monotonic by reusing its last timestamp and
/// advancing the counter; this policy only decides the larger jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollbackPolicy {
    /// Follow the clock back: the next UUID is built from the new, earlier time (v1 and v6
    /// draw a new clock sequence, [§6.3](https://www.rfc-editor.org/rfc/rfc9562#section-6.3)). Uniqueness holds; ordering against earlier UUIDs
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

/// Whether the 64-bit atomics of the generators take no lock: the v7 word, the fork epochs and
/// the process node are `core::sync::atomic::AtomicU64`, which exists only on targets with
/// native 64-bit atomic instructions (`target_has_atomic = "64"`: `LDREXD`/`STREXD` on ARMv7,
/// `CMPXCHG8B` on i686), so this holds wherever the crate builds.
pub(crate) const ATOMIC_U64_IS_LOCK_FREE: bool = cfg!(target_has_atomic = "64");

/// Whether each process-wide generator takes no lock on this machine, named by the function
/// it serves: `uuid7` ([`GLOBAL_V7`], on the 64-bit word), `uuid6` and `uuid1` ([`GLOBAL_V6`]
/// and [`GLOBAL_V1`], on a 128-bit word). See [`V7Generator::is_lock_free`].
///
/// # Examples
/// ```
/// let report = uuidx_core::generator::process_wide_lock_free();
/// assert_eq!(report.map(|(name, _)| name), ["uuid7", "uuid6", "uuid1"]);
/// assert!(report[0].1); // uuid7's 64-bit word is lock-free on every target
/// ```
pub fn process_wide_lock_free() -> [(&'static str, bool); 3] {
    [
        ("uuid7", GLOBAL_V7.is_lock_free()),
        ("uuid6", GLOBAL_V6.is_lock_free()),
        ("uuid1", GLOBAL_V1.is_lock_free()),
    ]
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
/// Only after the year 10889, when 48 bits of milliseconds run out, or with a clock before 1970.
#[inline(always)]
pub fn uuid7() -> Result<Uuid> {
    match deterministic::active() {
        None => GLOBAL_V7.generate(),
        Some(d) => d.v7.generate(),
    }
}

/// The next UUID of the process-wide v7 sequence (as [`uuid7`]) with its time moved by
/// `shift_ns` ([`crate::layout::v7::shifted`]): what PostgreSQL 18's `uuidv7(interval)` is to
/// `uuidv7()`. UUIDs made with the same shift are distinct and increase with the sequence.
///
/// # Errors
/// As [`uuid7`]; [`ErrorKind::TimestampOutOfRange`] when the moved time is before 1970 or
/// after the year 10889.
pub fn uuid7_shifted(shift_ns: i64) -> Result<Uuid> {
    let uuid = uuid7()?;
    if shift_ns == 0 {
        Ok(uuid)
    } else {
        crate::layout::v7::shifted(uuid, shift_ns)
    }
}

/// `out.len()` consecutive UUIDs of the process-wide v7 sequence.
///
/// # Errors
/// As [`uuid7`].
pub fn fill_v7(out: &mut [Uuid]) -> Result<()> {
    match deterministic::active() {
        None => GLOBAL_V7.fill(out),
        Some(d) => d.v7.fill(out),
    }
}

/// `out.len() / 16` consecutive UUIDs of the process-wide v7 sequence as 16-byte records.
///
/// # Errors
/// As [`uuid7`]; [`ErrorKind::InvalidLength`] unless `out.len()` is a multiple of 16.
pub fn fill_v7_bytes(out: &mut [u8]) -> Result<()> {
    match deterministic::active() {
        None => GLOBAL_V7.fill_bytes(out),
        Some(d) => d.v7.fill_bytes(out),
    }
}

/// Python's `uuid.uuid4()`: 122 bits from the thread CSPRNG ([RFC 9562 §5.4](https://www.rfc-editor.org/rfc/rfc9562#section-5.4)).
#[inline(always)]
pub fn uuid4() -> Uuid {
    match deterministic::active() {
        None => crate::layout::v4::new(),
        Some(d) => Uuid::with_version(d.v4.next_u128().unwrap_or_default(), 4),
    }
}

/// Fills `out` with version 4 UUIDs.
pub fn fill_v4(out: &mut [Uuid]) {
    match deterministic::active() {
        None => crate::layout::v4::fill(out),
        Some(d) => {
            for slot in out {
                *slot = Uuid::with_version(d.v4.next_u128().unwrap_or_default(), 4);
            }
        }
    }
}

/// Fills `out` with `out.len() / 16` version 4 UUIDs as 16-byte records.
///
/// # Errors
/// [`ErrorKind::InvalidLength`] unless `out.len()` is a multiple of 16.
pub fn fill_v4_bytes(out: &mut [u8]) -> Result<()> {
    match deterministic::active() {
        None => crate::layout::v4::fill_bytes(out),
        Some(d) => {
            crate::layout::v4::fill_bytes_from(out, &d.v4)?;
            Ok(())
        }
    }
}

/// Python 3.14's `uuid.uuid1(node, clock_seq)` from the process-wide generator: the
/// timestamp always comes from the generator; `clock_seq` keeps its low 14 bits (the stdlib
/// masks it too) and `node` must fit in 48 bits. Without a node, the process node.
///
/// # Errors
/// [`ErrorKind::FieldOutOfRange`] for a node of 48 bits or more; a clock before 1970.
pub fn uuid1(node: Option<u64>, clock_seq: Option<u64>) -> Result<Uuid> {
    if let Some(node) = node {
        crate::layout::check_fields(&[crate::layout::v1::NODE], [node])?;
    }
    match deterministic::active() {
        None => GLOBAL_V1.generate_with(node, clock_seq),
        Some(d) => d.v1.generate_with(node, clock_seq),
    }
}

/// Python 3.14's `uuid.uuid6(node, clock_seq)` from the process-wide generator: `node` and
/// `clock_seq` keep their low 48 and 14 bits (the stdlib masks both).
///
/// # Errors
/// Only after the year 5236, when 60 bits of Gregorian time run out, or with a clock before
/// 1970.
pub fn uuid6(node: Option<u64>, clock_seq: Option<u64>) -> Result<Uuid> {
    match deterministic::active() {
        None => GLOBAL_V6.generate_with(node, clock_seq),
        Some(d) => d.v6.generate_with(node, clock_seq),
    }
}

/// Python 3.14's `uuid.uuid8(a, b, c)`: each part keeps its low 48, 12 and 62 bits; a missing
/// part is random (from the thread CSPRNG, where the stdlib uses `random.getrandbits`). The
/// three parts come from disjoint bits of one 128-bit draw: 122 random bits when all three
/// are missing, as in the stdlib.
pub fn uuid8(a: Option<u64>, b: Option<u64>, c: Option<u64>) -> Uuid {
    let random = if a.is_some() && b.is_some() && c.is_some() {
        0
    } else {
        match deterministic::active() {
            None => ThreadRandom.u128(),
            Some(d) => d.v8.next_u128().unwrap_or_default(),
        }
    };
    // Bits 80..128, 64..76 and 0..62 of the draw (`new_truncated` masks each part).
    crate::layout::v8::new_truncated(
        a.unwrap_or((random >> 80) as u64),
        b.unwrap_or((random >> 64) as u64),
        c.unwrap_or(random as u64),
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of a random `uuid8()` that are not version or variant: bits 0..62, 64..76
    /// and 80..128 of the value.
    fn random_positions() -> Vec<u32> {
        (0..62).chain(64..76).chain(80..128).collect()
    }

    #[test]
    fn uuid8_has_122_independent_random_bits() {
        // With 2000 draws, two independent bits agree on every draw with probability
        // 2**-2000, and a bit is constant with probability 2**-1999; bits cut from overlapping
        // parts of one draw agree always.
        let draws: Vec<u128> = (0..2000)
            .map(|_| uuid8(None, None, None).as_u128())
            .collect();
        let positions = random_positions();
        assert_eq!(positions.len(), 122);
        let column = |p: u32| -> Vec<bool> { draws.iter().map(|v| v >> p & 1 == 1).collect() };
        let columns: Vec<Vec<bool>> = positions.iter().map(|&p| column(p)).collect();
        for (i, a) in columns.iter().enumerate() {
            assert!(
                a.iter().any(|&b| b) && a.iter().any(|&b| !b),
                "bit {} is constant",
                positions[i]
            );
            for (j, b) in columns.iter().enumerate().skip(i + 1) {
                assert_ne!(
                    a, b,
                    "bits {} and {} always agree",
                    positions[i], positions[j]
                );
                let inverted: Vec<bool> = b.iter().map(|x| !x).collect();
                assert_ne!(
                    a, &inverted,
                    "bits {} and {} always differ",
                    positions[i], positions[j]
                );
            }
        }
        for d in &draws {
            assert_eq!(Uuid::from_u128(*d).version_number(), Some(8));
        }
    }

    #[test]
    fn uuid8_keeps_given_parts_and_draws_the_rest() {
        let u = uuid8(Some(0xABC), None, Some(5)).as_u128();
        assert_eq!(u >> 80, 0xABC);
        assert_eq!(u as u64 & ((1 << 62) - 1), 5);
        let all = uuid8(Some(u64::MAX), Some(u64::MAX), Some(u64::MAX));
        assert_eq!(all, Uuid::with_version(u128::MAX, 8));
    }
}
