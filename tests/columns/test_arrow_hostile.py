"""Arrow producers that get the C data interface wrong: every structure below is built for real
with ctypes (``arrow_cdata.py``) and handed over in PyCapsules, through ``__arrow_c_array__``
and through ``__arrow_c_stream__``. Each must give a ``ValueError`` that names the member at
fault (never a crash, never ``pyo3_runtime.PanicException``), and whatever uuidx took from the
producer must be released exactly once.

Lies that the interface cannot reveal (a buffer shorter than its declared length, offsets past
the end of the data) stay the producer's responsibility and are not tried here.
"""

from __future__ import annotations

import ctypes
import gc
import re
import sys
import uuid
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from arrow_cdata import (
    GET_NEXT,
    ArrowArray,
    ArrowSchema,
    Exports,
    Producer,
    buffer_view,
    inline_view,
    metadata,
    offsets32,
    offsets64,
)

import uuidx
import uuidx.arrow as ua

U = [uuid.UUID(int=(i + 1) * 0x0123456789ABCDEF0123456789ABCDEF % (1 << 128)) for i in range(3)]
FSB = b"".join(u.bytes for u in U)
TEXT = [str(u).encode() for u in U]
#: A 32-bit interpreter (make test-i686, test-armv7l): a count of the C structures beyond its
#: address space is refused as such when it is read, before any size is computed from it.
ADDRESSES_32 = sys.maxsize < 2**32
EXTENSION = metadata([(b"ARROW:extension:name", b"arrow.uuid"), (b"ARROW:extension:metadata", b"")])


def text_array(p: Producer, **kw: Any) -> ArrowArray:
    return p.array(2, [None, offsets32(0, 36, 72), TEXT[0] + TEXT[1]], **kw)


@dataclass
class Case:
    """A producer's structures (``build`` returns the schema and the array), the uuidx call
    that reads them, and the message expected (a regular expression)."""

    build: Callable[[Producer], tuple[ArrowSchema, ArrowArray]]
    call: Callable[[Any], Any]
    message: str
    # Whether the schema passes, so that the array is taken (and must be released).
    array_taken: bool = True


def uuids(obj: Any) -> Any:
    return ua.array(obj)


def parse(obj: Any) -> Any:
    return ua.parse(obj)


def names(obj: Any) -> Any:
    return ua.uuid5(uuidx.NAMESPACE_DNS, obj)


def self_child(p: Producer) -> ArrowSchema:
    """A struct schema whose only child is itself (a cycle)."""
    s = p.schema(b"+s", n_children=1)
    table = (ctypes.POINTER(ArrowSchema) * 1)(ctypes.pointer(s))
    p.keep.append(table)
    s.children = ctypes.cast(table, ctypes.POINTER(ctypes.POINTER(ArrowSchema)))
    return s


def deep_schema(p: Producer, depth: int) -> ArrowSchema:
    s = p.schema(b"w:16")
    for _ in range(depth):
        s = p.schema(b"+s", children=[s])
    return s


