//! Building and reading exact `uuid.UUID` objects without running Python code, the few
//! other C-API calls the bindings need (integer masking, buffers, ASCII strings), and the
//! Arrow C data interface of `uuidx.arrow` (importing capsules and streams, lending a column's
//! bytes: invariants A1-A6 in the section at the end of this file).
//!
//! This is the only module of the bindings with `unsafe` code (the crate denies it elsewhere). `uuid.UUID` is a Python class
//! with `__slots__ = ('int', 'is_safe', '__weakref__')`, so an instance is a fixed-size object
//! whose two value slots sit at offsets recorded in the class's member descriptors. Instead of
//! calling `uuid.UUID(int=...)` (argument parsing, validation, `object.__setattr__` in Python),
//! [`new_uuid`] allocates through the type's own `tp_alloc` and stores the two slots directly.
//!
//! The invariants relied on, each checked once at import by [`UuidType::load`] (and tested in
//! `tests/test_exact.py`):
//! 1. `uuid.UUID.__dict__['int']` and `['is_safe']` are `member_descriptor`s of type
//!    `Py_T_OBJECT_EX` whose offsets lie inside the instance and are pointer-aligned;
//! 2. the type's `tp_alloc` returns a zero-filled instance (the slots are NULL), tracked by the
//!    GC if the type is a GC type, with one reference owned by the caller;
//! 3. storing a new reference into a slot of a fresh, unshared object is what the member
//!    descriptor's setter would do;
//! 4. slots are read only from objects whose type is *exactly* `uuid.UUID` (a pointer
//!    comparison of `Py_TYPE`). `isinstance` is not enough: it trusts `__class__`, which any
//!    object can fake while having another layout, and a subclass may override `int` or
//!    `bytes`, which the stdlib would then use. Every other object goes through its public
//!    attributes, in safe code (`convert.rs`);
//! 7. where the type's `tp_alloc` is `PyType_GenericAlloc` (on GIL builds), an instance may be
//!    allocated with `PyObject_GC_New` and its body cleared by hand, which is what
//!    `PyType_GenericAlloc` does before it tracks the object (see [`new_uuid`]).
//!
//! If invariant 1 does not hold (a future Python that reimplements `uuid.UUID`), on an
//! interpreter other than CPython, or when the environment variable `UUIDX_FORCE_FALLBACK` is
//! set to a non-empty value other than `0` when uuidx is imported (the test suite runs once
//! that way), the module falls back to calling `uuid.UUID(int=value)` and reading `.int`, so
//! behaviour is kept and only speed is lost.
//!
//! The `int` values themselves are built and read through their 30-bit digits on CPython 3.9 to
//! 3.13 (see [`digits`]), where the only public routes go through byte arrays and cost more
//! than the rest of a call. The layout is verified at import against ints made and read by
//! CPython itself. On 3.14+ they are built with CPython's digit writer (PEP 757) by
//! [`int_of`], which reports an allocation failure where pyo3's conversion would panic, and
//! read by pyo3 through the same API.
//!
//! Objects built here are untracked by the cycle collector (`PyObject_GC_UnTrack`): a UUID holds
//! an int and an enum member and cannot be part of a reference cycle unless someone stores a
//! container into its slots with `object.__setattr__`. Tracking them made every list of UUIDs
//! cost a collector pass per 700 allocations.
//!
//! On free-threaded builds another thread may rebind a UUID's `int` slot (with
//! `object.__setattr__`) and free the old value between a raw read and its incref. There, and
//! in debug builds (so that the test suite's debug pass exercises it), the slot is read
//! through the attribute, which takes the reference the way CPython's member getter does.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};

/// The environment variable that forces the fallback path (read once, at import).
pub const FORCE_FALLBACK_ENV: &str = "UUIDX_FORCE_FALLBACK";

