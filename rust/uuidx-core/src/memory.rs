//! The memory bound of bulk requests: a count of UUIDs whose result could never fit in the
//! memory this process can have is refused before anything is allocated.
//!
//! Allocators differ in how they fail. glibc's `malloc` refuses a request far beyond RAM and
//! swap, but mimalloc (CPython's allocator on free-threaded builds, and with
//! `PYTHONMALLOC=mimalloc`) reserves address space and lets the kernel's OOM killer act when
//! the pages are touched. So the bound is computed here, from the machine: the physical
//! memory, lowered by a cgroup memory limit (containers, CI runners) when there is one.
//! A count under the bound can still fail with the allocator's own error when memory is in
//! use elsewhere; a count over it never touches memory.
//!
//! Buffers that a count sizes are allocated fallibly ([`zeroed_vec`]), so that running out of
//! memory is an error the caller reports, not an abort.
//!
//! Large columns get pages of their own ([`Pages`]): an anonymous private mapping, zero-filled
//! by the kernel and, where Linux allows it, backed by transparent huge pages, so that a new
//! column costs one page fault per 2 MiB instead of one per 4 KiB.

use std::sync::OnceLock;

use crate::{Error, ErrorKind, Result};

/// The most bytes this process can have: physical memory, or the cgroup limit if lower;
/// `isize::MAX` where neither is known.
pub fn limit_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let address_space = isize::MAX.unsigned_abs() as u64;
        [physical_bytes(), cgroup_limit_bytes()]
            .into_iter()
            .flatten()
            .fold(address_space, u64::min)
    })
}

/// `count` items of `bytes_per_item` bytes each, if they could fit under [`limit_bytes`].
///
/// # Errors
/// [`ErrorKind::TooLarge`], naming the count, the bytes and the limit.
///
/// # Examples
/// ```
/// use uuidx_core::memory::check_bulk;
/// assert_eq!(check_bulk(1000, 16).unwrap(), 1000);
/// assert!(check_bulk(1 << 60, 16).is_err());
/// ```
pub fn check_bulk(count: u64, bytes_per_item: u64) -> Result<usize> {
    check_bulk_under(count, bytes_per_item, limit_bytes())
}

fn check_bulk_under(count: u64, bytes_per_item: u64, limit: u64) -> Result<usize> {
    let bytes = count.checked_mul(bytes_per_item);
    match (bytes, usize::try_from(count)) {
        (Some(bytes), Ok(n)) if bytes <= limit => Ok(n),
        _ => Err(Error::new(ErrorKind::TooLarge {
            count,
            bytes: bytes.unwrap_or(u64::MAX),
            limit,
        })),
    }
}

#[cfg(unix)]
fn physical_bytes() -> Option<u64> {
    // SAFETY: sysconf has no preconditions; it returns -1 for an unknown name.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let pages = u64::try_from(pages).ok()?;
    let page_size = u64::try_from(page_size).ok()?;
    pages.checked_mul(page_size)
}

#[cfg(not(unix))]
fn physical_bytes() -> Option<u64> {
    None
}

/// The memory limit of this process's cgroup (v2 `memory.max`, or v1
/// `memory.limit_in_bytes`), if one is set.
fn cgroup_limit_bytes() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut limits = Vec::new();
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (id, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let file = if id == "0" && controllers.is_empty() {
            format!("/sys/fs/cgroup{path}/memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
        } else {
            continue;
        };
        if let Ok(text) = std::fs::read_to_string(file) {
            limits.extend(text.trim().parse::<u64>().ok());
        }
    }
    limits.into_iter().min()
}

/// Types whose all-zero bytes are a valid value (`false`, `0`), for [`zeroed_vec`].
///
/// # Safety
/// Only for such types.
pub unsafe trait Zeroable: Sized {}
// SAFETY: zero bytes are `false` and `0`.
unsafe impl Zeroable for bool {}
// SAFETY: as above.
unsafe impl Zeroable for i64 {}

/// `len` zero values, or `None` where they cannot be had (no memory, or more bytes than the
/// address space holds), never an abort: allocated zeroed (`calloc`), so a large vector comes
/// as fresh pages that the kernel zeroes when first touched, instead of being written whole
/// before use.
///
/// Invariant: the vector is made from an allocation of the global allocator with the layout of
/// `[T; len]`, as `Box<[T]>` requires, whose values are initialised because zero bytes are a
/// `T` ([`Zeroable`]).
///
/// # Examples
/// ```
/// use uuidx_core::memory::zeroed_vec;
/// assert_eq!(zeroed_vec::<i64>(3), Some(vec![0, 0, 0]));
/// assert_eq!(zeroed_vec::<bool>(usize::MAX), None);
/// ```
#[must_use]
pub fn zeroed_vec<T: Zeroable>(len: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: a non-zero size; the pointer, if not NULL, is an allocation of the global
    // allocator with the layout of `[T; len]`, as `Box<[T]>` requires, whose `len` values are
    // initialised: zero bytes are a `T` (`Zeroable`).
    unsafe {
        let pointer = std::alloc::alloc_zeroed(layout).cast::<T>();
        (!pointer.is_null())
            .then(|| Box::from_raw(core::ptr::slice_from_raw_parts_mut(pointer, len)).into_vec())
    }
}

