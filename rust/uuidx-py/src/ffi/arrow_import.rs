//! Arrow C data from a producer that uuidx does not trust: an `ArrowSchema` is checked whole,
//! then converted by arrow-rs to a `Field`; an `ArrowArray` of a type uuidx reads is checked,
//! its buffers wrapped, without a copy, as arrow-rs `ArrayData`, and that data validated in
//! full: the result is a [`Validated`] chunk, which only this module makes ([`validated`]), and
//! which is the only way the bindings' column code gets at imported rows.
//!
//! This module uses std and arrow-rs only, no Python: the fuzz target
//! `fuzz/fuzz_targets/arrow_import.rs` compiles it as it is (`#[path]`). Tested there and by
//! `tests/columns/test_arrow_ffi.py` and `tests/columns/test_arrow_hostile.py`.
//!
//! The C data interface hands over raw pointers and counts. What it can reveal is checked here
//! before anything else is read through a pointer and before arrow-rs sees the structure: a
//! NULL where a pointer is needed, a negative or inconsistent count, text that is not UTF-8,
//! children that do not match the format, a cycle. What it cannot reveal (a pointer to memory
//! that is not what it claims to be, a buffer shorter than its declared length, a string
//! without its NUL, offsets past the end of the data) stays the producer's responsibility, as
//! for every consumer of the interface.
//!
//! Invariants:
//! I1. (the callers' promise: the `# Safety` sections) every non-NULL pointer of a structure
//!     points to memory readable for what the structure declares: a string up to its NUL, a
//!     `children` or `buffers` array of `n_children` or `n_buffers` entries, metadata as its
//!     own lengths say, a buffer as long as the type, `length`, `offset`, the offsets and the
//!     variadic sizes imply;
//! I2. a pointer is read through only once it is checked non-NULL, and an array of pointers only
//!     below a count checked to be non-negative and small enough for its pointers to fit in
//!     `isize` bytes; `length + offset`, the `length + offset + 1` offsets of a binary array
//!     and buffer lengths are computed with checked arithmetic and must fit in `usize` and
//!     `isize` (a 32-bit target's `usize` holds less than the counts' `i64`);
//! I3. a walk visits at most [`MAX_DEPTH`] levels and [`MAX_NODES`] structures: a cycle or a
//!     huge tree is an error, never a stack overflow or a hang;
//! I4. arrow-rs converts a schema only once all of it is checked (every string non-NULL where
//!     required and UTF-8, metadata well formed with at most [`MAX_METADATA_ENTRIES`] entries,
//!     the children each format has), and gets an array only as buffers whose lengths this
//!     module computed; a panic in either conversion is caught and returned as an error;
//! I5. the memory that the producer's counts size is allocated fallibly (an [`Error`] that
//!     [`Error::is_out_of_memory`]), and an imported array's buffers each hold a reference to
//!     the moved `FFI_ArrowArray`, which is released once, when the last of them goes (or at
//!     once when the import fails).
//! I6. a struct's children each have at least the struct's `offset + length` rows (the
//!     struct's rows are rows `offset .. offset + length` of each child): arrow-rs's own
//!     validation compares a child's length with the struct's length alone, and slicing a
//!     shorter child panics (an empty struct reads no row and is not checked).
//! I7. data leaves this module only as a [`Validated`] chunk: arrow-rs's full validation
//!     (buffer sizes, offsets, views, null counts) and I6 passed, inside the panic guard of
//!     I4, and so does every conversion of one to an arrow-rs array ([`Validated::into_array`]);

use std::ffi::{c_char, c_void, CStr};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;

use arrow_buffer::{ArrowNativeType, Buffer};
use arrow_data::ffi::FFI_ArrowArray;
use arrow_data::ArrayData;
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{DataType, Field};

/// The deepest nesting a structure may have (children and dictionaries).
pub const MAX_DEPTH: usize = 64;
/// The most structures (a schema or an array and all its children) one import visits.
pub const MAX_NODES: usize = 1 << 16;
/// The most entries the metadata of one schema may declare.
pub const MAX_METADATA_ENTRIES: usize = 1 << 16;
/// The most bytes the metadata of one schema may take.
pub const MAX_METADATA_BYTES: usize = 64 << 20;
/// The most bytes of a string of a schema that a message quotes.
const QUOTED: usize = 40;

