//! `uuidx.arrow`: UUID columns as Arrow arrays, through the Arrow PyCapsule interface.
//!
//! Columns come in as a `UUIDArray` of this module, any object with `__arrow_c_array__` or
//! `__arrow_c_stream__` (pyarrow, Polars, DuckDB, nanoarrow, arro3, ...; imported by
//! `ffi/arrow_capsule.rs` and validated by `ffi/arrow_import.rs`), or a Python sequence. Their
//! rows go to the kernels of `uuidx_core::column` with the GIL released. Results are a `UUIDArray` (FixedSizeBinary(16),
//! tagged with the canonical extension type `arrow.uuid` or plain) or an `ArrowArray` (strings,
//! timestamps), exported as arrow-rs's own C structs in capsules that own them.
//!
//! - `input.rs`: what a function accepts as a column, imported and validated;
//! - `generate.rs`: the functions that make UUIDs (v4, v7, name-based);
//! - `convert.rs`: the functions that compute a column from a column (parse, text, masks, time);
//! - `arrays.rs`: the two column classes, their export and their rows as lists;
//! - `buffers.rs`: memory a count of rows sizes, allocated fallibly.

mod arrays;
mod buffers;
mod convert;
mod generate;
mod input;

use pyo3::prelude::*;

use arrays::{ArrowColumn, UuidArray};
use convert::{
    arrow_decode, arrow_encode, arrow_mask_v7, arrow_parse, arrow_timestamp_ns, arrow_to_str,
    arrow_unmask_v7, arrow_uuids,
};
use generate::{arrow_uuid3, arrow_uuid4, arrow_uuid5, arrow_uuid7, arrow_uuid8_name};

/// Adds `UUIDArray`, `ArrowArray` and the column functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UuidArray>()?;
    m.add_class::<ArrowColumn>()?;
    m.add_function(wrap_pyfunction!(arrow_uuid4, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid7, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid3, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid5, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuid8_name, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_parse, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_uuids, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_encode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_decode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_mask_v7, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_unmask_v7, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_timestamp_ns, m)?)?;
    Ok(())
}
