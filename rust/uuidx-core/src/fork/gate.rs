//! The fork gate: no `fork()` while a 128-bit state word is locked.
//!
//! Where the processor has no 128-bit compare-and-swap (32-bit ARM and x86, an x86-64 without
//! `cmpxchg16b`), portable-atomic's `AtomicU128` takes one of its global spinlocks around every
//! operation. A fork while another thread holds one copies the lock held into the child, where
//! no thread will ever release it: the child's first operation on a word guarded by that lock
//! (its first `uuid1()`, `uuid6()` or wide-layout v7 UUID) spins forever.
//!
//! So on such a machine every operation on a 128-bit state word is a *passage* through this
//! gate ([`through`]), and the `pthread_atfork` handlers ([`crate::fork`]) work it:
//!
//! - *prepare* [`Gate::close`]s it: no passage starts, and the handler waits until every
//!   passage under way has ended, so the process forks with none of those locks held;
//! - *parent* [`Gate::open`]s it again, and the passages that waited go through;
//! - *child* [`Gate::reset`]s it: open, with no passage under way (the threads that were
//!   waiting at the gate in the parent do not exist in the child).
//!
//! A passage spans one atomic operation and nothing else: never a clock reading (a Python
//! clock takes the GIL, which the forking thread holds) nor anything else that can block, so
//! a closing gate waits for a bounded amount of work. Where the word is lock-free the gate is
//! never used ([`through`] runs the operation after one test of a constant or of a byte that
//! keeps portable-atomic's answer).
//!
//! The state is one word: [`CLOSED`] and, below it, the passages under way (a passage that
//! found the gate closed counts for a moment before it backs out). Every access is
//! sequentially consistent: a passage that counted itself before the gate closed is seen by
//! the closing thread, which then waits for its release; one that counted itself after sees
//! the gate closed and backs out. The `loom` model below checks both.

use core::sync::atomic::{AtomicU32, AtomicU8, Ordering};

/// The bit of the state that says the gate is closed; the bits below count passages.
const CLOSED: u32 = 1 << 31;

/// The atomic word of a gate: `core`'s, or loom's in the model.
pub(crate) trait GateWord: Send + Sync {
    fn fetch_add(&self, n: u32) -> u32;
    fn fetch_sub(&self, n: u32) -> u32;
    fn fetch_or(&self, bits: u32) -> u32;
    fn fetch_and(&self, bits: u32) -> u32;
    fn load(&self) -> u32;
    fn store(&self, state: u32);
    /// Waits a little before the next look at the word.
    fn pause();
}

impl GateWord for AtomicU32 {
    fn fetch_add(&self, n: u32) -> u32 {
        Self::fetch_add(self, n, core::sync::atomic::Ordering::SeqCst)
    }
    fn fetch_sub(&self, n: u32) -> u32 {
        Self::fetch_sub(self, n, core::sync::atomic::Ordering::SeqCst)
    }
    fn fetch_or(&self, bits: u32) -> u32 {
        Self::fetch_or(self, bits, core::sync::atomic::Ordering::SeqCst)
    }
    fn fetch_and(&self, bits: u32) -> u32 {
        Self::fetch_and(self, bits, core::sync::atomic::Ordering::SeqCst)
    }
    fn load(&self) -> u32 {
        Self::load(self, core::sync::atomic::Ordering::SeqCst)
    }
    fn store(&self, state: u32) {
        Self::store(self, state, core::sync::atomic::Ordering::SeqCst);
    }
    fn pause() {
        std::thread::yield_now();
    }
}

/// A gate that [`Gate::close`] shuts against new passages once those under way have ended.
#[derive(Debug)]
pub(crate) struct Gate<W = AtomicU32> {
    state: W,
}

/// One operation's way through an open [`Gate`]: the gate cannot close until it is dropped.
/// Only [`Gate::pass`] makes one.
#[must_use = "the passage ends when it is dropped"]
#[derive(Debug)]
pub(crate) struct Passage<'g, W: GateWord = AtomicU32> {
    gate: &'g Gate<W>,
}

impl Gate {
    pub(crate) const fn new() -> Self {
        Self {
            state: AtomicU32::new(0),
        }
    }
}

