//! Criterion benchmarks of the core hot paths: parsing and formatting (RFC 9562 §4),
//! name-based hashing (§5.3, §5.5, Appendix B.2), v4 (§5.4) and v7 (§5.7) generation, and
//! the lock-free v7 generator under contention against a mutex-based reference (§6.2).
//!
//! `cargo bench -p uuidx-core --bench core -- --warm-up-time 1 --measurement-time 2`
//!
//! These are measurements, not assertions: nothing here fails on a slow machine.

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use std::hint::black_box;
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};
use uuidx_core::clock::{Clock as _, SystemClock};
use uuidx_core::generator::{RollbackPolicy, V7Generator, V7Method, GLOBAL_V7};
use uuidx_core::name::{self, Algorithm};
use uuidx_core::random::ThreadRandom;
use uuidx_core::{format, layout, parse, Uuid};

const HYPHENATED: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
const SIMPLE: &str = "f81d4fae7dec11d0a76500a0c91e6bf6";
const URN: &str = "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
/// A 15-byte name, the one of RFC 9562 Appendix A.2, A.4 and B.2.
const NAME: &[u8; 15] = b"www.example.com";

fn parse_and_format(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    for (form, text) in [("hyphenated", HYPHENATED), ("simple", SIMPLE), ("urn", URN)] {
        group.bench_function(form, |b| b.iter(|| parse::parse(black_box(text))));
    }
    group.finish();

    let u = parse::parse(HYPHENATED).unwrap();
    let mut group = c.benchmark_group("format");
    group.bench_function("hyphenated", |b| {
        b.iter(|| format::hyphenated(black_box(u), false));
    });
    group.finish();
}

fn name_based(c: &mut Criterion) {
    let mut group = c.benchmark_group("name");
    let ns = name::NAMESPACE_DNS;
    group.bench_function("v3_md5", |b| {
        b.iter(|| name::v3(black_box(ns), black_box(NAME)));
    });
    group.bench_function("v5_sha1", |b| {
        b.iter(|| name::v5(black_box(ns), black_box(NAME)));
    });
    for algorithm_name in Algorithm::NAMES {
        let algorithm = Algorithm::for_v8(algorithm_name).unwrap();
        group.bench_function(format!("v8_{algorithm_name}"), |b| {
            b.iter(|| name::v8(black_box(ns), black_box(NAME), algorithm));
        });
    }
    group.finish();
}

fn random_and_time_based(c: &mut Criterion) {
    c.bench_function("v4/new", |b| b.iter(layout::v4::new));
    c.bench_function("v7/global_generate", |b| b.iter(|| GLOBAL_V7.generate()));
    // The generator without the clock: a fixed clock, so this is entropy + CAS + layout.
    let fixed = V7Generator::with_sources(
        V7Method::DEFAULT,
        10_000_000_000,
        RollbackPolicy::Reset,
        uuidx_core::clock::ManualClock::new(1_700_000_000_000_000_000),
        ThreadRandom,
    )
    .expect("valid options");
    c.bench_function("v7/fixed_clock_generate", |b| b.iter(|| fixed.generate()));
    // The floors under every time-based UUID: one read of the real-time clock, and one
    // 128-bit load plus compare-and-swap.
    let word = portable_atomic::AtomicU128::new(0);
    c.bench_function("atomic/u128_load_cas", |b| {
        b.iter(|| {
            let v = word.load(portable_atomic::Ordering::Acquire);
            black_box(word.compare_exchange_weak(
                v,
                v + 1,
                portable_atomic::Ordering::AcqRel,
                portable_atomic::Ordering::Acquire,
            ))
        });
    });
    c.bench_function("clock/system_now", |b| {
        b.iter(|| uuidx_core::clock::Clock::now_unix_ns(&uuidx_core::clock::SystemClock));
    });
}

/// A reference version 7 generator with a mutex, RFC 9562 §6.2 Method 1 with a 42-bit counter
/// (CPython 3.14's layout): `(last_ms, counter)` under a lock; a new millisecond reseeds the
/// counter randomly with its top bit clear, the same or an earlier one increments it, and an
/// overflowing counter moves the millisecond on. The UUID is the counter's top 12 bits in
/// `rand_a`, its low 30 bits then 32 fresh random bits in `rand_b`.
///
/// It draws its randomness exactly as the lock-free generator does (128 bits per UUID before
/// synchronising), so that the comparison measures the synchronisation alone.
struct MutexV7 {
    state: Mutex<(u64, u64)>,
}

impl MutexV7 {
    const COUNTER_BITS: u32 = 42;

    fn new() -> Self {
        Self {
            state: Mutex::new((0, 0)),
        }
    }

    fn generate(&self) -> Uuid {
        let now_ms = SystemClock.now_unix_ns().unwrap_or(0) / 1_000_000;
        let entropy = ThreadRandom.u128();
        let seed = (entropy >> 64) as u64 & ((1 << (Self::COUNTER_BITS - 1)) - 1);
        let (ms, counter) = {
            let mut state = self.state.lock().unwrap();
            let (last_ms, counter) = *state;
            *state = if now_ms > last_ms {
                (now_ms, seed)
            } else if counter + 1 < 1 << Self::COUNTER_BITS {
                (last_ms, counter + 1)
            } else {
                (last_ms + 1, seed)
            };
            *state
        };
        let rand_a = counter >> 30;
        let rand_b = ((counter & ((1 << 30) - 1)) << 32) | (entropy as u64 & 0xFFFF_FFFF);
        layout::v7::new(ms, rand_a, rand_b).unwrap()
    }
}

/// UUIDs each thread generates per benchmark iteration.
const PER_THREAD: u64 = 1_000;

/// Wall time for `threads` threads to each generate `iters * PER_THREAD` UUIDs with
/// `generate`, from a common start; each thread checks that its UUIDs increase.
fn contended(threads: usize, iters: u64, generate: &(impl Fn() -> Uuid + Sync)) -> Duration {
    let start = Barrier::new(threads + 1);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    let mut last = Uuid::NIL;
                    for _ in 0..iters * PER_THREAD {
                        let u = generate();
                        assert!(u > last, "{u} after {last}");
                        last = black_box(u);
                    }
                })
            })
            .collect();
        start.wait();
        let began = Instant::now();
        for worker in workers {
            worker.join().unwrap();
        }
        began.elapsed()
    })
}

fn v7_contention(c: &mut Criterion) {
    let mut group = c.benchmark_group("v7_contention");
    group.sampling_mode(SamplingMode::Flat).sample_size(30);
    for threads in [1_usize, 2, 4] {
        group.throughput(Throughput::Elements(threads as u64 * PER_THREAD));
        // The same method as the reference, so that only the synchronisation differs.
        let lock_free = V7Generator::new(
            V7Method::Counter { bits: 42 },
            uuidx_core::generator::DEFAULT_ROLLBACK_ALLOWANCE_NS,
            RollbackPolicy::Reset,
        )
        .unwrap();
        group.bench_function(BenchmarkId::new("lock_free", threads), |b| {
            b.iter_custom(|iters| contended(threads, iters, &|| lock_free.generate().unwrap()));
        });
        let mutex = MutexV7::new();
        group.bench_function(BenchmarkId::new("mutex", threads), |b| {
            b.iter_custom(|iters| contended(threads, iters, &|| mutex.generate()));
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    parse_and_format,
    name_based,
    random_and_time_based,
    v7_contention
);
criterion_main!(benches);
