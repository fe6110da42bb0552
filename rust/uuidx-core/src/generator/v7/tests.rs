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
        // 2**9 to 2**10 per 1/4096 ms tick: 2**17 UUIDs move the clock at most 128 ticks.
        let (ms, rand_a, _) = split(out[out.len() - 1]);
        assert!(ms == VECTOR_MS && rand_a <= 128, "k = {k}: {ms} {rand_a}");
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

/// Two threads share `g` on the system clock for `ms` milliseconds, one calling `generate`,
/// the other `fill`; then how far the next UUID's millisecond is ahead of the clock read after
/// it (0 when behind or equal).
fn ms_ahead_after_two_threads(g: &V7Generator, ms: u64) -> u64 {
    let end = std::time::Instant::now() + std::time::Duration::from_millis(ms);
    std::thread::scope(|s| {
        s.spawn(|| {
            while std::time::Instant::now() < end {
                g.generate().unwrap();
            }
        });
        s.spawn(|| {
            let mut out = [Uuid::NIL; 64];
            while std::time::Instant::now() < end {
                g.fill(&mut out).unwrap();
            }
        });
    });
    let last = split(g.generate().unwrap()).0;
    let clock = crate::clock::SystemClock.now_unix_ns().unwrap() / 1_000_000;
    last.saturating_sub(clock)
}