/// `true` when `UUIDX_FORCE_FALLBACK` is set to anything but "" or "0".
fn fallback_forced() -> bool {
    std::env::var_os(FORCE_FALLBACK_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// `PyMemberDescrObject`: the common descriptor header followed by the `PyMemberDef` pointer.
/// The layout has been the same in every CPython 3.x; pyo3-ffi types the pointer differently
/// before 3.11, so it is declared here.
#[repr(C)]
struct MemberDescr {
    common: ffi::PyDescrObject,
    member: *const ffi::PyMemberDef,
}

/// `Py_T_OBJECT_EX` from `descrobject.h`.
const T_OBJECT_EX: i32 = 16;

/// What is known about `uuid.UUID` in this interpreter.
pub struct UuidType {
    /// `uuid.UUID`.
    pub ty: Py<PyType>,
    /// `uuid.SafeUUID.unknown`, the default `is_safe` of the stdlib.
    unknown: Py<PyAny>,
    /// Byte offsets of the `int` and `is_safe` slots, or `None` to use the fallback.
    slots: Option<(isize, isize)>,
    /// `true` when ints are built and read through their digits ([`digits`]).
    digits: bool,
    /// How instances can be allocated with `PyObject_GC_New` (see [`new_uuid`]), `None` to go
    /// through the type's `tp_alloc`.
    gc_new: Option<Body>,
}

/// The body of an instance after its header, for `PyObject_GC_New`: either exactly the `int`,
/// `is_safe` and `__weakref__` slots, or some other layout to zero in full.
#[derive(Clone, Copy, Debug)]
enum Body {
    /// The body is three object slots; the third, the weak reference list, is at this offset.
    ThreeSlots { weaklist: isize },
    /// Any other fixed size: `tp_basicsize`.
    Zeroed { basicsize: usize },
}

static UUID_TYPE: PyOnceLock<UuidType> = PyOnceLock::new();

impl UuidType {
    /// The cached description, loading it on first use.
    #[inline]
    pub fn get(py: Python<'_>) -> PyResult<&Self> {
        UUID_TYPE.get_or_try_init(py, || Self::load(py))
    }

    fn load(py: Python<'_>) -> PyResult<Self> {
        let uuid = py.import("uuid")?;
        let ty = uuid.getattr("UUID")?.cast_into::<PyType>()?;
        let unknown = uuid.getattr("SafeUUID")?.getattr("unknown")?.unbind();
        // The slot layout is CPython's; other interpreters take the fallback.
        let cpython = cfg!(not(any(PyPy, GraalPy)));
        let slots = if cpython && !fallback_forced() {
            match (
                slot_offset(py, &ty, "int")?,
                slot_offset(py, &ty, "is_safe")?,
            ) {
                (Some(int), Some(safe)) if int != safe => Some((int, safe)),
                _ => None,
            }
        } else {
            None
        };
        let digits = slots.is_some() && digits::verified(py);
        let gc_new = slots.and_then(|(int, safe)| gc_new_body(&ty, int, safe));
        Ok(Self {
            ty: ty.unbind(),
            unknown,
            slots,
            digits,
            gc_new,
        })
    }

    /// `true` when ints are built and read through their 30-bit digits.
    pub fn uses_digits(&self) -> bool {
        self.digits
    }

    /// `true` when instances are allocated with `PyObject_GC_New` (invariant 7).
    pub fn uses_gc_new(&self) -> bool {
        self.gc_new.is_some()
    }

    /// `true` when UUIDs are built by slot stores rather than by calling the class.
    pub fn uses_slots(&self) -> bool {
        self.slots.is_some()
    }
}

/// How instances of `ty` may be allocated with `PyObject_GC_New` instead of `tp_alloc`
/// (invariant 7 of [`new_uuid`]): `tp_alloc` is `PyType_GenericAlloc`, the type is a
/// fixed-size GC type, and the build is not free-threaded (there, `tp_alloc` is kept).
fn gc_new_body(ty: &Bound<'_, PyType>, int: isize, safe: isize) -> Option<Body> {
    if cfg!(Py_GIL_DISABLED) {
        return None;
    }
    // SAFETY: reading fields of a live type object.
    let (generic, itemsize, basicsize, weaklist, gc) = unsafe {
        let tp = ty.as_type_ptr();
        (
            // A false "different" (two addresses for one function) only costs speed.
            (*tp).tp_alloc.is_some_and(|alloc| {
                core::ptr::fn_addr_eq(alloc, ffi::PyType_GenericAlloc as ffi::allocfunc)
            }),
            (*tp).tp_itemsize,
            (*tp).tp_basicsize,
            (*tp).tp_weaklistoffset,
            ffi::PyType_IS_GC(tp) != 0,
        )
    };
    let header = isize::try_from(core::mem::size_of::<ffi::PyObject>()).ok()?;
    let pointer = isize::try_from(core::mem::size_of::<*mut ffi::PyObject>()).ok()?;
    if !(generic && itemsize == 0 && gc && basicsize >= header) {
        return None;
    }
    // The three slots in some order, right after the header, and nothing else.
    let mut offsets = [int, safe, weaklist];
    offsets.sort_unstable();
    let three = basicsize == header + 3 * pointer
        && offsets == [header, header + pointer, header + 2 * pointer];
    Some(if three {
        Body::ThreeSlots { weaklist }
    } else {
        Body::Zeroed {
            basicsize: usize::try_from(basicsize).ok()?,
        }
    })
}

/// The offset of the slot `name` of `ty`, if it is a plain object slot inside the instance.
fn slot_offset(py: Python<'_>, ty: &Bound<'_, PyType>, name: &str) -> PyResult<Option<isize>> {
    let member_type = py.import("types")?.getattr("MemberDescriptorType")?;
    let dict = ty.getattr("__dict__")?;
    let Ok(descr) = dict.get_item(name) else {
        return Ok(None);
    };
    if !descr.get_type().is(&member_type) {
        return Ok(None);
    }
    // SAFETY: `descr` is exactly a `member_descriptor`, whose C layout is `MemberDescr`; the
    // `PyMemberDef` it points to lives as long as the type, which `UUID_TYPE` keeps alive.
    let (type_code, offset) = unsafe {
        let member = (*descr.as_ptr().cast::<MemberDescr>()).member;
        if member.is_null() {
            return Ok(None);
        }
        ((*member).type_code, (*member).offset)
    };
    // SAFETY: reading `tp_basicsize` of a live type object.
    let basicsize = unsafe { (*ty.as_type_ptr()).tp_basicsize };
    let pointer = isize::try_from(core::mem::size_of::<*mut ffi::PyObject>()).unwrap_or(isize::MAX);
    let header = isize::try_from(core::mem::size_of::<ffi::PyObject>()).unwrap_or(isize::MAX);
    let aligned = offset % pointer == 0;
    let inside = offset >= header && offset + pointer <= basicsize;
    Ok((type_code == T_OBJECT_EX && aligned && inside).then_some(offset))
}

/// The address of the object slot at `offset` bytes into `obj`.
///
/// # Safety
/// `offset` must come from `slot_offset` for `obj`'s type or a base of it: then it is inside
/// the object and pointer-aligned (checked there), so the cast is aligned.
#[inline]
#[allow(clippy::cast_ptr_alignment)]
unsafe fn slot(obj: *mut ffi::PyObject, offset: isize) -> *mut *mut ffi::PyObject {
    // SAFETY: per the function's contract.
    unsafe { obj.cast::<u8>().offset(offset).cast::<*mut ffi::PyObject>() }
}

/// A new exact `uuid.UUID` whose `int` is `value` and whose `is_safe` is
/// `SafeUUID.unknown`, as `uuid.UUID(int=value)` would make.
#[inline]
pub fn new_uuid(py: Python<'_>, value: u128) -> PyResult<Bound<'_, PyAny>> {
    let t = UuidType::get(py)?;
    let Some((int_offset, safe_offset)) = t.slots else {
        let kwargs = PyDict::new(py);
        kwargs.set_item("int", value)?;
        return t.ty.bind(py).call((), Some(&kwargs));
    };
    let int = new_int(py, t, value)?;
    // SAFETY: invariants 1-3 of the module documentation, checked by `UuidType::load`.
    // Invariant 7: when `gc_new` is known, `tp_alloc` is `PyType_GenericAlloc`, which is
    // `PyObject_GC_New` (the header, the GC link, the type's reference), a zeroed body and GC
    // tracking; here the body is cleared (when it is exactly the int, is_safe and weak
    // reference slots, checked at import, the first two are stored below and the third is
    // set to NULL; otherwise it is zeroed in full), and the object is left untracked (see the
    // module documentation), which is what the untracking below does otherwise. The
    // instance is freed by the type's own `tp_dealloc`/`tp_free` (`subtype_dealloc`, then
    // `PyObject_GC_Del`), which match this allocation. Either way the result is a zeroed
    // instance owned by us, or NULL with an exception set; the two stores then move one strong
    // reference each into slots that are NULL and inside the object.
    unsafe {
        let tp = t.ty.as_ptr().cast::<ffi::PyTypeObject>();
        let obj = if let Some(body) = t.gc_new {
            let obj = ffi::PyObject_GC_New::<ffi::PyObject>(tp);
            if !obj.is_null() {
                match body {
                    // The int and is_safe slots are stored below; the third is cleared.
                    Body::ThreeSlots { weaklist } => *slot(obj, weaklist) = core::ptr::null_mut(),
                    Body::Zeroed { basicsize } => {
                        let header = core::mem::size_of::<ffi::PyObject>();
                        obj.cast::<u8>()
                            .add(header)
                            .write_bytes(0, basicsize - header);
                    }
                }
            }
            obj
        } else {
            let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            let obj = alloc(tp, 0);
            if !obj.is_null() && ffi::PyType_IS_GC(tp) != 0 {
                ffi::PyObject_GC_UnTrack(obj.cast());
            }
            obj
        };
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        *slot(obj, int_offset) = int.into_ptr();
        *slot(obj, safe_offset) = t.unknown.clone_ref(py).into_ptr();
        Ok(Bound::from_owned_ptr(py, obj))
    }
}

/// A new `int` holding `value`: through its digits when [`digits`] is verified, else
/// [`int_of`].
#[inline]
fn new_int<'py>(py: Python<'py>, t: &UuidType, value: u128) -> PyResult<Bound<'py, PyAny>> {
    if t.digits {
        if let Some(int) = digits::new_int(py, value) {
            return int;
        }
    }
    int_of(py, value)
}

/// A new `int` of `value` through public C API, each failure a Python exception. Not pyo3's
/// conversion: pyo3 0.30 asserts that `PyLongWriter_Create` succeeds (CPython 3.14+) and
/// treats a NULL from `_PyLong_FromByteArray` as a bug (3.9 to 3.13), so running out of memory
/// there panics, and a panic with no memory left to unwind with aborts the process
/// (`tests/test_errors.py` makes bulk calls under a 1 GB address-space cap).
fn int_of(py: Python<'_>, value: u128) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: every call below returns a new reference, or NULL with an exception set; `owned`
    // turns the first into a `Bound` and the second into an error. The writer's digit buffer
    // holds the `count` digits it was created for, of the layout `PyLong_GetNativeLayout`
    // reports (checked: 30-bit digits in 4 bytes, least significant first), all of which are
    // written before `PyLongWriter_Finish`.
    unsafe {
        let owned = |ptr: *mut ffi::PyObject| {
            if ptr.is_null() {
                Err(PyErr::fetch(py))
            } else {
                Ok(Bound::from_owned_ptr(py, ptr))
            }
        };
        if value >> 64 == 0 {
            return owned(ffi::PyLong_FromUnsignedLongLong(value as u64));
        }
        #[cfg(all(Py_3_14, not(Py_LIMITED_API), not(any(PyPy, GraalPy))))]
        {
            let layout = &*ffi::PyLong_GetNativeLayout();
            if (
                layout.bits_per_digit,
                layout.digit_size,
                layout.digits_order,
            ) == (30, 4, -1)
            {
                let count = (128 - value.leading_zeros()).div_ceil(30) as usize;
                let mut buffer = core::ptr::null_mut();
                #[allow(clippy::cast_possible_wrap)]
                let writer = ffi::PyLongWriter_Create(0, count as ffi::Py_ssize_t, &raw mut buffer);
                if writer.is_null() {
                    return Err(PyErr::fetch(py));
                }
                let digits = buffer.cast::<u32>();
                for i in 0..count {
                    *digits.add(i) = (value >> (30 * i)) as u32 & 0x3FFF_FFFF;
                }
                return owned(ffi::PyLongWriter_Finish(writer));
            }
        }
        // Elsewhere (fallback path, other layouts): (high << 64) | low.
        let high = owned(ffi::PyLong_FromUnsignedLongLong((value >> 64) as u64))?;
        let shift = owned(ffi::PyLong_FromLong(64))?;
        let high = owned(ffi::PyNumber_Lshift(high.as_ptr(), shift.as_ptr()))?;
        let low = owned(ffi::PyLong_FromUnsignedLongLong(value as u64))?;
        owned(ffi::PyNumber_Or(high.as_ptr(), low.as_ptr()))
    }
}

/// The `int` of an object whose type is exactly `uuid.UUID`, read from its slot; `None` for
/// any other object (subclasses and look-alikes included), for a slot that does not hold an
/// exact `int` from 0 to 2**128 - 1, and on the fallback path. Callers then read the public
/// attribute, as the stdlib would (see `convert::uuid_value`).
#[inline]
pub fn exact_uuid_int(obj: &Bound<'_, PyAny>) -> PyResult<Option<u128>> {
    let py = obj.py();
    let t = UuidType::get(py)?;
    let Some((int_offset, _)) = t.slots else {
        return Ok(None);
    };
    // SAFETY: reading the type pointer of a live object.
    let exact = unsafe { ffi::Py_TYPE(obj.as_ptr()) } == t.ty.as_ptr().cast::<ffi::PyTypeObject>();
    if !exact {
        return Ok(None);
    }
    let int = read_int_slot(obj, int_offset)?;
    Ok(int.and_then(|int| exact_int_value(&int)))
}

/// The object in the `int` slot of `obj`, whose type is exactly `uuid.UUID`, as a new
/// reference (`None` for an empty slot).
#[cfg(not(any(Py_GIL_DISABLED, debug_assertions)))]
#[inline]
fn read_int_slot<'py>(
    obj: &Bound<'py, PyAny>,
    int_offset: isize,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    // SAFETY: `obj`'s type is exactly `uuid.UUID` (invariant 4), so the slot lies at
    // `int_offset` inside it (invariant 1). It holds NULL or a reference owned by `obj`; with
    // the GIL held nothing can rebind it between this read and the incref that
    // `from_borrowed_ptr` performs at once.
    unsafe {
        let value = *slot(obj.as_ptr(), int_offset);
        Ok((!value.is_null()).then(|| Bound::from_borrowed_ptr(obj.py(), value)))
    }
}

