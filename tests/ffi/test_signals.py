"""Signals during bulk and column calls: a real signal (``SIGALRM`` from ``setitimer``, which
the kernel delivers whatever holds the GIL) lands while each call is at work. The handler's
exception must come out of the call, the call must have stopped early (loosely: it used far
less CPU time than the whole call needs, or never reached a bad row at the end of its input,
which would have raised something else), and what it made must be freed.

``benches/interrupts.py latency`` measures how soon the handler runs in each call.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any, Callable

import arrow_cdata
import pytest
from arrow_cdata import Exports, Producer
from optional import need
from platform_facts import work

import uuidx
import uuidx.arrow as ua

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "setitimer"),
    reason="needs signal.setitimer, which Windows lacks (POSIX only)",
)


#: The file of the ctypes producer whose callbacks the signal handler leaves alone.
PRODUCER_SOURCE = arrow_cdata.__file__


class Interrupted(Exception):
    """What the test's signal handler raises."""


@pytest.fixture
def alarm() -> Iterator[Callable[[float], object]]:
    """``alarm(seconds)``: SIGALRM after that long, whose handler raises ``Interrupted``.

    The collector's callbacks are set aside meanwhile (hypothesis installs one): a handler
    that runs inside one, during a collection, has its exception swallowed by CPython as
    unraisable, whoever made the objects. Likewise a handler that runs inside another
    library's code that cannot raise (pyarrow's Cython functions report such an exception as
    unraisable, "Exception ignored in: 'ChunkedArray'"): the signal never reached uuidx, so
    another is sent a moment later. An exception that uuidx's own objects swallow is never
    forgiven: it goes to pytest's hook and fails the test."""

    def handler(signum: int, frame: Any) -> None:
        if frame is not None and frame.f_code.co_filename == PRODUCER_SOURCE:
            # Inside a callback of the test's own ctypes producer (a stream's get_next or
            # release), where ctypes would swallow the exception: try again a moment later.
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
        raise Interrupted

    def unraisable(info: Any) -> None:
        if isinstance(info.exc_value, Interrupted) and not of_uuidx(info.object):
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
        hook(info)

    callbacks = gc.callbacks[:]
    gc.callbacks.clear()
    hook = sys.unraisablehook
    sys.unraisablehook = unraisable
    previous = signal.signal(signal.SIGALRM, handler)
    try:
        yield lambda seconds: signal.setitimer(signal.ITIMER_REAL, seconds)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = hook
        gc.callbacks[:] = callbacks


def of_uuidx(obj: object) -> bool:
    """Whether an object that swallowed an exception is uuidx's (one of its objects, or the
    name of one of its functions)."""
    if isinstance(obj, str):
        return "uuidx" in obj
    return type(obj).__module__.startswith("uuidx") or "uuidx" in repr(obj)


def vm_size() -> int:
    """The address space of the process, in bytes (0 where /proc does not tell)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def cpu_of(call: Callable[[], object]) -> float:
    start = time.thread_time()
    call()
    return time.thread_time() - start


def interrupted(
    alarm: Callable[[float], object], call: Callable[[], object], whole: float = 0.16
) -> tuple[float, BaseException]:
    """Runs ``call`` with a signal an eighth of ``whole`` in (the CPU time the whole call
    takes, estimated beforehand; at most 20 ms, at least 2 ms), so that the signal lands well
    inside the work whatever the interpreter's speed; returns its CPU time and the exception."""
    gc.collect()
    blocks, vm = sys.getallocatedblocks(), vm_size()
    with pytest.raises(Interrupted) as info:
        # Armed inside the block: on a busy machine the timer (real time) can expire before
        # the call starts, and the handler's exception must still be the one expected.
        start = time.thread_time()
        alarm(min(0.02, max(0.002, whole / 8)))
        call()
    cpu = time.thread_time() - start
    alarm(0)
    gc.collect()
    # What the call made is freed: the blocks and the address space are back (mimalloc keeps
    # the segments it mapped for reuse, so there only the blocks tell).
    assert sys.getallocatedblocks() - blocks < 200
    if os.environ.get("PYTHONMALLOC") != "mimalloc":
        assert vm_size() - vm < 64 << 20
    return cpu, info.value


