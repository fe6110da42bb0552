"""``uuidx.testing.follow_python_clock`` and the pytest fixture ``uuidx_python_clock``, under
the real freezegun and time-machine: the process-wide time-based functions read the frozen or
travelling clock, stay unique and increasing while it stands still, keep real randomness, and
go back to the system clock afterwards; threads and a forked child included."""

from __future__ import annotations

import datetime
import importlib
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from optional import need

import uuidx
import uuidx.arrow
from uuidx.testing import deterministic, follow_python_clock

freezegun = need("freezegun")

# pyarrow checks the size of datetime's C types when it is first imported, and freezegun's frozen
# `datetime.date` is a subclass of another size (a RuntimeWarning, an error here): import it
# before any test freezes time, as a program that uses it would have. The test that needs it
# still asks `need()`, which fails or skips as UUIDX_REQUIRE says.
try:
    importlib.import_module("pyarrow")
except ImportError:
    pass

UTC = datetime.timezone.utc
#: A leap day at noon, far from today, with a sub-millisecond part of 0.
MOMENT = datetime.datetime(2024, 2, 29, 12, 0, tzinfo=UTC)
MOMENT_NS = 1_709_208_000_000_000_000


def _freezegun(moment: datetime.datetime) -> AbstractContextManager[Any]:
    return freezegun.freeze_time(moment)  # type: ignore[no-any-return]


def _time_machine(moment: datetime.datetime) -> AbstractContextManager[Any]:
    time_machine = need("time_machine", "time-machine publishes no wheel for this interpreter")
    return time_machine.travel(moment, tick=False)  # type: ignore[no-any-return]


#: The tools that freeze time, each a context manager for a moment.
FREEZERS: dict[str, Callable[[datetime.datetime], AbstractContextManager[Any]]] = {
    "freezegun": _freezegun,
    "time-machine": _time_machine,
}