CASES: dict[str, Case] = {
    # The schema (rust/uuidx-py/src/ffi/arrow_import_schema.rs)
    "metadata declaring 2**31-1 entries": Case(
        lambda p: (
            p.schema(b"w:16", metadata=metadata([(b"a", b"b")], count=2**31 - 1)),
            p.array(3, [None, FSB]),
        ),
        uuids,
        r"schema\.metadata declares 2147483647 entries; uuidx reads at most 65536",
        array_taken=False,
    ),
    "metadata whose entries run out": Case(
        lambda p: (
            p.schema(
                b"w:16", metadata=metadata([(b"a", b"b")], count=60_000) + b"\xff\xff\xff\xff"
            ),
            p.array(3, [None, FSB]),
        ),
        uuids,
        r"schema\.metadata: the length of the key of entry 1 is negative \(-1\)",
        array_taken=False,
    ),
    "metadata with a negative count": Case(
        lambda p: (p.schema(b"w:16", metadata=metadata([], count=-3)), p.array(3, [None, FSB])),
        uuids,
        r"schema\.metadata: the number of entries is negative \(-3\)",
        array_taken=False,
    ),
    "metadata that is not UTF-8": Case(
        lambda p: (
            p.schema(b"w:16", metadata=metadata([(b"ARROW:extension:name", b"arrow.\xffuuid")])),
            p.array(3, [None, FSB]),
        ),
        uuids,
        r'schema\.metadata: the value of entry 0 is not UTF-8: b"arrow.\\xffuuid"',
        array_taken=False,
    ),
    "a NULL format": Case(
        lambda p: (p.schema(None), p.array(3, [None, FSB])),
        uuids,
        r"schema\.format is NULL",
        array_taken=False,
    ),
    "a format that is not UTF-8": Case(
        lambda p: (p.schema(b"w:16\xff"), p.array(3, [None, FSB])),
        uuids,
        r'schema\.format is not UTF-8: b"w:16\\xff"',
        array_taken=False,
    ),
    "a name that is not UTF-8": Case(
        lambda p: (p.schema(b"w:16", name=b"id\xc3"), p.array(3, [None, FSB])),
        uuids,
        r'schema\.name is not UTF-8: b"id\\xc3"',
        array_taken=False,
    ),
    "a child's name that is not UTF-8": Case(
        lambda p: (
            p.schema(b"+s", children=[p.schema(b"w:16", name=b"\x80")]),
            p.array(3, [None], children=[p.array(3, [None, FSB])]),
        ),
        uuids,
        r'schema\.children\[0\]\.name is not UTF-8: b"\\x80"',
        array_taken=False,
    ),
    "NULL children": Case(
        lambda p: (p.schema(b"+s", n_children=1), p.array(3, [None])),
        uuids,
        r"schema\.children is NULL, but n_children is 1",
        array_taken=False,
    ),
    "a NULL child": Case(
        lambda p: (p.schema(b"+s", children=[None]), p.array(3, [None])),
        uuids,
        r"schema\.children\[0\] is NULL",
        array_taken=False,
    ),
    "a negative n_children": Case(
        lambda p: (p.schema(b"+s", n_children=-1), p.array(3, [None])),
        uuids,
        r"schema\.n_children is negative \(-1\)",
        array_taken=False,
    ),
    "a list without its child": Case(
        lambda p: (p.schema(b"+l"), p.array(3, [None, offsets32(0, 1, 2, 3)])),
        uuids,
        r'schema\.n_children is 0, but a schema of format "\+l" has 1',
        array_taken=False,
    ),
    "a primitive with children": Case(
        lambda p: (p.schema(b"w:16", children=[p.schema(b"u")]), p.array(3, [None, FSB])),
        uuids,
        r'schema\.n_children is 1, but a schema of format "w:16" has 0',
        array_taken=False,
    ),
    "a released child": Case(
        lambda p: (
            p.schema(b"+s", children=[p.schema(b"w:16", released=True)]),
            p.array(3, [None], children=[p.array(3, [None, FSB])]),
        ),
        uuids,
        r"schema\.children\[0\] is released",
        array_taken=False,
    ),
    "a released dictionary": Case(
        lambda p: (
            p.schema(b"i", dictionary=p.schema(b"u", released=True)),
            p.array(3, [None, FSB]),
        ),
        parse,
        r"schema\.dictionary is released",
        array_taken=False,
    ),
    "a cycle": Case(
        lambda p: (self_child(p), p.array(3, [None])),
        uuids,
        r"schema(\.children\[0\])+ is nested more than 64 levels deep \(a cycle\?\)",
        array_taken=False,
    ),
    "a schema nested too deep": Case(
        lambda p: (deep_schema(p, 70), p.array(3, [None])),
        uuids,
        r"is nested more than 64 levels deep",
        array_taken=False,
    ),
    # The array (rust/uuidx-py/src/ffi/arrow_import_array.rs)
    "NULL buffers": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, None, n_buffers=2)),
        uuids,
        r"array\.buffers is NULL, but n_buffers is 2",
    ),
    "a string_view with n_buffers=0": Case(
        lambda p: (p.schema(b"vu"), p.array(1, None, n_buffers=0)),
        parse,
        r"array\.n_buffers is 0, but an array of type Utf8View has at least 3",
    ),
    "a string_view whose variadic sizes are NULL": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(1, [None, buffer_view(36, TEXT[0], 0, 0), TEXT[0], None]),
        ),
        parse,
        r"array\.buffers\[3\] \(the sizes of the variadic buffers\) is NULL, but n_buffers "
        r"declares 1 variadic buffers",
    ),
    "a negative variadic size": Case(
        lambda p: (
            p.schema(b"vz"),
            p.array(1, [None, buffer_view(36, TEXT[0], 0, 0), TEXT[0], offsets64(-36)]),
        ),
        names,
        r"array\.buffers\[3\]: the size of variadic buffer 2 is negative \(-36\)",
    ),
    "a string_view whose n_buffers no memory holds": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(
                1,
                [None, buffer_view(36, TEXT[0], 0, 0), TEXT[0], offsets64(36)],
                n_buffers=2**61 + 1,
            ),
        ),
        parse,
        r"array\.n_buffers is 2305843009213693953, more than this machine addresses"
        if ADDRESSES_32
        else r"array\.n_buffers is 2305843009213693953, more buffer pointers than any memory holds",
    ),
    "a NULL variadic buffer": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(1, [None, buffer_view(36, TEXT[0], 0, 0), None, offsets64(36)]),
        ),
        parse,
        r"array\.buffers\[2\] \(variadic data\) is NULL, but the array has 1 rows",
    ),
    # Each view is read and checked by uuidx, in this machine's byte order (arrow-rs's reading
    # assumes a little-endian one): every way one can be wrong.
    "a view into a variadic buffer the array lacks": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(1, [None, buffer_view(36, TEXT[0], 1, 0), TEXT[0], offsets64(36)]),
        ),
        parse,
        r"array\.buffers\[1\] \(views\): row 0 points into variadic buffer 1, but the array "
        r"has 1 variadic buffers",
    ),
    "a view past the end of its buffer": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(
                2,
                [
                    None,
                    buffer_view(36, TEXT[0], 0, 0) + buffer_view(36, TEXT[0], 0, 1),
                    TEXT[0],
                    offsets64(36),
                ],
            ),
        ),
        parse,
        r"array\.buffers\[1\] \(views\): row 1 is bytes 1\.\.37 of variadic buffer 0, which "
        r"holds 36",
    ),
    "a view whose offset wraps around": Case(
        lambda p: (
            p.schema(b"vz"),
            p.array(
                1,
                [None, buffer_view(100, TEXT[0], 0, 2**31 - 1), TEXT[0], offsets64(36)],
            ),
        ),
        names,
        r"row 0 is bytes 2147483647\.\.2147483747 of variadic buffer 0, which holds 36",
    ),
    "a view of a negative length": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(1, [None, buffer_view(-1, TEXT[0], 0, 0), TEXT[0], offsets64(36)]),
        ),
        parse,
        r"row 0 is bytes 0\.\.4294967295 of variadic buffer 0, which holds 36",
    ),
    "a view whose prefix is not its value's": Case(
        lambda p: (
            p.schema(b"vu"),
            p.array(1, [None, buffer_view(36, b"zzzz", 0, 0), TEXT[0], offsets64(36)]),
        ),
        parse,
        r"array\.buffers\[1\] \(views\): the prefix of row 0 is not the first 4 bytes of its "
        r"value",
    ),
    "an inline view with bytes after its value": Case(
        lambda p: (
            p.schema(b"vz"),
            p.array(
                2,
                [
                    None,
                    inline_view(b"abc") + inline_view(b"abc")[:8] + b"x" + bytes(7),
                    offsets64(),
                ],
            ),
        ),
        names,
        r"array\.buffers\[1\] \(views\): row 1 holds its 3 bytes inline, but the bytes after "
        r"them are not zero",
    ),
    "a view of a struct's column past its bounds": Case(
        lambda p: (
            p.schema(b"+s", children=[p.schema(b"vu")]),
            p.array(
                1,
                [None],
                children=[
                    p.array(
                        1,
                        [None, buffer_view(36, TEXT[0], 0, 9), TEXT[0], offsets64(36)],
                    )
                ],
            ),
        ),
        parse,
        r"array\.children\[0\]\.buffers\[1\] \(views\): row 0 is bytes 9\.\.45",
    ),
    "a struct whose n_children disagrees": Case(
        lambda p: (
            p.schema(b"+s", children=[p.schema(b"u")]),
            p.array(2, [None], children=[text_array(p), text_array(p)]),
        ),
        parse,
        r'array\.n_children is 2, but an array of type Struct\("": Utf8\) has 1',
    ),
    "a struct with NULL children": Case(
        lambda p: (p.schema(b"+s", children=[p.schema(b"u")]), p.array(2, [None], n_children=1)),
        parse,
        r"array\.children is NULL, but n_children is 1",
    ),
    "a struct with a NULL child": Case(
        lambda p: (p.schema(b"+s", children=[p.schema(b"u")]), p.array(2, [None], children=[None])),
        parse,
        r"array\.children\[0\] is NULL",
    ),
    "a struct with a released child": Case(
        lambda p: (
            p.schema(b"+s", children=[p.schema(b"u")]),
            p.array(2, [None], children=[text_array(p, released=True)]),
        ),
        parse,
        r"array\.children\[0\] is released",
    ),
    "a struct child with NULL buffers": Case(
        lambda p: (
            p.schema(b"+s", children=[p.schema(b"w:16", metadata=EXTENSION)]),
            p.array(3, [None], children=[p.array(3, None, n_buffers=2)]),
        ),
        uuids,
        r"array\.children\[0\]\.buffers is NULL, but n_buffers is 2",
    ),
    "a negative length": Case(
        lambda p: (p.schema(b"w:16"), p.array(-3, [None, FSB])),
        uuids,
        r"array\.length is negative \(-3\)",
    ),
    "a negative offset": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, [None, FSB], offset=-1)),
        uuids,
        r"array\.offset is negative \(-1\)",
    ),
    "a null_count below -1": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, [None, FSB], null_count=-2)),
        uuids,
        r"array\.null_count is -2, for an array of 3 rows",
    ),
    "a null_count above the length": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, [b"\0", FSB], null_count=4)),
        uuids,
        r"array\.null_count is 4, for an array of 3 rows",
    ),
    "nulls without a validity buffer": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, [None, FSB], null_count=1)),
        uuids,
        r"array\.buffers\[0\] \(validity\) is NULL, but null_count is 1",
    ),
    "a fixed-size binary with three buffers": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, [None, FSB, FSB])),
        uuids,
        r"array\.n_buffers is 3, but an array of type FixedSizeBinary\(16\) has 2",
    ),
    "NULL values": Case(
        lambda p: (p.schema(b"w:16"), p.array(3, [None, None])),
        uuids,
        r"array\.buffers\[1\] \(values\) is NULL, but the array has 3 rows",
    ),
    "more rows than any memory holds": Case(
        lambda p: (p.schema(b"w:16"), p.array(2**62, [None, FSB])),
        uuids,
        r"array\.length is 4611686018427387904, more than this machine addresses"
        if ADDRESSES_32
        else r"array: 4611686018427387904 rows of 16 bytes of values are more than any memory holds",
    ),
    "NULL offsets": Case(
        lambda p: (p.schema(b"u"), p.array(2, [None, None, TEXT[0] + TEXT[1]])),
        parse,
        r"array\.buffers\[1\] \(offsets\) is NULL, but the array has 2 rows",
    ),
    "a negative last offset": Case(
        lambda p: (p.schema(b"U"), p.array(2, [None, offsets64(0, 36, -1), TEXT[0] + TEXT[1]])),
        parse,
        r"array\.buffers\[1\] \(offsets\): the last offset is negative \(-1\)",
    ),
    "NULL string data": Case(
        lambda p: (p.schema(b"z"), p.array(2, [None, offsets32(0, 36, 72), None])),
        names,
        r"array\.buffers\[2\] \(values\) is NULL, but the array has 2 rows",
    ),
    "a dictionary on a plain type": Case(
        lambda p: (p.schema(b"u"), text_array(p, dictionary=text_array(p))),
        parse,
        r"array\.dictionary is set, but the type Utf8 has no dictionary",
    ),
    "a released array": Case(
        lambda p: (p.schema(b"u"), text_array(p, released=True)),
        parse,
        r"(already released or imported|array is released)",
        array_taken=False,
    ),
}


