//! Which generators are lock-free on the target the tests run on: the table of
//! docs/platforms.md, asserted per target. The 64-bit word (the default v7 layout and the other
//! v7 layouts whose key fits 64 bits) is lock-free on every target the crate builds for; the
//! 128-bit word (the wider v7 layouts, Method 2, `cpython`, v1 and v6) only where the processor
//! has a 128-bit compare-and-swap. Run it under qemu with `cargo test --target <triple> --test
//! lock_free` for the targets this machine cannot run.
#![allow(
    clippy::unnecessary_wraps,
    reason = "`wide_expected` has one signature on every target, and a row on most"
)]

use uuidx_core::generator::{
    process_wide_lock_free, GregorianGenerator, RollbackPolicy, V7Generator, V7Method,
};

const ALLOWANCE_NS: u64 = 10_000_000_000;

// Whether this target's 128-bit word must be lock-free, and the instruction that makes it so
// or the reason it is not; `None` for a 64-bit target the table does not list.
#[cfg(target_arch = "x86_64")]
fn wide_expected() -> Option<(bool, &'static str)> {
    Some(if std::arch::is_x86_feature_detected!("cmpxchg16b") {
        (true, "x86-64 with cmpxchg16b")
    } else {
        (false, "x86-64 without cmpxchg16b")
    })
}

#[cfg(target_arch = "aarch64")]
fn wide_expected() -> Option<(bool, &'static str)> {
    Some((true, "aarch64: ldxp/stxp or casp"))
}

#[cfg(all(target_arch = "powerpc64", target_endian = "little"))]
fn wide_expected() -> Option<(bool, &'static str)> {
    Some((true, "powerpc64le (POWER8): lqarx/stqcx."))
}

#[cfg(target_arch = "s390x")]
fn wide_expected() -> Option<(bool, &'static str)> {
    Some((true, "s390x: cdsg"))
}

#[cfg(any(target_arch = "arm", target_arch = "x86"))]
fn wide_expected() -> Option<(bool, &'static str)> {
    Some((false, "32-bit arm or x86: no 128-bit compare-and-swap"))
}

#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "powerpc64", target_endian = "little"),
    target_arch = "s390x",
    target_arch = "arm",
    target_arch = "x86",
)))]
fn wide_expected() -> Option<(bool, &'static str)> {
    cfg!(target_pointer_width = "32")
        .then_some((false, "a 32-bit target: no 128-bit compare-and-swap"))
}

/// A v7 generator of `method`, with a node of `node_bits` bits when that is not 0.
fn v7(method: V7Method, node_bits: u32) -> V7Generator {
    let g = V7Generator::new(method, ALLOWANCE_NS, RollbackPolicy::Reset).unwrap();
    if node_bits == 0 {
        g
    } else {
        g.with_node(1, node_bits).unwrap()
    }
}

/// A generator of every v7 method, with and without a node, and the width of its state (64:
/// the word).
fn v7_layouts() -> Vec<(V7Generator, u32)> {
    use V7Method::{CPython, Counter, MonotonicRandom, SubMillisecond};
    vec![
        (v7(V7Method::DEFAULT, 0), 64),
        (v7(V7Method::DEFAULT, 8), 64),
        (v7(V7Method::POSTGRESQL, 0), 64),
        (v7(SubMillisecond { counter_bits: 11 }, 0), 128),
        (v7(SubMillisecond { counter_bits: 30 }, 0), 128),
        (v7(Counter { bits: 12 }, 0), 64),
        (v7(Counter { bits: 22 }, 4), 64),
        (v7(Counter { bits: 23 }, 0), 128),
        (v7(Counter { bits: 42 }, 0), 128),
        (v7(MonotonicRandom { increment_bits: 1 }, 0), 128),
        (v7(MonotonicRandom { increment_bits: 32 }, 0), 128),
        (v7(CPython, 0), 128),
    ]
}

#[test]
fn the_64_bit_word_is_lock_free_on_every_target() {
    for (g, bits) in v7_layouts().into_iter().filter(|l| l.1 == 64) {
        assert_eq!(g.state_bits(), bits, "{:?}", g.method());
        assert!(
            g.is_lock_free(),
            "{:?} with node {:?}",
            g.method(),
            g.node()
        );
    }
    assert_eq!(process_wide_lock_free()[0], ("uuid7", true));
}

#[test]
fn every_generator_matches_the_target_table() {
    let Some((wide, why)) = wide_expected() else {
        eprintln!("no table entry for this target: only the 64-bit word is checked");
        return;
    };
    for (g, bits) in v7_layouts() {
        assert_eq!(g.state_bits(), bits, "{:?}", g.method());
        let expected = bits == 64 || wide;
        assert_eq!(g.is_lock_free(), expected, "{:?} ({why})", g.method());
    }
    for version in [1, 6] {
        let g = GregorianGenerator::new(version, None, ALLOWANCE_NS, RollbackPolicy::Reset);
        assert_eq!(g.unwrap().is_lock_free(), wide, "v{version} ({why})");
    }
    assert_eq!(
        process_wide_lock_free(),
        [("uuid7", true), ("uuid6", wide), ("uuid1", wide)],
        "{why}"
    );
}

#[test]
fn a_generator_that_is_not_lock_free_still_generates_in_order() {
    // Where the 128-bit word takes portable-atomic's lock (32-bit targets), the wide layouts
    // and v1/v6 are still strictly monotonic across threads. Few UUIDs per thread: under
    // qemu-user, 16,000 from two contended 128-bit words (ppc64le's lqarx/stqcx.) ran for
    // over five minutes.
    let g = V7Generator::new(
        V7Method::Counter { bits: 42 },
        ALLOWANCE_NS,
        RollbackPolicy::Reset,
    )
    .unwrap();
    let v6 = GregorianGenerator::new(6, None, ALLOWANCE_NS, RollbackPolicy::Reset).unwrap();
    let runs: Vec<(Vec<u128>, Vec<u128>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    (0..300)
                        .map(|_| {
                            (
                                g.generate().unwrap().as_u128(),
                                v6.generate().unwrap().as_u128(),
                            )
                        })
                        .unzip()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all7: Vec<u128> = Vec::new();
    let mut all6: Vec<u128> = Vec::new();
    for (v7s, v6s) in runs {
        assert!(v7s.windows(2).all(|w| w[0] < w[1]));
        assert!(v6s.windows(2).all(|w| w[0] < w[1]));
        all7.extend(v7s);
        all6.extend(v6s);
    }
    for all in [&mut all7, &mut all6] {
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a UUID was handed out twice");
    }
}