/// Why a structure was refused: a message naming the member at fault (`schema.format`,
/// `array.children[0].buffers[1]`, ...) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
    out_of_memory: bool,
}

impl Error {
    fn new(message: String) -> Self {
        Self {
            message,
            out_of_memory: false,
        }
    }

    fn memory(what: &str, bytes: usize) -> Self {
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

type Result<T> = std::result::Result<T, Error>;

fn invalid<T>(message: String) -> Result<T> {
    Err(Error::new(message))
}

/// The count of structures visited and the depth, for I3.
#[derive(Default)]
struct Walk {
    nodes: usize,
}

impl Walk {
    fn enter(&mut self, path: &str, depth: usize) -> Result<()> {
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
fn count(value: i64, path: &str, member: &str) -> Result<usize> {
    match usize::try_from(value) {
        Ok(n) => Ok(n),
        Err(_) if value < 0 => invalid(format!("{path}.{member} is negative ({value})")),
        Err(_) => invalid(format!(
            "{path}.{member} is {value}, more than this machine addresses"
        )),
    }
}

/// `bytes` as a message quotes them: `b"..."` with escapes, shortened.
fn quoted(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(QUOTED)];
    let more = if bytes.len() > QUOTED { "..." } else { "" };
    format!("b\"{}\"{more}", shown.escape_ascii())
}

/// Runs a conversion of arrow-rs, turning a panic into an error (I4).
fn caught<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned());
        invalid(format!("arrow-rs could not convert the {what}: {message}"))
    })
}

// ---------------------------------------------------------------------------------------------
// Schemas

/// The field that `schema` describes, once every member of it, its children and its
/// dictionary is checked (I2-I4). A released `schema` (`release` NULL) is the caller's to
/// refuse, before calling this.
///
/// # Errors
/// A message naming the member at fault.
///
/// # Safety
/// I1: `schema` and everything it points to is readable as it declares, and stays unchanged
/// for the call.
pub unsafe fn import_field(schema: &FFI_ArrowSchema) -> Result<Field> {
    // SAFETY: I1, the caller's promise.
    unsafe { check_schema(schema, "schema", 0, &mut Walk::default()) }?;
    caught("schema", || {
        Field::try_from(schema).map_err(|e| Error::new(format!("schema: {e}")))
    })
}

/// How many children a schema of `format` has, where the format fixes it.
fn children_of_format(format: &str) -> Option<usize> {
    match format {
        "+l" | "+L" | "+vl" | "+vL" | "+m" => Some(1),
        "+r" => Some(2),
        nested if nested.starts_with("+w:") => Some(1),
        // Structs and unions have any number; arrow-rs refuses the formats it does not know.
        nested if nested.starts_with('+') => None,
        _ => Some(0),
    }
}

/// Checks `schema` at `path` and, recursively, its children and dictionary.
///
/// # Safety
/// I1.
unsafe fn check_schema(
    schema: &FFI_ArrowSchema,
    path: &str,
    depth: usize,
    walk: &mut Walk,
) -> Result<()> {
    walk.enter(path, depth)?;
    // SAFETY: I1, I2: each string is read only if non-NULL.
    let Some(format) = (unsafe { text(schema.format, path, "format") })? else {
        return invalid(format!("{path}.format is NULL"));
    };
    // SAFETY: as above.
    unsafe { text(schema.name, path, "name") }?;
    // SAFETY: I1: metadata, if non-NULL, is readable as its own lengths say.
    unsafe { check_metadata(schema.metadata.cast(), path) }?;
    let n = count(schema.n_children, path, "n_children")?;
    if n > MAX_NODES {
        return invalid(format!(
            "{path}.n_children is {n}, more than the {MAX_NODES} structures uuidx reads"
        ));
    }
    if let Some(expected) = children_of_format(format) {
        if n != expected {
            return invalid(format!(
                "{path}.n_children is {n}, but a schema of format {format:?} has {expected}"
            ));
        }
    }
    if n > 0 && schema.children.is_null() {
        return invalid(format!("{path}.children is NULL, but n_children is {n}"));
    }
    for i in 0..n {
        let child_path = format!("{path}.children[{i}]");
        // SAFETY: I1: `children` holds `n` pointers, and i < n (I2).
        let child = unsafe { schema.children.add(i).read_unaligned() };
        // SAFETY: I1: a non-NULL child points to an initialised `ArrowSchema`.
        let Some(child) = (unsafe { child.as_ref() }) else {
            return invalid(format!("{child_path} is NULL"));
        };
        // SAFETY: I1 for the child.
        unsafe { check_member_schema(child, &child_path, depth + 1, walk) }?;
    }
    // SAFETY: I1: a non-NULL dictionary points to an initialised `ArrowSchema`.
    if let Some(dictionary) = unsafe { schema.dictionary.as_ref() } {
        // SAFETY: I1 for the dictionary.
        unsafe { check_member_schema(dictionary, &format!("{path}.dictionary"), depth + 1, walk) }?;
    }
    Ok(())
}

