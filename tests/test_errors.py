"""Bad input to every public function: the exception type (as the stdlib where it has the
function) and a message that names the bad value (its repr, or its str for numbers and text)."""

from __future__ import annotations

import datetime as dt
import sys
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any, Union

import catalog
import pytest
from messages import names, raises_naming
from platform_facts import NO_RLIMIT_AS, rlimit_as_enforced

import uuidx
from uuidx import layout

UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
VALID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"


# --- parse --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", [5, None, 1.5, VALID.encode(), bytearray(VALID.encode()), uuid.UUID(VALID), [VALID]]
)
def test_parse_non_str_is_type_error(bad: object) -> None:
    message = raises_naming(TypeError, bad, uuidx.parse, bad)
    assert type(bad).__name__ in message


PARSE_CASES: list[tuple[str, str]] = [
    ("", "found 0"),
    ("f81d4fae-7dec-11d0-a765-00a0c91e6bf", "found 35"),
    ("f81d4fae-7dec-11d0-a765-00a0c91e6bf66", "found 37"),
    ("f81d4fae-7dec-11d0-a765-00a0c91e6bfg", "position 35"),
    ("g81d4fae-7dec-11d0-a765-00a0c91e6bf6", "position 0"),
    ("f81d4fae_7dec-11d0-a765-00a0c91e6bf6", "position 8"),
    ("f81d4fae-7dec-11d0-a765+00a0c91e6bf6", "position 23"),
    ("f81d4fae-7dec-11d0-a765-00a0c91e6bf ", "position 35"),
    (" f81d4fae-7dec-11d0-a765-00a0c91e6bf", "expected '-' at position 8"),
    ("+81d4fae-7dec-11d0-a765-00a0c91e6bf6", "position 0"),
    ("f81d4fae7dec11d0a76500a0c91e6bfx", "position 31"),
    ("0xf81d4fae7dec11d0a76500a0c91e6b", "position 1"),
    ("f81d4fae7dec11d0a76500a0c91e6bf_", "position 31"),
    ("{f81d4fae-7dec-11d0-a765-00a0c91e6bfZ}", "position 36"),
    ("{f81d4fae-7dec-11d0-a765_00a0c91e6bf6}", "position 24"),
    ("(f81d4fae-7dec-11d0-a765-00a0c91e6bf6)", "'{'"),
    ("{f81d4fae-7dec-11d0-a765-00a0c91e6bf6{", "'}'"),
    ("urn:uuix:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:uuid:"),
    ("urn:uuid:f81d4fae-7dec-11d0+a765-00a0c91e6bf6", "position 27"),
    ("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bfG", "position 44"),
    ("urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6", "found 41"),
    ("f81d4fae7dec11d0a76500a0c91e6b\u00e9", "found 31"),
]


@pytest.mark.parametrize(("bad", "fragment"), PARSE_CASES, ids=[repr(c[0]) for c in PARSE_CASES])
def test_parse_malformed_is_value_error_with_position(bad: str, fragment: str) -> None:
    message = raises_naming(ValueError, bad, uuidx.parse, bad)
    assert fragment in message
    with pytest.raises(ValueError):
        uuidx.parse(bad.upper())


def test_parse_long_input_is_shortened_but_named() -> None:
    bad = "x" * 1000
    with pytest.raises(ValueError) as info:
        uuidx.parse(bad)
    message = str(info.value)
    assert "x" * 60 in message
    assert "found 1000" in message
    assert len(message) < 400


NON_ASCII_CASES: list[tuple[str, tuple[str, ...]]] = [
    # 36 characters, the last one a non-ASCII digit: the hyphenated length is right, the
    # character is wrong.
    ("f81d4fae-7dec-11d0-a765-00a0c91e6bf\u0660", ("position 35",)),
    # 32 characters, the last one non-ASCII.
    ("f81d4fae7dec11d0a76500a0c91e6bf\u00e9", ("position 31",)),
    # 38 characters, braced, one non-ASCII.
    ("{f81d4fae-7dec-11d0-a765-00a0c91e6bf\u00e9}", ("position 36",)),
    # 35 characters (37 UTF-8 bytes): a length problem, or the 'é' at position 0.
    ("\u00e9f81d4fae-7dec-11d0-a765-00a0c91e6b", ("found 35", "position 0")),
]


