//! Randomness for UUIDs (RFC 9562 §6.9): a cryptographically secure generator per thread,
//! reseeded from the operating system after `fork()`.
//!
//! [`ThreadRandom`] keeps one ChaCha12 generator (`rand_chacha`) per thread, seeded from the
//! OS (`getrandom`). A `pthread_atfork` child handler, installed on first use, bumps a global
//! fork epoch; each thread's generator compares its epoch on every call and reseeds when it
//! changed, so a forked child never replays its parent's random stream. [`note_fork`] does the
//! same by hand (Python's `os.register_at_fork` calls it too).

use core::cell::RefCell;
use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use rand_chacha::rand_core::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha12Rng;
use std::sync::Once;

/// A thread-safe source of random bits for generators and v4.
pub trait RandomSource: Send + Sync {
    /// 64 random bits.
    fn next_u64(&self) -> u64;
    /// Fills `dest` with random bytes.
    fn fill(&self, dest: &mut [u8]);
    /// 128 random bits.
    #[inline]
    fn next_u128(&self) -> u128 {
        (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64())
    }
}

/// The calling thread's CSPRNG, reseeded after `fork()`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadRandom;

static FORK_EPOCH: AtomicU64 = AtomicU64::new(0);
static ATFORK: Once = Once::new();

thread_local! {
    static RNG: RefCell<Option<(u64, ChaCha12Rng)>> = const { RefCell::new(None) };
}

/// Records that the process has forked: every thread's generator reseeds on its next use and
/// the process node ([`process_node`]) is drawn again. Called automatically in a forked child.
pub fn note_fork() {
    FORK_EPOCH.fetch_add(1, Ordering::SeqCst);
}

/// How many forks this process descends from since it loaded the crate (see [`note_fork`]).
#[inline]
pub fn fork_epoch() -> u64 {
    FORK_EPOCH.load(Ordering::Relaxed)
}

extern "C" fn atfork_child() {
    note_fork();
}

fn install_fork_handler() {
    ATFORK.call_once(|| {
        #[cfg(unix)]
        // SAFETY: registers a plain function with no captured state; `atfork_child` only
        // performs an atomic add, which is async-signal-safe as a forked child requires.
        unsafe {
            libc::pthread_atfork(None, None, Some(atfork_child));
        }
    });
}

fn os_seeded() -> ChaCha12Rng {
    let mut seed = [0u8; 32];
    // A failing OS random source leaves no secure way to make UUIDs; fail loudly.
    getrandom::fill(&mut seed).expect("the operating system's random source failed");
    ChaCha12Rng::from_seed(seed)
}

#[inline]
fn with_rng<T>(f: impl FnOnce(&mut ChaCha12Rng) -> T) -> T {
    RNG.with(|cell| {
        let mut slot = cell.borrow_mut();
        let epoch = fork_epoch();
        match &mut *slot {
            Some((seen, rng)) if *seen == epoch => f(rng),
            _ => {
                install_fork_handler();
                let rng = &mut slot.insert((epoch, os_seeded())).1;
                f(rng)
            }
        }
    })
}

impl RandomSource for ThreadRandom {
    #[inline]
    fn next_u64(&self) -> u64 {
        with_rng(rand_chacha::rand_core::Rng::next_u64)
    }

    #[inline]
    fn fill(&self, dest: &mut [u8]) {
        with_rng(|r| r.fill_bytes(dest));
    }
}

/// A random source that replays a fixed script of 64-bit words, cycling: for deterministic
/// tests of generators (for example to reproduce the RFC 9562 Appendix A vectors).
#[derive(Debug)]
pub struct ScriptedRandom {
    words: Vec<u64>,
    next: AtomicUsize,
}

impl ScriptedRandom {
    /// A source that returns `words` in order, then starts again.
    ///
    /// # Panics
    /// If `words` is empty.
    pub fn new(words: Vec<u64>) -> Self {
        assert!(!words.is_empty(), "ScriptedRandom needs at least one word");
        Self {
            words,
            next: AtomicUsize::new(0),
        }
    }
}

impl RandomSource for ScriptedRandom {
    fn next_u64(&self) -> u64 {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        self.words[i % self.words.len()]
    }

    fn fill(&self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let word = self.next_u64().to_be_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

impl<R: RandomSource + ?Sized> RandomSource for std::sync::Arc<R> {
    #[inline]
    fn next_u64(&self) -> u64 {
        (**self).next_u64()
    }
    #[inline]
    fn fill(&self, dest: &mut [u8]) {
        (**self).fill(dest);
    }
}

/// The multicast bit of a node: the least significant bit of its first octet
/// (RFC 9562 §6.10).
pub const MULTICAST_BIT: u64 = 1 << 40;

static PROCESS_NODE: AtomicU64 = AtomicU64::new(0);
static PROCESS_NODE_EPOCH: AtomicU64 = AtomicU64::new(u64::MAX);

/// A random 48-bit node with the multicast bit set (RFC 9562 §6.10), so that it can never be
/// mistaken for an IEEE 802 MAC address.
pub fn random_node<R: RandomSource + ?Sized>(random: &R) -> u64 {
    (random.next_u64() & 0xFFFF_FFFF_FFFF) | MULTICAST_BIT
}

/// This process's node for v1 and v6 UUIDs: a [`random_node`] drawn once per process, and
/// drawn again in a forked child, which is a new process (RFC 9562 §6.10; no MAC address is
/// ever read).
#[inline]
pub fn process_node() -> u64 {
    let epoch = fork_epoch();
    let node = PROCESS_NODE.load(Ordering::Acquire);
    if node != 0 && PROCESS_NODE_EPOCH.load(Ordering::Acquire) == epoch {
        return node;
    }
    let fresh = random_node(&ThreadRandom);
    let chosen =
        match PROCESS_NODE.compare_exchange(node, fresh, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => fresh,
            Err(other) => other,
        };
    PROCESS_NODE_EPOCH.store(epoch, Ordering::Release);
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_random_differs_between_threads_and_calls() {
        let a = ThreadRandom.next_u128();
        let b = ThreadRandom.next_u128();
        let c = std::thread::spawn(|| ThreadRandom.next_u128())
            .join()
            .unwrap();
        assert!(a != b && b != c && a != c);
    }

    #[test]
    fn reseeds_after_fork_epoch_changes() {
        // Same thread, same seed unless the epoch moves: a clone of the state would replay.
        let before = RNG.with(|c| c.borrow().as_ref().map(|(_, r)| r.clone()));
        let _ = ThreadRandom.next_u64();
        let mut replay = RNG.with(|c| c.borrow().as_ref().unwrap().1.clone());
        note_fork();
        let after = ThreadRandom.next_u64();
        assert_ne!(after, replay.next_u64());
        drop(before);
    }

    #[test]
    fn process_node_is_multicast_and_stable() {
        let epoch = fork_epoch();
        let n = process_node();
        assert_eq!(n & MULTICAST_BIT, MULTICAST_BIT);
        assert!(n < 1 << 48);
        let again = process_node();
        // Another test may simulate a fork concurrently; only then may the node change.
        if fork_epoch() == epoch {
            assert_eq!(again, n);
        }
    }

    #[test]
    fn scripted_cycles() {
        let s = ScriptedRandom::new(vec![1, 2]);
        assert_eq!([s.next_u64(), s.next_u64(), s.next_u64()], [1, 2, 1]);
        let mut b = [0u8; 4];
        s.fill(&mut b);
        assert_eq!(b, [0, 0, 0, 0]);
    }
}
