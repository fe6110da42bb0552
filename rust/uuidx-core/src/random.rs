//! Randomness for UUIDs (RFC 9562 §6.9): a cryptographically secure generator per thread,
//! reseeded from the operating system after `fork()`.
//!
//! [`ThreadRandom`] keeps one ChaCha12 generator (`rand_chacha`) per thread, seeded from the
//! OS (`getrandom`). Each thread's generator compares the process's fork epoch
//! ([`crate::fork`]) on every call and reseeds when it moved, so a forked child never replays
//! its parent's random stream.
//!
//! Generators take their randomness through the [`RandomSource`] trait, which is fallible
//! so that a caller-supplied source can report its own errors; [`ThreadRandom`] never fails.

use core::cell::RefCell;
use core::sync::atomic::{AtomicUsize, Ordering};
use portable_atomic::AtomicU128;
use rand_chacha::rand_core::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha12Rng;

use crate::fork::{fork_epoch, install_handler};
use crate::Result;

/// A thread-safe source of random bytes for generators and v4.
pub trait RandomSource: Send + Sync {
    /// Fills `dest` with random bytes.
    ///
    /// # Errors
    /// Whatever a caller-supplied source reports; [`ThreadRandom`] never fails.
    fn fill(&self, dest: &mut [u8]) -> Result<()>;

    /// 64 random bits: 8 bytes from [`RandomSource::fill`], big-endian.
    ///
    /// # Errors
    /// As [`RandomSource::fill`].
    #[inline]
    fn next_u64(&self) -> Result<u64> {
        let mut bytes = [0u8; 8];
        self.fill(&mut bytes)?;
        Ok(u64::from_be_bytes(bytes))
    }

    /// 128 random bits: 16 bytes from [`RandomSource::fill`], big-endian.
    ///
    /// # Errors
    /// As [`RandomSource::fill`].
    #[inline]
    fn next_u128(&self) -> Result<u128> {
        let mut bytes = [0u8; 16];
        self.fill(&mut bytes)?;
        Ok(u128::from_be_bytes(bytes))
    }
}

/// The calling thread's CSPRNG, reseeded after `fork()`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadRandom;

thread_local! {
    static RNG: RefCell<Option<(u64, ChaCha12Rng)>> = const { RefCell::new(None) };
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
                install_handler();
                let rng = &mut slot.insert((epoch, os_seeded())).1;
                f(rng)
            }
        }
    })
}

impl ThreadRandom {
    /// 64 random bits from the calling thread's CSPRNG.
    #[inline]
    pub fn u64(self) -> u64 {
        with_rng(rand_chacha::rand_core::Rng::next_u64)
    }

    /// 128 random bits from the calling thread's CSPRNG.
    #[inline]
    pub fn u128(self) -> u128 {
        with_rng(|r| (u128::from(r.next_u64()) << 64) | u128::from(r.next_u64()))
    }

    /// Fills `dest` from the calling thread's CSPRNG.
    #[inline]
    pub fn bytes(self, dest: &mut [u8]) {
        with_rng(|r| r.fill_bytes(dest));
    }
}

impl RandomSource for ThreadRandom {
    #[inline]
    fn fill(&self, dest: &mut [u8]) -> Result<()> {
        self.bytes(dest);
        Ok(())
    }

    #[inline]
    fn next_u64(&self) -> Result<u64> {
        Ok(self.u64())
    }

    #[inline]
    fn next_u128(&self) -> Result<u128> {
        Ok(self.u128())
    }
}

/// A random source that replays a fixed script of 64-bit words, cycling: for deterministic
/// tests of generators (for example to reproduce the RFC 9562 Appendix A vectors). `fill`
/// takes whole words, big-endian, and drops the bytes of the last word it does not need.
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

    fn word(&self) -> u64 {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        self.words[i % self.words.len()]
    }
}

impl RandomSource for ScriptedRandom {
    fn fill(&self, dest: &mut [u8]) -> Result<()> {
        for chunk in dest.chunks_mut(8) {
            let word = self.word().to_be_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }

    fn next_u64(&self) -> Result<u64> {
        Ok(self.word())
    }
}

/// Forwards [`RandomSource`] through a smart pointer.
macro_rules! forward_random_source {
    ($($pointer:ident)::+) => {
        impl<R: RandomSource + ?Sized> RandomSource for $($pointer)::+<R> {
            #[inline]
            fn fill(&self, dest: &mut [u8]) -> Result<()> {
                (**self).fill(dest)
            }
            #[inline]
            fn next_u64(&self) -> Result<u64> {
                (**self).next_u64()
            }
            #[inline]
            fn next_u128(&self) -> Result<u128> {
                (**self).next_u128()
            }
        }
    };
}

forward_random_source!(std::sync::Arc);
forward_random_source!(Box);

/// The multicast bit of a node: the least significant bit of its first octet
/// (RFC 9562 §6.10).
pub const MULTICAST_BIT: u64 = 1 << 40;

/// `epoch << 64 | node` of the process node; a node of 0 means none drawn yet.
static PROCESS_NODE: AtomicU128 = AtomicU128::new(0);

/// A random 48-bit node with the multicast bit set (RFC 9562 §6.10), so that it can never be
/// mistaken for an IEEE 802 MAC address.
///
/// # Errors
/// As [`RandomSource::next_u64`].
pub fn random_node<R: RandomSource + ?Sized>(random: &R) -> Result<u64> {
    Ok((random.next_u64()? & 0xFFFF_FFFF_FFFF) | MULTICAST_BIT)
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
        let node = (ThreadRandom.u64() & 0xFFFF_FFFF_FFFF) | MULTICAST_BIT;
        let fresh = (u128::from(epoch) << 64) | u128::from(node);
        match PROCESS_NODE.compare_exchange(
            current,
            fresh,
            portable_atomic::Ordering::AcqRel,
            portable_atomic::Ordering::Acquire,
        ) {
            Ok(_) => return node,
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
        let a = ThreadRandom.u128();
        let b = ThreadRandom.u128();
        let c = std::thread::spawn(|| ThreadRandom.u128()).join().unwrap();
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
    fn scripted_words_cycle_and_fill_takes_whole_words_big_endian() {
        let s = ScriptedRandom::new(vec![0x0102_0304_0506_0708, 0x1112_1314_1516_1718]);
        assert_eq!(s.next_u64().unwrap(), 0x0102_0304_0506_0708);
        let mut b = [0u8; 4];
        s.fill(&mut b).unwrap();
        assert_eq!(b, [0x11, 0x12, 0x13, 0x14], "the next word, truncated");
        let mut c = [0u8; 12];
        s.fill(&mut c).unwrap();
        assert_eq!(
            c,
            [1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14],
            "cycled"
        );
        assert_eq!(
            s.next_u128().unwrap(),
            0x0102_0304_0506_0708_1112_1314_1516_1718
        );
    }

    #[test]
    fn thread_random_fills_every_byte() {
        // 4 KiB of zeros stay zero with probability 2**-32768 if fill works.
        let mut buf = vec![0u8; 4096];
        ThreadRandom.bytes(&mut buf);
        let zeros = buf.iter().copied().filter(|&b| b == 0).count();
        assert!(zeros < 64, "{zeros} zero bytes of 4096");
    }
}
