//! A `loom` model check of [`Engine::advance`]: every interleaving of two or three threads
//! stepping one engine while its clock moves (forward, back within the allowance, back
//! beyond it) and a fork is noticed, up to loom's preemption bound (`LOOM_MAX_PREEMPTIONS`,
//! set by `make test-loom`).
//!
//! What it runs: the engine's own `advance`, unchanged, on [`ModelCells`], a 64-bit state
//! word of loom's atomics with the orderings of [`Native`] (loom has no 128-bit atomic; the
//! algorithm is the same at any width, only the run-ahead field is narrower), a clock that is
//! one loom atomic (its modification order is real time: a reading that happens after another
//! cannot return an older value), and a fork epoch in a loom atomic. Keys are the model's:
//! `tick << 4 | resets`, counting on by one tick, so that a run-ahead grows with each step and
//! a reset makes keys that no earlier step made.
//!
//! What it checks, in the order of the successful compare-and-swaps (rebuilt from the last
//! key each step saw): every step returns a different key; each key is greater than the one
//! before unless the step was a reset; there are no more resets than the clock went back
//! beyond the allowance; no step fails or resets when it did not; the first step after a fork
//! reports it.
//!
//! The `cpython` method's own step function ([`cpython_step`], on a 4-bit counter) runs in
//! the model too, since it is the one method that compares a reading with its last key: in
//! every interleaving with a clock that only moves forward, no key's millisecond is ahead of
//! the clock (a reading overtaken by another thread's state is never taken for a clock that
//! went back), and keys strictly increase whatever the clock does.
//!
//! What it does not cover: `portable_atomic`'s 128-bit instructions, the real clock's
//! ordering with the state (the vDSO orders its counter read after earlier loads), spurious
//! compare-and-swap failures (loom has none), the other methods' key arithmetic (the unit
//! and thread tests cover those), and interleavings beyond the preemption bound.

use super::{Cells, Engine, Geometry, Step, Tick, TimeBase};
use crate::generator::model_support::{ModelClock, ModelFork, ALLOWANCE_NS, MS, START_NS};
use crate::generator::v7::cpython_step;
use crate::generator::RollbackPolicy;
use crate::Result;
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::sync::Arc;
use loom::thread;

/// The engine's cells on loom's atomics: a 64-bit state word.
#[derive(Debug)]
struct ModelCells {
    state: AtomicU64,
    fork_seen: AtomicU64,
}

impl Cells for ModelCells {
    const BITS: u32 = 64;

    fn load(&self) -> u128 {
        u128::from(self.state.load(Ordering::Acquire))
    }