@pytest.mark.parametrize(
    ("bad", "fragments"), NON_ASCII_CASES, ids=["36-chars", "32-chars", "38-chars", "35-chars"]
)
def test_parse_non_ascii_reports_the_real_problem(bad: str, fragments: tuple[str, ...]) -> None:
    """Lengths and positions are in characters, as the message says: a string of an accepted
    length must not be reported as having the wrong length."""
    message = raises_naming(ValueError, bad, uuidx.parse, bad)
    assert any(f in message for f in fragments), message
    assert f"found {len(bad)}" not in message or len(bad) not in (32, 36, 38, 45), message


@pytest.mark.parametrize(
    ("bad", "position"),
    [
        ("\ud800", 0),
        ("f81d4fae-7dec-11d0-a765-00a0c91e6bf\ud800", 35),
        ("f81d4fae-7dec-11d0-a765-00a0c91e6bf6\udfff", 36),
        ("{\udbff" + "0" * 36, 1),
    ],
)
def test_parse_lone_surrogate_names_input_and_position(bad: str, position: int) -> None:
    with pytest.raises(ValueError) as info:
        uuidx.parse(bad)
    assert type(info.value) is ValueError  # not the UnicodeEncodeError of a UTF-8 conversion
    message = str(info.value)
    assert repr(bad) in message, message
    assert f"lone surrogate {bad[position]!r} at position {position}" in message, message


# --- uuid1 / uuid6 / uuid8 ------------------------------------------------------------------

WRONG_INTS: list[object] = ["1", 1.0, 1.5, b"\x01", Decimal(1), [1], object()]


@pytest.mark.parametrize("bad", WRONG_INTS, ids=lambda b: type(b).__name__)
@pytest.mark.parametrize("arg", ["node", "clock_seq"])
@pytest.mark.parametrize("func", [uuidx.uuid1, uuidx.uuid6], ids=["uuid1", "uuid6"])
def test_uuid1_uuid6_wrong_type(func: Callable[..., object], arg: str, bad: object) -> None:
    message = raises_naming(TypeError, bad, func, **{arg: bad})
    assert arg in message


@pytest.mark.parametrize("bad", WRONG_INTS, ids=lambda b: type(b).__name__)
@pytest.mark.parametrize("arg", ["a", "b", "c"])
def test_uuid8_wrong_type(arg: str, bad: object) -> None:
    raises_naming(TypeError, bad, uuidx.uuid8, **{arg: bad})


@pytest.mark.parametrize("bad", WRONG_INTS[:3], ids=lambda b: type(b).__name__)
def test_stdlib_also_rejects_these_types(bad: object) -> None:
    # The stdlib masks with '&', which floats and strings do not support.
    with pytest.raises(TypeError):
        uuid.uuid1(clock_seq=bad)  # type: ignore[arg-type]


def test_none_means_default() -> None:
    for u in (uuidx.uuid1(None, None), uuidx.uuid6(None, None), uuidx.uuid8(None, None, None)):
        assert type(u) is uuid.UUID
    assert uuidx.uuid1(None, 5).clock_seq == 5
    assert uuidx.uuid6(None, 5).node == uuidx.process_node()


@pytest.mark.parametrize("node", [1 << 48, (1 << 48) + 1, -1, 1 << 64, 1 << 70, -(1 << 70)])
def test_uuid1_node_out_of_range(node: int) -> None:
    with pytest.raises(ValueError):
        uuid.uuid1(node=node)
    message = raises_naming(ValueError, node, uuidx.uuid1, node=node)
    assert "node" in message


# --- name-based ---------------------------------------------------------------------------

#: The functions that hash one name with a namespace (the catalogue's).
NAME_BASED = catalog.name_takers()
NAME_BASED_IDS = [e.name for e in NAME_BASED]
NAME_BASED_FUNCS = [e.func for e in NAME_BASED]
#: Every function that takes a namespace, columns of names included.
NAMESPACE_TAKERS = catalog.namespace_takers()


