"""The invariants of the Arrow C data interface code, ``rust/uuidx-py/src/ffi/arrow_capsule.rs``
(invariants 1-7, the sections A1-A6 below, with invariant 7 among the streams of A5) and the
column memory of ``uuidx_core::memory::Pages`` (A7), each exercised with pyarrow as the other
side: capsule names, released and twice-imported capsules, streams that fail, streams whose
producer needs the GIL, data that a producer got wrong, slices with offsets, empty arrays,
requested schemas, and buffers that outlive their column.

These run under ``make test``'s debug build too, where a use-after-free or a double release
would rather abort than pass.
"""

from __future__ import annotations

import gc
import struct
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Iterator
from typing import Any

import platform_facts
import pytest
from arrow_cdata import Releases
from optional import need, uuid_column

import uuidx
import uuidx.arrow as ua

pa = need("pyarrow")

ROWS = [uuidx.uuid7(), None, uuidx.uuid4(), uuidx.NIL, None, uuidx.MAX, uuidx.uuid6()]


class Returns:
    """An object whose ``__arrow_c_array__`` returns ``pair`` and whose
    ``__arrow_c_stream__`` returns ``stream`` (each only if given)."""

    def __init__(self, pair: Any = None, stream: Any = None) -> None:
        if pair is not None:
            self.__arrow_c_array__ = lambda requested_schema=None: pair
        if stream is not None:
            self.__arrow_c_stream__ = lambda requested_schema=None: stream


# A1: capsule names


def test_capsules_of_the_wrong_name_or_kind_are_refused() -> None:
    schema, array = ua.array(ROWS).__arrow_c_array__()
    swapped = Returns(pair=(array, schema))
    with pytest.raises(
        TypeError,
        match='must be a PyCapsule named "arrow_schema", got <capsule object "arrow_array"',
    ):
        ua.to_str(swapped)
    with pytest.raises(
        TypeError, match=r"__arrow_c_array__\(\) of Returns must return a \(schema, array\) pair"
    ):
        ua.to_str(Returns(pair=schema))
    with pytest.raises(TypeError, match='must be a PyCapsule named "arrow_schema", got 1'):
        ua.to_str(Returns(pair=(1, 2)))
    with pytest.raises(
        TypeError,
        match='must be a PyCapsule named "arrow_array", got <capsule object "arrow_schema"',
    ):
        ua.to_str(Returns(pair=(schema, schema)))
    with pytest.raises(
        TypeError,
        match='must be a PyCapsule named "arrow_array_stream", got <capsule object "arrow_array"',
    ):
        ua.to_str(Returns(stream=array))
    # Nothing was moved out: the right pair still imports.
    assert ua.to_str(Returns(pair=(schema, array))).to_pylist() == [
        None if u is None else str(u) for u in ROWS
    ]


# A2, A3: released capsules, capsules imported twice


def test_a_capsule_imports_once_whoever_imports_it() -> None:
    col = ua.array(ROWS)
    schema, array = col.__arrow_c_array__()
    twice = Returns(pair=(schema, array))
    assert ua.array(twice).to_pylist() == ROWS
    with pytest.raises(
        ValueError, match="the Arrow array in the capsule was already released or imported"
    ):
        ua.array(twice)
    # pyarrow as the consumer: it moves the schema and the array out; a second import fails
    # there, and uuidx sees the released schema.
    schema, array = col.__arrow_c_array__()
    assert pa.Array._import_from_c_capsule(schema, array).to_pylist() == ROWS
    with pytest.raises(pa.ArrowInvalid):
        pa.Array._import_from_c_capsule(schema, array)
    with pytest.raises(ValueError, match="the Arrow schema in the capsule was already released"):
        ua.array(Returns(pair=(schema, array)))
    del schema, array
    gc.collect()
    assert col.to_pylist() == ROWS, "the exported data is still the column's"


def test_a_stream_capsule_imports_once() -> None:
    chunked = pa.chunked_array([uuid_column(pa, ROWS[:3]), uuid_column(pa, ROWS[3:])])
    stream = chunked.__arrow_c_stream__()
    assert ua.array(Returns(stream=stream)).to_pylist() == ROWS
    with pytest.raises(ValueError, match="the Arrow stream in the capsule was already released"):
        ua.array(Returns(stream=stream))


def test_exported_capsules_dropped_unimported_release_their_data() -> None:
    releases = Releases()
    for column in (ua.uuid4(1000), ua.array(ROWS), ua.to_str(ua.array(ROWS))):
        for _ in range(20):
            schema, array = column.__arrow_c_array__()
            releases.watch(schema)
            releases.watch(array)
            releases.watch(column.__arrow_c_schema__())
            del schema, array  # dropped unimported: each capsule's destructor releases
    gc.collect()
    assert releases.watched == 3 * 20 * 3
    assert releases.released == releases.watched


