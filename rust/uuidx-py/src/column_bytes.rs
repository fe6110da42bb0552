//! The bytes of a new column: zero-filled, written by a kernel, then frozen into an arrow
//! `Buffer` without a copy. Large ones are pages of their own (`uuidx_core::memory::Pages`);
//! the `Buffer` then owns the mapping, which is unmapped when the last reference to the bytes
//! is dropped, whoever holds it (a pyarrow array, a NumPy view through the buffer protocol).
//! Safe code: tested through the columns of `tests/columns/test_arrow.py`.

use pyo3::exceptions::PyMemoryError;
use pyo3::PyResult;
use uuidx_core::memory::{Pages, PAGES_FROM};

/// The bytes of a new column (see the module documentation).
pub struct ColumnBytes(Storage);

enum Storage {
    Heap(Vec<u8>),
    Mapped(Pages),
}

impl ColumnBytes {
    /// `len` zero bytes; `MemoryError` naming `what` if they cannot be had.
    pub fn zeroed(len: usize, what: &str) -> PyResult<Self> {
        if len >= PAGES_FROM {
            if let Some(pages) = Pages::zeroed(len) {
                return Ok(Self(Storage::Mapped(pages)));
            }
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(len).map_err(|_| {
            crate::ffi::errors::error::<PyMemoryError>(format_args!(
                "cannot allocate {len} bytes for {what}"
            ))
        })?;
        bytes.resize(len, 0);
        Ok(Self(Storage::Heap(bytes)))
    }

    /// The bytes, to write.
    pub fn as_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Storage::Heap(bytes) => bytes,
            Storage::Mapped(pages) => pages.as_mut_slice(),
        }
    }

    /// The bytes as an immutable arrow `Buffer` that owns them.
    pub fn freeze(self) -> arrow_buffer::Buffer {
        match self.0 {
            Storage::Heap(bytes) => arrow_buffer::Buffer::from_vec(bytes),
            Storage::Mapped(pages) => bytes::Bytes::from_owner(pages).into(),
        }
    }
}