class ShortBytes:
    bytes = b"\x00" * 15

    def __repr__(self) -> str:
        return "ShortBytes()"


@pytest.mark.parametrize(
    "bad",
    [VALID, None, 5, VALID.encode(), uuid.UUID(VALID).bytes, object, ShortBytes()],
    ids=["str", "None", "int", "bytes36", "bytes16", "type", "short-bytes"],
)
@pytest.mark.parametrize("entry", NAMESPACE_TAKERS, ids=[e.name for e in NAMESPACE_TAKERS])
def test_namespace_not_a_uuid(entry: catalog.Entry, bad: object) -> None:
    position = entry.namespace_arg
    assert position is not None

    def call() -> object:
        return entry.call_with(position, bad)

    with pytest.raises(uuidx.NamespaceTypeError) as info:
        call()
    assert isinstance(info.value, TypeError)
    assert isinstance(info.value, AttributeError)
    message = str(info.value)
    assert repr(bad) in message, message
    # Code written for the stdlib catches AttributeError; it keeps working.
    with pytest.raises(AttributeError):
        call()
    with pytest.raises(TypeError):
        call()


def test_namespace_error_class() -> None:
    assert issubclass(uuidx.NamespaceTypeError, TypeError)
    assert issubclass(uuidx.NamespaceTypeError, AttributeError)
    assert uuidx.NamespaceTypeError.__module__ == "uuidx"
    # The stdlib raises AttributeError for the same inputs.
    for bad in (VALID, None, 5):
        with pytest.raises(AttributeError):
            uuid.uuid3(bad, "name")  # type: ignore[arg-type]
        with pytest.raises(AttributeError):
            uuid.uuid5(bad, "name")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [5, None, 1.5, ["a"], object()], ids=lambda b: type(b).__name__)
@pytest.mark.parametrize("func", NAME_BASED_FUNCS, ids=NAME_BASED_IDS)
def test_name_of_wrong_type(func: Callable[..., uuid.UUID], bad: object) -> None:
    message = raises_naming(TypeError, bad, func, uuidx.NAMESPACE_DNS, bad)
    assert "name" in message


def test_stdlib_rejects_int_names_too() -> None:
    with pytest.raises(TypeError):
        uuid.uuid3(uuid.NAMESPACE_DNS, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        uuid.uuid5(uuid.NAMESPACE_DNS, 5)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["\ud800", "abc\udfff", "\ud83d"])
@pytest.mark.parametrize("func", NAME_BASED_FUNCS, ids=NAME_BASED_IDS)
def test_lone_surrogate_is_unicode_encode_error(func: Callable[..., uuid.UUID], name: str) -> None:
    with pytest.raises(UnicodeEncodeError):
        uuid.uuid3(uuid.NAMESPACE_DNS, name)
    with pytest.raises(UnicodeEncodeError):
        func(uuidx.NAMESPACE_DNS, name)


@pytest.mark.parametrize("algorithm", ["md5", "sha1", "SHA256", "sha-256", "sha224", "", "blake2b"])
def test_unknown_algorithm(algorithm: str) -> None:
    message = raises_naming(
        ValueError, algorithm, uuidx.uuid8_name, uuidx.NAMESPACE_DNS, "x", algorithm
    )
    assert "sha256" in message  # says what is accepted
    assert f'"{algorithm}"' in message or repr(algorithm) in message


@pytest.mark.parametrize("algorithm", [5, b"sha256", 1.5])
def test_algorithm_of_wrong_type(algorithm: object) -> None:
    raises_naming(TypeError, algorithm, uuidx.uuid8_name, uuidx.NAMESPACE_DNS, "x", algorithm)


# --- layout constructors -------------------------------------------------------------------

#: The layout constructors of int fields and their fields (the catalogue's).
LAYOUTS: dict[str, tuple[Callable[..., uuid.UUID], tuple[tuple[str, int], ...]]] = {
    e.name.split(".")[1]: (e.func, e.int_fields) for e in catalog.ENTRIES if e.int_fields
}
FIELD_CASES = [
    (name, index, field, bits)
    for name, (_, spec) in LAYOUTS.items()
    for index, (field, bits) in enumerate(spec)
]