# A4: the producer's data is validated before a row is read


def test_bad_offsets_from_a_producer_are_an_error_not_a_read() -> None:
    offsets = pa.py_buffer(struct.pack("<3i", 0, 4, 2))  # not monotonic
    bad = pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(b"abcd")])
    with pytest.raises(ValueError, match="invalid Arrow data: .*Offset invariant failure"):
        ua.parse(bad)
    with pytest.raises(ValueError, match="invalid Arrow data: .*Offset invariant failure"):
        ua.uuid5(uuidx.NAMESPACE_DNS, bad)
    bad_binary = pa.Array.from_buffers(pa.binary(), 2, [None, offsets, pa.py_buffer(b"abcd")])
    with pytest.raises(ValueError, match="invalid Arrow data"):
        ua.to_str(bad_binary)


# A5: streams


def test_a_stream_that_fails_reports_the_producers_error() -> None:
    def batches() -> Iterator[Any]:
        yield pa.record_batch([pa.array(["f81d4fae-7dec-11d0-a765-00a0c91e6bf6"])], names=["t"])
        raise RuntimeError("the producer broke")

    reader = pa.RecordBatchReader.from_batches(pa.schema([("t", pa.string())]), batches())
    with pytest.raises(
        ValueError, match=r"the Arrow stream failed \(error code \d+\): .*the producer broke"
    ):
        ua.parse(reader)


def test_streams_of_chunks_with_offsets_and_nulls() -> None:
    texts = [None if u is None else str(u) for u in ROWS]
    chunks = [pa.array(texts, type).slice(1, 5) for type in (pa.string(), pa.string())]
    for type_ in (pa.string(), pa.large_string(), pa.string_view()):
        chunked = pa.chunked_array([c.cast(type_) for c in chunks] + [pa.array([], type_)])
        assert ua.parse(chunked).to_pylist() == ROWS[1:6] * 2
    empty = pa.chunked_array([], pa.uuid())
    assert ua.to_str(empty).to_pylist() == []
    one_column = pa.table({"id": uuid_column(pa, ROWS)})
    assert ua.array(one_column).to_pylist() == ROWS, "a table of one column is that column"
    assert ua.to_str(one_column.to_batches()[0]).to_pylist() == texts
    with pytest.raises(TypeError, match=r"got an Arrow column of Struct"):
        ua.to_str(pa.table({"a": [1], "b": [2]}))


# Slices, empty arrays, requested schemas


@pytest.mark.parametrize("start", [0, 1, 3, 7])
def test_sliced_arrays_keep_their_offsets(start: int) -> None:
    arr = uuid_column(pa, ROWS).slice(start)
    expected = ROWS[start:]
    assert ua.array(arr).to_pylist() == expected
    assert ua.to_str(arr).to_pylist() == [None if u is None else str(u) for u in expected]
    plain = pa.array([None if u is None else u.bytes for u in ROWS], pa.binary(16)).slice(start)
    assert ua.array(plain).to_pylist() == expected
    col = ua.array(ROWS)
    assert pa.array(col).slice(start).to_pylist() == expected


def test_empty_arrays_both_ways() -> None:
    empty = ua.uuid7(0)
    assert pa.array(empty).type == pa.uuid() and len(pa.array(empty)) == 0
    assert ua.array(pa.array([], pa.uuid())).to_pylist() == []
    assert ua.to_str(pa.array([], pa.binary(16))).to_pylist() == []
    assert ua.parse(pa.array([], pa.string())).to_pylist() == []
    assert ua.uuid5(uuidx.NAMESPACE_DNS, pa.array([], pa.large_binary())).to_pylist() == []


def test_requested_schema_chooses_extension_or_plain() -> None:
    col = ua.uuid7(3)
    schema, array = col.__arrow_c_array__(pa.binary(16).__arrow_c_schema__())
    assert pa.Array._import_from_c_capsule(schema, array).type == pa.binary(16)
    plain = ua.uuid7(3, extension=False)
    schema, array = plain.__arrow_c_array__(pa.uuid().__arrow_c_schema__())
    assert pa.Array._import_from_c_capsule(schema, array).type == pa.uuid()
    schema, array = plain.__arrow_c_array__(pa.int64().__arrow_c_schema__())
    assert pa.Array._import_from_c_capsule(schema, array).type == pa.binary(16), "ignored"
    with pytest.raises(
        TypeError, match='requested_schema must be a PyCapsule named "arrow_schema"'
    ):
        col.__arrow_c_array__(5)
    assert pa.DataType._import_from_c_capsule(col.__arrow_c_schema__()) == pa.uuid()
    assert pa.DataType._import_from_c_capsule(plain.__arrow_c_schema__()) == pa.binary(16)