impl<W: GateWord> Gate<W> {
    #[cfg(all(test, loom))]
    pub(crate) const fn with_word(state: W) -> Self {
        Self { state }
    }

    /// Waits until the gate is open, then holds it open until the passage is dropped.
    pub(crate) fn pass(&self) -> Passage<'_, W> {
        loop {
            if let Some(passage) = self.try_pass() {
                return passage;
            }
            self.wait_open();
        }
    }

    /// A passage if the gate is open; `None`, having counted nothing, if it is closed.
    pub(crate) fn try_pass(&self) -> Option<Passage<'_, W>> {
        if self.state.fetch_add(1) & CLOSED == 0 {
            Some(Passage { gate: self })
        } else {
            self.state.fetch_sub(1);
            None
        }
    }

    /// Closes the gate and returns once no passage is under way. Another thread's closing
    /// is waited out first: one closer at a time.
    pub(crate) fn close(&self) {
        while !self.try_close() {
            self.wait_open();
        }
        while !self.drained() {
            W::pause();
        }
    }

    /// Closes the gate; `false`, changing nothing, if another thread had closed it.
    pub(crate) fn try_close(&self) -> bool {
        self.state.fetch_or(CLOSED) & CLOSED == 0
    }

    /// Whether no passage is under way.
    pub(crate) fn drained(&self) -> bool {
        self.state.load() & !CLOSED == 0
    }

    fn wait_open(&self) {
        while self.state.load() & CLOSED != 0 {
            W::pause();
        }
    }

    /// Opens a gate that [`Gate::close`] closed.
    pub(crate) fn open(&self) {
        self.state.fetch_and(!CLOSED);
    }

    /// Open, with no passage under way: for the only thread of a forked child, where the
    /// passages counted in the parent (those backing out of the closed gate) never end.
    pub(crate) fn reset(&self) {
        self.state.store(0);
    }

    /// Whether the gate is closed, and the passages it counts.
    #[cfg(test)]
    pub(crate) fn state(&self) -> (bool, u32) {
        let state = self.state.load();
        (state & CLOSED != 0, state & !CLOSED)
    }
}

impl<W: GateWord> Drop for Passage<'_, W> {
    fn drop(&mut self) {
        self.gate.state.fetch_sub(1);
    }
}

/// The gate of every 128-bit state word in the process.
pub(crate) static GATE: Gate = Gate::new();

/// Whether the 128-bit state words take a lock on this machine: no compare-and-swap of that
/// width (known when compiling), or, on x86-64, none found when the process started.
/// portable-atomic's answer, asked once and kept, so that the test on the generators' path is
/// one load and comparison of a byte (portable-atomic's own is a call on x86-64).
#[inline(always)]
pub(crate) fn wide_words_lock() -> bool {
    if portable_atomic::AtomicU128::is_always_lock_free() {
        return false;
    }
    match WIDE_WORDS.load(Ordering::Relaxed) {
        LOCK_FREE => false,
        LOCKING => true,
        _ => ask_portable_atomic(),
    }
}

const LOCK_FREE: u8 = 1;
const LOCKING: u8 = 2;
/// [`LOCK_FREE`] or [`LOCKING`] once asked; 0 before.
static WIDE_WORDS: AtomicU8 = AtomicU8::new(0);

#[cold]
fn ask_portable_atomic() -> bool {
    let locking = !portable_atomic::AtomicU128::is_lock_free();
    WIDE_WORDS.store(if locking { LOCKING } else { LOCK_FREE }, Ordering::Relaxed);
    locking
}

/// `op`, one operation on a 128-bit state word: as a passage through [`GATE`] where such words
/// take a lock; directly, after one test of a byte, where they are lock-free.
#[inline(always)]
pub(crate) fn through<T>(op: impl FnOnce() -> T) -> T {
    if wide_words_lock() {
        through_gate(op)
    } else {
        op()
    }
}

