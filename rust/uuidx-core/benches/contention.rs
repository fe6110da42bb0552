//! The lock-free v7 generator against a mutex-based reference, on 1, 2, 4, 8 and 16 threads
//! sharing one generator (RFC 9562 §6.2, Method 1 with a 42-bit counter for both, the same
//! clock and the same randomness per UUID): throughput, and the latency of single calls.
//!
//! `cargo bench -p uuidx-core --bench contention` (or `make bench-contention`). Each thread
//! count is measured in rounds; a round visits both generators, in alternating order, so that
//! a noisy stretch of the machine weighs on both. Throughput visits run untimed calls and
//! take the wall time of the batch; latency visits time every call with `Instant`. A ratio
//! is the median over rounds of the ratio within a round. With `UUIDX_CONTENTION_JSON=path`
//! the figures are also written there as JSON (for `benches/rust_bench.py`);
//! `UUIDX_CONTENTION_THREADS=1,2,4,8,16,32` sets the thread counts (on a machine with more
//! cores, or to see the effect of threads outnumbering them).
//!
//! These are measurements, not assertions: nothing here fails on a slow machine.

// Nanosecond counts and sample indices are far below 2^52.
#![allow(clippy::cast_precision_loss, clippy::cast_sign_loss)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::{Barrier, Mutex};
use std::time::Instant;
use uuidx_core::clock::{Clock as _, SystemClock};
use uuidx_core::generator::{RollbackPolicy, V7Generator, V7Method};
use uuidx_core::random::ThreadRandom;
use uuidx_core::{layout, Uuid};

/// A reference version 7 generator with a mutex, RFC 9562 §6.2 Method 1 with a 42-bit counter
/// (CPython 3.14's layout): `(last_ms, counter)` under a lock; a new millisecond reseeds the
/// counter randomly with its top bit clear, the same or an earlier one increments it, and an
/// overflowing counter moves the millisecond on. The UUID is the counter's top 12 bits in
/// `rand_a`, its low 30 bits then 32 fresh random bits in `rand_b`.
///
/// It reads the clock and draws its randomness exactly as the lock-free generator does (128
/// bits per UUID, before synchronising), so that the comparison measures the synchronisation.
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

/// The thread counts measured unless `UUIDX_CONTENTION_THREADS` names others.
const THREADS: [usize; 5] = [1, 2, 4, 8, 16];
/// Rounds per thread count; each visits both generators once for throughput and once for
/// latency.
const ROUNDS: usize = 15;
/// UUIDs one visit makes, split between its threads.
const PER_VISIT: usize = 200_000;

/// Whether this is a real run (`cargo bench` passes `--bench`) or a check that the harness
/// works (`cargo test --benches`): one small round.
fn quick() -> bool {
    !std::env::args().any(|a| a == "--bench")
}

fn rounds() -> usize {
    if quick() {
        1
    } else {
        ROUNDS
    }
}

fn per_visit() -> usize {
    if quick() {
        PER_VISIT / 100
    } else {
        PER_VISIT
    }
}

/// Wall time per UUID, in ns, of `threads` threads making `per_visit()` UUIDs from a common
/// start; each thread checks that its UUIDs increase.
fn throughput(threads: usize, generate: &(dyn Fn() -> Uuid + Sync)) -> f64 {
    let per_thread = per_visit() / threads;
    let start = Barrier::new(threads);
    // From the first thread's start to the last one's end, each read by the worker itself: with
    // more threads than cores, workers run while the spawning thread waits to be scheduled.
    let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    let began = Instant::now();
                    let mut last = Uuid::NIL;
                    for _ in 0..per_thread {
                        let u = generate();
                        assert!(u > last, "{u} after {last}");
                        last = black_box(u);
                    }
                    (began, Instant::now())
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let began = spans.iter().map(|s| s.0).min().unwrap();
    let ended = spans.iter().map(|s| s.1).max().unwrap();
    (ended - began).as_nanos() as f64 / (per_thread * threads) as f64
}