/// The object in the `int` slot of `obj`, through the member descriptor (free-threaded and
/// debug builds: see the module documentation).
#[cfg(any(Py_GIL_DISABLED, debug_assertions))]
#[inline]
fn read_int_slot<'py>(
    obj: &Bound<'py, PyAny>,
    _int_offset: isize,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    use pyo3::exceptions::PyAttributeError;
    match obj.getattr(pyo3::intern!(obj.py(), "int")) {
        Ok(value) => Ok(Some(value)),
        Err(err) if err.is_instance_of::<PyAttributeError>(obj.py()) => Ok(None),
        Err(err) => Err(err),
    }
}

/// The value of an exact `int` from 0 to 2**128 - 1; `None` for anything else.
#[inline]
fn exact_int_value(int: &Bound<'_, PyAny>) -> Option<u128> {
    // SAFETY: a type check on a live object.
    let exact = unsafe { ffi::PyLong_CheckExact(int.as_ptr()) } != 0;
    if !exact {
        return None;
    }
    let t = UUID_TYPE.get(int.py())?;
    if t.digits {
        match digits::read_int(int) {
            Read::Value(value) => return Some(value),
            Read::OutOfRange => return None,
            Read::Unknown => {}
        }
    }
    int.extract::<u128>().ok()
}

/// What [`digits::read_int`] found (only `Unknown` where the digits are not read).
#[derive(Debug, PartialEq, Eq)]
#[cfg_attr(
    not(all(not(Py_3_14), not(any(PyPy, GraalPy)), not(Py_LIMITED_API))),
    allow(dead_code)
)]
enum Read {
    /// An int from 0 to 2**128 - 1.
    Value(u128),
    /// A negative int, or one of 2**128 or more.
    OutOfRange,
    /// Not read: the layout is not the verified one (CPython 3.14+, other interpreters;
    /// never built on 3.9 to 3.13).
    #[allow(dead_code)]
    Unknown,
}

/// Building and reading `int`s through their 30-bit digits, on CPython 3.9 to 3.13.
///
/// Invariants, verified by [`verified`] at import (against ints CPython made and read), and
/// tested in `tests/test_exact.py`:
/// 1. `sys.int_info` reports 30-bit digits stored in 4 bytes;
/// 2. an int's digits start right after the object header and one word (`ob_size` up to
///    3.11, `lv_tag` in 3.12 and 3.13), least significant first;
/// 3. that word holds the signed digit count (3.9 to 3.11) or `count << 3 | sign` with sign 0
///    positive, 1 zero, 2 negative (3.12, 3.13);
/// 4. `_PyLong_New(n)` returns a positive int of `n` digits, digits unset, or NULL with an
///    exception set; filling all `n` digits with the top one non-zero makes a normalised int.
#[cfg(all(not(Py_3_14), not(any(PyPy, GraalPy)), not(Py_LIMITED_API)))]
mod digits {
    use super::{ffi, Bound, PyAny, PyErr, PyResult, Python, Read};
    use pyo3::prelude::*;