/// `op` as a passage through [`GATE`]. Installs the `pthread_atfork` handlers that work the
/// gate first, so that no passage is ever under way while a fork goes unnoticed.
#[cold]
#[inline(never)]
fn through_gate<T>(op: impl FnOnce() -> T) -> T {
    super::install_handler();
    let _passage = GATE.pass();
    op()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    #[test]
    fn a_passage_holds_the_gate_open_until_it_ends() {
        let gate = Gate::new();
        let passage = gate.pass();
        assert_eq!(gate.state(), (false, 1));
        let second = gate.pass();
        assert_eq!(gate.state(), (false, 2));
        drop(passage);
        drop(second);
        assert_eq!(gate.state(), (false, 0));
        gate.close();
        assert_eq!(gate.state(), (true, 0));
        gate.open();
        assert_eq!(gate.state(), (false, 0));
        let _third = gate.pass();
        assert_eq!(gate.state(), (false, 1));
        gate.reset();
        assert_eq!(gate.state(), (false, 0));
    }

    #[test]
    fn closing_waits_for_the_passages_under_way_and_stops_new_ones() {
        let gate = Arc::new(Gate::new());
        let inside = Arc::new(AtomicBool::new(false));
        let passage = gate.pass();
        let closer = {
            let gate = Arc::clone(&gate);
            std::thread::spawn(move || {
                gate.close();
                gate.state()
            })
        };
        // The closer has set the bit and waits for the passage: a new one must wait too.
        while !gate.state().0 {
            std::thread::yield_now();
        }
        let walker = {
            let (gate, inside) = (Arc::clone(&gate), Arc::clone(&inside));
            std::thread::spawn(move || {
                let _p = gate.pass();
                inside.store(true, Ordering::SeqCst);
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!closer.is_finished(), "closed with a passage under way");
        assert!(!inside.load(Ordering::SeqCst), "passed a closing gate");
        drop(passage);
        assert_eq!(closer.join().unwrap(), (true, 0));
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!inside.load(Ordering::SeqCst), "passed a closed gate");
        gate.open();
        walker.join().unwrap();
        assert!(inside.load(Ordering::SeqCst));
        assert_eq!(gate.state(), (false, 0));
    }

    #[test]
    fn the_gate_is_used_only_where_wide_words_lock() {
        let lock_free = crate::generator::GregorianGenerator::new(
            1,
            None,
            1,
            crate::generator::RollbackPolicy::Reset,
        )
        .unwrap()
        .is_lock_free();
        assert_eq!(wide_words_lock(), !lock_free);
        // Inside an operation, a passage is under way exactly where the words lock (other
        // tests' generators may pass the gate too: only the count's growth is checked).
        let counted = through(|| GATE.state().1);
        assert!(lock_free || counted >= 1);
        if !lock_free {
            assert_eq!(WIDE_WORDS.load(Ordering::Relaxed), LOCKING);
        }
    }

    /// The gate's purpose, on any machine: threads that hold a lock only inside a passage,
    /// while this thread forks again and again. Each child must find the lock free. Without
    /// the prepare handler's closing, most children find it held (the threads hold it almost
    /// all the time).
    #[cfg(all(unix, not(miri)))]
    #[test]
    fn no_child_is_forked_while_a_passage_holds_its_lock() {
        use std::sync::Mutex;
        static LOCK: Mutex<u64> = Mutex::new(0);
        super::super::install_handler();
        let stop = Arc::new(AtomicBool::new(false));
        let threads: Vec<_> = (0..3)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let _p = GATE.pass();
                        let mut held = LOCK.lock().unwrap();
                        for _ in 0..200 {
                            *held = std::hint::black_box(*held + 1);
                        }
                    }
                })
            })
            .collect();
        let mut failures = 0;
        for _ in 0..200 {
            // SAFETY: the child only tries the lock, passes the gate and leaves through
            // `_exit`, all without allocating.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                let free = LOCK.try_lock().is_ok();
                let passage = GATE.pass();
                drop(passage);
                // SAFETY: ends the child at once, as a forked child of a threaded process must.
                unsafe { libc::_exit(i32::from(!free)) };
            }
            let mut status = 0;
            // SAFETY: waits for the child just forked, writing its status to a local.
            assert_eq!(unsafe { libc::waitpid(pid, &raw mut status, 0) }, pid);
            if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
                failures += 1;
            }
        }
        stop.store(true, Ordering::Relaxed);
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(failures, 0, "children forked with the lock held");
        // Open again (other tests' generators may be passing it where the wide words lock).
        assert!(!GATE.state().0);
    }
}

