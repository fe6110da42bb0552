//! The global allocator of the extension: the system's, with an emergency reserve for small
//! allocations it refuses, so that reporting an error never aborts for want of a few bytes.
//!
//! Rust aborts the process when an allocation fails ("memory allocation of N bytes failed"),
//! and making an error allocates: the core formats the values its messages show, pyo3 boxes
//! its lazy errors. Near a memory cap (`ulimit -v`, a container's limit) that turned a
//! `ValueError` into an abort. As libstdc++ keeps an emergency pool for the exceptions it
//! throws, this allocator serves a request of at most [`SLOT`] bytes that the system refuses
//! from a static reserve of [`SLOTS`] slots, which the error's own memory returns to when it
//! is freed. The interpreter's allocations are not served from it: when they fail too, the
//! error made is `MemoryError` (`ffi::errors`). Large buffers are allocated fallibly where a
//! count sizes them (`uuidx_core::memory`), and are never served from the reserve.
//!
//! Invariants:
//! 1. the reserve is one static, zero-initialised array aligned to 4096 bytes, cut into
//!    `SLOTS` slots of `SLOT` bytes; a slot is handed out only to a request of at most `SLOT`
//!    bytes aligned to at most `SLOT`, so the block fits its slot and is aligned;
//! 2. a slot is owned by whoever set its bit in `USED` (a compare-and-swap with acquire
//!    ordering) until it is given back (a release `fetch_and`), so two live blocks never share
//!    a slot, and a new owner sees the last owner's writes as done;
//! 3. a pointer is the reserve's exactly when it lies in the array: `dealloc` and `realloc` of
//!    one give its slot back, of any other pass it to the system allocator, which made it.
//!
//! Tested by `tests/ffi/test_nomemory_rlimit.py` (every error path of the API catalogue with
//! the address space used up, in `make test-nomemory`) and by every other test, which runs on
//! this allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest request the reserve serves, and the size of each of its slots.
pub const SLOT: usize = 1024;
/// Slots in the reserve (1 MiB in all).
pub const SLOTS: usize = 1024;

#[repr(C, align(4096))]
struct Arena(UnsafeCell<[u8; SLOT * SLOTS]>);

// SAFETY: invariant 2: every slot has one owner at a time, handed over through `USED`.
unsafe impl Sync for Arena {}

static ARENA: Arena = Arena(UnsafeCell::new([0; SLOT * SLOTS]));
/// Bit `i` of word `i / 64` is set while slot `i` is handed out.
static USED: [AtomicU64; SLOTS / 64] = [const { AtomicU64::new(0) }; SLOTS / 64];

/// The system allocator with the emergency reserve (see the module documentation).
pub struct Reserve;

impl Reserve {
    fn base() -> usize {
        ARENA.0.get() as usize
    }

    /// The slot `block` lies in, if it is the reserve's (invariant 3).
    fn slot_of(block: *mut u8) -> Option<usize> {
        let offset = (block as usize).checked_sub(Self::base())?;
        (offset < SLOT * SLOTS).then_some(offset / SLOT)
    }

    /// A free slot for `layout`, or NULL when it is too large or every slot is in use.
    fn take(layout: Layout) -> *mut u8 {
        if layout.size() > SLOT || layout.align() > SLOT {
            return ptr::null_mut();
        }
        for (w, word) in USED.iter().enumerate() {
            let mut used = word.load(Ordering::Relaxed);
            while used != u64::MAX {
                let bit = (!used).trailing_zeros() as usize;
                match word.compare_exchange_weak(
                    used,
                    used | 1 << bit,
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    // Invariant 1: within the array, at a multiple of `SLOT` from its
                    // 4096-aligned start.
                    Ok(_) => return (Self::base() + (w * 64 + bit) * SLOT) as *mut u8,
                    Err(now) => used = now,
                }
            }
        }
        ptr::null_mut()
    }

    fn give_back(slot: usize) {
        USED[slot / 64].fetch_and(!(1 << (slot % 64)), Ordering::Release);
    }
}

// SAFETY: blocks come from the system allocator or from a slot that fits them (invariant 1),
// owned alone (invariant 2), and go back to where they came from (invariant 3).
unsafe impl GlobalAlloc for Reserve {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if block.is_null() {
            Self::take(layout)
        } else {
            block
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            return block;
        }
        let block = Self::take(layout);
        if !block.is_null() {
            // SAFETY: a slot of at least `layout.size()` bytes, owned by this call.
            unsafe { ptr::write_bytes(block, 0, layout.size()) };
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        match Self::slot_of(block) {
            Some(slot) => Self::give_back(slot),
            // SAFETY: made by `System` with `layout` (invariant 3).
            None => unsafe { System.dealloc(block, layout) },
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if let Some(slot) = Self::slot_of(block) {
            if new_size <= SLOT {
                return block; // it still fits its slot
            }
            // SAFETY: the caller's contract: `new_size` is valid with `layout.align()`.
            let grown =
                unsafe { self.alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
            if !grown.is_null() {
                // SAFETY: both blocks are live, distinct and at least `layout.size()` long.
                unsafe { ptr::copy_nonoverlapping(block, grown, layout.size()) };
                Self::give_back(slot);
            }
            return grown;
        }
        // SAFETY: made by `System` with `layout` (invariant 3); the caller's contract.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            return moved;
        }
        // SAFETY: the caller's contract: `new_size` is valid with `layout.align()`.
        let fallback =
            Self::take(unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) });
        if !fallback.is_null() {
            // SAFETY: both blocks are live and distinct; the system's block (still valid after
            // a failed realloc) is freed once copied.
            unsafe {
                ptr::copy_nonoverlapping(block, fallback, layout.size().min(new_size));
                System.dealloc(block, layout);
            }
        }
        fallback
    }
}

#[global_allocator]
static ALLOCATOR: Reserve = Reserve;
