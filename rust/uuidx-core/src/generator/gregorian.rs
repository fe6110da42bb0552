//! The lock-free monotonic generator for versions 1 and 6 ([RFC 9562 §5.1](https://www.rfc-editor.org/rfc/rfc9562#section-5.1), [§5.6](https://www.rfc-editor.org/rfc/rfc9562#section-5.6), [§6.1](https://www.rfc-editor.org/rfc/rfc9562#section-6.1), [§6.3](https://www.rfc-editor.org/rfc/rfc9562#section-6.3)).
//!
//! The key is the last 60-bit Gregorian timestamp (100-ns ticks since 1582-10-15) followed by
//! the 14-bit clock sequence, advanced by the shared engine's compare-and-swap. Timestamps are
//! kept strictly increasing: a clock that has not moved on (a coarse clock, or a burst within
//! one 100-ns tick) yields the last timestamp plus one tick. The clock sequence is random at
//! start ([§6.3](https://www.rfc-editor.org/rfc/rfc9562#section-6.3), "instead of stable storage") and is drawn again, different from the last one,
//! when the clock goes back beyond the allowance under [`RollbackPolicy::Reset`] and in a
//! forked child.
//!
//! Version 6 UUIDs sort by their timestamps; version 1 UUIDs do not (`time_low` comes first),
//! so for v1 only the timestamps increase.

use super::engine::{Engine, Geometry, Step, Tick, TimeBase};
use super::{out_of_range, RollbackPolicy};
use crate::clock::{Clock, SystemClock};
use crate::fork::{ForkSource, ProcessFork};
use crate::random::{process_node, RandomSource, ThreadRandom};
use crate::time::MAX_GREGORIAN_100NS;
use crate::{layout, Error, ErrorKind, Result, Uuid};

/// The key, `timestamp << 14 | clock_seq`: a constant, so the step is compiled for it.
const GREGORIAN: Geometry = Geometry::native(TimeBase::Gregorian, 74, 14);

/// A monotonic generator of version 1 or version 6 UUIDs.
///
/// It is 64-byte aligned so that its state has a cache line of its own: keep it in a
/// `static`, on the stack or in a `Box` (an allocator that does not honour the alignment,
/// such as a Python object's, must hold it boxed).
///
/// # Examples
/// ```
/// use uuidx_core::generator::{GregorianGenerator, RollbackPolicy};
/// let g = GregorianGenerator::new(6, None, 10_000_000_000, RollbackPolicy::Reset).unwrap();
/// let (a, b) = (g.generate().unwrap(), g.generate().unwrap());
/// assert!(a < b);
/// assert_eq!(a.version_number(), Some(6));
/// ```
#[derive(Debug)]
#[repr(C, align(64))]
pub struct GregorianGenerator<C = SystemClock, R = ThreadRandom, F = ProcessFork> {
    /// First, so that its state and anchor open the cache line.
    engine: Engine<C, F>,
    version: u8,
    node: Option<u64>,
    random: R,
}

impl GregorianGenerator<SystemClock, ThreadRandom> {
    /// The process-wide default for `version` (1 or 6), usable in a `static`.
    pub(crate) const fn const_default(version: u8) -> Self {
        Self::build(
            version,
            None,
            super::DEFAULT_ROLLBACK_ALLOWANCE_NS,
            RollbackPolicy::Reset,
            SystemClock,
            ThreadRandom,
            ProcessFork,
        )
    }

    /// A generator of `version` (1 or 6) UUIDs on the system clock and the thread CSPRNG.
    /// `node` defaults to the process's random multicast node.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for another version, [`ErrorKind::FieldOutOfRange`] for a
    /// node of 48 bits or more.
    pub fn new(
        version: u8,
        node: Option<u64>,
        allowance_ns: u64,
        policy: RollbackPolicy,
    ) -> Result<Self> {
        Self::with_sources(
            version,
            node,
            allowance_ns,
            policy,
            SystemClock,
            ThreadRandom,
        )
    }
}