def run(case: Case, via: str) -> tuple[Producer, BaseException]:
    p = Producer()
    schema, array = case.build(p)
    obj = Exports(p, schema, array, stream=(via == "stream"))
    with pytest.raises(BaseException) as info:
        case.call(obj)
    return p, info.value


@pytest.mark.parametrize("via", ["array", "stream"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_malformed_structure_is_a_value_error(name: str, via: str) -> None:
    case = CASES[name]
    if via == "stream" and name == "a released array":
        pytest.skip("a stream hands out a released array to say it has ended")
    p, error = run(case, via)
    assert type(error) is ValueError, repr(error)
    assert re.search(case.message, str(error)), str(error)
    assert "invalid Arrow data" in str(error) or "already released" in str(error)
    if via == "stream":
        assert p.released["stream"] == 1
        assert p.released["schema"] == 1, "the stream's schema is ours to release"
    else:
        assert p.released["schema"] == 0, "a schema capsule is borrowed"
    assert p.released["array"] == (1 if case.array_taken else 0), p.released


def test_the_baselines_of_the_cases_import() -> None:
    """The well-formed structures that the cases above break, read back right."""
    p = Producer()
    for via in ("array", "stream"):
        fsb = Exports(
            p,
            p.schema(b"w:16", metadata=EXTENSION),
            p.array(3, [None, FSB]),
            stream=via == "stream",
        )
        assert ua.array(fsb).to_pylist() == U
        texts = Exports(p, p.schema(b"u"), text_array(p), stream=via == "stream")
        assert ua.parse(texts).to_pylist() == U[:2]
        large = Exports(
            p,
            p.schema(b"U"),
            p.array(2, [None, offsets64(0, 36, 72), TEXT[0] + TEXT[1]]),
            stream=via == "stream",
        )
        assert ua.parse(large).to_pylist() == U[:2]
        view = p.array(
            3,
            [
                b"\x05",
                inline_view(b"a") + buffer_view(36, TEXT[0], 0, 0) + buffer_view(36, TEXT[1], 1, 0),
                TEXT[0],
                TEXT[1],
                offsets64(36, 36),
            ],
            null_count=1,
        )
        got = ua.uuid5(
            uuidx.NAMESPACE_DNS, Exports(p, p.schema(b"vz"), view, stream=via == "stream")
        )
        assert got.to_pylist() == [
            uuidx.uuid5(uuidx.NAMESPACE_DNS, b"a"),
            None,
            uuidx.uuid5(uuidx.NAMESPACE_DNS, TEXT[1]),
        ]
        table = Exports(
            p,
            p.schema(b"+s", children=[p.schema(b"w:16", name=b"id", metadata=EXTENSION)]),
            p.array(3, [None], children=[p.array(3, [None, FSB])]),
            stream=via == "stream",
        )
        assert ua.array(table).to_pylist() == U
        empty = Exports(p, p.schema(b"vu"), p.array(0, [None, None, None]), stream=via == "stream")
        assert ua.parse(empty).to_pylist() == []
    gc.collect()
    assert p.released["array"] == 12


@pytest.mark.parametrize("misalign", [1, 2, 4])
def test_misaligned_buffers_are_copied_not_refused(misalign: int) -> None:
    """The interface recommends aligned buffers without requiring them."""
    p = Producer()
    large = p.array(2, [None, offsets64(0, 36, 72), TEXT[0] + TEXT[1]], misalign=misalign)
    assert ua.parse(Exports(p, p.schema(b"U"), large)).to_pylist() == U[:2]
    small = p.array(2, [None, offsets32(0, 36, 72), TEXT[0] + TEXT[1]], misalign=misalign)
    assert ua.parse(Exports(p, p.schema(b"u"), small)).to_pylist() == U[:2]
    view = p.array(
        1, [None, buffer_view(36, TEXT[2], 0, 0), TEXT[2], offsets64(36)], misalign=misalign
    )
    assert ua.parse(Exports(p, p.schema(b"vu"), view)).to_pylist() == U[2:]
    fsb = p.array(3, [None, FSB], misalign=misalign)
    assert ua.array(Exports(p, p.schema(b"w:16"), fsb)).to_pylist() == U
    gc.collect()
    assert p.released["array"] == 4


def test_a_requested_schema_is_checked_like_any_other() -> None:
    p = Producer()
    col = ua.uuid7(2)
    with pytest.raises(
        ValueError, match=r"requested_schema: invalid Arrow data: schema\.format is NULL"
    ):
        col.__arrow_c_array__(p.capsule(p.schema(None)))
    bad_name = p.capsule(p.schema(b"w:16", name=b"\xff"))
    with pytest.raises(ValueError, match=r"schema\.name is not UTF-8"):
        col.__arrow_c_array__(bad_name)


def test_a_stream_whose_schema_is_released_or_callbacks_missing() -> None:
    p = Producer()
    released = Exports(p, p.schema(b"w:16", released=True), p.array(3, [None, FSB]), stream=True)
    with pytest.raises(ValueError, match=r"the stream's get_schema gave a released schema"):
        ua.array(released)
    stream = p.stream(p.schema(b"w:16"), [p.array(3, [None, FSB])])
    stream.get_next = GET_NEXT()

    class NoNext:
        def __arrow_c_stream__(self, requested_schema: object = None) -> Any:
            return p.capsule(stream)

    with pytest.raises(ValueError, match=r"the stream has no get_schema or get_next callback"):
        ua.array(NoNext())
    assert p.released["stream"] == 2, "each stream was released once"


@pytest.mark.parametrize("via", ["array", "stream"])
def test_a_table_whose_offset_runs_past_its_column_is_a_value_error(via: str) -> None:
    """A one-column table (a struct) whose ``offset + length`` runs past its child's rows:
    arrow-rs's own validation compares the child's length with the struct's length alone, so the
    import checks it; a ``PanicException`` (a ``BaseException``) would escape ``except
    Exception``."""
    p = Producer()
    child = p.array(4, [None, bytes(range(16)) * 4])  # 4 rows of fixed_size_binary(16)
    table = p.array(4, [None], children=[child], offset=2)  # rows 2..6 of a 4-row child
    schema = p.schema(b"+s", children=[p.schema(b"w:16", name=b"id")])
    with pytest.raises(BaseException) as info:
        ua.to_str(Exports(p, schema, table, stream=via == "stream"))
    assert type(info.value) is ValueError, repr(info.value)
    assert re.search(
        r"array\.children\[0\]\.length is 4, but the struct's offset \+ length is 6",
        str(info.value),
    ), str(info.value)
    gc.collect()
    assert p.released["array"] == 1