    extern "C" {
        fn _PyLong_New(size: ffi::Py_ssize_t) -> *mut ffi::PyObject;
    }

    const BITS: u32 = 30;
    /// Digits after the header and one word (invariant 2).
    const DIGITS_AT: usize = core::mem::size_of::<ffi::PyObject>() + core::mem::size_of::<usize>();

    /// A new int of `value`, or `None` to let pyo3 make it (values below 2**64, which
    /// `PyLong_FromUnsignedLongLong` makes fast and which may come from the small-int cache).
    #[inline]
    pub(super) fn new_int(py: Python<'_>, value: u128) -> Option<PyResult<Bound<'_, PyAny>>> {
        if value >> 64 == 0 {
            return None;
        }
        // 3 to 5 digits: values here have 65 to 128 bits. The digits of each 64-bit half are
        // cut with 64-bit shifts (a 128-bit shift by a variable costs a branch each).
        let (lo, hi) = (value as u64, (value >> 64) as u64);
        let mask = (1u64 << BITS) - 1;
        let digits = [
            lo & mask,
            (lo >> 30) & mask,
            ((lo >> 60) | (hi << 4)) & mask,
            (hi >> 26) & mask,
            hi >> 56,
        ];
        let count: u8 = if digits[4] != 0 {
            5
        } else if digits[3] != 0 {
            4
        } else {
            3
        };
        // SAFETY: invariant 4: a fresh int of `count` digits owned by us; all `count` digits
        // are written (the last one non-zero: `count` stops at the highest non-zero digit, and
        // the third is non-zero since `hi` is) before the object is handed out. The digits lie
        // inside the allocation `_PyLong_New` sized, at an offset (24 on 64-bit builds) that
        // keeps the 4-byte digits aligned in an object that is itself pointer-aligned.
        #[allow(clippy::cast_ptr_alignment)]
        unsafe {
            let obj = _PyLong_New(ffi::Py_ssize_t::from(count));
            if obj.is_null() {
                return Some(Err(PyErr::fetch(py)));
            }
            let out = obj.cast::<u8>().add(DIGITS_AT).cast::<u32>();
            *out = digits[0] as u32;
            *out.add(1) = digits[1] as u32;
            *out.add(2) = digits[2] as u32;
            if count >= 4 {
                *out.add(3) = digits[3] as u32;
            }
            if count == 5 {
                *out.add(4) = digits[4] as u32;
            }
            Some(Ok(Bound::from_owned_ptr(py, obj)))
        }
    }

    /// The value of the exact `int` `obj` (checked by the caller).
    #[inline]
    pub(super) fn read_int(obj: &Bound<'_, PyAny>) -> Read {
        // SAFETY: `obj` is an exact int (checked by the caller) of the verified layout
        // (invariants 2 and 3); its digit count is read from its header and only that many
        // digits are read, all inside the object and 4-byte aligned (see `new_int`).
        #[allow(clippy::cast_ptr_alignment)]
        unsafe {
            let base = obj.as_ptr().cast::<u8>();
            let word = *base
                .add(core::mem::size_of::<ffi::PyObject>())
                .cast::<isize>();
            #[cfg(Py_3_12)]
            let (count, negative) = (word.unsigned_abs() >> 3, word & 3 == 2);
            #[cfg(not(Py_3_12))]
            let (count, negative) = (word.unsigned_abs(), word < 0);
            if negative || count > 5 {
                return Read::OutOfRange;
            }
            let digits = base.add(DIGITS_AT).cast::<u32>();
            let mut value = 0u128;
            for i in 0..count {
                value |= u128::from(*digits.add(i)) << (BITS as usize * i);
            }
            if count < 5 || *digits.add(4) >> 8 == 0 {
                Read::Value(value)
            } else {
                Read::OutOfRange
            }
        }
    }

    /// `true` when invariants 1 to 4 hold in this interpreter: ints made here equal CPython's,
    /// and ints CPython made read back to their values.
    pub(super) fn verified(py: Python<'_>) -> bool {
        let layout_ok = py
            .import("sys")
            .and_then(|sys| sys.getattr("int_info"))
            .and_then(|info| {
                Ok((
                    info.getattr("bits_per_digit")?.extract::<u32>()?,
                    info.getattr("sizeof_digit")?.extract::<usize>()?,
                ))
            })
            .is_ok_and(|(bits, size)| bits == BITS && size == 4);
        layout_ok && SAMPLES.iter().all(|&v| agrees(py, v).unwrap_or(false))
    }

    /// Values across every digit count, their edges included.
    pub(super) const SAMPLES: [u128; 12] = [
        0,
        1,
        (1 << 30) - 1,
        1 << 30,
        u64::MAX as u128,
        1 << 64,
        (1 << 90) - 1,
        1 << 90,
        (1 << 120) | 0x3039,
        0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210,
        (1 << 127) + 7,
        u128::MAX,
    ];

    fn agrees(py: Python<'_>, value: u128) -> PyResult<bool> {
        // CPython's own int, made from the decimal text of the value.
        let theirs = py
            .get_type::<pyo3::types::PyInt>()
            .call1((value.to_string(),))?;
        let read_back = read_int(&theirs) == Read::Value(value);
        let ours = match new_int(py, value) {
            Some(int) => int?,
            None => return Ok(read_back),
        };
        Ok(read_back
            && ours.eq(&theirs)?
            && ours.hash()? == theirs.hash()?
            && ours.str()?.to_string() == value.to_string())
    }
}

/// Without the 3.9-3.13 digit layout (CPython 3.14+, other interpreters): never used.
#[cfg(not(all(not(Py_3_14), not(any(PyPy, GraalPy)), not(Py_LIMITED_API))))]
mod digits {
    use super::{Bound, PyAny, PyResult, Python, Read};

    pub(super) fn new_int(_: Python<'_>, _: u128) -> Option<PyResult<Bound<'_, PyAny>>> {
        None
    }

    pub(super) fn read_int(_: &Bound<'_, PyAny>) -> Read {
        Read::Unknown
    }

    pub(super) fn verified(_: Python<'_>) -> bool {
        false
    }
}

/// A new `str` holding `ascii`, which must be ASCII (hex digits and hyphens here): allocated
/// as a compact ASCII string and filled by one copy, skipping UTF-8 decoding.
#[inline]
pub fn new_ascii_str<'py>(
    py: Python<'py>,
    ascii: &[u8],
) -> PyResult<Bound<'py, pyo3::types::PyString>> {
    debug_assert!(ascii.is_ascii());
    let len = isize::try_from(ascii.len())
        .map_err(|_| PyErr::new::<PyTypeError, _>("string too long"))?;
    // SAFETY: `PyUnicode_New(len, 127)` returns a fresh compact ASCII string (or NULL with an
    // exception set) whose data area holds `len` one-byte characters plus a NUL; it is filled
    // with ASCII bytes before anyone else can see it.
    unsafe {
        let obj = ffi::PyUnicode_New(len, 127);
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        let data = ffi::PyUnicode_DATA(obj).cast::<u8>();
        core::ptr::copy_nonoverlapping(ascii.as_ptr(), data, ascii.len());
        Ok(Bound::from_owned_ptr(py, obj).cast_into_unchecked())
    }
}