#[test]
fn threads_sharing_a_generator_stay_with_the_clock() {
    // A step that loses its compare-and-swap to a newer state gets no clock reading: taken
    // for the clock, the older reading looked like a rollback, and the cpython method added a
    // millisecond in every such step (2.6 hours ahead after 2 s of two threads).
    let ms = if cfg!(miri) { 20 } else { 150 };
    for method in V7Method::ALL {
        for policy in [RollbackPolicy::Reset, RollbackPolicy::Error] {
            let g = V7Generator::new(method, 10_000_000, policy).unwrap();
            let ahead = ms_ahead_after_two_threads(&g, ms);
            assert!(
                ahead <= 2,
                "{method:?} {policy:?}: {ahead} ms ahead of the clock"
            );
        }
    }
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

/// A random source that records how many bytes each request asked for, and answers with a
/// counter so that every answer differs.
#[derive(Debug, Default)]
struct Recording {
    requests: std::sync::Mutex<Vec<usize>>,
    next: std::sync::atomic::AtomicU8,
}

impl RandomSource for Recording {
    fn fill(&self, dest: &mut [u8]) -> Result<()> {
        self.requests.lock().unwrap().push(dest.len());
        for b in dest.iter_mut() {
            *b = self.next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        Ok(())
    }
}

type Recorded = V7Generator<Arc<ManualClock>, Arc<Recording>>;

fn cpython(unix_ns: u64) -> (Arc<ManualClock>, Recorded, Arc<Recording>) {
    let clock = Arc::new(ManualClock::new(unix_ns));
    let random = Arc::new(Recording::default());
    let g = V7Generator::with_sources(
        V7Method::CPython,
        0,
        RollbackPolicy::Error,
        Arc::clone(&clock),
        Arc::clone(&random),
    )
    .unwrap();
    (clock, g, random)
}

/// CPython 3.14's `uuid7()` for a given millisecond, counter and tail (its last lines).
fn cpython_layout(ms: u64, counter: u128, tail: u64) -> Uuid {
    let value = (u128::from(ms & 0xFFFF_FFFF_FFFF) << 80)
        | (((counter >> 30) & 0xFFF) << 64)
        | ((counter & 0x3FFF_FFFF) << 32)
        | u128::from(tail & 0xFFFF_FFFF);
    Uuid::from_u128(value | (0x7000 << 64) | (0x8 << 60))
}

#[test]
fn cpython_method_asks_for_10_bytes_on_a_new_millisecond_and_4_otherwise() {
    let (clock, g, random) = cpython(VECTOR_MS * 1_000_000);
    // 10 bytes 00..09: rand = 0x00010203040506070809; counter = (rand >> 32) & (2**41 - 1).
    let first = g.generate().unwrap();
    let counter = 0x0001_0203_0405_u128 & 0x1FF_FFFF_FFFF;
    assert_eq!(first, cpython_layout(VECTOR_MS, counter, 0x0607_0809));
    // The same millisecond: counter + 1, 4 fresh bytes 0A..0D for the tail.
    let second = g.generate().unwrap();
    assert_eq!(second, cpython_layout(VECTOR_MS, counter + 1, 0x0A0B_0C0D));
    // A clock that went back: one millisecond after the last timestamp, counter + 1.
    clock.rewind(5_000_000_000);
    let third = g.generate().unwrap();
    assert_eq!(
        third,
        cpython_layout(VECTOR_MS + 1, counter + 2, 0x0E0F_1011)
    );
    // Going back again continues from that advanced timestamp.
    let fourth = g.generate().unwrap();
    assert_eq!(
        fourth,
        cpython_layout(VECTOR_MS + 2, counter + 3, 0x1213_1415)
    );
    // A new millisecond beyond all of that: a new seed.
    clock.set((VECTOR_MS + 10) * 1_000_000);
    let fifth = g.generate().unwrap();
    assert_eq!(split(fifth).0, VECTOR_MS + 10);
    assert_eq!(*random.requests.lock().unwrap(), vec![10, 4, 4, 4, 10]);
    assert!(first < second && second < third && third < fourth && fourth < fifth);
}

#[test]
fn cpython_method_overflows_into_the_next_millisecond_with_a_new_seed() {
    // A seed of all ones (bytes FF) is 2**41 - 1; 2**41 increments overflow the 42 bits.
    let clock = Arc::new(ManualClock::new(VECTOR_MS * 1_000_000));
    let g = V7Generator::with_sources(
        V7Method::CPython,
        0,
        RollbackPolicy::Error,
        Arc::clone(&clock),
        ScriptedRandom::new(vec![u64::MAX]),
    )
    .unwrap();
    let first = g.generate().unwrap();
    assert_eq!(first, cpython_layout(VECTOR_MS, (1 << 41) - 1, 0xFFFF_FFFF));
    // Walking the counter to its last value would take 2**41 calls: start from that state.
    g.resume_cpython(VECTOR_MS, (1 << 42) - 1).unwrap();
    let carried = g.generate().unwrap();
    assert_eq!(split(carried).0, VECTOR_MS + 1, "the timestamp moves on");
    assert_eq!(
        carried,
        cpython_layout(VECTOR_MS + 1, (1 << 41) - 1, 0xFFFF_FFFF)
    );
}

#[test]
fn resume_cpython_is_for_the_cpython_method_and_42_bits() {
    let g = V7Generator::new(V7Method::CPython, 0, RollbackPolicy::Reset).unwrap();
    assert!(g.resume_cpython(VECTOR_MS, (1 << 42) - 1).is_ok());
    assert!(g.resume_cpython(VECTOR_MS, 1 << 42).is_err());
    // 48 bits of milliseconds: the next millisecond of the last one cannot be resumed from.
    assert!(g.resume_cpython((1 << 48) - 1, 0).is_ok());
    assert!(g.resume_cpython(1 << 48, 0).is_err());
    assert!(g.resume_cpython(u64::MAX, 0).is_err());
    let other = V7Generator::new(V7Method::DEFAULT, 0, RollbackPolicy::Reset).unwrap();
    assert!(other.resume_cpython(VECTOR_MS, 0).is_err());
}

#[test]
fn cpython_method_never_follows_the_clock_back() {
    // 3.14's rule however far back the clock goes: one millisecond after the last timestamp,
    // the counter counting on (its allowance is infinite, not 2**64 ns).
    let (clock, g) = gen(V7Method::CPython, RollbackPolicy::Reset, 0, vec![u64::MAX]);
    g.resume_cpython(VECTOR_MS, 5).unwrap();
    let u = g.generate().unwrap();
    assert_eq!(u, cpython_layout(VECTOR_MS + 1, 6, 0xFFFF_FFFF));
    clock.advance(u64::MAX - 1);
    assert!(
        g.generate().unwrap() > u,
        "a clock far ahead is a new millisecond"
    );
}

#[test]
fn cpython_method_refuses_to_pass_the_year_10889() {
    // The last millisecond with its counter at the top: 3.14 would wrap to 1970; this
    // generator returns an error and keeps its state.
    let (_, g) = gen(V7Method::CPython, RollbackPolicy::Reset, 0, vec![u64::MAX]);
    g.resume_cpython((1 << 48) - 1, (1 << 42) - 1).unwrap();
    let err = g.generate().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TimestampOutOfRange { .. }),
        "{err}"
    );
    assert!(g.generate().is_err(), "the state is unchanged");
}

#[test]
fn cpython_method_has_no_allowance_and_a_fixed_width() {
    assert_eq!(
        V7Method::from_name("cpython", None).unwrap(),
        V7Method::CPython
    );
    assert_eq!(
        V7Method::from_name("cpython", Some(42)).unwrap(),
        V7Method::CPython
    );
    assert!(V7Method::from_name("cpython", Some(12)).is_err());
    let (clock, g, _) = cpython(VECTOR_MS * 1_000_000);
    g.generate().unwrap();
    clock.set(0); // 52 years back: still monotonic, never an error
    assert!(g.generate().is_ok());
    assert!(
        g.with_node(1, 4).is_err(),
        "no node bits with CPython's layout"
    );
}