# Calls whose work is generation or conversion: stopped early if the CPU time is well below
# the whole call's, estimated from an eighth of it. The sizes are a native machine's; under
# qemu-user (platform_facts.work) a tenth, each row costing ten to fifty times more there, so
# that the signal still lands well inside the work.
N_LIST = work(3_000_000)
#: UUIDs of the bulk call left to run on another thread: 960 MB of bytes, a tenth of that in a
#: 32-bit process, whose address space has no 960 MB in one piece under qemu-arm.
N_BYTES = work(6_000_000 if sys.maxsize < 2**32 else 60_000_000)
#: Rows of the columns of the column calls.
N_ROWS = work(2_000_000)
#: Rows of the column of ``arrow.timestamp_ns``, the cheapest call per row: about 15 ns a row
#: natively and only twice that under qemu-user, where N_ROWS's 200,000 rows took 6.5 ms. A
#: signal 2 ms in then met no check (every 5 ms, ``signals.rs``'s INTERVAL) before the last
#: row: at least 2,000,000 rows, 40-50 ms under qemu-s390x and 60 ms natively here.
N_TIMESTAMPS = work(4_000_000, least=2_000_000)


def bulk_calls() -> dict[str, Callable[[int], object]]:
    return {
        "uuid4_bytes": lambda n: uuidx.uuid4_bytes(16 * n),
        "uuid7_bytes": lambda n: uuidx.uuid7_bytes(16 * n),
        "uuid4_many": uuidx.uuid4_many,
        "uuid7_many": uuidx.uuid7_many,
        "uuid4_str_many": uuidx.uuid4_str_many,
        "uuid7_str_many": uuidx.uuid7_str_many,
        "V7Generator.many": lambda n: uuidx.V7Generator().many(n),
        "arrow.uuid4": lambda n: ua.uuid4(16 * n),
        "arrow.uuid7": lambda n: ua.uuid7(16 * n),
    }


