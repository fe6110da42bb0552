//! An `ArrowArray` from a producer that uuidx does not trust, of a type uuidx reads
//! (fixed-size binary, binary and string, plain, large and view, and structs of them): its
//! counts and pointers checked, its buffers wrapped, without a copy, as arrow-rs `ArrayData`
//! whose lengths this file computes from the schema's type (views excepted: I8), and that data
//! validated in full ([`import_array`]). Part of the Arrow import ([`super::arrow_import`],
//! whose walk, panic guard and [`Validated`] chunks it uses); like it, std and arrow-rs only,
//! compiled by the fuzz target too, which builds its hostile arrays with [`RawArray`].
//!
//! Invariants:
//! I1. (the callers' promise: the `# Safety` sections) every non-NULL pointer of an array
//!     points to memory readable for what the array declares: a `buffers` or `children` array
//!     of `n_buffers` or `n_children` entries, a buffer as long as the type, `length`, `offset`,
//!     the offsets and the variadic sizes imply; and the array stays unchanged until it is
//!     released;
//! I2. a pointer is read through only once it is checked non-NULL, and an array of pointers only
//!     below a count checked to be non-negative and small enough for its pointers to fit in
//!     `isize` bytes; `length + offset`, the `length + offset + 1` offsets of a binary array
//!     and buffer lengths are computed with checked arithmetic and must fit in `usize` and
//!     `isize` (a 32-bit target's `usize` holds less than the counts' `i64`);
//! I3. [`RawArray`] has the layout of arrow-rs's `FFI_ArrowArray`, whose members are private
//!     (size and alignment checked at compile time), and reads the moved struct only while the
//!     `Arc` that owns it lives;
//! I4. arrow-rs gets an array only as buffers whose lengths this file computed, through a
//!     bounded walk (the import's I1), inside the import's panic guard (its I2);
//! I5. the memory that the producer's counts size is allocated fallibly (an [`Error`] that
//!     [`Error::is_out_of_memory`]), and an imported array's buffers each hold a reference to
//!     the moved `FFI_ArrowArray`, which is released once, when the last of them goes (or at
//!     once when the import fails);
//! I6. a struct's children each have at least the struct's `offset + length` rows, checked
//!     before the struct's data is built (the import's I3, checked again by its validation);
//! I7. the data leaves this file only as a [`Validated`] chunk (the import's I4);
//! I8. a view array (`string_view`, `binary_view`) is read here, each view's fields in this
//!     machine's byte order as the C data interface lays them out, checked as arrow-rs checks
//!     views, and copied into a large-offsets array ([`held_type`]): arrow-rs reads a view as a
//!     little-endian `u128` and an inline value at its memory bytes 4..16, which on a
//!     big-endian machine disagree, so arrow-rs never holds a view array that came from a
//!     producer. One path on every target; its cost is one copy of the values.
//!
//! Tested by `tests/columns/test_arrow_hostile.py` (its array cases, through arrays and streams;
//! misaligned buffers; a table whose offset runs past its column; every way a view can be
//! wrong), `tests/columns/test_arrow_views.py` (views of every length, sliced, with nulls, as
//! pyarrow and the C layout make them),
//! `tests/columns/test_arrow_ffi.py` (slices and offsets, empty arrays, streams of chunks) and
//! the fuzz target.

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::Arc;

use arrow_buffer::{ArrowNativeType, Buffer};
use arrow_data::ffi::FFI_ArrowArray;
use arrow_data::{ArrayData, MAX_INLINE_VIEW_LEN};
use arrow_schema::DataType;

use super::arrow_import::{caught, count, invalid, validated, Error, Result, Validated, Walk};

