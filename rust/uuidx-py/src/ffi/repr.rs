//! Values as the bindings' error messages show them: a `repr` shortened without ever being
//! built in full ([`short_repr`]) and the name of a type ([`type_name`]). Below every other
//! module of the bindings, `ffi/` included, which shows values in its own messages.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyInt};

/// Longest repr shown in a message, in characters.
const SHORT: usize = 80;
/// [`SHORT`] as a Python index.
const SHORT_INDEX: isize = 80;

static SHORT_REPR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `reprlib.Repr().repr`, configured to stay short: containers show a few items, strings and
/// other reprs are cut to [`SHORT`] characters, and a `__repr__` that raises gives a placeholder.
fn reprlib_repr(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    SHORT_REPR
        .get_or_try_init(py, || {
            let repr = py
                .import(crate::interned!(py, c"reprlib")?)?
                .getattr(crate::interned!(py, c"Repr")?)?
                .call0()?;
            for (name, limit) in [
                ("maxlevel", 2),
                ("maxstring", SHORT),
                ("maxother", SHORT),
                ("maxlong", SHORT),
                ("maxtuple", 4),
                ("maxlist", 4),
                ("maxarray", 4),
                ("maxdict", 4),
                ("maxset", 4),
                ("maxfrozenset", 4),
                ("maxdeque", 4),
            ] {
                repr.setattr(crate::ffi::new_str(py, name)?, limit)?;
            }
            Ok(repr.getattr(crate::interned!(py, c"repr")?)?.unbind())
        })
        .map(|f| f.bind(py))
}

/// `repr(obj)`, shortened for messages without ever building a long repr: text and bytes are
/// cut before they are represented, containers show a few items, huge ints are described by
/// their size, an object whose `__repr__` raises is named by its type, and the result is cut
/// to [`SHORT`] characters.
pub fn short_repr(obj: &Bound<'_, PyAny>) -> String {
    let py = obj.py();
    let fallback = || format!("<{} object>", type_name(obj));
    if let Ok(int) = obj.cast::<PyInt>() {
        // repr of an int beyond sys.get_int_max_str_digits() raises; describe it instead.
        if let Ok(bits) = crate::interned!(py, c"bit_length")
            .and_then(|name| int.call_method0(name))
            .and_then(|b| b.extract::<u64>())
        {
            if bits > 256 {
                return format!("<{} of {bits} bits>", type_name(obj));
            }
        }
    }
    let long_bytes = obj
        .cast::<PyBytes>()
        .is_ok_and(|b| b.as_bytes().len() > SHORT)
        || obj.cast::<PyByteArray>().is_ok_and(|b| b.len() > SHORT);
    let text = if long_bytes {
        obj.get_item(pyo3::types::PySlice::new(py, 0, SHORT_INDEX, 1))
            .and_then(|head| head.repr())
            .map_or_else(|_| fallback(), |r| r.to_string())
    } else {
        reprlib_repr(py)
            .and_then(|repr| repr.call1((obj,)))
            .and_then(|text| text.extract::<String>())
            .unwrap_or_else(|_| fallback())
    };
    if long_bytes || text.chars().count() > SHORT {
        format!("{}...", text.chars().take(SHORT).collect::<String>())
    } else {
        text
    }
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |n| n.to_string())
}
