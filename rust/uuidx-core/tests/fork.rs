//! Fork handling, in a test binary of its own: `note_fork` changes process-wide state that the
//! unit tests' generators watch. The tests run one at a time. Unix only: it forks for real
//! (except under Miri, which runs the simulated forks only).
#![cfg(unix)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use uuidx_core::clock::ManualClock;
use uuidx_core::fork;
use uuidx_core::generator::deterministic::{self, StandIn};
use uuidx_core::generator::{
    self as generator, GregorianGenerator, RollbackPolicy, V7Generator, V7Method, GLOBAL_V7,
};
use uuidx_core::layout::{self, split};
use uuidx_core::random::{self, ScriptedRandom, ThreadRandom};
use uuidx_core::Uuid;

const NOW: u64 = 1_645_557_742_000_000_000;

fn counter_after_simulated_fork() {
    // Method 1, 12 bits, a frozen clock and a scripted source: every step is 1, except the
    // first after a fork, which adds the random jump (the scripted word & 0x7FF = 5).
    let generator = V7Generator::with_sources(
        V7Method::Counter { bits: 12 },
        10_000_000_000,
        RollbackPolicy::Error,
        ManualClock::new(NOW),
        ScriptedRandom::new(vec![5]),
    )
    .unwrap();
    let counter = |u: Uuid| split(u).1;
    let first = generator.generate().unwrap();
    let second = generator.generate().unwrap();
    assert_eq!(counter(second) - counter(first), 1);
    fork::note_fork();
    let third = generator.generate().unwrap();
    assert_eq!(
        counter(third) - counter(second),
        1 + 5,
        "the child jumps ahead"
    );
    let fourth = generator.generate().unwrap();
    assert_eq!(counter(fourth) - counter(third), 1, "only once per fork");
}

fn clock_seq_and_node_after_simulated_fork() {
    let g = GregorianGenerator::with_sources(
        1,
        None,
        10_000_000_000,
        RollbackPolicy::Error,
        Arc::new(ManualClock::new(NOW)),
        ScriptedRandom::new(vec![0x1111, 0x2222]),
    )
    .unwrap();
    let (t0, s0) = g.next_timestamp().unwrap();
    let node = random::process_node();
    fork::note_fork();
    let (t1, s1) = g.next_timestamp().unwrap();
    assert_eq!((t1, s0), (t0 + 1, 0x1111));
    assert_eq!(s1, 0x2222, "a child draws a new clock sequence");
    assert_ne!(random::process_node(), node, "a child draws a new node");
    assert_eq!(g.next_timestamp().unwrap().1, s1, "and keeps it");
}

fn note_fork_once_counts_once_per_process() {
    let before = fork::fork_epoch();
    fork::note_fork_once();
    fork::note_fork_once();
    assert_eq!(fork::fork_epoch(), before + 1);
}

/// Forks for real: the child runs `child` and writes its bytes to a pipe, then `_exit`s; the
/// parent reads `len` bytes and checks that the child exited cleanly.
fn in_child(len: usize, child: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
    let mut fds = [0i32; 2];
    // SAFETY: a pipe and a fork; the child only runs `child`, writes and `_exit`s.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = libc::fork();
        assert!(pid >= 0);
        if pid == 0 {
            let out = child();
            let written = libc::write(fds[1], out.as_ptr().cast(), out.len());
            libc::_exit(i32::from(usize::try_from(written) != Ok(out.len())));
        }
        libc::close(fds[1]);
        let mut buf = vec![0u8; len];
        let mut got = 0;
        while got < buf.len() {
            let n = libc::read(fds[0], buf[got..].as_mut_ptr().cast(), buf.len() - got);
            assert!(n > 0, "the child wrote too little");
            got += usize::try_from(n).expect("positive");
        }
        libc::close(fds[0]);
        let mut status = 0;
        libc::waitpid(pid, &raw mut status, 0);
        assert_eq!(status, 0, "the child failed");
        buf
    }
}

