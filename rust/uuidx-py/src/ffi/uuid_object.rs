//! The exact `uuid.UUID` object: its layout, discovered at import, instances built by slot
//! stores, and the `int` read back from instances whose type is exactly `uuid.UUID`.
//!
//! `uuid.UUID` is a Python class with `__slots__ = ('int', 'is_safe', '__weakref__')`, so an
//! instance is a fixed-size object whose two value slots sit at offsets recorded in the class's
//! member descriptors. Instead of calling `uuid.UUID(int=...)` (argument parsing, validation,
//! `object.__setattr__` in Python), [`new_uuid`] allocates through the type's own `tp_alloc`
//! and stores the two slots directly.
//!
//! Invariants, each checked once at import by [`UuidType::load`]:
//! 1. `uuid.UUID.__dict__['int']` and `['is_safe']` are `member_descriptor`s of type
//!    `Py_T_OBJECT_EX` that belong to `uuid.UUID` itself (their `d_type`, which CPython's own
//!    setter checks: a descriptor of another class, bound to the name, describes that class's
//!    layout), at two different offsets that lie inside the instance, are pointer-aligned and
//!    are neither the weak-reference list's (`tp_weaklistoffset`) nor the instance
//!    dictionary's (`tp_dictoffset`), whichever way instances are then allocated;
//! 2. the type's `tp_alloc` returns a zero-filled instance (the slots are NULL), tracked by the
//!    GC if the type is a GC type, with one reference owned by the caller;
//! 3. storing a new reference into a slot of a fresh, unshared object is what the member
//!    descriptor's setter would do;
//! 4. slots are read only from objects whose type is *exactly* `uuid.UUID` (a pointer
//!    comparison of `Py_TYPE`). `isinstance` is not enough: it trusts `__class__`, which any
//!    object can fake while having another layout, and a subclass may override `int` or
//!    `bytes`, which the stdlib would then use. Every other object goes through its public
//!    attributes, in safe code (`convert.rs`);
//! 5. where the type's `tp_alloc` is `PyType_GenericAlloc` (on GIL builds; recognised by the
//!    address this module links or by `object`'s `tp_alloc`, see [`gc_new_body`]), an instance
//!    may be allocated with `PyObject_GC_New` and its body cleared by hand, which is what
//!    `PyType_GenericAlloc` does before it tracks the object (see [`new_uuid`]).
//!
//! If invariant 1 does not hold (a future Python that reimplements `uuid.UUID`), on an
//! interpreter other than CPython, or when the environment variable `UUIDX_FORCE_FALLBACK` is
//! set to a non-empty value other than `0` when uuidx is imported (the test suite runs once
//! that way), the module falls back to calling `uuid.UUID(int=value)` and reading `.int`, so
//! behaviour is kept and only speed is lost. The `int` values themselves are built and read
//! through their digits where [`int_digits`] verified the layout. Every allocation failure is a
//! `MemoryError`, never a panic (pyo3's conversion would panic there).
//!
//! Objects built here are untracked by the cycle collector (`PyObject_GC_UnTrack`): a UUID holds
//! an int and an enum member and cannot be part of a reference cycle unless someone stores a
//! container into its slots with `object.__setattr__`. Tracked, every list of UUIDs would cost
//! a collector pass per 700 allocations.
//!
//! On free-threaded builds another thread may rebind a UUID's `int` slot (with
//! `object.__setattr__`) and free the old value between a raw read and its incref. There, and
//! in debug builds (so that the test suite's debug pass exercises it), the slot is read
//! through the attribute, which takes the reference the way CPython's member getter does.
//!
//! Tested by `tests/ffi/test_exact.py` (the invariants, the fallback, the allocation paths) and
//! `tests/ffi/test_hostile.py` (subclasses and look-alikes at the exact-type check).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyTuple, PyType};

use super::int_digits::{self, Read};

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
    /// `("int",)`, the keyword names of `uuid.UUID(int=...)` on the fallback path.
    int_keyword: Py<PyTuple>,
    /// Byte offsets of the `int` and `is_safe` slots, or `None` to use the fallback.
    slots: Option<(isize, isize)>,
    /// `true` when ints are built and read through their digits ([`int_digits`]).
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
        let digits = slots.is_some() && int_digits::verified(py);
        super::capi::verify_ascii_data(py, cpython && !fallback_forced());
        let gc_new = slots.and_then(|(int, safe)| gc_new_body(&ty, int, safe));
        Ok(Self {
            ty: ty.unbind(),
            unknown,
            int_keyword: PyTuple::new(py, ["int"])?.unbind(),
            slots,
            digits,
            gc_new,
        })
    }

    /// `true` when ints are built and read through their 30-bit digits.
    pub fn uses_digits(&self) -> bool {
        self.digits
    }

    /// `true` when instances are allocated with `PyObject_GC_New` (invariant 5).
    pub fn uses_gc_new(&self) -> bool {
        self.gc_new.is_some()
    }

    /// `true` when UUIDs are built by slot stores rather than by calling the class.
    pub fn uses_slots(&self) -> bool {
        self.slots.is_some()
    }
}

