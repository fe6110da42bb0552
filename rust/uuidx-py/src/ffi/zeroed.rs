//! Zero-filled vectors that fail with `None` instead of aborting: allocated zeroed
//! (`calloc`), so a large one comes as fresh pages the kernel zeroes when first touched,
//! instead of being written whole with the GIL held.
//!
//! Invariants:
//! 1. only types whose all-zero bytes are a valid value implement [`Zeroable`] (`bool`, `i64`);
//! 2. the vector is made from an allocation of the global allocator with the layout of
//!    `[T; len]`, as `Box<[T]>` requires; a NULL (no memory) is `None`, never a panic.
//!
//! Tested by the Rust tests below and, through the columns' validity and integer buffers, by
//! `tests/columns/test_arrow.py` and `tests/columns/test_arrow_memory.py`.

/// Types whose all-zero bytes are a valid value (`false`, `0`), for [`zeroed_vec`].
///
/// # Safety
/// Only for such types.
pub unsafe trait Zeroable: Sized {}
// SAFETY: zero bytes are `false` and `0`.
unsafe impl Zeroable for bool {}
// SAFETY: as above.
unsafe impl Zeroable for i64 {}

/// `len` zero values, or `None` if they cannot be had. Allocated zeroed (`calloc`): a large
/// vector comes as fresh pages that the kernel zeroes when first touched, instead of being
/// written whole before use with the GIL held.
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

#[cfg(test)]
mod tests {
    use super::zeroed_vec;

    #[test]
    fn vectors_are_zeroed_and_sized() {
        assert_eq!(zeroed_vec::<i64>(0), Some(Vec::new()));
        assert_eq!(zeroed_vec::<i64>(1000), Some(vec![0; 1000]));
        assert_eq!(zeroed_vec::<bool>(17), Some(vec![false; 17]));
    }

    #[test]
    fn lengths_beyond_the_address_space_are_none() {
        assert_eq!(zeroed_vec::<i64>(usize::MAX), None);
        assert_eq!(zeroed_vec::<bool>(usize::MAX), None);
    }
}