#[cfg(all(test, loom))]
mod model {
    //! The gate under loom: a closing thread never returns while a passage is under way, and a
    //! passage never starts while the gate is closed; every waiter finishes.
    use super::{Gate, GateWord};
    use loom::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
    use loom::sync::Arc;

    impl GateWord for AtomicU32 {
        fn fetch_add(&self, n: u32) -> u32 {
            Self::fetch_add(self, n, Ordering::SeqCst)
        }
        fn fetch_sub(&self, n: u32) -> u32 {
            Self::fetch_sub(self, n, Ordering::SeqCst)
        }
        fn fetch_or(&self, bits: u32) -> u32 {
            Self::fetch_or(self, bits, Ordering::SeqCst)
        }
        fn fetch_and(&self, bits: u32) -> u32 {
            Self::fetch_and(self, bits, Ordering::SeqCst)
        }
        fn load(&self) -> u32 {
            Self::load(self, Ordering::SeqCst)
        }
        fn store(&self, state: u32) {
            Self::store(self, state, Ordering::SeqCst);
        }
        fn pause() {
            loom::thread::yield_now();
        }
    }

    /// A passage if the gate lets one through (no waiting: loom's paths stay short): inside,
    /// it takes and releases a lock, as portable-atomic's fallback does, counted with relaxed
    /// accesses that the gate's ordering must cover, and checks that no fork is under way.
    fn walk(gate: &Gate<AtomicU32>, held: &AtomicUsize, forking: &AtomicBool) {
        if let Some(_passage) = gate.try_pass() {
            held.fetch_add(1, Ordering::Relaxed);
            assert!(!forking.load(Ordering::Relaxed), "a passage during a fork");
            held.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// A closer's turn: when it closed the gate and found it drained, it "forks": no lock is
    /// held, and no passage starts until it opens the gate.
    fn fork(gate: &Gate<AtomicU32>, held: &AtomicUsize, forking: &AtomicBool) {
        if gate.try_close() {
            if gate.drained() {
                assert_eq!(held.load(Ordering::Relaxed), 0, "forked with a lock held");
                assert!(!forking.swap(true, Ordering::Relaxed), "two forks at once");
                loom::thread::yield_now();
                forking.store(false, Ordering::Relaxed);
            }
            gate.open();
        }
    }

    #[test]
    fn closing_excludes_passages() {
        loom::model(|| {
            let gate = Arc::new(Gate::with_word(AtomicU32::new(0)));
            let held = Arc::new(AtomicUsize::new(0));
            let forking = Arc::new(AtomicBool::new(false));
            let walkers: Vec<_> = (0..2)
                .map(|_| {
                    let (gate, held, forking) =
                        (Arc::clone(&gate), Arc::clone(&held), Arc::clone(&forking));
                    loom::thread::spawn(move || walk(&gate, &held, &forking))
                })
                .collect();
            fork(&gate, &held, &forking);
            for w in walkers {
                w.join().unwrap();
            }
            assert_eq!(gate.state(), (false, 0));
        });
    }

    #[test]
    fn one_closer_at_a_time() {
        loom::model(|| {
            let gate = Arc::new(Gate::with_word(AtomicU32::new(0)));
            let held = Arc::new(AtomicUsize::new(0));
            let forking = Arc::new(AtomicBool::new(false));
            let threads: Vec<_> = [true, false]
                .into_iter()
                .map(|closer| {
                    let (gate, held, forking) =
                        (Arc::clone(&gate), Arc::clone(&held), Arc::clone(&forking));
                    loom::thread::spawn(move || {
                        if closer {
                            fork(&gate, &held, &forking);
                        } else {
                            walk(&gate, &held, &forking);
                        }
                    })
                })
                .collect();
            fork(&gate, &held, &forking);
            for t in threads {
                t.join().unwrap();
            }
            assert_eq!(gate.state(), (false, 0));
        });
    }
}
