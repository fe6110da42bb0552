//! Randomness for UUIDs (RFC 9562 §6.9): a cryptographically secure generator per thread,
//! reseeded from the operating system after `fork()`.
//!
//! [`ThreadRandom`] keeps one ChaCha12 generator (`rand_chacha`) per thread, seeded from the
//! OS (`getrandom`). A `pthread_atfork` child handler, installed on first use, bumps a global
//! fork epoch; each thread's generator compares its epoch on every call and reseeds when it
//! changed, so a forked child never replays its parent's random stream. [`note_fork`] does the
//! same by hand (Python's `os.register_at_fork` calls it too).

use core::cell::RefCell;
use core::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use portable_atomic::AtomicU128;
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

/// Records that the process has forked: every thread's generator reseeds on its next use,
/// the process node ([`process_node`]) is drawn again and generators take the steps they take
/// in a child. Called automatically in a forked child (see [`note_fork_once`]).
pub fn note_fork() {
    FORK_EPOCH.fetch_add(1, Ordering::SeqCst);
}

static NOTED_PID: AtomicU32 = AtomicU32::new(0);

/// [`note_fork`], once per process id: the `pthread_atfork` child handler and Python's
/// `os.register_at_fork` hook both call it after one fork, and only the first counts.
pub fn note_fork_once() {
    #[cfg(unix)]
    {
        // SAFETY: getpid has no preconditions and is async-signal-safe.
        let pid = unsafe { libc::getpid() }.unsigned_abs();
        if NOTED_PID.swap(pid, Ordering::SeqCst) == pid {
            return;
        }
    }
    note_fork();
}

/// How many forks this process descends from since it loaded the crate (see [`note_fork`]).
#[inline]
pub fn fork_epoch() -> u64 {
    FORK_EPOCH.load(Ordering::Relaxed)
}

extern "C" fn atfork_child() {
    note_fork_once();
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
    with_rng_at(fork_epoch(), f)
}

/// [`with_rng`] as if the fork epoch were `epoch` (tests simulate a fork without touching the
/// process-wide epoch, which other tests' generators watch).
#[inline]
fn with_rng_at<T>(epoch: u64, f: impl FnOnce(&mut ChaCha12Rng) -> T) -> T {
    RNG.with(|cell| {
        let mut slot = cell.borrow_mut();
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

/// `epoch << 64 | node` of the process node; a node of 0 means none drawn yet.
static PROCESS_NODE: AtomicU128 = AtomicU128::new(0);

/// A random 48-bit node with the multicast bit set (RFC 9562 §6.10), so that it can never be
/// mistaken for an IEEE 802 MAC address.
pub fn random_node<R: RandomSource + ?Sized>(random: &R) -> u64 {
    (random.next_u64() & 0xFFFF_FFFF_FFFF) | MULTICAST_BIT
}

/// This process's node for v1 and v6 UUIDs: a [`random_node`] drawn once per process, and
/// drawn again in a forked child, which is a new process (RFC 9562 §6.10; no MAC address is
/// ever read). The node and the fork epoch it belongs to change together in one atomic word,
/// so all threads agree on it.
#[inline]
pub fn process_node() -> u64 {
    loop {
        let epoch = fork_epoch();
        let current = PROCESS_NODE.load(portable_atomic::Ordering::Acquire);
        let (seen_epoch, node) = ((current >> 64) as u64, current as u64);
        if seen_epoch == epoch && node != 0 {
            return node;
        }
        if seen_epoch > epoch {
            continue; // another thread saw a newer fork; read the epoch again
        }
        let fresh = (u128::from(epoch) << 64) | u128::from(random_node(&ThreadRandom));
        match PROCESS_NODE.compare_exchange(
            current,
            fresh,
            portable_atomic::Ordering::AcqRel,
            portable_atomic::Ordering::Acquire,
        ) {
            Ok(_) => return fresh as u64,
            Err(other) if (other >> 64) as u64 == epoch && other as u64 != 0 => {
                return other as u64;
            }
            Err(_) => {}
        }
    }
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
    fn reseeds_when_the_fork_epoch_changes() {
        // A clone of the thread's generator predicts its next output, until the epoch moves.
        let epoch = fork_epoch();
        let _ = with_rng_at(epoch, rand_chacha::rand_core::Rng::next_u64);
        let mut replay = RNG.with(|c| c.borrow().as_ref().unwrap().1.clone());
        assert_eq!(
            with_rng_at(epoch, rand_chacha::rand_core::Rng::next_u64),
            replay.next_u64()
        );
        let after_fork = with_rng_at(epoch + 1000, rand_chacha::rand_core::Rng::next_u64);
        assert_ne!(
            after_fork,
            replay.next_u64(),
            "a forked child must not replay"
        );
    }

    #[test]
    fn process_node_is_multicast_and_stable() {
        let n = process_node();
        assert_eq!(n & MULTICAST_BIT, MULTICAST_BIT);
        assert!(n < 1 << 48);
        let from_threads: Vec<u64> = (0..4)
            .map(|_| std::thread::spawn(process_node))
            .map(|h| h.join().unwrap())
            .collect();
        assert!(from_threads.iter().all(|&m| m == n), "one node per process");
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
