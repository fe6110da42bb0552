"""Time-based generators: monotonicity, clocks, nodes, threads and fork."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Union

import pytest
from platform_facts import FORK, NO_FORK, PYPY, PYPY_NO_PYTHONAPI

import uuidx
from uuidx import layout

#: The ``fork_json`` fixture of conftest.py.
ForkJson = Callable[[Callable[[], object]], Callable[[], Any]]

UTC = dt.timezone.utc
METHODS = ["submillisecond", "counter", "monotonic_random"]
DEFAULT_BITS = {"submillisecond": 10, "counter": 42, "monotonic_random": 32}


def ints(us: list[uuid.UUID]) -> list[int]:
    return [u.int for u in us]


def strictly_increasing(values: list[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


def v7_fields(u: uuid.UUID) -> layout.V7Fields:
    f = layout.fields(u)
    assert isinstance(f, layout.V7Fields), f
    return f


# --- the process-wide generators -------------------------------------------------------------


def test_uuid7_monotonic() -> None:
    values = ints([uuidx.uuid7() for _ in range(100_000)])
    assert strictly_increasing(values)
    assert all((v >> 76) & 0xF == 7 and (v >> 62) & 0x3 == 2 for v in values[::97])


def test_uuid7_follows_the_clock() -> None:
    for _ in range(5):
        time.sleep(0.002)  # out of any burst: the generator is not ahead of the clock
        before = time.time_ns() // 1_000_000
        u = uuidx.uuid7()
        after = time.time_ns() // 1_000_000
        ms = v7_fields(u).unix_ts_ms
        assert before - 1 <= ms <= after + 1, (before, ms, after)


def test_uuid6_monotonic() -> None:
    values = [uuidx.uuid6() for _ in range(20_000)]
    assert strictly_increasing(ints(values))
    stamps = [uuidx.timestamp_ns(u) for u in values]
    assert strictly_increasing(stamps)


def test_uuid1_timestamps_increase() -> None:
    stamps = [uuidx.timestamp_ns(uuidx.uuid1()) for _ in range(20_000)]
    assert strictly_increasing(stamps)


@pytest.mark.parametrize("make", [uuidx.uuid1, uuidx.uuid6], ids=["uuid1", "uuid6"])
def test_gregorian_clock_is_now(make: Callable[[], uuid.UUID]) -> None:
    time.sleep(0.002)
    before = time.time_ns()
    u = make()
    after = time.time_ns()
    # 100-ns ticks; allow one millisecond either side.
    assert before - 1_000_000 <= uuidx.timestamp_ns(u) <= after + 1_000_000


@pytest.mark.parametrize("make", [uuidx.uuid1, uuidx.uuid6], ids=["uuid1", "uuid6"])
def test_default_node_is_the_random_multicast_process_node(make: Callable[[], uuid.UUID]) -> None:
    node = uuidx.process_node()
    assert 0 <= node < 1 << 48
    assert node >> 40 & 1 == 1
    for _ in range(10):
        u = make()
        assert u.node == node
        assert u.node >> 40 & 1 == 1
    assert uuidx.process_node() == node


# --- V7Generator -------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_v7_generator_strictly_increasing(method: str) -> None:
    g = uuidx.V7Generator(method)  # type: ignore[arg-type]
    values = [g.generate() for _ in range(50_000)]
    assert all(type(u) is uuid.UUID for u in values[::1000])
    assert strictly_increasing(ints(values))
    assert all(u.version == 7 and u.variant == uuid.RFC_4122 for u in values[::997])
    batch = g.many(10_000)
    assert len(batch) == 10_000
    assert all(type(u) is uuid.UUID for u in batch)
    assert strictly_increasing(ints(batch))
    assert batch[0] > values[-1]
    after = g.generate()
    assert after > batch[-1]
    assert len(set(values) | set(batch)) == 60_000


@pytest.mark.parametrize("method", METHODS)
def test_v7_generator_timestamps_are_now(method: str) -> None:
    g = uuidx.V7Generator(method)  # type: ignore[arg-type]
    before = time.time_ns() // 1_000_000
    u = g.generate()
    after = time.time_ns() // 1_000_000
    assert before - 1 <= v7_fields(u).unix_ts_ms <= after + 1


def test_v7_generator_counter_layout() -> None:
    # Method 1 with CPython 3.14's 42-bit counter: consecutive UUIDs in one millisecond differ
    # by a counter increment in rand_a/rand_b's high bits.
    g = uuidx.V7Generator("counter", 42)
    batch = g.many(1000)
    same_ms = [
        (a, b)
        for a, b in zip(batch, batch[1:])
        if v7_fields(a).unix_ts_ms == v7_fields(b).unix_ts_ms
    ]
    assert same_ms, "1000 UUIDs from many() span more than 1000 milliseconds"
    for a, b in same_ms:
        counter_a = (v7_fields(a).rand_a << 30) | (v7_fields(a).rand_b >> 32)
        counter_b = (v7_fields(b).rand_a << 30) | (v7_fields(b).rand_b >> 32)
        assert counter_b == counter_a + 1


@pytest.mark.parametrize("method", METHODS)
def test_v7_generator_properties_and_repr(method: str) -> None:
    g = uuidx.V7Generator(method)  # type: ignore[arg-type]
    assert g.method == method
    assert g.bits == DEFAULT_BITS[method]
    assert g.rollback_allowance_ns == 10_000_000_000
    assert g.rollback_policy == "reset"
    text = repr(g)
    assert text.startswith("V7Generator(")
    for part in (method, f"bits={g.bits}", "rollback_allowance_ns=10000000000", "reset"):
        assert part in text
    again = eval(text, {"V7Generator": uuidx.V7Generator})  # repr is a valid constructor call
    assert (again.method, again.bits, again.rollback_allowance_ns, again.rollback_policy) == (
        g.method, g.bits, g.rollback_allowance_ns, g.rollback_policy,
    )  # fmt: skip

    custom = uuidx.V7Generator(
        method,  # type: ignore[arg-type]
        20,
        rollback_allowance_ns=123,
        rollback_policy="error",
    )
    assert (custom.method, custom.bits) == (method, 20)
    assert custom.rollback_allowance_ns == 123
    assert custom.rollback_policy == "error"
    assert "bits=20" in repr(custom) and "123" in repr(custom) and "error" in repr(custom)
    assert custom.generate() < custom.generate()


def test_v7_generator_default_is_submillisecond() -> None:
    g = uuidx.V7Generator()
    assert (g.method, g.bits) == ("submillisecond", 10)


def test_v7_generators_are_independent() -> None:
    a, b = uuidx.V7Generator(), uuidx.V7Generator()
    xs = a.many(1000)
    ys = b.many(1000)
    assert not set(xs) & set(ys)


# --- V6Generator / V1Generator ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "version"), [(uuidx.V6Generator, 6), (uuidx.V1Generator, 1)], ids=["V6", "V1"]
)
def test_gregorian_generators(cls: Any, version: int) -> None:
    g = cls()
    assert g.node == uuidx.process_node()
    values = [g.generate() for _ in range(10_000)]
    assert all(type(u) is uuid.UUID and u.version == version for u in values[::101])
    stamps = [uuidx.timestamp_ns(u) for u in values]
    assert strictly_increasing(stamps)
    if version == 6:
        assert strictly_increasing(ints(values))
    assert {u.node for u in values} == {uuidx.process_node()}

    node = 0x0123456789AB
    custom = cls(node=node, rollback_allowance_ns=5, rollback_policy="error")
    assert custom.node == node
    assert custom.rollback_allowance_ns == 5
    assert custom.rollback_policy == "error"
    us = [custom.generate() for _ in range(100)]
    assert {u.node for u in us} == {node}
    assert strictly_increasing([uuidx.timestamp_ns(u) for u in us])
    text = repr(custom)
    assert text.startswith(cls.__name__ + "(") and "0x0123456789ab" in text.lower()
    again = eval(text, {cls.__name__: cls})
    assert (again.node, again.rollback_allowance_ns, again.rollback_policy) == (node, 5, "error")


def test_v1_and_v6_generators_convert() -> None:
    u1 = uuidx.V1Generator(node=7).generate()
    u6 = uuidx.v1_to_v6(u1)
    assert u6.version == 6 and u6.node == 7
    assert uuidx.timestamp_ns(u6) == uuidx.timestamp_ns(u1)
    assert uuidx.v6_to_v1(u6) == u1


# --- threads ------------------------------------------------------------------------------


def run_threads(n_threads: int, work: Callable[[], list[uuid.UUID]]) -> list[list[int]]:
    barrier = threading.Barrier(n_threads)
    results: list[list[int]] = [[] for _ in range(n_threads)]
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            barrier.wait()
            results[i] = ints(work())
        except BaseException as exc:  # reported in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def check_thread_results(results: list[list[int]], per_thread: int) -> None:
    for r in results:
        assert len(r) == per_thread
        assert strictly_increasing(r)
    everything = [v for r in results for v in r]
    assert len(set(everything)) == len(everything)


def test_uuid7_from_threads() -> None:
    per_thread = 250_000
    make = uuidx.uuid7
    results = run_threads(4, lambda: [make() for _ in range(per_thread)])
    check_thread_results(results, per_thread)


@pytest.mark.parametrize("method", METHODS)
def test_shared_v7_generator_from_threads(method: str) -> None:
    per_thread = 50_000
    g = uuidx.V7Generator(method)  # type: ignore[arg-type]
    results = run_threads(4, lambda: [g.generate() for _ in range(per_thread)])
    check_thread_results(results, per_thread)


def test_shared_v7_generator_many_from_threads() -> None:
    g = uuidx.V7Generator()
    results = run_threads(4, lambda: [u for _ in range(10) for u in g.many(5_000)])
    check_thread_results(results, 50_000)


def test_uuid6_and_uuid4_from_threads() -> None:
    results6 = run_threads(4, lambda: [uuidx.uuid6() for _ in range(25_000)])
    check_thread_results(results6, 25_000)
    results4 = run_threads(4, lambda: [uuidx.uuid4() for _ in range(25_000)])
    everything = [v for r in results4 for v in r]
    assert len(set(everything)) == len(everything)


# --- fork ---------------------------------------------------------------------------------

needs_fork = pytest.mark.skipif(not FORK, reason=NO_FORK)


def test_fork_child_gets_fresh_state(fork_json: ForkJson) -> None:
    p0 = uuidx.uuid7()
    parent_node = uuidx.process_node()
    parent_v6_node = uuidx.uuid6().node
    uuidx.uuid4()
    wait = fork_json(
        lambda: {
            "v7": [u.hex for u in (uuidx.uuid7() for _ in range(1000))],
            "v4": [u.hex for u in (uuidx.uuid4() for _ in range(1000))],
            "node": uuidx.process_node(),
            "v6_node": uuidx.uuid6().node,
            "v1_node": uuidx.uuid1().node,
        }
    )
    parent_v7 = [uuidx.uuid7() for _ in range(1000)]
    parent_v4 = [uuidx.uuid4() for _ in range(1000)]
    child = wait()
    child_v7 = [uuid.UUID(h) for h in child["v7"]]
    child_v4 = [uuid.UUID(h) for h in child["v4"]]

    assert all(u > p0 for u in child_v7)
    assert strictly_increasing(ints(child_v7))
    assert strictly_increasing(ints(parent_v7))
    assert not set(child_v7) & set(parent_v7)
    assert not set(child_v4) & set(parent_v4)
    assert len(set(child_v4)) == 1000
    # The child is a new process: a new random node (RFC 9562 §6.10).
    assert child["node"] != parent_node
    assert child["node"] >> 40 & 1 == 1
    assert child["v6_node"] == child["node"] != parent_v6_node
    assert child["v1_node"] == child["node"]
    # The parent keeps its own.
    assert uuidx.process_node() == parent_node
    assert uuidx.uuid6().node == parent_node


RAW_FORK_SCRIPT = textwrap.dedent(
    """
    import ctypes, json, os
    import uuidx

    # libc's fork() called directly: Python's os.register_at_fork hooks do not run, only
    # pthread_atfork handlers (uuidx-core installs one).
    libc = ctypes.PyDLL(None)
    libc.fork.restype = ctypes.c_int
    python_hooks_ran = []
    os.register_at_fork(after_in_child=lambda: python_hooks_ran.append(True))
    node = uuidx.process_node()
    uuidx.uuid4()  # seed this thread's generator (and install the atfork handler)
    children = []
    for _ in range(2):
        r, w = os.pipe()
        pid = libc.fork()
        if pid == 0:
            code = 1
            try:
                os.close(r)
                out = {"hooks": len(python_hooks_ran),
                       "v4": uuidx.uuid4().hex, "node": uuidx.process_node(),
                       "v7": uuidx.uuid7().hex, "v6_node": uuidx.uuid6().node}
                os.write(w, json.dumps(out).encode())
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        data = b""
        while chunk := os.read(r, 65536):
            data += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        children.append(json.loads(data))
    print(json.dumps({"next_v4": uuidx.uuid4().hex, "node": node, "children": children}))
    """
)


@needs_fork
@pytest.mark.skipif(PYPY, reason=PYPY_NO_PYTHONAPI)
def test_fork_without_python_hooks_reseeds() -> None:
    """Two children forked from the same parent, by libc directly (no Python at-fork hooks):
    without the Rust-side pthread_atfork reseed, both would replay the parent's random stream
    and produce the parent's next uuid4."""
    proc = subprocess.run(
        [sys.executable, "-c", RAW_FORK_SCRIPT],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    first, second = out["children"]
    assert first["hooks"] == second["hooks"] == 0  # the reseed did not come from Python
    assert first["v4"] != second["v4"]
    assert out["next_v4"] not in (first["v4"], second["v4"])
    assert first["node"] != out["node"] and second["node"] != out["node"]
    assert first["node"] != second["node"]
    assert first["v6_node"] == first["node"]
    assert first["v7"] != second["v7"]


# --- v7 for a given time --------------------------------------------------------------------

INSTANTS: list[Union[dt.datetime, int]] = [
    dt.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC),
    dt.datetime(2022, 2, 22, 19, 22, 22, tzinfo=UTC),
    dt.datetime(2000, 1, 1, 0, 0, 0, 999999, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
    dt.datetime(1970, 1, 1, tzinfo=UTC),
    dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    1_700_000_000_123_456_789,
    1_645_557_742_000_000_000,
    0,
    999_999,
    (1 << 48) * 1_000_000 - 1,
]


def as_ns(t: Union[dt.datetime, int]) -> int:
    if isinstance(t, int):
        return t
    return (t - dt.datetime(1970, 1, 1, tzinfo=UTC)) // dt.timedelta(microseconds=1) * 1000


@pytest.mark.parametrize("t", INSTANTS, ids=str)
def test_uuid7_at_and_bounds(t: Union[dt.datetime, int]) -> None:
    ns = as_ns(t)
    ms = ns // 1_000_000
    u = uuidx.uuid7_at(t)
    assert type(u) is uuid.UUID
    assert u.version == 7 and u.variant == uuid.RFC_4122
    f = v7_fields(u)
    assert f.unix_ts_ms == ms
    # Method 3: rand_a is the sub-millisecond fraction in 1/4096 ms.
    assert f.rand_a == (ns % 1_000_000) * 4096 // 1_000_000
    lo, hi = uuidx.uuid7_bounds(t)
    assert lo == uuidx.min_uuid7(t)
    assert hi == uuidx.max_uuid7(t)
    assert lo <= u <= hi
    assert v7_fields(lo) == layout.V7Fields(ms, 7, 0, 2, 0)
    assert v7_fields(hi) == layout.V7Fields(ms, 7, (1 << 12) - 1, 2, (1 << 62) - 1)
    assert uuidx.uuid7_at(t) != u  # 62 random bits
    if ms < 253_402_300_800_000:  # datetime goes to the year 9999
        expected = dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(milliseconds=ms)
        assert uuidx.to_datetime(u) == expected
        if isinstance(t, dt.datetime):
            assert expected == t.replace(microsecond=t.microsecond // 1000 * 1000)


def test_uuid7_bounds_of_an_interval() -> None:
    start = dt.datetime(2024, 1, 1, tzinfo=UTC)
    end = dt.datetime(2024, 1, 2, tzinfo=UTC)
    lo, hi = uuidx.uuid7_bounds(start, end)
    assert v7_fields(lo).unix_ts_ms == as_ns(start) // 1_000_000
    assert v7_fields(hi).unix_ts_ms == as_ns(end) // 1_000_000
    inside = [uuidx.uuid7_at(start + dt.timedelta(minutes=m)) for m in range(0, 24 * 60 + 1, 7)]
    assert all(lo <= u <= hi for u in inside)
    before = uuidx.uuid7_at(start - dt.timedelta(milliseconds=1))
    after = uuidx.uuid7_at(end + dt.timedelta(milliseconds=1))
    assert before < lo and after > hi
    assert uuidx.uuid7_bounds(as_ns(start), as_ns(end)) == (lo, hi)


def test_generated_uuid7_inside_bounds_of_now() -> None:
    before = time.time_ns()
    u = uuidx.uuid7()
    after = time.time_ns()
    lo, hi = uuidx.uuid7_bounds(before - 1_000_000, after + 1_000_000)
    assert lo <= u <= hi
