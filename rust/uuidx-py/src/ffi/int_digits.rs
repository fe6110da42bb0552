//! Building and reading `int`s through their 30-bit digits, on CPython.
//!
//! The public routes cost more than the rest of a call: up to 3.13 they go through byte arrays
//! (`_PyLong_FromByteArray`, `PyLong_AsNativeBytes`); from 3.14 the PEP 757 writer builds an
//! int from its digits, which is what [`new_int`] does there, but its reader
//! (`PyLong_Export`) tries a conversion to `int64_t` first and takes and drops a reference,
//! several times the cost of reading the digits. Cython-generated code reads them the same way
//! on every version.
//!
//! Invariants, verified by [`verified`] at import (against ints CPython made and read):
//! 1. `sys.int_info` reports 30-bit digits stored in 4 bytes (and from 3.14, so does
//!    `PyLong_GetNativeLayout`, least significant digit first, in native byte order);
//! 2. an int's digits start right after the object header and one word (`ob_size` up to
//!    3.11, `lv_tag` from 3.12), least significant first;
//! 3. that word holds the signed digit count (3.9 to 3.11) or `count << 3 | flags`, whose two
//!    low bits are the sign, 0 positive, 1 zero, 2 negative (3.12+; 3.14 marks the cached
//!    small ints in the third bit);
//! 4. up to 3.13, `_PyLong_New(n)` returns a positive int of `n` digits, digits unset, or
//!    NULL with an exception set; filling all `n` digits with the top one non-zero makes a
//!    normalised int. From 3.14, `PyLongWriter_Create(0, n, &digits)` returns a writer with
//!    room for `n` digits of the layout of invariant 1, or NULL with an exception set, and
//!    `PyLongWriter_Finish` turns it, all `n` digits written, into the int (or NULL with an
//!    exception set).
//!
//! Tested by `tests/ffi/test_exact.py` (ints across every digit count read and built, against
//! CPython's own).

use pyo3::ffi;
use pyo3::prelude::*;

/// What [`read_int`] found (only `Unknown` where the digits are not read).
#[derive(Debug, PartialEq, Eq)]
#[cfg_attr(
    not(all(not(any(PyPy, GraalPy)), not(Py_LIMITED_API))),
    allow(dead_code)
)]
pub(crate) enum Read {
    /// An int from 0 to 2**128 - 1.
    Value(u128),
    /// A negative int, or one of 2**128 or more.
    OutOfRange,
    /// Not read: not CPython's layout (other interpreters; never built on CPython).
    #[allow(dead_code)]
    Unknown,
}

#[cfg(all(not(any(PyPy, GraalPy)), not(Py_LIMITED_API)))]
mod cpython {
    use super::{ffi, Borrowed, PyAny, PyResult, Python, Read};
    use pyo3::prelude::*;