/// `true` for an `int` (or subclass) or an object with `__index__`; floats are not.
pub fn is_integer(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: type checks on a live object.
    unsafe { ffi::PyLong_Check(obj.as_ptr()) != 0 || ffi::PyIndex_Check(obj.as_ptr()) != 0 }
}

/// The low 64 bits of an integer in two's complement (`value & (2**64 - 1)`); the caller has
/// checked [`is_integer`].
pub fn low_64_bits(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    // SAFETY: `obj` is an int or has `__index__`; the call returns `(unsigned long long)-1`
    // with an exception set on failure, which is checked.
    let value = unsafe { ffi::PyLong_AsUnsignedLongLongMask(obj.as_ptr()) };
    if value == u64::MAX {
        if let Some(err) = PyErr::take(obj.py()) {
            return Err(err);
        }
    }
    Ok(value)
}

/// A copy of the bytes of an object that exposes a contiguous buffer, or `None`.
pub fn buffer_bytes(obj: &Bound<'_, PyAny>) -> Option<Vec<u8>> {
    // SAFETY: `PyObject_GetBuffer` fills `view` or fails with an exception, which is cleared;
    // on success the view is read within its length and released exactly once.
    unsafe {
        if ffi::PyObject_CheckBuffer(obj.as_ptr()) == 0 {
            return None;
        }
        let mut view = core::mem::MaybeUninit::<ffi::Py_buffer>::zeroed();
        if ffi::PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), ffi::PyBUF_SIMPLE) != 0 {
            drop(PyErr::take(obj.py()));
            return None;
        }
        let mut view = view.assume_init();
        let len = usize::try_from(view.len).unwrap_or(0);
        let bytes = if len == 0 {
            Vec::new()
        } else {
            core::slice::from_raw_parts(view.buf.cast::<u8>(), len).to_vec()
        };
        ffi::PyBuffer_Release(&raw mut view);
        Some(bytes)
    }
}

/// The cycle collector, paused for the life of this value where it is safe to (GIL builds of
/// CPython 3.10+): creating many untracked objects still counts as allocation for the
/// collector, which would otherwise run one generation-0 pass per 700 of them and, every 100
/// of those, a pass over every tracked object of the interpreter, none of which can find
/// anything the bulk call made. Restored on drop (also on an error or a panic).
///
/// Only for loops that run no Python code: then no other thread can run either (the GIL is
/// held throughout) and nothing can enable or disable the collector in between.
pub struct GcPause(
    /// Whether the collector was enabled, to enable it again (read only where it is paused).
    #[cfg_attr(not(all(Py_3_10, not(Py_GIL_DISABLED))), allow(dead_code))]
    bool,
);

impl GcPause {
    /// Pauses the collector if it is enabled.
    #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
    pub fn new(_: Python<'_>) -> Self {
        // SAFETY: the thread is attached (the token); returns the previous state.
        Self(unsafe { ffi::PyGC_Disable() } != 0)
    }

    /// Nothing to pause on this interpreter.
    #[cfg(not(all(Py_3_10, not(Py_GIL_DISABLED))))]
    pub fn new(_: Python<'_>) -> Self {
        Self(false)
    }
}

impl Drop for GcPause {
    fn drop(&mut self) {
        #[cfg(all(Py_3_10, not(Py_GIL_DISABLED)))]
        if self.0 {
            // SAFETY: the value was made on an attached thread that still holds the GIL (it
            // is dropped where it was made, before the call returns).
            unsafe {
                ffi::PyGC_Enable();
            }
        }
    }
}

/// A list of `len` items made by `item(i)`, allocated once at its final size.
pub fn list_of<'py>(
    py: Python<'py>,
    len: usize,
    mut item: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let size = isize::try_from(len).map_err(|_| PyErr::new::<PyTypeError, _>("list too long"))?;
    // SAFETY: `PyList_New(size)` returns a new list with `size` NULL slots (or NULL with an
    // exception). Each slot is filled exactly once with an owned reference by
    // `PyList_SET_ITEM`, which steals it; the list is only handed out once every slot is set.
    // If `item` fails, the list is dropped with NULL slots left, which `list_dealloc` allows.
    //
    // The list is untracked by the cycle collector while it is filled: the items' allocations
    // trigger collections, and each would traverse the growing list (quadratic in its length).
    // Nothing can reach it meanwhile, and it is tracked again before it is handed out.
    unsafe {
        let list = ffi::PyList_New(size);
        if list.is_null() {
            return Err(crate::convert::naming_the_count(py, PyErr::fetch(py), len));
        }
        ffi::PyObject_GC_UnTrack(list.cast());
        let list = Bound::from_owned_ptr(py, list);
        for i in 0..len {
            match item(i) {
                #[allow(clippy::cast_possible_wrap)]
                Ok(value) => ffi::PyList_SET_ITEM(list.as_ptr(), i as isize, value.into_ptr()),
                Err(err) => {
                    // Free the items made so far before the message is formatted: when they
                    // took the last of the memory, Rust's allocator would abort the process.
                    drop(list);
                    return Err(crate::convert::naming_the_count(py, err, len));
                }
            }
        }
        ffi::PyObject_GC_Track(list.as_ptr().cast());
        Ok(list.cast_into_unchecked())
    }
}

// --- Entry points without pyo3's argument handling --------------------------------------------
//
// pyo3 wraps every function in a trampoline that parses arguments generically, counts the GIL
// in a thread-local (a `__tls_get_addr` call in a shared library) and catches panics: about 130
// instructions for a two-argument call, as much as the work itself. The hot functions
// (`uuid4`, `uuid7`, `parse`, `to_str`, `uuid3`, `uuid5`, ...) are registered here as plain
// `METH_FASTCALL | METH_KEYWORDS` C functions whose *fast body* handles the common shape of a
// call; every other call (keywords, other argument counts or types, anything the body declines)
// is forwarded unchanged to the function pyo3 generated, which gives the full semantics and
// the usual error messages.
//
// Invariants of a fast body (see `FastBody`), relied on here:
// 5. it is called with the thread attached to the interpreter (CPython calls a C function
//    only from an attached thread), with borrowed references to the arguments that live for
//    the call;
// 6. it never drops a `Py<T>` or a `PyErr` (pyo3 would defer such a decref to its reference
//    pool, which only its trampoline drains): it returns `None` to decline, or a result whose
//    error is handed back to the interpreter here, not dropped.

/// The fast body of a hot function: `None` declines the call (it then goes to the full
/// function), `Some` is the result.
pub type FastBody =
    for<'py> fn(Python<'py>, &[&Bound<'py, PyAny>]) -> Option<PyResult<Bound<'py, PyAny>>>;

/// A hot function: its public name, the most positional arguments its fast body takes, the
/// body, and the full pyo3 function every other call goes to (whose docstring and text
/// signature it takes).
pub struct FastFunction<'py> {
    /// The function's name, as in `uuidx._core`.
    pub name: &'static core::ffi::CStr,
    /// Calls with up to this many positional arguments and no keywords go to `body`.
    pub max_args: usize,
    /// The fast path.
    pub body: FastBody,
    /// The full function (`wrap_pyfunction!`).
    pub full: Bound<'py, PyAny>,
}

