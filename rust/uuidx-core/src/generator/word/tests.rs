//! The word state through [`crate::generator::V7Generator`]: its window, its bulk and fork
//! paths, and an order check of real threads on the system clock.

use super::WINDOW_MS;
use crate::clock::{Clock, ManualClock, SystemClock};
use crate::fork::ManualFork;
use crate::generator::{RollbackPolicy, V7Generator, V7Method};
use crate::layout::v7::GeneratorFields;
use crate::random::ThreadRandom;
use crate::Uuid;
use std::sync::{Arc, Barrier};

const MS: u64 = 1_000_000;
/// 2022-02-22, RFC 9562's example instant.
const START_NS: u64 = 1_645_557_742_000 * MS;

fn generator(method: V7Method, clock: &Arc<ManualClock>) -> V7Generator<Arc<ManualClock>> {
    V7Generator::with_sources(
        method,
        10 * MS,
        RollbackPolicy::Error,
        Arc::clone(clock),
        ThreadRandom,
    )
    .unwrap()
}

/// `(ms, fraction, counter)` of a UUID of Method 3 with `counter_bits`.
fn fields(u: Uuid, counter_bits: u32) -> (u64, u64, u64) {
    let f = GeneratorFields::of(u, 12, counter_bits, 0).unwrap();
    (f.unix_ts_ms, f.fraction, u64::try_from(f.counter).unwrap())
}

#[test]
fn the_layouts_that_fit_take_the_word() {
    for (method, fits) in [
        (V7Method::DEFAULT, true),
        (V7Method::SubMillisecond { counter_bits: 0 }, true),
        (V7Method::SubMillisecond { counter_bits: 11 }, false),
        (V7Method::Counter { bits: 22 }, true),
        (V7Method::Counter { bits: 23 }, false),
        (V7Method::MonotonicRandom { increment_bits: 8 }, false),
        (V7Method::CPython, false),
    ] {
        let clock = Arc::new(ManualClock::new(START_NS));
        let g = generator(method, &clock);
        g.generate().unwrap();
        assert_eq!(g.state_bits(), if fits { 64 } else { 128 }, "{method:?}");
    }
}

#[test]
fn a_frozen_clock_counts_then_carries_into_the_next_tick() {
    let clock = Arc::new(ManualClock::new(START_NS));
    let g = generator(V7Method::DEFAULT, &clock);
    let first = g.generate().unwrap();
    let (ms, fraction, counter) = fields(first, 10);
    assert_eq!((ms, fraction), (1_645_557_742_000, 0));
    assert!(counter < 1 << 9, "the seed's top bit is clear");
    let mut last = first;
    for _ in 0..(1 << 10) {
        let u = g.generate().unwrap();
        assert!(u > last);
        last = u;
    }
    // At most 2**10 - seed keys fit the first tick; the rest carried into the next one.
    assert_eq!(fields(last, 10).1, 1);
}

#[test]
fn bulk_reservations_are_one_run_of_keys() {
    let clock = Arc::new(ManualClock::new(START_NS));
    let g = generator(V7Method::DEFAULT, &clock);
    let one = g.generate().unwrap();
    let mut run = vec![Uuid::NIL; 300];
    g.fill(&mut run).unwrap();
    let keys: Vec<u128> = run.iter().map(|&u| key_of(u)).collect();
    assert_eq!(keys[0], key_of(one) + 1, "the run follows the last key");
    assert!(
        keys.windows(2).all(|w| w[1] == w[0] + 1),
        "one run of consecutive keys"
    );
    clock.advance(MS);
    let after = g.generate().unwrap();
    assert_eq!(fields(after, 10).0, 1_645_557_742_001);
}

/// A Method 3 + 10-bit key of a UUID: 48 + 12 + 10 bits, without version and variant.
fn key_of(u: Uuid) -> u128 {
    let v = u.as_u128();
    ((v >> 80) << 22) | (((v >> 64) & 0xFFF) << 10) | ((v >> 52) & 0x3FF)
}

#[test]
fn past_the_window_the_wide_engine_continues_the_sequence() {
    let end_ns = WINDOW_MS * MS;
    let clock = Arc::new(ManualClock::new(end_ns - 2 * MS));
    let g = generator(V7Method::DEFAULT, &clock);
    let inside = g.generate().unwrap();
    assert_eq!(g.state_bits(), 64);
    clock.advance(3 * MS);
    let past = g.generate().unwrap();
    assert!(past > inside);
    assert_eq!(fields(past, 10).0, WINDOW_MS + 1);
    assert!(past < g.generate().unwrap());
}

