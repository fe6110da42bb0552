"""Arrow view columns (``binary_view``, ``string_view``) read row for row, whatever the byte
order: uuidx reads each 16-byte view itself, in this machine's byte order, and copies the values
into a large-offsets array (``rust/uuidx-py/src/ffi/arrow_import_array.rs``, I8), because
arrow-rs reads views as little-endian ``u128`` values. These tests build views both ways a
producer does: in the C data interface's layout by hand (``arrow_cdata``: native-endian fields,
every length on both sides of the 12 bytes held inline, several variadic buffers, an offset into
the views, nulls) and with pyarrow's own builders, and compare every row with the scalar
function of the same value. ``make test-s390x`` runs them on a big-endian machine.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Optional

import pytest
from arrow_cdata import Exports, Producer, buffer_view, inline_view, offsets64
from hypothesis import given, settings
from hypothesis import strategies as st
from leakcheck import check, pymalloc_counts
from optional import need
from platform_facts import PYPY, PYPY_NO_REFCOUNTS, examples

import uuidx
import uuidx.arrow as ua

NS = uuidx.NAMESPACE_DNS

values = st.lists(st.one_of(st.none(), st.binary(min_size=0, max_size=40)), max_size=30)


def c_layout(p: Producer, rows: list[Optional[bytes]], skip: int, buffers: int) -> tuple[Any, int]:
    """An ``ArrowArray`` of ``rows`` as views, after ``skip`` rows of garbage that its offset
    passes over, the long values spread round-robin over ``buffers`` variadic buffers (each
    starting with a byte no view points at); its null count."""
    views = b"\xff" * 16 * skip  # never read: before the offset
    data = [bytearray(b"#") for _ in range(buffers)]
    validity = bytearray((skip + len(rows) + 7) // 8)
    for i, row in enumerate(rows):
        if row is not None:
            bit = skip + i
            validity[bit // 8] |= 1 << (bit % 8)
        value = row or b""
        if len(value) <= 12:
            views += inline_view(value)
        else:
            j = i % buffers
            views += buffer_view(len(value), value[:4], j, len(data[j]))
            data[j] += value
    sizes = offsets64(*(len(d) for d in data))
    array = p.array(
        len(rows),
        [bytes(validity), views, *(bytes(d) for d in data), sizes],
        null_count=sum(row is None for row in rows),
        offset=skip,
    )
    return array, sum(row is None for row in rows)


def expected(rows: list[Optional[bytes]]) -> list[Optional[uuid.UUID]]:
    return [None if row is None else uuidx.uuid5(NS, row) for row in rows]


@settings(max_examples=examples(200), deadline=None)
@given(rows=values, skip=st.integers(0, 3), buffers=st.integers(1, 3), stream=st.booleans())
def test_c_layout_views_read_row_for_row(
    rows: list[Optional[bytes]], skip: int, buffers: int, stream: bool
) -> None:
    p = Producer()
    array, _ = c_layout(p, rows, skip, buffers)
    column = Exports(p, p.schema(b"vz"), array, stream=stream)
    assert ua.uuid5(NS, column).to_pylist() == expected(rows)


@settings(max_examples=examples(100), deadline=None)
@given(rows=st.lists(st.one_of(st.none(), st.uuids()), max_size=30), skip=st.integers(0, 3))
def test_c_layout_string_views_parse(rows: list[Optional[uuid.UUID]], skip: int) -> None:
    """Text views of 36 bytes (held in a buffer) and of the 32-digit form."""
    p = Producer()
    texts = [
        None if u is None else (str(u) if i % 2 else u.hex).encode() for i, u in enumerate(rows)
    ]
    array, _ = c_layout(p, texts, skip, 2)
    assert ua.parse(Exports(p, p.schema(b"vu"), array)).to_pylist() == rows


def test_a_table_of_one_view_column() -> None:
    """A struct of one view field (a record batch) stands for its column."""
    p = Producer()
    rows = [b"short", None, b"a value longer than twelve bytes", b""]
    child, nulls = c_layout(p, rows, 1, 2)
    table = Exports(
        p,
        p.schema(b"+s", children=[p.schema(b"vz", name=b"name")]),
        p.array(len(rows), [None], children=[child]),
    )
    assert nulls == 1
    assert ua.uuid5(NS, table).to_pylist() == expected(rows)


pa = need("pyarrow")


@settings(max_examples=examples(100), deadline=None)
@given(rows=values, start=st.integers(0, 5))
def test_pyarrow_views_read_row_for_row(rows: list[Optional[bytes]], start: int) -> None:
    """pyarrow's own binary_view and string_view arrays, sliced."""
    start = min(start, len(rows))
    binary = pa.array(rows, type=pa.binary_view()).slice(start)
    assert ua.uuid5(NS, binary).to_pylist() == expected(rows[start:])
    texts = [None if r is None else r.hex() for r in rows]
    string = pa.array(texts, type=pa.string_view()).slice(start)
    want = [None if t is None else uuidx.uuid5(NS, t) for t in texts[start:]]
    assert ua.uuid5(NS, string).to_pylist() == want


def pyarrow_view(view: bytes, data: bytes) -> Any:
    """A binary_view array of one row, its view and one variadic buffer as given: pyarrow
    builds it unvalidated, as a producer may hand it over."""
    buffers = [None, pa.py_buffer(view), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.binary_view(), 1, buffers)


TEXT = b"6ba7b810-9dad-11d1-80b4-00c04fd430c8"
LEAK_CASES: dict[str, tuple[Callable[[], Any], Optional[type[Exception]]]] = {
    "inline and long values": (
        lambda: pa.array([b"a", None, TEXT, b"x" * 12, b""], type=pa.binary_view()).slice(1),
        None,
    ),
    "a buffer the array lacks": (
        lambda: pyarrow_view(buffer_view(36, TEXT, 1, 0), TEXT),
        ValueError,
    ),
    "past the end of its buffer": (
        lambda: pyarrow_view(buffer_view(36, TEXT, 0, 1), TEXT),
        ValueError,
    ),
    "a prefix not its value's": (
        lambda: pyarrow_view(buffer_view(36, b"zzzz", 0, 0), TEXT),
        ValueError,
    ),
    "bytes after an inline value": (
        lambda: pyarrow_view(inline_view(b"abc")[:8] + b"x" + bytes(7), b""),
        ValueError,
    ),
}


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
@pytest.mark.skipif(not pymalloc_counts(), reason="sys.getallocatedblocks() counts nothing")
@pytest.mark.parametrize("case", list(LEAK_CASES))
def test_view_imports_do_not_leak(case: str) -> None:
    """Each import of a view column, read or refused, alone in a loop: no memory block and no
    reference to the column is left behind."""
    make, raises = LEAK_CASES[case]
    column = make()
    check(lambda: ua.uuid5(NS, column), raises, (column,))
