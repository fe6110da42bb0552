"""``uuidx.encode`` / ``uuidx.decode`` (compact text forms) and ``uuidx.typeid`` /
``uuidx.parse_typeid``: round trips, order, the libraries people use today as independent
oracles (python-ulid, base58, typeid-python, the standard library's ``base64``), the TypeID
conformance files, and errors that name the input and the position."""

from __future__ import annotations

import base64
import sys
import uuid
from typing import Any

import base58
import pytest
import ulid
from catalog import FORMS
from hypothesis import given
from hypothesis import strategies as st
from messages import names, raises_naming
from optional import need
from spec_data import spec_json

import uuidx

LENGTH = {
    "hex": 32,
    "hyphenated": 36,
    "urn": 45,
    "braced": 38,
    "base32": 26,
    "ulid": 26,
    "base32hex": 26,
    "base58": 22,
    "base62": 22,
    "base64url": 22,
}
#: The forms whose text sorts as the UUIDs do (their alphabets are in ASCII order).
SORTED = ["hex", "hyphenated", "urn", "braced", "base32", "ulid", "base32hex", "base58", "base62"]

uuids = st.integers(min_value=0, max_value=(1 << 128) - 1).map(lambda i: uuid.UUID(int=i))
#: Edges as well as random values: hypothesis draws integers near the bounds too, but make sure.
EDGES = [
    uuid.UUID(int=0),
    uuid.UUID(int=1),
    uuid.UUID(int=(1 << 128) - 1),
    uuid.UUID(int=1 << 127),
    uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057"),
]


# --- round trips and order ------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
@given(u=uuids)
def test_round_trip(form: str, u: uuid.UUID) -> None:
    text = uuidx.encode(u, form)  # type: ignore[arg-type]
    assert type(text) is str and text.isascii() and len(text) == LENGTH[form]
    back = uuidx.decode(text, form)  # type: ignore[arg-type]
    assert type(back) is uuid.UUID and back == u and back.is_safe is uuid.SafeUUID.unknown


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("u", EDGES, ids=str)
def test_round_trip_edges(form: str, u: uuid.UUID) -> None:
    assert uuidx.decode(uuidx.encode(u, form), form) == u  # type: ignore[arg-type]


@pytest.mark.parametrize("form", SORTED)
@given(a=uuids, b=uuids)
def test_text_order_is_uuid_order(form: str, a: uuid.UUID, b: uuid.UUID) -> None:
    ta, tb = uuidx.encode(a, form), uuidx.encode(b, form)  # type: ignore[arg-type]
    assert (ta < tb) == (a < b) and (ta == tb) == (a == b)


def test_base64url_does_not_sort() -> None:
    """Documented: its alphabet is not in ASCII order ('A' < 'a' < '0' in value)."""
    a, b = uuid.UUID(int=0), uuid.UUID(int=1 << 127)
    assert a < b and uuidx.encode(a, "base64url") < uuidx.encode(b, "base64url")
    c = uuid.UUID(int=26 << 122)  # first digit 'a', value 26
    d = uuid.UUID(int=52 << 122)  # first digit '0', value 52
    assert c < d and uuidx.encode(c, "base64url") > uuidx.encode(d, "base64url")


# --- independent oracles -----------------------------------------------------------------------


@given(u=uuids)
def test_hex_forms_are_the_stdlibs(u: uuid.UUID) -> None:
    assert uuidx.encode(u, "hex") == u.hex
    assert uuidx.encode(u, "hyphenated") == str(u)
    assert uuidx.encode(u, "urn") == u.urn
    assert uuidx.encode(u, "braced") == "{" + str(u) + "}"
    for form, text in (
        ("hex", u.hex),
        ("hyphenated", str(u)),
        ("urn", u.urn),
        ("braced", "{" + str(u) + "}"),
    ):
        # The stdlib reads hex digits in either case (and its URN prefix in lower case only).
        upper = text.upper().replace("URN:UUID:", "urn:uuid:")
        assert uuidx.decode(upper, form) == u == uuid.UUID(upper)  # type: ignore[arg-type]
        assert uuidx.decode(text.upper(), form) == u  # type: ignore[arg-type]


@given(u=uuids)
def test_ulid_against_python_ulid(u: uuid.UUID) -> None:
    theirs = str(ulid.ULID.from_uuid(u))
    assert uuidx.encode(u, "ulid") == theirs
    assert uuidx.decode(theirs, "ulid") == u
    assert ulid.ULID.from_str(uuidx.encode(u, "ulid")).to_uuid() == u
    # base32 is the same digits in lower case (a TypeID suffix), and reads the ULID text too.
    assert uuidx.encode(u, "base32") == theirs.lower()
    assert uuidx.decode(theirs, "base32") == u


