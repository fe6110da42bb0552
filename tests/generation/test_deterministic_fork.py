"""A real ``os.fork()`` taken while other threads are inside bulk calls (which run with the GIL
released), under ``uuidx.testing.deterministic()`` and on the 128-bit state words: every child
must go on making UUIDs.

A child that inherited a lock held by a thread that does not exist in it would wait for ever,
so each child gets a deadline, is killed past it, and counts as a failure: a hang fails the
test instead of stalling the run.
"""

from __future__ import annotations

import contextlib
import faulthandler
import functools
import os
import signal
import sys
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Optional

import pytest
from platform_facts import FORK, NO_FORK

import uuidx
import uuidx.arrow
from uuidx import _core
from uuidx.testing import deterministic

pytestmark = pytest.mark.skipif(not FORK, reason=NO_FORK)

#: How long a child may take: its work takes milliseconds, even on a busy machine.
CHILD_LIMIT_S = 20.0
CHILDREN = 30


def _continues(
    before: uuid.UUID, one: Callable[[], uuid.UUID], many: Callable[[int], list[uuid.UUID]]
) -> int:
    """0 if a UUID of ``one`` and then a hundred of ``many`` continue, in order, a sequence
    whose last UUID before the fork was ``before``; else 2 (the single one) or 3 (the bulk)."""
    first = one()
    if not first > before:
        return 2
    rest = many(100)
    if rest != sorted(rest) or not rest[0] > first:
        return 3
    return 0


def _run_child(before: uuid.UUID) -> int:
    """The child's work: every kind, single and bulk, checked. Its exit status."""
    if code := _continues(before, uuidx.uuid7, uuidx.uuid7_many):
        return code
    if len(uuidx.uuid4_bytes(64)) != 64 * 16 or len(uuidx.uuid7_bytes(64)) != 64 * 16:
        return 4
    uuidx.uuid4()
    uuidx.uuid1()
    uuidx.uuid6()
    uuidx.uuid8()
    if len(uuidx.arrow.uuid7(10).to_pylist()) != 10:
        return 5
    return 0


def _fork_within(
    limit_s: float, child: Callable[[], int], stderr: Optional[Path] = None
) -> Optional[str]:
    """Forks; the child runs ``child`` and exits with its status. ``None`` if it exited with 0,
    else what went wrong (a child still running at the deadline is killed). With ``stderr``, the
    child writes its standard error there: its traceback, or faulthandler's stacks of every
    thread a second before the deadline."""
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a multi-threaded process may deadlock the child:
        # exactly what this test checks does not happen.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: always leave through os._exit
        code = 1
        try:
            if stderr is not None:
                os.dup2(os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
                faulthandler.enable(file=sys.stderr, all_threads=True)
                faulthandler.dump_traceback_later(max(limit_s - 1, 0.5))
            code = child()
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    deadline = time.monotonic() + limit_s
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            if os.WIFSIGNALED(status):
                return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
            code = os.waitstatus_to_exitcode(status)
            return None if code == 0 else f"exit status {code}"
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return f"hung for {limit_s} s"
        time.sleep(0.002)


#: The bulk calls the threads run while the main thread forks (the GIL released in each).
BULK_CALLS: tuple[Callable[[], object], ...] = (
    lambda: uuidx.uuid4_bytes(50_000),
    lambda: uuidx.uuid7_bytes(50_000),
    lambda: uuidx.uuid7_many(5_000),
    lambda: uuidx.arrow.uuid4(50_000),
)


@contextlib.contextmanager
def busy_threads(calls: Iterable[Callable[[], object]]) -> Iterator[list[BaseException]]:
    """One thread per call, each calling it in a loop until the block ends; yields the list of
    what they raised."""
    stop = threading.Event()
    errors: list[BaseException] = []

    def busy(call: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            try:
                while not stop.is_set():
                    call()
            except BaseException as e:  # noqa: BLE001 - reported by the caller
                errors.append(e)

        return run

    threads = [threading.Thread(target=busy(call)) for call in calls]
    for t in threads:
        t.start()
    try:
        yield errors
    finally:
        stop.set()
        for t in threads:
            t.join()


def test_children_forked_while_threads_are_inside_bulk_calls_finish() -> None:
    with deterministic(seed="fork-under-load"), busy_threads(BULK_CALLS) as errors:
        failures = _fork_children(uuidx.uuid7, _run_child)
    assert not errors, errors
    assert not failures, failures


def _fork_children(before: Callable[[], uuid.UUID], child: Callable[[uuid.UUID], int]) -> list[str]:
    """Forks up to ``CHILDREN`` children, 3 ms apart, each running ``child`` on a UUID that
    ``before`` made just before its fork; what went wrong with each that failed. Stops at the
    third failure: each hung child costs the whole limit."""
    failures: list[str] = []
    for i in range(CHILDREN):
        if len(failures) == 3:
            break
        time.sleep(0.003)
        failure = _fork_within(CHILD_LIMIT_S, functools.partial(child, before()))
        if failure is not None:
            failures.append(f"child {i}: {failure}")
    return failures


#: A generator whose state is the 128-bit word: where that word takes a lock (32-bit targets),
#: a thread inside its ``many()`` (GIL released) may hold the lock when another thread forks.
WIDE = uuidx.V7Generator("submillisecond", 11)


def _run_wide_child(before: uuid.UUID) -> int:
    """A child's first UUIDs of the 128-bit words: the shared generator's, uuid6's, uuid1's."""
    if code := _continues(before, WIDE.generate, WIDE.many):
        return code
    if not uuidx.uuid6() < uuidx.uuid6():
        return 4
    uuidx.uuid1()
    return 0


def test_children_forked_while_threads_work_the_wide_words_finish() -> None:
    """The process-wide generators and a shared wide generator, with threads inside its bulk
    call while the main thread forks: every child's first UUIDs of those words come (the fork
    gate keeps a fork from copying the word's lock held)."""
    assert WIDE.lock_free is dict(_core._lock_free())["uuid6"]
    with busy_threads([lambda: WIDE.many(2_000), lambda: WIDE.many(2_000)]) as errors:
        failures = _fork_children(WIDE.generate, _run_wide_child)
    assert not errors, errors
    assert not failures, failures
