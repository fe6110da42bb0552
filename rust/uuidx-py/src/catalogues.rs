//! The core's catalogues, for the facade and the command line: the names of the forms,
//! name-based algorithms, v7 methods and layouts come from the core's tables, and so does the
//! form detector. Private names of `uuidx._core`.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use uuidx_core::encoding::{self, Encoding, Reading};
use uuidx_core::generator::V7Method;
use uuidx_core::layout::LAYOUTS;
use uuidx_core::name::Algorithm;

use crate::convert::read_text;
use crate::ffi::new_uuid;

/// The forms of :func:`encode` and :func:`decode`, in their order:
/// ``(name, length, alphabet, case, sorts)`` each. ``alphabet`` lists the digits in the order
/// of their values; ``case`` is ``"lower"`` or ``"upper"`` (written so, read in either case)
/// or ``"sensitive"``; ``sorts`` says whether the texts sort as the UUIDs do.
#[pyfunction]
fn _forms(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(
        py,
        Encoding::ALL.map(|e| {
            let form = e.form();
            (
                form.name,
                form.len,
                form.alphabet,
                form.case.name(),
                form.sorts,
            )
        }),
    )
}

/// The hash algorithms of :func:`uuid8_name`, by their ``hashlib`` names.
#[pyfunction]
fn _algorithms(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, Algorithm::NAMES)
}

/// The methods of :class:`V7Generator`, the default first.
#[pyfunction]
fn _v7_methods(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, V7Method::ALL.map(V7Method::name))
}

/// The preset names :class:`V7Generator` takes besides the methods' own, with the method
/// and width each stands for: ``(name, method, bits)``.
#[pyfunction]
fn _v7_presets(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(
        py,
        V7Method::PRESETS.map(|(name, method)| (name, method.name(), method.bits())),
    )
}

/// The field layouts of RFC 9562 §5, by version, then Nil and Max:
/// ``(name, version, title, fields)`` each, ``version`` ``None`` for Nil and Max, ``fields``
/// ``(name, bits, offset)`` left to right (``ver`` and ``var`` included), ``offset`` the first
/// bit counted from the most significant one, as the RFC's figures number them.
#[pyfunction]
fn _layouts(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let layouts = LAYOUTS.map(|layout| {
        let fields = PyTuple::new(py, layout.fields.iter().map(|f| (f.name, f.bits, f.offset)))?;
        (layout.name, layout.version, layout.title, fields).into_pyobject(py)
    });
    PyTuple::new(py, layouts.into_iter().collect::<PyResult<Vec<_>>>()?)
}

/// Every reading of ``text`` as a UUID in any form, recognised by its length and alphabet:
/// ``(form, uuid, typeid_prefix)`` each, ``form`` a name of :func:`encode` or ``"typeid"``.
/// One reading, or several when the text is ambiguous: when the forms of its length that
/// decode it (``base32``/``ulid`` and ``base32hex``; ``base58``, ``base62`` and ``base64url``)
/// give different UUIDs. Readings that agree are one. ``ValueError`` naming the text and the
/// problem when it is in no form.
#[pyfunction]
fn _detect<'py>(text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let py = text.py();
    let readings = read_text(text, "text", |s| {
        encoding::detect(s).map(|readings| {
            readings
                .iter()
                .map(|r| {
                    let prefix = match r {
                        Reading::TypeId(prefix, _) => (*prefix).to_owned(),
                        Reading::Encoded(..) => String::new(),
                    };
                    (r.form(), r.uuid(), prefix)
                })
                .collect::<Vec<_>>()
        })
    })?;
    let readings = readings
        .into_iter()
        .map(|(form, uuid, prefix)| (form, new_uuid(py, uuid.as_u128())?, prefix).into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, readings)
}

/// Adds the catalogues to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_forms, m)?)?;
    m.add_function(wrap_pyfunction!(_algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(_v7_methods, m)?)?;
    m.add_function(wrap_pyfunction!(_v7_presets, m)?)?;
    m.add_function(wrap_pyfunction!(_layouts, m)?)?;
    m.add_function(wrap_pyfunction!(_detect, m)?)?;
    Ok(())
}