@given(u=uuids)
def test_base58_against_the_base58_library(u: uuid.UUID) -> None:
    theirs = base58.b58encode_int(u.int).rjust(22, b"1").decode()
    assert uuidx.encode(u, "base58") == theirs
    assert uuidx.decode(theirs, "base58") == u
    assert base58.b58decode_int(uuidx.encode(u, "base58")) == u.int


def base62_reference(n: int) -> str:
    """A plain divmod loop: the digits of ``n`` in base 62 (0-9A-Za-z), 22 of them."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    digits = []
    for _ in range(22):
        n, d = divmod(n, 62)
        digits.append(alphabet[d])
    assert n == 0
    return "".join(reversed(digits))


@given(u=uuids)
def test_base62_against_a_plain_divmod(u: uuid.UUID) -> None:
    assert uuidx.encode(u, "base62") == base62_reference(u.int)
    assert uuidx.decode(base62_reference(u.int), "base62") == u


#: RFC 4648's base32 alphabet to its base32hex alphabet, for Python 3.9, whose ``base64`` has
#: no ``b32hexencode``/``b32hexdecode`` (3.10+): the same encoding with the other alphabet.
_B32, _B32HEX = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", b"0123456789ABCDEFGHIJKLMNOPQRSTUV"


def b32hexencode(data: bytes) -> bytes:
    if sys.version_info >= (3, 10):
        return base64.b32hexencode(data)
    return base64.b32encode(data).translate(bytes.maketrans(_B32, _B32HEX))


def b32hexdecode(text: str) -> bytes:
    if sys.version_info >= (3, 10):
        return base64.b32hexdecode(text)
    return base64.b32decode(text.encode().translate(bytes.maketrans(_B32HEX, _B32)))


@given(u=uuids)
def test_base32hex_and_base64url_against_the_stdlibs_base64(u: uuid.UUID) -> None:
    b32 = b32hexencode(u.bytes).decode()
    assert b32.endswith("======") and uuidx.encode(u, "base32hex") == b32.rstrip("=")
    assert uuidx.decode(b32.rstrip("="), "base32hex") == u
    assert b32hexdecode(uuidx.encode(u, "base32hex") + "======") == u.bytes
    b64 = base64.urlsafe_b64encode(u.bytes).decode()
    assert b64.endswith("==") and uuidx.encode(u, "base64url") == b64.rstrip("=")
    assert uuidx.decode(b64.rstrip("="), "base64url") == u
    assert base64.urlsafe_b64decode(uuidx.encode(u, "base64url") + "==") == u.bytes


prefixes = st.one_of(
    st.just(""),
    st.from_regex(r"\A[a-z]([a-z_]{0,61}[a-z])?\Z"),
)


def typeid_class() -> Any:
    """typeid-python's ``TypeID``; a skip where it is not installed (before Python 3.10, or on a
    CPU for which its dependencies publish no wheel: make test-i686, test-s390x)."""
    return need("typeid").TypeID


@given(prefix=prefixes, u=uuids)
def test_typeid_against_typeid_python(prefix: str, u: uuid.UUID) -> None:
    TypeID = typeid_class()
    theirs = str(TypeID.from_uuid(suffix=u, prefix=prefix))
    assert uuidx.typeid(prefix, u) == theirs
    assert uuidx.parse_typeid(theirs) == (prefix, u)
    parsed = TypeID.from_string(uuidx.typeid(prefix, u))
    assert parsed.prefix == prefix and parsed.uuid_bytes == u.bytes


# --- the TypeID conformance files (jetify-com/typeid spec v0.3) ---------------------------------


def cases(name: str) -> list[dict[str, str]]:
    data: list[dict[str, str]] = spec_json(name)
    assert data, name
    return data


@pytest.mark.parametrize("case", cases("typeid-valid.json"), ids=lambda c: c["name"])
def test_typeid_valid_cases(case: dict[str, str]) -> None:
    u = uuid.UUID(case["uuid"])
    assert uuidx.typeid(case["prefix"], u) == case["typeid"]
    prefix, got = uuidx.parse_typeid(case["typeid"])
    assert (prefix, got) == (case["prefix"], u) and type(got) is uuid.UUID


@pytest.mark.parametrize("case", cases("typeid-invalid.json"), ids=lambda c: c["name"])
def test_typeid_invalid_cases(case: dict[str, str]) -> None:
    text = case["typeid"]
    with pytest.raises(ValueError) as info:
        uuidx.parse_typeid(text)
    message = str(info.value)
    assert message.startswith("invalid TypeID ")
    # Named in full, or (past 64 characters) by its start.
    assert names(message, text) or '"' + text[:60] in message, message


# --- errors ----------------------------------------------------------------------------------

DECODE_ERRORS: list[tuple[str, str, str]] = [
    # (form, text, what the message says)
    ("base58", "", "expected 22 characters, found 0"),
    ("base58", "1BzmjTFLHWXwiSK4y3H5iWW", "expected 22 characters, found 23"),
    ("base58", "1BzmjTFLHWXwiSK4y3H5i0", "invalid character '0' at position 21"),
    ("base58", "YcVfxkQb6JRzqk5kF2tNLw", "'w' at position 21 makes the value exceed 2**128 - 1"),
    ("base62", "7n42DGM5Tflk9n8mt7Fhc8", "'8' at position 21 makes the value exceed"),
    ("base62", "7n42DGM5Tflk9n8mt7Fhc-", "invalid character '-' at position 21"),
    ("base32", "8zzzzzzzzzzzzzzzzzzzzzzzzz", "'8' at position 0 makes the value exceed"),
    ("base32", "01h455vb4pex5-sknk084sn02q", "invalid character '-' at position 13"),
    ("ulid", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "'8' at position 0 makes the value exceed"),
    ("ulid", "0I23456789ABCDEFGHJKMNPQRS", "invalid character 'I' at position 1"),
    ("ulid", "01H455VB4PEX5VSKNK084SN02Q ", "expected 26 characters, found 27"),
    ("base32hex", "VVVVVVVVVVVVVVVVVVVVVVVVVT", "'T' at position 25 sets bits after the 128th"),
    ("base32hex", "V0EKVBJTTG8T19R502GCI7JBUO======", "expected 26 characters, found 32"),
    ("base64url", "_____________________x", "'x' at position 21 sets bits after the 128th"),
    ("base64url", "+B1Prn3sEdCnZQCgyR5r9g", "invalid character '+' at position 0"),
    ("base64url", "-B1Prn3sEdCnZQCgyR5r9g==", "expected 22 characters, found 24"),
    ("hex", "f81d4fae7dec11d0a76500a0c91e6bfx", "invalid character 'x' at position 31"),
    ("hex", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "expected 32 characters, found 36"),
    ("hyphenated", "f81d4fae_7dec-11d0-a765-00a0c91e6bf6", "expected '-' at position 8"),
    ("braced", "(f81d4fae-7dec-11d0-a765-00a0c91e6bf6)", "'{'"),
    ("urn", "urn:uuix:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "'urn:uuid:'"),
    # Non-ASCII: lengths and positions count characters, not UTF-8 bytes.
    ("base58", "1BzmjTFLHWXwiSK4y3H5\u00e9W", "invalid character '\u00e9' at position 20"),
    ("base58", "1BzmjTFLHWXwiSK4y3H5\u00e9", "expected 22 characters, found 21"),
    ("base32", "01h455vb4pex5vsknk084sn0\u0660q", "'\u0660' at position 24"),
    ("hex", "f81d4fae7dec11d0a76500a0c91e6bf\u00e9", "invalid character '\u00e9' at position 31"),
]


@pytest.mark.parametrize(
    ("form", "bad", "fragment"), DECODE_ERRORS, ids=[f"{f}-{b!r}" for f, b, _ in DECODE_ERRORS]
)
def test_decode_errors_name_input_and_position(form: str, bad: str, fragment: str) -> None:
    message = raises_naming(ValueError, bad, uuidx.decode, bad, form)
    assert message.startswith(f"invalid {form} UUID ")
    assert fragment in message


@pytest.mark.parametrize(
    ("form", "bad", "fragment"),
    [
        ("base58", "1BzmjTFLHWXwiSK4y3H5i\ud800", "lone surrogate '\\ud800' at position 21"),
        ("base62", "\udfff" * 22, "lone surrogate '\\udfff' at position 0"),
        ("ulid", "01H455VB4PEX5VSKNK084SN0\udc802", "lone surrogate '\\udc80' at position 24"),
        (
            "hyphenated",
            "f81d4fae\ud8007dec-11d0-a765-00a0c91e6bf6",
            "expected '-' at position 8, found lone surrogate '\\ud800'",
        ),
        ("hex", "\ud800", "expected 32 characters, found 1"),
    ],
)
def test_decode_lone_surrogates(form: str, bad: str, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        uuidx.decode(bad, form)  # type: ignore[arg-type]
    assert type(info.value) is ValueError  # not the UnicodeEncodeError of a UTF-8 conversion
    message = str(info.value)
    assert names(message, bad) and fragment in message, message


def test_typeid_lone_surrogates() -> None:
    bad = "pre\ud800_01h455vb4pex5vsknk084sn02q"
    message = raises_naming(ValueError, bad, uuidx.parse_typeid, bad)
    assert "lone surrogate '\\ud800' at position 3 in the prefix" in message
    bad = "pre_01h455vb4pex5vsknk084sn02\udfff"
    message = raises_naming(ValueError, bad, uuidx.parse_typeid, bad)
    assert "in the suffix, lone surrogate '\\udfff' at position 29" in message
    message = raises_naming(ValueError, "a\udc00", uuidx.typeid, "a\udc00", uuid.UUID(int=0))
    assert message.startswith("invalid TypeID prefix ") and "position 1" in message


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        ("PREFIX_00000000000000000000000000", "'P' at position 0 in the prefix"),
        ("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz", "'8' at position 7 makes the value exceed"),
        ("user_01H455VB4PEX5VSKNK084SN02Q", "'H' at position 7"),
        ("user_01h455vb4pex5vsknk084sn02", "expected 26 characters, found 25"),
        ("_01h455vb4pex5vsknk084sn02q", "'_' at position 0 with an empty prefix"),
    ],
)
def test_parse_typeid_errors(bad: str, fragment: str) -> None:
    message = raises_naming(ValueError, bad, uuidx.parse_typeid, bad)
    assert fragment in message


def test_parse_typeid_long_prefix() -> None:
    bad = "a" * 64 + "_01h455vb4pex5vsknk084sn02q"
    with pytest.raises(ValueError) as info:
        uuidx.parse_typeid(bad)
    message = str(info.value)
    assert '"' + "a" * 60 in message and "the prefix has 64 characters" in message


@pytest.mark.parametrize("prefix", ["User", "_x", "x_", "a-b", "\u00e9", "a" * 64, "a1"])
def test_typeid_rejects_bad_prefixes(prefix: str) -> None:
    message = raises_naming(ValueError, prefix, uuidx.typeid, prefix, uuid.UUID(int=0))
    assert message.startswith("invalid TypeID prefix ")


def test_long_inputs_are_shortened() -> None:
    for call in (
        lambda s: uuidx.decode(s, "base58"),
        uuidx.parse_typeid,
        lambda s: uuidx.typeid(s, uuid.UUID(int=0)),
    ):
        with pytest.raises(ValueError) as info:
            call("z" * 1_000_000)
        assert len(str(info.value)) < 400 and "zzzzzzzzzz" in str(info.value)


@pytest.mark.parametrize("bad", ["Base58", "simple", "", "typeid", "base32 "])
def test_unknown_form_lists_the_forms(bad: str) -> None:
    for call in (
        lambda: uuidx.encode(uuid.UUID(int=0), bad),  # type: ignore[arg-type]
        lambda: uuidx.decode("0" * 32, bad),  # type: ignore[arg-type]
    ):
        message = raises_naming(ValueError, bad, call)
        assert message.startswith("unknown form ")
        assert all(f"'{form}'" in message for form in FORMS), message


@pytest.mark.parametrize("bad", [5, None, b"base58", uuid.UUID(int=0)])
def test_form_of_the_wrong_type(bad: object) -> None:
    message = raises_naming(TypeError, bad, uuidx.encode, uuid.UUID(int=0), bad)
    assert "form must be a str" in message
    raises_naming(TypeError, bad, uuidx.decode, "0" * 32, bad)


@pytest.mark.parametrize(
    "bad",
    [5, None, b"1BzmjTFLHWXwiSK4y3H5iW", bytearray(b"x"), uuid.UUID(int=0), ["x"]],
    ids=lambda b: type(b).__name__,
)
def test_text_of_the_wrong_type(bad: object) -> None:
    message = raises_naming(TypeError, bad, uuidx.decode, bad, "base58")
    assert "s must be a str" in message and type(bad).__name__ in message
    raises_naming(TypeError, bad, uuidx.parse_typeid, bad)
    if not isinstance(bad, uuid.UUID):
        raises_naming(TypeError, bad, uuidx.typeid, bad, uuid.UUID(int=0))


@pytest.mark.parametrize(
    "bad",
    [5, None, "01890a5d-ac96-774b-bcce-b302099a8057", 1 << 127],
    ids=lambda b: type(b).__name__,
)
def test_uuid_of_the_wrong_type(bad: object) -> None:
    message = raises_naming(TypeError, bad, uuidx.encode, bad, "base58")
    assert "u must be a uuid.UUID" in message
    raises_naming(TypeError, bad, uuidx.typeid, "user", bad)


# Hostile UUID arguments (subclasses, look-alikes, objects that claim the class, mocks) are
# tested for encode and typeid with every other function that takes a UUID, over the catalogue
# (tests/test_hostile.py).


def test_results_are_exact_and_equal_under_the_fallback_too() -> None:
    """Whichever path builds UUIDs (make test runs once with UUIDX_FORCE_FALLBACK=1)."""
    u = uuidx.decode("1BzmjTFLHWXwiSK4y3H5iW", "base58")
    assert type(u) is uuid.UUID and u == uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057")
    prefix, v = uuidx.parse_typeid("user_01h455vb4pex5vsknk084sn02q")
    assert type(prefix) is str and type(v) is uuid.UUID and v == u
