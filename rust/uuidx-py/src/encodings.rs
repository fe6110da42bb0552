//! Text encodings of UUIDs by name, and TypeIDs: `uuidx.encode`, `uuidx.decode`,
//! `uuidx.typeid`, `uuidx.parse_typeid`. The encoders and decoders are the core's
//! (`uuidx_core::encoding`, `uuidx_core::typeid`), and so are their messages, which show the
//! values as Python does where Python's text differs from Rust's (names, lone surrogates).

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use uuidx_core::encoding::{Encoded, Encoding};
use uuidx_core::typeid as tid;

use crate::convert::{read_text, uuid_value};
use crate::ffi::{new_ascii_str, new_uuid};
use crate::repr::short_repr;

/// The encoding named by `form`: `TypeError` for a non-str, `ValueError` listing the names for
/// an unknown one.
pub fn form_arg(form: &Bound<'_, PyAny>) -> PyResult<Encoding> {
    read_text(form, "form", |name| {
        Encoding::from_name(name).map_err(|err| err.shown_as(&short_repr(form)))
    })
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
    let value = read_text(s, "s", |text| encoding.decode(text))?;
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
    let len = read_text(prefix, "prefix", |p| tid::typeid_into(p, value, &mut out))?;
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
    let (prefix_len, value) = read_text(s, "s", |text| {
        tid::parse_typeid(text).map(|(prefix, value)| (prefix.len(), value))
    })?;
    let prefix = if prefix_len == 0 {
        crate::interned!(py, c"")?.clone()
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