/// [`check_schema`] for a child or a dictionary, which must not be released.
///
/// # Safety
/// I1.
unsafe fn check_member_schema(
    schema: &FFI_ArrowSchema,
    path: &str,
    depth: usize,
    walk: &mut Walk,
) -> Result<()> {
    if schema.release.is_none() {
        return invalid(format!("{path} is released (its release callback is NULL)"));
    }
    // SAFETY: I1, the caller's promise.
    unsafe { check_schema(schema, path, depth, walk) }
}

/// The string at `p` (`None` for NULL), which must be UTF-8.
///
/// # Safety
/// I1: `p` is NULL or a NUL-terminated string.
unsafe fn text<'a>(p: *const c_char, path: &str, member: &str) -> Result<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: I1, non-NULL (I2).
    let bytes = unsafe { CStr::from_ptr(p) }.to_bytes();
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(_) => invalid(format!("{path}.{member} is not UTF-8: {}", quoted(bytes))),
    }
}

/// Checks the metadata at `p` (NULL for none): an `i32` count of entries, then for each a key
/// and a value, each an `i32` length and as many bytes of UTF-8 (native byte order).
///
/// # Safety
/// I1: `p` is NULL or metadata readable as its own lengths say.
unsafe fn check_metadata(p: *const u8, path: &str) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    let mut pos = 0usize;
    let length = |pos: &mut usize, what: &dyn fmt::Display| -> Result<usize> {
        // SAFETY: I1: the metadata holds this length; `pos` stays below
        // MAX_METADATA_BYTES + 4, far from overflow.
        let value = unsafe { p.add(*pos).cast::<i32>().read_unaligned() };
        *pos += 4;
        usize::try_from(value)
            .or_else(|_| invalid(format!("{path}.metadata: {what} is negative ({value})")))
    };
    let entries = length(&mut pos, &"the number of entries")?;
    if entries > MAX_METADATA_ENTRIES {
        return invalid(format!(
            "{path}.metadata declares {entries} entries; uuidx reads at most \
             {MAX_METADATA_ENTRIES}"
        ));
    }
    for entry in 0..entries {
        for part in ["key", "value"] {
            let len = length(
                &mut pos,
                &format_args!("the length of the {part} of entry {entry}"),
            )?;
            let start = pos;
            let end = start
                .checked_add(len)
                .filter(|&end| end <= MAX_METADATA_BYTES)
                .ok_or_else(|| {
                    Error::new(format!(
                        "{path}.metadata is longer than the {MAX_METADATA_BYTES} bytes uuidx \
                         reads"
                    ))
                })?;
            // SAFETY: I1: the entry holds `len` bytes at `start`.
            let bytes = unsafe { std::slice::from_raw_parts(p.add(start), len) };
            if std::str::from_utf8(bytes).is_err() {
                return invalid(format!(
                    "{path}.metadata: the {part} of entry {entry} is not UTF-8: {}",
                    quoted(bytes)
                ));
            }
            pos = end;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Arrays

/// `ArrowArray` as the C data interface declares it: the layout of arrow-rs's `FFI_ArrowArray`,
/// whose members are private (its size and alignment are checked against this below). The
/// fuzz target, which includes this file, builds its hostile arrays with it.
#[repr(C)]
pub(crate) struct RawArray {
    pub(crate) length: i64,
    pub(crate) null_count: i64,
    pub(crate) offset: i64,
    pub(crate) n_buffers: i64,
    pub(crate) n_children: i64,
    pub(crate) buffers: *const *const c_void,
    pub(crate) children: *const *const RawArray,
    pub(crate) dictionary: *const RawArray,
    pub(crate) release: Option<unsafe extern "C" fn(*mut RawArray)>,
    pub(crate) private_data: *mut c_void,
}

const _: () = assert!(
    size_of::<RawArray>() == size_of::<FFI_ArrowArray>()
        && align_of::<RawArray>() == align_of::<FFI_ArrowArray>()
);

/// The data of `array` (moved in) under `data_type`, the type of the schema it came with,
/// [`validated`]. uuidx reads fixed-size binary, binary and string (plain, large and view)
/// arrays, and structs of them; other types are refused. A released `array` is an error.
///
/// # Errors
/// A message naming the member at fault, or what validation found wrong; an out-of-memory
/// error when the buffers that need a copy (misaligned ones) cannot be had.
///
/// # Safety
/// I1: `array` and everything it points to is readable as it declares, and stays unchanged
/// until it is released.
pub unsafe fn import_array(array: FFI_ArrowArray, data_type: &DataType) -> Result<Validated> {
    if array.is_released() {
        return invalid("array is released (its release callback is NULL)".to_owned());
    }
    let owner = Arc::new(array);
    // SAFETY: `RawArray` has the layout of `FFI_ArrowArray` (checked above), and the struct
    // lives as long as `owner`, which outlives this call.
    let raw = unsafe { &*Arc::as_ptr(&owner).cast::<RawArray>() };
    let data = caught("array", || {
        // SAFETY: I1, the caller's promise.
        unsafe { array_data(raw, data_type, &owner, "array", 0, &mut Walk::default()) }
    })?;
    validated(data)
}

/// A chunk of a column that passed every check (I7): only [`validated`] makes one, so code
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
    /// conversion inside the panic guard (I4, I7).
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

/// `data` after full validation (I7): I6 for every struct in it, then arrow-rs's own checks
/// (buffer sizes, offsets, views, null counts), with text types read as binary; a panic of
/// arrow-rs is an error too. The one maker of [`Validated`], for imported data and for any
/// other `ArrayData` the bindings read rows of.
///
/// # Errors
/// A message saying what arrow-rs or I6 found wrong.
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

/// I6 for `data` and the structs inside it: each child of a non-empty struct has at least its
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

/// What an array of a type uuidx reads holds, after its validity buffer.
enum Layout<'a> {
    /// One buffer of `width` bytes a row.
    Fixed(usize),
    /// Offsets of `i32` or `i64`, then the bytes they point into.
    Offsets { large: bool },
    /// 16-byte views, then variadic byte buffers, then their sizes as `i64`.
    Views,
    /// No buffers: one child array per field.
    Struct(&'a arrow_schema::Fields),
}

fn layout_of<'a>(data_type: &'a DataType, path: &str) -> Result<Layout<'a>> {
    Ok(match data_type {
        DataType::FixedSizeBinary(width) => match usize::try_from(*width) {
            Ok(width) => Layout::Fixed(width),
            Err(_) => return invalid(format!("{path}: a negative width in {data_type}")),
        },
        DataType::Binary | DataType::Utf8 => Layout::Offsets { large: false },
        DataType::LargeBinary | DataType::LargeUtf8 => Layout::Offsets { large: true },
        DataType::BinaryView | DataType::Utf8View => Layout::Views,
        DataType::Struct(fields) => Layout::Struct(fields),
        other => {
            return invalid(format!(
                "{path}: uuidx does not read Arrow arrays of type {other}"
            ))
        }
    })
}

