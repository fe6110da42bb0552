//! Fuzz target for the Arrow C data import of `uuidx.arrow`
//! (`rust/uuidx-py/src/ffi/arrow_import.rs`, `arrow_import_schema.rs` and `arrow_import_array.rs`,
//! compiled here as they are, siblings at this crate's root): structured inputs build
//! `ArrowSchema` and `ArrowArray` structures with hostile counts, strings, NULL pointers,
//! children, dictionaries, cycles and misaligned buffers, then run the checks and the import.
//!
//! The harness plays a producer whose *memory* is truthful (what the interface cannot reveal):
//! every non-NULL pointer points to an allocation of its own, at least as long as the declared
//! counts and the offsets and sizes it wrote imply; a buffer that could not be backed that way
//! is NULL instead. Everything else is the fuzzer's to choose. It checks that:
//! - nothing panics (libFuzzer turns a panic into a finding, caught or not);
//! - every buffer of an imported array lies inside the allocation it came from, or is a copy;
//! - an import is a `Validated` chunk (the import validates in full, the entry point the
//!   bindings use, structs with offsets included) or an error, and the chunk converts to an
//!   arrow-rs array as the bindings convert it, whose rows all read back;
//! - the array is released exactly once: at once when the import fails, when the data is
//!   dropped otherwise.
#![no_main]

use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicUsize, Ordering};

use arbitrary::Arbitrary;
use arrow_data::ffi::FFI_ArrowArray;
use arrow_data::ArrayData;
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{DataType, Field, Fields};
use libfuzzer_sys::fuzz_target;

#[path = "../../rust/uuidx-py/src/ffi/arrow_import.rs"]
mod arrow_import;
#[path = "../../rust/uuidx-py/src/ffi/arrow_import_array.rs"]
mod arrow_import_array;
#[path = "../../rust/uuidx-py/src/ffi/arrow_import_schema.rs"]
mod arrow_import_schema;

/// The most bytes one buffer may take (a buffer that would need more is NULL).
const MAX_BUFFER: usize = 1 << 16;
/// The deepest the harness builds (the import's own bound is tried by cycles).
const MAX_BUILD_DEPTH: usize = 6;

const FORMATS: &[&str] = &[
    "w:16",
    "u",
    "U",
    "z",
    "Z",
    "vu",
    "vz",
    "+s",
    "w:0",
    "w:1",
    "w:-3",
    "w:2147483647",
    "n",
    "b",
    "c",
    "i",
    "l",
    "g",
    "+l",
    "+L",
    "+vl",
    "+vL",
    "+m",
    "+r",
    "+w:2",
    "+w:-1",
    "+ud:0,1",
    "+us:0",
    "d:10,2",
    "d:10,2,256",
    "tsn:UTC",
    "tdD",
    "tin",
    "+",
    "w:",
    "",
];

