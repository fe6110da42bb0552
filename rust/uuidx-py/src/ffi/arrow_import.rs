//! Arrow C data from a producer that uuidx does not trust: what every import relies on, and
//! the one way imported rows leave it. An `ArrowSchema` is checked whole, then converted by
//! arrow-rs to a `Field` ([`super::arrow_import_schema`]); an `ArrowArray` of a type uuidx reads
//! is checked, its buffers wrapped, without a copy, as arrow-rs `ArrayData`
//! ([`super::arrow_import_array`]), and that data validated in full here: the result is a
//! [`Validated`] chunk, which only this module makes ([`validated`]), and which is the only way
//! the bindings' column code gets at imported rows.
//!
//! The C data interface hands over raw pointers and counts. What it can reveal is checked
//! before anything else is read through a pointer and before arrow-rs sees the structure: a
//! NULL where a pointer is needed, a negative or inconsistent count, text that is not UTF-8,
//! children that do not match the format, a cycle. What it cannot reveal (a pointer to memory
//! that is not what it claims to be, a buffer shorter than its declared length, a string
//! without its NUL, offsets past the end of the data) stays the producer's responsibility, as
//! for every consumer of the interface.
//!
//! These three files use std and arrow-rs only, no Python, and nothing of the crate but one
//! another (`super::`): the fuzz target `fuzz/fuzz_targets/arrow_import.rs` compiles them as
//! they are (`#[path]`), as siblings at its root.
//!
//! Invariants (the schema's and the array's own are in their files):
//! I1. a walk over a structure (a schema or an array, their children and dictionaries) visits
//!     at most [`MAX_DEPTH`] levels and [`MAX_NODES`] structures ([`Walk`]): a cycle or a huge
//!     tree is an error, never a stack overflow or a hang;
//! I2. every conversion of arrow-rs of a foreign structure runs inside [`caught`]: a panic is
//!     returned as an error, never unwound into the interpreter;
//! I3. a struct's children each have at least the struct's `offset + length` rows (the
//!     struct's rows are rows `offset .. offset + length` of each child): arrow-rs's own
//!     validation compares a child's length with the struct's length alone, and slicing a
//!     shorter child panics (an empty struct reads no row and is not checked);
//! I4. data leaves the import only as a [`Validated`] chunk: arrow-rs's full validation
//!     (buffer sizes, offsets, views, null counts) and I3 passed, inside the guard of I2, and
//!     so does every conversion of one to an arrow-rs array ([`Validated::into_array`]).
//!
//! Safe code, the floor of the two files that read through a producer's pointers: the file
//! denies unsafe code. Tested by `tests/columns/test_arrow_hostile.py` (structs whose offset
//! runs past their children, cycles, structures nested too deep),
//! `tests/columns/test_arrow_ffi.py` (offsets a producer got wrong) and the fuzz target.

#![deny(unsafe_code)]

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use arrow_data::ArrayData;
use arrow_schema::DataType;

/// The deepest nesting a structure may have (children and dictionaries).
pub const MAX_DEPTH: usize = 64;
/// The most structures (a schema or an array and all its children) one import visits.
pub const MAX_NODES: usize = 1 << 16;

/// Why a structure was refused: a message naming the member at fault (`schema.format`,
/// `array.children[0].buffers[1]`, ...) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
    out_of_memory: bool,
}

impl Error {
    pub(super) fn new(message: String) -> Self {
        Self {
            message,
            out_of_memory: false,
        }
    }

    pub(super) fn memory(what: &str, bytes: usize) -> Self {
        Self {
            message: format!("cannot allocate {bytes} bytes for {what}"),
            out_of_memory: true,
        }
    }

