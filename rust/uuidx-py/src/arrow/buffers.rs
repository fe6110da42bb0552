//! Memory that a count of rows sizes, allocated fallibly (arrow-rs's own constructors abort
//! when memory runs out) and handed to arrow-rs, which takes a `Vec` without copying it; and the
//! `ValueError` of data arrow-rs rejects.

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::ArrowError;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use uuidx_core::memory::{zeroed_vec, Zeroable};

use crate::signals;

pub(super) fn invalid(what: &str, err: &ArrowError) -> PyErr {
    crate::ffi::errors::error::<PyValueError>(format_args!("{what}: invalid Arrow data: {err}"))
}

pub(super) fn no_memory(what: &str, len: usize) -> PyErr {
    crate::ffi::errors::error::<PyMemoryError>(format_args!(
        "cannot allocate {what} for {len} rows"
    ))
}

/// A zeroed vector of `len` items, or `MemoryError`.
pub(super) fn zeroed<T: Zeroable>(len: usize, what: &str) -> PyResult<Vec<T>> {
    zeroed_vec(len).ok_or_else(|| no_memory(what, len))
}

/// The validity bitmap of `valid` (`None` when every row is valid), or `MemoryError`.
pub(super) fn null_buffer(valid: &[bool], what: &str) -> PyResult<Option<NullBuffer>> {
    if valid.iter().all(|&ok| ok) {
        return Ok(None);
    }
    let mut bits: Vec<u8> = Vec::new();
    bits.try_reserve_exact(valid.len().div_ceil(8))
        .map_err(|_| no_memory(what, valid.len()))?;
    bits.extend(valid.chunks(8).map(|byte| {
        byte.iter()
            .enumerate()
            .fold(0u8, |bits, (i, &ok)| bits | (u8::from(ok) << i))
    }));
    let bits = BooleanBuffer::new(Buffer::from_vec(bits), 0, valid.len());
    Ok(Some(NullBuffer::new(bits)))
}

/// `a AND b` (`a` alone without `b`) as a new bitmap at offset 0, or `MemoryError`.
pub(super) fn and_nulls(
    a: &NullBuffer,
    b: Option<&NullBuffer>,
    what: &str,
) -> PyResult<NullBuffer> {
    let len = a.len();
    let a = a.inner().bit_chunks();
    let b = b.map(|b| b.inner().bit_chunks());
    let mut words: Vec<u64> = Vec::new();
    words
        .try_reserve_exact(len.div_ceil(64))
        .map_err(|_| no_memory(what, len))?;
    match &b {
        Some(b) => words.extend(a.iter().zip(b.iter()).map(|(x, y)| x & y)),
        None => words.extend(a.iter()),
    }
    if a.remainder_len() > 0 {
        let tail = b.as_ref().map_or(
            u64::MAX,
            arrow_buffer::bit_chunk_iterator::BitChunks::remainder_bits,
        );
        words.push(a.remainder_bits() & tail);
    }
    let bits = BooleanBuffer::new(Buffer::from_vec(words), 0, len);
    Ok(NullBuffer::new(bits))
}

/// `f` of each item of `items`, in a vector allocated fallibly; the first error stops it.
pub(super) fn mapped<T, U>(
    items: Vec<T>,
    what: &str,
    mut f: impl FnMut(T) -> PyResult<U>,
) -> PyResult<Vec<U>> {
    let mut out = Vec::new();
    out.try_reserve_exact(items.len())
        .map_err(|_| no_memory(what, items.len()))?;
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 && i.is_multiple_of(signals::ATTACHED_EVERY) {
            // A stream of a million one-row chunks is validated here, attached: the thread
            // already is, so this only runs the pending handlers.
            // The method path is not general over the token's lifetime: a closure it is.
            #[allow(clippy::redundant_closure_for_method_calls)]
            Python::attach(|py| py.check_signals())?;
        }
        out.push(f(item)?);
    }
    Ok(out)
}

/// The offsets of `len` values of `width` bytes each, or `MemoryError`.
pub(super) fn repeated_offsets<O: arrow_array::OffsetSizeTrait>(
    width: usize,
    len: usize,
) -> PyResult<OffsetBuffer<O>> {
    let mut offsets: Vec<O> = Vec::new();
    offsets
        .try_reserve_exact(len + 1)
        .map_err(|_| no_memory("offsets", len))?;
    // `count_arg` and the text buffer bound `width * len`, which fits in `O` (checked by the
    // caller).
    offsets.extend((0..=len).map(|i| O::usize_as(i * width)));
    Ok(OffsetBuffer::new(ScalarBuffer::from(offsets)))
}