def _args(name: str, index: int, value: object) -> list[object]:
    args: list[object] = [0] * len(LAYOUTS[name][1])
    args[index] = value
    return args


@pytest.mark.parametrize(
    ("name", "index", "field", "bits"), FIELD_CASES, ids=[f"{c[0]}-{c[2]}" for c in FIELD_CASES]
)
def test_layout_field_out_of_range(name: str, index: int, field: str, bits: int) -> None:
    func = LAYOUTS[name][0]
    # The largest value fits and lands in the field.
    top = func(*_args(name, index, (1 << bits) - 1))
    assert type(top) is uuid.UUID
    f = layout.fields(top)
    if field in f._fields:
        assert getattr(f, field) == (1 << bits) - 1
    for bad in (1 << bits, (1 << bits) + 1, -1, -(1 << 70), 1 << 64, (1 << 64) + 1, 1 << 100):
        message = raises_naming(ValueError, bad, func, *_args(name, index, bad))
        assert field in message, message
        assert str(bits) in message, message


@pytest.mark.parametrize(
    ("name", "index", "field", "bits"), FIELD_CASES, ids=[f"{c[0]}-{c[2]}" for c in FIELD_CASES]
)
def test_layout_field_wrong_type(name: str, index: int, field: str, bits: int) -> None:
    func = LAYOUTS[name][0]
    for bad in ("1", 1.0, None, b"\x01"):
        message = raises_naming(TypeError, bad, func, *_args(name, index, bad))
        assert field in message, message


@pytest.mark.parametrize("size", [0, 15, 17, 32])
def test_layout_v4_wrong_length(size: int) -> None:
    with pytest.raises(ValueError) as info:
        layout.v4(bytes(size))
    message = str(info.value)
    assert "16" in message and str(size) in message, message


@pytest.mark.parametrize("bad", [5, None, "x" * 16, [0] * 16], ids=lambda b: type(b).__name__)
def test_layout_v4_not_bytes(bad: object) -> None:
    raises_naming(TypeError, bad, layout.v4, bad)


# --- decomposition and conversions ---------------------------------------------------------

#: Every function that takes a UUID or a column of them (the catalogue's).
UUID_TAKERS = catalog.uuid_takers()


@pytest.mark.parametrize(
    "bad", [VALID, None, 5, uuid.UUID(VALID).bytes, 1 << 100], ids=lambda b: type(b).__name__
)
@pytest.mark.parametrize("entry", UUID_TAKERS, ids=[e.name for e in UUID_TAKERS])
def test_non_uuid_is_type_error(entry: catalog.Entry, bad: object) -> None:
    if bad is None and entry.column_arg is not None:
        return  # a null row
    raises_naming(TypeError, bad, entry.with_uuid, bad)


#: UUIDs of the wrong version or variant for the functions that need a particular one (each
#: named as in the catalogue).
WRONG_VERSION: list[tuple[str, list[uuid.UUID]]] = [
    (
        "layout.fields",
        [
            uuid.UUID(int=1),  # NCS variant
            uuid.UUID("00000000-0000-0000-c000-000000000000"),  # Microsoft variant
            uuid.UUID("00000000-0000-0000-e000-000000000000"),  # future variant
            uuid.UUID("00000000-0000-0000-8000-000000000000"),  # RFC variant, version 0
            uuid.UUID("00000000-0000-9000-8000-000000000000"),  # version 9
            uuid.UUID("00000000-0000-f000-8000-000000000000"),  # version 15
        ],
    ),
    (
        "timestamp_ns",
        [
            uuidx.uuid4(),
            uuidx.uuid3(uuidx.NAMESPACE_DNS, "x"),
            uuidx.uuid8(),
            uuidx.NIL,
            layout.v2(0, 0, 0, 0, 0),
            uuid.UUID(int=1),
        ],
    ),
    (
        "to_datetime",
        [uuidx.uuid4(), uuidx.uuid5(uuidx.NAMESPACE_DNS, "x"), uuidx.uuid8(), uuidx.MAX],
    ),
    ("v1_to_v6", [uuidx.uuid6(), uuidx.uuid4(), uuidx.uuid7(), uuidx.NIL]),
    ("v6_to_v1", [uuidx.uuid1(), uuidx.uuid4(), uuidx.uuid7(), uuidx.MAX]),
    ("mask_v7", [uuidx.uuid4(), uuidx.uuid6(), uuidx.NIL, uuidx.MAX]),
    ("unmask_v7", [uuidx.uuid7(), uuidx.uuid1(), uuidx.NIL, uuidx.MAX]),
    ("V7Generator.fields", [uuidx.uuid4(), uuidx.uuid6(), uuidx.NIL]),
]