    /// Declares `_PyLong_New`, linked on Windows to the DLL pyo3 links by `raw-dylib`
    /// (`uuidx_dll`, from build.rs): pyo3 emits no import library there, so a declaration
    /// without a `link` attribute has nothing to resolve against.
    macro_rules! declare_py_long_new {
        ($($dll:literal)*) => {
            #[cfg(not(Py_3_14))]
            $(#[cfg_attr(uuidx_dll = $dll, link(name = $dll, kind = "raw-dylib"))])*
            extern "C" {
                fn _PyLong_New(size: ffi::Py_ssize_t) -> *mut ffi::PyObject;
            }
        };
    }
    declare_py_long_new!(
        "python39" "python39_d" "python310" "python310_d" "python311" "python311_d"
        "python312" "python312_d" "python313" "python313_d" "python313t" "python313t_d"
    );

    const BITS: u32 = 30;
    /// Digits after the header and one word (invariant 2).
    const DIGITS_AT: usize = core::mem::size_of::<ffi::PyObject>() + core::mem::size_of::<usize>();

    /// A new reference to an int of `value`, or NULL with an exception set. Values below
    /// 2**64 are the caller's (`PyLong_FromUnsignedLongLong` makes them fast, and may take
    /// them from the small-int cache).
    ///
    /// # Safety
    /// Invariants 1 to 4 must hold ([`verified`]), and `value` must be 2**64 or more.
    #[inline]
    pub(crate) unsafe fn new_int(value: u128) -> *mut ffi::PyObject {
        debug_assert!(value >> 64 != 0);
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
        // SAFETY: invariant 4 (the function's contract): room for `count` digits owned by us; all
        // `count` digits are written (the last one non-zero: `count` stops at the highest non-zero
        // digit, and the third is non-zero since `hi` is) before the object is handed out. Up to
        // 3.13 the digits lie inside the allocation `_PyLong_New` sized, at an offset (24 on 64-bit
        // builds) that keeps the 4-byte digits aligned in an object that is itself
        // pointer-aligned; from 3.14 the writer gives their address, aligned for its layout.
        #[allow(clippy::cast_ptr_alignment)]
        unsafe {
            #[cfg(not(Py_3_14))]
            let (obj, out) = {
                let obj = _PyLong_New(ffi::Py_ssize_t::from(count));
                if obj.is_null() {
                    return obj;
                }
                (obj, obj.cast::<u8>().add(DIGITS_AT).cast::<u32>())
            };
            #[cfg(Py_3_14)]
            let (writer, out) = {
                let mut out = core::ptr::null_mut();
                let writer =
                    ffi::PyLongWriter_Create(0, ffi::Py_ssize_t::from(count), &raw mut out);
                if writer.is_null() {
                    return core::ptr::null_mut();
                }
                (writer, out.cast::<u32>())
            };
            *out = digits[0] as u32;
            *out.add(1) = digits[1] as u32;
            *out.add(2) = digits[2] as u32;
            if count >= 4 {
                *out.add(3) = digits[3] as u32;
            }
            if count == 5 {
                *out.add(4) = digits[4] as u32;
            }
            // A new reference, or NULL with an exception set.
            #[cfg(Py_3_14)]
            let obj = ffi::PyLongWriter_Finish(writer);
            obj
        }
    }

    /// The value of the exact `int` `obj` (checked by the caller).
    #[inline]
    pub(crate) fn read_int(obj: Borrowed<'_, '_, PyAny>) -> Read {
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
            if count == 5 {
                // Nearly every UUID: joined with 64-bit shifts, as `new_int` cuts them.
                let d = |i: usize| u64::from(*digits.add(i));
                if d(4) >> 8 != 0 {
                    return Read::OutOfRange;
                }
                let lo = d(0) | (d(1) << 30) | (d(2) << 60);
                let hi = (d(2) >> 4) | (d(3) << 26) | (d(4) << 56);
                return Read::Value((u128::from(hi) << 64) | u128::from(lo));
            }
            let mut value = 0u128;
            for i in 0..count {
                value |= u128::from(*digits.add(i)) << (BITS as usize * i);
            }
            Read::Value(value)
        }
    }

    /// `true` when invariants 1 to 4 hold in this interpreter: ints made here equal CPython's,
    /// and ints CPython made read back to their values.
    pub(crate) fn verified(py: Python<'_>) -> bool {
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
        layout_ok && native_layout() && SAMPLES.iter().all(|&v| agrees(py, v).unwrap_or(false))
    }

    /// `true` when the PEP 757 layout is invariant 1's.
    #[cfg(Py_3_14)]
    fn native_layout() -> bool {
        // SAFETY: returns a pointer to a static structure of the interpreter.
        let layout = unsafe { &*ffi::PyLong_GetNativeLayout() };
        let endianness = if cfg!(target_endian = "little") {
            -1
        } else {
            1
        };
        (
            layout.bits_per_digit,
            layout.digit_size,
            layout.digits_order,
            layout.digit_endianness,
        ) == (30, 4, -1, endianness)
    }

    /// No PEP 757 layout before 3.14: `sys.int_info` and the samples decide.
    #[cfg(not(Py_3_14))]
    fn native_layout() -> bool {
        true
    }

    /// Values across every digit count, their edges included.
    const SAMPLES: [u128; 12] = [
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
        let read_back = read_int(theirs.as_borrowed()) == Read::Value(value);
        if value >> 64 == 0 {
            return Ok(read_back);
        }
        // SAFETY: invariant 1 is checked before the samples are; 2 to 4 are what this checks,
        // on values of more than 64 bits. The result is owned by the `Bound`.
        let ours = unsafe { Bound::from_owned_ptr_or_err(py, new_int(value))? };
        Ok(read_back
            && ours.eq(&theirs)?
            && ours.hash()? == theirs.hash()?
            && ours.str()?.to_string() == value.to_string())
    }
}

/// Without CPython's digit layout (other interpreters, the limited API): never used.
#[cfg(not(all(not(any(PyPy, GraalPy)), not(Py_LIMITED_API))))]
mod other {
    use super::{ffi, Borrowed, PyAny, Python, Read};

    /// Never called: [`verified`] is `false`.
    pub(crate) unsafe fn new_int(_: u128) -> *mut ffi::PyObject {
        core::ptr::null_mut()
    }

    pub(crate) fn read_int(_: Borrowed<'_, '_, PyAny>) -> Read {
        Read::Unknown
    }

    pub(crate) fn verified(_: Python<'_>) -> bool {
        false
    }
}

#[cfg(all(not(any(PyPy, GraalPy)), not(Py_LIMITED_API)))]
pub(crate) use cpython::{new_int, read_int, verified};
#[cfg(not(all(not(any(PyPy, GraalPy)), not(Py_LIMITED_API))))]
pub(crate) use other::{new_int, read_int, verified};