/// The members of one array, checked (I2) but not yet read through.
struct Checked<'a> {
    array: &'a RawArray,
    path: &'a str,
    layout: Layout<'a>,
    length: usize,
    offset: usize,
    /// `length + offset`, checked.
    rows: usize,
    n_buffers: usize,
}

impl<'a> Checked<'a> {
    /// Checks the counts and pointers of `array` as an array of `data_type`.
    fn new(array: &'a RawArray, data_type: &'a DataType, path: &'a str) -> Result<Self> {
        let length = count(array.length, path, "length")?;
        let offset = count(array.offset, path, "offset")?;
        let n_buffers = count(array.n_buffers, path, "n_buffers")?;
        // I2: the array of `n_buffers` pointers must fit in memory, so that sizes computed from
        // the count (and the messages that quote them) cannot overflow.
        if n_buffers
            .checked_mul(size_of::<*const c_void>())
            .is_none_or(|bytes| isize::try_from(bytes).is_err())
        {
            return invalid(format!(
                "{path}.n_buffers is {n_buffers}, more buffer pointers than any memory holds"
            ));
        }
        let n_children = count(array.n_children, path, "n_children")?;
        if array.null_count < -1 || array.null_count > array.length {
            return invalid(format!(
                "{path}.null_count is {}, for an array of {length} rows",
                array.null_count
            ));
        }
        if !array.dictionary.is_null() {
            return invalid(format!(
                "{path}.dictionary is set, but the type {data_type} has no dictionary"
            ));
        }
        let layout = layout_of(data_type, path)?;
        let (buffers, children, more_buffers) = match layout {
            Layout::Fixed(_) => (2, 0, false),
            Layout::Offsets { .. } => (3, 0, false),
            Layout::Views => (3, 0, true),
            Layout::Struct(fields) => (1, fields.len(), false),
        };
        if n_buffers != buffers && !(more_buffers && n_buffers > buffers) {
            let at_least = if more_buffers { "at least " } else { "" };
            return invalid(format!(
                "{path}.n_buffers is {n_buffers}, but an array of type {data_type} has \
                 {at_least}{buffers}"
            ));
        }
        if n_children != children {
            return invalid(format!(
                "{path}.n_children is {n_children}, but an array of type {data_type} has \
                 {children}"
            ));
        }
        if array.buffers.is_null() {
            return invalid(format!(
                "{path}.buffers is NULL, but n_buffers is {n_buffers}"
            ));
        }
        if n_children > 0 && array.children.is_null() {
            return invalid(format!(
                "{path}.children is NULL, but n_children is {n_children}"
            ));
        }
        // I2: the rows the buffers hold, `length + offset`, checked (each is below 2**63, but
        // a 32-bit target's `usize` holds less).
        let Some(rows) = length.checked_add(offset) else {
            return invalid(format!(
                "{path}: offset {offset} + length {length} rows are more than this machine \
                 addresses"
            ));
        };
        let checked = Self {
            array,
            path,
            layout,
            length,
            offset,
            rows,
            n_buffers,
        };
        if checked.buffer(0).is_null() && array.null_count > 0 {
            return invalid(format!(
                "{path}.buffers[0] (validity) is NULL, but null_count is {}",
                array.null_count
            ));
        }
        Ok(checked)
    }

