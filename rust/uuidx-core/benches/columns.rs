//! Criterion benchmarks of the column kernels (`uuidx_core::column`) over 100,000 rows, and of
//! the bulk generators they sit beside: the floors under `uuidx.arrow`'s Python figures.
//!
//! `cargo bench -p uuidx-core --bench columns -- --warm-up-time 1 --measurement-time 2`
//!
//! These are measurements, not assertions: nothing here fails on a slow machine.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use uuidx_core::column::{self, OnError};
use uuidx_core::encoding::Encoding;
use uuidx_core::generator::GLOBAL_V7;
use uuidx_core::name::{Algorithm, NAMESPACE_URL};
use uuidx_core::{layout, Uuid};

const ROWS: usize = 100_000;

fn kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("column");
    group.throughput(Throughput::Elements(ROWS as u64));
    let mut records = vec![0u8; 16 * ROWS];
    let mut valid = vec![false; ROWS];

    group.bench_function("v4 fill", |b| {
        b.iter(|| layout::v4::fill_bytes(black_box(&mut records)));
    });
    group.bench_function("v7 fill", |b| {
        b.iter(|| GLOBAL_V7.fill_bytes(black_box(&mut records)));
    });

    let uuids: Vec<Uuid> = column::records(&records).collect();
    let mut text = vec![0u8; 36 * ROWS];
    group.bench_function("hyphenated", |b| {
        b.iter(|| {
            column::encode(
                uuids.iter().map(|&u| Some(u)),
                Encoding::Hyphenated,
                &mut text,
                &mut valid,
                column::run_to_end,
            )
        });
    });
    group.bench_function("parse", |b| {
        b.iter(|| {
            column::parse(
                text.chunks(36).map(Some),
                &mut records,
                &mut valid,
                OnError::Raise,
                column::run_to_end,
            )
        });
    });

    let names: Vec<String> = (0..ROWS).map(|i| format!("user-{i}@example.com")).collect();
    group.bench_function("name_based v5, short names", |b| {
        b.iter(|| {
            column::name_based(
                NAMESPACE_URL,
                Algorithm::Sha1,
                names.iter().map(|n| Some(n.as_bytes())),
                &mut records,
                &mut valid,
                column::run_to_end,
            )
        });
    });

    let mut times = vec![0i64; ROWS];
    group.bench_function("timestamps_ns", |b| {
        b.iter(|| {
            column::timestamps_ns(
                uuids.iter().map(|&u| Some(u)),
                &mut times,
                &mut valid,
                OnError::Raise,
                column::run_to_end,
            )
        });
    });
    group.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
