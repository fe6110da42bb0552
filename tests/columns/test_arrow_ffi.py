"""The invariants of the Arrow C data interface code, ``rust/uuidx-py/src/ffi/arrow_capsule.rs``
(invariants 1-8, the sections A1-A6 below, with invariants 7 and 8 among the streams of A5) and
the column memory of ``uuidx_core::memory::Pages`` (A7), each exercised with pyarrow as the
other side: capsule names, released and twice-imported capsules, streams that fail, streams
whose producer is interrupted (Ctrl-C stays ``KeyboardInterrupt``), streams whose producer needs
the GIL, data that a producer got wrong, slices with offsets, empty arrays, requested schemas,
and buffers that outlive their column.

These run under ``make test``'s debug build too, where a use-after-free or a double release
would rather abort than pass.
"""

from __future__ import annotations

import ctypes
import gc
import re
import shutil
import signal
import struct
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import catalog
import platform_facts
import pytest
from arrow_cdata import GET_NEXT, Producer, Releases
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


# Invariant 8: a producer stopped by an exception that is not an Exception (Ctrl-C's
# KeyboardInterrupt, sys.exit()'s SystemExit) stops the call with that exception, as pyarrow's
# own read_all() does, never with a ValueError that `except Exception` would swallow.


def failing_reader(type_: Any, rows: Any, fail: Callable[[], BaseException]) -> Any:
    """A pyarrow ``RecordBatchReader`` over a Python generator that yields one batch of ``rows``
    (a column of ``type_``), then raises ``fail()``."""
    schema = pa.schema([("c", type_)])

    def batches() -> Iterator[Any]:
        yield pa.record_batch([rows], schema=schema)
        raise fail()

    return pa.RecordBatchReader.from_batches(schema, batches())


FAILURES: dict[str, tuple[Callable[[], BaseException], type[BaseException]]] = {
    "KeyboardInterrupt": (KeyboardInterrupt, KeyboardInterrupt),
    "SystemExit": (lambda: SystemExit(3), SystemExit),
    "RuntimeError": (lambda: RuntimeError("the producer broke"), ValueError),
}


@pytest.mark.parametrize("failure", list(FAILURES))
@pytest.mark.parametrize(
    ("entry", "position"),
    catalog.column_readers(),
    ids=lambda e: e.name if isinstance(e, catalog.Entry) else str(e),
)
def test_a_producer_that_fails_mid_stream(
    entry: catalog.Entry, position: int, failure: str
) -> None:
    """Every function of the catalogue that reads a column, handed a stream whose Python
    producer fails after one batch."""
    fail, expected = FAILURES[failure]
    if position == entry.column_arg:
        reader = failing_reader(pa.uuid(), uuid_column(pa, [uuidx.uuid7()]), fail)
    else:
        reader = failing_reader(pa.string(), pa.array(["a"]), fail)
    with pytest.raises(BaseException) as info:
        entry.call_with(position, reader)
    assert type(info.value) is expected, repr(info.value)
    if expected is ValueError:
        assert re.search(
            r"the Arrow stream failed \(error code \d+\): .*the producer broke", str(info.value)
        ), str(info.value)
    else:
        assert info.value.args == fail().args


class Stopped(BaseException):
    """A program's own exception that is not an ``Exception`` (as ``asyncio.CancelledError``
    and pytest's outcomes are)."""


class TwoArguments(BaseException):
    def __init__(self, a: int, b: int) -> None:
        super().__init__(a, b)


def noted() -> RuntimeError:
    error = RuntimeError()
    if sys.version_info >= (3, 11):
        error.add_note("KeyboardInterrupt")
    return error


# What a producer raised, and what uuidx raises for it: pyarrow reports the exception to a
# consumer of its C stream by text alone, from which uuidx makes one of the same class and
# message when the class is not an Exception; the text must say so unambiguously.
REPORTED: dict[str, tuple[Callable[[], BaseException], type[BaseException]]] = {
    "KeyboardInterrupt with a message": (lambda: KeyboardInterrupt("twice"), KeyboardInterrupt),
    "SystemExit of a message": (lambda: SystemExit("bye"), SystemExit),
    "SystemExit of sys.exit()": (SystemExit, SystemExit),
    "GeneratorExit": (GeneratorExit, GeneratorExit),
    "a program's own BaseException": (lambda: Stopped("by the test"), Stopped),
    "KeyboardInterrupt while handling another": (lambda: chained(), KeyboardInterrupt),
    # Not recognised: a ValueError, as for every other failure.
    "a message ending in a line KeyboardInterrupt": (
        lambda: RuntimeError("two lines\nKeyboardInterrupt"),
        ValueError,
    ),
    "a note KeyboardInterrupt": (noted, ValueError),
    "a BaseException that its message cannot make": (lambda: TwoArguments(1, 2), ValueError),
}


def chained() -> KeyboardInterrupt:
    try:
        raise LookupError("first")
    except LookupError:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            return interrupt


@pytest.mark.parametrize("name", list(REPORTED))
def test_what_the_producer_raised_is_raised_again(name: str) -> None:
    fail, expected = REPORTED[name]
    with pytest.raises(BaseException) as info:
        ua.parse(failing_reader(pa.string(), pa.array(["a"]), fail))
    assert type(info.value) is expected, repr(info.value)
    if expected is not ValueError:
        assert info.value.args == fail().args
        assert info.value.__cause__ is None and info.value.__context__ is None


