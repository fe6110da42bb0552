//! The v7 generator's engines against a mutex doing the same step, on 1, 2, 4, 8 and 16
//! threads sharing one generator: RFC 9562 §6.2 Method 3 (a 12-bit sub-millisecond fraction)
//! and a 10-bit counter seeded randomly each tick, the same clock and the same randomness per
//! UUID. Three designs: `word` (the default generator: one 64-bit word, `fetch_add`), `cas128`
//! (the 128-bit compare-and-swap engine, Method 3 with an 11-bit counter, the nearest layout it
//! keeps) and `mutex` (a `std::sync::Mutex` around the same state as `word`).
//!
//! `cargo bench -p uuidx-core --bench contention` (or `make bench-contention`). Two methods:
//!
//! - *Bursts* (the honest one for contention): the threads stay alive, spin on a shared flag
//!   that the last of them to arrive raises, and start a burst of calls together, each call timed with `Instant`. A burst counts only
//!   if every thread was running at once: the latest thread to start started before the
//!   earliest to finish finished (on a machine with fewer cores than threads, or under load,
//!   many bursts are time-sliced and dropped; the table says how many were kept). ns/op is a
//!   kept burst's wall time over its calls; p50/p99/p99.9 are of the calls of kept bursts.
//! - *Loops*: each thread makes its share of a batch in a plain loop; the batch's wall time
//!   per UUID. With more threads than cores, threads are time-sliced, not concurrent.
//!
//! Designs are visited in rotating order within each round, so that a noisy stretch of the
//! machine weighs on all. With `UUIDX_CONTENTION_JSON=path` the figures are also written
//! there as JSON (for `benches/rust_bench.py`); `UUIDX_CONTENTION_THREADS=1,2,4` sets the
//! thread counts.
//!
//! These are measurements, not assertions: nothing here fails on a slow machine.

// Nanosecond counts and sample indices are far below 2^52.
#![allow(clippy::cast_precision_loss, clippy::cast_sign_loss)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Instant;
use uuidx_core::clock::{Clock as _, SystemClock};
use uuidx_core::generator::{RollbackPolicy, V7Generator, V7Method};
use uuidx_core::random::ThreadRandom;
use uuidx_core::{layout, Uuid};

/// The reference: RFC 9562 §6.2 Method 3 with a 10-bit counter under a `Mutex`: `(tick,
/// counter)`, a tick being a millisecond and 12 bits of its fraction; a newer tick reseeds the
/// counter randomly with its top bit clear, the same or an older one increments it, carrying
/// into the tick. It reads the clock and draws its randomness as the default generator does
/// (64 bits per UUID, before synchronising), so that the comparison measures the
/// synchronisation.
struct MutexV7 {
    state: Mutex<u64>,
}

impl MutexV7 {
    const COUNTER_BITS: u32 = 10;

    fn new() -> Self {
        Self {
            state: Mutex::new(0),
        }
    }

    fn generate(&self) -> Uuid {
        let ns = SystemClock.now_unix_ns().unwrap_or(0);
        let tick = ((ns / 1_000_000) << 12) | (((ns % 1_000_000) << 12) / 1_000_000);
        let entropy = ThreadRandom.u64();
        let seed = (entropy >> 52) & ((1 << (Self::COUNTER_BITS - 1)) - 1);
        let key = {
            let mut last = self.state.lock().unwrap();
            *last = if tick > *last >> Self::COUNTER_BITS {
                (tick << Self::COUNTER_BITS) | seed
            } else {
                *last + 1
            };
            *last
        };
        // 48 bits of milliseconds, 12 of fraction, 10 of counter, 52 random.
        let packed = (u128::from(key) << 52) | u128::from(entropy & ((1 << 52) - 1));
        layout::v7::new(
            (packed >> 74) as u64,
            ((packed >> 62) & 0xFFF) as u64,
            packed as u64 & ((1 << 62) - 1),
        )
        .unwrap()
    }
}

/// The thread counts measured unless `UUIDX_CONTENTION_THREADS` names others.
const THREADS: [usize; 5] = [1, 2, 4, 8, 16];
/// Rounds per thread count; each visits every design once per method.
const ROUNDS: usize = 15;
/// UUIDs one loop visit makes, split between its threads.
const PER_VISIT: usize = 200_000;
/// Calls per thread in one burst, and bursts per design in one round.
const BURST: usize = 200;
const BURSTS: usize = 40;

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