/// A real `fork()`: the child's v7 stream continues after the parent's last value, its random
/// values and node differ from the parent's.
fn real_fork() {
    let last = GLOBAL_V7.generate().unwrap();
    let parent_node = random::process_node();
    let buf = in_child(100 * 32 + 16, || {
        let mut out = Vec::new();
        for _ in 0..100 {
            out.extend_from_slice(&GLOBAL_V7.generate().unwrap().to_bytes());
            out.extend_from_slice(&layout::v4::new().to_bytes());
        }
        out.extend_from_slice(&random::process_node().to_be_bytes());
        out.extend_from_slice(&ThreadRandom.u64().to_be_bytes());
        out
    });
    let mine: Vec<Uuid> = (0..100).map(|_| GLOBAL_V7.generate().unwrap()).collect();
    let mine4: Vec<Uuid> = (0..100).map(|_| layout::v4::new()).collect();
    let child: Vec<Uuid> = buf[..3200]
        .chunks(32)
        .map(|r| Uuid::from_slice(&r[..16]).unwrap())
        .collect();
    let child4: Vec<Uuid> = buf[..3200]
        .chunks(32)
        .map(|r| Uuid::from_slice(&r[16..]).unwrap())
        .collect();
    assert!(child[0] > last && child.windows(2).all(|w| w[0] < w[1]));
    assert!(child.iter().all(|u| !mine.contains(u)));
    assert!(child4.iter().all(|u| !mine4.contains(u)));
    let child_node = u64::from_be_bytes(buf[3200..3208].try_into().unwrap());
    assert_ne!(child_node, parent_node);
    let child_word = u64::from_be_bytes(buf[3208..].try_into().unwrap());
    assert_ne!(child_word, ThreadRandom.u64());
}

/// A real `fork()` whose child's first v1 call fails (its clock went back beyond the
/// allowance under the error policy): its first successful call must still draw a new clock
/// sequence, not keep the parent's.
fn real_fork_with_a_failing_first_step() {
    let clock = Arc::new(ManualClock::new(NOW));
    let g = GregorianGenerator::with_sources(
        1,
        Some(7),
        1_000_000_000,
        RollbackPolicy::Error,
        Arc::clone(&clock),
        ThreadRandom,
    )
    .unwrap();
    let (_, parent_seq) = g.next_timestamp().unwrap();
    let buf = in_child(8, || {
        clock.rewind(5_000_000_000);
        let failed = g.next_timestamp().is_err();
        clock.advance(10_000_000_000);
        let mut out = u16::from(failed).to_be_bytes().to_vec();
        for _ in 0..3 {
            let seq = g.next_timestamp().map_or(u16::MAX, |t| t.1);
            out.extend_from_slice(&seq.to_be_bytes());
        }
        out
    });
    let word = |i: usize| u16::from_be_bytes([buf[2 * i], buf[2 * i + 1]]);
    assert_eq!(word(0), 1, "the child's first call should fail");
    assert_ne!(
        word(1),
        parent_seq,
        "the child kept its parent's clock sequence"
    );
    assert!(word(1) < 1 << 14);
    assert_eq!((word(2), word(3)), (word(1), word(1)), "drawn once");
}