struct Registered {
    max_args: usize,
    body: FastBody,
    full: Py<PyAny>,
}

/// The registered hot functions, indexed as their shims.
static REGISTERED: PyOnceLock<Vec<Registered>> = PyOnceLock::new();

/// How many hot functions there can be: one shim is instantiated per index.
const MAX_FAST: usize = 16;

/// The C entry point of hot function `I`.
///
/// # Safety
/// Called by CPython as a `METH_FASTCALL | METH_KEYWORDS` function: an attached thread,
/// `args` pointing to `nargs` borrowed references followed by `len(kwnames)` keyword values.
unsafe extern "C" fn shim<const I: usize>(
    _module: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: invariant 5: CPython calls C functions from an attached thread.
    let py = unsafe { Python::assume_attached() };
    let Some(f) = REGISTERED.get(py).and_then(|all| all.get(I)) else {
        pyo3::exceptions::PySystemError::new_err("uuidx: an unregistered fast function")
            .restore(py);
        return core::ptr::null_mut();
    };
    // A count is never negative; a negative one goes on to the full function as 0 would.
    let count = usize::try_from(nargs).unwrap_or(0);
    if kwnames.is_null() && count <= f.max_args && count <= 3 {
        // SAFETY: `args` holds `nargs` borrowed references valid for the call (invariant 5);
        // `ref_from_ptr` views each slot as a `&Bound` without touching its count.
        let result = unsafe {
            let arg = |i: usize| Bound::ref_from_ptr(py, &*args.add(i));
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match count {
                0 => (f.body)(py, &[]),
                1 => (f.body)(py, &[arg(0)]),
                2 => (f.body)(py, &[arg(0), arg(1)]),
                _ => (f.body)(py, &[arg(0), arg(1), arg(2)]),
            }))
        };
        match result {
            Ok(Some(Ok(obj))) => return obj.into_ptr(),
            Ok(Some(Err(err))) => {
                err.restore(py);
                return core::ptr::null_mut();
            }
            Ok(None) => {}
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic in uuidx".to_owned());
                pyo3::panic::PanicException::new_err(message).restore(py);
                return core::ptr::null_mut();
            }
        }
    }
    // SAFETY: forwarding the call unchanged: the same arguments, count (without the
    // PY_VECTORCALL_ARGUMENTS_OFFSET flag, so the callee may not write before `args`) and
    // keyword names, to a live callable.
    unsafe { ffi::PyObject_Vectorcall(f.full.as_ptr(), args, count, kwnames) }
}

/// One shim per index.
const SHIMS: [ffi::PyCFunctionFastWithKeywords; MAX_FAST] = [
    shim::<0>, shim::<1>, shim::<2>, shim::<3>, shim::<4>, shim::<5>, shim::<6>, shim::<7>,
    shim::<8>, shim::<9>, shim::<10>, shim::<11>, shim::<12>, shim::<13>, shim::<14>, shim::<15>,
];

/// Adds the hot functions to the module (once per process), each a C function whose
/// docstring and text signature are the full function's.
pub fn add_fast_functions(
    m: &Bound<'_, PyModule>,
    functions: Vec<FastFunction<'_>>,
) -> PyResult<()> {
    let py = m.py();
    if functions.len() > MAX_FAST {
        return Err(pyo3::exceptions::PySystemError::new_err(
            "uuidx: too many fast functions",
        ));
    }
    let mut defs = Vec::with_capacity(functions.len());
    let mut registered = Vec::with_capacity(functions.len());
    for (i, f) in functions.into_iter().enumerate() {
        let signature: Option<String> = f
            .full
            .getattr("__text_signature__")
            .ok()
            .and_then(|s| s.extract().ok());
        let doc: Option<String> = f
            .full
            .getattr("__doc__")
            .ok()
            .and_then(|d| d.extract().ok());
        let text = match signature {
            Some(sig) => format!(
                "{}{sig}\n--\n\n{}",
                f.name.to_string_lossy(),
                doc.unwrap_or_default()
            ),
            None => doc.unwrap_or_default(),
        };
        let doc = std::ffi::CString::new(text)
            .map_err(|_| pyo3::exceptions::PySystemError::new_err("a docstring with a NUL"))?;
        defs.push((f.name, doc, SHIMS[i]));
        registered.push(Registered {
            max_args: f.max_args,
            body: f.body,
            full: f.full.unbind(),
        });
    }
    REGISTERED.set(py, registered).map_err(|_| {
        pyo3::exceptions::PyImportError::new_err("uuidx._core is already initialised")
    })?;
    let module_name = m.name()?;
    for (name, doc, meth) in defs {
        // The method definition must outlive every function object made from it: it is
        // leaked, once per process (the module cannot be initialised twice, see above).
        let def = Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: name.as_ptr(),
            ml_meth: ffi::PyMethodDefPointer {
                PyCFunctionFastWithKeywords: meth,
            },
            ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            ml_doc: doc.into_raw(),
        }));
        // SAFETY: a valid, 'static method definition; the module object and its name are
        // live; the result is a new reference or NULL with an exception set.
        let function = unsafe {
            let raw = ffi::PyCFunction_NewEx(def, m.as_ptr(), module_name.as_ptr());
            if raw.is_null() {
                return Err(PyErr::fetch(py));
            }
            Bound::from_owned_ptr(py, raw)
        };
        m.add(name.to_str().unwrap_or("?"), function)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The Arrow C data interface (`uuidx.arrow`)
//
// Arrow columns travel between libraries as three C structs, `ArrowSchema`, `ArrowArray` and
// `ArrowArrayStream`, handed over in PyCapsules named "arrow_schema", "arrow_array" and
// "arrow_array_stream" (the Arrow PyCapsule interface). The structs are arrow-rs's
// (`arrow_schema::ffi`, `arrow_data::ffi`, `arrow_array::ffi_stream`), never redeclared here.
// Exporting needs no unsafe code: `arrow.rs` puts an arrow-rs struct in a capsule that owns it,
// whose destructor releases it unless a consumer moved it out. Importing, reading a stream and
// lending a column's bytes through the buffer protocol do need it, and are done here. What they
// rely on (each tested in `tests/test_arrow_ffi.py`):
//
// A1. A capsule is read only after its name is checked: one named "arrow_schema" points to an
//     aligned, initialised `ArrowSchema`, "arrow_array" to an `ArrowArray`, "arrow_array_stream"
//     to an `ArrowArrayStream` (the interface's contract with every producer), owned by the
//     capsule, which the caller keeps alive. A capsule of another name, or not a capsule, is a
//     `TypeError` before any read.
// A2. A schema is borrowed, never moved: it stays its capsule's to release. It is read only
//     while no Python code can run (so the capsule cannot be changed under it), and a released
//     schema (`release` NULL, its strings possibly freed) is refused after reading only `release`.
// A3. An array or a stream is *moved* out of its capsule ("moving an array" in the C data
//     interface): the capsule is left holding a released struct, so its destructor does nothing
//     and a second import of the same capsule finds `release` NULL and is refused (`ValueError`)
//     instead of releasing the data twice.
// A4. An imported array is described by the schema it came with (the pair one
//     `__arrow_c_array__` call returned, or the schema of its stream): arrow-rs computes buffer
//     lengths from that type, trusting the producer as the interface does. The data is
//     `ArrayData` built without validation; `arrow.rs` validates it (`validate_data`: buffer
//     sizes, offsets, views, null counts) before any kernel reads a row.
// A5. A stream's callbacks are called only while it is live (`release` set), on the struct this
//     module owns, from one thread at a time; `get_last_error`'s string is copied at once,
//     before the next call could free it. Dropping the struct releases the stream (arrow-rs's
//     `Drop`), once.
// A6. The buffer protocol lends a pointer into an immutable arrow `Buffer` held by a frozen
//     object; the view holds a strong reference to that object (`view.obj`, set by
//     `PyBuffer_FillInfo`), so the bytes outlive every other reference to it (NumPy's array
//     keeps the column alive). The view is read-only: a request for a writable buffer is a
//     `BufferError`.

