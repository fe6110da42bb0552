"""``uuidx.arrow`` on its own (no Arrow library needed): generation, the column functions
against the scalar functions row by row (hypothesis), nulls, empty columns, the buffer
protocol, and the errors for every bad input class.

Foreign Arrow objects are imitated by :class:`Exporter`, which hands out another object's
capsules the way a foreign library would, so the import path (``ffi/arrow_capsule.rs``) runs here too;
``test_arrow_libraries.py`` does the same with the real libraries.
"""

from __future__ import annotations

import ctypes
import gc
import re
import uuid
from typing import Any, Optional, Union

import pytest
from hypothesis import given
from hypothesis import strategies as st
from platform_facts import PYPY

import uuidx
import uuidx.arrow as ua

NS = uuidx.NAMESPACE_URL
ALGORITHMS = ["sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256"]


class Exporter:
    """A stand-in for a foreign Arrow object: forwards ``__arrow_c_array__`` (or
    ``__arrow_c_stream__`` when ``stream`` is given) of another object."""

    def __init__(self, inner: Any, stream: Any = None) -> None:
        self.inner = inner
        if stream is not None:
            self.__arrow_c_stream__ = stream

    def __arrow_c_array__(self, requested_schema: object = None) -> Any:
        return self.inner.__arrow_c_array__(requested_schema)


def uuids_of(values: list[Optional[int]]) -> list[Optional[uuid.UUID]]:
    return [None if v is None else uuid.UUID(int=v) for v in values]


# --------------------------------------------------------------------------------------------
# Generation


def test_uuid4_column() -> None:
    col = ua.uuid4(1000)
    assert len(col) == 1000 and col.null_count == 0 and col.extension
    values = col.to_pylist()
    assert all(type(u) is uuid.UUID and u.version == 4 for u in values)
    assert all(u is not None and u.variant == uuid.RFC_4122 for u in values)
    assert len(set(values)) == 1000
    assert bytes(memoryview(col)) == b"".join(u.bytes for u in values if u is not None)


def test_uuid7_column_is_strictly_increasing_and_continues_the_sequence() -> None:
    before = uuidx.uuid7()
    col = ua.uuid7(5000)
    after = uuidx.uuid7()
    raw = bytes(memoryview(col))
    records = [raw[i : i + 16] for i in range(0, len(raw), 16)]
    assert all(a < b for a, b in zip(records, records[1:])), "strictly increasing"
    assert before.bytes < records[0] and records[-1] < after.bytes
    assert all(uuid.UUID(bytes=r).version == 7 for r in records)


@pytest.mark.parametrize("make", [ua.uuid4, ua.uuid7])
def test_generated_columns_sizes_and_counts(make: Any) -> None:
    empty = make(0)
    assert len(empty) == 0 and empty.to_pylist() == [] and bytes(memoryview(empty)) == b""
    assert not make(3, extension=False).extension
    with pytest.raises(TypeError, match="n must be an int, got str"):
        make("3")
    with pytest.raises(ValueError, match="n must be 0 or more, got -1"):
        make(-1)
    for huge in (2**70, 10**15):
        with pytest.raises(MemoryError, match=f"cannot make {huge} UUIDs"):
            make(huge)


# --------------------------------------------------------------------------------------------
# Name-based

name_values = st.one_of(st.none(), st.text(max_size=40), st.binary(max_size=40))


@given(st.lists(name_values, max_size=30), st.integers(0, 2**128 - 1))
def test_name_based_columns_equal_the_scalar_functions(
    names: list[Union[str, bytes, None]], ns_int: int
) -> None:
    ns = uuid.UUID(int=ns_int)
    for column_fn, scalar in ((ua.uuid3, uuidx.uuid3), (ua.uuid5, uuidx.uuid5)):
        expected = [None if n is None else scalar(ns, n) for n in names]
        assert column_fn(ns, names).to_pylist() == expected
    for algorithm in ALGORITHMS:
        got = ua.uuid8_name(ns, names, algorithm).to_pylist()  # type: ignore[arg-type]
        expected = [
            None if n is None else uuidx.uuid8_name(ns, n, algorithm)  # type: ignore[arg-type]
            for n in names
        ]
        assert got == expected