/// Buffers of at least this many bytes get pages of their own ([`Pages::zeroed`]): the size
/// from which glibc maps every allocation afresh from the kernel anyway.
pub const PAGES_FROM: usize = 32 << 20;

/// Zero-filled bytes in an anonymous private mapping of their own (Linux), starting at a
/// 2 MiB boundary and advised to use transparent huge pages (`madvise(MADV_HUGEPAGE)`, a hint).
///
/// Invariants:
/// 1. the mapping is made by `mmap` in [`Pages::zeroed`] and unmapped once, by `Drop`;
/// 2. `data .. data + len` lies inside it (the skip to the 2 MiB boundary is below 2 MiB by
///    construction, see `Pages::skip_to_boundary`, and the mapping is 2 MiB longer than
///    `len`), readable and writable, zero-filled by the kernel: every byte is a valid `u8`;
/// 3. the bytes are written only through [`Pages::as_mut_slice`] (`&mut self`) and read
///    through [`AsRef`] (`&self`), so the borrow checker keeps writes exclusive; addresses are
///    kept as integers, so the value moves between threads as plain data.
#[derive(Debug)]
pub struct Pages {
    #[cfg_attr(
        not(target_os = "linux"),
        allow(
            dead_code,
            reason = "the mapping is Linux's: elsewhere no `Pages` is made"
        )
    )]
    base: usize,
    #[cfg_attr(
        not(target_os = "linux"),
        allow(
            dead_code,
            reason = "the mapping is Linux's: elsewhere no `Pages` is made"
        )
    )]
    size: usize,
    data: usize,
    len: usize,
}

impl Pages {
    #[cfg_attr(
        not(target_os = "linux"),
        allow(
            dead_code,
            reason = "the mapping is Linux's: elsewhere no `Pages` is made"
        )
    )]
    const HUGE_PAGE: usize = 2 << 20;

    /// `len` zero bytes in a mapping of their own, or `None` where it cannot be had (another
    /// system than Linux, no address space left, `len` of 0 or too large): the caller then
    /// allocates them on the heap.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::memory::Pages;
    /// if let Some(mut pages) = Pages::zeroed(3 << 20) {
    ///     assert!(pages.as_ref().iter().all(|&b| b == 0));
    ///     pages.as_mut_slice()[0] = 7;
    ///     assert_eq!(pages.as_ref()[0], 7);
    /// }
    /// ```
    #[must_use]
    pub fn zeroed(len: usize) -> Option<Self> {
        if len == 0 {
            return None;
        }
        Self::map(len)
    }

    #[cfg(not(target_os = "linux"))]
    fn map(_: usize) -> Option<Self> {
        None
    }

    #[cfg(target_os = "linux")]
    fn map(len: usize) -> Option<Self> {
        let size = len.checked_add(Self::HUGE_PAGE)?;
        // SAFETY: a new anonymous private mapping (no file, no address hint): fresh zeroed
        // pages that nothing else refers to; MAP_FAILED is checked.
        let base = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let skip = Self::skip_to_boundary(base as usize);
        let pages = Self {
            base: base as usize,
            size,
            data: base as usize + skip,
            len,
        };
        // SAFETY: invariant 2: `data .. data + len` lies inside the mapping, which is ours;
        // the advice is a hint, and its failure (no THP support) changes nothing else.
        unsafe {
            libc::madvise(pages.data as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
        Some(pages)
    }

    /// The bytes from `address` up to the next multiple of [`Self::HUGE_PAGE`] (0 at one),
    /// always below it (invariant 2): computed on the address as an integer, because
    /// `<*const u8>::align_offset` may return `usize::MAX` by its contract.
    #[cfg_attr(
        not(target_os = "linux"),
        allow(
            dead_code,
            reason = "the mapping is Linux's: elsewhere no `Pages` is made"
        )
    )]
    const fn skip_to_boundary(address: usize) -> usize {
        // `HUGE_PAGE` divides 2**64: the negation modulo it is the distance to the boundary.
        address.wrapping_neg() % Self::HUGE_PAGE
    }

    /// The bytes, to write.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: invariants 2 and 3: `len` initialised bytes inside the mapping, borrowed
        // exclusively with `self`.
        unsafe { core::slice::from_raw_parts_mut(self.data as *mut u8, self.len) }
    }
}