@pytest.mark.parametrize(("name", "bad_uuids"), WRONG_VERSION, ids=[n for n, _ in WRONG_VERSION])
def test_wrong_version_is_value_error(name: str, bad_uuids: list[uuid.UUID]) -> None:
    entry = catalog.BY_NAME[name]
    for bad in bad_uuids:
        raises_naming(ValueError, bad, entry.with_uuid, bad)


def test_to_datetime_beyond_year_9999() -> None:
    for ms in ((1 << 48) - 1, 253_402_300_800_000):  # year 10889, and 10000-01-01
        u = layout.v7(ms, 0, 0)
        raises_naming(ValueError, u, uuidx.to_datetime, u)
    # The last millisecond of 9999 still works.
    last = uuidx.to_datetime(layout.v7(253_402_300_799_999, 0, 0))
    assert last == dt.datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)


# --- v7 time helpers -----------------------------------------------------------------------

#: The functions that take an instant (the catalogue's).
TIME_FUNCS = catalog.instant_takers()
TIME_IDS = [e.name for e in TIME_FUNCS]
TIME_CALLS = [e.func for e in TIME_FUNCS]


@pytest.mark.parametrize("func", TIME_CALLS, ids=TIME_IDS)
def test_naive_datetime(func: Callable[[Any], object]) -> None:
    naive = dt.datetime(2024, 1, 2, 3, 4, 5)
    raises_naming(ValueError, naive, func, naive)


@pytest.mark.parametrize(
    "bad",
    [1.5, "2024-01-01", None, True, Decimal(10), dt.date(2024, 1, 1)],
    ids=lambda b: type(b).__name__,
)
@pytest.mark.parametrize("func", TIME_CALLS, ids=TIME_IDS)
def test_time_of_wrong_type(func: Callable[[Any], object], bad: object) -> None:
    raises_naming(TypeError, bad, func, bad)


@pytest.mark.parametrize(
    "bad",
    [
        -1,
        -1_000_000,
        dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        dt.datetime(1, 1, 1, tzinfo=UTC),
    ],
    ids=["-1ns", "-1ms", "1969", "year-1"],
)
@pytest.mark.parametrize("func", TIME_CALLS, ids=TIME_IDS)
def test_time_before_1970(func: Callable[[Any], object], bad: Union[int, dt.datetime]) -> None:
    # A datetime is named by its value in nanoseconds since 1970, the unit of the core.
    ns = bad if isinstance(bad, int) else (bad - EPOCH) // dt.timedelta(microseconds=1) * 1000
    message = raises_naming(ValueError, ns, func, bad)
    assert "out of range" in message


@pytest.mark.parametrize(
    "bad",
    [(1 << 48) * 1_000_000, 1 << 100, 1 << 128, 1 << 200, -(1 << 128), -(1 << 200)],
    ids=["2**48ms", "2**100", "2**128", "2**200", "-2**128", "-2**200"],
)
def test_time_out_of_range_is_value_error(bad: int) -> None:
    """An int is the right type whatever its size: too early or too late is a ValueError."""
    for func in TIME_CALLS:
        raises_naming(ValueError, bad, func, bad)


