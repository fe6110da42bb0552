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
}
