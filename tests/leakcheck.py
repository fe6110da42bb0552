"""Counting what a call leaves behind: the interpreter's allocated memory blocks and the
reference counts of its arguments, over many calls of that call alone."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Optional

import catalog

#: Calls measured per shape, after as many unmeasured ones.
CALLS = 1000
#: Allowed growth over :data:`CALLS` calls, in blocks or references: a leak of one per call
#: is ten times this.
TOLERANCE = CALLS // 10
#: Measurements of a call before its growth counts as a leak (see :func:`measure`).
ROUNDS = 3


def pymalloc_counts() -> bool:
    """``sys.getallocatedblocks()`` counts only the interpreter's own allocator: it is 0 under
    ``PYTHONMALLOC=malloc`` (the AddressSanitizer build runs that way)."""
    return sys.getallocatedblocks() > 0


def growth(
    call: Callable[[], object],
    raises: Optional[type[BaseException]],
    watched: tuple[object, ...] = (),
    calls: int = CALLS,
) -> tuple[int, list[int]]:
    """``(blocks, refs)``: how many more memory blocks are allocated after ``calls`` calls of
    ``call`` than before, and how much each object of ``watched`` gained in references. Each
    call must raise ``raises`` (or return, for ``None``); the calls run as many times first,
    unmeasured, so that caches and free lists are filled."""
    expected: tuple[type[BaseException], ...] = (raises,) if raises is not None else ()

    def loop(n: int) -> None:
        for _ in range(n):
            try:
                call()
            except expected:
                pass

    with frozen_heap():
        loop(calls)
        gc.collect()
        refs = [sys.getrefcount(o) for o in watched]
        blocks = sys.getallocatedblocks()
        loop(calls)
        gc.collect()
        blocks = sys.getallocatedblocks() - blocks
        after = [sys.getrefcount(o) for o in watched]
    return blocks, [a - r for a, r in zip(after, refs)]


def leaks(blocks: int, refs: list[int]) -> bool:
    """Whether one measurement of :func:`growth` is over the tolerance."""
    return blocks >= TOLERANCE or any(abs(r) >= TOLERANCE for r in refs)


def measure(
    call: Callable[[], object],
    raises: Optional[type[BaseException]],
    watched: tuple[object, ...] = (),
) -> tuple[int, list[int]]:
    """:func:`growth`, measured again (up to :data:`ROUNDS` times in all) while it is over the
    tolerance: a leak grows in every measurement, whereas a free list, a cache or an allocator
    page that the measured calls happened to fill once does not fill again. Returns the last
    measurement."""
    for _ in range(ROUNDS):
        blocks, refs = growth(call, raises, watched)
        if not leaks(blocks, refs):
            break
    return blocks, refs


def check(call: Callable[[], object], raises: Optional[type[BaseException]],
          watched: tuple[object, ...]) -> None:  # fmt: skip
    blocks, refs = measure(call, raises, watched)
    assert blocks < TOLERANCE, (
        f"{blocks} more blocks after {CALLS} calls, in each of {ROUNDS} rounds"
    )
    assert all(abs(r) < TOLERANCE for r in refs), f"reference counts of the arguments: {refs}"


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Every object alive on entry moved out of the cycle collector's sight (``gc.freeze``)
    until exit: the ``gc.collect()`` of each measurement then scans only what the measured
    calls made, not the whole test session's heap (ten times faster in a full run), and what
    they leak counts all the same (blocks and reference counts are counted, not scanned)."""
    if not hasattr(gc, "freeze"):  # PyPy's collector has no permanent generation
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def watched(shape: catalog.Shape) -> tuple[object, ...]:
    """The objects whose reference counts a call of ``shape`` must leave as they were: its
    arguments."""
    return (*shape.args, *shape.kwargs.values())