    /// `length + offset`: the rows the buffers hold.
    fn rows(&self) -> usize {
        self.rows
    }

    /// Buffer `i` (< `n_buffers`), NULL or not.
    fn buffer(&self, i: usize) -> *const u8 {
        debug_assert!(i < self.n_buffers);
        // SAFETY: I1: `buffers` (checked non-NULL) holds `n_buffers` pointers, and
        // i < n_buffers (I2).
        unsafe { self.array.buffers.add(i).read_unaligned() }.cast()
    }

    /// Buffer `i`, which must not be NULL unless it holds no bytes; `what` names it.
    fn buffer_of(&self, i: usize, bytes: usize, what: &str) -> Result<*const u8> {
        let pointer = self.buffer(i);
        if pointer.is_null() && bytes > 0 {
            return invalid(format!(
                "{}.buffers[{i}] ({what}) is NULL, but the array has {} rows",
                self.path, self.length
            ));
        }
        Ok(pointer)
    }

    /// Child `i` (< `n_children`), which must be neither NULL nor released.
    fn child(&self, i: usize, path: &str) -> Result<&'a RawArray> {
        // SAFETY: I1: `children` (checked non-NULL) holds `n_children` pointers, and
        // i < n_children (I2).
        let child = unsafe { self.array.children.add(i).read_unaligned() };
        // SAFETY: I1: a non-NULL child points to an initialised `ArrowArray`.
        match unsafe { child.as_ref() } {
            None => invalid(format!("{path} is NULL")),
            Some(child) if child.release.is_none() => {
                invalid(format!("{path} is released (its release callback is NULL)"))
            }
            Some(child) => Ok(child),
        }
    }
}