#[test]
fn a_forked_child_skips_keys_once() {
    let clock = Arc::new(ManualClock::new(START_NS));
    let gen = generator(V7Method::DEFAULT, &clock).with_fork_source(ManualFork::new());
    let first = key_of(gen.generate().unwrap());
    let second = key_of(gen.generate().unwrap());
    assert_eq!(second, first + 1);
    gen.fork_source().fork();
    let forked = key_of(gen.generate().unwrap());
    let next = key_of(gen.generate().unwrap());
    assert!(forked > second, "after the fork");
    assert_eq!(next, forked + 1, "the jump is taken once");
}

#[test]
fn a_rollback_is_proven_against_the_anchor_not_the_key() {
    // A frozen clock runs the key 2**14 keys (16 ticks) past the anchor; a clock back by
    // less than the allowance from the anchor is no rollback, one beyond it is. Under Miri
    // 2**12 keys (4 ticks), the longest of its library tests there otherwise: the clock back by
    // 9 ms is then still 13 ms behind the key, beyond the allowance of 10, had the key counted.
    let clock = Arc::new(ManualClock::new(START_NS));
    let g = generator(V7Method::DEFAULT, &clock);
    let mut run = vec![Uuid::NIL; if cfg!(miri) { 1 << 12 } else { 1 << 14 }];
    g.fill(&mut run).unwrap();
    clock.rewind(9 * MS);
    assert!(g.generate().is_ok());
    clock.rewind(2 * MS);
    assert!(g.generate().unwrap_err().is_clock_rollback());
}

/// Calls per thread of the order check.
const ORDER_CALLS: usize = if cfg!(miri) { 20 } else { 20_000 };

/// One call bracketed by clock readings: `(before, uuid, after)`.
type Bracketed = (u64, Uuid, u64);

fn bracketed_calls(g: &V7Generator, threads: usize) -> Vec<Bracketed> {
    let start = Barrier::new(threads);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    (0..ORDER_CALLS)
                        .map(|_| {
                            let before = SystemClock.now_unix_ns().unwrap();
                            let u = g.generate().unwrap();
                            (before, u, SystemClock.now_unix_ns().unwrap())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

/// The order check of real threads: no duplicate; no UUID smaller than one returned by a call
/// that ended before it began; no timestamp (with its fraction) older than the reading before
/// its call, or newer than the reading after it by more than the carry.
fn order_check(threads: usize) {
    let g = V7Generator::new(V7Method::DEFAULT, 10_000 * MS, RollbackPolicy::Error).unwrap();
    let mut calls = bracketed_calls(&g, threads);
    let mut uuids: Vec<Uuid> = calls.iter().map(|c| c.1).collect();
    uuids.sort_unstable();
    uuids.dedup();
    assert_eq!(uuids.len(), calls.len(), "a duplicate");
    let tick = |ns: u64| ((ns / MS) << 12) | (((ns % MS) << 12) / MS);
    // The carry: the counter is seeded below 2**9 and counts 2**10 per tick, so n calls of
    // one tick move the key at most n / 2**9 ticks past it.
    let carry = (threads * ORDER_CALLS) as u64 >> 9;
    for &(before, u, after) in &calls {
        let (ms, fraction, _) = fields(u, 10);
        let t = (ms << 12) | fraction;
        assert!(t >= tick(before), "a stale timestamp");
        assert!(t <= tick(after) + carry, "a timestamp ahead of the clock");
    }
    // Sweep by start: the largest UUID of the calls that ended before each call began.
    calls.sort_unstable_by_key(|c| c.0);
    let mut by_end: Vec<(u64, Uuid)> = calls.iter().map(|c| (c.2, c.1)).collect();
    by_end.sort_unstable_by_key(|c| c.0);
    let (mut i, mut ended_max) = (0, Uuid::NIL);
    for &(before, u, _) in &calls {
        while i < by_end.len() && by_end[i].0 < before {
            ended_max = ended_max.max(by_end[i].1);
            i += 1;
        }
        assert!(
            u > ended_max,
            "{u} is below {ended_max}, of a call that ended before"
        );
    }
}

#[test]
fn order_check_at_2_threads() {
    order_check(2);
}

#[test]
fn order_check_at_8_threads() {
    order_check(8);
}
