use super::*;
use crate::clock::ManualClock;
use crate::layout::split;
use crate::random::ScriptedRandom;
use std::sync::Arc;

const VECTOR_MS: u64 = 1_645_557_742_000;

type Manual = V7Generator<Arc<ManualClock>, ScriptedRandom>;

fn gen(
    method: V7Method,
    policy: RollbackPolicy,
    unix_ns: u64,
    words: Vec<u64>,
) -> (Arc<ManualClock>, Manual) {
    let clock = Arc::new(ManualClock::new(unix_ns));
    let g = V7Generator::with_sources(
        method,
        1_000_000_000,
        policy,
        Arc::clone(&clock),
        ScriptedRandom::new(words),
    )
    .unwrap();
    (clock, g)
}

const ALL_METHODS: [V7Method; 5] = [
    V7Method::Counter { bits: 12 },
    V7Method::Counter { bits: 42 },
    V7Method::MonotonicRandom { increment_bits: 32 },
    V7Method::SubMillisecond { counter_bits: 0 },
    V7Method::DEFAULT,
];

#[test]
fn reproduces_rfc_vector_a6_with_method_3() {
    // rand_a = 0xCC3 is the fraction 3267/4096 of the millisecond: 797_608 ns into it.
    let (_, g) = gen(
        V7Method::SubMillisecond { counter_bits: 0 },
        RollbackPolicy::Error,
        VECTOR_MS * 1_000_000 + 797_608,
        vec![0x18C4_DC0C_0C07_398F],
    );
    assert_eq!(
        g.generate().unwrap().to_string(),
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
    );
}

#[test]
fn seeds_with_a_rollover_guard_and_fresh_random_bits() {
    // Method 1, 12 bits: the seed takes 11 bits above the 62 random ones; the guard is 0.
    let (_, g) = gen(
        V7Method::Counter { bits: 12 },
        RollbackPolicy::Error,
        VECTOR_MS * 1_000_000,
        vec![u64::MAX],
    );
    let (ms, rand_a, rand_b) = split(g.generate().unwrap());
    assert_eq!((ms, rand_a, rand_b), (VECTOR_MS, 0x7FF, (1 << 62) - 1));
}

#[test]
fn every_method_is_strictly_increasing_on_a_frozen_clock() {
    for method in ALL_METHODS {
        let (_, g) = gen(
            method,
            RollbackPolicy::Error,
            VECTOR_MS * 1_000_000,
            vec![0x0123_4567_89AB_CDEF, u64::MAX, 0, 42],
        );
        let mut last = g.generate().unwrap();
        for _ in 0..20_000 {
            let next = g.generate().unwrap();
            assert!(next > last, "{method:?}: {next} <= {last}");
            assert_eq!(next.version_number(), Some(7));
            last = next;
        }
    }
}

#[test]
fn counter_overflow_advances_the_timestamp() {
    // Seed 0x7FF (the largest with the guard bit clear): 2048 increments reach 0xFFF, the
    // next carries into the millisecond.
    let (_, g) = gen(
        V7Method::Counter { bits: 12 },
        RollbackPolicy::Error,
        VECTOR_MS * 1_000_000,
        vec![u64::MAX],
    );
    let first = g.generate().unwrap();
    let mut last = first;
    for _ in 0..2048 {
        last = g.generate().unwrap();
    }
    assert_eq!(split(last).0, VECTOR_MS);
    assert_eq!(split(last).1, 0xFFF);
    let carried = g.generate().unwrap();
    assert!(carried > last);
    assert_eq!((split(carried).0, split(carried).1), (VECTOR_MS + 1, 0));
}

#[test]
fn bursts_of_2_pow_k_within_one_tick() {
    for k in [10, 14, 17] {
        let (_, g) = gen(
            V7Method::DEFAULT,
            RollbackPolicy::Error,
            VECTOR_MS * 1_000_000,
            vec![0x5555_5555_5555_5555, 7],
        );
        let mut out = vec![Uuid::NIL; 1 << k];
        g.fill(&mut out).unwrap();
        assert!(out.windows(2).all(|w| w[0] < w[1]), "k = {k}");
        // 2**13 to 2**14 per 1/4096 ms tick: 2**17 UUIDs move the clock at most 16 ticks.
        let (ms, rand_a, _) = split(out[out.len() - 1]);
        assert!(ms == VECTOR_MS && rand_a <= 16, "k = {k}: {ms} {rand_a}");
    }
}

#[test]
fn rollback_within_allowance_reuses_the_timestamp() {
    for method in ALL_METHODS {
        let (clock, g) = gen(
            method,
            RollbackPolicy::Error,
            VECTOR_MS * 1_000_000,
            vec![99, 12345],
        );
        let before = g.generate().unwrap();
        clock.rewind(999_000_000);
        let after = g.generate().unwrap();
        assert!(after > before, "{method:?}");
        assert_eq!(split(after).0, VECTOR_MS, "{method:?}");
    }
}