impl AsRef<[u8]> for Pages {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: invariants 2 and 3: `len` initialised bytes inside the mapping, shared with
        // `self`, which no `&mut` can write meanwhile.
        unsafe { core::slice::from_raw_parts(self.data as *const u8, self.len) }
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        // SAFETY: invariant 1: the mapping made in `zeroed`, unmapped once, after every
        // borrow of its bytes is gone (this is its owner).
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.size)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_beyond_the_limit_are_refused_with_the_figures() {
        assert_eq!(check_bulk_under(10, 16, 160).unwrap(), 10);
        let err = check_bulk_under(11, 16, 160).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::TooLarge {
                count: 11,
                bytes: 176,
                limit: 160
            }
        );
        assert!(err.to_string().contains("cannot make 11 UUIDs"), "{err}");
        let overflow = check_bulk_under(u64::MAX, 16, u64::MAX).unwrap_err();
        assert!(matches!(
            overflow.kind(),
            ErrorKind::TooLarge {
                bytes: u64::MAX,
                ..
            }
        ));
    }

    #[test]
    fn the_limit_is_the_machine() {
        let limit = limit_bytes();
        // More than 64 MiB (any machine that runs the tests), at most the address space.
        assert!(limit > 64 << 20, "{limit}");
        assert!(limit <= isize::MAX.unsigned_abs() as u64);
        if let Some(physical) = physical_bytes() {
            assert!(limit <= physical);
        }
        // 16 TB of UUIDs is beyond every machine this runs on.
        assert!(check_bulk(1_000_000_000_000, 16).is_err());
    }

    #[test]
    fn zeroed_vectors_are_zeroed_and_sized() {
        assert_eq!(zeroed_vec::<i64>(0), Some(Vec::new()));
        assert_eq!(zeroed_vec::<i64>(1000), Some(vec![0; 1000]));
        assert_eq!(zeroed_vec::<bool>(17), Some(vec![false; 17]));
    }

    #[test]
    fn zeroed_vectors_beyond_the_address_space_are_none() {
        assert_eq!(zeroed_vec::<i64>(usize::MAX), None);
        assert_eq!(zeroed_vec::<bool>(usize::MAX), None);
        assert_eq!(zeroed_vec::<i64>(usize::MAX / 8 + 1), None);
    }

    #[test]
    fn pages_are_zeroed_writable_and_on_a_huge_page_boundary() {
        assert!(Pages::zeroed(0).is_none());
        let len = PAGES_FROM + 12345;
        let pages = Pages::zeroed(len);
        assert_eq!(pages.is_some(), cfg!(target_os = "linux"));
        let Some(mut pages) = pages else {
            return;
        };
        assert_eq!(pages.as_ref().len(), len);
        assert!(pages.as_ref().iter().all(|&b| b == 0));
        assert_eq!(pages.as_ref().as_ptr() as usize % Pages::HUGE_PAGE, 0);
        let bytes = pages.as_mut_slice();
        bytes[0] = 1;
        bytes[len - 1] = 2;
        assert_eq!((pages.as_ref()[0], pages.as_ref()[len - 1]), (1, 2));
        // Moved to another thread and dropped there: the value is plain data.
        std::thread::spawn(move || drop(pages)).join().unwrap();
    }

    #[test]
    fn the_skip_to_a_huge_page_boundary_is_below_a_huge_page_and_reaches_it() {
        let huge = Pages::HUGE_PAGE;
        let edges = [0, 1, 4095, 4096, huge - 1, huge, huge + 1, 3 * huge + 12345];
        let top = [usize::MAX - huge + 1, usize::MAX - 1, usize::MAX];
        for address in edges.into_iter().chain(top) {
            let skip = Pages::skip_to_boundary(address);
            assert!(skip < huge, "{address:#x}: {skip}");
            assert_eq!(address.wrapping_add(skip) % huge, 0, "{address:#x}: {skip}");
        }
        assert_eq!(Pages::skip_to_boundary(huge + 1), huge - 1);
        assert_eq!(Pages::skip_to_boundary(usize::MAX), 1);
    }

    #[test]
    fn pages_too_large_for_the_address_space_are_refused() {
        assert!(Pages::zeroed(usize::MAX).is_none());
        assert!(Pages::zeroed(usize::MAX - (1 << 20)).is_none());
    }
}