#[derive(Arbitrary, Debug)]
enum Text {
    Null,
    Known(u8),
    Bytes(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
struct Metadata {
    entries: Vec<(Vec<u8>, Vec<u8>)>,
    /// A count other than the true one: beyond the entries, a negative length ends them.
    count: Option<i32>,
    /// An entry whose key length is replaced by a negative number.
    negative: Option<(u8, i32)>,
}

#[derive(Arbitrary, Debug)]
struct Schema {
    format: Text,
    name: Text,
    metadata: Option<Metadata>,
    flags: i64,
    children: Vec<Option<Schema>>,
    /// `children` NULL, with this many declared.
    null_children: Option<i64>,
    /// Declared fewer than there are (or negative).
    fewer_children: u8,
    dictionary: Option<Box<Schema>>,
    released: bool,
    /// The first child is the schema itself.
    cycle: bool,
}

#[derive(Arbitrary, Debug)]
enum Count {
    Small(u8),
    Any(i64),
}

impl Count {
    fn value(&self) -> i64 {
        match self {
            Self::Small(n) => i64::from(*n % 40),
            Self::Any(n) => *n,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct BufferSpec {
    null: bool,
    misalign: u8,
    bytes: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Array {
    length: Count,
    offset: Count,
    null_count: i64,
    /// `buffers` NULL, with this many declared.
    null_buffers: Option<i64>,
    buffers: Vec<BufferSpec>,
    fewer_buffers: u8,
    children: Vec<Option<Array>>,
    null_children: Option<i64>,
    fewer_children: u8,
    dictionary: bool,
    released: bool,
}

#[derive(Arbitrary, Debug)]
enum Type {
    /// The type the schema describes, if it imports.
    FromSchema,
    /// One of the types uuidx reads, whatever the schema.
    Known(u8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    schema: Schema,
    data_type: Type,
    array: Array,
}

// The `ArrowArray` of the C data interface, as the import declares it (arrow-rs's fields are
// private): the hostile arrays are built with it.
use arrow_import_array::RawArray as CArray;

static RELEASED: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn release_array(array: *mut CArray) {
    RELEASED.fetch_add(1, Ordering::SeqCst);
    // SAFETY: the consumer hands back the struct it owns.
    unsafe { (*array).release = None };
}

unsafe extern "C" fn release_schema(schema: *mut FFI_ArrowSchema) {
    // SAFETY: as above.
    unsafe { (*schema).release = None };
}

/// Everything the producer made, freed when the input is done.
#[derive(Default)]
struct Producer {
    strings: Vec<CString>,
    bytes: Vec<Vec<u64>>,
    schemas: Vec<Box<FFI_ArrowSchema>>,
    schema_tables: Vec<Vec<*mut FFI_ArrowSchema>>,
    arrays: Vec<Box<CArray>>,
    pointer_tables: Vec<Vec<*const c_void>>,
    array_tables: Vec<Vec<*const CArray>>,
    /// (start, end) of every buffer allocation.
    regions: Vec<(usize, usize)>,
}

impl Producer {
    fn text(&mut self, text: &Text) -> *const std::ffi::c_char {
        let bytes: Vec<u8> = match text {
            Text::Null => return std::ptr::null(),
            Text::Known(i) => FORMATS[usize::from(*i) % FORMATS.len()].as_bytes().to_vec(),
            Text::Bytes(b) => b.iter().copied().filter(|&c| c != 0).collect(),
        };
        let s = CString::new(bytes).expect("no NUL");
        let p = s.as_ptr();
        self.strings.push(s);
        p
    }

    /// A zeroed allocation of `len` bytes starting with `content`, `misalign` bytes past an
    /// 8-byte boundary.
    fn memory(&mut self, content: &[u8], len: usize, misalign: u8) -> *const u8 {
        let skip = usize::from(misalign % 8);
        let words = (len + skip).div_ceil(8).max(1);
        let mut raw = vec![0u64; words];
        let base = raw.as_mut_ptr().cast::<u8>();
        // SAFETY: `skip + len <= 8 * words`.
        let start = unsafe { base.add(skip) };
        let n = content.len().min(len);
        // SAFETY: `n <= len` bytes inside the allocation.
        unsafe { std::ptr::copy_nonoverlapping(content.as_ptr(), start, n) };
        self.regions.push((start as usize, start as usize + len));
        self.bytes.push(raw);
        start
    }

    fn metadata(&mut self, m: &Metadata) -> *const u8 {
        let real = m.entries.len().min(8);
        let count = m.count.unwrap_or(real as i32);
        let mut out = count.to_ne_bytes().to_vec();
        for (i, (key, value)) in m.entries.iter().take(real).enumerate() {
            let key_len = match m.negative {
                Some((at, n)) if usize::from(at) == i => n.min(-1),
                _ => key.len() as i32,
            };
            out.extend(key_len.to_ne_bytes());
            out.extend(key);
            out.extend((value.len() as i32).to_ne_bytes());
            out.extend(value);
        }
        // A count beyond the entries meets a negative length: the memory stays truthful.
        out.extend((-1i32).to_ne_bytes());
        let len = out.len();
        self.memory(&out, len, 0)
    }

    fn schema(&mut self, spec: &Schema, depth: usize) -> *mut FFI_ArrowSchema {
        let mut s = Box::new(FFI_ArrowSchema::empty());
        s.format = self.text(&spec.format);
        s.name = self.text(&spec.name);
        s.metadata = match &spec.metadata {
            Some(m) => self.metadata(m).cast(),
            None => std::ptr::null(),
        };
        s.flags = spec.flags;
        let children: Vec<*mut FFI_ArrowSchema> = if depth < MAX_BUILD_DEPTH {
            spec.children
                .iter()
                .take(4)
                .map(|c| match c {
                    Some(c) => self.schema(c, depth + 1),
                    None => std::ptr::null_mut(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut table = children;
        let me: *mut FFI_ArrowSchema = &mut *s;
        if spec.cycle {
            table.insert(0, me);
        }
        match spec.null_children {
            Some(n) => s.n_children = n,
            None => {
                s.n_children = table.len() as i64 - i64::from(spec.fewer_children % 3);
                s.children = table.as_mut_ptr();
            }
        }
        if depth < MAX_BUILD_DEPTH {
            if let Some(d) = &spec.dictionary {
                s.dictionary = self.schema(d, depth + 1);
            }
        }
        if !spec.released {
            s.release = Some(release_schema);
        }
        self.schema_tables.push(table);
        self.schemas.push(s);
        me
    }

    /// A buffer for slot `i` of `spec` that must hold `need` bytes (`None`: no need known, the
    /// fuzzer's bytes as they are), or NULL.
    fn buffer(&mut self, spec: &Array, i: usize, need: Option<usize>) -> *const c_void {
        let Some(b) = spec.buffers.get(i) else {
            return std::ptr::null();
        };
        let len = need
            .unwrap_or(b.bytes.len())
            .max(b.bytes.len().min(MAX_BUFFER));
        if b.null || len > MAX_BUFFER {
            return std::ptr::null();
        }
        self.memory(&b.bytes, len, b.misalign).cast()
    }

    fn array(&mut self, spec: &Array, data_type: &DataType, depth: usize) -> *mut CArray {
        let length = spec.length.value();
        let offset = spec.offset.value();
        let rows = usize::try_from(length.saturating_add(offset)).ok();
        let need = |bytes_per_row: usize| rows.and_then(|r| r.checked_mul(bytes_per_row));
        let mut pointers: Vec<*const c_void> = Vec::new();
        let views = matches!(data_type, DataType::Utf8View | DataType::BinaryView);
        // Views declare as many buffers as there are: the last holds the sizes of the others.
        let fewer = if views {
            0
        } else {
            usize::from(spec.fewer_buffers % 3)
        };
        let n = spec.buffers.len().min(12);
        for i in 0..n {
            let p = match (data_type, i) {
                (_, 0) => {
                    let bits = rows.map(|r| r.div_ceil(8));
                    self.buffer(spec, 0, bits)
                }
                (DataType::FixedSizeBinary(w), 1) => {
                    let w = usize::try_from(*w).unwrap_or(0);
                    self.buffer(spec, 1, need(w))
                }
                (DataType::Utf8 | DataType::Binary, 1) => {
                    self.buffer(spec, 1, rows.and_then(|r| r.checked_add(1)?.checked_mul(4)))
                }
                (DataType::LargeUtf8 | DataType::LargeBinary, 1) => {
                    self.buffer(spec, 1, rows.and_then(|r| r.checked_add(1)?.checked_mul(8)))
                }
                (DataType::Utf8 | DataType::Binary, 2) => {
                    let last = last_offset(pointers.get(1).copied(), rows, false);
                    self.buffer(spec, 2, Some(last))
                }
                (DataType::LargeUtf8 | DataType::LargeBinary, 2) => {
                    let last = last_offset(pointers.get(1).copied(), rows, true);
                    self.buffer(spec, 2, Some(last))
                }
                (DataType::Utf8View | DataType::BinaryView, 1) => self.buffer(spec, 1, need(16)),
                (DataType::Utf8View | DataType::BinaryView, i) if i == n - 1 && i >= 2 => {
                    // The sizes of the variadic buffers: written by the harness, truthful.
                    let sizes: Vec<u8> = (2..i)
                        .flat_map(|j| {
                            let size = spec.buffers[j].bytes.len() as i64;
                            let size = if spec.buffers[i].misalign % 5 == 4 {
                                -size - 1
                            } else {
                                size
                            };
                            size.to_ne_bytes()
                        })
                        .collect();
                    if spec.buffers[i].null {
                        std::ptr::null()
                    } else {
                        let len = sizes.len();
                        self.memory(&sizes, len, spec.buffers[i].misalign % 4)
                            .cast()
                    }
                }
                _ => self.buffer(spec, i, None),
            };
            pointers.push(p);
        }
        let field_types: Vec<DataType> = match data_type {
            DataType::Struct(fields) => fields.iter().map(|f| f.data_type().clone()).collect(),
            _ => Vec::new(),
        };
        let children: Vec<*const CArray> = if depth < MAX_BUILD_DEPTH {
            spec.children
                .iter()
                .take(4)
                .enumerate()
                .map(|(i, c)| match c {
                    Some(c) => {
                        let t = field_types.get(i).cloned().unwrap_or(DataType::Utf8);
                        self.array(c, &t, depth + 1).cast_const()
                    }
                    None => std::ptr::null(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut a = Box::new(CArray {
            length,
            null_count: spec.null_count,
            offset,
            n_buffers: 0,
            n_children: 0,
            buffers: std::ptr::null(),
            children: std::ptr::null(),
            dictionary: std::ptr::null(),
            release: (!spec.released).then_some(release_array as unsafe extern "C" fn(*mut CArray)),
            private_data: std::ptr::null_mut(),
        });
        match spec.null_buffers {
            Some(n) => a.n_buffers = n,
            None => {
                a.n_buffers = pointers.len() as i64 - fewer as i64;
                a.buffers = pointers.as_ptr();
            }
        }
        match spec.null_children {
            Some(n) => a.n_children = n,
            None => {
                a.n_children = children.len() as i64 - i64::from(spec.fewer_children % 3);
                a.children = children.as_ptr();
            }
        }
        if spec.dictionary {
            let d = Box::new(CArray {
                length: 0,
                null_count: 0,
                offset: 0,
                n_buffers: 0,
                n_children: 0,
                buffers: std::ptr::null(),
                children: std::ptr::null(),
                dictionary: std::ptr::null(),
                release: Some(release_array),
                private_data: std::ptr::null_mut(),
            });
            a.dictionary = &*d;
            self.arrays.push(d);
        }
        self.pointer_tables.push(pointers);
        self.array_tables.push(children);
        let p: *mut CArray = &mut *a;
        self.arrays.push(a);
        p
    }

    /// Every buffer of `data` (and its children) inside one of the producer's allocations
    /// ends inside it; `true` if there is any such buffer.
    fn check_within(&self, data: &ArrayData) -> bool {
        let mut borrowed = false;
        let buffers = data
            .buffers()
            .iter()
            .chain(data.nulls().map(|n| n.buffer()));
        for buffer in buffers {
            let (start, end) = (
                buffer.as_ptr() as usize,
                buffer.as_ptr() as usize + buffer.len(),
            );
            if let Some(&(lo, hi)) = self
                .regions
                .iter()
                .find(|&&(lo, hi)| lo <= start && start < hi)
            {
                assert!(
                    end <= hi,
                    "a buffer of {} bytes at {start:#x} runs past its allocation [{lo:#x}, {hi:#x})",
                    end - start
                );
                borrowed = true;
            }
        }
        for child in data.child_data() {
            borrowed |= self.check_within(child);
        }
        borrowed
    }
}

/// The last offset an offsets buffer holds for `rows` rows (0 when there is none), as a
/// length the data buffer must have.
fn last_offset(offsets: Option<*const c_void>, rows: Option<usize>, large: bool) -> usize {
    let (Some(p), Some(rows)) = (offsets, rows) else {
        return 0;
    };
    if p.is_null() {
        return 0;
    }
    let width = if large { 8 } else { 4 };
    if rows
        .checked_add(1)
        .and_then(|n| n.checked_mul(width))
        .is_none_or(|n| n > MAX_BUFFER)
    {
        return 0;
    }
    // SAFETY: the harness made this buffer with room for `rows + 1` offsets.
    let last = unsafe {
        let at = p.cast::<u8>().add(rows * width);
        if large {
            i64::from_ne_bytes(at.cast::<[u8; 8]>().read())
        } else {
            i64::from(i32::from_ne_bytes(at.cast::<[u8; 4]>().read()))
        }
    };
    usize::try_from(last).unwrap_or(0)
}

/// The types uuidx reads, for inputs whose schema does not import.
fn known_type(i: u8) -> DataType {
    let uuid = Field::new("id", DataType::FixedSizeBinary(16), true);
    match i % 9 {
        0 => DataType::FixedSizeBinary(16),
        1 => DataType::Utf8,
        2 => DataType::LargeUtf8,
        3 => DataType::Binary,
        4 => DataType::LargeBinary,
        5 => DataType::Utf8View,
        6 => DataType::BinaryView,
        7 => DataType::Struct(Fields::from(vec![uuid])),
        _ => DataType::Struct(Fields::from(vec![
            Field::new("a", DataType::Utf8View, true),
            Field::new("b", DataType::LargeBinary, true),
        ])),
    }
}

fuzz_target!(|input: Input| {
    let mut producer = Producer::default();
    let schema = producer.schema(&input.schema, 0);
    // SAFETY: the producer's memory is truthful (see the module's doc).
    let field = unsafe {
        if (*schema).release.is_some() {
            Some(arrow_import_schema::import_field(&*schema))
        } else {
            None
        }
    };
    let data_type = match (&input.data_type, field) {
        (Type::FromSchema, Some(Ok(field))) => field.data_type().clone(),
        (Type::Known(i), _) => known_type(*i),
        (Type::FromSchema, _) => known_type(0),
    };
    let array = producer.array(&input.array, &data_type, 0);
    RELEASED.store(0, Ordering::SeqCst);
    // SAFETY: a `CArray` is an `FFI_ArrowArray` (the C layout); `from_raw` moves it out.
    let moved = unsafe { FFI_ArrowArray::from_raw(array.cast()) };
    let taken = !moved.is_released();
    // SAFETY: as above.
    match unsafe { arrow_import_array::import_array(moved, &data_type) } {
        Ok(chunk) => {
            // Released at once only if nothing points into the producer's memory.
            let borrowed = producer.check_within(chunk.data());
            // The chunk is validated (I7): converted as the bindings convert it, every row reads
            // back through the public API, within bounds.
            let array = chunk
                .into_array_ref()
                .expect("a validated chunk converts to an arrow-rs array");
            std::hint::black_box(read_all(array.as_ref()));
            assert_eq!(
                RELEASED.load(Ordering::SeqCst),
                usize::from(!borrowed),
                "released while still in use, or held for nothing"
            );
            drop(array);
            assert_eq!(
                RELEASED.load(Ordering::SeqCst),
                1,
                "not released exactly once"
            );
        }
        Err(err) => {
            // The harness's buffers are small: memory never runs out.
            assert!(
                !err.is_out_of_memory() && !err.to_string().is_empty(),
                "{err}"
            );
            let expected = usize::from(taken);
            assert_eq!(RELEASED.load(Ordering::SeqCst), expected, "released {err}");
        }
    }
    drop(producer);
});

/// Reads every value of `array` (the types the import makes), summing lengths.
fn read_all(array: &dyn arrow_array::Array) -> usize {
    use arrow_array::cast::AsArray;
    let mut total = 0;
    match array.data_type() {
        DataType::FixedSizeBinary(_) => {
            let a = array.as_fixed_size_binary();
            total += a.iter().flatten().map(<[u8]>::len).sum::<usize>();
        }
        DataType::Utf8 => {
            total += array
                .as_string::<i32>()
                .iter()
                .flatten()
                .map(str::len)
                .sum::<usize>()
        }
        DataType::LargeUtf8 => {
            total += array
                .as_string::<i64>()
                .iter()
                .flatten()
                .map(str::len)
                .sum::<usize>()
        }
        DataType::Binary => {
            total += array
                .as_binary::<i32>()
                .iter()
                .flatten()
                .map(<[u8]>::len)
                .sum::<usize>()
        }
        DataType::LargeBinary => {
            total += array
                .as_binary::<i64>()
                .iter()
                .flatten()
                .map(<[u8]>::len)
                .sum::<usize>()
        }
        DataType::BinaryView => {
            total += array
                .as_binary_view()
                .iter()
                .flatten()
                .map(<[u8]>::len)
                .sum::<usize>();
        }
        DataType::Utf8View => {
            total += array
                .as_string_view()
                .iter()
                .flatten()
                .map(str::len)
                .sum::<usize>();
        }
        DataType::Struct(_) => {
            for c in array.as_struct().columns() {
                total += read_all(c.as_ref());
            }
        }
        _ => {}
    }
    total
}