impl<C: Clock, R: RandomSource> GregorianGenerator<C, R> {
    /// A generator on the given clock and random source.
    ///
    /// # Errors
    /// As [`GregorianGenerator::new`].
    pub fn with_sources(
        version: u8,
        node: Option<u64>,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        random: R,
    ) -> Result<Self> {
        if version != 1 && version != 6 {
            return Err(Error::new(ErrorKind::InvalidOption {
                option: "version",
                value: version.to_string(),
                expected: "1 or 6",
            }));
        }
        if let Some(node) = node {
            layout::check_fields(&[layout::v1::NODE], [node])?;
        }
        Ok(Self::build(
            version,
            node,
            allowance_ns,
            policy,
            clock,
            random,
            ProcessFork,
        ))
    }
}

impl<C: Clock, R: RandomSource, F: ForkSource> GregorianGenerator<C, R, F> {
    const fn build(
        version: u8,
        node: Option<u64>,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        random: R,
        fork: F,
    ) -> Self {
        Self {
            engine: Engine::new(GREGORIAN, allowance_ns, policy, clock, fork),
            version,
            node,
            random,
        }
    }

    /// The same generator watching `fork` for forks instead of the process (for tests that
    /// simulate a fork).
    pub fn with_fork_source<G: ForkSource>(self, fork: G) -> GregorianGenerator<C, R, G> {
        GregorianGenerator {
            engine: self.engine.with_fork(fork),
            version: self.version,
            node: self.node,
            random: self.random,
        }
    }

    /// The version this generator makes, 1 or 6.
    pub fn version(&self) -> u8 {
        self.version
    }

    /// The node it uses: the one given, or the process node.
    pub fn node(&self) -> u64 {
        self.node.unwrap_or_else(process_node)
    }

    /// Whether [`GregorianGenerator::generate`] takes no lock on this machine: whether its
    /// 128-bit state word is lock-free (see [`crate::generator::V7Generator::is_lock_free`]:
    /// x86-64 with `cmpxchg16b`, AArch64, powerpc64le and s390x, not 32-bit ARM or x86).
    pub fn is_lock_free(&self) -> bool {
        Engine::<C, F>::is_lock_free()
    }

    /// The rollback allowance in nanoseconds.
    pub fn rollback_allowance_ns(&self) -> u64 {
        self.engine.allowance_ns()
    }

    /// The rollback policy.
    pub fn policy(&self) -> RollbackPolicy {
        self.engine.policy()
    }

    /// The clock it reads.
    pub fn clock(&self) -> &C {
        self.engine.clock()
    }

    /// The random source it draws from.
    pub fn random(&self) -> &R {
        &self.random
    }

    /// The next UUID with this generator's node and clock sequence.
    ///
    /// # Errors
    /// [`ErrorKind::ClockRollback`] under [`RollbackPolicy::Error`]; a clock or random source
    /// error; a timestamp error after the year 5236.
    #[inline]
    pub fn generate(&self) -> Result<Uuid> {
        self.generate_with(None, None)
    }

    /// The next UUID, with the generator's timestamp and, where given, this node and clock
    /// sequence instead of its own; both keep their low 48 and 14 bits.
    ///
    /// # Errors
    /// As [`GregorianGenerator::generate`].
    pub fn generate_with(&self, node: Option<u64>, clock_seq: Option<u64>) -> Result<Uuid> {
        let (timestamp, own_seq) = self.next_timestamp()?;
        let clock_seq = clock_seq.map_or(own_seq, |s| (s & 0x3FFF) as u16);
        let node = node.unwrap_or_else(|| self.node());
        Ok(if self.version == 1 {
            layout::v1::build(timestamp, clock_seq, node)
        } else {
            layout::v6::build(timestamp, clock_seq, node)
        })
    }