/// The `i`-th native-endian `i64` (`large`) or `i32` at `p`, unaligned.
///
/// # Safety
/// I1: `p` is readable for `i + 1` such integers.
unsafe fn integer_at(p: *const u8, i: usize, large: bool) -> i64 {
    // SAFETY: the caller's promise; byte arrays have no alignment to respect.
    unsafe {
        if large {
            i64::from_ne_bytes(p.add(8 * i).cast::<[u8; 8]>().read())
        } else {
            i64::from(i32::from_ne_bytes(p.add(4 * i).cast::<[u8; 4]>().read()))
        }
    }
}

/// The checked `ArrayData` of `array` at `path` (see [`import_array`]).
///
/// # Safety
/// I1.
unsafe fn array_data(
    array: &RawArray,
    data_type: &DataType,
    owner: &Arc<FFI_ArrowArray>,
    path: &str,
    depth: usize,
    walk: &mut Walk,
) -> Result<ArrayData> {
    walk.enter(path, depth)?;
    let checked = Checked::new(array, data_type, path)?;
    let mut children = Vec::new();
    if let Layout::Struct(fields) = checked.layout {
        children
            .try_reserve_exact(fields.len())
            .map_err(|_| Error::memory("the children of an array", fields.len()))?;
        for (i, field) in fields.iter().enumerate() {
            let child_path = format!("{path}.children[{i}]");
            let child = checked.child(i, &child_path)?;
            // SAFETY: I1 for the child.
            let data = unsafe {
                array_data(
                    child,
                    field.data_type(),
                    owner,
                    &child_path,
                    depth + 1,
                    walk,
                )
            }?;
            // I6: the struct's rows are its children's rows `offset .. offset + length` (an
            // empty struct reads none).
            if checked.length > 0 && data.len() < checked.rows() {
                return invalid(format!(
                    "{child_path}.length is {}, but the struct's offset + length is {}",
                    data.len(),
                    checked.rows()
                ));
            }
            children.push(data);
        }
    }
    if checked.length == 0 {
        // Nothing to read: the buffers may be NULL whatever the type.
        return Ok(ArrayData::new_empty(data_type));
    }
    let validity = checked.buffer(0);
    let nulls = if validity.is_null() {
        None
    } else {
        // SAFETY: I1: the validity buffer holds a bit for each row.
        Some(unsafe { wrap::<u8>(validity, checked.rows().div_ceil(8), owner, path, 0) }?)
    };
    // SAFETY: I1.
    let buffers = unsafe { data_buffers(&checked, owner) }?;
    // SAFETY: validated by `import_array` before it leaves this module (I7); the buffers have
    // the lengths the type and `length + offset` imply.
    Ok(unsafe {
        ArrayData::builder(data_type.clone())
            .len(checked.length)
            .offset(checked.offset)
            .null_bit_buffer(nulls)
            .buffers(buffers)
            .child_data(children)
            .build_unchecked()
    })
}

