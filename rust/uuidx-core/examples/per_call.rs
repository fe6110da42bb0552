//! One operation of the core, called in a loop: the program `benches/rust_instructions.py`
//! runs under `valgrind --tool=callgrind` (instructions per call) and times in paired visits.
//!
//! `per_call <operation> <calls> [time]`: makes `calls` calls of the operation; with `time`,
//! prints the nanoseconds per call. The operations are the names in [`OPERATIONS`].

use std::hint::black_box;
use std::sync::LazyLock;
use std::time::Instant;
use uuidx_core::generator::{
    RollbackPolicy, V7Generator, V7Method, GLOBAL_V1, GLOBAL_V6, GLOBAL_V7,
};

/// The operations, by name: uuidx's, then the `uuid` crate's of the same job.
const OPERATIONS: [&str; 11] = [
    "GLOBAL_V7.generate",
    "Uuid::now_v7",
    "V7 counter/42.generate",
    "V7 submillisecond/14.generate",
    "V7 monotonic_random/32.generate",
    "GLOBAL_V6.generate",
    "Uuid::now_v6",
    "GLOBAL_V1.generate",
    "Uuid::now_v1",
    "parse 32 hex",
    "Uuid::parse_str 32 hex",
];

const HEX: &str = "a8098c1af86e11dabd1a00112444be1e";
const NODE: [u8; 6] = [1, 2, 3, 4, 5, 6];

/// A generator of one of the layouts on the 128-bit engine, as `uuidx.V7Generator` makes it.
fn wide(method: V7Method) -> V7Generator {
    V7Generator::new(method, 10_000_000_000, RollbackPolicy::Reset).unwrap()
}

static COUNTER_42: LazyLock<V7Generator> = LazyLock::new(|| wide(V7Method::Counter { bits: 42 }));
static SUBMS_14: LazyLock<V7Generator> =
    LazyLock::new(|| wide(V7Method::SubMillisecond { counter_bits: 14 }));
static MONOTONIC_32: LazyLock<V7Generator> =
    LazyLock::new(|| wide(V7Method::MonotonicRandom { increment_bits: 32 }));

fn run(op: &str, calls: u64) {
    match op {
        "GLOBAL_V7.generate" => (0..calls).for_each(|_| {
            black_box(GLOBAL_V7.generate().unwrap());
        }),
        "Uuid::now_v7" => (0..calls).for_each(|_| {
            black_box(uuid::Uuid::now_v7());
        }),
        "V7 counter/42.generate" => (0..calls).for_each(|_| {
            black_box(COUNTER_42.generate().unwrap());
        }),
        "V7 submillisecond/14.generate" => (0..calls).for_each(|_| {
            black_box(SUBMS_14.generate().unwrap());
        }),
        "V7 monotonic_random/32.generate" => (0..calls).for_each(|_| {
            black_box(MONOTONIC_32.generate().unwrap());
        }),
        "GLOBAL_V6.generate" => (0..calls).for_each(|_| {
            black_box(GLOBAL_V6.generate().unwrap());
        }),
        "Uuid::now_v6" => (0..calls).for_each(|_| {
            black_box(uuid::Uuid::now_v6(&NODE));
        }),
        "GLOBAL_V1.generate" => (0..calls).for_each(|_| {
            black_box(GLOBAL_V1.generate().unwrap());
        }),
        "Uuid::now_v1" => (0..calls).for_each(|_| {
            black_box(uuid::Uuid::now_v1(&NODE));
        }),
        "parse 32 hex" => (0..calls).for_each(|_| {
            black_box(uuidx_core::parse::parse(black_box(HEX)).unwrap());
        }),
        "Uuid::parse_str 32 hex" => (0..calls).for_each(|_| {
            black_box(uuid::Uuid::parse_str(black_box(HEX)).unwrap());
        }),
        _ => {
            eprintln!("unknown operation {op:?}; one of {OPERATIONS:?}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: per_call <operation> <calls> [time]; operations: {OPERATIONS:?}");
        std::process::exit(2);
    }
    let calls: u64 = args[2].parse().expect("a number of calls");
    let timed = args.get(3).map(String::as_str) == Some("time");
    // A warm-up call: the thread's random generator, the process node, page faults.
    run(&args[1], 1);
    let start = Instant::now();
    run(&args[1], calls);
    if timed {
        #[allow(clippy::cast_precision_loss)]
        let ns = start.elapsed().as_nanos() as f64 / calls as f64;
        println!("{ns:.2}");
    }
}