def test_time_at_the_edges() -> None:
    assert layout.fields(uuidx.min_uuid7(0)) == layout.V7Fields(0, 7, 0, 2, 0)
    last_ns = (1 << 48) * 1_000_000 - 1
    assert layout.fields(uuidx.max_uuid7(last_ns)) == layout.V7Fields(
        (1 << 48) - 1, 7, (1 << 12) - 1, 2, (1 << 62) - 1
    )


def test_bounds_end_before_start() -> None:
    start = dt.datetime(2024, 1, 2, tzinfo=UTC)
    end = dt.datetime(2024, 1, 1, tzinfo=UTC)
    message = raises_naming(ValueError, end, uuidx.uuid7_bounds, start, end)
    assert repr(start) in message
    message = raises_naming(ValueError, 5, uuidx.uuid7_bounds, 10, 5)
    assert "10" in message
    # Equal is fine, and so is an end in the same millisecond given another way.
    lo, hi = uuidx.uuid7_bounds(start, start)
    assert lo < hi


def test_bounds_second_argument_checked() -> None:
    start = dt.datetime(2024, 1, 1, tzinfo=UTC)
    naive = dt.datetime(2025, 1, 1)
    raises_naming(ValueError, naive, uuidx.uuid7_bounds, start, naive)
    raises_naming(TypeError, 1.5, uuidx.uuid7_bounds, start, 1.5)


# --- generators -----------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["Counter", "random", "", "submilli", "method1"])
def test_v7_generator_unknown_method(method: str) -> None:
    message = raises_naming(ValueError, method, uuidx.V7Generator, method)
    assert "counter" in message and "submillisecond" in message


@pytest.mark.parametrize(
    ("method", "bits"),
    [("counter", 11), ("counter", 43), ("counter", 0), ("submillisecond", 31),
     ("submillisecond", 64), ("monotonic_random", 0), ("monotonic_random", 33)],
)  # fmt: skip
def test_v7_generator_bits_out_of_range(method: str, bits: int) -> None:
    message = raises_naming(ValueError, bits, uuidx.V7Generator, method, bits)
    assert "bits" in message


@pytest.mark.parametrize(
    ("method", "bits"),
    [("counter", 12), ("counter", 42), ("submillisecond", 0), ("submillisecond", 30),
     ("monotonic_random", 1), ("monotonic_random", 32)],
)  # fmt: skip
def test_v7_generator_bits_in_range(method: str, bits: int) -> None:
    g = uuidx.V7Generator(method, bits)  # type: ignore[arg-type]
    assert (g.method, g.bits) == (method, bits)


@pytest.mark.parametrize("bits", [-1, 1 << 32, -(1 << 64)])
def test_v7_generator_bits_far_out_of_range(bits: int) -> None:
    """Out of range is out of range, however far: ValueError naming the value."""
    for method in ("counter", "submillisecond", "monotonic_random"):
        raises_naming(ValueError, bits, uuidx.V7Generator, method, bits)


@pytest.mark.parametrize("policy", ["Reset", "raise", "", "ignore"])
@pytest.mark.parametrize("cls", [uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator])
def test_generator_unknown_policy(cls: Callable[..., object], policy: str) -> None:
    message = raises_naming(ValueError, policy, cls, rollback_policy=policy)
    assert "reset" in message and "error" in message


@pytest.mark.parametrize("allowance", [-1, 1 << 64])
def test_generator_allowance_out_of_range(allowance: int) -> None:
    for cls in (uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator):
        raises_naming(ValueError, allowance, cls, rollback_allowance_ns=allowance)


def test_generator_allowance_edges() -> None:
    for cls in (uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator):
        assert cls(rollback_allowance_ns=0).rollback_allowance_ns == 0
        top = (1 << 64) - 1
        assert cls(rollback_allowance_ns=top).rollback_allowance_ns == top