/// `ArrowArray` as the C data interface declares it: the layout of arrow-rs's `FFI_ArrowArray`,
/// whose members are private (its size and alignment are checked against this below, I3). The
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
    // SAFETY: I3: `RawArray` has the layout of `FFI_ArrowArray` (checked above), and the struct
    // lives as long as `owner`, which outlives this call.
    let raw = unsafe { &*Arc::as_ptr(&owner).cast::<RawArray>() };
    let data = caught("array", || {
        // SAFETY: I1, the caller's promise.
        unsafe { array_data(raw, data_type, &owner, "array", 0, &mut Walk::default()) }
    })?;
    validated(data)
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
    let held = held_type(data_type);
    if checked.length == 0 {
        // Nothing to read: the buffers may be NULL whatever the type.
        return Ok(ArrayData::new_empty(&held));
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
    // SAFETY: validated by `import_array` before it leaves this file (I7); the buffers have
    // the lengths the type and `length + offset` imply.
    Ok(unsafe {
        ArrayData::builder(held)
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
            let (variadic, sizes_index) = (n_buffers - 3, n_buffers - 1);
            let sizes = checked.buffer(sizes_index);
            if variadic > 0 && sizes.is_null() {
                return invalid(format!(
                    "{path}.buffers[{sizes_index}] (the sizes of the variadic buffers) is NULL, \
                     but n_buffers declares {variadic} variadic buffers"
                ));
            }
            let mut buffers: Vec<&[u8]> = Vec::new();
            buffers.try_reserve_exact(variadic).map_err(|_| {
                let bytes = variadic.saturating_mul(size_of::<&[u8]>());
                Error::memory("the variadic buffers of a view array", bytes)
            })?;
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
                buffers.push(unsafe { bytes_at(pointer, bytes) });
            }
            // SAFETY: I1: 16 bytes a row.
            let views = unsafe { bytes_at(views, views_len) };
            let (offsets, values) = views_as_offsets(views, &buffers, checked.offset, path)?;
            data.push(offsets);
            data.push(values);
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

/// The `len` bytes at `pointer`, borrowed for the import (empty when `len` is 0).
///
/// # Safety
/// I1: `pointer` is readable for `len` bytes (it may be NULL or dangling when `len` is 0).
unsafe fn bytes_at<'b>(pointer: *const u8, len: usize) -> &'b [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: I1; `len` bytes fit in `isize` (`sized`, or a size the producer declared for
    // memory it holds); bytes have no alignment.
    unsafe { std::slice::from_raw_parts(pointer, len) }
}

/// The type an imported array of `data_type` is held as (I8): the same, but with views as large
/// offsets (`Utf8View` as `LargeUtf8`, `BinaryView` as `LargeBinary`), in structs too.
pub(super) fn held_type(data_type: &DataType) -> DataType {
    match data_type {
        DataType::Utf8View => DataType::LargeUtf8,
        DataType::BinaryView => DataType::LargeBinary,
        DataType::Struct(fields) => DataType::Struct(
            fields
                .iter()
                .map(|f| Arc::new(f.as_ref().clone().with_data_type(held_type(f.data_type()))))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The view of row `row` (16 bytes, as the C data interface lays it out in the producer's byte
/// order: a 32-bit length, then the value itself when it has at most 12 bytes, else a 4-byte
/// prefix, a 32-bit buffer index and a 32-bit offset), checked as arrow-rs checks a view:
/// the bytes of a short value past its length are zero, a long value lies inside its
/// variadic buffer and starts with its prefix.
fn view_value<'b>(
    view: &'b [u8],
    buffers: &[&'b [u8]],
    row: usize,
    path: &str,
) -> Result<&'b [u8]> {
    let field =
        |at: usize| u32::from_ne_bytes([view[at], view[at + 1], view[at + 2], view[at + 3]]);
    let len = field(0);
    // Every target uuidx builds for has a `usize` of 32 bits or more.
    let n = usize::try_from(len).unwrap_or(usize::MAX);
    if len <= MAX_INLINE_VIEW_LEN {
        if view[4 + n..].iter().any(|&b| b != 0) {
            return invalid(format!(
                "{path}.buffers[1] (views): row {row} holds its {n} bytes inline, but the \
                 bytes after them are not zero"
            ));
        }
        return Ok(&view[4..4 + n]);
    }
    let (index, start) = (field(8), field(12));
    let Some(buffer) = usize::try_from(index).ok().and_then(|i| buffers.get(i)) else {
        return invalid(format!(
            "{path}.buffers[1] (views): row {row} points into variadic buffer {index}, but the \
             array has {} variadic buffers",
            buffers.len()
        ));
    };
    let value = usize::try_from(start)
        .ok()
        .and_then(|start| buffer.get(start..start.checked_add(n)?));
    let Some(value) = value else {
        return invalid(format!(
            "{path}.buffers[1] (views): row {row} is bytes {start}..{} of variadic buffer \
             {index}, which holds {}",
            u64::from(start) + u64::from(len),
            buffer.len()
        ));
    };
    if value[..4] != view[4..8] {
        return invalid(format!(
            "{path}.buffers[1] (views): the prefix of row {row} is not the first 4 bytes of its \
             value"
        ));
    }
    Ok(value)
}

/// Rows `first..` of `views` (16 bytes each) over the variadic `buffers`, read with
/// [`view_value`] (each checked), copied into large-binary offsets and values (I8): rows
/// before `first` are empty, so the array's offset stays as the producer set it. Allocated
/// fallibly (I5).
fn views_as_offsets(
    views: &[u8],
    buffers: &[&[u8]],
    first: usize,
    path: &str,
) -> Result<(Buffer, Buffer)> {
    let rows = views.len() / 16;
    let mut total = 0_usize;
    for (i, view) in views.chunks_exact(16).enumerate().skip(first) {
        let n = view_value(view, buffers, i - first, path)?.len();
        total = match total.checked_add(n).filter(|&t| i64::try_from(t).is_ok()) {
            Some(total) => total,
            None => {
                return invalid(format!(
                    "{path}: the values of its views are more bytes than any memory holds"
                ))
            }
        };
    }
    let mut values: Vec<u8> = Vec::new();
    values
        .try_reserve_exact(total)
        .map_err(|_| Error::memory("the values of a view array", total))?;
    let mut offsets: Vec<i64> = Vec::new();
    offsets
        .try_reserve_exact(rows + 1)
        .map_err(|_| Error::memory("the offsets of a view array", (rows + 1).saturating_mul(8)))?;
    offsets.resize(first + 1, 0);
    for (i, view) in views.chunks_exact(16).enumerate().skip(first) {
        values.extend_from_slice(view_value(view, buffers, i - first, path)?);
        // `values` holds at most `total` bytes, which fits in `i64` (checked above).
        offsets.push(i64::try_from(values.len()).unwrap_or(i64::MAX));
    }
    Ok((Buffer::from_vec(offsets), Buffer::from_vec(values)))
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