/// Forks for real and waits at most `limit` for the child, which runs `child` and exits with
/// its status; a child still running at the deadline is killed and reported as hung.
fn child_status_within(limit: Duration, child: impl FnOnce() -> i32) -> Result<i32, String> {
    // SAFETY: a fork; the child only runs `child` and `_exit`s.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = child();
        // SAFETY: leaves the child without running the parent's exit handlers.
        unsafe { libc::_exit(code) };
    }
    let deadline = Instant::now() + limit;
    loop {
        let mut status = 0;
        // SAFETY: waits for our own child, without blocking.
        let done = unsafe { libc::waitpid(pid, &raw mut status, libc::WNOHANG) };
        if done == pid {
            return if libc::WIFEXITED(status) {
                Ok(libc::WEXITSTATUS(status))
            } else {
                Err(format!("the child died with status {status:#x}"))
            };
        }
        if Instant::now() > deadline {
            // SAFETY: kills and reaps our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &raw mut status, 0);
            }
            return Err(format!("the child hung for {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Forks up to `n` children, 3 ms apart, each through `fork_one` (which forks and waits for
/// one child, as [`child_status_within`] does), and returns what went wrong with each that
/// failed. Stops at the third failure: each hung child costs the whole limit.
fn fork_children(n: usize, mut fork_one: impl FnMut() -> Result<i32, String>) -> Vec<String> {
    let mut failures = Vec::new();
    for i in 0..n {
        if failures.len() == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(3));
        match fork_one() {
            Ok(0) => {}
            Ok(code) => failures.push(format!("child {i}: exit status {code}")),
            Err(why) => failures.push(format!("child {i}: {why}")),
        }
    }
    failures
}

/// What a child does first under deterministic generators: one of each call, a bulk call of
/// each kind, checked for order. Exit status 0 when all is well.
fn deterministic_calls_in_child() -> i32 {
    let first = generator::uuid7().unwrap();
    let mut batch = [Uuid::NIL; 256];
    if generator::fill_v7(&mut batch).is_err() || first >= batch[0] {
        return 2;
    }
    if !batch.windows(2).all(|w| w[0] < w[1]) {
        return 3;
    }
    let mut bytes = [0u8; 16 * 64];
    let _ = generator::uuid4();
    if generator::fill_v4_bytes(&mut bytes).is_err()
        || generator::fill_v7_bytes(&mut bytes).is_err()
    {
        return 4;
    }
    let _ = generator::uuid1(None, None);
    let _ = generator::uuid6(None, None);
    let _ = generator::uuid8(None, None, None);
    0
}

/// A real `fork()` under deterministic generators: the child continues its parent's
/// sequence; and while other threads are inside bulk calls (and installing and uninstalling
/// generators of their own), every child finishes: none inherits a lock it waits for forever.
fn deterministic_fork_with_threads_inside_bulk_calls() {
    let token =
        deterministic::install(StandIn::seeded(b"fork", 1_700_000_000_000_000_000, 1_000).unwrap());
    // One thread: the child returns what the parent returns next.
    let _ = generator::uuid7().unwrap();
    let buf = in_child(32, || {
        let mut out = generator::uuid7().unwrap().to_bytes().to_vec();
        out.extend_from_slice(&generator::uuid4().to_bytes());
        out
    });
    assert_eq!(buf[..16], generator::uuid7().unwrap().to_bytes());
    assert_eq!(buf[16..], generator::uuid4().to_bytes());

    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    for kind in 0..3 {
        let stop = Arc::clone(&stop);
        threads.push(std::thread::spawn(move || {
            let mut records = vec![0u8; 16 * 4096];
            let mut values = vec![Uuid::NIL; 4096];
            while !stop.load(Ordering::Relaxed) {
                match kind {
                    0 => generator::fill_v4_bytes(&mut records).unwrap(),
                    1 => generator::fill_v7(&mut values).unwrap(),
                    _ => {
                        let inner =
                            deterministic::install(StandIn::seeded(b"inner", 0, 1).unwrap());
                        generator::fill_v7_bytes(&mut records).unwrap();
                        assert!(deterministic::uninstall(inner));
                    }
                }
            }
        }));
    }
    let failures = fork_children(40, || {
        child_status_within(Duration::from_secs(10), deterministic_calls_in_child)
    });
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    assert!(deterministic::uninstall(token));
    assert!(failures.is_empty(), "children failed: {failures:?}");
}

/// A real `fork()` while other threads work the 128-bit state words (v6, v1 and a wide v7
/// layout, one generator shared by a thread and every child): every child finishes. Where those
/// words take a lock (32-bit targets), a fork that copied one held would leave the child
/// spinning on its first UUID of that word; the fork gate closes first. Where they are
/// lock-free, the same run checks that the child's words work.
fn fork_with_threads_on_wide_words() {
    let wide = Arc::new(
        V7Generator::new(
            V7Method::SubMillisecond { counter_bits: 11 },
            10_000_000_000,
            RollbackPolicy::Reset,
        )
        .unwrap(),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    for kind in 0..3 {
        let (stop, wide) = (Arc::clone(&stop), Arc::clone(&wide));
        threads.push(std::thread::spawn(move || {
            let mut values = vec![Uuid::NIL; 64];
            while !stop.load(Ordering::Relaxed) {
                match kind {
                    0 => {
                        generator::uuid6(None, None).unwrap();
                    }
                    1 => {
                        generator::uuid1(None, None).unwrap();
                    }
                    _ => wide.fill(&mut values).unwrap(),
                }
            }
        }));
    }
    let failures = fork_children(60, || {
        let before = wide.generate().unwrap();
        child_status_within(Duration::from_secs(10), || {
            let first = wide.generate().unwrap();
            let a = generator::uuid6(None, None).unwrap();
            let b = generator::uuid6(None, None).unwrap();
            let _ = generator::uuid1(None, None).unwrap();
            i32::from(!(first > before && a < b))
        })
    });
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    assert!(failures.is_empty(), "children failed: {failures:?}");
}

/// The tests below change process-wide state (the fork epoch, the deterministic generators):
/// one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

#[test]
fn simulated_fork_handling() {
    let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    counter_after_simulated_fork();
    clock_seq_and_node_after_simulated_fork();
    note_fork_once_counts_once_per_process();
}

#[test]
#[cfg_attr(miri, ignore = "Miri cannot fork()")]
fn real_fork_handling() {
    let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    real_fork();
    real_fork_with_a_failing_first_step();
    deterministic_fork_with_threads_inside_bulk_calls();
    fork_with_threads_on_wide_words();
}