def test_uuid5_column_rfc_vector_nulls_and_tuple_input() -> None:
    col = ua.uuid5(uuidx.NAMESPACE_DNS, ("www.example.com", None, b"www.example.com"))
    assert col.null_count == 1
    assert col.to_pylist() == [
        uuid.UUID("2ed6657d-e927-568b-95e1-2665a8aea6a2"),  # RFC 9562 Appendix A.4
        None,
        uuid.UUID("2ed6657d-e927-568b-95e1-2665a8aea6a2"),
    ]
    assert bytes(memoryview(col))[16:32] == bytes(16), "a null row is zero bytes"
    assert ua.uuid5(NS, []).to_pylist() == []
    assert ua.uuid8_name(NS, ["x"]).to_pylist() == [uuidx.uuid8_name(NS, "x")], "sha256 default"


def test_namespace_is_read_like_the_scalar_functions() -> None:
    class Sub(uuid.UUID):
        @property
        def bytes(self) -> bytes:
            return uuidx.NAMESPACE_DNS.bytes

    odd = Sub(int=5)
    assert ua.uuid5(odd, ["a"]).to_pylist() == [uuidx.uuid5(odd, "a")]
    with pytest.raises(uuidx.NamespaceTypeError, match="namespace must be a uuid.UUID, got str"):
        ua.uuid5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", ["a"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("names", "error", "message"),
    [
        ("abc", TypeError, "names must be an Arrow array or stream of string, .* got str: 'abc'"),
        (b"abc", TypeError, "names must be .* got bytes: b'abc'"),
        (42, TypeError, "names must be .* got int: 42"),
        ({"a"}, TypeError, "names must be .* got set"),
        (["a", 7], TypeError, r"names\[1\]: name must be a str or a bytes-like object, got int: 7"),
        (["a", "\ud800"], UnicodeEncodeError, "surrogates not allowed"),
    ],
)
def test_bad_names(names: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        ua.uuid5(NS, names)


def test_bad_algorithm() -> None:
    with pytest.raises(ValueError, match='unknown algorithm "md5"'):
        ua.uuid8_name(NS, ["a"], "md5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="algorithm must be a str, got int"):
        ua.uuid8_name(NS, ["a"], 5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# parse, to_str, array

text_rows = st.one_of(
    st.none(),
    st.integers(0, 2**128 - 1).map(lambda i: str(uuid.UUID(int=i))),
    st.integers(0, 2**128 - 1).map(lambda i: uuid.UUID(int=i).urn.upper()),
    st.integers(0, 2**128 - 1).map(lambda i: "{" + str(uuid.UUID(int=i)) + "}"),
    st.text(alphabet="0123456789abcdefABCDEF-{}:urnid", max_size=46),
    st.text(max_size=50),
)


def scalar_parse(text: str) -> Optional[uuid.UUID]:
    try:
        return uuidx.parse(text)
    except ValueError:
        return None


@given(st.lists(text_rows, max_size=30))
def test_parse_column_equals_the_scalar_parser(rows: list[Optional[str]]) -> None:
    expected = [None if r is None else scalar_parse(r) for r in rows]
    assert ua.parse(rows, errors="null").to_pylist() == expected
    bad = [i for i, (r, e) in enumerate(zip(rows, expected)) if r is not None and e is None]
    if not bad:
        assert ua.parse(rows).to_pylist() == expected
        return
    with pytest.raises(ValueError) as info:
        ua.parse(rows)
    text = rows[bad[0]]
    assert text is not None
    with pytest.raises(ValueError) as scalar_info:
        uuidx.parse(text)
    assert str(info.value) == f"row {bad[0]}: {scalar_info.value}"


def test_parse_errors_name_the_row_and_the_value_shortened() -> None:
    good = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    bad = good[:-1] + "g"
    with pytest.raises(
        ValueError,
        match=f"^row 2: invalid UUID string \"{bad}\": invalid character 'g' at position 35",
    ):
        ua.parse([good, None, bad])
    with pytest.raises(ValueError) as info:
        ua.parse([good, "x" * 10_000])
    assert (
        str(info.value).startswith('row 1: invalid UUID string "xxx') and len(str(info.value)) < 300
    )
    with pytest.raises(ValueError, match=r"row 0: invalid UUID string .*position 35"):
        ua.parse([good[:-1] + "\ud800"])  # a lone surrogate, reported, not a crash
    col = ua.parse([good, "nope", None, good.upper()], errors="null")
    assert col.to_pylist() == [uuid.UUID(good), None, None, uuid.UUID(good)]
    assert col.null_count == 2


def test_parse_bad_arguments() -> None:
    with pytest.raises(ValueError, match="invalid errors .ignore.: expected 'raise' or 'null'"):
        ua.parse(["x"], errors="ignore")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"strings\[1\] must be a str or None, got bytes"):
        ua.parse(["f81d4fae-7dec-11d0-a765-00a0c91e6bf6", b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="strings must be .* got str"):
        ua.parse("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")


uuid_rows = st.lists(st.one_of(st.none(), st.integers(0, 2**128 - 1)), max_size=30)


@given(uuid_rows)
def test_to_str_and_array_equal_the_scalar_functions(values: list[Optional[int]]) -> None:
    rows = uuids_of(values)
    text = ua.to_str(rows)
    assert text.type == "string" and len(text) == len(rows)
    assert text.to_pylist() == [None if u is None else str(u) for u in rows]
    col = ua.array(rows)
    assert col.to_pylist() == rows
    assert ua.array(rows, extension=False).extension is False
    assert ua.parse(text).to_pylist() == rows, "round trip through the text column"


@given(uuid_rows)
def test_timestamps_equal_the_scalar_function(values: list[Optional[int]]) -> None:
    rows = uuids_of(values) + [uuidx.uuid1(), uuidx.uuid6(), uuidx.uuid7(), uuidx.NIL, uuidx.MAX]

    def scalar(u: Optional[uuid.UUID]) -> Optional[int]:
        if u is None or u.version not in (1, 6, 7) or u.variant != uuid.RFC_4122:
            return None
        ns = uuidx.timestamp_ns(u)
        return ns if -(2**63) <= ns < 2**63 else None

    times = ua.timestamp_ns(rows, errors="null")
    assert times.type == "timestamp[ns, tz=UTC]"
    assert times.to_pylist() == [scalar(u) for u in rows]


def test_timestamps_outside_int64_nanoseconds() -> None:
    last = uuidx.layout.v7(9_223_372_036_854, 0, 0)  # 2262-04-11, the last millisecond that fits
    beyond = uuidx.layout.v7(9_223_372_036_855, 0, 0)
    gregorian_1582 = uuidx.layout.v1(0, 0, 0)
    times = ua.timestamp_ns([last, beyond, gregorian_1582, uuidx.uuid4()], errors="null")
    assert times.to_pylist() == [9_223_372_036_854_000_000, None, None, None]
    message = re.escape(f"row 1: timestamp 9223372036855000000 ns since 1970 (in UUID {beyond})")
    with pytest.raises(ValueError, match=f"^{message} is out of range .*1677-09-21 to 2262-04-11"):
        ua.timestamp_ns([last, beyond])
    with pytest.raises(ValueError, match=r"^row 0: timestamp -12219292800000000000 ns"):
        ua.timestamp_ns([gregorian_1582])
    with pytest.raises(ValueError, match="invalid errors .skip."):
        ua.timestamp_ns([last], errors="skip")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (42, "uuids must be a uuidx.arrow.UUIDArray, .* got int: 42"),
        (uuid.UUID(int=1), "uuids must be .* got UUID: UUID"),
        ("f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "uuids must be .* got str"),
        (b"0123456789abcdef", "uuids must be .* got bytes"),
        ([uuid.UUID(int=1), "x"], r"uuids\[1\] must be a uuid.UUID, got str: 'x'"),
        ([uuid.UUID(int=1), 5], r"uuids\[1\] must be a uuid.UUID, got int: 5"),
    ],
)
@pytest.mark.parametrize("fn", [ua.to_str, ua.timestamp_ns, ua.array])
def test_bad_uuid_columns(fn: Any, value: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        fn(value)


# --------------------------------------------------------------------------------------------
# The objects


def test_uuid_array_object() -> None:
    col = ua.array([uuidx.NIL, None, uuidx.MAX])
    assert repr(col) == "UUIDArray(len=3, null_count=1, extension=True)"
    assert col.to_pylist() == [uuidx.NIL, None, uuidx.MAX]
    assert all(type(u) is uuid.UUID for u in col.to_pylist() if u is not None)
    assert bytes(memoryview(col)) == bytes(16) * 2 + b"\xff" * 16
    text = ua.to_str(col)
    assert repr(text) == "ArrowArray(type='string', len=3, null_count=1)"
    assert text.null_count == 1 and len(text) == 3
    assert ua.array(col) is not col and ua.array(col).to_pylist() == col.to_pylist()


def test_buffer_protocol_is_read_only_and_outlives_the_column() -> None:
    col = ua.uuid4(4)
    expected = b"".join(u.bytes for u in col.to_pylist() if u is not None)
    view = memoryview(col)
    assert view.readonly and view.nbytes == 64 and view.format == "B" and view.ndim == 1
    with pytest.raises(TypeError, match="read-only"):
        view[0] = 1
    if not PYPY:  # PyPy's ctypes takes a read-only buffer for a writable one
        with pytest.raises((TypeError, BufferError)):
            (ctypes.c_char * 64).from_buffer(col)  # asks for a writable buffer
    del col
    gc.collect()
    assert bytes(view) == expected, "the view keeps the column's bytes alive"
    view.release()


def test_capsule_import_path_with_a_foreign_exporter() -> None:
    rows = [uuidx.uuid7(), None, uuidx.uuid4()]
    foreign = Exporter(ua.array(rows))
    assert ua.to_str(foreign).to_pylist() == [None if u is None else str(u) for u in rows]
    assert ua.array(foreign, extension=False).to_pylist() == rows
    names = Exporter(ua.to_str(ua.array(rows)))
    assert ua.parse(names).to_pylist() == rows
    assert ua.uuid5(NS, names).to_pylist() == [
        None if u is None else uuidx.uuid5(NS, str(u)) for u in rows
    ]
    with pytest.raises(
        TypeError,
        match='names must be .* got an Arrow column of extension "arrow.uuid" over FixedSizeBinary\\(16\\)',
    ):
        ua.uuid5(NS, Exporter(ua.uuid4(2)))
    with pytest.raises(TypeError, match=r"uuids must be .* got an Arrow column of Timestamp"):
        ua.to_str(Exporter(ua.timestamp_ns([uuidx.uuid7()])))
    with pytest.raises(TypeError, match="uuids must be .* got an Arrow column of Utf8"):
        ua.to_str(Exporter(ua.to_str([uuidx.uuid7()])))


def _runs_other_threads(call: Any) -> bool:
    """Whether another Python thread runs while ``call()`` does. A spinner thread counts and
    gives the GIL back after every step (``time.sleep(0)``); the switch interval is raised to
    thirty seconds, so the interpreter never takes the GIL from this thread by force (on a
    loaded machine, five calls that keep the GIL can outlast a shorter one, and a switch forced
    between two of them would count): the spinner gets it only when this thread
    releases it, which a C call that keeps the GIL never does (checked
    against ``sum(range(...))``). Up to five calls, so that a scheduler that does not run the
    spinner at once cannot fail a kernel that does release the GIL."""
    import sys
    import threading
    import time

    count = [0]
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            count[0] += 1
            time.sleep(0)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        while count[0] == 0:
            time.sleep(0.001)
        for _ in range(5):
            before = count[0]
            call()
            if count[0] != before:
                return True
        return False
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)


#: Why the GIL probe skips on PyPy.
PYPY_GIL = "PyPy: its GIL changes hands inside a pure-Python loop too, so the probe cannot tell"


@pytest.mark.skipif(PYPY, reason=PYPY_GIL)
def test_the_probe_tells_a_call_that_keeps_the_gil() -> None:
    assert not _runs_other_threads(lambda: sum(range(3_000_000)))
    assert _runs_other_threads(lambda: __import__("time").sleep(0.01))


@pytest.mark.skipif(PYPY, reason=PYPY_GIL)
def test_the_kernels_release_the_gil() -> None:
    """The column kernels run without the GIL (the module's contract: other threads go on while
    a million rows are made or converted)."""
    n = 1_000_000
    uuids = ua.uuid7(n)
    strings = ua.to_str(uuids)
    names = [f"name-{i}" for i in range(n)]
    calls = {
        "uuid4": lambda: ua.uuid4(4 * n),
        "uuid7": lambda: ua.uuid7(4 * n),
        "uuid5": lambda: ua.uuid5(NS, names),
        "parse": lambda: ua.parse(strings),
        "to_str": lambda: ua.to_str(uuids),
        "encode": lambda: ua.encode(uuids, "base58"),
        "mask_v7": lambda: ua.mask_v7(uuids, bytes(16)),
    }
    held = [name for name, call in calls.items() if not _runs_other_threads(call)]
    assert held == [], f"these kernels kept the GIL: {held}"