#[test]
fn node_bits_sit_after_the_counter_and_keep_nodes_apart() {
    let make = |node: u64| {
        V7Generator::with_sources(
            V7Method::Counter { bits: 12 },
            1_000_000_000,
            RollbackPolicy::Error,
            ManualClock::new(VECTOR_MS * 1_000_000),
            ScriptedRandom::new(vec![0x0123_4567_89AB_CDEF, 7]),
        )
        .unwrap()
        .with_node(node, 10)
        .unwrap()
    };
    let (a, b) = (make(1), make(2));
    let from_a: Vec<Uuid> = (0..1000).map(|_| a.generate().unwrap()).collect();
    let from_b: Vec<Uuid> = (0..1000).map(|_| b.generate().unwrap()).collect();
    // The same clock and the same random stream: only the node tells them apart.
    assert!(from_a.iter().zip(&from_b).all(|(x, y)| x != y));
    assert!(from_a.windows(2).all(|w| w[0] < w[1]));
    for (u, node) in from_a
        .iter()
        .map(|u| (u, 1))
        .chain(from_b.iter().map(|u| (u, 2)))
    {
        let f = crate::layout::v7::GeneratorFields::of(*u, 0, 12, 10).unwrap();
        assert_eq!(f.node, node);
        assert_eq!(f.unix_ts_ms, VECTOR_MS);
        assert!(f.random < 1 << 52);
    }
    let mut batch = vec![Uuid::NIL; 3000];
    a.fill(&mut batch).unwrap();
    assert!(batch
        .iter()
        .all(|u| crate::layout::v7::GeneratorFields::of(*u, 0, 12, 10)
            .unwrap()
            .node
            == 1));
}

#[test]
fn node_bits_are_validated() {
    let g = || V7Generator::new(V7Method::DEFAULT, 0, RollbackPolicy::Reset).unwrap();
    assert!(g().with_node(0, 0).is_err());
    assert!(g().with_node(0, 33).is_err());
    assert!(g().with_node(1 << 8, 8).is_err());
    assert!(g().with_node((1 << 32) - 1, 32).is_ok());
    let m2 = V7Generator::new(
        V7Method::MonotonicRandom { increment_bits: 8 },
        0,
        RollbackPolicy::Reset,
    )
    .unwrap();
    assert!(
        m2.with_node(1, 1).is_err(),
        "Method 2 leaves no random bits"
    );
}

#[test]
fn every_compiled_wide_step_matches_the_step_on_the_generators_own_widths() {
    // Each layout on the 128-bit engine has a step compiled for its widths; fed the same
    // clock and random words, it must make what the step on the generator's widths makes.
    let words = vec![
        0x0123_4567_89AB_CDEF,
        0xFEDC_BA98_7654_3210,
        0x0F1E_2D3C_4B5A_6978,
        0xFFFF_FFFF_FFFF_FFFF,
        0,
    ];
    let layouts = (12..=42)
        .map(|bits| V7Method::Counter { bits })
        .chain((1..=32).map(|increment_bits| V7Method::MonotonicRandom { increment_bits }))
        .chain((0..=30).map(|counter_bits| V7Method::SubMillisecond { counter_bits }));
    let mut compiled = 0;
    for method in layouts {
        for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
            let (clock_a, a) = gen(method, policy, VECTOR_MS * 1_000_000, words.clone());
            let (clock_b, b) = gen(method, policy, VECTOR_MS * 1_000_000, words.clone());
            let on_the_engine = a.lane == Lane::Wide;
            compiled += usize::from(on_the_engine && policy == RollbackPolicy::Error);
            // A frozen clock, a clock moving on, back within the allowance, back beyond it.
            for (i, (ahead, back)) in [(0, 0), (0, 0), (3_000_000, 0), (0, 500_000), (0, 5_000_000)]
                .into_iter()
                .cycle()
                .take(20)
                .enumerate()
            {
                for clock in [&clock_a, &clock_b] {
                    clock.advance(ahead);
                    clock.rewind(back);
                }
                let ours = if on_the_engine {
                    (a.wide_step)(&a)
                } else {
                    a.generate_wide()
                };
                assert_eq!(
                    ours.map_err(|e| e.to_string()),
                    b.generate_wide().map_err(|e| e.to_string()),
                    "{method:?} {policy:?}, step {i}"
                );
            }
        }
    }
    assert_eq!(
        compiled,
        20 + 32 + 20,
        "every layout off the word is compiled"
    );
}