GENERATOR_WRONG_TYPES: list[tuple[Callable[..., object], dict[str, object], object]] = [
    (uuidx.V7Generator, {"method": 5}, 5),
    (uuidx.V7Generator, {"method": b"counter"}, b"counter"),
    (uuidx.V7Generator, {"method": "counter", "bits": "12"}, "12"),
    (uuidx.V7Generator, {"method": "counter", "bits": 12.0}, 12.0),
    (uuidx.V7Generator, {"rollback_allowance_ns": 1.5}, 1.5),
    (uuidx.V7Generator, {"rollback_allowance_ns": "10"}, "10"),
    (uuidx.V7Generator, {"rollback_policy": 5}, 5),
    (uuidx.V6Generator, {"rollback_allowance_ns": 1.5}, 1.5),
    (uuidx.V6Generator, {"rollback_policy": 5}, 5),
    (uuidx.V1Generator, {"rollback_allowance_ns": "10"}, "10"),
    (uuidx.V1Generator, {"rollback_policy": b"reset"}, b"reset"),
]


def test_generator_options_of_wrong_type() -> None:
    """Every generator option of the wrong type: TypeError naming the value. All cases are
    collected so that one run lists every offender."""
    problems = []
    for cls, kwargs, bad in GENERATOR_WRONG_TYPES:
        try:
            cls(**kwargs)
        except TypeError as exc:
            if not names(str(exc), bad):
                problems.append(
                    f"{cls.__name__}(**{kwargs!r}): message {str(exc)!r} does not name {bad!r}"
                )
        except BaseException as exc:  # any other exception is a problem, listed below
            problems.append(f"{cls.__name__}(**{kwargs!r}): {type(exc).__name__}: {exc}")
        else:
            problems.append(f"{cls.__name__}(**{kwargs!r}) was accepted")
    assert not problems, "\n".join(problems)


def test_v7_generator_many_negative() -> None:
    for bad in (-1, -(1 << 70)):
        raises_naming(ValueError, bad, uuidx.V7Generator().many, bad)


def test_v7_generator_many_wrong_type() -> None:
    for bad in ("3", 1.5, None):
        raises_naming(TypeError, bad, uuidx.V7Generator().many, bad)


def test_v7_generator_many_zero() -> None:
    assert uuidx.V7Generator().many(0) == []


@pytest.mark.parametrize("node", [1 << 48, (1 << 48) + 5, -1, 1 << 64, 1 << 100])
@pytest.mark.parametrize("cls", [uuidx.V6Generator, uuidx.V1Generator])
def test_gregorian_generator_node_out_of_range(cls: Callable[..., object], node: int) -> None:
    message = raises_naming(ValueError, node, cls, node=node)
    assert "node" in message


@pytest.mark.parametrize("node", ["1", 1.5, b"\x01"])
@pytest.mark.parametrize("cls", [uuidx.V6Generator, uuidx.V1Generator])
def test_gregorian_generator_node_wrong_type(cls: Callable[..., object], node: object) -> None:
    raises_naming(TypeError, node, cls, node=node)


#: The bulk functions (the catalogue's entries with a count beyond memory), with the position
#: of their count.
BULK = [
    (e, s.args.index(catalog.HUGE)) for e, s in catalog.shapes(lambda e, s: s.raises is MemoryError)
]


@pytest.mark.parametrize("n", [10**12, 2**59, 2**64 - 1])
@pytest.mark.parametrize(("entry", "position"), BULK, ids=[e.name for e, _ in BULK])
def test_bulk_counts_beyond_memory_raise_memory_error(
    entry: catalog.Entry, position: int, n: int
) -> None:
    # Never an abort or a PanicException (a BaseException that `except Exception` misses),
    # and refused before any memory is touched: the message names the count.
    with pytest.raises(MemoryError, match=f"cannot make {n} UUIDs"):
        entry.call_with(position, n)


def test_bulk_count_beyond_2_pow_64_is_memory_error() -> None:
    with pytest.raises(MemoryError, match="cannot make"):
        uuidx.uuid4_bytes(1 << 64)


MIMALLOC_SCRIPT = """
import uuidx
for name in ("uuid4_bytes", "uuid7_bytes", "uuid4_many", "uuid7_many", "uuid4_str_many",
             "uuid7_str_many"):
    for n in (10**12, 2**59):
        try:
            getattr(uuidx, name)(n)
        except MemoryError as exc:
            assert f"cannot make {n} UUIDs" in str(exc), exc
        else:
            raise SystemExit(f"{name}({n}) returned")
try:
    uuidx.V7Generator().many(10**12)
except MemoryError:
    pass
assert len(uuidx.uuid4_bytes(1000)) == 16000
print("ok")
"""


