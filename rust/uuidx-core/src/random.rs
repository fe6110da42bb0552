//! Randomness for UUIDs ([RFC 9562 §6.9](https://www.rfc-editor.org/rfc/rfc9562#section-6.9)): a cryptographically secure generator per thread,
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
use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use rand_chacha::rand_core::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha12Rng;
use std::sync::{Mutex, TryLockError};

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

/// Registers this thread's random state with the C library now, without seeding it: a
/// thread-local that needs a destructor is registered on its first use, and glibc aborts the
/// process when that registration cannot allocate. A host calls it where memory is plentiful
/// (the Python module at import), so that a first UUID made near a memory cap fails with an
/// error instead.
pub fn prepare_thread() {
    RNG.with(|_| {});
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
/// tests of generators (for example to reproduce the [RFC 9562 Appendix A](https://www.rfc-editor.org/rfc/rfc9562#appendix-A) vectors). `fill`
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

/// A reproducible cryptographically secure stream: ChaCha12 keyed by a 32-byte seed. For
/// deterministic tests and for generators given a seed; the same seed always gives the same
/// bytes, in every process and on every platform.
///
/// The stream is shared by every thread without a lock that could block: each request
/// reserves its words of the keystream with one atomic add (a request of `n` bytes takes
/// `n.div_ceil(4)` 32-bit words, as `ChaCha12Rng::fill_bytes` does) and computes them at that
/// position, since a ChaCha stream can be entered anywhere. One thread therefore sees exactly
/// the bytes of `ChaCha12Rng::from_seed(seed)` read with `fill_bytes`; threads that share a
/// source get disjoint parts of that stream. A generator kept positioned after the last
/// request saves recomputing a block when the next request follows on; it is only ever
/// *tried* (`try_lock`), never waited for, so neither a busy thread nor a thread stranded by
/// `fork()` can make a request wait. A forked child continues its parent's stream, by design
/// of a reproducible source: do not rely on a seeded source for uniqueness across processes.
///
/// # Examples
/// ```
/// use uuidx_core::random::{RandomSource, SeededRandom};
/// let (a, b) = (SeededRandom::new([7; 32]), SeededRandom::new([7; 32]));
/// assert_eq!(a.next_u64().unwrap(), b.next_u64().unwrap());
/// assert_ne!(SeededRandom::derived(b"7", "v4").next_u64().unwrap(),
///            SeededRandom::derived(b"7", "v7").next_u64().unwrap());
/// ```
pub struct SeededRandom {
    seed: [u8; 32],
    /// The next unreserved position in the keystream, in 32-bit words.
    next_word: AtomicU64,
    /// A generator positioned where the last request that held it ended.
    cached: Mutex<ChaCha12Rng>,
}

impl core::fmt::Debug for SeededRandom {
    /// The position only: the seed is a key.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SeededRandom")
            .field("next_word", &self.next_word)
            .finish_non_exhaustive()
    }
}

impl SeededRandom {
    /// The stream keyed by `seed`.
    pub fn new(seed: [u8; 32]) -> Self {
        Self {
            seed,
            next_word: AtomicU64::new(0),
            cached: Mutex::new(ChaCha12Rng::from_seed(seed)),
        }
    }

    /// An independent stream for each `stream` name under one `seed` of any length: keyed by
    /// SHA-256 of the name, a zero byte and the seed.
    pub fn derived(seed: &[u8], stream: &str) -> Self {
        use sha2::Digest as _;
        let key = sha2::Sha256::new()
            .chain_update(stream.as_bytes())
            .chain_update([0])
            .chain_update(seed)
            .finalize();
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&key);
        Self::new(seed)
    }
}

/// Fills `dest` from `rng`, first moved to word `at` of its stream unless it is there.
fn fill_at(rng: &mut ChaCha12Rng, at: u64, dest: &mut [u8]) {
    if rng.get_word_pos() != u128::from(at) {
        rng.set_word_pos(u128::from(at));
    }
    rng.fill_bytes(dest);
}