/// The designs, by name.
const DESIGNS: [&str; 3] = ["word", "cas128", "mutex"];

/// The three generators of one thread count.
struct Designs {
    word: V7Generator,
    cas128: V7Generator,
    mutex: MutexV7,
}

impl Designs {
    fn new() -> Self {
        let allowance = uuidx_core::generator::DEFAULT_ROLLBACK_ALLOWANCE_NS;
        Self {
            word: V7Generator::new(V7Method::DEFAULT, allowance, RollbackPolicy::Reset).unwrap(),
            cas128: V7Generator::new(
                V7Method::SubMillisecond { counter_bits: 11 },
                allowance,
                RollbackPolicy::Reset,
            )
            .unwrap(),
            mutex: MutexV7::new(),
        }
    }

    fn call(&self, design: usize) -> Uuid {
        match design {
            0 => self.word.generate().unwrap(),
            1 => self.cas128.generate().unwrap(),
            _ => self.mutex.generate(),
        }
    }
}

/// Wall time per UUID, in ns, of `threads` threads making `PER_VISIT` UUIDs in plain loops
/// from a common start; each thread checks that its UUIDs increase.
fn loops(threads: usize, d: &Designs, design: usize) -> f64 {
    let per_thread = if quick() { PER_VISIT / 100 } else { PER_VISIT } / threads;
    let start = Barrier::new(threads);
    let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    let began = Instant::now();
                    let mut last = Uuid::NIL;
                    for _ in 0..per_thread {
                        let u = d.call(design);
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

/// What the bursts of one design gave.
#[derive(Default)]
struct Bursts {
    /// ns per UUID of each kept burst.
    per_op: Vec<f64>,
    /// The time of each call of the kept bursts, ns.
    calls: Vec<u32>,
    kept: usize,
    tried: usize,
}

/// `BURSTS` bursts of `threads` threads started by a spinning flag; keeps those in which all
/// threads ran at once.
fn bursts(threads: usize, d: &Designs, design: usize, into: &mut Bursts) {
    let go = AtomicUsize::new(0);
    let ready = AtomicUsize::new(0);
    let bursts = if quick() { 2 } else { BURSTS };
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::with_capacity(bursts);
                    let mut times = vec![0u32; BURST];
                    for burst in 1..=bursts {
                        // The last thread to arrive starts the burst: no other thread spins
                        // for a CPU the workers need.
                        if ready.fetch_add(1, Ordering::AcqRel) + 1 == burst * threads {
                            go.store(burst, Ordering::Release);
                        }
                        while go.load(Ordering::Acquire) != burst {
                            std::hint::spin_loop();
                        }
                        let began = Instant::now();
                        for t in &mut times {
                            let c = Instant::now();
                            black_box(d.call(design));
                            *t = u32::try_from(c.elapsed().as_nanos()).unwrap_or(u32::MAX);
                        }
                        out.push((began, Instant::now(), times.clone()));
                    }
                    out
                })
            })
            .collect();
        let results: Vec<Vec<(Instant, Instant, Vec<u32>)>> =
            workers.into_iter().map(|w| w.join().unwrap()).collect();
        for b in 0..bursts {
            into.tried += 1;
            let last_start = results.iter().map(|r| r[b].0).max().unwrap();
            let first_end = results.iter().map(|r| r[b].1).min().unwrap();
            if last_start >= first_end {
                continue; // time-sliced: some thread ran only after another had finished
            }
            into.kept += 1;
            let began = results.iter().map(|r| r[b].0).min().unwrap();
            let ended = results.iter().map(|r| r[b].1).max().unwrap();
            into.per_op
                .push((ended - began).as_nanos() as f64 / (threads * BURST) as f64);
            for r in &results {
                into.calls.extend_from_slice(&r[b].2);
            }
        }
    });
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One design at one thread count.
struct Figures {
    /// Loops: median ns per UUID; median ratio to the mutex within a round.
    loop_ns: f64,
    loop_vs_mutex: f64,
    /// Bursts: median ns per UUID; p50, p99, p99.9 of a call; bursts kept of tried.
    burst_ns: f64,
    burst_vs_mutex: f64,
    latency: [u32; 3],
    kept: usize,
    tried: usize,
}