/// How instances of `ty` may be allocated with `PyObject_GC_New` instead of `tp_alloc`
/// (invariant 5): `tp_alloc` is `PyType_GenericAlloc`, the type is a
/// fixed-size GC type, and the build is not free-threaded (there, `tp_alloc` is kept).
fn gc_new_body(ty: &Bound<'_, PyType>, int: isize, safe: isize) -> Option<Body> {
    if cfg!(Py_GIL_DISABLED) {
        return None;
    }
    // SAFETY: reading fields of live type objects (`object` is static).
    let (generic, itemsize, basicsize, weaklist, gc) = unsafe {
        let tp = ty.as_type_ptr();
        // `PyType_GenericAlloc` by two addresses: the one this module links, and the one
        // `object`'s `tp_alloc` holds (which the C API documents as `PyType_GenericAlloc`).
        // On Windows the first may be an import thunk inside this module (mingw-w64 calls
        // functions of python3XY.dll through one), never equal to a slot the interpreter
        // filled; the second is read from the interpreter's own data. A false "different"
        // only costs speed.
        let object_alloc = ffi::PyBaseObject_Type.tp_alloc;
        (
            (*tp).tp_alloc.is_some_and(|alloc| {
                core::ptr::fn_addr_eq(alloc, ffi::PyType_GenericAlloc as ffi::allocfunc)
                    || object_alloc.is_some_and(|object| core::ptr::fn_addr_eq(alloc, object))
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

/// The offset of the slot `name` of `ty`, if it is a plain object slot of `ty`'s own inside the
/// instance, other than the weak-reference list and the dictionary (invariant 1).
fn slot_offset(py: Python<'_>, ty: &Bound<'_, PyType>, name: &str) -> PyResult<Option<isize>> {
    let member_type = py.import("types")?.getattr("MemberDescriptorType")?;
    let dict = ty.getattr("__dict__")?;
    let Ok(descr) = dict.get_item(name) else {
        return Ok(None);
    };
    if !descr.get_type().is(&member_type) {
        return Ok(None);
    }
    // The owner is read from the descriptor's header: a descriptor of another class (rebound
    // with `uuid.UUID.int = Other.x`) has that class's offset.
    // SAFETY: `descr` is exactly a `member_descriptor`, whose C layout is `MemberDescr`
    // (`d_type` in its header); `descr`, borrowed from the class's dictionary, is alive, and
    // so is the `PyMemberDef` it points to, read here at once.
    let (owner, type_code, offset) = unsafe {
        let descr = descr.as_ptr().cast::<MemberDescr>();
        let member = (*descr).member;
        if member.is_null() {
            return Ok(None);
        }
        (
            (*descr).common.d_type,
            (*member).type_code,
            (*member).offset,
        )
    };
    if owner != ty.as_type_ptr() {
        return Ok(None);
    }
    // SAFETY: reading fields of a live type object.
    let (basicsize, weaklist, dict) = unsafe {
        let tp = ty.as_type_ptr();
        (
            (*tp).tp_basicsize,
            (*tp).tp_weaklistoffset,
            (*tp).tp_dictoffset,
        )
    };
    if offset == weaklist || offset == dict {
        return Ok(None);
    }
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
        return call_with_int(py, t, value);
    };
    let int = new_int(py, t, value);
    if int.is_null() {
        return Err(PyErr::fetch(py));
    }
    // SAFETY: invariants 1-3, checked by `UuidType::load`.
    // Invariant 5: when `gc_new` is known, `tp_alloc` is `PyType_GenericAlloc`, which is
    // `PyObject_GC_New` (the header, the GC link, the type's reference), a zeroed body and GC
    // tracking; here the body is cleared (when it is exactly the int, is_safe and weak
    // reference slots, checked at import, the first two are stored below and the third is
    // set to NULL; otherwise it is zeroed in full), and the object is left untracked (see the
    // module documentation), which is what the untracking below does otherwise. The
    // instance is freed by the type's own `tp_dealloc`/`tp_free` (`subtype_dealloc`, then
    // `PyObject_GC_Del`), which match this allocation. Either way the result is a zeroed
    // instance owned by us, or NULL with an exception set (the int, still ours, is then
    // released); the two stores then move one strong reference each into slots that are NULL
    // and inside the object.
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
            let err = PyErr::fetch(py);
            ffi::Py_DECREF(int);
            return Err(err);
        }
        *slot(obj, int_offset) = int;
        *slot(obj, safe_offset) = t.unknown.clone_ref(py).into_ptr();
        Ok(Bound::from_owned_ptr(py, obj))
    }
}

/// `uuid.UUID(int=value)` (the fallback path), each allocation failure a Python exception:
/// pyo3's conversions and builders panic there (see [`int_of`]).
#[cold]
fn call_with_int<'py>(py: Python<'py>, t: &UuidType, value: u128) -> PyResult<Bound<'py, PyAny>> {
    let int = int_of(py, value)?;
    let args = [int.as_ptr()];
    // SAFETY: a vectorcall of a live callable with no positional argument and one keyword
    // argument: `args` holds its value and `int_keyword` the 1-tuple of its name, both alive
    // for the call; the result is a new reference or NULL with an exception set.
    unsafe {
        let result =
            ffi::PyObject_Vectorcall(t.ty.as_ptr(), args.as_ptr(), 0, t.int_keyword.as_ptr());
        Bound::from_owned_ptr_or_err(py, result)
    }
}