@pytest.mark.parametrize("name", list(bulk_calls()))
def test_a_signal_stops_a_bulk_call(alarm: Callable[[float], object], name: str) -> None:
    call = bulk_calls()[name]
    n = N_LIST
    whole = 8 * cpu_of(lambda: call(n // 8))
    cpu, _ = interrupted(alarm, lambda: call(n), whole)
    assert cpu < whole / 2, f"{name}: {cpu:.3f} s of CPU, the whole call {whole:.3f} s"


class ArrowTexts:
    """An Arrow large_string column of ``texts`` (built by hand: no Arrow library needed),
    exported as a stream of one chunk; each export hands out a fresh copy of the structure."""

    def __init__(self, texts: list[Any]) -> None:
        import struct

        data = "".join(texts).encode()
        offsets, at = [0], 0
        for t in texts:
            at += len(t.encode())
            offsets.append(at)
        self.producer = p = Producer()
        self.schema = p.schema(b"U")
        self.array = p.array(len(texts), [None, struct.pack(f"={len(offsets)}q", *offsets), data])

    def __arrow_c_stream__(self, requested_schema: object = None) -> Any:
        copy = type(self.array).from_buffer_copy(self.array)
        self.producer.keep.append(copy)
        return self.producer.capsule(self.producer.stream(self.schema, [copy]))


def late_column(producer: Producer, n: int, last: uuid.UUID) -> ua.UUIDArray:
    """``n`` version 7 UUIDs then ``last``, made as bytes (no Python object a row) and shared as
    an Arrow ``FixedSizeBinary(16)`` array, whose buffers ``producer`` holds: keep it alive."""
    data = uuidx.uuid7_bytes(n) + last.bytes
    return ua.array(
        Exports(producer, producer.schema(b"w:16"), producer.array(n + 1, [None, data]))
    )


@pytest.fixture(scope="module")
def columns() -> dict[str, Any]:
    n = N_ROWS
    col = ua.uuid7(n)
    values = col.to_pylist()
    strs = [str(u) for u in values]
    facades = ua.mask_v7(col, bytes(16)).to_pylist()
    small = ua.array(values[: n // 8])
    producer = Producer()
    return {
        "producer": producer,
        "col": col,
        "texts": ua.to_str(col),
        "values": values,
        "strs": strs,
        "small": small,
        "small_texts": ua.to_str(small),
        "bad_texts": ArrowTexts(strs + ["nope"]),
        "bad_ulids": ArrowTexts(ua.encode(col, "ulid").to_pylist() + ["not a ulid"]),
        # One millisecond beyond what timestamp[ns] holds (2262-04-11), after N_TIMESTAMPS rows.
        "late": late_column(producer, N_TIMESTAMPS, uuidx.layout.v7(9_223_372_036_855, 0, 0)),
        "v4_last": ua.array(values + [uuid.UUID(int=0, version=4)]),
        "nil_last": ua.array(facades + [uuidx.NIL]),
    }


# Column calls whose input ends with a row they refuse: had they reached it, they would have
# raised ValueError (or TypeError) instead of the handler's exception.
REFUSING: dict[str, Callable[[dict[str, Any]], object]] = {
    "arrow.parse (Arrow)": lambda c: ua.parse(c["bad_texts"]),
    "arrow.parse (list)": lambda c: ua.parse(c["strs"] + ["nope"]),
    "arrow.decode": lambda c: ua.decode(c["bad_ulids"], "ulid"),
    "arrow.timestamp_ns": lambda c: ua.timestamp_ns(c["late"]),
    "arrow.mask_v7": lambda c: ua.mask_v7(c["v4_last"], bytes(16)),
    "arrow.unmask_v7": lambda c: ua.unmask_v7(c["nil_last"], bytes(16)),
    "arrow.array (list)": lambda c: ua.array(c["values"] + ["not a UUID"]),
    "arrow.uuid5 (list)": lambda c: ua.uuid5(uuidx.NAMESPACE_DNS, c["strs"] + [3]),
}


@pytest.mark.parametrize("name", list(REFUSING))
def test_a_signal_stops_a_column_call_before_its_end(
    alarm: Callable[[float], object], columns: dict[str, Any], name: str
) -> None:
    call = REFUSING[name]
    start = time.thread_time()
    with pytest.raises((ValueError, TypeError)):
        call(columns)  # uninterrupted, the last row is refused
    whole = time.thread_time() - start
    _, error = interrupted(alarm, lambda: call(columns), whole)
    assert error.__context__ is None, f"{name} reached the end: {error.__context__!r}"


# Column calls that cannot refuse a row: the CPU time tells (the whole call estimated from one
# over an eighth of the rows).
TIMED: dict[str, Callable[[dict[str, Any], bool], object]] = {
    "arrow.uuid5 (Arrow)": lambda c, small: ua.uuid5(
        uuidx.NAMESPACE_DNS, c["small_texts" if small else "texts"]
    ),
    "arrow.uuid8_name": lambda c, small: ua.uuid8_name(
        uuidx.NAMESPACE_DNS, c["small_texts" if small else "texts"], "sha512"
    ),
    "arrow.to_str": lambda c, small: ua.to_str(c["small" if small else "col"]),
    "arrow.encode": lambda c, small: ua.encode(c["small" if small else "col"], "base58"),
    "UUIDArray.to_pylist": lambda c, small: c["small" if small else "col"].to_pylist(),
    "ArrowArray.to_pylist": lambda c, small: c["small_texts" if small else "texts"].to_pylist(),
}


@pytest.mark.parametrize("name", list(TIMED))
def test_a_signal_stops_a_column_call(
    alarm: Callable[[float], object], columns: dict[str, Any], name: str
) -> None:
    call = TIMED[name]
    whole = 8 * cpu_of(lambda: call(columns, True))
    cpu, _ = interrupted(alarm, lambda: call(columns, False), whole)
    assert cpu < whole / 2, f"{name}: {cpu:.3f} s of CPU, the whole call {whole:.3f} s"


def test_a_long_stream_is_interruptible(alarm: Callable[[float], object]) -> None:
    """A stream of a million chunks, produced in C++ by pyarrow (a producer in Python would run
    the handler itself, inside its callback, where ctypes would swallow the exception)."""
    pa = need("pyarrow")
    chunk = pa.array([b"\0" * 16], pa.binary(16))
    whole = 8 * cpu_of(lambda: ua.array(pa.chunked_array([chunk] * 125_000)))
    stream = pa.chunked_array([chunk] * 1_000_000)
    cpu, _ = interrupted(alarm, lambda: ua.array(stream), whole)
    assert cpu < whole / 2, f"{cpu:.3f} s of CPU, the whole import {whole:.3f} s"


def test_handlers_run_with_the_collector_as_the_program_left_it(
    alarm: Callable[[float], object],
) -> None:
    """``uuid4_many`` pauses the cycle collector while it builds its list; a handler runs with
    it restored, and what the handler does to it stands."""
    seen: list[bool] = []

    def handler(signum: int, frame: Any) -> None:
        seen.append(gc.isenabled())
        gc.disable()

    signal.signal(signal.SIGALRM, handler)
    try:
        assert gc.isenabled()
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        uuidx.uuid4_many(N_LIST)
        assert seen == [True], "the handler ran once, with the collector enabled"
        assert not gc.isenabled(), "the handler's gc.disable() stands"
    finally:
        gc.enable()


def test_only_the_main_thread_runs_handlers(alarm: Callable[[float], object]) -> None:
    """A bulk call on another thread runs to its end; the main thread gets the signal."""
    results: list[int] = []
    worker = threading.Thread(target=lambda: results.append(len(uuidx.uuid7_bytes(N_BYTES))))
    worker.start()
    alarm(0.02)
    with pytest.raises(Interrupted):
        time.sleep(30)
    worker.join()
    assert results == [16 * N_BYTES]
