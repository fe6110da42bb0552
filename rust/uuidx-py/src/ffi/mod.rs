//! The unsafe boundary of the bindings: every `unsafe` block of the crate lives in this folder,
//! one contract per file (the crate denies unsafe code everywhere else). Each file opens with
//! the invariants it relies on, numbered from 1 in that file, and names the tests of its
//! contract:
//!
//! - [`uuid_object`]: the exact `uuid.UUID` object (layout discovery at import, construction by
//!   slot stores, exact-type reads);
//! - [`int_digits`]: `int`s built and read through their 30-bit digits (PEP 757's writer from
//!   3.14);
//! - [`capi`]: the small C-API helpers (ASCII strings, integer checks, buffers);
//! - [`bulk_objects`]: lists and `bytes` of bulk calls, and the cycle collector's pause;
//! - [`fast_call`]: C entry points that bypass pyo3's argument handling, with the safe bodies
//!   they run in [`fast_bodies`];
//! - [`errors`]: every exception the bindings raise, made when it is raised, `MemoryError`
//!   when that fails; [`repr`]: the values those messages show (safe code, kept on this floor
//!   because the floor's messages use them);
//! - [`reserve`]: the global allocator, the system's with an emergency reserve for the small
//!   allocations of an error when the system refuses them;
//! - [`arrow_capsule`]: Arrow PyCapsules and streams, and the buffer protocol of columns, with
//!   the checks of foreign C data in [`arrow_import_schema`] (schemas) and
//!   [`arrow_import_array`] (arrays), over [`arrow_import`] (the walk, the panic guard and the
//!   full validation of `Validated` chunks): no Python there, so that the fuzz target includes
//!   the three by `#[path]`.
//!
//! The rest of the crate uses the re-exports below, and the fast bodies, errors and reprs by
//! their modules. This floor uses nothing above it.

mod arrow_capsule;
mod arrow_import;
mod arrow_import_array;
mod arrow_import_schema;
mod bulk_objects;
mod capi;
pub mod errors;
pub mod fast_bodies;
mod fast_call;
mod int_digits;
pub mod repr;
mod reserve;
mod uuid_object;

pub use arrow_capsule::{
    array_of, import_array, import_field, import_stream, validate, ReadOnlyBytes, Validated,
    ARRAY_CAPSULE, SCHEMA_CAPSULE,
};
pub use bulk_objects::{bytes_in_chunks, list_of, GcPause, ATTACHED_EVERY};
pub use capi::{
    buffer_bytes, interned, is_integer, low_64_bits, new_ascii_str, new_i64, new_str, new_tuple,
    Out, OutValue,
};
pub use fast_call::{
    add_fast_functions, decline_on_error, fast_calls, require_main_interpreter, CallArgs, FastBody,
    FastError, FastFunction, FastResult,
};
pub use uuid_object::{exact_uuid_int, new_uuid, UuidType};