/// The capsule names of the Arrow PyCapsule interface.
pub const SCHEMA_CAPSULE: &std::ffi::CStr = c"arrow_schema";
/// See [`SCHEMA_CAPSULE`].
pub const ARRAY_CAPSULE: &std::ffi::CStr = c"arrow_array";
/// See [`SCHEMA_CAPSULE`].
pub const STREAM_CAPSULE: &std::ffi::CStr = c"arrow_array_stream";

/// The pointer held by `obj`, a capsule named `name` (A1); `TypeError` naming `what` otherwise.
fn capsule_pointer<T>(
    obj: &Bound<'_, PyAny>,
    name: &std::ffi::CStr,
    what: &str,
) -> PyResult<core::ptr::NonNull<T>> {
    use pyo3::types::{PyCapsule, PyCapsuleMethods};
    let wrong = || {
        PyTypeError::new_err(format!(
            "{what} must be a PyCapsule named {:?}, got {}",
            name.to_string_lossy(),
            crate::convert::short_repr(obj)
        ))
    };
    let capsule = obj.cast::<PyCapsule>().map_err(|_| wrong())?;
    if !capsule.is_valid_checked(Some(name)) {
        return Err(wrong());
    }
    Ok(capsule.pointer_checked(Some(name))?.cast())
}

fn released(what: &str, kind: &str) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!(
        "{what}: the Arrow {kind} in the capsule was already released or imported \
         (a capsule can be imported once)"
    ))
}

fn arrow_err(what: &str, err: &arrow_schema::ArrowError) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!("{what}: invalid Arrow data: {err}"))
}

/// The field described by `obj`, an "arrow_schema" capsule, which keeps its schema (A1, A2).
pub fn import_field(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<arrow_schema::Field> {
    let schema = capsule_pointer::<arrow_schema::ffi::FFI_ArrowSchema>(obj, SCHEMA_CAPSULE, what)?;
    // SAFETY: A1: the pointer of a capsule named "arrow_schema" is an aligned, initialised
    // `ArrowSchema` owned by the capsule, which `obj` keeps alive. A2: it is borrowed for this
    // function only, which runs no Python code; `release` is read before anything else.
    let schema = unsafe { schema.as_ref() };
    if schema.release.is_none() {
        return Err(released(what, "schema"));
    }
    arrow_schema::Field::try_from(schema).map_err(|e| arrow_err(what, &e))
}

/// The field and the data of an "arrow_schema" and an "arrow_array" capsule returned together
/// by one `__arrow_c_array__` call, if `accept` accepts the field (the array is then moved out
/// of its capsule, A3, and is not yet validated, A4); only the field otherwise.
pub fn import_array(
    schema: &Bound<'_, PyAny>,
    array: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&arrow_schema::Field) -> bool,
) -> PyResult<(arrow_schema::Field, Option<arrow_data::ArrayData>)> {
    use arrow_data::ffi::FFI_ArrowArray;
    let field = import_field(schema, what)?;
    if !accept(&field) {
        return Ok((field, None));
    }
    let pointer = capsule_pointer::<FFI_ArrowArray>(array, ARRAY_CAPSULE, what)?;
    // SAFETY: A1: an aligned, initialised `ArrowArray` owned by the live capsule. A3:
    // `from_raw` moves it out and leaves a released struct in its place.
    let moved = unsafe { FFI_ArrowArray::from_raw(pointer.as_ptr()) };
    if moved.is_released() {
        return Err(released(what, "array"));
    }
    let data_type = field.data_type().clone();
    // SAFETY: A4: the array was exported with this schema; arrow-rs takes ownership of it
    // (released when the last buffer is dropped) and computes buffer lengths from the type.
    let data = unsafe { arrow_array::ffi::from_ffi_and_data_type(moved, data_type) }
        .map_err(|e| arrow_err(what, &e))?;
    Ok((field, Some(data)))
}

/// The field of an "arrow_array_stream" capsule and, if `accept` accepts it, every array of
/// the stream, read to its end. The stream is moved out of its capsule (A3), read through its
/// callbacks (A5) and released; the arrays are not yet validated (A4).
pub fn import_stream(
    obj: &Bound<'_, PyAny>,
    what: &str,
    accept: impl Fn(&arrow_schema::Field) -> bool,
) -> PyResult<(arrow_schema::Field, Option<Vec<arrow_data::ArrayData>>)> {
    use arrow_array::ffi_stream::FFI_ArrowArrayStream;
    use arrow_data::ffi::FFI_ArrowArray;
    use arrow_schema::ffi::FFI_ArrowSchema;
    let pointer = capsule_pointer::<FFI_ArrowArrayStream>(obj, STREAM_CAPSULE, what)?;
    // SAFETY: A1: an aligned, initialised `ArrowArrayStream` owned by the live capsule. A3:
    // `from_raw` moves it out and leaves a released struct in its place; dropping `stream`
    // at the end of this function releases it (A5).
    let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(pointer.as_ptr()) };
    let (Some(get_schema), Some(get_next), Some(_)) =
        (stream.get_schema, stream.get_next, stream.release)
    else {
        return Err(released(what, "stream"));
    };
    let mut schema = FFI_ArrowSchema::empty();
    // SAFETY: A5: the stream is live and owned here; `get_schema` fills `schema`, which is then
    // ours and released when dropped, or returns an error code and leaves it released.
    let code = unsafe { get_schema(&raw mut stream, &raw mut schema) };
    if code != 0 {
        return Err(stream_error(&mut stream, code, what));
    }
    let field = arrow_schema::Field::try_from(&schema).map_err(|e| arrow_err(what, &e))?;
    if !accept(&field) {
        return Ok((field, None));
    }
    let mut arrays = Vec::new();
    loop {
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: A5, as for `get_schema`: `array` is filled with an array we own, or left
        // released at the end of the stream.
        let code = unsafe { get_next(&raw mut stream, &raw mut array) };
        if code != 0 {
            return Err(stream_error(&mut stream, code, what));
        }
        if array.is_released() {
            return Ok((field, Some(arrays)));
        }
        // SAFETY: A4: every array of a stream has the stream's schema.
        let data =
            unsafe { arrow_array::ffi::from_ffi_and_data_type(array, field.data_type().clone()) }
                .map_err(|e| arrow_err(what, &e))?;
        arrays.push(data);
    }
}