/// The buffers after the validity buffer of a checked array that has rows, as its layout
/// requires them.
///
/// # Safety
/// I1.
unsafe fn data_buffers(checked: &Checked<'_>, owner: &Arc<FFI_ArrowArray>) -> Result<Vec<Buffer>> {
    let (path, rows, n_buffers) = (checked.path, checked.rows(), checked.n_buffers);
    let mut data = Vec::new();
    data.try_reserve_exact(n_buffers).map_err(|_| {
        let bytes = n_buffers.saturating_mul(size_of::<Buffer>());
        Error::memory("the buffers of an array", bytes)
    })?;
    match checked.layout {
        Layout::Fixed(width) => {
            let bytes = sized(rows, width, path, "values")?;
            let values = checked.buffer_of(1, bytes, "values")?;
            // SAFETY: I1: the values buffer holds `width` bytes a row.
            data.push(unsafe { wrap::<u8>(values, bytes, owner, path, 1) }?);
        }
        Layout::Offsets { large } => {
            let width = if large { 8 } else { 4 };
            // I2: `rows + 1` offsets, checked (a 32-bit target's `rows` may be `usize::MAX`).
            let Some(n_offsets) = rows.checked_add(1) else {
                return invalid(format!(
                    "{path}: offset {} + length {} + 1 offsets are more than this machine \
                     addresses",
                    checked.offset, checked.length
                ));
            };
            let offsets_len = sized(n_offsets, width, path, "offsets")?;
            let offsets = checked.buffer_of(1, offsets_len, "offsets")?;
            // SAFETY: I1: the offsets buffer holds `rows + 1` offsets.
            let last = unsafe { integer_at(offsets, rows, large) };
            let Ok(bytes) = usize::try_from(last) else {
                return invalid(format!(
                    "{path}.buffers[1] (offsets): the last offset is negative ({last})"
                ));
            };
            // SAFETY: I1, as above.
            data.push(unsafe {
                if large {
                    wrap::<i64>(offsets, offsets_len, owner, path, 1)
                } else {
                    wrap::<i32>(offsets, offsets_len, owner, path, 1)
                }
            }?);
            let values = checked.buffer_of(2, bytes, "values")?;
            // SAFETY: I1: the data buffer holds the bytes up to the last offset.
            data.push(unsafe { wrap::<u8>(values, bytes, owner, path, 2) }?);
        }
        Layout::Views => {
            let views_len = sized(rows, 16, path, "views")?;
            let views = checked.buffer_of(1, views_len, "views")?;
            // SAFETY: I1: 16 bytes a row.
            data.push(unsafe { wrap::<i128>(views, views_len, owner, path, 1) }?);
            let (variadic, sizes_index) = (n_buffers - 3, n_buffers - 1);
            let sizes = checked.buffer(sizes_index);
            if variadic > 0 && sizes.is_null() {
                return invalid(format!(
                    "{path}.buffers[{sizes_index}] (the sizes of the variadic buffers) is NULL, \
                     but n_buffers declares {variadic} variadic buffers"
                ));
            }
            for j in 0..variadic {
                // SAFETY: I1: the sizes buffer (non-NULL) holds one `i64` per variadic
                // buffer, and j < variadic (I2).
                let size = unsafe { integer_at(sizes, j, true) };
                let index = 2 + j;
                let Ok(bytes) = usize::try_from(size) else {
                    return invalid(format!(
                        "{path}.buffers[{sizes_index}]: the size of variadic buffer {index} is \
                         negative ({size})"
                    ));
                };
                let pointer = checked.buffer_of(index, bytes, "variadic data")?;
                // SAFETY: I1: the buffer holds the bytes its size declares.
                data.push(unsafe { wrap::<u8>(pointer, bytes, owner, path, index) }?);
            }
        }
        Layout::Struct(_) => {}
    }
    Ok(data)
}

/// `rows * width` bytes, if that fits in `isize`.
fn sized(rows: usize, width: usize, path: &str, what: &str) -> Result<usize> {
    rows.checked_mul(width)
        .filter(|&bytes| isize::try_from(bytes).is_ok())
        .ok_or_else(|| {
            Error::new(format!(
                "{path}: {rows} rows of {width} bytes of {what} are more than any memory holds"
            ))
        })
}

/// The `len` bytes at `pointer` as an arrow `Buffer` that keeps `owner` alive, without a copy
/// when `pointer` is aligned for `T`, copied (fallibly) otherwise.
///
/// # Safety
/// I1: `pointer` is readable for `len` bytes (it may be NULL or dangling when `len` is 0).
unsafe fn wrap<T: ArrowNativeType>(
    pointer: *const u8,
    len: usize,
    owner: &Arc<FFI_ArrowArray>,
    path: &str,
    index: usize,
) -> Result<Buffer> {
    let Some(pointer) = NonNull::new(pointer.cast_mut()).filter(|_| len > 0) else {
        return Ok(Buffer::from_vec(Vec::<u8>::new()));
    };
    if pointer.as_ptr().align_offset(align_of::<T>()) == 0 {
        // SAFETY: I1: `len` readable bytes, which stay valid until `owner` releases them.
        return Ok(unsafe { Buffer::from_custom_allocation(pointer, len, owner.clone()) });
    }
    let items = len.div_ceil(size_of::<T>());
    let mut copy: Vec<T> = Vec::new();
    copy.try_reserve_exact(items)
        .map_err(|_| Error::memory(&format!("an aligned copy of {path}.buffers[{index}]"), len))?;
    // SAFETY: I1: `len` readable bytes; the copy has room for `items * size_of::<T>() >= len`
    // bytes, all of them initialised before `set_len` (zeroed tail first).
    unsafe {
        let out = copy.as_mut_ptr().cast::<u8>();
        out.write_bytes(0, items * size_of::<T>());
        out.copy_from_nonoverlapping(pointer.as_ptr(), len);
        copy.set_len(items);
    }
    Ok(Buffer::from_vec(copy).slice_with_length(0, len))
}
