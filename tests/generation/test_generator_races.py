"""Generators shared by threads, one of them delayed at the worst moment: between reading the
clock and using the reading. A clock that never goes back must never look as if it had."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Union

import pytest

import uuidx

Generator = Union[uuidx.V1Generator, uuidx.V6Generator, uuidx.V7Generator]

ALLOWANCE_NS = 10_000_000
#: How long the delayed thread sleeps in each clock call: three times the allowance.
DELAY_S = 0.03
DELAYED_CALLS = 4


def order(u: uuid.UUID) -> int:
    """What the generator keeps increasing: the timestamp for v1 (whose UUIDs do not sort by
    it), the UUID itself for v6 and v7."""
    return u.time if u.version == 1 else u.int


MAKERS: dict[str, Callable[..., Generator]] = {
    "v1": uuidx.V1Generator,
    "v6": uuidx.V6Generator,
    "v7": uuidx.V7Generator,
    "v7-counter": lambda **kw: uuidx.V7Generator("counter", **kw),
}


@pytest.mark.parametrize("policy", ["error", "reset"])
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_thread_delayed_after_reading_the_clock_never_fakes_a_rollback(
    kind: str, policy: str
) -> None:
    # The clock is the system's and never goes back. One thread sleeps three allowances
    # between reading it and returning the reading; meanwhile another thread keeps generating
    # from the same generator with fresh readings. The delayed calls must neither raise
    # ClockRollbackError nor return a UUID below one already handed out.
    local = threading.local()
    others: list[int] = []
    # For each delayed call: how many of the other thread's UUIDs were handed out before its
    # reading could be used (they all precede it).
    seen_before: list[int] = []
    # For each delayed call: how many the other thread made during the delay.
    made_during: list[int] = []

    def clock() -> int:
        now = time.time_ns()
        if getattr(local, "delayed", False):
            start = len(others)
            time.sleep(DELAY_S)
            seen_before.append(len(others))
            made_during.append(seen_before[-1] - start)
        return now

    g = MAKERS[kind](rollback_allowance_ns=ALLOWANCE_NS, rollback_policy=policy, clock=clock)
    done = threading.Event()
    delayed: list[int] = []
    failures: list[BaseException] = []

    def delayed_thread() -> None:
        local.delayed = True
        try:
            for _ in range(DELAYED_CALLS):
                delayed.append(order(g.generate()))
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            failures.append(e)
        finally:
            done.set()

    def other_thread() -> None:
        while not done.is_set():
            others.append(order(g.generate()))

    # The other thread first, and running, before the first delayed reading: starting a thread
    # can take longer than the delay (under Wine on a busy machine it did).
    threads = [threading.Thread(target=other_thread), threading.Thread(target=delayed_thread)]
    threads[0].start()
    deadline = time.monotonic() + 60
    while not others and time.monotonic() < deadline:
        time.sleep(0.001)
    threads[1].start()
    for t in threads:
        t.join()
    assert not failures, failures
    assert len(delayed) == DELAYED_CALLS
    assert all(a < b for a, b in zip(others, others[1:]))
    assert any(made_during), "the other thread made no UUID during any delay"
    for value, before in zip(delayed, seen_before):
        assert value > max(others[:before]), "a delayed call went below a UUID handed out"
    assert all(a < b for a, b in zip(delayed, delayed[1:]))


@pytest.mark.parametrize("allowance_ns", [0, 100_000, 1_000_000, 10_000_000])
def test_threads_on_the_real_clock_see_no_rollback(allowance_ns: int) -> None:
    # Four threads, one generator, policy "error", the system clock: threads preempted between
    # their reading and their step (on a free-threaded build, threads really in parallel)
    # must not raise ClockRollbackError, even with no allowance at all.
    per_thread = 20_000
    generators: list[Generator] = [
        uuidx.V7Generator(rollback_allowance_ns=allowance_ns, rollback_policy="error"),
        uuidx.V7Generator("counter", rollback_allowance_ns=allowance_ns, rollback_policy="error"),
        uuidx.V6Generator(rollback_allowance_ns=allowance_ns, rollback_policy="error"),
    ]
    for g in generators:
        results: list[list[int]] = []
        failures: list[BaseException] = []

        def work(
            g: Generator = g,
            results: list[list[int]] = results,
            failures: list[BaseException] = failures,
        ) -> None:
            try:
                results.append([g.generate().int for _ in range(per_thread)])
            except BaseException as e:  # noqa: BLE001 - reported by the main thread
                failures.append(e)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures, (g, failures)
        for r in results:
            assert all(a < b for a, b in zip(r, r[1:]))
        everything = [v for r in results for v in r]
        assert len(set(everything)) == len(everything)
