//! A `loom` model check of the word state ([`Word::reserve`], its install, its rollback proof
//! and its counter's carry): every interleaving of two or three threads reserving keys while
//! the clock stands, moves forward or goes back, and a fork is noticed, up to loom's
//! preemption bound (`LOOM_MAX_PREEMPTIONS`, set by `make test-loom`).
//!
//! What it runs: `reserve` and `settle`, unchanged, on [`ModelWord`] (loom's atomics with the
//! orderings of [`super::NativeWord`]), a clock that is one loom atomic (its modification
//! order is real time) and a fork epoch in a loom atomic. Keys are `ms << 3 | counter`: a
//! 3-bit counter seeded at 0 to 3 (top bit clear) overflows after four to eight keys of one
//! millisecond and carries into the next.
//!
//! What it checks, in every interleaving: no key is handed out twice; a call that began
//! after another ended got a greater key (a register of the largest key of the calls that
//! ended, read before each call and raised after it), unless the clock went back beyond the
//! allowance in between and the policy is reset; while the clock never went back, a key's
//! millisecond is not older than a reading taken before its call began, nor ahead of one
//! taken after it ended by more than the carry; an error is returned only when the clock went
//! back beyond the allowance.
//!
//! What it does not cover: the hardware's `lock xadd` and `cmpxchg` (loom's model of the
//! C++ memory model stands for them), spurious compare-and-swap failures, and interleavings
//! beyond the preemption bound.

use super::{Outcome, Rules, Shape, Word, WordCells};
use crate::generator::model_support::{ModelClock, ModelFork, ALLOWANCE_NS, MS, START_NS};
use crate::generator::RollbackPolicy;
use crate::Result;
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::sync::Arc;
use loom::thread;

/// The word's cells on loom's atomics.
#[derive(Debug, Default)]
struct ModelWord {
    word: AtomicU64,
    anchor: AtomicU64,
    fork_seen: AtomicU64,
}

impl WordCells for ModelWord {
    fn fetch_add(&self, n: u64) -> u64 {
        self.word.fetch_add(n, Ordering::AcqRel)
    }

    fn load(&self) -> u64 {
        self.word.load(Ordering::Acquire)
    }

    fn compare_exchange(&self, current: u64, new: u64) -> core::result::Result<(), u64> {
        self.word
            .compare_exchange_weak(current, new, Ordering::AcqRel, Ordering::Acquire)
            .map(|_| ())
    }

    fn anchor(&self) -> u64 {
        self.anchor.load(Ordering::Acquire)
    }

    fn set_anchor(&self, tick: u64) {
        self.anchor.store(tick, Ordering::Release);
    }

    fn fork_seen(&self) -> u64 {
        self.fork_seen.load(Ordering::Relaxed)
    }

    fn set_fork_seen(&self, epoch: u64) {
        self.fork_seen.store(epoch, Ordering::Relaxed);
    }
}

const COUNTER_BITS: u32 = 3;
const SHAPE: Shape = Shape {
    fraction_bits: 0,
    counter_bits: COUNTER_BITS,
};

struct Model {
    word: Word<ModelWord>,
    clock: ModelClock,
    fork: ModelFork,
    rules: Rules,
    /// The largest key of the calls that ended (0: none).
    ended: AtomicU64,
    /// Set once the clock went back beyond the allowance.
    rolled_back: AtomicU64,
    /// Set once the clock went back at all.
    went_back: AtomicU64,
}

fn model(policy: RollbackPolicy) -> Arc<Model> {
    Arc::new(Model {
        word: Word::with_cells(ModelWord::default()),
        clock: ModelClock(AtomicU64::new(START_NS)),
        fork: ModelFork(AtomicU64::new(0)),
        rules: Rules {
            shape: SHAPE,
            allowance_ns: ALLOWANCE_NS,
            allowance_ticks: SHAPE.ticks_in(ALLOWANCE_NS),
            policy,
        },
        ended: AtomicU64::new(0),
        rolled_back: AtomicU64::new(0),
        went_back: AtomicU64::new(0),
    })
}

/// Moves the clock by `delta_ms` (back when negative), recording a rollback beyond the
/// allowance.
fn move_clock(m: &Model, delta_ms: i64) {
    let now = m.clock.0.load(Ordering::SeqCst);
    let to = now.checked_add_signed(delta_ms * MS as i64).unwrap();
    if to < now {
        m.went_back.store(1, Ordering::SeqCst);
    }
    if to + ALLOWANCE_NS < now {
        m.rolled_back.store(1, Ordering::SeqCst);
    }
    m.clock.0.store(to, Ordering::SeqCst);
}