/// The error of a stream callback that returned `code` (an errno value), with the stream's
/// own message when it has one.
fn stream_error(
    stream: &mut arrow_array::ffi_stream::FFI_ArrowArrayStream,
    code: std::ffi::c_int,
    what: &str,
) -> PyErr {
    let message = stream.get_last_error.and_then(|get_last_error| {
        // SAFETY: A5: the stream is live; the callback returns NULL or a NUL-terminated string
        // valid until the next call on the stream, which is copied before anything else.
        unsafe {
            let text = get_last_error(stream);
            (!text.is_null()).then(|| {
                std::ffi::CStr::from_ptr(text)
                    .to_string_lossy()
                    .into_owned()
            })
        }
    });
    pyo3::exceptions::PyValueError::new_err(format!(
        "{what}: the Arrow stream failed (error code {code}): {}",
        message.as_deref().unwrap_or("no message")
    ))
}

/// The read-only bytes behind a column object, lent through the buffer protocol
/// (`memoryview(column)`, `numpy.frombuffer(column, dtype="V16")`); `uuidx.arrow.UUIDArray`
/// extends it. The bytes are one arrow `Buffer`, immutable and shared, never copied (A6).
#[pyclass(subclass, frozen, module = "uuidx.arrow", name = "_ReadOnlyBytes")]
pub struct ReadOnlyBytes {
    bytes: arrow_buffer::Buffer,
}

impl ReadOnlyBytes {
    /// Lends `bytes`.
    pub fn new(bytes: arrow_buffer::Buffer) -> Self {
        Self { bytes }
    }
}

#[pymethods]
impl ReadOnlyBytes {
    /// A one-dimensional, read-only view of unsigned bytes.
    unsafe fn __getbuffer__(
        slf: &Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: std::ffi::c_int,
    ) -> PyResult<()> {
        let bytes = &slf.get().bytes;
        let len = isize::try_from(bytes.len())
            .map_err(|_| PyErr::new::<PyTypeError, _>("buffer too long"))?;
        // SAFETY: A6. `view` is the interpreter's to fill. `PyBuffer_FillInfo` stores a new
        // reference to `slf` in `view.obj` (dropped by `PyBuffer_Release`), marks the view
        // read-only and refuses `PyBUF_WRITABLE` with a BufferError; the pointer is never
        // written through. `bytes` lives as long as `slf`, whose field cannot change (frozen).
        let code = unsafe {
            ffi::PyBuffer_FillInfo(
                view,
                slf.as_ptr(),
                bytes.as_ptr().cast_mut().cast(),
                len,
                1,
                flags,
            )
        };
        if code == 0 {
            Ok(())
        } else {
            Err(PyErr::fetch(slf.py()))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Large column buffers
//
// A7. A column buffer of `HUGE_PAGES_FROM` bytes or more (the size from which glibc maps every
//     allocation afresh from the kernel anyway) is an anonymous private mapping of its own,
//     zero-filled by the kernel and, where Linux allows it, backed by transparent huge pages
//     (`madvise(MADV_HUGEPAGE)`, a hint): one page fault per 2 MiB of a new column instead of
//     one per 4 KiB (on the VMs this is measured on, about 6 ms instead of 20 ms for 36 MB).
//     The mapping is written only through the `&mut [u8]` of its one owner, `ColumnBytes`;
//     `ColumnBytes::freeze` then hands it to an arrow `Buffer` that owns it (through an `Arc`),
//     and it is unmapped exactly once, when the last reference to the bytes is dropped,
//     whoever holds it (a pyarrow array, a NumPy view through A6).

/// Columns of at least this many bytes get a mapping of their own (A7).
#[cfg(target_os = "linux")]
pub const HUGE_PAGES_FROM: usize = 32 << 20;

/// The bytes of a new column: zero-filled, written by a kernel through [`ColumnBytes::as_mut`],
/// then frozen into an arrow `Buffer` without a copy.
pub struct ColumnBytes(Storage);

enum Storage {
    Heap(Vec<u8>),
    #[cfg(target_os = "linux")]
    Mapped(Mapping),
}

impl ColumnBytes {
    /// `len` zero bytes; `MemoryError` naming `what` if they cannot be had.
    pub fn zeroed(len: usize, what: &str) -> PyResult<Self> {
        #[cfg(target_os = "linux")]
        if len >= HUGE_PAGES_FROM {
            if let Some(mapping) = Mapping::new(len) {
                return Ok(Self(Storage::Mapped(mapping)));
            }
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(len).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!(
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
            #[cfg(target_os = "linux")]
            // SAFETY: A7: `len` readable and writable bytes from `data`, inside the mapping
            // this value owns alone (`&mut self`), zero-filled by the kernel: valid `u8`s.
            Storage::Mapped(m) => unsafe {
                core::slice::from_raw_parts_mut(m.data as *mut u8, m.len)
            },
        }
    }

    /// The bytes as an immutable arrow `Buffer` that owns them.
    pub fn freeze(self) -> arrow_buffer::Buffer {
        match self.0 {
            Storage::Heap(bytes) => arrow_buffer::Buffer::from_vec(bytes),
            #[cfg(target_os = "linux")]
            Storage::Mapped(m) => {
                let (data, len) = (m.data as *mut u8, m.len);
                let Some(data) = core::ptr::NonNull::new(data) else {
                    return arrow_buffer::Buffer::from_vec(Vec::<u8>::new());
                };
                // SAFETY: A7: `data` is valid for `len` bytes for as long as the mapping lives,
                // and the `Arc` makes the buffer (and every slice of it) own the mapping, which
                // unmaps it on its last drop. No `&mut` to it remains: `self` was consumed.
                unsafe {
                    arrow_buffer::Buffer::from_custom_allocation(data, len, std::sync::Arc::new(m))
                }
            }
        }
    }
}

/// An anonymous private mapping, with `len` bytes from the 2 MiB boundary `data` (addresses
/// kept as integers: the bytes are plain data, shared read-only once frozen).
#[cfg(target_os = "linux")]
struct Mapping {
    base: usize,
    size: usize,
    data: usize,
    len: usize,
}

#[cfg(target_os = "linux")]
impl Mapping {
    const HUGE_PAGE: usize = 2 << 20;

    fn new(len: usize) -> Option<Self> {
        let size = len.checked_add(Self::HUGE_PAGE)?;
        // SAFETY: a new anonymous private mapping (no file, no address hint): fresh zeroed
        // pages that nothing else refers to; MAP_FAILED is checked.
        let base = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let skip = base.cast::<u8>().align_offset(Self::HUGE_PAGE);
        let mapping = Self {
            base: base as usize,
            size,
            data: base as usize + skip,
            len,
        };
        // SAFETY: `skip` < 2 MiB, so `data .. data + len` lies inside the mapping, which is
        // ours; the advice is a hint, and its failure (no THP support) changes nothing else.
        unsafe { libc::madvise(mapping.data as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
        Some(mapping)
    }
}

#[cfg(target_os = "linux")]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: A7: the mapping made in `new`, unmapped once, after every reference to its
        // bytes is gone (this is the last owner).
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.size) };
    }
}