    fn compare_exchange(&self, current: u128, new: u128) -> core::result::Result<(), u128> {
        let narrow = |v: u128| u64::try_from(v).expect("a model state wider than 64 bits");
        self.state
            .compare_exchange_weak(
                narrow(current),
                narrow(new),
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .map(|_| ())
            .map_err(u128::from)
    }

    fn store(&self, state: u128) {
        self.state.store(state as u64, Ordering::Release);
    }

    fn fork_seen(&self) -> u64 {
        self.fork_seen.load(Ordering::Relaxed)
    }

    fn set_fork_seen(&self, epoch: u64) {
        self.fork_seen.store(epoch, Ordering::Relaxed);
    }
}

type Model = Engine<ModelClock, ModelFork, ModelCells>;

fn model(policy: RollbackPolicy) -> Arc<Model> {
    model_with(ALLOWANCE_NS, policy)
}

fn model_with(allowance_ns: u64, policy: RollbackPolicy) -> Arc<Model> {
    Arc::new(Engine::with_cells(
        Geometry::new(TimeBase::Unix { fraction_bits: 0 }, 40, 4, ModelCells::BITS),
        allowance_ns,
        policy,
        ModelClock(AtomicU64::new(START_NS)),
        ModelFork(AtomicU64::new(0)),
        ModelCells {
            state: AtomicU64::new(0),
            fork_seen: AtomicU64::new(0),
        },
    ))
}

/// One successful step: the key it installed and what it saw.
#[derive(Clone, Copy, Debug)]
struct Done {
    key: u128,
    step: Step,
}

/// A step of the model's generator: `tick << 4 | resets`.
fn step(e: &Model) -> Result<Done> {
    e.advance(|s| {
        let key = match s.tick {
            Tick::First { now } => u128::from(now.ticks()) << 4,
            Tick::Behind { last, .. } | Tick::Overtaken { last } => last + (1 << 4),
            Tick::New { now, last } => u128::from(now.ticks()) << 4 | (last & 0xF),
            Tick::Reset { now, last } => u128::from(now.ticks()) << 4 | ((last & 0xF) + 1),
        };
        Ok((key, Done { key, step: *s }))
    })
}

/// A step of CPython 3.14's method (`V7Method::CPython`, the generator's own step function)
/// on a 4-bit counter: `ms << 4 | counter`, every seed and tail 0. Its engine has the
/// method's settings: no allowance, never an error.
fn cpython(e: &Model) -> Result<Done> {
    e.advance(|s| {
        let (ms, counter, _) = cpython_step(s.tick, 4, || Ok((0, 0)), || Ok(0))?;
        let key = u128::from(ms) << 4 | counter;
        Ok((key, Done { key, step: *s }))
    })
}

fn cpython_model() -> Arc<Model> {
    model_with(u64::MAX, RollbackPolicy::Reset)
}

/// The steps in compare-and-swap order: each step's `last` is the key of the one before.
fn in_cas_order(mut steps: Vec<Done>) -> Vec<Done> {
    let mut chain = Vec::with_capacity(steps.len());
    let mut last = None;
    while !steps.is_empty() {
        let i = steps
            .iter()
            .position(|d| d.step.tick.last() == last)
            .unwrap_or_else(|| panic!("no step follows {last:?}: {steps:?}"));
        let d = steps.swap_remove(i);
        last = Some(d.key);
        chain.push(d);
    }
    chain
}

/// Checks the properties of the module documentation; `rollbacks` is how many times the
/// clock went back beyond the allowance.
fn check(steps: Vec<Done>, errors: usize, rollbacks: usize) {
    let chain = in_cas_order(steps);
    let mut keys: Vec<u128> = chain.iter().map(|d| d.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(
        keys.len(),
        chain.len(),
        "a key was handed out twice: {chain:?}"
    );
    let mut resets = 0;
    for pair in chain.windows(2) {
        let (before, after) = (pair[0], pair[1]);
        if matches!(after.step.tick, Tick::Reset { .. }) {
            resets += 1;
        } else {
            assert!(after.key > before.key, "a key went down: {chain:?}");
        }
    }
    assert!(
        resets <= rollbacks,
        "{resets} resets for {rollbacks} rollbacks: {chain:?}"
    );
    if rollbacks == 0 {
        assert_eq!(errors, 0, "a rollback error without a rollback");
    }
}

/// Runs `threads` threads of `steps` steps each, the first of which moves the clock with
/// `clock` after its first step; returns the successful steps and the errors.
fn run(e: &Arc<Model>, threads: usize, steps: usize, clock: fn(&Model)) -> (Vec<Done>, usize) {
    run_steps(e, threads, steps, clock, step)
}

/// [`run`] with the generator's step function `step`.
fn run_steps(
    e: &Arc<Model>,
    threads: usize,
    steps: usize,
    clock: fn(&Model),
    step: fn(&Model) -> Result<Done>,
) -> (Vec<Done>, usize) {
    let mut done = Vec::new();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let e = Arc::clone(e);
            thread::spawn(move || {
                let mut out = (Vec::new(), 0);
                for i in 0..steps {
                    match step(&e) {
                        Ok(d) => out.0.push(d),
                        Err(err) => {
                            assert!(err.is_clock_rollback(), "{err}");
                            out.1 += 1;
                        }
                    }
                    if t == 0 && i == 0 {
                        clock(&e);
                    }
                }
                out
            })
        })
        .collect();
    let mut errors = 0;
    for h in handles {
        let (d, n) = h.join().unwrap();
        done.extend(d);
        errors += n;
    }
    (done, errors)
}

fn forward(e: &Model) {
    e.clock.0.fetch_add(3 * ALLOWANCE_NS, Ordering::SeqCst);
}

fn back_within(e: &Model) {
    e.clock.0.fetch_sub(ALLOWANCE_NS, Ordering::SeqCst);
}

fn back_beyond(e: &Model) {
    e.clock.0.fetch_sub(3 * ALLOWANCE_NS, Ordering::SeqCst);
}

#[test]
fn two_threads_and_a_clock_moving_forward() {
    // A thread that read the clock before the other moved it and stepped must not see a
    // rollback: the other's state is newer than its reading.
    for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
        loom::model(move || {
            let e = model(policy);
            let first = step(&e).unwrap();
            let (done, errors) = run(&e, 2, 2, forward);
            check([first].into_iter().chain(done).collect(), errors, 0);
        });
    }
}