    /// Advances the state: the next 60-bit timestamp and the clock sequence to use with it.
    ///
    /// # Errors
    /// As [`GregorianGenerator::generate`].
    pub fn next_timestamp(&self) -> Result<(u64, u16)> {
        self.engine.advance_in(GREGORIAN, |s: &Step| {
            // A key is `timestamp << 14 | clock_seq`.
            let split = |key: u128| ((key >> 14) as u64, (key & 0x3FFF) as u16);
            let last = s.tick.last().map(split);
            let ts = match s.tick {
                Tick::Behind { last, .. } | Tick::Overtaken { last } => split(last).0 + 1,
                Tick::First { now } | Tick::New { now, .. } | Tick::Reset { now, .. } => {
                    now.ticks()
                }
            };
            // A new clock sequence, different from the one it replaces (§6.3), at the
            // start, after a reset and in a forked child; drawn only then.
            let seq = match last {
                None => (self.random.next_u64()? & 0x3FFF) as u16,
                Some((_, last_seq)) if s.forked || matches!(s.tick, Tick::Reset { .. }) => {
                    let fresh = (self.random.next_u64()? & 0x3FFF) as u16;
                    if fresh == last_seq {
                        fresh ^ 1
                    } else {
                        fresh
                    }
                }
                Some((_, last_seq)) => last_seq,
            };
            if ts > MAX_GREGORIAN_100NS {
                return Err(out_of_range(
                    "a 60-bit Gregorian timestamp (until 5236-03-31)",
                    format_args!("{ts} (100-ns ticks since 1582-10-15)"),
                ));
            }
            Ok(((u128::from(ts) << 14) | u128::from(seq), (ts, seq)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use crate::random::ScriptedRandom;
    use std::sync::Arc;

    const VECTOR_UNIX_NS: u64 = 1_645_557_742_000_000_000;

    fn gen(
        version: u8,
        policy: RollbackPolicy,
    ) -> (
        Arc<ManualClock>,
        GregorianGenerator<Arc<ManualClock>, ScriptedRandom>,
    ) {
        let clock = Arc::new(ManualClock::new(VECTOR_UNIX_NS));
        let g = GregorianGenerator::with_sources(
            version,
            Some(0x9F6B_DECE_D846),
            1_000_000_000,
            policy,
            Arc::clone(&clock),
            ScriptedRandom::new(vec![0x33C8, 0x1234, 0x33C8]),
        )
        .unwrap();
        (clock, g)
    }

    #[test]
    fn reproduces_rfc_vectors_a1_and_a5() {
        let (_, g1) = gen(1, RollbackPolicy::Reset);
        assert_eq!(
            g1.generate().unwrap().to_string(),
            "c232ab00-9414-11ec-b3c8-9f6bdeced846"
        );
        let (_, g6) = gen(6, RollbackPolicy::Reset);
        assert_eq!(
            g6.generate().unwrap().to_string(),
            "1ec9414c-232a-6b00-b3c8-9f6bdeced846"
        );
    }

    #[test]
    fn a_frozen_clock_counts_ticks() {
        let (_, g) = gen(6, RollbackPolicy::Error);
        let first = g.next_timestamp().unwrap();
        for i in 1..=1u64 << 16 {
            let (ts, seq) = g.next_timestamp().unwrap();
            assert_eq!((ts, seq), (first.0 + i, first.1));
        }
    }

    #[test]
    fn rollback_within_allowance_stays_monotonic() {
        let (clock, g) = gen(1, RollbackPolicy::Error);
        let (t0, s0) = g.next_timestamp().unwrap();
        clock.rewind(999_999_900);
        assert_eq!(g.next_timestamp().unwrap(), (t0 + 1, s0));
    }

    #[test]
    fn rollback_beyond_allowance_resets_or_errors() {
        let (clock, g) = gen(6, RollbackPolicy::Reset);
        let (t0, s0) = g.next_timestamp().unwrap();
        clock.rewind(2_000_000_000);
        let (t1, s1) = g.next_timestamp().unwrap();
        assert_eq!(t1, t0 - 20_000_000);
        assert_ne!(s1, s0, "a reset must change the clock sequence");

        let (clock, g) = gen(6, RollbackPolicy::Error);
        let _ = g.next_timestamp().unwrap();
        clock.rewind(2_000_000_000);
        let err = g.next_timestamp().unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::ClockRollback {
                behind_ns: 2_000_000_000,
                allowance_ns: 1_000_000_000
            }
        );
        clock.advance(1_500_000_000);
        assert!(g.next_timestamp().is_ok(), "back within the allowance");
    }

    #[test]
    fn counting_ahead_of_a_frozen_clock_is_not_a_rollback() {
        // 1 s allowance = 10 M ticks; count 20 M ticks ahead of a frozen clock.
        let (clock, g) = gen(6, RollbackPolicy::Error);
        let (t0, s0) = g.next_timestamp().unwrap();
        for _ in 0..20_000_000 {
            g.next_timestamp().unwrap();
        }
        assert_eq!(g.next_timestamp().unwrap(), (t0 + 20_000_001, s0));
        clock.rewind(2_000_000_000);
        assert!(g.next_timestamp().unwrap_err().is_clock_rollback());
    }

    #[test]
    fn explicit_fields_are_truncated_and_versions_checked() {
        let (_, g) = gen(1, RollbackPolicy::Reset);
        let u = g
            .generate_with(Some(0xFFFF_FFFF_FFFF), Some(0xFFFF_FFFF))
            .unwrap();
        let f = layout::v1::Fields::of(u);
        assert_eq!((f.clock_seq, f.node), (0x3FFF, 0xFFFF_FFFF_FFFF));
        assert!(GregorianGenerator::new(7, None, 0, RollbackPolicy::Reset).is_err());
        assert!(GregorianGenerator::new(1, Some(1 << 48), 0, RollbackPolicy::Reset).is_err());
    }

    #[test]
    fn a_fork_notice_survives_a_failed_first_step() {
        // The child's first call fails (the clock went back beyond the allowance under the
        // error policy); its first successful call must still draw a new clock sequence.
        let clock = Arc::new(ManualClock::new(VECTOR_UNIX_NS));
        let fork = Arc::new(crate::fork::ManualFork::new());
        let g = GregorianGenerator::with_sources(
            1,
            Some(1),
            1_000_000_000,
            RollbackPolicy::Error,
            Arc::clone(&clock),
            ScriptedRandom::new(vec![0x1111, 0x2222]),
        )
        .unwrap()
        .with_fork_source(Arc::clone(&fork));
        let (_, parent_seq) = g.next_timestamp().unwrap();
        assert_eq!(parent_seq, 0x1111);
        fork.fork();
        clock.rewind(5_000_000_000);
        assert!(g.next_timestamp().unwrap_err().is_clock_rollback());
        clock.advance(10_000_000_000);
        let (_, child_seq) = g.next_timestamp().unwrap();
        assert_eq!(
            child_seq, 0x2222,
            "the child kept its parent's clock sequence"
        );
        assert_eq!(g.next_timestamp().unwrap().1, 0x2222, "and draws only once");
    }

    #[test]
    fn a_clock_error_leaves_the_generator_as_it_was() {
        struct Broken;
        impl crate::clock::Clock for Broken {
            fn now_unix_ns(&self) -> Result<u64> {
                Err(Error::new(ErrorKind::ClockBeforeEpoch { before_ns: 1 }))
            }
        }
        let g = GregorianGenerator::with_sources(
            6,
            None,
            0,
            RollbackPolicy::Reset,
            Broken,
            ScriptedRandom::new(vec![1]),
        )
        .unwrap();
        let err = g.generate().unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::ClockBeforeEpoch { before_ns: 1 });
    }

    #[test]
    fn threads_never_collide() {
        let g = GregorianGenerator::new(6, None, 10_000_000_000, RollbackPolicy::Reset).unwrap();
        let mut all: Vec<Uuid> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        let v: Vec<Uuid> = (0..100_000).map(|_| g.generate().unwrap()).collect();
                        assert!(v.windows(2).all(|w| w[0] < w[1]));
                        v
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
