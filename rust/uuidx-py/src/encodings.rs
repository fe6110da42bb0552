//! Text encodings of UUIDs by name, and TypeIDs: `uuidx.encode`, `uuidx.decode`,
//! `uuidx.typeid`, `uuidx.parse_typeid`. The encoders and decoders are the core's
//! (`uuidx_core::encoding`, `uuidx_core::typeid`); this module converts arguments and reports
//! text that Python can hold but UTF-8 cannot (lone surrogates) in the core's words.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use uuidx_core::encoding::{Encoded, Encoding};
use uuidx_core::{typeid as tid, DecodeReason, ErrorKind, ParseReason, TypeIdReason};

use crate::convert::{short_repr, type_error, uuid_value};
use crate::errors::{to_py, IntoPy};
use crate::exact::{new_ascii_str, new_uuid};

/// The encoding named by `form`: `TypeError` for a non-str, `ValueError` listing the names for
/// an unknown one.
pub fn form_arg(form: &Bound<'_, PyAny>) -> PyResult<Encoding> {
    let text = form
        .cast::<PyString>()
        .map_err(|_| type_error("form", "a str", form))?;
    if let Ok(name) = text.to_str() {
        if let Ok(encoding) = Encoding::from_name(name) {
            return Ok(encoding);
        }
    }
    let names: Vec<String> = Encoding::ALL
        .iter()
        .map(|e| format!("'{}'", e.name()))
        .collect();
    Err(PyValueError::new_err(format!(
        "unknown form {}: expected one of {}",
        short_repr(form),
        names.join(", ")
    )))
}

/// Text as the core reads it, for a `str` that holds lone surrogates (no UTF-8 can): each one
/// replaced by U+FFFD, which no encoding's alphabet holds, so that lengths and positions still
/// count characters. Also returns the position and code point of the first surrogate.
#[cold]
fn without_surrogates(text: &Bound<'_, PyString>) -> PyResult<(String, Option<(usize, u32)>)> {
    let wide = text
        .call_method1(intern!(text.py(), "encode"), ("utf-32-le", "surrogatepass"))?
        .cast_into::<PyBytes>()?;
    let mut first = None;
    let replaced = wide
        .as_bytes()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .enumerate()
        .map(|(position, code)| {
            char::from_u32(code).unwrap_or_else(|| {
                first.get_or_insert((position, code));
                '\u{FFFD}'
            })
        })
        .collect();
    Ok((replaced, first))
}

/// A decoding reason shown with the lone surrogate the caller wrote, where the core saw the
/// U+FFFD that stood for it.
fn surrogate_reason(reason: &DecodeReason, (at, code): (usize, u32)) -> String {
    match *reason {
        DecodeReason::Char {
            found: '\u{FFFD}',
            position,
            expected,
        } if position == at => {
            format!("lone surrogate '\\u{code:04x}' at position {position}: expected {expected}")
        }
        DecodeReason::Syntax(ParseReason::Hyphen {
            found: '\u{FFFD}',
            position,
        }) if position == at => {
            format!("expected '-' at position {position}, found lone surrogate '\\u{code:04x}'")
        }
        other => other.to_string(),
    }
}

/// A TypeID reason shown with the lone surrogate the caller wrote (see [`surrogate_reason`]).
fn surrogate_typeid_reason(reason: &TypeIdReason, surrogate: (usize, u32)) -> String {
    let (at, code) = surrogate;
    match reason {
        TypeIdReason::PrefixChar {
            found: '\u{FFFD}',
            position,
        } if *position == at => format!(
            "lone surrogate '\\u{code:04x}' at position {position} in the prefix: expected a \
             lowercase ASCII letter or '_'"
        ),
        TypeIdReason::Suffix(inner) => {
            format!("in the suffix, {}", surrogate_reason(inner, surrogate))
        }
        other => other.to_string(),
    }
}

/// The `ValueError` for the core's error about text that held lone surrogates: the text as
/// Python shows it, then the reason with the surrogate in place of U+FFFD.
#[cold]
fn surrogate_error(
    err: &uuidx_core::Error,
    text: &Bound<'_, PyString>,
    first: Option<(usize, u32)>,
) -> PyErr {
    let shown = short_repr(text.as_any());
    let Some(surrogate) = first else {
        return to_py(err);
    };
    let message = match err.kind() {
        ErrorKind::Decode {
            encoding, reason, ..
        } => format!(
            "invalid {} UUID {shown}: {}",
            encoding.name(),
            surrogate_reason(reason, surrogate)
        ),
        ErrorKind::TypeId { reason, .. } => format!(
            "invalid TypeID {shown}: {}",
            surrogate_typeid_reason(reason, surrogate)
        ),
        ErrorKind::TypeIdPrefix { reason, .. } => format!(
            "invalid TypeID prefix {shown}: {}",
            surrogate_typeid_reason(reason, surrogate)
        ),
        _ => return to_py(err),
    };
    PyValueError::new_err(message)
}

/// Runs `f` on the text of `obj` (a `str`, else `TypeError` naming `what`); text with lone
/// surrogates is given to `f` with U+FFFD in their place, and its error reported with them.
fn with_text<T>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    f: impl FnOnce(&str) -> uuidx_core::Result<T>,
) -> PyResult<T> {
    let text = obj
        .cast::<PyString>()
        .map_err(|_| type_error(what, "a str", obj))?;
    if let Ok(s) = text.to_str() {
        f(s).py_err()
    } else {
        let (replaced, first) = without_surrogates(text)?;
        f(&replaced).map_err(|e| surrogate_error(&e, text, first))
    }
}