# A producer's callbacks may wait on threads that need the GIL: uuidx calls them detached.
# Each runs in a subprocess with a timeout, so that a deadlock fails instead of hanging the
# suite.
GIL_PRODUCERS = {
    # pyarrow's streaming CSV reader over a Python file object: its reading threads call the
    # file's readinto, which takes the GIL, while get_next waits for them. 100 000 rows are
    # more than its read-ahead holds.
    "csv reader over a Python file": """
        import io, pyarrow.csv
        class Slow(io.RawIOBase):
            def __init__(self, b): self.b = io.BytesIO(b)
            def readable(self): return True
            def readinto(self, m): return self.b.readinto(m)
        rows = [str(uuid.UUID(int=i * 0x0123456789ABCDEF)) for i in range(100_000)]
        data = ("id\\n" + "\\n".join(rows) + "\\n").encode()
        options = pyarrow.csv.ReadOptions(block_size=1 << 16, use_threads=True)
        column = uuidx.arrow.parse(pyarrow.csv.open_csv(Slow(data), read_options=options))
        assert [str(u) for u in column.to_pylist()] == rows
    """,
    # A scanner over a Python generator: get_next waits for a thread of pyarrow's that runs
    # the generator, which takes the GIL.
    "scanner over a Python generator": """
        import pyarrow as pa, pyarrow.dataset as ds
        schema = pa.schema([("id", pa.string())])
        rows = [str(uuid.UUID(int=i)) for i in range(3)]
        batches = (pa.record_batch([pa.array([row])], schema=schema) for row in rows)
        reader = ds.Scanner.from_batches(batches, schema=schema, use_threads=True).to_reader()
        assert [str(u) for u in uuidx.arrow.parse(reader).to_pylist()] == rows
    """,
}


@pytest.mark.parametrize("producer", list(GIL_PRODUCERS))
def test_a_stream_whose_producer_needs_the_gil_is_read_to_its_end(producer: str) -> None:
    if "pyarrow.dataset" in GIL_PRODUCERS[producer] and not platform_facts.SSL:
        pytest.skip(platform_facts.NO_SSL)
    script = "import uuid, uuidx.arrow\n" + textwrap.dedent(GIL_PRODUCERS[producer])
    try:
        proc = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{producer}: no result in 60 s (a deadlock on the GIL?)")
    assert proc.returncode == 0, proc.stderr


# A6: the buffer protocol


def test_numpy_views_outlive_the_column() -> None:
    np = need("numpy")
    col = ua.array(ROWS)
    view = np.frombuffer(col, dtype="V16")
    matrix = np.frombuffer(col, dtype=np.uint8).reshape(-1, 16)
    assert not view.flags.writeable and view.shape == (len(ROWS),)
    with pytest.raises(ValueError, match="read-only"):
        matrix[0, 0] = 1
    expected = [bytes(16) if u is None else u.bytes for u in ROWS]
    del col
    gc.collect()
    assert [bytes(v) for v in view] == expected
    assert [bytes(row) for row in matrix] == expected
    assert np.frombuffer(ua.uuid4(0), dtype="V16").shape == (0,)
    assert [uuid.UUID(bytes=bytes(v)) for v in view[:1]] == ROWS[:1]


# A7: columns large enough for a mapping of their own


def test_large_columns_live_in_their_own_mapping_until_the_last_reference_goes() -> None:
    np = need("numpy")
    n = (32 << 20) // 16 + 1000  # just over 32 MiB of UUIDs
    col = ua.uuid4(n)
    values = np.frombuffer(col, dtype="V16")
    head, tail = col.to_pylist()[:3], col.to_pylist()[-3:]
    imported = pa.array(col)
    text = ua.to_str(imported.slice(n - 3))  # small: on the heap
    big_text = pa.array(ua.to_str(col))  # 36 bytes a row: mapped
    del col, imported
    gc.collect()
    assert [uuid.UUID(bytes=bytes(v)) for v in values[:3]] == head
    assert [uuid.UUID(bytes=bytes(v)) for v in values[-3:]] == tail
    assert text.to_pylist() == [str(u) for u in tail]
    assert big_text[-1].as_py() == str(tail[-1]) and big_text[0].as_py() == str(head[0])
    assert all(u is not None and u.version == 4 for u in head + tail)
    del values, big_text
    gc.collect()
    assert ua.parse(pa.array([str(u) for u in tail])).to_pylist() == tail