/// A new reference to an `int` holding `value`, or NULL with an exception set: through its
/// digits when [`int_digits`] is verified, else [`int_of`]. A raw pointer, so that the common path
/// never moves a `PyResult` (a `PyErr` is several words) around.
#[inline]
fn new_int(py: Python<'_>, t: &UuidType, value: u128) -> *mut ffi::PyObject {
    if value >> 64 == 0 {
        // SAFETY: returns a new reference or NULL with an exception set.
        return unsafe { ffi::PyLong_FromUnsignedLongLong(value as u64) };
    }
    if t.digits {
        // SAFETY: the layout is verified (`t.digits`) and `value` has more than 64 bits.
        return unsafe { int_digits::new_int(value) };
    }
    int_of_raw(py, value)
}

/// [`int_of`] as a new reference, or NULL with its error set as the current exception.
#[cold]
fn int_of_raw(py: Python<'_>, value: u128) -> *mut ffi::PyObject {
    match int_of(py, value) {
        Ok(int) => int.into_ptr(),
        Err(err) => {
            err.restore(py);
            core::ptr::null_mut()
        }
    }
}

/// A new `int` of `value` through public C API, each failure a Python exception. Not pyo3's
/// conversion: pyo3 0.30 asserts that `PyLongWriter_Create` succeeds (CPython 3.14+) and
/// treats a NULL from `_PyLong_FromByteArray` as a bug (3.9 to 3.13), so running out of memory
/// there panics, and a panic with no memory left to unwind with aborts the process
/// (`tests/test_errors.py` makes bulk calls under a 1 GB address-space cap).
fn int_of(py: Python<'_>, value: u128) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: every call below returns a new reference, or NULL with an exception set; `owned`
    // turns the first into a `Bound` and the second into an error.
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
        // (high << 64) | low.
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
    read_int_slot(t, obj, int_offset)
}

/// The value of the `int` slot of `obj`, whose type is exactly `uuid.UUID` (see
/// [`exact_uuid_int`]).
#[cfg(not(any(Py_GIL_DISABLED, debug_assertions)))]
#[inline]
#[allow(
    clippy::unnecessary_wraps,
    reason = "one signature for both builds: the other reads through the descriptor, which can fail"
)]
fn read_int_slot(
    t: &UuidType,
    obj: &Bound<'_, PyAny>,
    int_offset: isize,
) -> PyResult<Option<u128>> {
    // SAFETY: `obj`'s type is exactly `uuid.UUID` (invariant 4), so the slot lies at
    // `int_offset` inside it (invariant 1). It holds NULL or a reference owned by `obj`; with
    // the GIL held, and no Python code run before the value is read, nothing can rebind it and
    // free the int meanwhile, so it is read borrowed, without a reference of our own.
    unsafe {
        let value = *slot(obj.as_ptr(), int_offset);
        if value.is_null() {
            return Ok(None);
        }
        Ok(exact_int_value(t, Borrowed::from_ptr(obj.py(), value)))
    }
}

/// The value of the `int` slot of `obj`, through the member descriptor (free-threaded and
/// debug builds: see the module documentation).
#[cfg(any(Py_GIL_DISABLED, debug_assertions))]
#[inline]
fn read_int_slot(
    t: &UuidType,
    obj: &Bound<'_, PyAny>,
    _int_offset: isize,
) -> PyResult<Option<u128>> {
    use pyo3::exceptions::PyAttributeError;
    match obj.getattr(crate::interned!(obj.py(), c"int")?) {
        Ok(value) => Ok(exact_int_value(t, value.as_borrowed())),
        Err(err) if err.is_instance_of::<PyAttributeError>(obj.py()) => Ok(None),
        Err(err) => Err(err),
    }
}

/// The value of an exact `int` from 0 to 2**128 - 1; `None` for anything else.
#[inline]
fn exact_int_value(t: &UuidType, int: Borrowed<'_, '_, PyAny>) -> Option<u128> {
    // SAFETY: a type check on a live object.
    let exact = unsafe { ffi::PyLong_CheckExact(int.as_ptr()) } != 0;
    if !exact {
        return None;
    }
    if t.digits {
        match int_digits::read_int(int) {
            Read::Value(value) => return Some(value),
            Read::OutOfRange => return None,
            Read::Unknown => {}
        }
    }
    int.extract::<u128>().ok()
}