#[test]
fn rollback_beyond_allowance_resets_or_errors() {
    let (clock, g) = gen(
        V7Method::DEFAULT,
        RollbackPolicy::Reset,
        VECTOR_MS * 1_000_000,
        vec![3],
    );
    let _ = g.generate().unwrap();
    clock.rewind(5_000_000_000);
    assert_eq!(split(g.generate().unwrap()).0, VECTOR_MS - 5_000);

    let (clock, g) = gen(
        V7Method::Counter { bits: 42 },
        RollbackPolicy::Error,
        VECTOR_MS * 1_000_000,
        vec![3],
    );
    let _ = g.generate().unwrap();
    clock.rewind(5_000_000_000);
    let err = g.generate().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::ClockRollback {
            behind_ns: 5_000_000_000,
            allowance_ns: 1_000_000_000
        }
    );
    assert!(err.to_string().contains("5000000000 ns"));
    clock.advance(4_500_000_000);
    assert!(g.generate().is_ok());
}

#[test]
fn fill_continues_the_sequence() {
    let (clock, g) = gen(
        V7Method::DEFAULT,
        RollbackPolicy::Error,
        VECTOR_MS * 1_000_000,
        vec![1, 2, 3],
    );
    let a = g.generate().unwrap();
    let mut batch = vec![Uuid::NIL; 10_000];
    g.fill(&mut batch).unwrap();
    clock.advance(1);
    let b = g.generate().unwrap();
    assert!(a < batch[0] && batch.windows(2).all(|w| w[0] < w[1]) && batch[9_999] < b);
}

#[test]
fn options_are_validated() {
    for bad in [
        V7Method::Counter { bits: 11 },
        V7Method::Counter { bits: 43 },
        V7Method::MonotonicRandom { increment_bits: 0 },
        V7Method::MonotonicRandom { increment_bits: 33 },
        V7Method::SubMillisecond { counter_bits: 31 },
    ] {
        assert!(
            V7Generator::new(bad, 0, RollbackPolicy::Reset).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn tracks_the_system_clock() {
    let g = V7Generator::new(V7Method::DEFAULT, 10_000_000_000, RollbackPolicy::Reset).unwrap();
    let before = crate::clock::SystemClock.now_unix_ns().unwrap() / 1_000_000;
    let u = g.generate().unwrap();
    let after = crate::clock::SystemClock.now_unix_ns().unwrap() / 1_000_000;
    assert!((before..=after).contains(&split(u).0));
}

#[test]
fn eight_threads_a_million_each_no_duplicates() {
    const PER_THREAD: usize = 1_000_000;
    let g = &super::super::GLOBAL_V7;
    let mut all: Vec<u128> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(move || {
                    let mut v = Vec::with_capacity(PER_THREAD);
                    for _ in 0..PER_THREAD {
                        v.push(g.generate().unwrap().as_u128());
                    }
                    assert!(
                        v.windows(2).all(|w| w[0] < w[1]),
                        "a thread's sequence went back"
                    );
                    v
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    all.sort_unstable();
    let n = all.len();
    all.dedup();
    assert_eq!(all.len(), n, "duplicates across threads");
    assert_eq!(n, 8 * PER_THREAD);
}

#[test]
fn running_ahead_of_the_clock_is_not_a_rollback() {
    // A frozen clock and a 1 ms allowance: counting carries the key several milliseconds (or
    // thousands of 1/4096 ms ticks) ahead of the clock. That is no rollback: under either
    // policy the sequence keeps increasing and nothing fails.
    for method in [
        V7Method::Counter { bits: 12 },
        V7Method::SubMillisecond { counter_bits: 0 },
    ] {
        for policy in [RollbackPolicy::Reset, RollbackPolicy::Error] {
            let clock = Arc::new(ManualClock::new(VECTOR_MS * 1_000_000));
            let g = V7Generator::with_sources(
                method,
                1_000_000,
                policy,
                Arc::clone(&clock),
                ScriptedRandom::new(vec![0x7777_7777_7777_7777]),
            )
            .unwrap();
            let mut batch = vec![Uuid::NIL; 50_000];
            g.fill(&mut batch).unwrap();
            assert!(
                split(batch[batch.len() - 1]).0 >= VECTOR_MS + 5,
                "{method:?}: the key ran ahead"
            );
            let mut last = batch[batch.len() - 1];
            for _ in 0..10_000 {
                let next = g.generate().unwrap();
                assert!(next > last, "{method:?} {policy:?}");
                last = next;
            }
            // A real rollback is still measured from the clock, not from the key.
            clock.rewind(2_000_000);
            let behind = g.generate();
            match policy {
                RollbackPolicy::Reset => assert_eq!(split(behind.unwrap()).0, VECTOR_MS - 2),
                RollbackPolicy::Error => assert_eq!(
                    behind.unwrap_err().kind(),
                    &ErrorKind::ClockRollback {
                        behind_ns: 2_000_000,
                        allowance_ns: 1_000_000
                    }
                ),
            }
        }
    }
}