    /// `true` when the structure was fine but memory for it could not be had.
    pub fn is_out_of_memory(&self) -> bool {
        self.out_of_memory
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The result of a check or an import.
pub(super) type Result<T> = std::result::Result<T, Error>;

/// `Err` of an [`Error`] saying `message`.
pub(super) fn invalid<T>(message: String) -> Result<T> {
    Err(Error::new(message))
}

/// The count of structures visited and the depth, for I1.
#[derive(Default)]
pub(super) struct Walk {
    nodes: usize,
}

impl Walk {
    /// Counts the structure at `path`, `depth` levels down; an error past either bound (I1).
    pub(super) fn enter(&mut self, path: &str, depth: usize) -> Result<()> {
        self.nodes += 1;
        if depth > MAX_DEPTH {
            return invalid(format!(
                "{path} is nested more than {MAX_DEPTH} levels deep (a cycle?)"
            ));
        }
        if self.nodes > MAX_NODES {
            return invalid(format!(
                "{path}: more than {MAX_NODES} nested structures in one column"
            ));
        }
        Ok(())
    }
}

/// `value`, a count of the C structures, as a `usize`; an error naming it if negative, or if
/// larger than this machine addresses (a 32-bit target).
pub(super) fn count(value: i64, path: &str, member: &str) -> Result<usize> {
    match usize::try_from(value) {
        Ok(n) => Ok(n),
        Err(_) if value < 0 => invalid(format!("{path}.{member} is negative ({value})")),
        Err(_) => invalid(format!(
            "{path}.{member} is {value}, more than this machine addresses"
        )),
    }
}

/// Runs a conversion of arrow-rs, turning a panic into an error (I2).
pub(super) fn caught<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned());
        invalid(format!("arrow-rs could not convert the {what}: {message}"))
    })
}

/// A chunk of a column that passed every check (I4): only [`validated`] makes one, so code
/// that takes a `Validated` reads rows that arrow-rs validated in full. Text types are read as
/// their binary counterparts (rows are bytes to the kernels, so UTF-8 is not checked).
#[derive(Debug)]
pub struct Validated(ArrayData);

impl Validated {
    /// The validated data.
    pub fn data(&self) -> &ArrayData {
        &self.0
    }

    /// The chunk as the arrow-rs array `T` (`FixedSizeBinaryArray`, `BinaryArray`, ...), the
    /// conversion inside the panic guard (I2, I4).
    ///
    /// # Errors
    /// When arrow-rs panics converting it.
    #[allow(dead_code)] // Unused by the fuzz target, which compiles this file too.
    pub fn into_array<T: From<ArrayData>>(self) -> Result<T> {
        caught("array", || Ok(T::from(self.0)))
    }

    /// The chunk as an arrow-rs array of its own type (`make_array`), inside the panic guard
    /// too: how the fuzz target reads a chunk of any type (the bindings know theirs).
    ///
    /// # Errors
    /// When arrow-rs panics converting it.
    #[allow(dead_code)] // Used by `fuzz/fuzz_targets/arrow_import.rs`.
    pub fn into_array_ref(self) -> Result<arrow_array::ArrayRef> {
        caught("array", || Ok(arrow_array::make_array(self.0)))
    }
}

/// `data` after full validation (I4): I3 for every struct in it, then arrow-rs's own checks
/// (buffer sizes, offsets, views, null counts), with text types read as binary; a panic of
/// arrow-rs is an error too (I2). The one maker of [`Validated`], for imported data and for any
/// other `ArrayData` the bindings read rows of.
///
/// # Errors
/// A message saying what arrow-rs or I3 found wrong.
pub fn validated(data: ArrayData) -> Result<Validated> {
    caught("array", || {
        covers(&data, "array")?;
        let as_bytes = match data.data_type() {
            DataType::Utf8 => DataType::Binary,
            DataType::LargeUtf8 => DataType::LargeBinary,
            DataType::Utf8View => DataType::BinaryView,
            other => other.clone(),
        };
        data.into_builder()
            .data_type(as_bytes)
            .build()
            .map(Validated)
            .map_err(|e| Error::new(e.to_string()))
    })
}

/// I3 for `data` and the structs inside it: each child of a non-empty struct has at least its
/// `offset + len` rows.
fn covers(data: &ArrayData, path: &str) -> Result<()> {
    if !matches!(data.data_type(), DataType::Struct(_)) {
        return Ok(());
    }
    let rows = data.offset().checked_add(data.len());
    for (i, child) in data.child_data().iter().enumerate() {
        let child_path = format!("{path}.children[{i}]");
        if !data.is_empty() && rows.is_none_or(|rows| child.len() < rows) {
            return invalid(format!(
                "{child_path}.length is {}, but the struct's offset + length is {}",
                child.len(),
                data.offset().saturating_add(data.len())
            ));
        }
        covers(child, &child_path)?;
    }
    Ok(())
}