impl RandomSource for SeededRandom {
    fn fill(&self, dest: &mut [u8]) -> Result<()> {
        let words = dest.len().div_ceil(4) as u64;
        let at = self.next_word.fetch_add(words, Ordering::Relaxed);
        match self.cached.try_lock() {
            // Filling never panics, so the lock cannot be poisoned; recover all the same.
            Ok(mut rng) => fill_at(&mut rng, at, dest),
            Err(TryLockError::Poisoned(poisoned)) => fill_at(&mut poisoned.into_inner(), at, dest),
            Err(TryLockError::WouldBlock) => {
                fill_at(&mut ChaCha12Rng::from_seed(self.seed), at, dest);
            }
        }
        Ok(())
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
/// ([RFC 9562 §6.10](https://www.rfc-editor.org/rfc/rfc9562#section-6.10)).
pub const MULTICAST_BIT: u64 = 1 << 40;

/// The process node; 0 means none drawn yet in this process ([`crate::fork::note_fork`]
/// sets it back to 0 in a forked child).
static PROCESS_NODE: AtomicU64 = AtomicU64::new(0);

/// A random 48-bit node with the multicast bit set ([RFC 9562 §6.10](https://www.rfc-editor.org/rfc/rfc9562#section-6.10)), so that it can never be
/// mistaken for an IEEE 802 MAC address.
///
/// # Errors
/// As [`RandomSource::next_u64`].
pub fn random_node<R: RandomSource + ?Sized>(random: &R) -> Result<u64> {
    Ok((random.next_u64()? & 0xFFFF_FFFF_FFFF) | MULTICAST_BIT)
}

/// This process's node for v1 and v6 UUIDs: a [`random_node`] drawn once per process, and
/// drawn again in a forked child, which is a new process ([RFC 9562 §6.10](https://www.rfc-editor.org/rfc/rfc9562#section-6.10); no MAC address is
/// ever read). The first thread to draw one installs it with a compare-and-swap, so all
/// threads agree on it; the fork handler forgets it before any thread of the child runs.
#[inline]
pub fn process_node() -> u64 {
    match PROCESS_NODE.load(Ordering::Acquire) {
        0 => draw_process_node(),
        node => node,
    }
}

#[cold]
fn draw_process_node() -> u64 {
    let node = (ThreadRandom.u64() & 0xFFFF_FFFF_FFFF) | MULTICAST_BIT;
    match PROCESS_NODE.compare_exchange(0, node, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => node,
        Err(other) => other,
    }
}

/// Forgets the process node, in a forked child (see [`process_node`]).
pub(crate) fn forget_process_node() {
    PROCESS_NODE.store(0, Ordering::Release);
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
    fn seeded_streams_are_reproducible_and_independent() {
        // The ChaCha12 keystream for the all-zero key (rand_chacha's own known answer).
        let zero = SeededRandom::new([0; 32]);
        let mut first = [0u8; 8];
        zero.fill(&mut first).unwrap();
        let mut again = [0u8; 8];
        SeededRandom::new([0; 32]).fill(&mut again).unwrap();
        assert_eq!(first, again);
        let mut chacha = ChaCha12Rng::from_seed([0; 32]);
        let mut expected = [0u8; 8];
        chacha.fill_bytes(&mut expected);
        assert_eq!(first, expected);
        // Streams continue, and derived streams differ by name and by seed.
        assert_ne!(zero.next_u64().unwrap().to_be_bytes(), first);
        let a = SeededRandom::derived(b"seed", "a").next_u128().unwrap();
        assert_eq!(a, SeededRandom::derived(b"seed", "a").next_u128().unwrap());
        assert_ne!(a, SeededRandom::derived(b"seed", "b").next_u128().unwrap());
        assert_ne!(a, SeededRandom::derived(b"seee", "a").next_u128().unwrap());
    }

    /// Request sizes that cross words, blocks and the generator's 4-block buffer.
    const SIZES: [usize; 12] = [8, 16, 1, 3, 5, 250, 256, 0, 17, 1000, 7, 4096];

    #[test]
    fn a_seeded_stream_is_chacha12_read_with_fill_bytes() {
        let seed = [0x5A; 32];
        let source = SeededRandom::new(seed);
        let mut reference = ChaCha12Rng::from_seed(seed);
        // Under Miri, one round without the requests of several blocks.
        let (rounds, largest) = if cfg!(miri) {
            (1, 256)
        } else {
            (3, usize::MAX)
        };
        let sizes = SIZES.iter().copied().filter(|&n| n <= largest);
        for (i, n) in sizes.cycle().take(rounds * SIZES.len()).enumerate() {
            let (mut got, mut want) = (vec![0u8; n], vec![0u8; n]);
            if i % 5 == 4 {
                // The kept generator busy (or held by a thread lost in a fork): the request
                // is computed afresh, at the same position.
                let _busy = source.cached.lock().unwrap();
                source.fill(&mut got).unwrap();
            } else {
                source.fill(&mut got).unwrap();
            }
            reference.fill_bytes(&mut want);
            assert_eq!(got, want, "request {i} of {n} bytes");
        }
    }

    #[test]
    fn threads_sharing_a_seeded_stream_get_disjoint_parts_of_it() {
        // Requests of 8 bytes take two words each, so the requests of all threads together
        // are the stream's first 8-byte chunks, each exactly once.
        let (threads, each) = (4, if cfg!(miri) { 8 } else { 2000 });
        let source = std::sync::Arc::new(SeededRandom::new([3; 32]));
        let mut drawn: Vec<u64> = (0..threads)
            .map(|_| {
                let source = std::sync::Arc::clone(&source);
                std::thread::spawn(move || {
                    (0..each)
                        .map(|_| source.next_u64().unwrap())
                        .collect::<Vec<u64>>()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .collect();
        let mut reference = ChaCha12Rng::from_seed([3; 32]);
        let mut stream: Vec<u64> = (0..threads * each)
            .map(|_| {
                let mut b = [0u8; 8];
                reference.fill_bytes(&mut b);
                u64::from_be_bytes(b)
            })
            .collect();
        drawn.sort_unstable();
        stream.sort_unstable();
        assert_eq!(drawn, stream);
    }

    #[test]
    fn thread_random_fills_every_byte() {
        // n zero bytes stay zero with probability 2**(-8 n) if fill works; about n / 256 of
        // them are zero by chance, and 16 times that essentially never.
        let n = if cfg!(miri) { 512 } else { 4096 };
        let mut buf = vec![0u8; n];
        ThreadRandom.bytes(&mut buf);
        let zeros = buf.iter().copied().filter(|&b| b == 0).count();
        assert!(zeros < n / 16, "{zeros} zero bytes of {n}");
    }
}