#[test]
fn two_threads_and_a_clock_back_within_the_allowance() {
    for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
        loom::model(move || {
            let e = model(policy);
            let first = step(&e).unwrap();
            let (done, errors) = run(&e, 2, 2, back_within);
            check([first].into_iter().chain(done).collect(), errors, 0);
        });
    }
}

#[test]
fn two_threads_and_a_clock_back_beyond_the_allowance() {
    // One real rollback: at most one reset, and a thread holding a reading from before it
    // neither resets again nor lifts the keys back above it.
    for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
        loom::model(move || {
            let e = model(policy);
            let first = step(&e).unwrap();
            let (done, errors) = run(&e, 2, 2, back_beyond);
            check([first].into_iter().chain(done).collect(), errors, 1);
        });
    }
}

#[test]
fn three_threads_and_a_clock_back_beyond_the_allowance() {
    loom::model(|| {
        let e = model(RollbackPolicy::Reset);
        let first = step(&e).unwrap();
        let (done, errors) = run(&e, 3, 1, back_beyond);
        check([first].into_iter().chain(done).collect(), errors, 1);
    });
}

#[test]
fn three_threads_and_a_clock_moving_forward() {
    loom::model(|| {
        let e = model(RollbackPolicy::Error);
        let first = step(&e).unwrap();
        let (done, errors) = run(&e, 3, 1, forward);
        check([first].into_iter().chain(done).collect(), errors, 0);
    });
}

#[test]
fn a_fork_is_reported_by_the_first_step_that_succeeds_after_it() {
    // The fork happens before the threads start (a child has one thread when it starts).
    // With the clock back beyond the allowance, the threads' first steps may fail under
    // "error"; the first step that succeeds, in CAS order, reports the fork all the same.
    for rewind in [false, true] {
        loom::model(move || {
            let e = model(RollbackPolicy::Error);
            let first = step(&e).unwrap();
            e.fork.0.fetch_add(1, Ordering::Relaxed);
            if rewind {
                back_beyond(&e);
            }
            let (done, errors) = run(&e, 2, 2, forward);
            let chain = in_cas_order([first].into_iter().chain(done).collect());
            assert!(!chain[0].step.forked);
            assert!(chain.len() > 1, "no step succeeded ({errors} failed)");
            assert!(chain[1].step.forked, "the fork went unreported: {chain:?}");
        });
    }
}

/// The `cpython` method's steps in CAS order: strictly increasing keys, none twice, no error.
fn check_cpython(steps: Vec<Done>, errors: usize) -> Vec<Done> {
    assert_eq!(errors, 0, "the cpython method never fails");
    let chain = in_cas_order(steps);
    for pair in chain.windows(2) {
        assert!(pair[1].key > pair[0].key, "a key went down: {chain:?}");
    }
    chain
}

#[test]
fn the_cpython_method_never_runs_ahead_of_a_clock_moving_forward() {
    // A thread whose compare-and-swap loses to a step that read the clock after the clock
    // moved on must not take its own older reading for a clock that went back (3.14's rule
    // would then add a millisecond in every such step, without end).
    for threads in [2, 3] {
        loom::model(move || {
            let e = cpython_model();
            let first = cpython(&e).unwrap();
            let steps = if threads == 2 { 2 } else { 1 };
            let (done, errors) = run_steps(&e, threads, steps, forward, cpython);
            let chain = check_cpython([first].into_iter().chain(done).collect(), errors);
            let clock_ms = e.clock.0.load(Ordering::SeqCst) / MS;
            for d in &chain {
                assert!(
                    (d.key >> 4) as u64 <= clock_ms,
                    "a key {} ms ahead of the clock: {chain:?}",
                    (d.key >> 4) as u64 - clock_ms
                );
            }
        });
    }
}

#[test]
fn the_cpython_method_stays_monotonic_when_the_clock_goes_back() {
    // Behind the last key, 3.14's rule continues a millisecond after it: keys still increase.
    for clock in [back_within as fn(&Model), back_beyond] {
        loom::model(move || {
            let e = cpython_model();
            let first = cpython(&e).unwrap();
            let (done, errors) = run_steps(&e, 2, 2, clock, cpython);
            check_cpython([first].into_iter().chain(done).collect(), errors);
        });
    }
}