# Producers written in C: one that leaves an exception set on the thread (written against
# CPython's C API: the interface says nothing of Python), which uuidx takes before anything else
# runs; one stopped by a real SIGINT while uuidx waits for it, detached, which uuidx's signal
# check after the failure turns into the handler's KeyboardInterrupt. Compiled here, the
# interpreter's symbols found when the library is loaded (no Python.h needed).
C_PRODUCER = r"""
#include <signal.h>

typedef int PyGILState_STATE;
extern PyGILState_STATE PyGILState_Ensure(void);
extern void PyGILState_Release(PyGILState_STATE);
extern void PyErr_SetString(void *type, const char *message);
extern void *PyExc_KeyboardInterrupt, *PyExc_RuntimeError;

static int leave(void *type) {
    PyGILState_STATE state = PyGILState_Ensure();
    PyErr_SetString(type, "left by the producer");
    PyGILState_Release(state);
    return 5; /* EIO */
}

int leave_keyboard_interrupt(void *stream, void *out) { return leave(PyExc_KeyboardInterrupt); }
int leave_runtime_error(void *stream, void *out) { return leave(PyExc_RuntimeError); }

int interrupted(void *stream, void *out) {
    raise(SIGINT);
    return 4; /* EINTR */
}
"""


@pytest.fixture(scope="module")
def c_producer(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The library of :data:`C_PRODUCER`, compiled with ``cc``."""
    cc = shutil.which("cc")
    if cc is None or platform_facts.WINDOWS or not platform_facts.CPYTHON:
        pytest.skip("needs a C compiler (cc) and CPython's C API under its own names")
    folder: Path = tmp_path_factory.mktemp("producer")
    (folder / "producer.c").write_text(C_PRODUCER)
    undefined = ["-undefined", "dynamic_lookup"] if sys.platform == "darwin" else []
    subprocess.run(
        [cc, "-shared", "-fPIC", *undefined, "-o", "producer.so", "producer.c"],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    return ctypes.CDLL(str(folder / "producer.so"))


@pytest.mark.parametrize(
    ("callback", "expected"),
    [
        ("leave_keyboard_interrupt", KeyboardInterrupt),
        ("leave_runtime_error", ValueError),
        ("interrupted", KeyboardInterrupt),
    ],
)
def test_a_producer_in_c_that_fails(
    c_producer: Any, callback: str, expected: type[BaseException]
) -> None:
    p = Producer()
    stream = p.stream(p.schema(b"u"), [])
    stream.get_next = ctypes.cast(getattr(c_producer, callback), GET_NEXT)

    class Leaves:
        def __arrow_c_stream__(self, requested_schema: object = None) -> Any:
            return p.capsule(stream)

    # Python's own SIGINT handler, which a process started with SIGINT ignored (a background
    # job of a non-interactive shell) does not have.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(BaseException) as info:
            ua.parse(Leaves())
    finally:
        signal.signal(signal.SIGINT, previous)
    assert type(info.value) is expected, repr(info.value)
    if callback == "leave_runtime_error":
        assert "the Arrow stream failed (error code 5): no error" in str(info.value)
        assert repr(info.value.__cause__) == "RuntimeError('left by the producer')"
    elif callback == "leave_keyboard_interrupt":
        assert info.value.args == ("left by the producer",)
    assert info.value.__context__ is None, "raised by uuidx, not after it"
    assert p.released["stream"] == 1


# A real SIGINT, in a child process (a KeyboardInterrupt that escaped would end the suite).
SIGINT_PRODUCERS = {
    # The producer is a Python generator on the calling thread, asleep in time.sleep when the
    # signal lands: the handler's KeyboardInterrupt is raised inside it, and pyarrow reports it
    # to uuidx as text. Short sleeps: the kernel may hand the signal to the other thread, and
    # the handler then runs when the main thread's sleep ends.
    "a generator asleep on the calling thread": """
        import os, signal, threading, time, pyarrow as pa, uuidx.arrow
        schema = pa.schema([("id", pa.string())])
        asleep = threading.Event()
        def batches():
            yield pa.record_batch([pa.array([str(uuid.UUID(int=1))])], schema=schema)
            asleep.set()
            for _ in range(3000):
                time.sleep(0.01)
        reader = pa.RecordBatchReader.from_batches(schema, batches())
        threading.Thread(
            target=lambda: (asleep.wait(), os.kill(os.getpid(), signal.SIGINT)), daemon=True
        ).start()
    """,
}


@pytest.mark.skipif(platform_facts.WINDOWS, reason="os.kill(pid, SIGINT) ends a Windows process")
@pytest.mark.parametrize("producer", list(SIGINT_PRODUCERS))
def test_ctrl_c_during_a_stream_is_keyboard_interrupt(producer: str) -> None:
    script = (
        # Python's own SIGINT handler, which an interpreter started with SIGINT ignored (by a
        # background job of a non-interactive shell) does not install.
        "import signal, uuid\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        + textwrap.dedent(SIGINT_PRODUCERS[producer])
        + textwrap.dedent("""
            try:
                uuidx.arrow.parse(reader)
            except BaseException as e:
                print(type(e).__name__, repr(e.__context__))
        """)
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "KeyboardInterrupt None", proc.stdout + proc.stderr


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
