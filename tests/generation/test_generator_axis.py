"""Every generator configuration of the axis (``tests/generator_axis.py``: class, v7 method,
call, rollback policy, clock), shared by real threads and carried across a fork: each thread's
UUIDs increase, no UUID repeats, and no timestamp is ahead of the clock read right after its
call by more than :data:`LIMIT_NS`, beyond the exact run-ahead that counting allows
(:meth:`generator_axis.Config.carry_ns`, RFC 9562 §6.1, §6.2).

The runaway these tests keep out: a ``"cpython"`` generator shared by two threads ran hours
ahead of the clock within seconds, where one thread kept it on the clock. A step that lost its
compare-and-swap to another thread was handed its stale clock reading, which the method took for
a clock gone back (one millisecond added), and from then on every call was "behind" and added
one more.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import catalog
import pytest
from generator_axis import Case, Config, Generator, case_id, order, python_clock, timestamp_ns

import uuidx

#: The ``fork_json`` fixture of conftest.py.
ForkJson = Callable[[Callable[[], object]], Callable[[], Any]]

#: The most a timestamp may be ahead of the clock read right after its call, beyond
#: :meth:`Config.carry_ns`: the 2 ms that the runaway's report set.
LIMIT_NS = 2_000_000
#: The run-ahead that counting may add within one test at most: it caps how many UUIDs a test
#: makes from a v1/v6 generator, whose timestamps step 100 ns per UUID (10,000 UUIDs). For v7 it
#: caps little: Method 3's default 10-bit counter, seeded below 2**9, carries one 244-ns tick
#: per 1,024 UUIDs (4,096 ticks in the budget), and the 42-bit counters need 2**41 UUIDs to
#: carry one millisecond.
CARRY_BUDGET_NS = 1_000_000

THREADS = 4
#: How long the threads of :func:`test_threads_share_a_generator` call, at most.
RACE_SECONDS = 0.05
#: UUIDs a thread keeps there to look for repeats among (then only each call's last).
RACE_KEEP = 20_000
#: ``many(n)`` there. With the system clock ``many`` releases the GIL: long calls put threads
#: in the generator at the same time, on a GIL build too.
RACE_MANY = 1_000
#: The runaway's reproduction: two threads calling ``many(10_000)`` (``generate()`` for a class
#: without ``many``) for this long, shorter than the 2 s of its first report.
REPRO_THREADS = 2
REPRO_SECONDS = 0.1
REPRO_MANY = 10_000
#: A GIL build switches threads only at the interpreter's switch points, every 5 ms by
#: default. A thread switched out inside the injected clock's code, between its reading and
#: its compare-and-swap, loses that to a thread that ran on into a later millisecond: a
#: switch interval of a fraction of a millisecond makes that happen many times a test.
SWITCH_INTERVAL_S = 300e-6

CASES = catalog.GENERATOR_CASES
CONFIGS = catalog.GENERATOR_CONFIGS


@pytest.fixture
def short_switch_interval() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


#: With an injected clock, the first of the threads holds each of its first
#: :data:`DELAYED_READINGS` clock readings this long before the step uses them.
DELAY_S = 0.003
DELAYED_READINGS = 3
_delayed = threading.local()


def overtaken_clock() -> int:
    """The axis's Python clock, whose first readings in the thread :func:`hammer` marks are
    held :data:`DELAY_S` (three milliseconds) before the generator's step uses them: meanwhile
    the other threads' steps, from later milliseconds, overtake each of them. A preemption
    between the reading and the step, as a GIL build makes at a switch point and a
    free-threaded one at any time, made certain."""
    now = python_clock()
    left: int = getattr(_delayed, "left", 0)
    if left:
        _delayed.left = left - 1
        time.sleep(DELAY_S)
    return now


def make(config: Config) -> Generator:
    """A generator of ``config``; with an injected clock, :func:`overtaken_clock`."""
    return config.make(overtaken_clock) if config.clock == "python" else config.make()


#: Per call, the UUIDs it made and the clock read right after it.
Batches = list[tuple[list[uuid.UUID], int]]


@dataclass
class Seen:
    """What one thread of :func:`hammer` saw: every call's last UUID (the one with the latest
    timestamp, for the UUIDs of a call increase) and the clock after it, each UUID of its first
    calls (up to ``keep``, to look for repeats), and how many UUIDs it made."""

    batches: Batches = field(default_factory=list)
    kept: int = 0
    made: int = 0

    def uuids(self) -> list[uuid.UUID]:
        """The UUIDs kept, in the order the thread got them (every call's last among them)."""
        return [u for us, _ in self.batches for u in us]


def hammer(
    call: Callable[[], list[uuid.UUID]], threads: int, seconds: float, most: int, keep: int
) -> list[Seen]:
    """``threads`` threads, started together, each calling ``call`` at least once and then for
    ``seconds`` or until it made ``most`` UUIDs (a thread that waited longer than ``seconds``
    for the GIL, as on a loaded machine or under PyPy's cpyext, still makes its UUIDs); what each
    saw, all its UUIDs kept until it kept ``keep``. The
    bookkeeping in the loop is small, so that the threads spend their time in the generator;
    and the cycle collector waits: the UUIDs kept would otherwise set off full collections of
    the whole test session's heap, which take longer than the test."""
    barrier = threading.Barrier(threads)
    seen = [Seen() for _ in range(threads)]
    failures: list[BaseException] = []

    def work(index: int, mine: Seen) -> None:
        _delayed.left = DELAYED_READINGS if index == 0 else 0
        try:
            barrier.wait()
            deadline = time.monotonic() + seconds
            while mine.made == 0 or (mine.made < most and time.monotonic() < deadline):
                us = call()
                after = time.time_ns()
                mine.made += len(us)
                if mine.kept < keep:
                    mine.kept += len(us)
                else:
                    us = us[-1:]
                mine.batches.append((us, after))
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            failures.append(e)

    workers = [threading.Thread(target=work, args=(i, s)) for i, s in enumerate(seen)]
    collecting = gc.isenabled()
    gc.disable()
    try:
        for t in workers:
            t.start()
        for t in workers:
            t.join()
    finally:
        if collecting:
            gc.enable()
    assert not failures, failures
    return seen


def check_ahead(config: Config, batches: Batches, made: int) -> None:
    """No timestamp in ``batches`` is ahead of the clock read after its call by more than
    :data:`LIMIT_NS` plus what ``made`` UUIDs can carry. A call's UUIDs increase (checked
    apart), so its last has its latest timestamp (a v1 call makes one UUID)."""
    carry = config.carry_ns(made)
    assert carry <= CARRY_BUDGET_NS, (made, carry)
    ahead, u = max(((timestamp_ns(us[-1]) - after, us[-1]) for us, after in batches), key=_lead)
    assert ahead <= LIMIT_NS + carry, (
        f"{config.id}: {u} is {ahead / 1e6:.3f} ms ahead of the clock read after its call "
        f"(at most {LIMIT_NS / 1e6:g} ms, plus {carry} ns that {made} UUIDs can carry)"
    )


def _lead(pair: tuple[int, uuid.UUID]) -> int:
    return pair[0]


def increasing(us: list[uuid.UUID]) -> bool:
    """Whether what the generator keeps increasing (:func:`generator_axis.order`) does."""
    keys = [order(u) for u in us] if us and us[0].version == 1 else [u.int for u in us]
    return all(a < b for a, b in zip(keys, keys[1:]))


def sized(most: int, many: int) -> tuple[int, int]:
    """``(n, cap)``: UUIDs per ``many(n)`` call and the count a thread stops at, so that a
    thread, which stops only after a call that reaches ``cap``, makes at most ``most``. A layout
    without a counter (PostgreSQL's) carries one tick per UUID: its calls are smaller."""
    n = min(many, max(1, most // 10))
    return n, most - n + 1


def most_uuids(config: Config, threads: int) -> int:
    """UUIDs a thread may make: as many as all threads together (and one more call of one
    UUID) can make before counting could carry a timestamp :data:`CARRY_BUDGET_NS` ahead."""
    return (config.uuids_within(CARRY_BUDGET_NS) - 1) // threads


@pytest.mark.usefixtures("short_switch_interval")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_threads_share_a_generator(case: Case) -> None:
    g = make(case.config)
    n, cap = sized(most_uuids(case.config, THREADS), RACE_MANY)
    seen = hammer(case.caller(g, n), THREADS, RACE_SECONDS, cap, RACE_KEEP)
    made = sum(s.made for s in seen)
    everything: set[int] = set()
    for s in seen:
        us = s.uuids()
        assert us, "a thread made no UUID"
        assert us[0].version == us[-1].version == case.config.version
        assert increasing(us), "a thread's UUIDs went down"
        everything.update(u.int for u in us)
        check_ahead(case.config, s.batches, made)
    assert len(everything) == sum(len(s.uuids()) for s in seen), "a UUID was made twice"


@pytest.mark.usefixtures("short_switch_interval")
@pytest.mark.parametrize("config", CONFIGS, ids=case_id)
def test_a_generator_two_threads_hammered_stays_on_the_clock(config: Config) -> None:
    """The runaway's reproduction, shorter: two threads hammer one generator, then one more
    ``generate()`` is on the clock."""
    g = make(config)
    n, cap = sized(most_uuids(config, REPRO_THREADS), REPRO_MANY)
    if isinstance(g, uuidx.V7Generator):
        v7 = g

        def call() -> list[uuid.UUID]:
            return v7.many(n)
    else:

        def call() -> list[uuid.UUID]:
            return [g.generate()]

    seen = hammer(call, REPRO_THREADS, REPRO_SECONDS, cap, 0)
    made = sum(s.made for s in seen) + 1
    u = g.generate()
    check_ahead(config, [([u], time.time_ns())], made)


#: Calls in the parent before the fork and after it, and in the child.
FORK_CALLS = 5
FORK_MANY = 20


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fork(case: Case, fork_json: ForkJson) -> None:
    """The parent makes UUIDs, forks, and makes more while the child makes some: each side's
    increase (the child's from the parent's last before the fork), none is on both sides, and
    both stay on the clock."""
    g = case.config.make()
    call = case.caller(g, FORK_MANY)

    def calls() -> Batches:
        return [(us, time.time_ns()) for us in (call() for _ in range(FORK_CALLS))]

    before = calls()

    def child() -> object:
        return [([u.hex for u in us], after) for us, after in calls()]

    wait = fork_json(child)
    parent = before + calls()
    kid: Batches = [([uuid.UUID(h) for h in us], after) for us, after in wait()]
    made = sum(len(us) for us, _ in parent + kid)
    parent_uuids = [u for us, _ in parent for u in us]
    child_uuids = [u for us, _ in kid for u in us]
    for us in (parent_uuids, before[-1][0][-1:] + child_uuids):
        keys = [order(u) for u in us]
        assert all(a < b for a, b in zip(keys, keys[1:])), "UUIDs went down"
    assert not set(parent_uuids) & set(child_uuids), "the parent and the child made one UUID"
    check_ahead(case.config, parent, made)
    check_ahead(case.config, kid, made)