@pytest.mark.skipif(not rlimit_as_enforced(), reason=NO_RLIMIT_AS)
def test_bulk_counts_under_mimalloc() -> None:
    """mimalloc (free-threaded builds' allocator) reserves address space instead of failing:
    a 16 TB request must be refused by uuidx before it reaches the allocator. Runs in a
    subprocess with a 4 GB address-space cap, so a regression fails instead of filling RAM."""
    import os
    import subprocess

    env = dict(os.environ, PYTHONMALLOC="mimalloc")
    probe = subprocess.run(
        [sys.executable, "-c", "pass"], env=env, capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"this interpreter has no mimalloc (CPython 3.13+): {probe.stderr[-200:]!r}")
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
    proc = subprocess.run(
        [sys.executable, "-c", limit + MIMALLOC_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"


CAPPED_SCRIPT = """
import resource, sys
# 64-bit: a 1 GB cap; 100 million UUIDs (1.6 GB: below the machine's memory, above the cap);
# 12 million UUID objects (56 bytes and an 8-byte list slot each: 770 MB beside their 190 MB
# buffer). 32-bit (make test-i686): counts whose estimate (132 bytes a UUID object) fits its 2 GB
# of addresses, since uuidx refuses beforehand one that does not; so a 192 MB cap, 15 million
# UUIDs (240 MB) and 6 million objects (28 and 4 bytes each: 190 MB beside their 96 MB buffer).
if sys.maxsize > 2**32:
    cap, n, objects = 1 << 30, 100_000_000, 12_000_000
else:
    cap, n, objects = 192 << 20, 15_000_000, 6_000_000
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
import uuidx, uuidx.arrow
calls = {
    "uuid4_bytes": lambda: uuidx.uuid4_bytes(n),
    "uuid7_bytes": lambda: uuidx.uuid7_bytes(n),
    "uuid4_many": lambda: uuidx.uuid4_many(n),
    "uuid7_str_many": lambda: uuidx.uuid7_str_many(n),
    "V7Generator.many": lambda: uuidx.V7Generator().many(n),
    "arrow.uuid4": lambda: uuidx.arrow.uuid4(n),
    # the buffer fits; the list's objects do not
    "uuid4_many, objects": lambda: uuidx.uuid4_many(objects),
}
if sys.implementation.name == "pypy":
    # PyPy's GC ends the process when it cannot map its next arena, for pure Python objects
    # too ("out of memory: couldn't allocate the next arena"): there is no MemoryError to see.
    del calls["uuid4_many, objects"]
for name, call in calls.items():
    try:
        call()
    except MemoryError as exc:
        count = str(objects if "objects" in name else n)
        if count not in str(exc) or "UUIDs" not in str(exc):
            sys.exit(f"{name}: MemoryError without the count: {exc!r}")
    else:
        sys.exit(f"{name} returned under a {cap >> 20} MB cap")
assert len(uuidx.uuid4_bytes(1000)) == 16000
print("ok")
"""


@pytest.mark.memory_cap
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as on Linux")
@pytest.mark.skipif(not rlimit_as_enforced(), reason=NO_RLIMIT_AS)
def test_an_allocation_that_fails_names_the_count() -> None:
    """A count the machine could hold, refused by the allocator (here a 1 GB address-space cap,
    as ``ulimit -v`` sets; 192 MB on a 32-bit interpreter): a ``MemoryError`` that names the
    count, never an empty one, an abort or a crash."""
    import os
    import subprocess

    # The interpreter's default allocator: mimalloc (the 3.13 pass of make test-wheels) reserves
    # more than 1 GB of address space for itself, and has a test of its own above.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    proc = subprocess.run(
        [sys.executable, "-c", CAPPED_SCRIPT],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout[-2000:]
    assert proc.stdout.strip() == "ok"