/// The time of each call, in ns, of `threads` threads making `per_visit()` UUIDs.
fn latencies(threads: usize, generate: &(dyn Fn() -> Uuid + Sync), into: &mut Vec<u32>) {
    let per_thread = per_visit() / threads;
    let start = Barrier::new(threads);
    let samples: Vec<Vec<u32>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut times = Vec::with_capacity(per_thread);
                    start.wait();
                    for _ in 0..per_thread {
                        let t = Instant::now();
                        black_box(generate());
                        times.push(u32::try_from(t.elapsed().as_nanos()).unwrap_or(u32::MAX));
                    }
                    times
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    into.extend(samples.into_iter().flatten());
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// What one thread count gave.
struct Row {
    threads: usize,
    engine_ns: f64,
    mutex_ns: f64,
    /// Engine throughput ÷ mutex throughput, median of the per-round ratios.
    ratio: f64,
    /// p50, p99, p99.9 of a call, ns.
    engine_lat: [u32; 3],
    mutex_lat: [u32; 3],
}

fn measure(threads: usize) -> Row {
    let engine = V7Generator::new(
        V7Method::Counter { bits: 42 },
        uuidx_core::generator::DEFAULT_ROLLBACK_ALLOWANCE_NS,
        RollbackPolicy::Reset,
    )
    .unwrap();
    let mutex = MutexV7::new();
    let engine_fn = || engine.generate().unwrap();
    let mutex_fn = || mutex.generate();
    let (mut e_times, mut m_times, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut e_lat, mut m_lat) = (Vec::new(), Vec::new());
    // A warm-up visit each: threads, thread-local generators, page faults of the sample
    // buffers.
    throughput(threads, &engine_fn);
    throughput(threads, &mutex_fn);
    for round in 0..rounds() {
        let (e, m) = if round % 2 == 0 {
            let e = throughput(threads, &engine_fn);
            (e, throughput(threads, &mutex_fn))
        } else {
            let m = throughput(threads, &mutex_fn);
            (throughput(threads, &engine_fn), m)
        };
        e_times.push(e);
        m_times.push(m);
        ratios.push(m / e);
        if round % 2 == 0 {
            latencies(threads, &engine_fn, &mut e_lat);
            latencies(threads, &mutex_fn, &mut m_lat);
        } else {
            latencies(threads, &mutex_fn, &mut m_lat);
            latencies(threads, &engine_fn, &mut e_lat);
        }
    }
    e_lat.sort_unstable();
    m_lat.sort_unstable();
    let pcts = |v: &[u32]| [0.5, 0.99, 0.999].map(|p| percentile(v, p));
    Row {
        threads,
        engine_ns: median(e_times),
        mutex_ns: median(m_times),
        ratio: median(ratios),
        engine_lat: pcts(&e_lat),
        mutex_lat: pcts(&m_lat),
    }
}

/// The floor under one uncontended call: ns per 128-bit load + compare-and-swap (what the
/// lock-free generator pays) and per `Mutex` lock + unlock (what the reference pays), medians
/// of paired visits.
fn floor() -> (f64, f64) {
    let n: u32 = if quick() { 10_000 } else { 1_000_000 };
    let word = portable_atomic::AtomicU128::new(0);
    let lock = Mutex::new(0u128);
    let cas = || {
        let t = Instant::now();
        for _ in 0..n {
            let v = word.load(portable_atomic::Ordering::Acquire);
            black_box(word.compare_exchange_weak(
                v,
                v + 1,
                portable_atomic::Ordering::AcqRel,
                portable_atomic::Ordering::Acquire,
            ))
            .ok();
        }
        t.elapsed().as_nanos() as f64 / f64::from(n)
    };
    let mutex = || {
        let t = Instant::now();
        for _ in 0..n {
            *black_box(lock.lock().unwrap()) += 1;
        }
        t.elapsed().as_nanos() as f64 / f64::from(n)
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for round in 0..rounds() {
        if round % 2 == 0 {
            a.push(cas());
            b.push(mutex());
        } else {
            b.push(mutex());
            a.push(cas());
        }
    }
    (median(a), median(b))
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "MISSED"
    }
}

/// The thread counts of this run.
fn thread_counts() -> Vec<usize> {
    if let Ok(list) = std::env::var("UUIDX_CONTENTION_THREADS") {
        return list
            .split(',')
            .map(|t| match t.trim().parse() {
                Ok(n) if n > 0 => n,
                _ => panic!("UUIDX_CONTENTION_THREADS: {t:?} is not a thread count"),
            })
            .collect();
    }
    if quick() {
        vec![1, 2]
    } else {
        THREADS.to_vec()
    }
}

fn main() {
    let threads = &thread_counts();
    let rows: Vec<Row> = threads
        .iter()
        .map(|&t| {
            eprintln!("contention: {t} thread(s)...");
            measure(t)
        })
        .collect();
    let mut out = String::new();
    writeln!(
        out,
        "| threads | lock-free ns/UUID | Mutex ns/UUID | throughput lock-free ÷ Mutex | \
         p50 lock-free / Mutex (ns) | p99 | p99.9 | p99.9 lock-free ≤ Mutex |"
    )
    .unwrap();
    writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|").unwrap();
    for r in &rows {
        let [e50, e99, e999] = r.engine_lat;
        let [m50, m99, m999] = r.mutex_lat;
        // Goals: throughput at least the Mutex's at every thread count; a tail latency no
        // worse than the Mutex's wherever threads contend.
        let tail = if r.threads == 1 {
            "—".to_owned()
        } else {
            verdict(e999 <= m999).to_owned()
        };
        writeln!(
            out,
            "| {} | {:.1} | {:.1} | {:.2}× (≥ 1.0×: {}) | {e50} / {m50} | {e99} / {m99} | \
             {e999} / {m999} | {tail} |",
            r.threads,
            r.engine_ns,
            r.mutex_ns,
            r.ratio,
            verdict(r.ratio >= 1.0),
        )
        .unwrap();
    }
    let (cas, lock) = floor();
    writeln!(
        out,
        "\nFloor of one uncontended call: 128-bit load + compare-and-swap {cas:.1} ns, \
         Mutex lock + unlock {lock:.1} ns."
    )
    .unwrap();
    print!("{out}");
    if let Ok(path) = std::env::var("UUIDX_CONTENTION_JSON") {
        let rows: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{{\"threads\": {}, \"engine_ns\": {:.2}, \"mutex_ns\": {:.2}, \
                     \"ratio\": {:.4}, \"engine_latency_ns\": {:?}, \"mutex_latency_ns\": {:?}}}",
                    r.threads, r.engine_ns, r.mutex_ns, r.ratio, r.engine_lat, r.mutex_lat
                )
            })
            .collect();
        std::fs::write(
            &path,
            format!(
                "{{\"rows\": [{}], \"floor_cas_ns\": {cas:.2}, \"floor_mutex_ns\": {lock:.2}}}\n",
                rows.join(", ")
            ),
        )
        .unwrap();
    }
}
