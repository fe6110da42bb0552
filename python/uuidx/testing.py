"""UUIDs in tests: frozen clocks and reproducible sequences.

A native module reads the system clock itself, so patching ``time.time_ns`` (freezegun,
time-machine) does not move uuidx's UUIDs. Two ways in:

- :func:`follow_python_clock` makes uuidx's process-wide time-based functions read
  ``time.time_ns()`` through Python while it is active, so a frozen or travelling clock moves
  them (the pytest fixture ``uuidx_python_clock`` does the same for one test);
- :func:`deterministic` makes the process-wide functions return a reproducible sequence:

```python
import uuidx
from uuidx.testing import deterministic

with deterministic(seed=42):
    a = uuidx.uuid7()          # the same UUID in every run and every process
    b = uuidx.uuid4()
```

As a pytest fixture:

```python
import pytest
from uuidx.testing import deterministic

@pytest.fixture
def fixed_uuids():
    with deterministic(seed=1):
        yield

def test_order_ids(fixed_uuids):
    assert str(make_order().id) == "..."   # stable across runs
```

The bulk functions (``uuid7_many``, ``uuid4_bytes``, ...) and the generated columns
(:func:`uuidx.arrow.uuid7`, :func:`uuidx.arrow.uuid4`) follow the same sequences.
``deterministic(...)`` also works as a decorator. Independent generators
(:class:`uuidx.V7Generator` and the others) are not affected: give them ``clock=`` and
``random=`` instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Optional, Union

from . import _core, _unix_ns
from .typing import Instant

__all__ = ["DEFAULT_START_NS", "Seed", "deterministic", "follow_python_clock"]

DEFAULT_START_NS = 1_735_689_600_000_000_000
"""Where the clocks of :func:`deterministic` start when no ``start`` is given:
2025-01-01T00:00:00Z, in nanoseconds since 1970."""

Seed = Union[int, str, bytes]
"""A seed: an int of any size, a str or bytes (``1``, ``"1"`` and ``b"1"`` differ)."""


def _seed_bytes(seed: Seed) -> bytes:
    if isinstance(seed, bool) or not isinstance(seed, (int, str, bytes)):
        raise TypeError(
            f"seed must be an int, a str or bytes, got {type(seed).__name__}: "
            f"{_core._short_repr(seed)}"
        )
    if isinstance(seed, int):
        return b"int:" + seed.to_bytes(seed.bit_length() // 8 + 1, "big", signed=True)
    if isinstance(seed, str):
        return b"str:" + seed.encode("utf-8", "surrogatepass")
    return b"bytes:" + seed


@contextlib.contextmanager
def deterministic(
    seed: Seed = 0, start: Optional[Instant] = None, step_ns: int = 1_000_000
) -> Iterator[None]:
    """Make the process-wide generators reproducible for the duration of a ``with`` block.

    Inside the block, ``uuid1``, ``uuid4``, ``uuid6``, ``uuid7``, ``uuid8`` and their
    ``_str``, ``_many`` and ``_bytes`` forms return a sequence that depends only on ``seed``
    and on the order of the calls: the same in every run and every process. Each kind (v1,
    v4, v6, v7, v8) has its own clock and its own random stream (ChaCha12 keyed by SHA-256 of
    the seed and the kind), so adding calls of one kind does not change the UUIDs of another.
    Each clock reads ``start`` first and moves ``step_ns`` at every reading, so v6 and v7
    UUIDs increase and v1 timestamps increase, as in real use. v1 and v6 use a node drawn
    from the seed (multicast bit set) instead of the process node. The real generators come
    back when the block ends, also when it raises; blocks nest (the innermost wins).

    Threads: the replacement is process-wide. Other threads that make UUIDs during the block
    get values from the same deterministic sequences, interleaved in whatever order the
    threads run, so only single-threaded code sees a reproducible sequence.

    Processes: a child forked inside the block continues from its parent's state, so parent
    and child return the same UUIDs from there on (the real generators start afresh in a
    forked child; a deterministic one cannot, or it would not be reproducible). This holds
    also when other threads were making UUIDs at the moment of the fork: the deterministic
    generators take no lock that a thread absent from the child could have left held. Give
    each worker a block of its own with its own seed, such as
    ``deterministic(seed=f"worker-{i}")``.

    Past 2**64 - 1 nanoseconds since 1970 (in 2554, reachable with a large ``step_ns``) the
    clocks stop rather than wrap, and the generators keep increasing within that instant.

    Args:
        seed: Any int, str or bytes.
        start: Where the clocks start: an aware ``datetime`` or nanoseconds since 1970,
            not before 1970 (default :data:`DEFAULT_START_NS`, 2025-01-01T00:00:00Z).
        step_ns: How far each clock moves at each reading, in nanoseconds (0 freezes it:
            the generators then count within one tick).

    Raises:
        TypeError: a seed, start or step of the wrong type.
        ValueError: a start before 1970, or a negative step.
    """
    start_ns = DEFAULT_START_NS if start is None else _unix_ns(start)
    if start_ns < 0:
        raise ValueError(f"start {_core._short_repr(start)} is before 1970")
    if isinstance(step_ns, bool) or not isinstance(step_ns, int):
        raise TypeError(f"step_ns must be an int, got {type(step_ns).__name__}")
    if step_ns < 0:
        raise ValueError(f"step_ns must be 0 or more, got {step_ns}")
    token = _core._stand_in_install_seeded(_seed_bytes(seed), start_ns, step_ns)
    try:
        yield
    finally:
        _core._stand_in_uninstall(token)


@contextlib.contextmanager
def follow_python_clock() -> Iterator[None]:
    """Make the process-wide time-based functions read ``time.time_ns()`` through Python.

    Inside the block, ``uuid1``, ``uuid6`` and ``uuid7``, their ``_str``, ``_many`` and
    ``_bytes`` forms and the columns of :func:`uuidx.arrow.uuid7` take their time from
    ``time.time_ns()``, looked up in the ``time`` module at each reading: what freezegun's
    ``freeze_time`` or time-machine's ``travel`` put there is what they read, as the standard
    library's ``uuid.uuid7()`` does on Python 3.14.

    ```python
    import datetime

    import time_machine

    import uuidx
    from uuidx.testing import follow_python_clock

    moment = datetime.datetime(2024, 2, 29, 12, 0, tzinfo=datetime.timezone.utc)
    with time_machine.travel(moment, tick=False), follow_python_clock():
        a, b = uuidx.uuid7(), uuidx.uuid7()
    assert uuidx.to_datetime(a) == moment and a < b
    ```

    - The generators behind the block are fresh ones of the process-wide layouts. While the
      clock stands still they count within its instant, so UUIDs stay unique and increasing;
      a clock moved back more than 10 s is followed (the process-wide rollback policy).
    - Randomness stays real: ``uuid4()``, ``uuid8()`` and the random bits of every UUID come
      from the CSPRNG, and v1 and v6 keep the process's node.
    - Process-wide: every thread's calls read Python's clock while the block is active. A child
      forked inside the block goes on reading it.
    - Independent generators (:class:`uuidx.V7Generator` and the others) are not affected: give
      them ``clock=time.time_ns``. Outside the block nothing changes and nothing is slower.
    - Blocks nest with each other and with :func:`deterministic`; the innermost wins. Also
      works as a decorator.

    Raises:
        uuidx.ClockError: from a call inside the block, when ``time.time_ns()`` reads before 1970.
    """
    token = _core._stand_in_install_python_clock()
    try:
        yield
    finally:
        _core._stand_in_uninstall(token)