def _v7_ns(u: uuid.UUID) -> int:
    """The instant of a process-wide v7: its millisecond and 12-bit fraction (to 1/4096 ms)."""
    ms, fraction, *_ = uuidx.layout.fields(u, method="submillisecond")
    return int(ms * 1_000_000 + fraction * 1_000_000 // 4096)


def _records(data: bytes) -> list[uuid.UUID]:
    return [uuid.UUID(bytes=data[i : i + 16]) for i in range(0, len(data), 16)]


def _arrow_v7(n: int) -> list[uuid.UUID]:
    need("pyarrow")
    made = uuidx.arrow.uuid7(n).to_pylist()
    assert None not in made
    return [u for u in made if u is not None]


#: Every process-wide function whose UUIDs carry the time, as a call making a few UUIDs in
#: order, with the version they make. ``test_every_time_based_function_is_here`` checks the list
#: against ``uuidx.__all__``.
TIME_BASED: dict[str, tuple[int, Callable[[], list[uuid.UUID]]]] = {
    "uuid1": (1, lambda: [uuidx.uuid1(), uuidx.uuid1()]),
    "uuid6": (6, lambda: [uuidx.uuid6(), uuidx.uuid6()]),
    "uuid7": (7, lambda: [uuidx.uuid7(), uuidx.uuid7()]),
    "uuid7_str": (7, lambda: [uuid.UUID(uuidx.uuid7_str()), uuid.UUID(uuidx.uuid7_str())]),
    "uuid7_many": (7, lambda: uuidx.uuid7_many(5)),
    "uuid7_str_many": (7, lambda: [uuid.UUID(s) for s in uuidx.uuid7_str_many(5)]),
    "uuid7_bytes": (7, lambda: _records(bytes(uuidx.uuid7_bytes(5)))),
    "arrow.uuid7": (7, lambda: _arrow_v7(5)),
}


def test_every_time_based_function_is_here() -> None:
    made_with_time = {
        name
        for name in uuidx.__all__
        if name.startswith(("uuid1", "uuid6", "uuid7"))
        and name not in ("uuid7_at", "uuid7_bounds")  # take their instants as arguments
    }
    assert made_with_time | {"arrow.uuid7"} == set(TIME_BASED)


@pytest.fixture(params=sorted(FREEZERS))
def frozen(request: pytest.FixtureRequest) -> Iterator[None]:
    """Time frozen at :data:`MOMENT` by each tool, with uuidx following Python's clock."""
    with FREEZERS[request.param](MOMENT), follow_python_clock():
        yield


@pytest.mark.parametrize("name", sorted(TIME_BASED))
def test_each_function_reads_the_frozen_clock(frozen: None, name: str) -> None:
    version, call = TIME_BASED[name]
    made = call() + call()
    assert {u.version for u in made} == {version}
    # Every UUID carries the frozen instant (v1 and v6 in 100 ns, v7 in 1/4096 ms ticks).
    assert {uuidx.timestamp_ns(u) // 1_000_000 for u in made} == {MOMENT_NS // 1_000_000}
    assert uuidx.to_datetime(made[0]) == MOMENT
    # Unique and increasing while the clock stands still: the counter (v7), the 100 ns
    # timestamp run ahead (v1's time, v6's value).
    assert len(set(made)) == len(made)
    keys = [u.time if version == 1 else u.int for u in made]
    assert keys == sorted(keys)


def test_v7_counts_within_the_frozen_tick_and_carries_into_the_clock(frozen: None) -> None:
    made = uuidx.uuid7_many(5000)
    assert made == sorted(made) and len(set(made)) == len(made)
    # 10 counter bits: the frozen tick holds 512 to 1024 UUIDs before the key carries into the
    # fraction, so 5000 UUIDs move at most a few 1/4096 ms ticks past the frozen instant.
    assert _v7_ns(made[0]) == MOMENT_NS
    assert 0 < _v7_ns(made[-1]) - MOMENT_NS < 10 * 245


def test_randomness_stays_real() -> None:
    """Two blocks at the same frozen instant give different UUIDs: only time is followed."""
    runs = []
    for _ in range(2):
        with _freezegun(MOMENT), follow_python_clock():
            runs.append((uuidx.uuid7(), uuidx.uuid6(), uuidx.uuid4(), uuidx.uuid8()))
    first, second = runs
    assert all(a != b for a, b in zip(first, second))
    assert _v7_ns(first[0]) // 1_000_000 == _v7_ns(second[0]) // 1_000_000
    # v1 and v6 keep the process's node.
    assert first[1].node == second[1].node == uuidx.uuid6().node


def test_a_travelling_clock_moves_the_uuids() -> None:
    with _freezegun(MOMENT) as frozen_time, follow_python_clock():
        before = uuidx.uuid7()
        frozen_time.tick(datetime.timedelta(minutes=5))
        after = uuidx.uuid7()
        # Back by more than the 10 s rollback allowance: the process-wide policy follows it.
        frozen_time.move_to(MOMENT - datetime.timedelta(days=1))
        earlier = uuidx.uuid7()
    assert uuidx.to_datetime(after) - uuidx.to_datetime(before) == datetime.timedelta(minutes=5)
    assert uuidx.to_datetime(earlier) == MOMENT - datetime.timedelta(days=1)


def test_time_machine_with_a_ticking_clock() -> None:
    time_machine = need("time_machine", "time-machine publishes no wheel for this interpreter")
    with time_machine.travel(MOMENT, tick=True), follow_python_clock():
        first = uuidx.uuid7()
        time.sleep(0.003)
        second = uuidx.uuid7()
    assert MOMENT <= uuidx.to_datetime(first) < MOMENT + datetime.timedelta(seconds=60)
    assert _v7_ns(second) - _v7_ns(first) >= 2_000_000


def test_outside_the_block_the_system_clock_again() -> None:
    with _freezegun(MOMENT):
        with follow_python_clock():
            inside = uuidx.uuid7()
        outside = uuidx.uuid7()
    assert uuidx.to_datetime(inside) == MOMENT
    # freezegun is still active, but uuidx reads the system clock itself again.
    assert abs(_v7_ns(outside) - time.time_ns()) < 60 * 10**9
    assert not (MOMENT_NS <= _v7_ns(outside) < MOMENT_NS + 10**9)


def test_without_the_block_a_frozen_clock_is_not_seen() -> None:
    """The documented limit the block answers: a native module reads the system clock."""
    with _freezegun(MOMENT):
        assert time.time_ns() == MOMENT_NS
        assert uuidx.to_datetime(uuidx.uuid7()) > MOMENT + datetime.timedelta(days=365)


def test_decorator_and_nesting_with_deterministic() -> None:
    @follow_python_clock()
    def made() -> tuple[uuid.UUID, uuid.UUID]:
        with deterministic(seed=3):
            inner = uuidx.uuid7()  # the innermost stand-in wins
        return inner, uuidx.uuid7()

    with _freezegun(MOMENT):
        inner, outer = made()
    assert uuidx.to_datetime(inner) == datetime.datetime(2025, 1, 1, tzinfo=UTC)
    assert uuidx.to_datetime(outer) == MOMENT


def test_threads_share_the_python_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every thread's calls read Python's clock. (freezegun gives threads the real time: it
    leaves calls made under ``threading`` frames unfrozen, for the stdlib's ``uuid7()`` too.)"""
    monkeypatch.setattr(time, "time_ns", lambda: MOMENT_NS)
    results: list[list[uuid.UUID]] = []
    barrier = threading.Barrier(4)

    def work() -> None:
        barrier.wait()
        mine = [uuidx.uuid7() for _ in range(300)] + uuidx.uuid7_many(300)
        results.append(mine)

    with follow_python_clock():
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(results) == 4
    for mine in results:
        assert mine == sorted(mine)
    every = [u for mine in results for u in mine]
    assert len(set(every)) == len(every)
    assert {_v7_ns(u) // 1_000_000 for u in every} == {MOMENT_NS // 1_000_000}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork() is POSIX only")
def test_a_child_forked_inside_the_block_follows_the_frozen_clock() -> None:
    with _freezegun(MOMENT), follow_python_clock():
        parent = uuidx.uuid7()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                child = uuidx.uuid7_many(3)
                ok = all(uuidx.to_datetime(u) == MOMENT for u in child) and child[0] != parent
                os.write(write, b"ok" if ok else b"bad")
            finally:
                os._exit(0)
        os.close(write)
        _, status = os.waitpid(pid, 0)
        answer = os.read(read, 16)
        os.close(read)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert answer == b"ok"


def test_a_clock_before_1970_is_a_clock_error() -> None:
    with _freezegun(datetime.datetime(1969, 7, 20, tzinfo=UTC)), follow_python_clock():
        with pytest.raises(uuidx.ClockError, match="before 1970"):
            uuidx.uuid7()
        with pytest.raises(uuidx.ClockError):
            uuidx.uuid7_many(3)
        assert uuidx.uuid4().version == 4  # no clock in it


def test_a_time_ns_that_returns_no_int_is_a_type_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time_ns", lambda: 1.5e18)
    with follow_python_clock(), pytest.raises(TypeError, match="must return an int"):
        uuidx.uuid6()


def test_an_exception_from_time_ns_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> int:
        raise KeyError("no clock today")

    monkeypatch.setattr(time, "time_ns", broken)
    with follow_python_clock(), pytest.raises(KeyError, match="no clock today"):
        uuidx.uuid7_str()


def test_independent_generators_are_not_affected() -> None:
    with _freezegun(MOMENT), follow_python_clock():
        own = uuidx.V7Generator().generate()
        given = uuidx.V7Generator(clock=time.time_ns).generate()
    assert uuidx.to_datetime(own) != MOMENT
    assert uuidx.to_datetime(given) == MOMENT


# --- the pytest plugin ----------------------------------------------------------------------

PLUGIN_TESTS = """
import datetime

import pytest
from freezegun import freeze_time

import uuidx

MOMENT = datetime.datetime(2024, 2, 29, 12, tzinfo=datetime.timezone.utc)


@freeze_time(MOMENT)
def test_with_the_fixture(uuidx_python_clock):
    assert uuidx.to_datetime(uuidx.uuid7()) == MOMENT


@freeze_time(MOMENT)
def test_without_it_the_plugin_changes_nothing():
    assert uuidx.to_datetime(uuidx.uuid7()) != MOMENT


@pytest.mark.usefixtures("uuidx_python_clock")
class TestMarked:
    @freeze_time(MOMENT)
    def test_marked(self):
        assert uuidx.to_datetime(uuidx.uuid6()) == MOMENT
"""


def _run_pytest(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_plugin_user.py").write_text(PLUGIN_TESTS, encoding="utf-8")
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *options,
            "test_plugin_user.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_plugin_is_registered_and_its_fixture_works(tmp_path: Path) -> None:
    from importlib.metadata import entry_points

    # entry_points(group=...) is Python 3.10's; 3.9 returns a dict of groups.
    found: Any = entry_points()
    group = found.select(group="pytest11") if hasattr(found, "select") else found["pytest11"]
    (plugin,) = [e for e in group if e.value == "uuidx.pytest_plugin"]
    assert plugin.name == "uuidx"
    done = _run_pytest(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout


def test_the_plugin_can_be_left_out(tmp_path: Path) -> None:
    done = _run_pytest(tmp_path, "-p", "no:uuidx")
    assert done.returncode != 0
    assert "fixture 'uuidx_python_clock' not found" in done.stdout