/// One call reserving `n` keys with counter seed `seed`, checked against the calls that ended
/// before it began; returns its keys.
fn call(m: &Model, n: u64, seed: u64) -> Result<Vec<u64>> {
    let before = m.ended.load(Ordering::SeqCst);
    let began = m.clock.0.load(Ordering::SeqCst) / MS;
    let result = m
        .word
        .reserve(m.rules, n, seed, &m.clock, &m.fork, || Ok(2));
    let first = match result {
        Ok(Outcome::Keys(first)) => first,
        Ok(Outcome::Wide) => panic!("the model's clock is inside the window"),
        Err(e) => {
            assert!(
                e.is_clock_rollback() && m.rolled_back.load(Ordering::SeqCst) == 1,
                "an error without a rollback: {e}"
            );
            assert_eq!(m.rules.policy, RollbackPolicy::Error, "reset never fails");
            return Err(e);
        }
    };
    let keys: Vec<u64> = (first..first + n).collect();
    let ended = m.clock.0.load(Ordering::SeqCst) / MS;
    let reset_possible =
        m.rules.policy == RollbackPolicy::Reset && m.rolled_back.load(Ordering::SeqCst) == 1;
    if !reset_possible {
        assert!(
            before == 0 || first > before,
            "key {first:#x} not above {before:#x}, of a call that ended before this one began"
        );
    }
    if m.went_back.load(Ordering::SeqCst) == 0 {
        let ms = first >> COUNTER_BITS;
        assert!(
            ms >= began,
            "a stale key: {ms} ms for a call begun at {began} ms"
        );
        // The carry: a 3-bit counter seeded below 4 carries one millisecond per four keys
        // at worst; the model makes at most eight keys.
        assert!(
            ms <= ended + 2,
            "a key {} ms ahead of the clock",
            ms - ended
        );
    }
    m.ended.fetch_max(keys[keys.len() - 1], Ordering::SeqCst);
    Ok(keys)
}

fn unique(all: Vec<Vec<u64>>) {
    let mut keys: Vec<u64> = all.into_iter().flatten().collect();
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n, "a key was handed out twice");
}

/// Runs `threads` threads of `calls` (each a reservation size and a seed), and `meanwhile`
/// on the main thread, then checks uniqueness (unless `resets` may repeat a tick).
fn run(
    policy: RollbackPolicy,
    threads: Vec<Vec<(u64, u64)>>,
    meanwhile: impl Fn(&Model) + Sync + Send + 'static,
) {
    loom::model(move || {
        let m = model(policy);
        let handles: Vec<_> = threads
            .clone()
            .into_iter()
            .map(|calls| {
                let m = Arc::clone(&m);
                thread::spawn(move || {
                    calls
                        .into_iter()
                        .filter_map(|(n, seed)| call(&m, n, seed).ok())
                        .flatten()
                        .collect::<Vec<u64>>()
                })
            })
            .collect();
        meanwhile(&m);
        let all: Vec<Vec<u64>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        unique(all);
    });
}

#[test]
fn two_threads_on_a_standing_clock_carry_without_repeats() {
    // Seeds 3 and 2, four keys each: the 3-bit counter overflows into the next millisecond.
    run(
        RollbackPolicy::Error,
        vec![vec![(1, 3), (1, 3)], vec![(1, 2), (2, 2)]],
        |_| {},
    );
}

#[test]
fn two_threads_while_the_clock_moves_on() {
    // Stale keys, installs racing installs, a thread finding a fresh state.
    for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
        run(policy, vec![vec![(1, 1), (1, 0)], vec![(1, 3)]], |m| {
            move_clock(m, 1);
            move_clock(m, 1);
        });
    }
}

#[test]
fn three_threads_while_the_clock_moves_on() {
    run(
        RollbackPolicy::Error,
        vec![vec![(1, 1)], vec![(1, 2)], vec![(2, 3)]],
        |m| move_clock(m, 1),
    );
}

#[test]
fn a_clock_that_goes_back_fails_or_resets_only_on_proof() {
    for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
        run(policy, vec![vec![(1, 1), (1, 1)], vec![(1, 2)]], |m| {
            move_clock(m, -50);
        });
    }
}

#[test]
fn a_clock_that_moves_on_then_goes_back() {
    // A tick installed after a thread's reading, then reset below that reading: the thread
    // must not take the word's moves for counting and reinstall its older reading's tick.
    for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
        run(policy, vec![vec![(1, 1), (1, 1)], vec![(1, 2)]], |m| {
            move_clock(m, 20);
            move_clock(m, -40);
        });
    }
}

#[test]
fn a_clock_back_within_the_allowance_is_no_rollback() {
    run(
        RollbackPolicy::Error,
        vec![vec![(1, 1), (1, 1)], vec![(1, 2)]],
        |m| {
            move_clock(m, 5);
            move_clock(m, -4);
        },
    );
}

#[test]
fn a_fork_skips_keys_once() {
    run(
        RollbackPolicy::Error,
        vec![vec![(1, 1), (1, 1)], vec![(1, 2)]],
        |m| {
            m.fork.0.fetch_add(1, Ordering::Relaxed);
        },
    );
}
