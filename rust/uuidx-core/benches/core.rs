//! Criterion benchmarks of the core hot paths: parsing and formatting (RFC 9562 §4), the
//! named encodings and TypeIDs,
//! name-based hashing (§5.3, §5.5, Appendix B.2), v4 (§5.4) and v7 (§5.7) generation. The
//! lock-free generator under contention, against a mutex-based reference: `benches/contention.rs`.
//!
//! `cargo bench -p uuidx-core --bench core -- --warm-up-time 1 --measurement-time 2`
//!
//! These are measurements, not assertions: nothing here fails on a slow machine.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use uuidx_core::encoding::hex;
use uuidx_core::encoding::Encoding;
use uuidx_core::generator::{RollbackPolicy, V7Generator, V7Method, GLOBAL_V7};
use uuidx_core::name::{self, Algorithm};
use uuidx_core::random::ThreadRandom;
use uuidx_core::typeid;
use uuidx_core::{layout, parse};

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
        b.iter(|| hex::hyphenated(black_box(u), false));
    });
    group.finish();
}

/// Encoding into a stack buffer (no allocation, as bindings filling a column do) and decoding,
/// for every named encoding, then TypeIDs.
fn encodings(c: &mut Criterion) {
    let u = parse::parse(HYPHENATED).unwrap();
    let mut group = c.benchmark_group("encoding");
    for e in Encoding::ALL {
        group.bench_function(format!("encode/{e}"), |b| {
            let mut buf = [0u8; Encoding::MAX_LEN];
            b.iter(|| {
                black_box(e).encode_into(black_box(u), &mut buf);
                black_box(&buf);
            });
        });
        let text = e.encode(u);
        group.bench_function(format!("decode/{e}"), |b| {
            b.iter(|| black_box(e).decode(black_box(&text)));
        });
    }
    let text = typeid::typeid("user", u).unwrap();
    group.bench_function("encode/typeid", |b| {
        let mut buf = [0u8; typeid::MAX_LEN];
        b.iter(|| {
            let n = typeid::typeid_into(black_box("user"), black_box(u), &mut buf).unwrap();
            black_box(&buf[..n]);
        });
    });
    group.bench_function("decode/typeid", |b| {
        b.iter(|| typeid::parse_typeid(black_box(&text)));
    });
    group.finish();
}

/// The core beside the `uuid` crate (a dev-dependency only), operation by operation, in the
/// same run: each pair is a group with `uuidx` and `uuid` entries.
fn versus_uuid_crate(c: &mut Criterion) {
    let forms = [
        ("parse_hyphenated", HYPHENATED.to_owned()),
        ("parse_simple", SIMPLE.to_owned()),
        ("parse_braced", format!("{{{HYPHENATED}}}")),
        ("parse_urn", URN.to_owned()),
    ];
    for (name, text) in &forms {
        let mut group = c.benchmark_group(format!("vs/{name}"));
        group.bench_function("uuidx", |b| b.iter(|| parse::parse(black_box(text))));
        group.bench_function("uuid", |b| {
            b.iter(|| uuid::Uuid::parse_str(black_box(text)));
        });
        group.finish();
    }
    let value = parse::parse(HYPHENATED).unwrap();
    let theirs = uuid::Uuid::from_u128(value.as_u128());
    let mut group = c.benchmark_group("vs/format_hyphenated");
    group.bench_function("uuidx", |b| {
        b.iter(|| hex::hyphenated(black_box(value), false));
    });
    group.bench_function("uuid", |b| {
        let mut buf = [0u8; 36];
        b.iter(|| {
            black_box(black_box(theirs).hyphenated().encode_lower(&mut buf));
        });
    });
    group.finish();
    let mut group = c.benchmark_group("vs/v4");
    group.bench_function("uuidx", |b| b.iter(layout::v4::new));
    group.bench_function("uuid", |b| b.iter(uuid::Uuid::new_v4));
    group.finish();
    let node = [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46];
    let node_value = 0x9F6B_DECE_D846;
    for (name, version) in [("v1", 1), ("v6", 6)] {
        let mut group = c.benchmark_group(format!("vs/{name}"));
        let ours = if version == 1 {
            &uuidx_core::generator::GLOBAL_V1
        } else {
            &uuidx_core::generator::GLOBAL_V6
        };
        group.bench_function("uuidx", |b| {
            b.iter(|| ours.generate_with(Some(node_value), None));
        });
        if version == 1 {
            group.bench_function("uuid", |b| b.iter(|| uuid::Uuid::now_v1(black_box(&node))));
        } else {
            group.bench_function("uuid", |b| b.iter(|| uuid::Uuid::now_v6(black_box(&node))));
        }
        group.finish();
    }
    let mut group = c.benchmark_group("vs/v7");
    group.bench_function("uuidx", |b| b.iter(|| GLOBAL_V7.generate()));
    group.bench_function("uuid", |b| b.iter(uuid::Uuid::now_v7));
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
    // What the `uuid` crate's v1 and v6 synchronise with instead: one 16-bit fetch-and-add of
    // the clock sequence (its timestamps are not kept monotonic).
    let counter = std::sync::atomic::AtomicU16::new(0);
    c.bench_function("atomic/u16_fetch_add", |b| {
        b.iter(|| black_box(counter.fetch_add(1, std::sync::atomic::Ordering::AcqRel)));
    });
    c.bench_function("clock/system_now", |b| {
        b.iter(|| uuidx_core::clock::Clock::now_unix_ns(&uuidx_core::clock::SystemClock));
    });
}

criterion_group!(
    benches,
    parse_and_format,
    versus_uuid_crate,
    encodings,
    name_based,
    random_and_time_based
);
criterion_main!(benches);