/// ``u`` as text in the encoding ``form``.
///
/// Args:
///     u: A ``uuid.UUID`` (a subclass or look-alike is read through its ``.int``).
///     form: ``"hex"``, ``"hyphenated"``, ``"urn"`` or ``"braced"`` (RFC 9562 §4);
///         ``"base32"`` (Crockford's base32 of ``u.int``, lower case: a TypeID suffix) or
///         ``"ulid"`` (the same digits in upper case: the ULID text form); ``"base32hex"``
///         (RFC 4648 §7, the 16 octets, upper case, unpadded); ``"base58"`` (Bitcoin
///         alphabet) or ``"base62"`` (``0-9A-Za-z``) of ``u.int``; ``"base64url"``
///         (RFC 4648 §5, the 16 octets, unpadded). Every form has a fixed length, and all but
///         ``base64url`` sort as the UUIDs do.
///
/// Returns:
///     The text, ASCII.
///
/// Raises:
///     TypeError: ``u`` is not a ``uuid.UUID`` or ``form`` not a str.
///     ValueError: ``form`` is not one of the names above.
#[pyfunction]
pub fn encode<'py>(
    u: &Bound<'py, PyAny>,
    form: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyString>> {
    let value = uuid_value(u, "u")?;
    let encoding = form_arg(form)?;
    new_ascii_str(u.py(), Encoded::new(encoding, value).as_bytes())
}

/// The UUID written in ``s`` in the encoding ``form`` (see :func:`encode`).
///
/// Exactly the form's fixed length, nothing around it. ``hex``, ``hyphenated``, ``urn`` and
/// ``braced`` read hex digits in either case (and the URN prefix in any case); ``base32``
/// reads Crockford's base32 in either case with his aliases (``I``, ``L`` for 1, ``O`` for
/// 0); ``ulid`` reads either case without aliases (the ULID specification); ``base32hex``
/// reads either case; ``base58``, ``base62`` and ``base64url`` are case-sensitive.
///
/// Args:
///     s: The text.
///     form: The encoding's name, as for :func:`encode`.
///
/// Returns:
///     An exact ``uuid.UUID``.
///
/// Raises:
///     TypeError: ``s`` or ``form`` is not a str.
///     ValueError: ``form`` is unknown, or ``s`` is not a UUID in that form: the message names
///         ``s`` (shortened) and the first problem (length, or the character and its
///         position, or a value above 2**128 - 1, or non-zero bits after the 128th).
#[pyfunction]
pub fn decode<'py>(s: &Bound<'py, PyAny>, form: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let encoding = form_arg(form)?;
    let value = with_text(s, "s", |text| encoding.decode(text))?;
    new_uuid(s.py(), value.as_u128())
}

/// The TypeID of ``u`` with type ``prefix`` (jetify-com/typeid, specification v0.3):
/// ``prefix_`` followed by the 26-character ``base32`` form of ``u``, or that form alone for
/// an empty prefix.
///
/// Args:
///     prefix: At most 63 lowercase ASCII letters and underscores, not starting or ending
///         with an underscore; may be empty.
///     u: A ``uuid.UUID`` (any version; the specification recommends v7).
///
/// Returns:
///     The TypeID, such as ``"user_01h455vb4pex5vsknk084sn02q"``.
///
/// Raises:
///     TypeError: ``prefix`` is not a str or ``u`` not a ``uuid.UUID``.
///     ValueError: the prefix breaks the rules (the message names it and the position).
#[pyfunction]
pub fn typeid<'py>(
    prefix: &Bound<'py, PyAny>,
    u: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyString>> {
    let value = uuid_value(u, "u")?;
    let mut out = [0u8; tid::MAX_LEN];
    let len = with_text(prefix, "prefix", |p| tid::typeid_into(p, value, &mut out))?;
    new_ascii_str(u.py(), &out[..len])
}

/// The prefix and UUID of a TypeID (jetify-com/typeid, specification v0.3).
///
/// The TypeID splits at its last underscore; the suffix must be 26 lower case Crockford
/// base32 digits of at most 128 bits (no aliases, no upper case), the prefix as for
/// :func:`typeid`. Without an underscore the text is the suffix alone and the prefix ``""``.
///
/// Args:
///     s: The TypeID.
///
/// Returns:
///     ``(prefix, uuid)``, ``uuid`` an exact ``uuid.UUID``.
///
/// Raises:
///     TypeError: ``s`` is not a str.
///     ValueError: ``s`` is not a TypeID: the message names it (shortened) and the first
///         problem with its position.
#[pyfunction]
pub fn parse_typeid<'py>(s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let py = s.py();
    let (prefix_len, value) = with_text(s, "s", |text| {
        tid::parse_typeid(text).map(|(prefix, value)| (prefix.len(), value))
    })?;
    let prefix = if prefix_len == 0 {
        intern!(py, "").clone()
    } else {
        // Valid, so `s` is a str of UTF-8 text whose first `prefix_len` bytes are ASCII.
        let text = s.cast::<PyString>()?.to_str()?;
        new_ascii_str(py, &text.as_bytes()[..prefix_len])?
    };
    PyTuple::new(py, [prefix.into_any(), new_uuid(py, value.as_u128())?])
}

/// Adds the encoding functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(typeid, m)?)?;
    m.add_function(wrap_pyfunction!(parse_typeid, m)?)?;
    Ok(())
}