fn measure(threads: usize) -> Vec<Figures> {
    let d = Designs::new();
    let mut loop_times: Vec<Vec<f64>> = vec![Vec::new(); 3];
    let mut loop_ratios: Vec<Vec<f64>> = vec![Vec::new(); 3];
    let mut burst_ratios: Vec<Vec<f64>> = vec![Vec::new(); 3];
    let mut burst: Vec<Bursts> = (0..3).map(|_| Bursts::default()).collect();
    for design in 0..3 {
        loops(threads, &d, design); // warm-up
    }
    for round in 0..rounds() {
        let mut times = [0.0; 3];
        let mut burst_medians = [0.0; 3];
        for i in 0..3 {
            let design = (round + i) % 3;
            times[design] = loops(threads, &d, design);
            let mut b = Bursts::default();
            bursts(threads, &d, design, &mut b);
            burst_medians[design] = median(b.per_op.clone());
            let into = &mut burst[design];
            into.per_op.extend(b.per_op);
            into.calls.extend(b.calls);
            into.kept += b.kept;
            into.tried += b.tried;
        }
        for design in 0..3 {
            loop_times[design].push(times[design]);
            loop_ratios[design].push(times[design] / times[2]);
            if burst_medians[design].is_finite() && burst_medians[2].is_finite() {
                burst_ratios[design].push(burst_medians[design] / burst_medians[2]);
            }
        }
    }
    (0..3)
        .map(|design| {
            let b = &mut burst[design];
            b.calls.sort_unstable();
            Figures {
                loop_ns: median(loop_times[design].clone()),
                loop_vs_mutex: median(loop_ratios[design].clone()),
                burst_ns: median(b.per_op.clone()),
                burst_vs_mutex: median(burst_ratios[design].clone()),
                latency: [0.5, 0.99, 0.999].map(|p| percentile(&b.calls, p)),
                kept: b.kept,
                tried: b.tried,
            }
        })
        .collect()
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
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = thread_counts();
    let mut out = String::new();
    writeln!(
        out,
        "{cores} CPUs available. Bursts: threads started together by a spinning flag, kept only \
         when all ran at once; loops: plain loops (time-sliced when threads outnumber CPUs).\n"
    )
    .unwrap();
    writeln!(
        out,
        "| threads | design | bursts ns/UUID | ÷ mutex | p50 / p99 / p99.9 ns | bursts kept | \
         loops ns/UUID | ÷ mutex |"
    )
    .unwrap();
    writeln!(out, "|---:|---|---:|---:|---:|---:|---:|---:|").unwrap();
    let mut json_rows = Vec::new();
    for &t in &threads {
        eprintln!("contention: {t} thread(s)...");
        let figures = measure(t);
        let note = if t > cores {
            " (more threads than CPUs)"
        } else {
            ""
        };
        for (design, f) in figures.iter().enumerate() {
            let [p50, p99, p999] = f.latency;
            // No burst kept (threads outnumber CPUs, or a busy machine): no burst figures.
            let (burst_ns, vs_mutex, latency) = if f.kept == 0 {
                ("—".to_owned(), "—".to_owned(), "—".to_owned())
            } else {
                (
                    format!("{:.1}", f.burst_ns),
                    format!("{:.2}×", f.burst_vs_mutex),
                    format!("{p50} / {p99} / {p999}"),
                )
            };
            writeln!(
                out,
                "| {t}{note} | {} | {burst_ns} | {vs_mutex} | {latency} | {} of {} | {:.1} | \
                 {:.2}× |",
                DESIGNS[design], f.kept, f.tried, f.loop_ns, f.loop_vs_mutex,
            )
            .unwrap();
            json_rows.push(format!(
                "{{\"threads\": {t}, \"design\": \"{}\", \"burst_ns\": {:.2}, \
                 \"burst_vs_mutex\": {:.4}, \"latency_ns\": {:?}, \"kept\": {}, \"tried\": {}, \
                 \"loop_ns\": {:.2}, \"loop_vs_mutex\": {:.4}}}",
                DESIGNS[design],
                f.burst_ns,
                f.burst_vs_mutex,
                f.latency,
                f.kept,
                f.tried,
                f.loop_ns,
                f.loop_vs_mutex
            ));
        }
    }
    print!("{out}");
    if let Ok(path) = std::env::var("UUIDX_CONTENTION_JSON") {
        std::fs::write(
            &path,
            format!(
                "{{\"cpus\": {cores}, \"rows\": [{}]}}\n",
                json_rows.join(", ").replace("NaN", "null")
            ),
        )
        .unwrap();
    }
}
